//go:build unix

package player

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// program is a bot running as a process of its own (see launch.go for how
// it is started and confined), speaking one JSON object per line on its
// standard input and output. Its standard error goes to its seat's log.
//
// Nothing a program does can hold Arbiter up: every write to it has a
// deadline, like every answer, and a write that cannot finish in time
// leaves the rest of its message to be sent before the next one, so the
// conversation stays in whole lines.
type program struct {
	cmd    *exec.Cmd
	in     *os.File // the write end of the program's standard input
	unsent []byte   // what a blocked write left of its message
	lines  chan line
	out    *os.File // the read end of the program's standard output
	errs   *os.File // the read end of its standard error
	log    io.WriteCloser
	dir    string // its private directory, removed at close
	bye    []byte // its seat's bye, a line
	ns     bool   // it runs in a PID namespace of its own, under an init
	// group is the process group every process of the program stays in,
	// under --sandbox: it rests between the program's turns (see rest).
	// 0 where its processes may leave their group.
	group  int
	rmu    sync.Mutex // rested, rests
	rested bool
	rests  int // how many times it has been stopped (see stopStragglers)
	// wrapped is true when an init stands between Arbiter and the program,
	// which tells a death by signal N as exit code 128+N.
	wrapped bool
	done    chan struct{} // closed when the process has been waited for
	// logged is closed when the program's standard error is all drained.
	logged chan struct{}
	// tail keeps the end of its standard error, for its crash's fault.
	tail    tail
	once    sync.Once
	closing atomic.Bool // close has begun: writes give up
	// heard is set once any byte has come on the program's standard
	// output: a program that says nothing in time may not flush its lines.
	heard atomic.Bool
	// pending counts the bytes come after the last end of line: a line
	// begun and not ended.
	pending atomic.Int64
	wmu     sync.Mutex // one writer at a time
	// backlog bounds the lines read and not yet taken.
	backlog *backlog
}

// backlog counts the bytes of a program's lines read and not yet taken
// (by next). Past backlogLimit the reader waits for room, and a program
// that writes on fills its pipe and waits too: a program that floods its
// output holds about backlogLimit of Arbiter's memory, not the 64 lines of
// up to maxLine each that the channel of lines holds.
type backlog struct {
	mu     sync.Mutex
	room   *sync.Cond
	bytes  int
	closed bool
}

// backlogLimit is how many bytes of lines may wait to be taken; a line of
// any length (up to maxLine) is let in when none waits.
const backlogLimit = 1 << 20

func newBacklog() *backlog {
	b := &backlog{}
	b.room = sync.NewCond(&b.mu)
	return b
}

// add waits for room for a line of n bytes; it reports false when the
// program is being closed.
func (b *backlog) add(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.bytes > 0 && b.bytes+n > backlogLimit && !b.closed {
		b.room.Wait()
	}
	if b.closed {
		return false
	}
	b.bytes += n
	return true
}

// take frees the room of a line of n bytes.
func (b *backlog) take(n int) {
	b.mu.Lock()
	b.bytes -= n
	b.mu.Unlock()
	b.room.Broadcast()
}

// close lets a reader waiting for room go.
func (b *backlog) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.room.Broadcast()
}

// queue hands a line to next, once there is room for it; it reports false
// when the program is being closed.
func (p *program) queue(l line) bool {
	if !p.backlog.add(len(l.text)) {
		return false
	}
	p.lines <- l
	return true
}

// line is one line of a program's output, or what went wrong reading it.
type line struct {
	text []byte
	err  error
}

func startProgram(command string, ext External, log *seatLog, info engine.MatchInfo) (*program, error) {
	l, err := prepare(command, ext)
	if err != nil {
		return nil, err
	}
	w := log.open(info.Game, info.Seat, fmt.Sprintf("=== %s game %d seat %d: %s\n", info.Ruleset, info.Game, info.Seat+1, command))
	p, err := l.start(ext)
	if err != nil {
		w.Close()
		os.RemoveAll(l.dir)
		return nil, err
	}
	p.log = w
	p.bye = append(byeLine(matchID(ext, info), info.Seat), '\n')
	go p.read()
	go func() {
		_, _ = io.Copy(tee{&p.tail, p.log}, p.errs)
		close(p.logged)
	}()
	return p, nil
}

// start starts the process with pipes of Arbiter's own (so that Wait never
// waits on them, and a program's last words are read to the end).
func (l launch) start(ext External) (*program, error) {
	var fds [6]*os.File // in, out and err: read end, write end
	closeAll := func() {
		for _, f := range fds {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < len(fds); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, err
		}
		fds[i], fds[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := fds[0], fds[1], fds[2], fds[3], fds[4], fds[5]
	keepInheritedFromBots()
	var cmd *exec.Cmd
	var err error
	var filter *os.File // the seccomp filter, for bwrap to read
	var infoR, infoW, gateR, gateW *os.File
	if l.sandboxed {
		// Where bwrap tells the sandbox's first process (infoFD), and
		// the sandbox's init waits to start the program (gateFD).
		if infoR, infoW, err = os.Pipe(); err != nil {
			closeAll()
			return nil, err
		}
		defer infoR.Close()
		if gateR, gateW, err = os.Pipe(); err != nil {
			closeAll()
			infoW.Close()
			return nil, err
		}
		defer gateW.Close() // the program starts, whatever happened
	}
	// A sweep of orphans (see sweep) must not see this program before it
	// is registered.
	bots.Lock()
	for {
		attr := procAttr(ext.Sandbox)
		argv := l.argv
		if inNamespace(attr) {
			argv = append(initArgs(), argv...)
		}
		cmd = &exec.Cmd{Path: argv[0], Args: argv, Env: l.env, Dir: l.dir,
			Stdin: inR, Stdout: outW, Stderr: errW, SysProcAttr: attr}
		if inNamespace(attr) || ext.Sandbox {
			// An init passes them on to the program (initArgs).
			cmd.Stdin, cmd.Stdout, cmd.ExtraFiles = nil, nil, initFiles(inR, outW)
		}
		if l.seccomp != nil {
			if filter, err = filterFile(l.seccomp); err != nil {
				break
			}
			cmd.ExtraFiles = append(cmd.ExtraFiles, filter) // seccompFD
		}
		if infoW != nil {
			for len(cmd.ExtraFiles) < infoFD-3 {
				cmd.ExtraFiles = append(cmd.ExtraFiles, nil) // closed in the child
			}
			cmd.ExtraFiles = append(cmd.ExtraFiles, infoW, gateR) // infoFD, gateFD
		}
		err = cmd.Start()
		if filter != nil {
			filter.Close()
		}
		if err != nil && inNamespace(cmd.SysProcAttr) && refuseNamespaces(err) {
			continue // once more, without namespaces
		}
		break
	}
	ns := err == nil && inNamespace(cmd.SysProcAttr)
	if err == nil {
		bots.pids[cmd.Process.Pid] = bot{l.dir, ns}
	}
	bots.Unlock()
	inR.Close()
	outW.Close()
	errW.Close()
	if infoW != nil {
		infoW.Close()
		gateR.Close()
	}
	var group int
	if err == nil && infoR != nil {
		if group, err = sandboxGroup(infoR); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			forgetBot(cmd.Process.Pid)
			err = noSandbox(err, cmd.ProcessState, errR)
		} else {
			boundProcesses(group, ext.Limits.Processes)
			_, _ = gateW.Write([]byte("\n"))
		}
	}
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("exec %s: %w", l.argv[0], err)
	}
	p := &program{cmd: cmd, in: inW, out: outR, errs: errR, lines: make(chan line, 64), backlog: newBacklog(), dir: l.dir,
		ns: ns, wrapped: ns || ext.Sandbox, group: group, done: make(chan struct{}), logged: make(chan struct{})}
	if !l.limited {
		setLimits(cmd.Process.Pid, ext.Limits) // prlimit(1) was not found
	}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// sandboxGroup reads what bwrap tells of the sandbox on r (its --info-fd)
// and returns the id of the sandbox's first process: it leads the process
// group of every process of the program (bwrap's --new-session; the
// seccomp filter refuses setsid and setpgid, so that none leaves it).
func sandboxGroup(r *os.File) (int, error) {
	// bwrap writes it as soon as the sandbox is made, before the program
	// starts, and closes it; the bound is for a bwrap that never does.
	_ = r.SetReadDeadline(time.Now().Add(sandboxInfoWait))
	b, err := io.ReadAll(io.LimitReader(r, 64<<10))
	var info struct {
		ChildPID int `json:"child-pid"`
	}
	if jerr := json.Unmarshal(b, &info); jerr != nil || info.ChildPID <= 0 {
		return 0, fmt.Errorf("bwrap did not say which process the sandbox's is (%q, %v)", b, err)
	}
	return info.ChildPID, nil
}

// noSandbox says why bwrap made no sandbox (err: it did not say which
// process the sandbox's is): how it ended, and the end of its standard
// error, errs, where it gives its own reason (user namespaces refused, a
// mount it could not make).
func noSandbox(err error, st *os.ProcessState, errs *os.File) error {
	_ = errs.SetReadDeadline(time.Now().Add(crashWait))
	var t tail
	_, _ = io.Copy(&t, io.LimitReader(errs, 1<<20))
	last := t.lastLines(3, 300)
	if last == "" {
		return fmt.Errorf("bwrap made no sandbox: it %s, and %w", exitText(st, false), err)
	}
	return fmt.Errorf("bwrap made no sandbox: it %s (its standard error ends: %s)", exitText(st, false), last)
}

// sandboxInfoWait bounds the wait for bwrap's word on its sandbox.
const sandboxInfoWait = time.Minute

// filterFile returns a pipe from which the seccomp filter b can be read,
// whole: its write end is closed.
func filterFile(b []byte) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer w.Close()
	// A filter is a few hundred bytes: the pipe's buffer holds it.
	if _, err := w.Write(b); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// read delivers the program's output line by line. A line longer than
// maxLine is reported as an error and skipped.
func (p *program) read() {
	defer close(p.lines)
	r := bufio.NewReaderSize(heardReader{p.out, &p.heard, &p.pending}, 64<<10)
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(buf)+len(chunk) > maxLine {
				// Too long: skip to the end of the line.
				for errors.Is(err, bufio.ErrBufferFull) {
					_, err = r.ReadSlice('\n')
				}
				if !p.queue(line{err: engine.Faulted(engine.FaultGarbage, fmt.Errorf("a line longer than %d bytes", maxLine))}) {
					return
				}
				buf = buf[:0]
				if err != nil {
					return
				}
				continue
			}
			buf = append(buf, chunk...)
			continue
		case err != nil:
			if len(buf)+len(chunk) > 0 && len(bytes.TrimSpace(append(buf, chunk...))) > 0 {
				p.queue(line{text: append(append([]byte(nil), buf...), chunk...)})
			}
			return
		}
		text := append(append([]byte(nil), buf...), chunk...)
		buf = buf[:0]
		if len(bytes.TrimSpace(text)) == 0 {
			continue // blank lines are allowed
		}
		if !p.queue(line{text: bytes.TrimSpace(text)}) {
			return
		}
	}
}

// write sends msg and a newline by deadline (zero: none), or until ctx
// ends. What an earlier blocked write left goes first. It returns
// errBlocked when the program does not read in time, and the program's
// crash when it is gone.
func (p *program) write(ctx context.Context, msg []byte, deadline time.Time) error {
	p.wake()
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if err := p.in.SetWriteDeadline(deadline); err != nil {
		return p.crashed(err)
	}
	// After the deadline is set: a close that begins now sets its own,
	// which wins (see close).
	if p.closing.Load() {
		return engine.Faulted(engine.FaultAbandoned, errors.New("the program is being stopped"))
	}
	if ctx != nil {
		stop := context.AfterFunc(ctx, func() { _ = p.in.SetWriteDeadline(time.Now()) })
		defer stop()
	}
	if len(p.unsent) > 0 {
		n, err := p.in.Write(p.unsent)
		p.unsent = p.unsent[n:]
		if err != nil {
			return p.writeFailed(err, msg)
		}
	}
	buf := append(append(make([]byte, 0, len(msg)+1), msg...), '\n')
	n, err := p.in.Write(buf)
	if err != nil {
		p.unsent = append(p.unsent, buf[n:]...)
		return p.writeFailed(err, nil)
	}
	return nil
}

// writeFailed says why a write failed; pending is a message not yet begun,
// kept for later when the program is slow to read.
func (p *program) writeFailed(err error, pending []byte) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if pending != nil {
			p.unsent = append(append(p.unsent, pending...), '\n')
		}
		return errBlocked
	}
	return p.crashed(err)
}

// call sends msg and waits for the program's next line (see write and
// next). The program rests after, as after an answer, when msg could not
// be sent: a program that stops reading does not run on between its turns.
func (p *program) call(ctx context.Context, msg []byte, deadline time.Time) ([]byte, error) {
	if err := p.write(ctx, msg, deadline); err != nil {
		p.rest()
		return nil, err
	}
	return p.next(ctx, deadline)
}

// next waits for the program's next line by deadline (zero: none), or
// until ctx ends. The program runs while it waits, and rests after.
func (p *program) next(ctx context.Context, deadline time.Time) ([]byte, error) {
	p.wake()
	defer p.rest()
	var timeout, nudge <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	if p.group != 0 {
		t := time.NewTicker(wakeEvery)
		defer t.Stop()
		nudge = t.C
	}
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return nil, p.crashed(io.EOF)
			}
			p.backlog.take(len(l.text))
			return l.text, l.err
		case <-timeout:
			return nil, &silence{unheard: !p.heard.Load(), partial: p.pending.Load()}
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-nudge:
			p.wakeAgain()
		}
	}
}

// heardReader reads r, sets heard once a byte has come, and keeps in
// pending how many bytes came after the last end of line.
type heardReader struct {
	r       io.Reader
	heard   *atomic.Bool
	pending *atomic.Int64
}

func (h heardReader) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if n > 0 {
		if !h.heard.Load() {
			h.heard.Store(true)
		}
		if i := bytes.LastIndexByte(b[:n], '\n'); i >= 0 {
			h.pending.Store(int64(n - 1 - i))
		} else {
			h.pending.Add(int64(n))
		}
	}
	return n, err
}

// tell sends msg, which asks for no answer: the program runs while it is
// sent, then rests (see rest) until it is asked or told something again.
func (p *program) tell(msg []byte) error {
	defer p.rest()
	return p.write(context.Background(), msg, time.Now().Add(closeWait))
}

// rest stops every process of a sandboxed program (SIGSTOP to its process
// group) until it is asked or told something again (wake): between its
// turns a bot takes no processor time from the seats deciding, whatever
// it starts, since none of its processes can leave the group (see
// sandboxGroup). Decision times are counted on the wall clock, and a bot
// that spun while another seat decided could make it run out of time. A
// moment later, the threads the group's stop left running are stopped one
// by one (stopStragglers). A program that is being stopped no longer
// rests.
func (p *program) rest() {
	if p.group == 0 {
		return
	}
	p.rmu.Lock()
	defer p.rmu.Unlock()
	if !p.rested && !p.closing.Load() && !p.ended() {
		p.rested = syscall.Kill(-p.group, syscall.SIGSTOP) == nil
		if p.rested {
			p.rests++
			go p.stopStragglers(p.rests)
		}
	}
}

// stopStragglers stops, thread by thread, what the stop of a program's
// group (rest number n) left running. The kernel hands a process's stop
// to one of its threads, which stops them all; a thread that cannot take
// it then (its process's main thread waiting for a child made with vfork,
// until the child runs a program or exits: the child, stopped first, never
// does) leaves the others running. Each thread of the program not stopped
// is sent a stop of its own (tgkill), once, and the threads are looked
// over again while new ones are found; it gives up when the program is
// woken. It runs beside the game, a moment after the stop (by then the
// threads that took it have stopped, and are passed over; a program woken
// by then is not looked at), so that the answer that came is not held up.
func (p *program) stopStragglers(n int) {
	time.Sleep(stragglerWait)
	sent := map[int]bool{}
	for range maxStragglerPasses {
		p.rmu.Lock()
		resting := p.rested && p.rests == n
		p.rmu.Unlock()
		if !resting {
			return
		}
		found := false
		for _, th := range treeThreads(p.group) {
			if sent[th.tid] || th.state == 'T' || th.state == 't' || th.state == 'Z' || th.state == 'X' {
				continue
			}
			p.rmu.Lock()
			if !p.rested || p.rests != n || p.ended() {
				p.rmu.Unlock()
				return
			}
			stopThread(th)
			p.rmu.Unlock()
			sent[th.tid], found = true, true
		}
		if !found {
			return
		}
	}
}

// maxStragglerPasses bounds stopStragglers' looks at a program's threads:
// each finds only threads new since the last, which the stopped ones no
// longer make.
const maxStragglerPasses = 100

// stragglerWait is how long after a program's stop stopStragglers looks
// at its threads.
const stragglerWait = 5 * time.Millisecond

// ended reports whether the program has ended, and been waited for: the
// number of its process group is free then, and may be another's (pid
// numbers wrap), which rest, wake and wakeAgain must not signal.
func (p *program) ended() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wakeEvery is how often a program waited for is woken again (see
// wakeAgain).
const wakeEvery = 10 * time.Millisecond

// wakeAgain wakes an awake program once more. A process that was forking
// or starting another program when its group was stopped can stop after
// the group was woken (the kernel hands a new process the stop sent while
// it was being made, and the wake-up too, in the order of their numbers,
// stop last); it would stay stopped, and its program run out of time, but
// for this.
func (p *program) wakeAgain() {
	p.rmu.Lock()
	defer p.rmu.Unlock()
	if !p.rested && !p.ended() {
		_ = syscall.Kill(-p.group, syscall.SIGCONT)
	}
}

// wake lets a resting program run again (SIGCONT).
func (p *program) wake() {
	if p.group == 0 {
		return
	}
	p.rmu.Lock()
	defer p.rmu.Unlock()
	if p.rested {
		if !p.ended() {
			_ = syscall.Kill(-p.group, syscall.SIGCONT)
		}
		p.rested = false
	}
}

// crashed describes a program that is gone, or going: how it ended, when
// it ends within a moment; else that it closed its output or input.
func (p *program) crashed(cause error) error {
	select {
	case <-p.done:
	case <-time.After(crashWait):
		what := "closed its output"
		if !errors.Is(cause, io.EOF) {
			what = "stopped reading its input"
		}
		return engine.Faulted(engine.FaultCrash, gone("the program "+what))
	}
	said := ""
	select { // its last words, when its standard error is drained in time
	case <-p.logged:
	case <-time.After(crashWait):
	}
	if last := p.tail.lastLines(3, 300); last != "" {
		said = " (its standard error ends: " + last + ")"
	}
	return engine.Faulted(engine.FaultCrash, gone("the program "+exitText(p.cmd.ProcessState, p.wrapped)+said))
}

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(b) >= tailSize {
		t.buf = append(t.buf[:0], b[len(b)-tailSize:]...)
		return len(b), nil
	}
	if over := len(t.buf) + len(b) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, b...)
	return len(b), nil
}

// lastLines returns the last n lines that are not blank (nor only the
// markers a traceback puts under a line), joined by " / ", at most max
// bytes of their end. A stack trace that ends the output with its frames
// below the error (node's, Java's: "at f (bot.js:3:9)", each a line) keeps
// its first frame only, and node's version after it ("Node.js v20.11.1")
// is left out, so that the error is among the lines, as a Python
// traceback's is: the error's line, the error and where it was thrown.
func (t *tail) lastLines(n, max int) string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		// Markers under a line (Python's ~~~^^^, node's ^) say nothing
		// here.
		if l = strings.TrimSpace(l); strings.Trim(l, "~^ ") != "" {
			lines = append(lines, l)
		}
	}
	if k := len(lines) - 1; k > 0 && strings.HasPrefix(lines[k], "Node.js v") {
		lines = lines[:k]
	}
	frames := len(lines)
	for frames > 0 && strings.HasPrefix(lines[frames-1], "at ") {
		frames--
	}
	if frames > 0 && frames < len(lines) {
		lines = lines[:frames+1] // the error, and the frame it was thrown in
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := engine.Printable(strings.Join(lines, " / "))
	if len(s) > max {
		s = "…" + strings.ToValidUTF8(s[len(s)-max:], "")
	}
	return s
}

// tee writes to the tail first, whatever the log does with what it gets.
type tee struct {
	t   *tail
	log io.Writer
}

func (w tee) Write(b []byte) (int, error) {
	w.t.Write(b)
	return w.log.Write(b)
}

// gone is the error of a program that is no more: errExited, saying how.
type gone string

func (g gone) Error() string        { return string(g) }
func (g gone) Is(target error) bool { return target == errExited }

// exitText says how a process ended: its exit code, or the signal that
// killed it. Under an init (wrapped), a death by signal N comes as exit
// code 128+N, as shells report it.
func exitText(st *os.ProcessState, wrapped bool) string {
	if st == nil {
		return "has exited"
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	switch {
	case ok && ws.Signaled():
		return "was killed by " + signalText(ws.Signal())
	case wrapped && st.ExitCode() > 128 && st.ExitCode() < 128+65:
		return fmt.Sprintf("was killed by %s (exit code %d)", signalText(syscall.Signal(st.ExitCode()-128)), st.ExitCode())
	}
	return fmt.Sprintf("exited with code %d", st.ExitCode())
}

func signalText(sig syscall.Signal) string {
	name := signalNames[sig]
	if name == "" {
		return "signal " + sig.String()
	}
	return fmt.Sprintf("signal %s (%s)", name, sig)
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGKILL: "SIGKILL", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGILL: "SIGILL", syscall.SIGTERM: "SIGTERM", syscall.SIGXCPU: "SIGXCPU",
	syscall.SIGXFSZ: "SIGXFSZ", syscall.SIGPIPE: "SIGPIPE", syscall.SIGINT: "SIGINT",
}

// close says bye (unless the program has stopped reading), gives the
// program a moment to exit by itself, then kills it and everything it
// started, and removes its directory. It returns within about closeWait
// (and drainWait, for a child that escaped with its standard error),
// whatever the program does, even while another goroutine is writing to
// it.
func (p *program) close() error {
	p.once.Do(func() {
		// Where the kernel does not end them with the program (a sandbox,
		// or no namespace), the processes it started are found now, while
		// they are still linked to it.
		var tree []proc
		if !p.ns {
			tree = descendants(p.cmd.Process.Pid)
		}
		p.closing.Store(true)
		p.wake()                              // to read its bye and exit
		_ = p.in.SetWriteDeadline(time.Now()) // a writer blocked now gives up
		p.wmu.Lock()
		if len(p.unsent) == 0 {
			_ = p.in.SetWriteDeadline(time.Now().Add(closeWait / 2))
			_, _ = p.in.Write(p.bye)
		}
		p.in.Close()
		p.wmu.Unlock()
		select {
		case <-p.done:
		case <-time.After(closeWait):
		}
		p.kill(tree)
		<-p.done
		// What the program wrote last to its standard error may not be
		// logged yet: every writer is gone, and the copy ends once it has
		// taken what is left. A child that escaped could hold the pipes
		// open: the read ends close after a while, whatever it does, and a
		// reader waiting for room goes.
		select {
		case <-p.logged:
		case <-time.After(drainWait):
		}
		p.backlog.close()
		p.out.Close()
		p.errs.Close()
		go func() { // drain, so the reader ends
			for range p.lines {
			}
		}()
		<-p.logged
		p.log.Close()
		os.RemoveAll(p.dir)
	})
	return nil
}

// kill kills the program and every process it started: in a namespace,
// killing its init ends them all; otherwise (the sandbox, or namespaces
// refused) its process group, the processes of tree (found before, while
// they were linked to it), every descendant, and the orphans it left (see
// sweep), waiting until they are gone. It returns once the program is
// reaped, and no longer among bots.
func (p *program) kill(tree []proc) {
	pid := p.cmd.Process.Pid
	if !p.ns {
		tree = append(tree, descendants(pid)...)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if p.ns {
		<-p.done // reaped by its own Wait, not by a sweep
		forgetBot(pid)
		return
	}
	killAll(tree)
	sweep(pid)
	<-p.done
	sweep(pid)
	awaitGone(tree, time.Second)
	forgetBot(pid)
}

// forgetBot drops the program pid, stopped and reaped, from bots.
func forgetBot(pid int) {
	bots.Lock()
	delete(bots.pids, pid)
	bots.Unlock()
}

// execSupported says why programs cannot be players here: never, on Unix.
func execSupported() error { return nil }
