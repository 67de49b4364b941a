package tncc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// snapshot is the full state of a match, the judge's: what its hash is
// made of, and what Restore resumes it from. Beyond the world, it holds
// what the world does not: whose decision is owed and the request's id
// (serial), the action waiting for its answer with its flanks (a war's
// flanks are hidden from everyone until the battle), why this turn's last
// action was refused, the whole public history and when each country's
// death came in it, and the cycle a finished game ended in.
type snapshot struct {
	Game    string `json:"game"`
	World   World  `json:"world"`
	Phase   uint8  `json:"phase"`
	Next    int    `json:"next"`
	Action  *Move  `json:"action,omitempty"`
	Refused string `json:"refused,omitempty"`
	Serial  int64  `json:"serial"`
	Last    int    `json:"last,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// History is the log, one entry per array: cycle, seat, action,
	// partner, give, take, accepted, ref, a, b (see logEntry), the action
	// and resources by number.
	History  intRows  `json:"history"`
	Refusals []string `json:"refusals,omitempty"`
	// Battles are the wars of the history, each attacker, defender, sent,
	// defended, attackers left, defenders left, outcome and the loot's
	// five resources.
	Battles intRows `json:"battles,omitempty"`
	// Deaths are the countries' deaths, in order: the history's length
	// when each was noted, and the seat.
	Deaths intRows `json:"deaths,omitempty"`
}

// snapshotGame names the game in its snapshots.
const snapshotGame = "tncc"

// MarshalJSON returns a snapshot of the full state (see snapshot). It
// holds the flanks of a war not yet answered: it is for storage only,
// never for a country's or a spectator's eyes.
func (m *Match) MarshalJSON() ([]byte, error) {
	s := snapshot{Game: snapshotGame, World: m.world, Phase: uint8(m.phase), Next: m.next, Refused: m.refused,
		Serial: m.serial, Reason: m.reason, History: make(intRows, len(m.hist.log)), Refusals: m.hist.refusals,
		Battles: make(intRows, len(m.hist.battles)), Deaths: make(intRows, len(m.deaths))}
	if m.phase == tradePhase || m.phase == warPhase {
		s.Action = &m.action
	}
	if m.phase == overPhase {
		s.Last = m.last
	}
	for i, e := range m.hist.log {
		var acc int64
		if e.accepted {
			acc = 1
		}
		ref, a, b := int64(e.ref), int64(0), int64(0)
		switch e.typ {
		case Recruit:
			ref, a = 0, m.hist.amounts[e.ref]
		case Trade:
			ref, a, b = 0, m.hist.amounts[e.ref], m.hist.amounts[e.ref+1]
		}
		s.History[i] = []int64{int64(e.cycle), int64(e.seat), int64(e.typ), int64(e.with), int64(e.give), int64(e.take), acc, ref, a, b}
	}
	for i, b := range m.hist.battles {
		s.Battles[i] = []int64{int64(b.Attacker), int64(b.Defender), b.Sent, b.Defended, b.AttackersLeft, b.DefendersLeft, int64(b.Outcome),
			b.Loot[0], b.Loot[1], b.Loot[2], b.Loot[3], b.Loot[4]}
	}
	for i, d := range m.deaths {
		s.Deaths[i] = []int64{int64(d.at), int64(d.seat)}
	}
	return json.Marshal(s)
}

// Restore resumes the match of setup from a snapshot made by MarshalJSON
// (see engine.Restorer). The snapshot holds hidden flanks: it is for
// storage only.
func (g Game) Restore(setup engine.Setup, data []byte) (engine.Match[Move, View], error) {
	return g.RestoreMatch(setup, data)
}

// RestoreMatch is Restore with the concrete type.
func (Game) RestoreMatch(setup engine.Setup, data []byte) (*Match, error) {
	var s snapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, engine.SnapshotProblem(snapshotGame, data, err)
	}
	if s.Game != snapshotGame {
		return nil, fmt.Errorf("tncc: the snapshot is of a %q match, not of tncc", s.Game)
	}
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	p, err := PresetOption(setup.Options["preset"])
	if err != nil {
		return nil, err
	}
	w := &s.World
	if w.Preset != p {
		return nil, fmt.Errorf("tncc: the snapshot is of a game on the %s preset; the setup's is on %s", w.Preset.Name, p.Name)
	}
	if len(w.Countries) != setup.Seats() {
		return nil, fmt.Errorf("tncc: the snapshot has %d countries; the setup has %d seats", len(w.Countries), setup.Seats())
	}
	m := &Match{world: *w, phase: phase(s.Phase), next: s.Next, refused: s.Refused, serial: s.Serial, reqs: requests(), living: w.Living()}
	if err := m.restoreHistory(&s); err != nil {
		return nil, fmt.Errorf("tncc: snapshot: %w", err)
	}
	if err := m.restoreDeaths(s.Deaths); err != nil {
		return nil, fmt.Errorf("tncc: snapshot: %w", err)
	}
	if err := m.restoreTurn(&s); err != nil {
		return nil, fmt.Errorf("tncc: snapshot: %w", err)
	}
	return m, nil
}

// restoreTurn restores where the game is: the decision owed, or its end.
func (m *Match) restoreTurn(s *snapshot) error {
	w := &m.world
	if s.Serial < 1 {
		return fmt.Errorf("serial %d; a match has asked at least once", s.Serial)
	}
	if m.phase == overPhase {
		if s.Last < 1 || s.Last < w.Cycle-1 || s.Last > w.Cycle || s.Action != nil {
			return fmt.Errorf("a game over in cycle %d at cycle %d (with an action waiting: %v)", s.Last, w.Cycle, s.Action != nil)
		}
		m.end(s.Last)
		if m.reason != s.Reason {
			return fmt.Errorf("the game ended for %q, but its world says %q", s.Reason, m.reason)
		}
		return nil
	}
	if s.Reason != "" || s.Last != 0 {
		return fmt.Errorf("a game under way has no end (%q, cycle %d)", s.Reason, s.Last)
	}
	if m.living < 2 || w.Cycle > w.Preset.MaxCycles {
		return fmt.Errorf("%d countries alive in cycle %d of %d, and the game is not over", m.living, w.Cycle, w.Preset.MaxCycles)
	}
	if s.Next < 0 || s.Next >= len(w.Countries) || w.Countries[s.Next].Dead {
		return fmt.Errorf("next: %d is not a living country's seat", s.Next)
	}
	switch m.phase {
	case turnPhase:
		if s.Action != nil {
			return fmt.Errorf("an action waits for its answer at a country's turn")
		}
		m.asked(s.Next, turnRequest, s.Serial)
	case tradePhase, warPhase:
		want, kind, asked := Trade, tradeRequest, 0
		if m.phase == warPhase {
			want, kind = War, warRequest
		}
		if s.Action == nil || s.Action.Type != want {
			return fmt.Errorf("phase %d waits for the answer to a %v", m.phase, want)
		}
		if err := w.Check(s.Next, *s.Action); err != nil {
			return fmt.Errorf("the action waiting, %v: %w", *s.Action, err)
		}
		m.action = *s.Action
		if asked = m.action.With; want == War {
			asked = m.action.Target
		}
		m.asked(asked, kind, s.Serial)
	default:
		return fmt.Errorf("phase %d; phases are 0 to %d", s.Phase, overPhase)
	}
	return nil
}

// asked restores the request open: of kind, to seat, with id.
func (m *Match) asked(seat, kind int, id int64) {
	m.kind = kind
	r := &m.reqs[kind]
	r.ID, r.Seat = id, seat
}

// restoreHistory restores the log, the refusals and the battles, each
// entry checked as the rules write it.
func (m *Match) restoreHistory(s *snapshot) error {
	n := int64(len(m.world.Countries))
	for i, b := range s.Battles {
		if len(b) != 12 {
			return fmt.Errorf("battles[%d] has %d numbers; a battle has 12", i, len(b))
		}
		if b[0] < 0 || b[0] >= n || b[1] < 0 || b[1] >= n || b[0] == b[1] || b[6] < 0 || b[6] > int64(DefenderWon) {
			return fmt.Errorf("battles[%d]: attacker %d, defender %d, outcome %d; countries are 0 to %d, outcomes 0 to %d", i, b[0], b[1], b[6], n-1, DefenderWon)
		}
		m.hist.battles = append(m.hist.battles, Battle{Attacker: int(b[0]), Defender: int(b[1]), Sent: b[2], Defended: b[3], AttackersLeft: b[4],
			DefendersLeft: b[5], Outcome: Outcome(b[6]), Loot: Stock{b[7], b[8], b[9], b[10], b[11]}})
	}
	m.hist.refusals = s.Refusals
	m.hist.log = make([]logEntry, len(s.History))
	for i, h := range s.History {
		if len(h) != 10 {
			return fmt.Errorf("history[%d] has %d numbers; an entry has 10", i, len(h))
		}
		e, err := m.hist.entryOf([10]int64(h), n, m.world.Cycle)
		if err != nil {
			return fmt.Errorf("history[%d]: %w", i, err)
		}
		m.hist.log[i] = e
	}
	return nil
}

// entryOf reads a log entry of a snapshot's history, for a game of n
// countries now in cycle now.
func (h *history) entryOf(x [10]int64, n int64, now int) (logEntry, error) {
	cycle, seat, typ, with, give, take, acc, ref := x[0], x[1], MoveType(x[2]), x[3], x[4], x[5], x[6], x[7]
	e := logEntry{cycle: int32(cycle), seat: int8(seat), typ: typ, accepted: acc == 1}
	switch {
	case cycle < 1 || cycle > int64(now):
		return e, fmt.Errorf("cycle %d; the game is in cycle %d", cycle, now)
	case seat < 0 || seat >= n:
		return e, fmt.Errorf("seat %d; countries are 0 to %d", seat, n-1)
	case x[2] < 0 || x[2] > int64(War):
		return e, fmt.Errorf("action %d; actions are 0 (wait) to 3 (war)", x[2])
	case acc != 0 && acc != 1:
		return e, fmt.Errorf("accepted is %d; want 0 or 1", acc)
	}
	// The fields an action does not use are 0.
	unused := [...][8]bool{
		Wait:    {3: true, 4: true, 5: true, 6: true},
		Recruit: {3: true, 4: true, 5: true, 6: true, 7: true},
		Trade:   {7: true},
		War:     {3: true, 4: true, 5: true, 6: true},
	}[typ]
	for k := 3; k < 8; k++ {
		if unused[k] && x[k] != 0 {
			return e, fmt.Errorf("field %d of a %v is %d; want 0", k, typ, x[k])
		}
	}
	if (typ != Recruit && typ != Trade && x[8] != 0) || (typ != Trade && x[9] != 0) {
		return e, fmt.Errorf("amounts %d, %d for a %v", x[8], x[9], typ)
	}
	switch typ {
	case Wait:
		if ref < 0 || ref > int64(len(h.refusals)) {
			return e, fmt.Errorf("refusal %d; there are %d", ref, len(h.refusals))
		}
	case Trade:
		if with < 0 || with >= n || with == seat || give < 0 || give >= NumResources || take < 0 || take >= NumResources || x[8] < 0 || x[9] < 0 {
			return e, fmt.Errorf("a trade with %d of %d %d for %d %d", with, x[8], give, x[9], take)
		}
		e.with, e.give, e.take = int8(with), Resource(give), Resource(take)
	case War:
		if ref < 0 || ref >= int64(len(h.battles)) || h.battles[ref].Attacker != int(seat) {
			return e, fmt.Errorf("battle %d is not one of country %d's (%d battles)", ref, seat, len(h.battles))
		}
	}
	e.ref = int32(ref)
	switch typ {
	case Recruit:
		e.ref = int32(len(h.amounts))
		h.amounts = append(h.amounts, x[8])
	case Trade:
		e.ref = int32(len(h.amounts))
		h.amounts = append(h.amounts, x[8], x[9])
	}
	return e, nil
}

// restoreDeaths restores the deaths noted: every dead country once, in
// the history's order, and no living one.
func (m *Match) restoreDeaths(deaths intRows) error {
	at := 0
	for i, x := range deaths {
		if len(x) != 2 || x[0] < int64(at) || x[0] > int64(m.hist.len()) || x[1] < 0 || x[1] >= int64(len(m.world.Countries)) {
			return fmt.Errorf("deaths[%d]: %v; want [at, seat], at from %d to %d and a seat of the game", i, x, at, m.hist.len())
		}
		d := [2]int{int(x[0]), int(x[1])}
		c := &m.world.Countries[d[1]]
		if !c.Dead || m.buried&(1<<d[1]) != 0 {
			return fmt.Errorf("deaths[%d]: country %d is alive, or dies twice", i, d[1])
		}
		at = d[0]
		m.buried |= 1 << d[1]
		m.deaths = append(m.deaths, death{at: d[0], seat: d[1], cycle: c.Died})
	}
	if dead := len(m.world.Countries) - m.living; len(m.deaths) != dead {
		return fmt.Errorf("%d deaths for %d dead countries", len(m.deaths), dead)
	}
	return nil
}

// intRows is a table of whole numbers, one row an entry, whose JSON is an
// array of arrays of numbers: [[1, 0, 2], [3, 4, 5]]. It reads and writes
// its JSON by hand, ten times faster than encoding/json's reflection on a
// long history.
type intRows [][]int64

// MarshalJSON writes the table.
func (t intRows) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(t)*24)
	b = append(b, '[')
	for i, row := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for k, x := range row {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, x, 10)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads an array of arrays of whole numbers; null is no
// rows. The rows share one array.
func (t *intRows) UnmarshalJSON(b []byte) error {
	p := rowsParser{b: b}
	if p.word("null") {
		*t = nil
		return nil
	}
	var all []int64 // every number
	var ends []int  // where each row ends in all
	if !p.byte('[') {
		return p.fail("an array of rows")
	}
	for !p.byte(']') {
		if len(ends) > 0 && !p.byte(',') {
			return p.fail("',' or ']'")
		}
		if !p.byte('[') {
			return p.fail("a row, an array of whole numbers")
		}
		for start := len(all); !p.byte(']'); {
			if len(all) > start && !p.byte(',') {
				return p.fail("',' or ']'")
			}
			x, ok := p.int()
			if !ok {
				return p.fail("a whole number")
			}
			all = append(all, x)
		}
		ends = append(ends, len(all))
	}
	p.space()
	if p.i != len(b) {
		return p.fail("the end")
	}
	rows, start := make(intRows, len(ends)), 0
	for i, end := range ends {
		rows[i], start = all[start:end:end], end
	}
	*t = rows
	return nil
}

// rowsParser reads intRows' JSON.
type rowsParser struct {
	b []byte
	i int
}

func (p *rowsParser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

// byte consumes c, after spaces, if it comes next.
func (p *rowsParser) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word consumes w, after spaces, if it comes next.
func (p *rowsParser) word(w string) bool {
	p.space()
	if strings.HasPrefix(string(p.b[p.i:]), w) {
		p.i += len(w)
		return true
	}
	return false
}

// int reads a whole number as JSON writes it: no sign but '-', no leading
// zero, no fraction or exponent.
func (p *rowsParser) int() (int64, bool) {
	p.space()
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	if p.i == digits || p.i-digits > 1 && p.b[digits] == '0' {
		return 0, false
	}
	x, err := strconv.ParseInt(string(p.b[start:p.i]), 10, 64)
	return x, err == nil
}

func (p *rowsParser) fail(want string) error {
	return fmt.Errorf("at byte %d: want %s", p.i, want)
}
