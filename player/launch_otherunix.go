//go:build unix && !linux

package player

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// On a Unix other than Linux (macOS, the BSDs) a program runs in a session
// of its own, under the limits its seat sets (limitArgs), and is killed with
// its process group when its seat ends. There are no namespaces: a process
// it started that left its group (setsid) may outlive it. --sandbox needs
// Linux.

// procAttr is how a program's process is made: a session of its own, and
// so a process group of its own and no controlling terminal (see the Linux
// procAttr).
func procAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// inNamespace is false: there are no PID namespaces here.
func inNamespace(*syscall.SysProcAttr) bool { return false }

// refuseNamespaces is false: no namespace is ever asked for.
func refuseNamespaces(error) bool { return false }

// limitArgs returns the words that run argv under the limits lim: Arbiter's
// own executable, told the limits in its environment (limitsEnv), sets them
// on itself and becomes the program (execLimited). Where Arbiter cannot
// name its own executable, the program is not started: it would run
// without its limits.
func limitArgs(lim []rlimit, argv, env []string) (_, _ []string, limited bool, _ error) {
	if len(lim) == 0 {
		return argv, env, true, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, nil, false, fmt.Errorf("exec: the bot's limits (--bot-limits) are set by Arbiter's own executable here, which this system does not name (%v); give --bot-limits none to run bots without them", err)
	}
	return append([]string{self}, argv...), append(env, limitsEnv+"="+formatLimits(lim)), true, nil
}

// setLimits does nothing: limitArgs always wraps the program, and another
// process's limits cannot be set here.
func setLimits(int, Limits) {}

// sandboxProgram refuses --sandbox: the sandbox is bubblewrap's, on Linux.
func sandboxProgram() (string, error) {
	return "", errors.New("--sandbox needs Linux (bubblewrap), and this is " + runtime.GOOS + ": run without it, or on Linux")
}

// sandboxFilter is none: there is no sandbox to load it.
func sandboxFilter() []byte { return nil }

// stopThread does nothing: only a sandboxed program rests (see rest).
func stopThread(thread) {}

// The rlimit resources.
const (
	resourceCPU   = unix.RLIMIT_CPU
	resourceNPROC = unix.RLIMIT_NPROC
	resourceFSIZE = unix.RLIMIT_FSIZE
)
