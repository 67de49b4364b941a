package player

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Logs keeps the standard error of external programs: one file per game and
// seat in Dir (game-<n>-seat-<s>.log, both from 1), and at most PerSeat bytes for
// each seat over a whole run, every game of a series or tournament
// together, so that a chatty bot cannot fill the disk. What is cut, and a
// log that cannot be written, are noted (Cuts) and never slow the bot: its
// output is drained whatever happens to the file.
type Logs struct {
	// Dir is the directory of the log files; empty means the system's
	// temporary directory.
	Dir string
	// PerSeat bounds what is kept of each seat's output over the run;
	// zero means DefaultLogCap.
	PerSeat int64
	// Temporary says Dir was made for this run alone: Tidy removes it
	// when no program wrote anything to its standard error.
	Temporary bool

	mu    sync.Mutex
	seats []*seatLog
}

// DefaultLogCap is what is kept of each seat's standard error over a run
// unless Logs.PerSeat says otherwise.
const DefaultLogCap = 16 << 20

// CheckDir makes sure Dir can hold logs: it creates it when missing, and
// refuses a path that is a file or cannot be written, so that a run fails
// at once rather than forfeiting every program.
func (l *Logs) CheckDir() error {
	if l == nil || l.Dir == "" {
		return nil
	}
	if fi, err := os.Stat(l.Dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("--bot-logs %s is a file; give a directory for the bots' logs", l.Dir)
	}
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return fmt.Errorf("--bot-logs %s: %w", l.Dir, pathCause(err))
	}
	f, err := os.CreateTemp(l.Dir, ".check-*")
	if err != nil {
		return fmt.Errorf("--bot-logs %s: the directory cannot be written: %w", l.Dir, pathCause(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// pathCause is an os error's cause without the path it repeats.
func pathCause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (l *Logs) dir() string {
	if l == nil {
		return ""
	}
	return l.Dir
}

// seat returns the log budget of one more seat, named name in notes.
func (l *Logs) seat(name string) *seatLog {
	s := &seatLog{logs: l, name: name}
	if l == nil {
		s.left = DefaultLogCap
		return s
	}
	s.left = l.PerSeat
	if s.left <= 0 {
		s.left = DefaultLogCap
	}
	l.mu.Lock()
	l.seats = append(l.seats, s)
	l.mu.Unlock()
	return s
}

// Spoke reports whether any program of the run wrote to its standard
// error (beyond the header each log starts with).
func (l *Logs) Spoke() bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.seats {
		s.mu.Lock()
		spoke := s.spoke
		s.mu.Unlock()
		if spoke {
			return true
		}
	}
	return false
}

// Tidy ends a run's logs: a Temporary directory that no program wrote to
// is removed, with its logs of nothing but headers. It reports whether the
// logs are kept, for the run to say where.
func (l *Logs) Tidy() bool {
	if l == nil || l.Dir == "" {
		return false
	}
	if !l.Temporary || l.Spoke() {
		return true
	}
	return os.RemoveAll(l.Dir) != nil
}

// Cut says what was cut from one seat's logs, or why they were not kept.
type Cut struct {
	// Seat is the player, as its entrant is named.
	Seat string
	// Dropped counts the bytes of output not kept.
	Dropped int64
	// Cap is the budget that was spent.
	Cap int64
	// Failed is why the log could not be written, if it could not.
	Failed string
}

// String says it for people.
func (c Cut) String() string {
	s := fmt.Sprintf("%s: %d bytes of its standard error were not kept", c.Seat, c.Dropped)
	if c.Failed != "" {
		return s + " (the log could not be written: " + c.Failed + ")"
	}
	return s + fmt.Sprintf(" (more than --bot-log-limit %s over the run)", formatBytes(c.Cap))
}

// Cuts lists, in the order the seats were made, the seats whose output was
// not all kept.
func (l *Logs) Cuts() []Cut {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Cut
	for _, s := range l.seats {
		s.mu.Lock()
		if s.dropped > 0 || s.failed != "" {
			cap := l.PerSeat
			if cap <= 0 {
				cap = DefaultLogCap
			}
			out = append(out, Cut{Seat: s.name, Dropped: s.dropped, Cap: cap, Failed: s.failed})
		}
		s.mu.Unlock()
	}
	return out
}

// seatLog is one seat's budget over a run.
type seatLog struct {
	logs *Logs
	name string

	mu      sync.Mutex
	left    int64
	dropped int64
	failed  string
	spoke   bool // the program wrote to its standard error
}

// open opens the log of one game of the seat, truncating what an earlier
// run left under the same name. A log that cannot be opened is noted, and
// the program's output is then drained to nowhere.
func (s *seatLog) open(game, seat int, header string) io.WriteCloser {
	dir := s.logs.dir()
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("game-%d-seat-%d.log", game, seat+1))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	w := &gameLog{seat: s, header: true}
	if err != nil {
		s.fail(err)
	} else {
		w.f = f
	}
	_, _ = io.WriteString(w, header)
	w.header = false
	return w
}

func (s *seatLog) fail(err error) {
	s.mu.Lock()
	if s.failed == "" {
		s.failed = pathCause(err).Error()
	}
	s.mu.Unlock()
}

// gameLog writes one game's log within its seat's budget. Write never
// fails: what does not fit, or cannot be written, is counted and dropped.
type gameLog struct {
	seat   *seatLog
	f      *os.File
	cut    bool
	header bool // the header is being written, not the program's output
}

func (g *gameLog) Write(b []byte) (int, error) {
	s := g.seat
	s.mu.Lock()
	s.spoke = s.spoke || (!g.header && len(b) > 0)
	n := int64(len(b))
	keep := min(n, s.left)
	s.left -= keep
	s.dropped += n - keep
	s.mu.Unlock()
	if g.f == nil {
		return len(b), nil
	}
	if keep > 0 {
		if _, err := g.f.Write(b[:keep]); err != nil {
			s.fail(err)
			g.f.Close()
			g.f = nil
			return len(b), nil
		}
	}
	if keep < n && !g.cut {
		g.cut = true
		fmt.Fprintf(g.f, "\n=== the rest of the bot's output is cut: its logs are over %s in this run\n", formatBytes(s.logs.capOr()))
	}
	return len(b), nil
}

func (l *Logs) capOr() int64 {
	if l == nil || l.PerSeat <= 0 {
		return DefaultLogCap
	}
	return l.PerSeat
}

// Close closes the file.
func (g *gameLog) Close() error {
	if g.f == nil {
		return nil
	}
	err := g.f.Close()
	g.f = nil
	return err
}
