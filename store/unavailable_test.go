package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/pgtest"
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

func TestOnlyALostConnectionIsTheDatabaseUnavailable(t *testing.T) {
	// Any error of the network's kind was taken for the database
	// unavailable, and every failure to connect with it: a TLS handshake
	// the server refuses and an authentication the connection's settings
	// do not allow were answered 503, to be sent again for as long as the
	// settings stay. They are internal errors; a connection refused or
	// cut, and a store closed as the server stops (which was an internal
	// error), are the database unavailable.
	ctx := context.Background()
	u := pgtest.Shared(t).NewDatabase(t)
	for _, settings := range []string{"sslmode=require", "sslmode=disable&require_auth=scram-sha-256"} {
		target := strings.Replace(u, "sslmode=disable", settings, 1)
		if target == u {
			t.Fatalf("the database's URL %s sets no sslmode to replace", u)
		}
		db, err := sql.Open("pgx", target)
		if err != nil {
			t.Fatal(err)
		}
		err = db.PingContext(ctx)
		db.Close()
		if err == nil || store.Unavailable(err) {
			t.Errorf("%s: %v, Unavailable %v; want an error that is not the database unavailable", settings, err, store.Unavailable(err))
		}
	}

	for name, target := range map[string]string{"PostgreSQL": u, "SQLite": filepath.Join(t.TempDir(), "live.db")} {
		st, err := store.Open(ctx, target, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if _, err := st.Match(ctx, "m1"); !store.Unavailable(err) {
			t.Errorf("a store closed (%s): %v; want the database unavailable", name, err)
		}
	}

	// The cluster is this test's own, stopped: the connections the store
	// has are cut, then none can be made.
	pg, err := pgtest.Start(pgtest.Options{NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	st, err := store.Open(ctx, pg.NewDatabase(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := pg.Down(); err != nil {
		t.Fatal(err)
	}
	for try := range 2 {
		if _, err := st.Match(ctx, "m1"); !store.Unavailable(err) {
			t.Errorf("PostgreSQL down, call %d: %v; want the database unavailable", try+1, err)
		}
	}
	if err := pg.Up(); err != nil {
		t.Fatal(err)
	}

	// What the network layer says of an address it cannot use, or a TLS
	// alert, lasts as long as the settings; a reset, a timeout and a name
	// not found (a database's host gone from the network) do not.
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "missing port in address", Addr: "db"}}, false},
		{&net.OpError{Op: "dial", Net: "tcp", Err: net.UnknownNetworkError("tcp9")}, false},
		{&net.OpError{Op: "remote error", Err: errors.New("tls: bad certificate")}, false},
		{&net.AddrError{Err: "missing port in address", Addr: "db"}, false},
		{&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, true},
		{&net.DNSError{Err: "no such host", Name: "db", IsNotFound: true}, true},
	} {
		err := fmt.Errorf("a move: %w", c.err)
		if got := store.Unavailable(err); got != c.want {
			t.Errorf("%v: Unavailable %v; want %v", err, got, c.want)
		}
	}
}
