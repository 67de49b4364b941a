package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

func TestEventsMadeAgainAsSent(t *testing.T) {
	// A stream resumed from the log gets the events a live stream got,
	// byte for byte: the seat's requests with their deadlines as they
	// were then.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 3},
		"time": map[string]any{"people_ms": 3_600_000}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	live := ts.follow(ctx, c.ID, c.Seats[0].Secret, 0)
	ts.playDefaults(c)
	sent := collect(t, live)
	again := collect(t, ts.follow(ctx, c.ID, c.Seats[0].Secret, 0))
	if len(sent) != 6 || len(again) != len(sent) {
		t.Fatalf("%d events live, %d made again; want 6", len(sent), len(again))
	}
	deadlines := 0
	for i := range sent {
		if sent[i].data != again[i].data {
			t.Errorf("event %d made again differs:\nlive  %s\nagain %s", i+1, sent[i].data, again[i].data)
		}
		deadlines += strings.Count(sent[i].data, `"deadline"`)
	}
	if deadlines == 0 {
		t.Error("no event shows a deadline")
	}
	if st := ts.call("GET", "/api/v1/matches/"+c.ID, "", nil).status; st != http.StatusOK {
		t.Errorf("GET: %d", st)
	}
}
