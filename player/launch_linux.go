package player

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// What Linux does for programs beyond any Unix: namespaces, limits set by
// prlimit(1), bubblewrap's sandbox.

// limitArgs returns the words that run argv, a program's, under the limits
// lim, and its environment env: prlimit(1) (util-linux) first, when it is
// on the PATH; limited is false when it is not, and setLimits sets them
// once the program has started. It never fails.
func limitArgs(lim []rlimit, argv, env []string) (_, _ []string, limited bool, _ error) {
	if len(lim) == 0 {
		return argv, env, true, nil
	}
	path, err := exec.LookPath("prlimit")
	if err != nil {
		return argv, env, false, nil
	}
	pre := []string{path}
	for _, r := range lim {
		pre = append(pre, fmt.Sprintf("--%s=%d:%d", r.option, r.soft, r.hard))
	}
	return append(append(pre, "--"), argv...), env, true, nil
}

// sandboxProgram returns the path of bubblewrap, which runs a program
// under --sandbox.
func sandboxProgram() (string, error) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return "", errors.New("--sandbox needs bubblewrap (bwrap) on the PATH: apt-get install bubblewrap")
	}
	return bwrap, nil
}

// namespaces says whether this process may start programs in namespaces of
// their own; it turns false for good at the first refusal, and Arbiter
// becomes a subreaper.
var namespaces = struct {
	sync.Mutex
	refused bool
}{}

// procAttr is how a program's process is made: a session of its own, and
// so a process group of its own (its id the process's) and no controlling
// terminal, killed if Arbiter dies, and, when allowed and not sandboxed,
// the first process of new user and PID namespaces. In Arbiter's session
// a program could open Arbiter's terminal (/dev/tty) and write on it, turn
// its echo off for the shell after Arbiter, or type into that shell
// (TIOCSTI).
func procAttr(sandboxed bool) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	namespaces.Lock()
	refused := namespaces.refused
	namespaces.Unlock()
	if sandboxed || refused {
		return attr
	}
	uid, gid := os.Getuid(), os.Getgid()
	attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	return attr
}

// inNamespace reports whether a process made with attr is the first
// process of a PID namespace.
func inNamespace(attr *syscall.SysProcAttr) bool { return attr.Cloneflags&syscall.CLONE_NEWPID != 0 }

// refuseNamespaces records that the kernel refused namespaces, and makes
// Arbiter a subreaper so that orphans of bots come back to it. It reports
// whether err was such a refusal.
func refuseNamespaces(err error) bool {
	if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) &&
		!errors.Is(err, syscall.EUSERS) && !errors.Is(err, syscall.EACCES) {
		return false
	}
	namespaces.Lock()
	defer namespaces.Unlock()
	if !namespaces.refused {
		namespaces.refused = true
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	return true
}

// setLimits applies the limits to a started process that prlimit(1) could
// not wrap: a second best, since the program may already run.
func setLimits(pid int, l Limits) {
	for _, r := range l.rlimits() {
		lim := unix.Rlimit{Cur: r.soft, Max: r.hard}
		_ = unix.Prlimit(pid, r.resource, &lim, nil)
	}
}

// The rlimit resources.
const (
	resourceAS    = unix.RLIMIT_AS
	resourceCPU   = unix.RLIMIT_CPU
	resourceNPROC = unix.RLIMIT_NPROC
	resourceFSIZE = unix.RLIMIT_FSIZE
)

// stopThread stops one thread of a program (tgkill), where the stop of its
// process group left it running (see stopStragglers).
func stopThread(th thread) { _ = unix.Tgkill(th.tgid, th.tid, unix.SIGSTOP) }
