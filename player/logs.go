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
// together, so that a chatty bot cannot fill the disk. Half of the budget
// keeps the beginning of the output, as it comes; the other half its end,
// where a traceback is: a game's log that goes over keeps its last bytes in
// memory and writes them when the game ends, after a line that says how
// many bytes were left out between. What is cut, and a log that cannot be
// written, are noted (Cuts) and never slow the bot: its output is drained
// whatever happens to the file.
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
	budget := l.capOr()
	s.tail = budget / 2
	s.left = budget - s.tail
	if l == nil {
		return s
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

// seatLog is one seat's budget over a run: left for the beginnings of its
// logs, tail for their ends.
type seatLog struct {
	logs *Logs
	name string

	mu      sync.Mutex
	left    int64
	tail    int64
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
// Once the beginning's budget is spent, the game takes what is left of the
// seat's budget for ends, and keeps there the last bytes of its output,
// written by Close.
type gameLog struct {
	seat   *seatLog
	f      *os.File
	header bool // the header is being written, not the program's output

	over     bool   // the beginning's budget is spent: the rest goes to end
	reserved int64  // what the game took of the seat's budget for ends
	end      []byte // the last bytes of the output, a ring once full
	at       int    // where the ring's oldest byte is, once full
	passed   int64  // bytes of output past the beginning, kept or not
}

func (g *gameLog) Write(b []byte) (int, error) {
	s := g.seat
	s.mu.Lock()
	s.spoke = s.spoke || (!g.header && len(b) > 0)
	n := int64(len(b))
	keep := min(n, s.left)
	s.left -= keep
	rest := b[keep:]
	if len(rest) > 0 && !g.over {
		g.over = true
		g.reserved, s.tail = s.tail, 0
	}
	s.mu.Unlock()
	if keep > 0 && g.f != nil {
		if _, err := g.f.Write(b[:keep]); err != nil {
			s.fail(err)
			g.f.Close()
			g.f = nil
		}
	}
	g.passed += int64(len(rest))
	g.keepEnd(rest)
	return len(b), nil
}

// keepEnd keeps b as the last bytes of the output, within the reserve.
func (g *gameLog) keepEnd(b []byte) {
	if g.reserved == 0 || len(b) == 0 {
		return
	}
	size := int(g.reserved)
	if len(b) >= size {
		g.end = append(g.end[:0], b[len(b)-size:]...)
		g.at = 0
		return
	}
	if room := size - len(g.end); room > 0 {
		k := min(room, len(b))
		g.end = append(g.end, b[:k]...)
		b = b[k:]
	}
	for len(b) > 0 { // the ring is full: overwrite its oldest bytes
		k := copy(g.end[g.at:], b)
		b = b[k:]
		g.at = (g.at + k) % size
	}
}

func (l *Logs) capOr() int64 {
	if l == nil || l.PerSeat <= 0 {
		return DefaultLogCap
	}
	return l.PerSeat
}

// Close writes the end of the output kept, after a line that says how many
// bytes were left out before it, gives back to the seat what the game did
// not use of its budget for ends, and closes the file.
func (g *gameLog) Close() error {
	s := g.seat
	kept := int64(len(g.end))
	if g.over {
		s.mu.Lock()
		s.dropped += g.passed - kept
		s.tail += g.reserved - kept
		s.mu.Unlock()
		g.over, g.reserved = false, 0
	}
	if g.f == nil {
		return nil
	}
	if left := g.passed - kept; left > 0 {
		follow := ""
		if kept > 0 {
			follow = fmt.Sprintf("; its last %d bytes follow", kept)
		}
		fmt.Fprintf(g.f, "\n=== %d bytes of the bot's output were left out here: its logs are over --bot-log-limit %s in this run%s ===\n",
			left, formatBytes(s.logs.capOr()), follow)
	}
	if kept > 0 {
		_, err := g.f.Write(g.end[g.at:])
		if err == nil {
			_, err = g.f.Write(g.end[:g.at])
		}
		if err != nil {
			s.fail(err)
		}
	}
	g.end = nil
	err := g.f.Close()
	g.f = nil
	return err
}
