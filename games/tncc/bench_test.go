package tncc

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// seats returns the named built-in bots as seats, and their setup.
func seats(tb testing.TB, names ...string) ([]engine.Seat[Move, View], engine.Setup) {
	tb.Helper()
	var out []engine.Seat[Move, View]
	setup := engine.Setup{}
	for _, name := range names {
		es, err := Bots(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range es {
			out = append(out, engine.Seat[Move, View]{Name: e.Name, Player: e.New(), Deadline: time.Second})
			setup.Players = append(setup.Players, e.Name)
		}
	}
	return out, setup
}

// BenchmarkGame plays full default-preset games among nothing, turtle, war
// and blitz through the real match runner, with an in-memory record.
func BenchmarkGame(b *testing.B) {
	ss, setup := seats(b, "nothing", "turtle", "war", "blitz")
	var runner engine.Runner[Move, View]
	rec := engine.NewRecord[Move](info, setup)
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
