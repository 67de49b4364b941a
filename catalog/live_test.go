package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/livetest"
)

// TestLiveShowsTheMatchAsItStands: a live match keeps what it shows (its
// views, its public view, its requests as JSON) from move to move while a
// move leaves its round open. At every step of random play, every game's
// match shows exactly what a match freshly replayed to that step shows.
func TestLiveShowsTheMatchAsItStands(t *testing.T) {
	ctx := context.Background()
	livetest.EachMode(t, func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info) {
		if mode.Judge {
			t.Skip("every move is the judge's: nothing is kept")
		}
		players := livetest.People(info.MinSeats)
		setup := catalog.LiveSetup{Setup: engine.Setup{Seed: 7, Players: players}, Mode: mode.Name}
		live := livetest.Start(t, lg, setup)
		rng := rand.New(rand.NewPCG(1, 2))
		type played struct {
			seat int
			move json.RawMessage
		}
		var moves []played
		for step := 0; step < 60 && !live.Over(); step++ {
			seat, move, ok := livetest.RandomMove(rng, live)
			if !ok {
				break
			}
			if err := live.Apply(seat, move); err != nil {
				t.Fatalf("step %d: seat %d's %s: %v", step, seat, move, err)
			}
			moves = append(moves, played{seat, move})
			fresh, err := lg.NewLive(ctx, setup)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range moves {
				if err := fresh.Apply(m.seat, m.move); err != nil {
					t.Fatal(err)
				}
			}
			same(t, step, "the public view", live.Public(), fresh.Public())
			for seat := range players {
				same(t, step, "a seat's view", live.View(seat), fresh.View(seat))
			}
			same(t, step, "the judge's view", live.View(engine.Judge), fresh.View(engine.Judge))
			got, _ := json.Marshal(live.Pending())
			want, _ := json.Marshal(fresh.Pending())
			same(t, step, "the requests", got, want)
			fresh.Close()
		}
	})
}

func same(t *testing.T, step int, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("after move %d, %s is\n%s\nwant\n%s", step+1, what, got, want)
	}
}

// TestLiveRefusesWhatIsNotOneMove: a move's JSON is one move of the game:
// two moves in one body, a move with more after it, or what is not JSON
// are rule errors that name what was sent, and leave the match as it was.
func TestLiveRefusesWhatIsNotOneMove(t *testing.T) {
	livetest.EachMode(t, func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info) {
		if mode.Judge {
			t.Skip("no seat is asked")
		}
		live := livetest.Start(t, lg, catalog.LiveSetup{Setup: engine.Setup{Seed: 7, Players: livetest.People(info.MinSeats)}, Mode: mode.Name})
		q := live.Pending()[0]
		before, _ := json.Marshal(live.Pending())
		for _, move := range []string{string(q.Default) + " " + string(q.Default), string(q.Default) + "}", "not json"} {
			err := live.Apply(q.Seat, json.RawMessage(move))
			if !engine.IsRuleError(err) || !bytes.Contains([]byte(err.Error()), []byte("is not a move of this game")) {
				t.Errorf("%s: %v, want a rule error: not a move of this game", move, err)
			}
		}
		if after, _ := json.Marshal(live.Pending()); !bytes.Equal(before, after) {
			t.Errorf("the requests changed after refusals:\n%s\n%s", before, after)
		}
	})
}

// TestViewsAreAsEncodingJSONWritesThem: the views a live match shows are
// taken as the games' views write themselves, so they must be what
// json.Marshal would make of them: valid, compact, with <, > and & escaped
// and valid UTF-8, at every step of random play of every game and mode.
func TestViewsAreAsEncodingJSONWritesThem(t *testing.T) {
	check := func(t *testing.T, step int, who string, b json.RawMessage) {
		t.Helper()
		var compact bytes.Buffer
		if err := json.Compact(&compact, b); err != nil {
			t.Fatalf("step %d, %s: not JSON: %v\n%s", step, who, err, b)
		}
		var escaped bytes.Buffer
		json.HTMLEscape(&escaped, b)
		if !bytes.Equal(compact.Bytes(), b) || !bytes.Equal(escaped.Bytes(), b) || !utf8.Valid(b) {
			t.Fatalf("step %d, %s: not as json.Marshal writes it:\n%s", step, who, b)
		}
	}
	livetest.EachMode(t, func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info) {
		players := livetest.People(info.MinSeats)
		live := livetest.Start(t, lg, catalog.LiveSetup{Setup: engine.Setup{Seed: 11, Players: players}, Mode: mode.Name})
		rng := rand.New(rand.NewPCG(3, 4))
		for step := 0; step < 80 && !live.Over(); step++ {
			for seat := range players {
				check(t, step, fmt.Sprintf("seat %d", seat), live.View(seat))
			}
			check(t, step, "the judge", live.View(engine.Judge))
			check(t, step, "the public", live.Public())
			seat, move, ok := nextLiveMove(rng, live, mode.Judge, judgeScripts[info.Name], step)
			if !ok {
				break
			}
			if err := live.Apply(seat, move); err != nil && !engine.IsRuleError(err) {
				t.Fatalf("step %d: %v", step, err)
			}
		}
	})
}

// A person's name that the rules would take for another seat's (a zombie
// seat named P2 at seat 0) is refused as a match is made, never as one is
// resumed or replayed: a match made before with such a name keeps it.
func TestANameOfAnotherSeatIsRefusedAtCreationOnly(t *testing.T) {
	g, err := catalog.Find("zombie")
	if err != nil {
		t.Fatal(err)
	}
	lg := g.(catalog.LiveGame)
	for _, mode := range []string{"party", "judge"} {
		s := catalog.LiveSetup{Setup: engine.Setup{Seed: 1, Players: []string{catalog.Person, catalog.Person, catalog.Person}}, Mode: mode,
			Names: []string{"Ann", "P3", "Cat"}, Quiet: true, Creating: true}
		if _, err := lg.NewLive(context.Background(), s); !catalog.IsInvalid(err) {
			t.Errorf("%s: a new match with seat 1 named P3: %v; want it refused as invalid", mode, err)
		}
		s.Creating = false
		live, err := lg.NewLive(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: a match made before with seat 1 named P3, again: %v", mode, err)
		}
		if names := live.Names(); names[1] != "P3" {
			t.Errorf("%s: the names of a match made before: %q; want seat 1's P3 kept", mode, names)
		}
		live.Close()
	}
}
