package server_test

import (
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/sqlitetest"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/pgtest"
)

// wantUnavailable fails t unless a is the refusal of a call that met the
// database unavailable: 503 unavailable, saying so and when to send it
// again, as Retry-After and retry_after_ms (as a 429 does), which the
// example clients honour.
func wantUnavailable(t *testing.T, what string, a answer) {
	t.Helper()
	e, _ := a.json["error"].(map[string]any)
	msg, _ := e["message"].(string)
	ms, _ := e["retry_after_ms"].(float64)
	if a.status != http.StatusServiceUnavailable || a.code() != "unavailable" || a.header.Get("Retry-After") != "2" || ms != 2000 ||
		!strings.Contains(msg, "cannot reach its database") || !strings.Contains(msg, "send it again in 2s") {
		t.Errorf("%s, the database unavailable: %d Retry-After %q %s; want 503 unavailable, saying to send it again, with Retry-After 2 and retry_after_ms 2000",
			what, a.status, a.header.Get("Retry-After"), a.body)
	}
}

// movesOf counts the moves stored of match id in the database at db (a
// file or a URL), read apart from the server.
func movesOf(t *testing.T, driver, db, id string) int {
	t.Helper()
	h, err := sql.Open(driver, db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var n int
	if err := h.QueryRow("SELECT count(*) FROM moves WHERE match_id = $1", id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAnSQLiteFileThatCannotBeWrittenIsUnavailable(t *testing.T) {
	// While another process holds the file's lock (the sqlite3 shell, a
	// backup), as while it is read-only or its disk is full, calls that
	// write were answered 500 internal, which clients do not retry. They
	// are 503 unavailable with a Retry-After; nothing is acknowledged
	// that is not stored, and the server goes on once the file is free.
	if onPostgres {
		t.Skip("a test of SQLite: it runs in the SQLite pass")
	}
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServerOpts(t, db, store.Options{BusyTimeout: 50 * time.Millisecond}, server.Config{}, (*httptest.Server).Start)
	reaj := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}}
	c := ts.create(reaj)
	s0 := c.Seats[0].Secret
	q := ts.state(c.ID, s0).Requests[0]
	move := map[string]any{"request": q.ID, "move": "adapt"}
	moves := "/api/v1/matches/" + c.ID + "/moves"

	release := sqlitetest.HoldWriteLock(t, db)
	wantUnavailable(t, "a move", ts.call("POST", moves, s0, move, "Idempotency-Key", "k1"))
	wantUnavailable(t, "a creation", ts.call("POST", "/api/v1/matches", "", reaj))
	if a := ts.call("GET", "/api/v1/matches/"+c.ID, s0, nil); a.status != http.StatusOK {
		t.Errorf("reading the match while the file is locked: %d %s; want it read", a.status, a.body)
	}
	release()
	if n := movesOf(t, "sqlite", db, c.ID); n != 0 {
		t.Fatalf("%d moves stored while the file was locked; want none", n)
	}
	a := ts.call("POST", moves, s0, move, "Idempotency-Key", "k1")
	if a.status != http.StatusOK || a.json["repeat"] != false {
		t.Fatalf("the move sent again once the file is free: %d %s; want it made", a.status, a.body)
	}
	if n := movesOf(t, "sqlite", db, c.ID); n != 1 {
		t.Errorf("%d moves stored after the one acknowledged; want 1", n)
	}
	ts.create(reaj)
}

func TestPostgreSQLDownIsUnavailable(t *testing.T) {
	// While PostgreSQL is down, calls that reach the database were
	// answered 500 internal. They are 503 unavailable with a
	// Retry-After; nothing is acknowledged that is not stored, and the
	// server goes on once the database is back. The cluster is this
	// test's own, stopped and started again.
	postgresOnly(t)
	pg, err := pgtest.Start(pgtest.Options{NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	db := pg.NewDatabase(t)
	ts := startServer(t, db, server.Config{})
	reaj := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}}
	c := ts.create(reaj)
	s0 := c.Seats[0].Secret
	q := ts.state(c.ID, s0).Requests[0]
	move := map[string]any{"request": q.ID, "move": "adapt"}
	moves := "/api/v1/matches/" + c.ID + "/moves"

	if err := pg.Down(); err != nil {
		t.Fatal(err)
	}
	// Twice: the connections it had are cut (57P01), then none can be
	// made (connection refused).
	for range 2 {
		wantUnavailable(t, "a move", ts.call("POST", moves, s0, move, "Idempotency-Key", "k1"))
		wantUnavailable(t, "a creation", ts.call("POST", "/api/v1/matches", "", reaj))
	}
	if err := pg.Up(); err != nil {
		t.Fatal(err)
	}
	if n := movesOf(t, "pgx", db, c.ID); n != 0 {
		t.Fatalf("%d moves stored while the database was down; want none", n)
	}
	// The server's connections come back as it asks for them: a call
	// may meet one more that was cut, and is told to send it again.
	a := ts.call("POST", moves, s0, move, "Idempotency-Key", "k1")
	for try := 0; a.status == http.StatusServiceUnavailable && try < 50; try++ {
		time.Sleep(100 * time.Millisecond)
		a = ts.call("POST", moves, s0, move, "Idempotency-Key", "k1")
	}
	if a.status != http.StatusOK || a.json["repeat"] != false {
		t.Fatalf("the move sent again once the database is back: %d %s; want it made", a.status, a.body)
	}
	if n := movesOf(t, "pgx", db, c.ID); n != 1 {
		t.Errorf("%d moves stored after the one acknowledged; want 1", n)
	}
	ts.create(reaj)
}

func TestAnUnguardedJudgeMoveIsWarnedItMayBeMadeTwice(t *testing.T) {
	// A judge's command that met the database unavailable was told to be
	// sent again, as every call is: without an Idempotency-Key or
	// expect_seq, nothing tells its retry from a second command, and one
	// stored as the database went away (its answer lost) would be made
	// twice. Its refusal, the same 503 with the same wait, says so and to
	// read the match first; a keyed or expect_seq move is told to send
	// it again, as before.
	if onPostgres {
		t.Skip("a test of SQLite: it runs in the SQLite pass")
	}
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServerOpts(t, db, store.Options{BusyTimeout: 50 * time.Millisecond}, server.Config{}, (*httptest.Server).Start)
	c := ts.create(map[string]any{"game": "zombie", "mode": "judge", "seats": []map[string]any{
		{"player": "person", "name": "Ann"}, {"player": "person", "name": "Bob"}, {"player": "person", "name": "Cat"}, {"player": "person", "name": "Zed"}}})
	moves := "/api/v1/matches/" + c.ID + "/moves"
	command := map[string]any{"move": "HUMAN Ann 2"}
	correction := map[string]any{"move": "HUMAN Ann 2", "reason": "Ann came late"}

	release := sqlitetest.HoldWriteLock(t, db)
	for _, a := range []answer{
		ts.call("POST", moves, c.Judge.Secret, command),
		ts.call("POST", "/api/v1/matches/"+c.ID+"/correct", c.Judge.Secret, correction),
	} {
		e, _ := a.json["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if a.status != http.StatusServiceUnavailable || a.code() != "unavailable" || a.header.Get("Retry-After") != "2" ||
			!strings.Contains(msg, "it may have been stored as the database went away, and with neither an Idempotency-Key nor expect_seq it may be made twice if sent again: in 2s, read the match") {
			t.Errorf("an unkeyed judge's move, the database unavailable: %d %s; want 503 unavailable saying it may be made twice, and to read the match first", a.status, a.body)
		}
	}
	wantUnavailable(t, "a keyed judge's move", ts.call("POST", moves, c.Judge.Secret, command, "Idempotency-Key", "k1"))
	wantUnavailable(t, "a judge's move with expect_seq", ts.call("POST", moves, c.Judge.Secret, map[string]any{"move": "HUMAN Ann 2", "expect_seq": 0}))
	release()
	if n := movesOf(t, "sqlite", db, c.ID); n != 0 {
		t.Fatalf("%d moves stored while the file was locked; want none", n)
	}
}
