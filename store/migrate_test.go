package store

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

func TestDatabaseOfTheLayoutBeforeMovesUp(t *testing.T) {
	// A database made by a server of the layout before (migrations 1 and
	// 2: the matches indexed by (status, updated)) is brought to this one
	// when a server opens it, its matches kept and found by status.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct{ id, status string }{{"a", "running"}, {"b", "over"}, {"c", "running"}} {
		_, err := db.Exec(`INSERT INTO matches (id, game, variant, rules_version, mode, setup, config, listed, status, seq, result, created, updated, lease_owner, lease_until)
			VALUES ($1, 'counter', '', '1', '', '{}', '{}', true, $2, 0, '', 1, 1, '', 0)`, m.id, m.status)
		if err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var indexes []string
	rows, err := st.read.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'matches' AND sql IS NOT NULL ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		indexes = append(indexes, n)
	}
	rows.Close()
	if want := []string{"matches_by_created", "matches_ended", "matches_running"}; !slices.Equal(indexes, want) {
		t.Errorf("the matches' indexes: %v; want %v", indexes, want)
	}
	// The queries by status use the indexes made for them.
	for query, index := range map[string]string{runningSQL: "matches_running", untouchedSQL: "matches_ended"} {
		var plan string
		var args []any
		if strings.Contains(query, "$1") {
			args = append(args, 5)
		}
		rows, err := st.read.Query("EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			rows.Scan(&id, &parent, &unused, &detail)
			plan += detail + "; "
		}
		rows.Close()
		if !strings.Contains(plan, index) {
			t.Errorf("%s: the plan is %q; want it to use %s", query, plan, index)
		}
	}
	running, err := st.Running(ctx)
	if err != nil || !slices.Equal(running, []string{"a", "c"}) && !slices.Equal(running, []string{"c", "a"}) {
		t.Errorf("running: %v, %v; want a and c", running, err)
	}
	if ended, err := st.Untouched(ctx, time.Now()); err != nil || !slices.Equal(ended, []string{"b"}) {
		t.Errorf("ended: %v, %v; want b", ended, err)
	}
}
