package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/pgtest"
)

func TestCommitEachMoveAsIfAlone(t *testing.T) {
	// "Commit commits the appends in one transaction, each as if alone":
	// in a group, a move whose match has moved on, one whose key another
	// move has, and one whose projection refuses it change nothing, and
	// the others commit; on SQLite and on PostgreSQL.
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			st := openPG(t, target(t, db))
			for _, id := range []string{"a", "b", "c", "d", "e"} {
				newMatch(t, st, id)
			}
			move := func(id string, seq int64, key string) *store.Append {
				return &store.Append{Match: id, Status: store.Running,
					Move: store.Move{Seq: seq, Actor: 0, Request: -1, Move: json.RawMessage(`{}`), Key: key}}
			}
			if errs := st.Commit(context.Background(), []*store.Append{move("b", 1, "k")}); errs[0] != nil {
				t.Fatal(errs[0])
			}
			refuse := move("e", 1, "")
			refuse.Project = func(context.Context, *sql.Tx) error { return errors.New("no") }
			batch := []*store.Append{move("a", 1, ""), move("b", 1, ""), move("b", 2, "k"), move("c", 1, ""), refuse, move("d", 1, "")}
			errs := st.Commit(context.Background(), batch)
			want := []error{nil, store.ErrMoved, store.ErrKeyTaken, nil, nil, nil}
			for i, err := range errs {
				if i == 2 && db == "postgres" && errors.Is(err, store.ErrMoved) {
					continue // PostgreSQL's pipeline names a taken key a move too late
				}
				if i == 4 {
					if err == nil || err.Error() != "no" {
						t.Errorf("the refused projection's move: %v", err)
					}
					continue
				}
				if !errors.Is(err, want[i]) || (want[i] == nil) != (err == nil) {
					t.Errorf("move %d: %v; want %v", i, err, want[i])
				}
			}
			for id, seq := range map[string]int64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 0} {
				m, err := st.Match(context.Background(), id)
				if err != nil || m.Seq != seq {
					t.Errorf("match %s at %d (%v); want %d", id, m.Seq, err, seq)
				}
			}
		})
	}
}

// target is a new database of the kind db.
func target(t *testing.T, db string) string {
	if db == "postgres" {
		return pgtest.Shared(t).NewDatabase(t)
	}
	return filepath.Join(t.TempDir(), "live.db")
}

func TestMatchesFoundByStatus(t *testing.T) {
	// The running matches (by when they were created) and the ended ones
	// not changed since a time are found through indexes that a move of a
	// running match never writes (migrations/00003_status_indexes.sql):
	// moves, a move that ends a match and End each leave the matches where
	// these lists say, on SQLite and on PostgreSQL.
	ctx := context.Background()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			st := openPG(t, target(t, db))
			for _, id := range []string{"a", "b", "c", "d"} {
				newMatch(t, st, id)
			}
			move := func(id string, seq int64, status store.Status) *store.Append {
				a := &store.Append{Match: id, Status: status, Move: store.Move{Seq: seq, Actor: 0, Request: -1, Move: json.RawMessage(`{}`)}}
				if status != store.Running {
					a.Result = &engine.Result{Scores: []int64{1}, Winners: []int{0}, Ranks: []int{1}}
				}
				return a
			}
			for _, batch := range [][]*store.Append{
				{move("a", 1, store.Running), move("b", 1, store.Running), move("c", 1, store.Running)},
				{move("a", 2, store.Running), move("b", 2, store.Over)},
			} {
				for i, err := range st.Commit(ctx, batch) {
					if err != nil {
						t.Fatalf("move %d: %v", i, err)
					}
				}
			}
			if err := st.End(ctx, "d", store.Aborted, nil); err != nil {
				t.Fatal(err)
			}
			running, err := st.Running(ctx)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(running) // created in the same millisecond, perhaps
			if !slices.Equal(running, []string{"a", "c"}) {
				t.Errorf("running: %v; want [a c]", running)
			}
			ended, err := st.Untouched(ctx, time.Now().Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(ended)
			if !slices.Equal(ended, []string{"b", "d"}) {
				t.Errorf("ended: %v; want [b d]", ended)
			}
			if ended, _ := st.Untouched(ctx, time.Now().Add(-time.Hour)); len(ended) != 0 {
				t.Errorf("ended before an hour ago: %v; want none", ended)
			}
			for _, id := range []string{"a", "b", "c", "d"} {
				m, err := st.Match(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]store.Status{"a": store.Running, "b": store.Over, "c": store.Running, "d": store.Aborted}[id]
				if m.Status != want || (id == "b") != (m.Result != nil) {
					t.Errorf("match %s: %s, result %v; want %s", id, m.Status, m.Result, want)
				}
			}
		})
	}
}

// TestStoredIsToldOnceTheMoveIsStored: a submission's Stored hears its
// move's number once the move is committed, before Submit returns and
// while no one can see the match without it (a reader of the match waits
// until it has moved on); a move refused is never Stored.
func TestStoredIsToldOnceTheMoveIsStored(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			st := openPG(t, target(t, db))
			newMatch(t, st, "m")
			ref := store.NewReferee(st, counterRules{})
			defer ref.Close()
			ctx := context.Background()
			for n := int64(0); n < 5; n++ {
				var told []int64
				seen := make(chan int64, 1)
				sub := store.Submission{Match: "m", Actor: 0, Request: -1, ExpectSeq: -1, Move: json.RawMessage(fmt.Sprintf(`{"at":%d}`, n))}
				sub.Stored = func(seq int64, _ json.RawMessage) {
					told = append(told, seq)
					// A reader of the match now sees it with this move.
					go ref.With(ctx, "m", func(m *store.Match, _ store.Live) error { seen <- m.Seq; return nil })
				}
				ack, err := ref.Submit(ctx, sub)
				if err != nil {
					t.Fatal(err)
				}
				if len(told) != 1 || told[0] != ack.Seq {
					t.Fatalf("move %d: Stored told %v, want once its number %d", n, told, ack.Seq)
				}
				if seq := <-seen; seq != ack.Seq {
					t.Errorf("a reader woken when move %d was stored saw the match at move %d", ack.Seq, seq)
				}
				refused := sub
				refused.Stored = func(seq int64, _ json.RawMessage) { t.Errorf("a refused move was Stored as move %d", seq) }
				if _, err := ref.Submit(ctx, refused); !engine.IsRuleError(err) {
					t.Fatalf("the same move again: %v, want the rules' refusal", err)
				}
			}
		})
	}
}

// TestForgetIdleKeepsWhatIsUsed: ForgetIdle forgets a match over that
// nobody asked for since the call before, never one under way, and a
// reader racing with it always finds the match as it is stored.
func TestForgetIdleKeepsWhatIsUsed(t *testing.T) {
	st := openPG(t, target(t, "sqlite"))
	newMatch(t, st, "over")
	newMatch(t, st, "running")
	ref := store.NewReferee(st, counterRules{})
	defer ref.Close()
	ctx := context.Background()
	for n := range 3 {
		for _, id := range []string{"over", "running"} {
			sub := store.Submission{Match: id, Actor: 0, Request: -1, ExpectSeq: -1, Move: json.RawMessage(fmt.Sprintf(`{"at":%d}`, n))}
			if _, err := ref.Submit(ctx, sub); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := ref.End(ctx, "over", store.Aborted); err != nil {
		t.Fatal(err)
	}
	if got := ref.ForgetIdle(); len(got) != 0 {
		t.Errorf("forgot %v, used since the start", got)
	}
	if got := ref.ForgetIdle(); !slices.Equal(got, []string{"over"}) {
		t.Errorf("forgot %v; want [over]", got)
	}
	held := ref.Held()
	if slices.Contains(held, "over") || !slices.Contains(held, "running") {
		t.Errorf("held %v after the sweeps; want the running match only", held)
	}
	// Readers and sweeps at once: every reader finds the match.
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for i := 0; i < 300; i++ {
				err := ref.With(ctx, "over", func(m *store.Match, _ store.Live) error {
					if m.Seq != 3 || m.Status != store.Aborted {
						return fmt.Errorf("read at move %d, %s; want 3, aborted", m.Seq, m.Status)
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		defer close(done)
		for i := 0; i < 300; i++ {
			ref.ForgetIdle()
		}
	}()
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	<-done
}

// TestAbsentIsTheRecordsAbsent: the seats the database finds absent (asked
// and never answered but by defaults) are those engine.Record.Absent finds
// in the same moves, on SQLite and on PostgreSQL.
func TestAbsentIsTheRecordsAbsent(t *testing.T) {
	ctx := context.Background()
	timeout := &engine.Fault{Kind: engine.FaultTimeout, Detail: "no answer within 1s"}
	// Seat 0 answers once among defaults, seat 1 never answers, seat 2 is
	// never asked, seat 3 always answers; the judge moves too.
	steps := []engine.Step[json.RawMessage]{
		{Seat: 0, Fault: timeout}, {Seat: 1, Fault: timeout}, {Seat: 3}, {Seat: -1},
		{Seat: 0}, {Seat: 1, Fault: timeout}, {Seat: 0, Fault: timeout}, {Seat: 3},
	}
	rec := engine.Record[json.RawMessage]{Header: engine.Header{Setup: engine.Setup{Players: []string{"a", "b", "c", "d"}}}, Steps: steps}
	want := rec.Absent()
	if !slices.Equal(want, []bool{false, true, false, false}) {
		t.Fatalf("the record finds %v absent; the test expects seat 1 only", want)
	}
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			st := openPG(t, target(t, db))
			newMatch(t, st, "m")
			for i, s := range steps {
				a := &store.Append{Match: "m", Status: store.Running, Move: store.Move{Seq: int64(i + 1), Actor: s.Seat, Request: -1, Move: json.RawMessage(`{}`), Fault: s.Fault}}
				for _, err := range st.Commit(ctx, []*store.Append{a}) {
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := st.Absent(ctx, "m", 4)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("absent %v; want %v", got, want)
			}
		})
	}
}
