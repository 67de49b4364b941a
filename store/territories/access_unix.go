//go:build unix

package territories

import (
	"os"

	"golang.org/x/sys/unix"
)

// canWrite says why this process may not write the file or directory at
// path (and read it, for a file), or nil.
func canWrite(path string) error {
	mode := uint32(unix.W_OK)
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		mode |= unix.R_OK
	}
	return unix.Access(path, mode)
}
