package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

// snapCounter is the counter with snapshots: its count.
type snapCounter struct {
	counter
	applied *atomic.Int64 // moves applied, by every counter of the rules
}

func (c *snapCounter) Apply(seat int, move json.RawMessage) error {
	c.applied.Add(1)
	return c.counter.Apply(seat, move)
}

func (c *snapCounter) Snapshot() ([]byte, error) { return []byte(strconv.FormatInt(c.n, 10)), nil }

// snapRules makes snapCounters, and restores them from their snapshots
// unless damaged says the snapshots are not theirs.
type snapRules struct {
	applied, restored *atomic.Int64
	damaged           bool
}

func (r snapRules) Live(context.Context, *store.Match) (store.Live, error) {
	return &snapCounter{applied: r.applied}, nil
}

func (r snapRules) Restore(_ context.Context, _ *store.Match, snapshot []byte) (store.Live, error) {
	n, err := strconv.ParseInt(string(snapshot), 10, 64)
	if err != nil || r.damaged {
		return nil, fmt.Errorf("not a snapshot of these rules: %q", snapshot)
	}
	r.restored.Add(1)
	return &snapCounter{counter: counter{n: n}, applied: r.applied}, nil
}

func TestAMatchResumesFromItsLatestSnapshot(t *testing.T) {
	// "Snapshots for fast resumption": a match read again is restored from
	// its latest snapshot and replays only the moves after it; a snapshot
	// these rules cannot restore is passed over for the whole log.
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			st := openPG(t, target(t, db))
			newMatch(t, st, "m")
			var applied, restored atomic.Int64
			ref := store.NewReferee(st, snapRules{applied: &applied, restored: &restored})
			const moves = 2*store.SnapshotEvery + 10
			for n := range moves {
				move := json.RawMessage(fmt.Sprintf(`{"at":%d}`, n))
				if _, err := ref.Submit(context.Background(), store.Submission{Match: "m", Actor: 0, Request: -1, ExpectSeq: -1, Move: move}); err != nil {
					t.Fatal(err)
				}
			}
			ref.Close() // its snapshots written
			for _, damaged := range []bool{false, true} {
				applied.Store(0)
				restored.Store(0)
				again := store.NewReferee(st, snapRules{applied: &applied, restored: &restored, damaged: damaged})
				err := again.With(context.Background(), "m", func(m *store.Match, live store.Live) error {
					if n := live.(*snapCounter).n; n != moves || m.Seq != moves {
						t.Errorf("the match read again counts %d at move %d; want %d", n, m.Seq, moves)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				again.Close()
				want, wantRestored := int64(10), int64(1)
				if damaged {
					want, wantRestored = moves, 0
				}
				if applied.Load() != want || restored.Load() != wantRestored {
					t.Errorf("damaged %v: %d moves replayed and %d restores; want %d and %d", damaged, applied.Load(), restored.Load(), want, wantRestored)
				}
			}
		})
	}
}

func TestSnapshotsKeepTheLatestTwo(t *testing.T) {
	st := openPG(t, filepath.Join(t.TempDir(), "live.db"))
	newMatch(t, st, "m")
	for seq := int64(1); seq <= 5; seq++ {
		if err := st.PutSnapshot(context.Background(), "m", store.Snapshot{Seq: seq * store.SnapshotEvery, State: []byte("x")}); err != nil {
			t.Fatal(err)
		}
	}
	for atMost, want := range map[int64]int64{5 * store.SnapshotEvery: 5 * store.SnapshotEvery, 5*store.SnapshotEvery - 1: 4 * store.SnapshotEvery, 4*store.SnapshotEvery - 1: 0} {
		snap, err := st.LatestSnapshot(context.Background(), "m", atMost)
		got := int64(0)
		if snap != nil {
			got = snap.Seq
		}
		if err != nil || got != want {
			t.Errorf("the latest snapshot at %d or before is at %d (%v); want %d", atMost, got, err, want)
		}
	}
}
