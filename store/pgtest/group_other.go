//go:build !unix

package pgtest

import "syscall"

// ownGroup is nil where there are no process groups: PostgreSQL's tests run
// on Unix.
func ownGroup() *syscall.SysProcAttr { return nil }
