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

// BenchmarkAction measures the rules step alone: one action (a recruit, a
// war with its defence, a trade with its answer) or one production, on a
// world of four countries. It allocates nothing.
func BenchmarkAction(b *testing.B) {
	fresh := NewWorld(Default(), 4)
	fresh.Countries[0].Stock[Gold] = 1 << 40
	fresh.Countries[1].Stock[Army] = 15
	w := fresh.Clone()
	war := WarMove(1, Flanks{10, 20, 30})
	trade := TradeMove(2, Gold, 10, Food, 20)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%5 == 0 {
			copy(w.Countries, fresh.Countries)
			w.Cycle = 1
		}
		switch i % 5 {
		case 0:
			if w.Check(0, RecruitMove(100)) == nil {
				w.Recruit(0, 100)
			}
		case 1:
			if w.Check(0, war) == nil && w.CheckDefence(1, Flanks{5, 5, 5}) == nil {
				w.War(0, war, Flanks{5, 5, 5})
			}
		case 2:
			if w.Check(0, trade) == nil {
				w.Trade(0, trade, true)
			}
		case 3:
			if w.Check(0, RecruitMove(-10)) == nil {
				w.Recruit(0, -10)
			}
		default:
			w.Produce()
		}
	}
}

func TestActionsAllocateNothing(t *testing.T) {
	// "0 allocations per action in the rules step."
	fresh := NewWorld(Default(), 4)
	fresh.Countries[0].Stock[Gold] = 1 << 40
	fresh.Countries[1].Stock[Army] = 15
	w := fresh.Clone()
	war := WarMove(1, Flanks{10, 20, 30})
	allocs := testing.AllocsPerRun(100, func() {
		copy(w.Countries, fresh.Countries)
		if err := w.Check(0, RecruitMove(100)); err != nil {
			t.Fatal(err)
		}
		w.Recruit(0, 100)
		if err := w.Check(0, war); err != nil {
			t.Fatal(err)
		}
		if err := w.CheckDefence(1, Flanks{5, 5, 5}); err != nil {
			t.Fatal(err)
		}
		w.War(0, war, Flanks{5, 5, 5})
		w.Trade(0, TradeMove(2, Gold, 10, Food, 20), true)
		w.Produce()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per round of actions; want 0", allocs)
	}
	// The match's own bookkeeping allocates only as its history grows.
	ss, setup := seats(t, "turtle", "turtle", "turtle", "turtle")
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	_ = ss
	for range 8 { // grow the history first
		_ = m.Apply(m.Pending()[0].Seat, WaitMove)
	}
	allocs = testing.AllocsPerRun(50, func() {
		_ = m.Apply(m.Pending()[0].Seat, RecruitMove(1))
	})
	if allocs != 0 {
		t.Errorf("%v allocations per applied action; want 0", allocs)
	}
}
