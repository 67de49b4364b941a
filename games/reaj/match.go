package reaj

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// TurnKind is the one kind of request: a turn's choice among the six values.
const TurnKind engine.Kind = "turn"

// Game options and limits.
const (
	DefaultTurns = 100
	MaxTurns     = 100_000
	MinSeats     = 2
	MaxSeats     = MaxSocieties
)

// RulesVersion is written in every match record; it changes whenever a rule
// changes what a recorded game would replay to.
const RulesVersion = "1"

//go:embed rules.txt
var rulesText string

// Game is the Reaj ruleset: an engine.Ruleset.
type Game struct{}

var info = engine.Info{
	Name:           "reaj",
	Variant:        "",
	Title:          "Reaj: societies share a renewing environment and score by resources and goodwill",
	Version:        RulesVersion,
	Score:          "resources plus the goodwill borne toward it",
	MinSeats:       MinSeats,
	MaxSeats:       MaxSeats,
	DefaultPlayers: "fixed",
	Players:        []string{"fixed", "conquer", "exchange", "expand", "develop", "consent", "adapt", "random", "steward"},
	Options: []engine.Option{
		{Name: "turns", Usage: "number of turns in a game", Kind: engine.IntOption, Default: fmt.Sprint(DefaultTurns), Min: 1, Max: MaxTurns},
	},
	Rules: rulesText,
}

// Info describes the game.
func (Game) Info() engine.Info { return info }

// New starts a match: one society per player, in the starting state.
func (g Game) New(setup engine.Setup) (engine.Match[Value, View], error) { return g.NewMatch(setup) }

// NewMatch is New with the concrete type.
func (Game) NewMatch(setup engine.Setup) (*Match, error) {
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return nil, err
	}
	n := setup.Seats()
	m := &Match{turns: turns, state: NewState(n), pcg: engine.NewRNG(setup.Seed), chosen: make([]Value, n), living: n, last: noChoices(n), players: setup.Players,
		reqs: make([]engine.Request[Value], 0, n)}
	m.open()
	return m, nil
}

// noChoices returns n choices not made.
func noChoices(n int) []Value {
	vs := make([]Value, n)
	for i := range vs {
		vs[i] = None
	}
	return vs
}

// Match is a Reaj match under way: an engine.Match. Every turn each living
// society is asked for one of the six values (all are offered; adapt is the
// default); when all have chosen, the turn is played (see Turn).
type Match struct {
	turns   int
	turn    int // turns completed
	state   State
	pcg     *rand.PCG
	chosen  []Value // this turn's choices; None until made
	owed    int
	waiting uint32 // bit i: society i is asked this turn and has not answered
	living  int    // living societies
	// last is the last turn's choices, and players names each seat's
	// player, for people.
	last    []Value
	players []string
	reqs    []engine.Request[Value]
	open_   []engine.Request[Value]
	over    bool
	reason  string
	result  engine.Result
}

// open asks every living society for the next turn's choice. The requests
// are kept from turn to turn: only their numbers change, until a society
// dies.
func (m *Match) open() {
	n := int64(len(m.chosen))
	if len(m.reqs) != m.living {
		m.reqs = m.reqs[:0]
		for i := range m.state.Societies {
			m.chosen[i] = None
			if !m.state.Societies[i].Dead {
				m.reqs = append(m.reqs, engine.Request[Value]{Seat: i, Kind: TurnKind, Choices: AllValues, Default: Adapt})
			}
		}
	}
	base := int64(m.turn) * n
	m.waiting = 0
	for k := range m.reqs {
		r := &m.reqs[k]
		r.ID = base + int64(r.Seat)
		m.chosen[r.Seat] = None
		m.waiting |= 1 << r.Seat
	}
	m.owed = len(m.reqs)
}

// Pending returns the choices still owed this turn.
func (m *Match) Pending() []engine.Request[Value] {
	if m.over {
		return nil
	}
	if m.owed == len(m.reqs) {
		return m.reqs
	}
	m.open_ = m.open_[:0]
	for _, r := range m.reqs {
		if m.chosen[r.Seat] == None {
			m.open_ = append(m.open_, r)
		}
	}
	return m.open_
}

// Apply records seat's choice; when every living society has chosen, the
// turn is played.
func (m *Match) Apply(seat int, v Value) error {
	// The societies asked this turn and yet to answer are the bits of
	// waiting: one test covers a finished game, a dead society and an
	// answered one.
	if uint(seat) >= MaxSocieties || m.waiting>>seat&1 == 0 || !v.Valid() || seat >= len(m.chosen) {
		return m.refuse(seat, v)
	}
	m.chosen[seat] = v
	m.owed--
	if m.waiting &^= 1 << seat; m.waiting != 0 {
		return nil
	}
	return m.playTurn()
}

// playTurn plays the turn once every living society has chosen, and opens
// the next or ends the game.
func (m *Match) playTurn() error {
	living, err := resolve(&m.state, m.turn+1, m.chosen, m.pcg)
	if err != nil {
		return err
	}
	copy(m.last, m.chosen)
	m.turn, m.living = m.turn+1, living
	switch {
	case living == 0:
		m.end("all dead")
	case m.turn >= m.turns:
		m.end("turns")
	default:
		m.open()
	}
	return nil
}

// refuse says why seat may not choose v.
func (m *Match) refuse(seat int, v Value) error {
	switch {
	case m.over:
		return engine.Refuse("over", "the game is over")
	case seat < 0 || seat >= len(m.chosen):
		return engine.Refuse("no-seat", "there is no society %d; societies are 1 to %d", seat+1, len(m.chosen))
	case m.state.Societies[seat].Dead:
		return engine.Refuse("dead", "society %d is dead and makes no choices", seat+1)
	case m.chosen[seat] != None:
		return engine.Refuse("answered", "society %d has already chosen %v this turn", seat+1, m.chosen[seat])
	}
	return engine.Refuse("not-offered", "%v is not a value; choose conquer, exchange, expand, develop, consent or adapt", v)
}

// end scores the game: every society, dead or alive, scores its resources
// plus every positive disposition toward it; the highest score wins.
func (m *Match) end(reason string) {
	m.over, m.reason = true, reason
	m.reqs, m.open_ = m.reqs[:0], m.open_[:0]
	n := len(m.state.Societies)
	res := engine.Result{Scores: make([]int64, n), Winners: []int{}, Reason: reason}
	var best int64
	for i := range m.state.Societies {
		res.Scores[i] = int64(m.state.Score(i))
		if i == 0 || res.Scores[i] > best {
			best = res.Scores[i]
		}
		if m.state.Societies[i].Dead {
			if res.Status == nil {
				res.Status = make([]string, n)
			}
			res.Status[i] = "dead"
		}
	}
	for i, s := range res.Scores {
		if s == best {
			res.Winners = append(res.Winners, i)
		}
	}
	res.Ranks = engine.CompetitionRanks(n, func(i, j int) bool { return res.Scores[i] > res.Scores[j] })
	m.result = res
}

// View returns what seat knows: everything but the others' choices this turn.
func (m *Match) View(seat int) View { return View{m, seat} }

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.over }

// Result returns the final scores.
func (m *Match) Result() engine.Result { return m.result }

// State returns the state as it is now. It is the match's own: do not change it.
func (m *Match) State() *State { return &m.state }

// Turn returns the number of turns completed.
func (m *Match) Turn() int { return m.turn }

// Public returns a copy of the state: a spectator sees everything.
func (m *Match) Public() any { return m.state.Clone() }

// Clock is the number of turns completed.
func (m *Match) Clock() int { return m.turn }

var measures = []engine.Measure{{Name: "resources", PerSeat: true}, {Name: "land"}, {Name: "ecology"}, {Name: "environment's resources"}}

// Measures names the numbers a chart can show: each society's resources, and
// the environment's land, ecology and resources.
func (m *Match) Measures() []engine.Measure { return measures }

// Measure returns measure k (see Measures) for seat.
func (m *Match) Measure(k, seat int) float64 {
	e := m.state.Environment
	switch k {
	case 0:
		return float64(m.state.Societies[seat].Resources)
	case 1:
		return float64(e.Land)
	case 2:
		return float64(e.Ecology)
	default:
		return float64(e.Resources)
	}
}

// snapshot is the full state of a match, for hashing and for resuming.
type snapshot struct {
	Turns  int     `json:"turns"`
	Turn   int     `json:"turn"`
	State  State   `json:"state"`
	Chosen []Value `json:"chosen"`
	Last   []Value `json:"last,omitempty"` // the last turn's choices, once a turn is played
	RNG    []byte  `json:"rng"`
	Over   bool    `json:"over"`
	Reason string  `json:"reason,omitempty"`
}

// MarshalJSON returns a snapshot of the full state: the state, the turn, the
// choices made this turn and the random source.
func (m *Match) MarshalJSON() ([]byte, error) {
	rng, err := m.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var last []Value
	if m.turn > 0 {
		last = m.last
	}
	return json.Marshal(snapshot{Turns: m.turns, Turn: m.turn, State: m.state, Chosen: m.chosen, Last: last, RNG: rng, Over: m.over, Reason: m.reason})
}

// Restore resumes the match of setup from a snapshot made by MarshalJSON
// (see engine.Restorer). The snapshot holds the match's random source, and
// so every draw to come: it is for storage only.
func (g Game) Restore(setup engine.Setup, data []byte) (engine.Match[Value, View], error) {
	return g.RestoreMatch(setup, data)
}

// RestoreMatch is Restore with the concrete type.
func (Game) RestoreMatch(setup engine.Setup, data []byte) (*Match, error) {
	var s snapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("reaj: snapshot: %w", err)
	}
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return nil, err
	}
	if s.Turns != turns {
		return nil, fmt.Errorf("reaj: the snapshot is of a game of %d turns; the setup's is of %d", s.Turns, turns)
	}
	if err := s.State.Check(); err != nil {
		return nil, fmt.Errorf("reaj: snapshot: %w", err)
	}
	n := len(s.State.Societies)
	if n != setup.Seats() || len(s.Chosen) != n {
		return nil, fmt.Errorf("reaj: snapshot: %d societies and %d choices; the setup has %d seats", n, len(s.Chosen), setup.Seats())
	}
	if s.Turn < 0 || s.Turn > s.Turns || !s.Over && (s.Turn == s.Turns || s.State.Living() == 0) {
		return nil, fmt.Errorf("reaj: snapshot: turn %d of %d with %d societies alive, and the game is not over", s.Turn, s.Turns, s.State.Living())
	}
	m := &Match{turns: s.Turns, turn: s.Turn, state: s.State, pcg: &rand.PCG{}, chosen: make([]Value, n), living: s.State.Living(), last: noChoices(n), players: setup.Players}
	if s.Last != nil {
		if len(s.Last) != n {
			return nil, fmt.Errorf("reaj: snapshot: %d last choices for %d societies", len(s.Last), n)
		}
		copy(m.last, s.Last)
	}
	if err := m.pcg.UnmarshalBinary(s.RNG); err != nil {
		return nil, fmt.Errorf("reaj: snapshot: rng: %w", err)
	}
	if s.Over {
		if s.Reason != "all dead" && s.Reason != "turns" {
			return nil, fmt.Errorf("reaj: snapshot: the game ended for %q; games end for \"all dead\" or \"turns\"", s.Reason)
		}
		copy(m.chosen, s.Chosen) // the last turn's
		m.end(s.Reason)
		return m, nil
	}
	m.open()
	for i, c := range s.Chosen {
		if c == None {
			continue
		}
		if err := m.Apply(i, c); err != nil {
			return nil, fmt.Errorf("reaj: snapshot: society %d's choice: %w", i+1, err)
		}
	}
	if m.turn != s.Turn {
		return nil, errors.New("reaj: snapshot: every choice of the turn is made but the turn is not played")
	}
	return m, nil
}
