package reaj

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// fixedSeats returns the six fixed-value players as seats.
func fixedSeats(tb testing.TB) ([]engine.Seat[Value, View], engine.Setup) {
	tb.Helper()
	entrants, err := Bots("fixed")
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

// BenchmarkGame plays full 100-turn games among the six fixed-value players
// through the real match runner, with an in-memory record.
func BenchmarkGame(b *testing.B) {
	seats, setup := fixedSeats(b)
	var runner engine.Runner[Value, View]
	rec := engine.NewRecord[Value](info, setup)
	ctx := context.Background()
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := Game{}.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		rec.Reset(info, setup)
		if err := runner.Run(ctx, m, seats, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameBare plays BenchmarkGame's games with no referee: each fixed
// player's value is written straight into the match and every turn played
// as soon as it opens, with no runner, no check of the moves and no record.
// It is the floor the rules set by themselves: BenchmarkGame less this is
// what refereeing costs.
func BenchmarkGameBare(b *testing.B) {
	seats, setup := fixedSeats(b)
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := Game{}.NewMatch(setup)
		if err != nil {
			b.Fatal(err)
		}
		for !m.over {
			for _, r := range m.reqs {
				m.chosen[r.Seat] = Value(seats[r.Seat].Player.(fixed))
			}
			m.waiting, m.owed = 0, 0
			if err := m.playTurn(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTurn measures the rules step alone: one turn for six societies.
func BenchmarkTurn(b *testing.B) {
	st := NewState(6)
	fresh := st.Clone()
	pcg := engine.NewRNG(1)
	choices := []Value{Conquer, Exchange, Expand, Develop, Consent, Adapt}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%10 == 0 {
			copyState(&st, &fresh)
		}
		if err := Turn(&st, i, choices, pcg); err != nil {
			b.Fatal(err)
		}
	}
}
