//go:build unix

package server

import (
	"math"
	"syscall"
)

// FileLimit is how many files, connections included, this process may
// have open at once: its RLIMIT_NOFILE, whose soft limit Go raises to
// the hard one as the process starts; 0 when it cannot be read, or has
// no bound (RLIM_INFINITY: all ones on Linux, 2⁶³-1 on the BSDs and
// macOS, where the field is signed on some).
func FileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || uint64(r.Cur) >= math.MaxInt64 { // a negative one too
		return 0
	}
	return uint64(r.Cur)
}
