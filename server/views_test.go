package server

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/livetest"
	"github.com/arbiter-games/arbiter/store"
)

func TestViewsKeptOverQuietMovesAreTheViews(t *testing.T) {
	// The views kept for a match's streams are made once for each move
	// that changes them, shared by every caller of an audience, kept over
	// the moves that leave their round open, and always what the match
	// shows each audience then, in every game played live.
	livetest.EachMode(t, func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info) {
		players := livetest.People(info.MinSeats)
		live := livetest.Start(t, lg, catalog.LiveSetup{Setup: engine.Setup{Seed: 7, Players: players}, Mode: mode.Name})
		callers := []caller{{role: store.JudgeRole, seat: engine.Judge}, {}}
		for seat := range players {
			callers = append(callers, caller{role: store.SeatRole, seat: seat})
		}
		vs := &views{seq: -1}
		rng := rand.New(rand.NewPCG(1, 2))
		quietMoves := 0
		for seq := int64(1); seq <= 80 && !live.Over(); seq++ {
			seat, move, ok := livetest.RandomMove(rng, live)
			if !ok {
				break
			}
			before := vs.of(seq-1, callers[len(callers)-1], live)
			if err := live.Apply(seat, move); err != nil {
				t.Fatalf("move %d: seat %d's %s: %v", seq, seat, move, err)
			}
			vs.moved(seq, live.Quiet())
			for _, c := range callers {
				got, again := vs.of(seq, c, live), vs.of(seq, c, live)
				want := live.Public()
				if c.role == store.SeatRole {
					want = live.View(c.seat)
				} else if c.role == store.JudgeRole {
					want = live.View(engine.Judge)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("move %d (quiet %v), %s: the view kept is\n%s\nnot\n%s", seq, live.Quiet(), audience(c), got, want)
				}
				if &got[0] != &again[0] {
					t.Fatalf("move %d, %s: the view made twice", seq, audience(c))
				}
			}
			if live.Quiet() {
				quietMoves++
				if after := vs.of(seq, callers[len(callers)-1], live); &after[0] != &before[0] {
					t.Fatalf("move %d left its round open, and the view was made again", seq)
				}
			}
		}
		t.Logf("%d quiet moves", quietMoves)
	})
}
