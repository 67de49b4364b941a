package store_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
)

func TestSQLiteLeasesOfAnEndedProcessAreTakenAtOnce(t *testing.T) {
	// An SQLite file has one store at a time (its lock): the leases found
	// on it when it is opened are of a process that ended without letting
	// them go (arbiter serve killed with kill -9). The server that opens
	// it next drives their matches at once (bots, the deadlines that
	// passed meanwhile), not once the leases lapse.
	ctx := context.Background()
	path := target(t, "sqlite")
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := &store.Match{ID: "m", Game: "counter", Config: json.RawMessage(`{}`), Setup: engine.Setup{Players: []string{"person"}}}
	if err := st.Create(ctx, m, nil); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.Lease(ctx, "m", "killed", time.Now().Add(time.Hour)); err != nil || !ok {
		t.Fatalf("the first server's lease: %v %v", ok, err)
	}
	st.Close() // as the process's end lets its file go, leases and all
	st, err = store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ids, err := st.Unleased(ctx, "restarted"); err != nil || !slices.Equal(ids, []string{"m"}) {
		t.Errorf("the matches the restarted server may drive: %v %v; want [m] at once", ids, err)
	}
	if ok, err := st.Lease(ctx, "m", "restarted", time.Now().Add(time.Minute)); err != nil || !ok {
		t.Errorf("the restarted server's lease: %v %v; want it taken", ok, err)
	}
}
