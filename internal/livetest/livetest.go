// Package livetest helps the tests that play every game live: it walks
// every live mode of every game, seats people, starts matches, and picks
// random moves, so that each such test says only what it checks.
package livetest

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
)

// EachMode runs fn in a subtest named game/mode for every live mode of
// every game.
func EachMode(t *testing.T, fn func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info)) {
	t.Helper()
	for _, g := range catalog.Games() {
		lg, ok := g.(catalog.LiveGame)
		if !ok {
			continue
		}
		for _, mode := range lg.Modes() {
			info, err := lg.ModeInfo(mode.Name)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(info.Name+"/"+mode.Name, func(t *testing.T) { fn(t, lg, mode, info) })
		}
	}
}

// People is n seats of people.
func People(n int) []string {
	players := make([]string, n)
	for i := range players {
		players[i] = catalog.Person
	}
	return players
}

// Start starts a live match of lg, closed when the test ends.
func Start(t testing.TB, lg catalog.LiveGame, setup catalog.LiveSetup) catalog.Live {
	t.Helper()
	live, err := lg.NewLive(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(live.Close)
	return live
}

// RandomMove is a random choice (or the default) of a random request
// that live has open, and the seat that owes it; false when none is open.
func RandomMove(rng *rand.Rand, live catalog.Live) (seat int, move json.RawMessage, ok bool) {
	pending := live.Pending()
	if len(pending) == 0 {
		return 0, nil, false
	}
	q := pending[rng.IntN(len(pending))]
	move = q.Default
	if len(q.Choices) > 0 {
		move = q.Choices[rng.IntN(len(q.Choices))]
	}
	return q.Seat, move, true
}
