//go:build unix

package player

import (
	"os"

	"golang.org/x/sys/unix"
)

// protocolOutput keeps the process's standard output for the protocol's
// lines, and points file descriptor 1 at standard error, so that whatever
// else writes there goes to the seat's log: fmt.Println, a logger or a
// writer made on os.Stdout before Serve ran (os.Stdout is the descriptor,
// whatever variable holds it), a child process that inherits it. It
// returns the file the protocol is written to, and the function that puts
// standard output back; ok is false when the descriptors could not be
// changed, and nothing was.
func protocolOutput() (out *os.File, restore func(), ok bool) {
	fd, err := unix.Dup(1)
	if err != nil {
		return nil, nil, false
	}
	unix.CloseOnExec(fd)
	if err := unix.Dup2(2, 1); err != nil {
		_ = unix.Close(fd)
		return nil, nil, false
	}
	out = os.NewFile(uintptr(fd), "/dev/stdout")
	return out, func() {
		_ = unix.Dup2(fd, 1)
		_ = out.Close()
	}, true
}
