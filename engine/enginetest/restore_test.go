package enginetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// pot is a small game with chance and a secret: every round each seat
// picks 1, 2 or 3 at once; then the match draws 0 to 9 from its random
// source into a pot that only the judge sees. broken names what its
// Restore forgets, to show that CheckRestore finds it.
type pot struct{ broken string }

func (pot) Info() engine.Info {
	return engine.Info{Name: "pot", Version: "1", MinSeats: 1, MaxSeats: 4,
		Options: []engine.Option{{Name: "rounds", Kind: engine.IntOption, Default: "6", Min: 1, Max: 100}}}
}

func (g pot) New(s engine.Setup) (engine.Match[int, potView], error) {
	if err := s.Check(g.Info()); err != nil {
		return nil, err
	}
	rounds, err := s.Int(g.Info(), "rounds")
	if err != nil {
		return nil, err
	}
	m := &potMatch{potState: potState{Rounds: rounds, Sums: make([]int64, s.Seats()), Picked: make([]int, s.Seats())}, rng: engine.NewRNG(s.Seed)}
	m.open()
	return m, nil
}

type potState struct {
	Rounds int     `json:"rounds"`
	Round  int     `json:"round"`
	Sums   []int64 `json:"sums"`
	Picked []int   `json:"picked"`
	Pot    uint64  `json:"pot"`
	Serial int64   `json:"serial"`
	RNG    []byte  `json:"rng"`
}

type potMatch struct {
	potState
	rng *rand.PCG
}

type potView struct {
	You   int     `json:"you"`
	Round int     `json:"round"`
	Sums  []int64 `json:"sums"`
	Pot   *uint64 `json:"pot,omitempty"` // the judge's only
}

func (m *potMatch) open() {
	for s := range m.Picked {
		m.Picked[s] = 0
	}
	m.Serial += int64(len(m.Picked))
}

func (m *potMatch) Pending() []engine.Request[int] {
	var out []engine.Request[int]
	for s, p := range m.Picked {
		if p == 0 && !m.Over() {
			out = append(out, engine.Request[int]{ID: m.Serial - int64(len(m.Picked)-s) + 1, Seat: s, Kind: "pick", Choices: []int{1, 2, 3}, Default: 1})
		}
	}
	return out
}

func (m *potMatch) Apply(seat, pick int) error {
	switch {
	case m.Over():
		return engine.Refuse("over", "the game is over")
	case seat < 0 || seat >= len(m.Picked) || m.Picked[seat] != 0:
		return engine.Refuse("not-asked", "seat %d is not asked", seat)
	case pick < 1 || pick > 3:
		return engine.Refuse("not-offered", "pick 1, 2 or 3")
	}
	m.Picked[seat] = pick
	for _, p := range m.Picked {
		if p == 0 {
			return nil
		}
	}
	for s, p := range m.Picked {
		m.Sums[s] += int64(p)
	}
	m.Pot += engine.Below(m.rng, 10)
	m.Round++
	m.open()
	return nil
}

func (m *potMatch) View(seat int) potView {
	v := potView{You: seat, Round: m.Round, Sums: m.Sums}
	if seat == engine.Judge {
		v.Pot = &m.Pot
	}
	return v
}

func (m *potMatch) Over() bool { return m.Round >= m.Rounds }

func (m *potMatch) Result() engine.Result {
	return engine.Result{Scores: append([]int64(nil), m.Sums...), Reason: fmt.Sprint("pot ", m.Pot)}
}

func (m *potMatch) MarshalJSON() ([]byte, error) {
	s := m.potState
	s.RNG, _ = m.rng.MarshalBinary()
	return json.Marshal(s)
}

func (g pot) Restore(setup engine.Setup, data []byte) (engine.Match[int, potView], error) {
	var s potState
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("pot: snapshot: %w", err)
	}
	if len(s.Sums) != setup.Seats() || len(s.Picked) != setup.Seats() {
		return nil, errors.New("pot: snapshot: not of this setup's seats")
	}
	m := &potMatch{potState: s, rng: &rand.PCG{}}
	if err := m.rng.UnmarshalBinary(s.RNG); err != nil {
		return nil, fmt.Errorf("pot: snapshot: rng: %w", err)
	}
	switch g.broken {
	case "rng":
		m.rng = engine.NewRNG(setup.Seed)
	case "ids":
		m.Serial = 0
	case "picks":
		clear(m.Picked)
	}
	return m, nil
}

// recorder keeps what a check reports; Fatalf stops the check.
type recorder struct{ msgs []string }

type stop struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(stop{})
}

// reported runs a check and returns what it reported.
func reported(check func(reporter)) (msgs []string) {
	r := &recorder{}
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(stop); !ok {
				panic(x)
			}
		}
		msgs = r.msgs
	}()
	check(r)
	return r.msgs
}

var potSetup = engine.Setup{Seed: 5, Players: []string{"a", "b", "c"}}

func TestCheckRestorePassesAFaithfulRestore(t *testing.T) {
	for seed := range uint64(5) {
		CheckRestore(t, pot{}, potSetup, Options[int, potView]{Seed: seed, Judge: true})
	}
}

// TestCheckRestoreFindsWhatRestoreForgets: a Restore that forgets the
// random source (seen only after a round is drawn), the request ids or the
// picks of the open round fails the check, saying what differs.
func TestCheckRestoreFindsWhatRestoreForgets(t *testing.T) {
	for broken, want := range map[string]string{
		"rng":   "differs in the snapshot",
		"ids":   "differs in the snapshot",
		"picks": "differs in the snapshot",
	} {
		msgs := reported(func(r reporter) {
			checkRestore(r, pot{broken}, potSetup, Options[int, potView]{Seed: 1, Judge: true})
		})
		if len(msgs) == 0 || !strings.Contains(msgs[0], want) {
			t.Errorf("a Restore that forgets %s: the check reports %q; want %q", broken, msgs, want)
		}
	}
}

// potNoSnapshot restores faithfully but writes no rng in its snapshot:
// the snapshots are equal, and only what the matches do later tells them
// apart.
type potNoSnapshot struct{ pot }

func (g potNoSnapshot) New(s engine.Setup) (engine.Match[int, potView], error) {
	m, err := g.pot.New(s)
	if err != nil {
		return nil, err
	}
	return &potHidden{m.(*potMatch)}, nil
}

type potHidden struct{ *potMatch }

func (m *potHidden) MarshalJSON() ([]byte, error) { return json.Marshal(m.potState) }

func (g potNoSnapshot) Restore(setup engine.Setup, data []byte) (engine.Match[int, potView], error) {
	var s potState
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, err
	}
	if len(s.Sums) != setup.Seats() || len(s.Picked) != setup.Seats() {
		return nil, errors.New("pot: snapshot: not of this setup's seats")
	}
	return &potHidden{&potMatch{potState: s, rng: engine.NewRNG(setup.Seed)}}, nil
}

// TestCheckRestoreFindsWhatTheSnapshotLeavesOut: when the snapshot itself
// leaves out what a later move needs, the match restored from it goes
// another way, and the check says after which move.
func TestCheckRestoreFindsWhatTheSnapshotLeavesOut(t *testing.T) {
	msgs := reported(func(r reporter) {
		checkRestore(r, potNoSnapshot{}, potSetup, Options[int, potView]{Seed: 1, Judge: true})
	})
	var step, at int
	if len(msgs) > 0 {
		fmt.Sscanf(strings.Replace(msgs[0], "one move after it was restored, ", "", 1), "step %d: the match restored at step %d", &step, &at)
	}
	if step <= at {
		t.Errorf("a snapshot without the random source: the check reports %q; want a match restored earlier to differ later", msgs)
	}
}

func TestCheckDamaged(t *testing.T) {
	snaps, err := Snapshots(pot{}, potSetup, Options[int, potView]{Seed: 2}, 5)
	if err != nil || len(snaps) != 5 {
		t.Fatalf("Snapshots: %d, %v", len(snaps), err)
	}
	for _, s := range append(snaps, []byte(`{"rounds":`), []byte(`{}`)) {
		if msgs := reported(func(r reporter) { checkDamaged(r, pot{}, potSetup, s, Options[int, potView]{}) }); len(msgs) > 0 {
			t.Errorf("%s: %q", s, msgs)
		}
	}
}
