package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-games/arbiter/store"
)

func TestFaultsOfTheServerAreNotTheDatabaseUnavailable(t *testing.T) {
	// A call that meets the database unavailable is answered 503 with a
	// Retry-After, which clients honour by sending it again, as long as
	// it lasts. A fault of the server's that no wait mends was taken for
	// one: a write sent through the store's handle of reads (query_only,
	// plain SQLITE_READONLY), a statement of a connection meeting its own
	// (SQLITE_LOCKED), PostgreSQL's protocol_violation and
	// configuration_limit_exceeded. Clients would have sent the call
	// again forever.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}

	reads, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer reads.Close()
	_, err = reads.ExecContext(ctx, "INSERT INTO t VALUES (3)")
	if err == nil || store.Unavailable(err) {
		t.Errorf("a write through a handle of reads: %v, Unavailable %v; want an error that is not the database unavailable", err, store.Unavailable(err))
	}

	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, "SELECT a FROM t")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	_, err = conn.ExecContext(ctx, "DROP TABLE t")
	rows.Close()
	conn.Close()
	if err == nil || store.Unavailable(err) {
		t.Errorf("a table dropped while its connection reads it: %v, Unavailable %v; want an error that is not the database unavailable", err, store.Unavailable(err))
	}

	// Another process's lock is.
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	_, err = db.ExecContext(ctx, "INSERT INTO t VALUES (4)")
	if !store.Unavailable(err) {
		t.Errorf("a write while another holds the file's lock: %v; want the database unavailable", err)
	}
	lock.ExecContext(ctx, "ROLLBACK")

	for code, want := range map[string]bool{
		"08P01": false, // protocol_violation
		"53400": false, // configuration_limit_exceeded
		"08006": true,  // connection_failure
		"53100": true,  // disk_full
		"57P01": true,  // admin_shutdown
		"23505": false, // unique_violation
	} {
		err := fmt.Errorf("a move: %w", &pgconn.PgError{Code: code})
		if got := store.Unavailable(err); got != want {
			t.Errorf("PostgreSQL's %s: Unavailable %v; want %v", code, got, want)
		}
	}
}
