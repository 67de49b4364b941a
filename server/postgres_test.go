package server_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store/pgtest"
)

// The server's tests run twice: on SQLite files, then on PostgreSQL (a
// throwaway cluster, a new database per test). Tests of what only
// PostgreSQL does (several servers on one database) run in the second
// pass.

// onPostgres says the tests run on PostgreSQL.
var onPostgres bool

func TestMain(m *testing.M) {
	code := m.Run()
	if pgtest.Required() {
		fmt.Println("The same tests again, on PostgreSQL (a throwaway cluster):")
		onPostgres = true
		if c := m.Run(); c != 0 {
			code = c
		}
		pgtest.StopShared()
	} else {
		fmt.Println("PostgreSQL is not installed (on Debian: apt-get install postgresql): the server's tests ran on SQLite only")
	}
	os.Exit(code)
}

// newDatabase is a new database for a test: an SQLite file, or a
// PostgreSQL database in the second pass.
func newDatabase(t *testing.T) string {
	t.Helper()
	if onPostgres {
		return pgtest.Shared(t).NewDatabase(t)
	}
	return filepath.Join(t.TempDir(), "live.db")
}

// postgresOnly skips t but in the PostgreSQL pass, and returns the
// cluster.
func postgresOnly(t *testing.T) *pgtest.Cluster {
	t.Helper()
	if !onPostgres {
		t.Skip("a test of several servers on PostgreSQL: it runs in the PostgreSQL pass")
	}
	return pgtest.Shared(t)
}

// onDisk is every byte of the database's files: the SQLite file and its
// log, or, on PostgreSQL, the whole cluster's files after a checkpoint.
func onDisk(t *testing.T, db string) []byte {
	t.Helper()
	if !strings.HasPrefix(db, "postgres://") {
		b, _ := readFile(db)
		return b
	}
	c := pgtest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	var all []byte
	err := filepath.WalkDir(c.DataDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil {
			all = append(all, b...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("the cluster's files could not be read")
	}
	return all
}
