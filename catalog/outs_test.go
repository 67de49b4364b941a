package catalog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/livetest"
)

func TestLiveMatchTellsASeatItIsOut(t *testing.T) {
	// A seat out of a live match while the others play on (a nation out
	// of territories, here among bots) is told so, when and why, as a
	// person at a terminal is (its view's Out); a seat still in is told
	// nothing.
	g, err := catalog.Find("territories")
	if err != nil {
		t.Fatal(err)
	}
	lg := g.(catalog.LiveGame)
	for seed := uint64(1); seed <= 20; seed++ {
		live := livetest.Start(t, lg, catalog.LiveSetup{Setup: engine.Setup{Seed: seed, Players: []string{"greedy", "greedy", "random"}}, Mode: "seats"})
		outs, ok := live.(catalog.Outs)
		if !ok {
			t.Fatal("a live territories match tells no seat it is out")
		}
		for range 3000 {
			if live.Over() {
				break
			}
			for seat := range 3 {
				if o := outs.Out(seat); o != "" {
					if !strings.Contains(o, "out") {
						t.Errorf("seat %d is told %q", seat, o)
					}
					t.Logf("seed %d: seat %d is told %q", seed, seat, o)
					return // a seat out while the others play on
				}
			}
			pending := live.Pending()
			if len(pending) == 0 {
				break
			}
			q := pending[0]
			move, err := live.Ask(context.Background(), q)(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if err := live.Apply(q.Seat, move); err != nil {
				t.Fatalf("seed %d: seat %d's %s: %v", seed, q.Seat, move, err)
			}
		}
	}
	t.Fatal("in 20 games of random moves, no seat was out while the others played on")
}
