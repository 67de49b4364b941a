package territories

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// BenchmarkGame plays full games of greedy, greedy and random on the
// sample map through the real match runner, with an in-memory record.
func BenchmarkGame(b *testing.B) {
	ss, setup := seats(b, "greedy", "greedy", "random")
	var runner engine.Runner[Action, View]
	rec := engine.NewRecord[Action](info, setup)
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
		if err := runner.Run(ctx, m, ss, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkApply measures the rules alone: one action (a move there and
// back, a raise, an attack) on the sample map.
func BenchmarkApply(b *testing.B) {
	cfg := Sample()
	w := NewWorld(cfg)
	w.Apply("alice", JoinAction("Pacifica", "CA"))
	w.Apply("bob", JoinAction("Deseret", "NV"))
	there, back := MoveAction("CA", 1, "OR"), MoveAction("OR", 0, "CA")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a := there
		if i%2 == 1 {
			a = back
		}
		if _, err := w.Apply("alice", a); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkBattle resolves one battle by the formula.
func BenchmarkBattle(b *testing.B) {
	x := 0
	for b.Loop() {
		x++
		Fight(x%5+1, x%3+1, x%20+1)
	}
}
