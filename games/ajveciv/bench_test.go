package ajveciv

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// basicSeats returns the six basic AIs as seats with the default deadline.
func basicSeats(tb testing.TB) ([]engine.Seat[Value, View], engine.Setup) {
	tb.Helper()
	entrants, err := Bots("basic")
	if err != nil {
		tb.Fatal(err)
	}
	seats := make([]engine.Seat[Value, View], len(entrants))
	setup := engine.Setup{Players: make([]string, len(entrants))}
	for i, e := range entrants {
		seats[i] = engine.Seat[Value, View]{Name: e.Name, Player: e.New(), Deadline: time.Second}
		setup.Players[i] = e.Name
	}
	return seats, setup
}

// BenchmarkGame plays full 100-turn games among the six basic AIs through the
// real match runner, with an in-memory record. The basic AIs are bounded (they
// answer at once, by construction), so the runner plays them on the
// benchmark's goroutine with no watchdog.
func BenchmarkGame(b *testing.B) {
	seats, setup := basicSeats(b)
	benchGames(b, seats, setup)
}

// watched hides that a player is bounded, so that the runner watches it.
type watched struct{ engine.Player[Value, View] }

// BenchmarkGameWatched is BenchmarkGame with every decision watched, as an
// AI of unknown speed is: each game on a goroutine of its own, the watchdog
// sampling it, one atomic compare-and-swap per decision.
func BenchmarkGameWatched(b *testing.B) {
	seats, setup := basicSeats(b)
	for i := range seats {
		seats[i].Player = watched{seats[i].Player}
	}
	benchGames(b, seats, setup)
}

func benchGames(b *testing.B, seats []engine.Seat[Value, View], setup engine.Setup) {
	g := Original()
	info := g.Info()
	var runner engine.Runner[Value, View]
	rec := engine.NewRecord[Value](info, setup)
	ctx := context.Background()
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := g.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		rec.Reset(info, setup)
		if err := runner.Run(ctx, m, seats, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameBare plays BenchmarkGame's games with no referee: each basic
// AI's choice is written straight into the match and every round resolved
// as soon as it is dealt, with no runner, no check of the moves and no
// record. It is the floor the rules set by themselves (dealing, turns,
// inflections, scoring): BenchmarkGame less this is what refereeing costs.
func BenchmarkGameBare(b *testing.B) {
	seats, setup := basicSeats(b)
	ais := make([]*priority, len(seats))
	for i, s := range seats {
		ais[i] = s.Player.(*priority)
	}
	g := Original()
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := g.NewMatch(setup)
		if err != nil {
			b.Fatal(err)
		}
		for !m.over {
			for _, r := range m.reqs {
				m.chosen[r.Seat] = ais[r.Seat].choose(m.View(r.Seat))
			}
			m.owed = 0
			if err := m.resolve(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTurn measures the rules step alone: one turn of the original
// rules for six societies.
func BenchmarkTurn(b *testing.B) {
	w := NewWorld(6)
	fresh := w.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	choices := []Value{Conquer, Exchange, Discover, Expand, Develop, Consent}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%100 == 0 {
			copyWorld(&w, &fresh)
		}
		if err := (OriginalRules{}).Turn(&w, choices, rng); err != nil {
			b.Fatal(err)
		}
	}
}
