//go:build unix

package pgtest

import "syscall"

// ownGroup makes a process the first of a process group of its own.
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
