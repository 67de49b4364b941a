package filelock_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/internal/filelock"
)

func TestTryLockRefusesASecondHolder(t *testing.T) {
	// A file locked through one handle is refused through another, with
	// ErrLocked, until the first is closed; the holder still reads and
	// writes it, as a store does its SQLite file.
	path := filepath.Join(t.TempDir(), "held")
	a, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := filelock.TryLock(a); err != nil {
		t.Fatalf("the first lock: %v", err)
	}
	if _, err := a.WriteAt([]byte("kept"), 0); err != nil {
		t.Fatalf("the holder's write: %v", err)
	}
	b, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := filelock.TryLock(b); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("a second lock while the first is held: %v; want ErrLocked", err)
	}
	got := make([]byte, 4)
	if _, err := b.ReadAt(got, 0); err != nil || string(got) != "kept" {
		t.Errorf("another handle reads %q, %v; the lock must not refuse reads of the data", got, err)
	}
	a.Close()
	if err := filelock.TryLock(b); err != nil {
		t.Errorf("the lock once its holder closed: %v", err)
	}
	if err := filelock.Lock(b); err != nil {
		t.Errorf("Lock by the holder again: %v", err)
	}
}

func TestLockEndsWithTheProcess(t *testing.T) {
	// The system releases a lock when its process ends, however it ends:
	// a process killed while it holds one leaves the file free.
	if os.Getenv("FILELOCK_HOLD") != "" {
		f, err := os.OpenFile(os.Getenv("FILELOCK_HOLD"), os.O_RDWR, 0)
		if err != nil || filelock.TryLock(f) != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		select {} // until killed
	}
	path := filepath.Join(t.TempDir(), "held")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockEndsWithTheProcess$")
	cmd.Env = append(os.Environ(), "FILELOCK_HOLD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 5)
	if _, err := out.Read(line); err != nil || string(line) != "held\n" {
		cmd.Process.Kill()
		t.Fatalf("the holder said %q, %v", line, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := filelock.TryLock(f); !errors.Is(err, filelock.ErrLocked) {
		t.Errorf("while another process holds it: %v; want ErrLocked", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := filelock.TryLock(f); err != nil {
		t.Errorf("once the holder was killed: %v", err)
	}
}
