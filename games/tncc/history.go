package tncc

// Entry is one action of the history, as every country may read it: the
// cycle, the seat that acted, the action and its public outcome. A war's
// flanks are never in it.
type Entry struct {
	Cycle int
	Seat  int
	// Type is the action taken: Wait, Recruit, Trade or War. A refused
	// action is a Wait with Refused set.
	Type MoveType
	// Refused says why the seat's action was refused and replaced by wait.
	Refused string

	n      int64 // recruit's N
	offer  Offer // a trade
	answer bool  // a trade's answer
	battle int32 // a war: index into the match's battles
	h      *history
}

// Recruited returns a recruit's N.
func (e Entry) Recruited() (int64, bool) { return e.n, e.Type == Recruit }

// Trade returns a trade's offer and whether it was accepted.
func (e Entry) Trade() (o Offer, accepted bool, ok bool) {
	return e.offer, e.answer, e.Type == Trade
}

// War returns a war's battle, as everyone may read it.
func (e Entry) War() (Battle, bool) {
	if e.Type != War || e.h == nil {
		return Battle{}, false
	}
	return e.h.battles[e.battle], true
}

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
	From int
	Sent int64
}

// history is the public record of a match.
type history struct {
	entries []Entry
	battles []Battle
}

func (h *history) add(e Entry) {
	e.h = h
	h.entries = append(h.entries, e)
}

func (h *history) war(cycle, seat int, b Battle) {
	h.battles = append(h.battles, b)
	h.add(Entry{Cycle: cycle, Seat: seat, Type: War, battle: int32(len(h.battles) - 1)})
}
