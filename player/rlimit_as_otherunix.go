//go:build unix && !linux && !openbsd

package player

import "golang.org/x/sys/unix"

// resourceAS is the limit of a process's address space (--bot-limits as).
const resourceAS = unix.RLIMIT_AS
