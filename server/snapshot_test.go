package server_test

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
)

func TestAMatchResumesFromASnapshotAsItWas(t *testing.T) {
	// A match past its first snapshot, read again after a restart from its
	// snapshot and the moves after it, shows every reader what it showed
	// before, plays on, and its record replays.
	db := filepath.Join(t.TempDir(), "live.db")
	cfg := server.Config{Limits: server.Limits{Moves: 1e6, MoveBurst: 1e6}}
	ts := startServer(t, db, cfg)
	c := ts.create(map[string]any{"game": "ajveciv", "seats": people(3), "options": map[string]any{"turns": 200}})
	// Each pass over the seats answers one round: three moves, two once a
	// society has died. roundEnd is the move that ends the round under way
	// at move SnapshotEvery.
	roundEnd := 0
	for moved := 0; moved < store.SnapshotEvery+20; {
		for _, seat := range c.Seats {
			for _, q := range ts.state(c.ID, seat.Secret).Requests {
				if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", seat.Secret, map[string]any{"request": q.ID, "move": q.Choices[len(q.Choices)-1]}); a.status != http.StatusOK {
					t.Fatalf("move: %d %s", a.status, a.body)
				}
				moved++
			}
		}
		if roundEnd == 0 && moved >= store.SnapshotEvery {
			roundEnd = moved
		}
	}
	readers := []string{"", c.Seats[0].Secret, c.Seats[1].Secret, c.Seats[2].Secret}
	var before [][]byte
	for _, secret := range readers {
		before = append(before, ts.call("GET", "/api/v1/matches/"+c.ID, secret, nil).body)
	}
	ts.stop()
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := st.LatestSnapshot(context.Background(), c.ID, 1<<40)
	st.Close()
	// The snapshot waits for the end of the round under way at move
	// SnapshotEvery.
	if want := roundEnd; err != nil || snap == nil || snap.Seq != int64(want) {
		t.Fatalf("the latest snapshot: %+v %v; want one at move %d, the end of the round under way at move %d", snap, err, want, store.SnapshotEvery)
	}
	again := startServer(t, db, cfg)
	for i, secret := range readers {
		if after := again.call("GET", "/api/v1/matches/"+c.ID, secret, nil).body; !bytes.Equal(after, before[i]) {
			t.Errorf("reader %d after the restart:\n%s\nbefore:\n%s", i, after, before[i])
		}
	}
	if m := again.playDefaults(c); m.Status != "over" {
		t.Fatalf("the match is %s", m.Status)
	}
	rec := again.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
	if rec.status != http.StatusOK {
		t.Fatalf("record: %d %s", rec.status, rec.body)
	}
	g, _ := catalog.Find("ajveciv")
	if _, err := g.Replay(rec.body); err != nil {
		t.Errorf("the record does not replay: %v", err)
	}
}
