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

func TestListPagesMissNoMatchCreatedTogether(t *testing.T) {
	// GET /matches pages by next_before, the last match's created, which
	// counts milliseconds: matches created in the same millisecond (a
	// burst of creations) are not cut at a page's end, where the next
	// page, before that millisecond, would never list the rest.
	ctx := context.Background()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			now := time.UnixMilli(1_800_000_000_000)
			st, err := store.Open(ctx, target(t, db), store.Options{Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			create := func(id string) {
				m := &store.Match{ID: id, Game: "counter", Config: json.RawMessage(`{}`), Setup: engine.Setup{Players: []string{"person"}}, Listed: true}
				if err := st.Create(ctx, m, nil); err != nil {
					t.Fatal(err)
				}
			}
			create("old")
			now = now.Add(time.Millisecond)
			for _, id := range []string{"c", "a", "d", "b"} {
				create(id) // four in one millisecond
			}
			var listed []string
			before := now.Add(time.Minute)
			for page := 0; page < 10; page++ {
				ms, err := st.List(ctx, before, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					listed = append(listed, m.ID)
				}
				if len(ms) < 2 {
					break
				}
				before = ms[len(ms)-1].Created
			}
			if want := []string{"a", "b", "c", "d", "old"}; !slices.Equal(listed, want) {
				t.Errorf("paged by 2: %v; want %v, each once", listed, want)
			}
		})
	}
}
