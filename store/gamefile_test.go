package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

var ctx = context.Background()

// clock is a store's clock that the test sets.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func openTemp(t *testing.T, c *clock) *Store {
	t.Helper()
	o := Options{Synchronous: "NORMAL"}
	if c != nil {
		o.Now = c.Now
	}
	s, err := Open(ctx, filepath.Join(t.TempDir(), "live.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rowsOf returns a query's rows as text.
func rowsOf(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprintf("%v", v)
			if b, ok := v.([]byte); ok {
				parts[i] = string(b)
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	return out
}

// projector is a projector's migrations as goose reads them: comments
// with semicolons, a block, two versions.
var projector = fstest.MapFS{
	"00001_tally.sql": {Data: []byte(`-- A tally; of moves.
-- +goose Up
CREATE TABLE tally (
    match_id TEXT   NOT NULL REFERENCES matches (id) ON DELETE CASCADE, -- the match; keyed
    n        BIGINT NOT NULL  -- moves so far; counted
);
-- +goose StatementBegin
CREATE TRIGGER tally_moves AFTER INSERT ON moves BEGIN
    UPDATE tally SET n = n + 1 WHERE match_id = NEW.match_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE tally;
`)},
	"00002_index.sql": {Data: []byte("-- +goose Up\nCREATE INDEX tally_by_match ON tally (match_id);\n-- +goose Down\nDROP INDEX tally_by_match;\n")},
}

func TestMigrateTxAsGoose(t *testing.T) {
	// Migrations applied in one transaction by MigrateTx leave the schema
	// and the version tables goose leaves, so that goose later finds
	// nothing to do.
	byGoose := openTemp(t, nil)
	if err := byGoose.Migrate(ctx, projector, "tally_db_version"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tx.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := MigrateTx(ctx, tx, Schema(), "goose_db_version", false); err != nil {
		t.Fatal(err)
	}
	if err := MigrateTx(ctx, tx, projector, "tally_db_version", false); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	const schema = `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`
	if d := cmp.Diff(rowsOf(t, byGoose.db, schema), rowsOf(t, db, schema)); d != "" {
		t.Errorf("the schema (-goose +MigrateTx):\n%s", d)
	}
	for _, table := range []string{"goose_db_version", "tally_db_version"} {
		versions := `SELECT id, version_id, is_applied FROM ` + table + ` ORDER BY id`
		if d := cmp.Diff(rowsOf(t, byGoose.db, versions), rowsOf(t, db, versions)); d != "" {
			t.Errorf("%s (-goose +MigrateTx):\n%s", table, d)
		}
	}
	read, _ := sql.Open("sqlite", "file:"+path)
	s, err := OpenDB(ctx, path, db, read, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx, projector, "tally_db_version"); err != nil {
		t.Fatal(err)
	}
	if n := rowsOf(t, db, `SELECT count(*) FROM tally_db_version`); n[0] != "3" {
		t.Errorf("goose recorded more migrations after MigrateTx: %v rows", n)
	}
	// A migration that goose must run itself is refused.
	tx, _ = db.BeginTx(ctx, nil)
	defer tx.Rollback()
	err = MigrateTx(ctx, tx, fstest.MapFS{"00001_x.sql": {Data: []byte("-- +goose NO TRANSACTION\n-- +goose Up\nVACUUM;\n")}}, "x_db_version", false)
	if err == nil || !strings.Contains(err.Error(), "must run by goose itself") {
		t.Errorf("a migration without a transaction: %v", err)
	}
}

// counter is a live match whose moves are numbers; a negative one is
// illegal.
type counter struct{ sum int }

func (c *counter) Pending() []engine.Request[json.RawMessage] { return nil }
func (c *counter) Apply(seat int, move json.RawMessage) error {
	var n int
	if err := json.Unmarshal(move, &n); err != nil || n < 0 {
		return engine.Refuse("not-a-number", "%s is not a number of 0 or more", move)
	}
	c.sum += n
	return nil
}
func (c *counter) Over() bool            { return false }
func (c *counter) Result() engine.Result { return engine.Result{} }
func (c *counter) Close()                {}

type counting struct{}

func (counting) Live(context.Context, *Match) (Live, error) { return &counter{}, nil }

func newMatch(id string) *Match {
	return &Match{ID: id, Game: "counter", Variant: "v", RulesVersion: "1", Mode: "", Setup: engine.Setup{Seed: 7}, Config: json.RawMessage(`{}`), Listed: true}
}

func TestImportTxAsCreateAndCommit(t *testing.T) {
	// A match stored with its moves by ImportTx has the rows that Create
	// and Commit write for it.
	c := &clock{now: time.UnixMilli(1_800_000_000_000)}
	s := openTemp(t, c)
	if err := s.Create(ctx, newMatch("a"), nil); err != nil {
		t.Fatal(err)
	}
	moves := []Move{
		{Seq: 1, Actor: Judge, Request: -1, Move: json.RawMessage(`3`)},
		{Seq: 2, Actor: 0, Request: 4, Move: json.RawMessage(`5`), Key: "k", KeyHash: "h", Fault: &engine.Fault{Kind: engine.FaultTimeout}},
	}
	for _, mv := range moves {
		errs := s.Commit(ctx, []*Append{{Match: "a", Move: mv, Status: Running}})
		if errs[0] != nil {
			t.Fatal(errs[0])
		}
	}
	for i := range moves {
		moves[i].At = c.now
	}
	m := newMatch("b")
	m.Created, m.Updated = c.now, c.now
	if err := s.tx(ctx, func(tx *sql.Tx) error { return ImportTx(ctx, tx, m, moves) }); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`SELECT game, variant, rules_version, mode, setup, config, listed, status, seq, result, created, updated, lease_owner, lease_until FROM matches WHERE id = $1`,
		`SELECT seq, actor, request, move, fault, note, at, idem_key, idem_hash FROM moves WHERE match_id = $1 ORDER BY seq`,
	} {
		if d := cmp.Diff(rowsOf(t, s.read, q, "a"), rowsOf(t, s.read, q, "b")); d != "" {
			t.Errorf("(-Create and Commit +ImportTx):\n%s", d)
		}
	}
	err := s.tx(ctx, func(tx *sql.Tx) error { return ImportTx(ctx, tx, newMatch("b"), nil) })
	if !errors.Is(err, ErrExists) {
		t.Errorf("importing a match twice: %v", err)
	}
}

// Judge is engine.Judge, for short.
const Judge = engine.Judge

func TestCommitBatch(t *testing.T) {
	// A batch is committed whole or not at all.
	s := openTemp(t, nil)
	if err := s.Create(ctx, newMatch("a"), nil); err != nil {
		t.Fatal(err)
	}
	mv := func(seq int64, key string) Move {
		return Move{Seq: seq, Actor: Judge, Request: -1, Move: json.RawMessage(`1`), Key: key, KeyHash: key}
	}
	projected := 0
	project := func(ctx context.Context, tx *sql.Tx) error { projected++; return nil }
	if err := s.CommitBatch(ctx, &Batch{Match: "a", Moves: []Move{mv(1, ""), mv(2, "k")}, Status: Running, Project: project}); err != nil {
		t.Fatal(err)
	}
	broken := errors.New("the projection broke")
	for _, c := range []struct {
		batch *Batch
		want  error
	}{
		{&Batch{Match: "a", Moves: []Move{mv(2, ""), mv(3, "")}, Status: Running}, ErrMoved},
		{&Batch{Match: "a", Moves: []Move{mv(3, ""), mv(4, "k")}, Status: Running}, ErrKeyTaken},
		{&Batch{Match: "a", Moves: []Move{mv(3, "")}, Status: Running, Project: func(context.Context, *sql.Tx) error { return broken }}, broken},
		{&Batch{Match: "b", Moves: []Move{mv(1, "")}, Status: Running}, ErrMoved},
	} {
		if err := s.CommitBatch(ctx, c.batch); !errors.Is(err, c.want) {
			t.Errorf("%+v: %v; want %v", c.batch.Moves, err, c.want)
		}
	}
	m, err := s.Match(ctx, "a")
	if err != nil || m.Seq != 2 {
		t.Errorf("after the refused batches the match is at %v (%v); want 2", m, err)
	}
	if moves, _ := s.Moves(ctx, "a", 0); len(moves) != 2 || projected != 1 {
		t.Errorf("%d moves, %d projections; want 2 and 1", len(moves), projected)
	}
	if err := s.CommitBatch(ctx, &Batch{Match: "a", Moves: []Move{mv(3, ""), mv(4, "")}, Status: Over}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitBatch(ctx, &Batch{Match: "a", Moves: []Move{mv(5, "")}, Status: Running}); !errors.Is(err, ErrMoved) {
		t.Errorf("a batch to a match over: %v", err)
	}
}

func TestRefereeProject(t *testing.T) {
	// A referee's Project writes a game's tables in the transaction of each
	// move whose submission brings no projection of its own, with the
	// move's time; a projection that fails stores nothing.
	s := openTemp(t, nil)
	if _, err := s.db.Exec(`CREATE TABLE seen (match_id TEXT, seq BIGINT, at BIGINT, before BIGINT)`); err != nil {
		t.Fatal(err)
	}
	ref := NewReferee(s, counting{})
	defer ref.Close()
	fail := false
	ref.Project = func(m *Match, live Live, mv *Move) func(context.Context, *sql.Tx) error {
		before, sum := m.Seq, live.(*counter).sum
		return func(ctx context.Context, tx *sql.Tx) error {
			if fail {
				return errors.New("the table is full")
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO seen VALUES ($1, $2, $3, $4)`, m.ID, mv.Seq*1000+int64(sum), mv.At.UnixMilli(), before)
			return err
		}
	}
	if err := s.Create(ctx, newMatch("a"), nil); err != nil {
		t.Fatal(err)
	}
	submit := func(move string) error {
		_, err := ref.Submit(ctx, Submission{Match: "a", Actor: Judge, Request: -1, ExpectSeq: -1, Move: json.RawMessage(move)})
		return err
	}
	for _, move := range []string{"2", "-1", "5"} {
		if err := submit(move); err != nil && !engine.IsRuleError(err) {
			t.Fatal(err)
		}
	}
	fail = true
	if err := submit("1"); err == nil || !strings.Contains(err.Error(), "the table is full") {
		t.Errorf("a failing projection: %v", err)
	}
	got := rowsOf(t, s.read, `SELECT s.seq, s.before, s.at = m.at FROM seen s JOIN moves m ON m.match_id = s.match_id AND m.seq = s.seq / 1000 ORDER BY s.seq`)
	if want := []string{"1002 | 0 | 1", "2007 | 1 | 1"}; !cmp.Equal(got, want) {
		t.Errorf("the projection wrote %v; want %v (the refused and the failed moves none)", got, want)
	}
	if m, _ := s.Match(ctx, "a"); m.Seq != 2 {
		t.Errorf("the match is at %d; want 2", m.Seq)
	}
}
