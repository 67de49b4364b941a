package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnSQLiteFileHasOneStoreWhicheverFileHoldsIt(t *testing.T) {
	// An SQLite file has one server: a second store on it is refused while
	// the first is open, and taken once it is closed. On Linux the file is
	// held by a lock on itself; elsewhere (macOS, the BSDs, Windows), where
	// such a lock would meet SQLite's own and leave SQLite its own file
	// locked, by a lock on a file beside it, path + ".lock": both ways are
	// played here, and SQLite writes under either.
	ctx := context.Background()
	for _, beside := range []bool{false, true} {
		was := lockBeside
		lockBeside = beside
		t.Cleanup(func() { lockBeside = was })
		path := filepath.Join(t.TempDir(), "serve.db")
		a, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatalf("beside %v: %v", beside, err)
		}
		if err := a.Create(ctx, &Match{ID: "m1", Game: "reaj", Mode: "play", Config: []byte("{}")}, nil); err != nil {
			t.Errorf("beside %v: SQLite cannot write under the store's lock: %v", beside, err)
		}
		if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), "is open in another arbiter serve") {
			t.Errorf("beside %v: a second store while the first is open: %v", beside, err)
		}
		if _, err := os.Stat(path + ".lock"); (err == nil) != beside {
			t.Errorf("beside %v: the file beside it: %v", beside, err)
		}
		a.Close()
		b, err := Open(ctx, path, Options{})
		if err != nil {
			t.Errorf("beside %v: a store once the first is closed: %v", beside, err)
			continue
		}
		b.Close()
	}
}
