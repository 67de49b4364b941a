package zombie

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// snapshot is the full state of a match, the judge's: what its hash is
// made of, and what Restore resumes it from. The judge's state is its
// script (every command the match has issued, which the judge replays to
// the same state, events and hidden flags included); beside it the match
// keeps the generator's state, the order of the seats it drew last (each
// turn's order is shuffled from the last), the plans made so far this
// turn, the requests' serial number and where each turn's commands start.
// Phase, turn, players (their true states) and the counts of events are
// what the script comes to, written out for the hash and checked on
// restore.
type snapshot struct {
	Game    string        `json:"game"`
	Phase   string        `json:"phase"`
	Turn    int           `json:"turn"`
	Players []playerState `json:"players"`
	Planned []*Plan       `json:"planned"`
	Events  int           `json:"events"`
	Script  []string      `json:"script"`
	TurnAt  []int         `json:"turn_at"`
	Order   []int         `json:"order"`
	Serial  int64         `json:"serial"`
	RNG     []byte        `json:"rng"`
}

type playerState struct {
	Name       string `json:"name"`
	State      string `json:"state"`
	Antibodies int64  `json:"antibodies"`
	Viruses    int64  `json:"viruses"`
}

// snapshotGame names the game in its snapshots.
const snapshotGame = "zombie"

// MarshalJSON returns a snapshot of the full state (see snapshot): every
// player's true state, the plans made so far this turn, the generator.
// It holds every secret of the game: it is for storage only, never for a
// player's or a spectator's eyes.
func (m *Match) MarshalJSON() ([]byte, error) {
	rng, err := m.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := snapshot{Game: snapshotGame, Phase: m.judge.Phase().String(), Turn: m.judge.Turn(), Events: len(m.judge.Events()),
		Players: m.players(), Planned: make([]*Plan, m.n), Script: script(m.cmds), TurnAt: m.turnAt, Order: m.order, Serial: m.serial, RNG: rng}
	if s.TurnAt == nil {
		s.TurnAt = []int{}
	}
	for i := range s.Planned {
		if m.planned[i] {
			s.Planned[i] = &m.plans[i]
		}
	}
	return json.Marshal(s)
}

// players returns every player's true state.
func (m *Match) players() []playerState {
	out := make([]playerState, m.n)
	for i := range out {
		p := m.judge.Player(i)
		out[i] = playerState{Name: p.Name, State: p.State.String(), Antibodies: p.Antibodies, Viruses: p.Viruses}
	}
	return out
}

// script returns the commands as script lines.
func script(cmds []Command) []string {
	lines := make([]string, len(cmds))
	for i, c := range cmds {
		lines[i] = c.String()
	}
	return lines
}

// Restore resumes the match of setup from a snapshot made by MarshalJSON
// (see engine.Restorer). The snapshot holds every identity and the
// generator: it is for storage only.
func (g Game) Restore(setup engine.Setup, data []byte) (engine.Match[Plan, View], error) {
	return g.RestoreMatch(setup, data)
}

// RestoreMatch is Restore with the concrete type: the match of setup as
// NewMatch makes it, whose judge then runs the rest of the snapshot's
// script.
func (g Game) RestoreMatch(setup engine.Setup, data []byte) (*Match, error) {
	var s snapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, engine.SnapshotProblem(snapshotGame, data, err)
	}
	if s.Game != snapshotGame {
		return nil, fmt.Errorf("zombie: the snapshot is of a %q match, not of zombie", s.Game)
	}
	m, err := g.NewMatch(setup)
	if err != nil {
		return nil, err
	}
	if err := m.replay(s.Script); err != nil {
		return nil, fmt.Errorf("zombie: snapshot: %w", err)
	}
	if err := m.restoreTurn(&s); err != nil {
		return nil, fmt.Errorf("zombie: snapshot: %w", err)
	}
	return m, nil
}

// replay has the judge run the script's commands after those m has made:
// the roster and GAME_START of its setup, which the script must begin
// with.
func (m *Match) replay(lines []string) error {
	start := len(m.cmds)
	if len(lines) < start {
		return fmt.Errorf("the script has %d lines; the setup's roster and GAME_START alone are %d", len(lines), start)
	}
	for i, c := range m.cmds {
		if lines[i] != c.String() {
			return fmt.Errorf("script line %d is %q; the setup's is %q", i+1, lines[i], c.String())
		}
	}
	m.cmds = slices.Grow(m.cmds, len(lines)-start)
	for i, line := range lines[start:] {
		c, ok := ParseLine(line)
		if !ok || c.Op == OpUnknown || c.Bad != "" {
			return fmt.Errorf("script line %d: %q is not a command", start+i+1, line)
		}
		if err := m.do(c); err != nil {
			return fmt.Errorf("script line %d: %w", start+i+1, err)
		}
	}
	return nil
}

// restoreTurn restores what the script does not say, and checks what the
// snapshot says of the judge against what its script came to.
func (m *Match) restoreTurn(s *snapshot) error {
	j := m.judge
	switch {
	case s.Phase != j.Phase().String() || s.Turn != j.Turn() || s.Events != len(j.Events()):
		return fmt.Errorf("phase %s, turn %d, %d events; the script comes to %s, turn %d, %d events", s.Phase, s.Turn, s.Events, j.Phase(), j.Turn(), len(j.Events()))
	case !slices.Equal(s.Players, m.players()):
		return errors.New("the players are not what the script makes them")
	case len(s.Order) != m.n || len(s.Planned) != m.n:
		return fmt.Errorf("%d seats in the order and %d plans; the game has %d seats", len(s.Order), len(s.Planned), m.n)
	}
	seen := make([]bool, m.n)
	for _, x := range s.Order {
		if x < 0 || x >= m.n || seen[x] {
			return fmt.Errorf("the order %v is not the seats 0 to %d, each once", s.Order, m.n-1)
		}
		seen[x] = true
	}
	copy(m.order, s.Order)
	if err := m.restoreTurnAt(s.TurnAt); err != nil {
		return err
	}
	m.rng = &rand.PCG{}
	if err := m.rng.UnmarshalBinary(s.RNG); err != nil {
		return fmt.Errorf("rng: %w", err)
	}
	opened := int64(len(m.turnAt))
	if !m.Over() {
		opened++
	}
	if want := opened * int64(m.n); s.Serial != want {
		return fmt.Errorf("serial %d; %d turns opened for %d seats ask %d", s.Serial, opened, m.n, want)
	}
	m.serial = s.Serial
	for seat := range m.reqs {
		m.reqs[seat].ID = m.serial - int64(m.n-seat) + 1
	}
	return m.restorePlans(s.Planned)
}

// restoreTurnAt restores where each turn's commands start: one turn for
// each turn played, in order, after the roster and GAME_START.
func (m *Match) restoreTurnAt(at []int) error {
	played := m.judge.Turn() - 1
	if m.Over() {
		played = m.judge.Turn()
	}
	if len(at) != played {
		return fmt.Errorf("turn_at has %d turns; the script has played %d", len(at), played)
	}
	from := m.n + 1
	for i, x := range at {
		if x < from || x > len(m.cmds) {
			return fmt.Errorf("turn_at[%d] is %d; want %d to %d", i, x, from, len(m.cmds))
		}
		from = x
	}
	m.turnAt = slices.Clone(at)
	return nil
}

// restorePlans restores the plans made this turn, each one a plan its seat
// may make now; once the game is over, the last turn's plans as they were.
func (m *Match) restorePlans(plans []*Plan) error {
	m.waiting = m.n
	for seat, p := range plans {
		if p == nil {
			continue
		}
		if !m.Over() {
			if err := m.check(seat, *p, false); err != nil {
				return fmt.Errorf("%s's plan: %w", SeatName(seat), err)
			}
		}
		m.plans[seat], m.planned[seat] = p.clone(), true
		m.waiting--
	}
	if m.Over() {
		m.finish()
		return nil
	}
	if m.waiting == 0 {
		return errors.New("every seat has planned the turn, and it is not played")
	}
	return nil
}

// judgedSnapshot is the full state of a game run by its judge: the seats'
// players and the script so far, which replays it.
type judgedSnapshot struct {
	Game  string   `json:"game"`
	Seats []string `json:"seats"`
	Lines []string `json:"lines"`
}

// judgedGame names the judge's game in its snapshots.
const judgedGame = "zombie (judge)"

// MarshalJSON is the full state: the seats and every line so far. It
// holds every identity: it is for storage only.
func (m *Judged) MarshalJSON() ([]byte, error) {
	return json.Marshal(judgedSnapshot{Game: judgedGame, Seats: m.names, Lines: script(m.cmds)})
}

// Restore resumes the judge's game of setup from a snapshot made by
// MarshalJSON (see engine.Restorer): its script, run again. It is for
// storage only.
func (g Judging) Restore(setup engine.Setup, data []byte) (engine.Match[Line, Sheet], error) {
	var s judgedSnapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, engine.SnapshotProblem(judgedGame, data, err)
	}
	if s.Game != judgedGame {
		return nil, fmt.Errorf("%s: the snapshot is of a %q match, not of %s", judgedGame, s.Game, judgedGame)
	}
	x, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	m := x.(*Judged)
	if !slices.Equal(s.Seats, m.names) {
		return nil, fmt.Errorf("%s: the snapshot's seats are %v; the setup's are %v", judgedGame, s.Seats, m.names)
	}
	m.cmds = slices.Grow(m.cmds, len(s.Lines))
	for i, l := range s.Lines {
		if err := m.Apply(engine.Judge, Line(l)); err != nil {
			return nil, fmt.Errorf("%s: snapshot: line %d: %w", judgedGame, i+1, err)
		}
	}
	return m, nil
}
