package catalog

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/mcts"
)

// searchLineUps are the seats the search AI's tests and benchmarks play in
// each game: the search AI in seat 1, the game's usual bots in the others.
var searchLineUps = map[string][]string{
	"ajveciv":     {"mcts", "basic.conquer", "basic2.develop-conquer", "planner"},
	"reaj":        {"mcts", "steward", "adapt", "conquer"},
	"tncc":        {"mcts", "turtle", "war", "blitz"},
	"zombie":      {"mcts", "sensible", "sensible", "sensible", "sensible"},
	"territories": {"mcts", "greedy", "random"},
}

// searcher is a hosted game whose search AI a benchmark can time.
type searcher interface {
	benchSearch(b *testing.B, players []string, playouts int)
}

// benchSearch times the search AI's first decision of a match of players,
// with a fixed number of playouts, and reports its playouts a second.
func (h *hosted[M, V]) benchSearch(b *testing.B, players []string, playouts int) {
	setup := engine.Setup{Seed: 1, Players: players}
	m, err := h.rules.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	req := m.Pending()[0]
	p, err := mcts.New(h.rules, mcts.Config{Playouts: playouts}, nil)
	if err != nil {
		b.Skip(err)
	}
	info := engine.MatchInfo{Seat: req.Seat, Players: players, Seed: 7}
	_ = p.Start(context.Background(), info)
	start := time.Now()
	for b.Loop() {
		if _, err := p.Decide(context.Background(), &req, m.View(req.Seat)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*playouts)/time.Since(start).Seconds(), "playouts/s")
}

// BenchmarkSearch: the search AI's playouts a second in each game, at its
// first decision of a game of searchLineUps.
func BenchmarkSearch(b *testing.B) {
	for _, g := range games {
		name := g.Info().Name
		b.Run(name, func(b *testing.B) {
			g.(searcher).benchSearch(b, searchLineUps[name], 100)
		})
	}
}

// TestSearchAIPlaysEveryGame: the search AI takes a seat in every game whose
// rules offer its hooks, plays whole matches without a fault, and the game's
// players list it.
func TestSearchAIPlaysEveryGame(t *testing.T) {
	for _, g := range games {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			listed := false
			for _, p := range info.Players {
				listed = listed || p == mcts.Name
			}
			players := append([]string{"mcts:playouts=20"}, searchLineUps[info.Name][1:]...)
			faults := 0
			err := g.Series(context.Background(), SeriesOptions{Players: players, Seed: 5, Games: 2,
				Played: func(p Played) error { faults += p.Faults; return nil }})
			if !listed {
				if err == nil {
					t.Fatalf("%s does not list mcts but plays it", info.Name)
				}
				t.Skipf("no search AI yet: %v", err)
			}
			if err != nil || faults != 0 {
				t.Fatalf("series: %v, %d faults", err, faults)
			}
		})
	}
}
