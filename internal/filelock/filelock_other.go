//go:build !unix && !windows

package filelock

import "os"

// Lock does nothing where the system has no file locks Arbiter knows
// (wasip1, plan9): a second process is not kept out.
func Lock(f *os.File) error { return nil }

// TryLock does nothing where the system has no file locks Arbiter knows.
func TryLock(f *os.File) error { return nil }
