//go:build unix

package player

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// What Arbiter reads of processes in /proc, to end what a bot started where
// the kernel does not do it for it (see launch.go).

// proc is a process: its id, and its start time in clock ticks since boot,
// which tells it apart from a later process given the same id.
type proc struct {
	pid   int
	start uint64
}

// stat is what /proc/PID/stat says of a process.
type stat struct {
	ppid, pgrp, session int
	zombie              bool
	start               uint64
}

// readStat reads /proc/PID/stat; ok is false when there is no such process.
func readStat(pid int) (st stat, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	// pid (comm) state ppid pgrp ... starttime (the 22nd field): comm
	// may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return stat{}, false
	}
	st.zombie = f[0] == "Z"
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.session, _ = strconv.Atoi(f[3])
	st.start, _ = strconv.ParseUint(f[19], 10, 64)
	return st, true
}

// live reports whether p still runs: the same process, not a zombie.
func (p proc) live() bool {
	st, ok := readStat(p.pid)
	return ok && !st.zombie && st.start == p.start
}

// kill kills p if it is still the same process.
func (p proc) kill() {
	if p.live() {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

// processes returns every process with its parent and start time.
func processes() map[int]stat {
	out := map[int]stat{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// descendants returns every process whose parent chain leads to pid.
func descendants(pid int) []proc {
	all := processes()
	children := map[int][]int{}
	for p, st := range all {
		children[st.ppid] = append(children[st.ppid], p)
	}
	var out []proc
	stack := []int{pid}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range children[p] {
			out = append(out, proc{c, all[c].start})
			stack = append(stack, c)
		}
	}
	return out
}

// killAll kills every process of ps that still runs.
func killAll(ps []proc) {
	for _, p := range ps {
		p.kill()
	}
}

// awaitGone waits until none of ps runs, or limit passes: a killed process
// that is not Arbiter's child is reaped by its own parent, a moment later.
func awaitGone(ps []proc, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for _, p := range ps {
		for p.live() && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
}

// bots are the programs running now, by pid, with their private
// directories (their HOME), so that the subreaper's sweep knows its own
// children from orphans, and a seat's orphans from another's. Those in
// namespaces are among them: namespaces may be refused (their count run
// out) while programs started in them play on, Arbiter's children too.
var bots = struct {
	sync.Mutex
	pids map[int]bot
}{pids: map[int]bot{}}

// bot is a program running: its private directory, and whether it is the
// first process of a PID namespace (whose processes are never orphans of
// Arbiter's: they end with it).
type bot struct {
	dir string
	ns  bool
}

// sweep kills what a program left behind when the kernel does not: the
// descendants of pid, and, when Arbiter is a subreaper, every orphan of a
// bot re-parented to it that is not another program's still running (see
// ownerOf), with all its descendants. It goes over them again while it
// finds any, since a process may fork while it is being killed, and reaps
// the orphans it kills, and those of any bot that ended by themselves (see
// endedOrphan).
func sweep(pid int) {
	me := os.Getpid()
	session, _ := unix.Getsid(0)
	for range 10 {
		found := false
		if ds := descendants(pid); len(ds) > 0 {
			found = true
			killAll(ds)
		}
		bots.Lock()
		var orphans []proc
		for c, st := range processes() {
			_, program := bots.pids[c]
			switch {
			case st.ppid != me || c == pid || program:
			case endedOrphan(st, session):
				var ws unix.WaitStatus
				_, _ = unix.Wait4(c, &ws, unix.WNOHANG, nil)
			case st.zombie:
			default:
				if home, bot := botHome(c); bot {
					if owner := ownerOf(st.session, home); owner == 0 || owner == pid {
						orphans = append(orphans, proc{c, st.start})
					}
				}
			}
		}
		bots.Unlock()
		for _, c := range orphans {
			found = true
			killAll(descendants(c.pid))
			c.kill()
			var ws unix.WaitStatus
			_, _ = unix.Wait4(c.pid, &ws, 0, nil)
		}
		if !found {
			return
		}
	}
}

// endedOrphan reports whether st, a child of Arbiter's that is not a
// program it started, is an orphan of a bot that ended by itself: a zombie
// that only Arbiter, its subreaper, can reap, which stays one for the rest
// of the run otherwise. A zombie's environment cannot be read (botHome); its
// session can. Every process of a bot is in a session other than
// Arbiter's, its program's or one it made (procAttr), and no process can
// join Arbiter's; Arbiter's own children (what it runs for itself, which
// it waits for) are in Arbiter's session, session.
func endedOrphan(st stat, session int) bool {
	return st.zombie && st.session != session
}

// ownerOf returns the program still running (bots) that an orphan of a
// bot, in session session and with HOME home, is of, or 0 for none known:
// the program whose session it is in (every program leads a session of
// its own: procAttr, and no process joins another's), or else, for one
// that made a session of its own, the program whose private directory is
// its HOME. The caller holds bots' lock.
func ownerOf(session int, home string) int {
	if b, ok := bots.pids[session]; ok && !b.ns {
		return session
	}
	for pid, b := range bots.pids {
		if home != "" && home == b.dir && !b.ns {
			return pid
		}
	}
	return 0
}

// botHome reports whether an orphan re-parented to Arbiter came from a
// bot, and its HOME: a bot's private directory, or none (a bot may clear
// its environment; Arbiter's own children inherit Arbiter's). Arbiter's
// other children (a browser, a database in tests) are left alone.
func botHome(pid int) (home string, bot bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", true
	}
	for _, e := range strings.Split(string(b), "\x00") {
		if v, ok := strings.CutPrefix(e, "HOME="); ok {
			return v, strings.HasPrefix(filepath.Base(v), "arbiter-bot-")
		}
	}
	return "", true
}

// keepInheritedFromBots marks every descriptor of Arbiter's (past
// standard input, output and error) that does not close on exec to close
// on exec: Go opens its own so, but passes on to a child what Arbiter was
// given open by what started it, and a bot must not get a descriptor of
// Arbiter's parent (a pipe to a CI job's log, a file a script opened for
// Arbiter) to read or write. It runs before each program starts: a
// descriptor may come later, from a library's raw system call.
func keepInheritedFromBots() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		// macOS and the BSDs list a process's descriptors in /dev/fd.
		if entries, err = os.ReadDir("/dev/fd"); err != nil {
			return
		}
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < 3 {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC)
		}
	}
}

// thread is a thread of a process, and its state as /proc/PID/stat says
// it (R, S, D, T, t, Z, ...).
type thread struct {
	tgid, tid int
	state     byte
}

// treeThreads returns every thread of the process root and of its
// descendants, found through /proc/PID/task/TID/children; where the
// kernel has no such file, every thread of the processes of process group
// root. Under --sandbox, either is every thread of the program: root is
// the first process of its PID namespace, and leads its group.
func treeThreads(root int) []thread {
	rootTask := "/proc/" + strconv.Itoa(root) + "/task/" + strconv.Itoa(root)
	if _, err := os.Stat(rootTask + "/children"); err != nil {
		var out []thread
		for pid := range processesOfGroup(root) {
			out = append(out, threadsOf(pid, nil)...)
		}
		return out
	}
	var out []thread
	seen := map[int]bool{}
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		out = append(out, threadsOf(pid, &stack)...)
	}
	return out
}

// threadsOf returns the threads of process pid; with children, it adds
// the children of each thread to it.
func threadsOf(pid int, children *[]int) []thread {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []thread
	var buf [1024]byte
	for _, name := range names {
		tid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		// pid (comm) state ...: comm may hold spaces and parentheses.
		b := readSmall(dir+name+"/stat", buf[:])
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 >= len(b) {
			continue
		}
		out = append(out, thread{tgid: pid, tid: tid, state: b[i+2]})
		if children != nil {
			for _, f := range bytes.Fields(readSmall(dir+name+"/children", buf[:])) {
				if n, err := strconv.Atoi(string(f)); err == nil {
					*children = append(*children, n)
				}
			}
		}
	}
	return out
}

// readSmall reads the file at path into buf, which it outgrows when the
// file is longer (nothing when it cannot be read): a few system calls,
// and mostly no allocation, for the small files of /proc read at each
// rest of a program.
func readSmall(path string, buf []byte) []byte {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	b := buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err != nil || n <= 0 {
			return b
		}
		b = b[:len(b)+n]
	}
}

// processesOfGroup returns the processes of process group pgrp.
func processesOfGroup(pgrp int) map[int]bool {
	out := map[int]bool{}
	for pid, st := range processes() {
		if st.pgrp == pgrp {
			out[pid] = true
		}
	}
	return out
}

// boundProcesses bounds the processes and threads of the sandbox whose
// first process is init to about limit (RLIMIT_NPROC's number), where
// RLIMIT_NPROC does not: Linux does not apply it to root, and a sandbox
// that Arbiter started as root runs as root. Since Linux 6.14 a PID
// namespace has a pid_max of its own, which root may lower from inside
// it: to limit+300, since process ids below 300 are not given again once
// the ids have wrapped. Before 6.14, pid_max is the machine's, and is
// left alone; so it is without nsenter(1), and for limit 0 (none).
func boundProcesses(init int, limit int64) {
	if limit <= 0 || os.Geteuid() != 0 || !pidMaxPerNamespace() {
		return
	}
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		return
	}
	pidMax := strconv.FormatInt(min(limit, 1<<22-reservedPIDs)+reservedPIDs, 10)
	// The bot waits for this (gateFD): bounded, lest a machine that
	// stalls the write stall the bot's start for ever.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = exec.CommandContext(ctx, nsenter, "--target", strconv.Itoa(init), "--pid", "--",
		"/bin/sh", "-c", "echo "+pidMax+" > /proc/sys/kernel/pid_max").Run()
}

// reservedPIDs are the process ids a PID namespace gives only once: after
// its ids wrap, they start again from there (RESERVED_PIDS).
const reservedPIDs = 300

// pidMaxPerNamespace reports whether the kernel keeps a pid_max for each
// PID namespace: Linux 6.14 and later.
var pidMaxPerNamespace = sync.OnceValue(func() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 6 || major == 6 && minor >= 14
})
