//go:build !unix

package server

// FileLimit is how many files, connections included, this process may
// have open at once: 0, no bound known, where the system has no
// RLIMIT_NOFILE (Windows: sockets are bounded by memory only).
func FileLimit() uint64 { return 0 }
