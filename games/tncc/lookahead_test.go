package tncc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// TestSearchHooks checks the hooks of a search AI (Clone, Moves, Sample)
// with enginetest.CheckSearch on every preset, from 2 to 6 countries, on
// several seeds, with the random moves of TestRestore: trades answered,
// wars with their flanks hidden, refusals and deaths.
func TestSearchHooks(t *testing.T) {
	for _, preset := range PresetNames() {
		for n := 2; n <= 6; n++ {
			for seed := range uint64(2) {
				t.Run(fmt.Sprintf("%s/%d-countries/seed%d", preset, n, seed), func(t *testing.T) {
					setup := engine.Setup{Seed: seed, Players: make([]string, n), Options: map[string]string{"preset": preset}}
					enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Move, View]{Seed: seed*10 + uint64(n), Steps: 120, Move: randomMove})
				})
			}
		}
	}
}

// TestSearchHooksPlayed runs CheckSearch on the pending requests only, so
// that games go on to their ends.
func TestSearchHooksPlayed(t *testing.T) {
	for _, preset := range PresetNames() {
		for _, n := range []int{2, 5} {
			setup := engine.Setup{Seed: 7, Players: make([]string, n), Options: map[string]string{"preset": preset}}
			enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Move, View]{Seed: uint64(n), Steps: 250})
		}
	}
}

// TestSampleHidesFlanks: a defender's sample holds a war of the soldiers
// it was told of, never the attacker's real flanks when they are not the
// only split the dice give; and the samples' flanks vary.
func TestSampleHidesFlanks(t *testing.T) {
	m := newTestMatch(t, "mexican_standoff", 3)
	must(t, m.Apply(0, RecruitMove(-199)))
	for m.Pending()[0].Seat != 0 {
		must(t, m.Apply(m.Pending()[0].Seat, WaitMove))
	}
	real := Flanks{17, 1200, 83}
	must(t, m.Apply(0, WarMove(2, real)))
	v := m.View(2)
	rng := rand.NewPCG(1, 2)
	seen := map[Flanks]bool{}
	for range 40 {
		s, err := Game{}.Sample(engine.Setup{Players: make([]string, 3)}, 2, v, rng)
		if err != nil {
			t.Fatal(err)
		}
		sm := s.(*Match)
		if sm.phase != warPhase || sm.action.Target != 2 || sm.action.Flanks.Total() != 1300 || sm.next != 0 {
			t.Fatalf("sampled war %+v of country %d in phase %d; want a war of 1300 soldiers by country 1 on country 3", sm.action, sm.next+1, sm.phase)
		}
		seen[sm.action.Flanks] = true
	}
	if len(seen) < 5 {
		t.Errorf("40 samples gave %d splits: %v", len(seen), seen)
	}
}

func newTestMatch(t testing.TB, preset string, n int) *Match {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: make([]string, n), Options: map[string]string{"preset": preset}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// searchPosition is a game of the default preset at cycle 30, country 1's
// turn, played by the general, trader, turtle and war: a history of some
// hundred entries, trades and wars among them.
func searchPosition(b *testing.B) *Match {
	m := midGame(b, "default", 3, 30, 0, "general", "trader", "turtle", "war")
	if m == nil {
		b.Skip("country 1 is dead by cycle 30")
	}
	return m
}

// BenchmarkClone measures a clone of a match in mid game.
func BenchmarkClone(b *testing.B) {
	m := searchPosition(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Clone()
	}
}

// BenchmarkSample measures a match sampled from a country's view in mid
// game.
func BenchmarkSample(b *testing.B) {
	m := searchPosition(b)
	v := m.View(0)
	rng := rand.NewPCG(1, 2)
	setup := engine.Setup{Players: make([]string, 4)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Game{}).Sample(setup, 0, v, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoves measures the moves generated for a turn in mid game, into
// a buffer kept from one call to the next.
func BenchmarkMoves(b *testing.B) {
	m := searchPosition(b)
	req := m.Pending()[0]
	rng := rand.NewPCG(1, 2)
	var buf []Move
	b.ReportAllocs()
	for b.Loop() {
		buf = m.Moves(&req, rng, buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "moves")
}
