//go:build unix

package catalog

import "syscall"

// openNonblock opens a map file without waiting on it: a FIFO put in the
// maps directory opens at once, and is then refused as no regular file.
const openNonblock = syscall.O_NONBLOCK
