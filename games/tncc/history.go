package tncc

// Entry is one action of the history, as every country may read it: the
// cycle, the seat that acted, the action and its public outcome. Only the
// fields of its Type count. A war's flanks are never in it.
type Entry struct {
	Cycle int
	Seat  int
	// Type is the action taken: Wait, Recruit, Trade or War. A refused
	// action is a Wait with Refused set.
	Type MoveType
	// Refused says why the seat's action was refused and replaced by wait.
	Refused string
	// N is a recruit's number.
	N int64
	// Offer is a trade's offer, and Accepted its answer.
	Offer    Offer
	Accepted bool
	// Battle is what a war did.
	Battle Battle
}

// Recruited returns a recruit's N.
func (e Entry) Recruited() (int64, bool) { return e.N, e.Type == Recruit }

// Trade returns a trade's offer and whether it was accepted.
func (e Entry) Trade() (o Offer, accepted bool, ok bool) {
	return e.Offer, e.Accepted, e.Type == Trade
}

// War returns a war's battle, as everyone may read it.
func (e Entry) War() (Battle, bool) { return e.Battle, e.Type == War }

// Offer is a trade offer: the offerer gives GiveN of Give to With and takes
// TakeN of Take from it.
type Offer struct {
	From, With int
	Give       Resource
	GiveN      int64
	Take       Resource
	TakeN      int64
}

// Attack is what a defender is told of a war: who attacks, with how many
// soldiers in all. Never the flanks.
type Attack struct {
	From int   `json:"from"`
	Sent int64 `json:"sent"`
}

// history is the public record of a match, kept compact and free of
// pointers, so that a match's log costs the garbage collector nothing: an
// Entry is built from it when asked for.
type history struct {
	log      []logEntry
	amounts  []int64 // recruits' and trades' numbers, which may pass an int32
	battles  []Battle
	refusals []string
}

// logEntry is an Entry as history keeps it, in 16 bytes.
type logEntry struct {
	cycle int32
	// ref is, for a wait, 1 + the index of its refusal (0 for none); for a
	// war, the index of its battle; for a recruit, the index of its N in
	// amounts, and for a trade of its GiveN, followed by its TakeN.
	ref      int32
	seat     int8
	with     int8 // a trade's partner
	typ      MoveType
	give     Resource
	take     Resource
	accepted bool
}

func (h *history) len() int { return len(h.log) }

func (h *history) wait(cycle, seat int, refused string) {
	e := logEntry{cycle: int32(cycle), seat: int8(seat), typ: Wait}
	if refused != "" {
		h.refusals = append(h.refusals, refused)
		e.ref = int32(len(h.refusals))
	}
	h.log = append(h.log, e)
}

func (h *history) recruit(cycle, seat int, n int64) {
	h.log = append(h.log, logEntry{cycle: int32(cycle), seat: int8(seat), typ: Recruit, ref: int32(len(h.amounts))})
	h.amounts = append(h.amounts, n)
}

func (h *history) trade(cycle, seat int, m Move, accepted bool) {
	h.log = append(h.log, logEntry{cycle: int32(cycle), seat: int8(seat), typ: Trade, with: int8(m.With),
		give: m.Give, take: m.Take, ref: int32(len(h.amounts)), accepted: accepted})
	h.amounts = append(h.amounts, m.GiveN, m.TakeN)
}

func (h *history) war(cycle, seat int, b Battle) {
	if h.battles == nil {
		h.battles = make([]Battle, 0, 16)
	}
	h.battles = append(h.battles, b)
	h.log = append(h.log, logEntry{cycle: int32(cycle), seat: int8(seat), typ: War, ref: int32(len(h.battles) - 1)})
}

// entry returns entry i as an Entry.
func (h *history) entry(i int) Entry {
	l := &h.log[i]
	e := Entry{Cycle: int(l.cycle), Seat: int(l.seat), Type: l.typ}
	switch l.typ {
	case Wait:
		if l.ref > 0 {
			e.Refused = h.refusals[l.ref-1]
		}
	case Recruit:
		e.N = h.amounts[l.ref]
	case Trade:
		e.Offer = Offer{From: e.Seat, With: int(l.with), Give: l.give, GiveN: h.amounts[l.ref], Take: l.take, TakeN: h.amounts[l.ref+1]}
		e.Accepted = l.accepted
	case War:
		e.Battle = h.battles[l.ref]
	}
	return e
}
