// Package sqlitetest gives tests an SQLite file made unavailable for real:
// its write lock taken by a connection of its own, as another process (the
// sqlite3 shell, a backup) would take it. There is no mock of the
// database.
package sqlitetest

import (
	"context"
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the driver "sqlite"
)

// HoldWriteLock takes the write lock of the SQLite file db from a
// connection of its own, as another process would, until release (or the
// test's end). The connection waits for the writes under way.
func HoldWriteLock(t testing.TB, db string) (release func()) {
	t.Helper()
	other, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(60000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	lock, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	if _, err := lock.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if _, err := lock.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
	}
}
