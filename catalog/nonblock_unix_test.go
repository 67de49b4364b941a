//go:build unix

package catalog

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO found where a map was checked to be a file (swapped in between
// the check and the open, by someone who can write the maps directory)
// is refused at once: a plain open would wait for a writer, and hold the
// request that named the map for ever.
func TestAFIFOInPlaceOfAMapIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "west.svg"), 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	maps, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer maps.Close()
	done := make(chan error, 1)
	go func() {
		f, err := openRegular(maps, "west.svg")
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was opened as a map")
		}
	case <-time.After(time.Minute): // an allowance: the open returns at once, or never
		t.Fatal("opening a FIFO named as a map waits for a writer")
	}
}
