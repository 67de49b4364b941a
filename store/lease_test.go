package store

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestRenewKeepsOnlyTheLeasesStillHeld(t *testing.T) {
	// Renew renews, in one call, the leases a server holds on more
	// matches than one statement takes, and leaves out those another
	// server took after they lapsed.
	c := &clock{now: time.UnixMilli(1_800_000_000_000)}
	s := openTemp(t, c)
	var ids []string
	for i := range renewChunk + 20 {
		id := fmt.Sprintf("m%04d", i)
		ids = append(ids, id)
		if err := s.Create(ctx, newMatch(id), nil); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Lease(ctx, id, "a", c.now.Add(time.Second)); err != nil || !ok {
			t.Fatalf("lease of %s: %v %v", id, ok, err)
		}
	}
	c.now = c.now.Add(2 * time.Second) // a's leases lapse; b takes two
	for _, id := range []string{"m0003", ids[renewChunk+5]} {
		if ok, err := s.Lease(ctx, id, "b", c.now.Add(time.Minute)); err != nil || !ok {
			t.Fatalf("b's lease of %s: %v %v", id, ok, err)
		}
	}
	held, err := s.Renew(ctx, "a", ids, c.now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == "m0003" || id == ids[renewChunk+5] })
	slices.Sort(held)
	if !slices.Equal(held, want) {
		t.Fatalf("a holds %d matches, %v...; want the %d it did not lose", len(held), held[:min(3, len(held))], len(want))
	}
	c.now = c.now.Add(30 * time.Second) // within a's renewed leases
	if ok, err := s.Lease(ctx, "m0000", "b", c.now.Add(time.Minute)); err != nil || ok {
		t.Fatalf("b took a renewed lease: %v %v", ok, err)
	}
	if held, err := s.Renew(ctx, "a", nil, c.now); err != nil || len(held) != 0 {
		t.Fatalf("renewing nothing: %v %v", held, err)
	}
}
