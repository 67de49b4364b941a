package player

import "golang.org/x/sys/unix"

// resourceAS is the limit of --bot-limits as: OpenBSD has no limit of the
// address space, and bounds a process's memory by its data size, which
// counts what malloc maps.
const resourceAS = unix.RLIMIT_DATA
