package player

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// program is a bot running as a process of its own, in its own process
// group, speaking one JSON object per line on its standard input and
// output. Its standard error goes to a log file.
type program struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan line // from the reader; closed when the program's output ends
	log   *os.File
	out   *os.File      // the read end of the program's standard output
	errs  *os.File      // the read end of its standard error
	done  chan struct{} // closed when the process has been waited for
	// logged is closed when the program's standard error is all in the log.
	logged chan struct{}
	once   sync.Once
	wmu    sync.Mutex // one writer at a time
}

// line is one line of a program's output, or what went wrong reading it.
type line struct {
	text []byte
	err  error
}

// maxLog bounds what a program may write to its log, per match.
const maxLog = 16 << 20

func startProgram(command string, ext External, info engine.MatchInfo) (*program, error) {
	if command == "" {
		return nil, errors.New("exec: give the command that runs the bot, e.g. exec:python3 bot.py")
	}
	dir := ext.LogDir
	if dir == "" {
		dir = os.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bot logs: %w", err)
	}
	logPath := filepath.Join(dir, fmt.Sprintf("game-%d-seat-%d.log", info.Setup.Seed, info.Seat+1))
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bot logs: %w", err)
	}
	fmt.Fprintf(log, "=== %s seat %d, seed %d: %s\n", info.Ruleset, info.Seat+1, info.Setup.Seed, command)
	// The shell reads the command as a person typed it, quotes and all, then
	// becomes the program (exec).
	cmd := exec.Command("/bin/sh", "-c", "exec "+command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Our own pipes, so that Wait never waits on them and a program's last
	// words are read to the end.
	outR, outW, err := os.Pipe()
	if err != nil {
		log.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		log.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	outW.Close()
	errW.Close()
	if err != nil {
		log.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("exec %s: %w", command, err)
	}
	p := &program{cmd: cmd, stdin: stdin, lines: make(chan line, 64), log: log, done: make(chan struct{}), out: outR, errs: errR,
		logged: make(chan struct{})}
	go p.read(outR)
	go func() {
		_, _ = io.Copy(&capped{w: log, left: maxLog}, errR)
		close(p.logged)
	}()
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// read delivers the program's output line by line. A line longer than
// maxLine is reported as an error and skipped.
func (p *program) read(out io.Reader) {
	defer close(p.lines)
	r := bufio.NewReaderSize(out, 64<<10)
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
				p.lines <- line{err: fmt.Errorf("a line longer than %d bytes", maxLine)}
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
				p.lines <- line{text: append(append([]byte(nil), buf...), chunk...)}
			}
			return
		}
		text := append(append([]byte(nil), buf...), chunk...)
		buf = buf[:0]
		if len(bytes.TrimSpace(text)) == 0 {
			continue // blank lines are allowed
		}
		p.lines <- line{text: bytes.TrimSpace(text)}
	}
}

func (p *program) write(msg []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		return errExited
	}
	return nil
}

func (p *program) call(msg []byte, deadline time.Time) ([]byte, error) {
	if err := p.write(msg); err != nil {
		return nil, err
	}
	return p.next(deadline)
}

func (p *program) next(deadline time.Time) ([]byte, error) {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case l, ok := <-p.lines:
		if !ok {
			return nil, errExited
		}
		return l.text, l.err
	case <-timeout:
		return nil, errTimeout
	}
}

func (p *program) tell(msg []byte) error { return p.write(msg) }

// close says bye, gives the program a moment to exit by itself, then kills
// its process group (children included) and waits for it.
func (p *program) close() error {
	p.once.Do(func() {
		_ = p.write([]byte(`{"type":"bye"}`))
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(200 * time.Millisecond):
		}
		// Whatever is left of the group: the program, or children it left.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		// A child that left the group could hold the pipes open: the read
		// ends close here, whatever it does.
		p.out.Close()
		p.errs.Close()
		go func() { // drain, so the reader ends
			for range p.lines {
			}
		}()
		<-p.logged
		p.log.Close()
	})
	return nil
}

// capped writes at most left bytes to w, then notes the cut once.
type capped struct {
	w    io.Writer
	left int
	cut  bool
}

func (c *capped) Write(b []byte) (int, error) {
	if c.left <= 0 {
		if !c.cut {
			c.cut = true
			fmt.Fprintf(c.w, "\n=== the rest of the bot's output is cut: more than %d MiB\n", maxLog>>20)
		}
		return len(b), nil
	}
	n := min(len(b), c.left)
	c.left -= n
	if _, err := c.w.Write(b[:n]); err != nil {
		return 0, err
	}
	return len(b), nil
}
