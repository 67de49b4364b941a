//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is the byte locked: past the end of any file Arbiter writes,
// and past SQLite's own lock bytes (at 1 GiB), so that the lock refuses no
// read or write of the data.
const lockOffset = 1<<63 - 2

// Lock locks f, waiting while another holds it.
func Lock(f *os.File) error { return lock(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }

// TryLock locks f if no other holds it, and returns ErrLocked otherwise.
func TryLock(f *os.File) error {
	err := lock(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return ErrLocked
	}
	return err
}

func lock(f *os.File, flags uint32) error {
	off := uint64(lockOffset)
	ol := windows.Overlapped{Offset: uint32(off), OffsetHigh: uint32(off >> 32)}
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
}
