package tournament

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// Duel file format identifiers, written in every duel file's first line.
const (
	DuelFormat  = "arbiter-duel"
	DuelVersion = 1
)

// DuelHeader is a duel file's first line: the duel and its test. Each line
// after it is a pair, in order from pair 1, or the duel's state when a run
// of it ended; each ends with a digest, chained from the header's as in a
// tournament's results file (see Header).
type DuelHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	ID      string `json:"id"`
	Duel    *Duel  `json:"duel"`
	// Test is the duel's SPRT; nil for a duel of a fixed number of games.
	Test *sprt.Test `json:"test,omitempty"`
	// Conditions are how the games were played beyond the duel itself
	// (see Conditions); files of older versions have none, nor those of
	// duels where no program played.
	Conditions Conditions `json:"conditions,omitempty"`
}

// DuelState is where a duel stood when a run of it ended.
type DuelState struct {
	Pairs       int              `json:"pairs"`
	Pentanomial sprt.Pentanomial `json:"pentanomial"`
	Trinomial   sprt.Trinomial   `json:"trinomial"`
	Faults      [2]int           `json:"faults"`
	LLR         float64          `json:"llr,omitempty"`
	// Verdict is the test's decision, H0 or H1, or "" while undecided.
	Verdict string `json:"verdict,omitempty"`
	// Ended says why the run ended: decided, games (it played the games
	// asked) or interrupted.
	Ended string `json:"ended"`
}

// Why a run of a duel ended.
const (
	EndedDecided     = "decided"
	EndedGames       = "games"
	EndedInterrupted = "interrupted"
)

// State is the tally as a state line holds it.
func (t *Tally) State(ended string) DuelState {
	return DuelState{Pairs: t.Pairs(), Pentanomial: t.Pentanomial, Trinomial: t.Trinomial, Faults: t.Faults,
		LLR: t.LLR, Verdict: t.Verdict.String(), Ended: ended}
}

// DuelWriter writes a duel file.
type DuelWriter struct {
	w     *bufio.Writer
	chain chain
	hex   [64]byte
}

// NewDuelWriter starts a duel file on w: it writes the header line.
func NewDuelWriter(w io.Writer, d *Duel, test *sprt.Test, c Conditions) (*DuelWriter, error) {
	h := DuelHeader{Format: DuelFormat, Version: DuelVersion, ID: d.ID(), Duel: d, Test: test, Conditions: c}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	dw := &DuelWriter{w: bufio.NewWriterSize(w, 1<<16)}
	dw.chain.start(b)
	dw.w.Write(b)
	if err := dw.w.WriteByte('\n'); err != nil {
		return nil, err
	}
	return dw, nil
}

// Continue returns a writer that appends to the duel file f read: w must
// write after its last whole line (DuelFile.Size).
func (f *DuelFile) Continue(w io.Writer) *DuelWriter {
	dw := &DuelWriter{w: bufio.NewWriterSize(w, 1<<16), chain: f.chain}
	return dw
}

// Write adds a pair.
func (w *DuelWriter) Write(p *Pair) error { return w.line(p) }

// WriteState adds a state line.
func (w *DuelWriter) WriteState(s DuelState) error {
	return w.line(struct {
		State DuelState `json:"state"`
	}{s})
}

func (w *DuelWriter) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	body := b[:len(b)-1]
	w.chain.digest(body)
	w.chain.last = w.chain.next
	hex.Encode(w.hex[:], w.chain.next[:])
	w.w.Write(body)
	w.w.WriteString(digestKey)
	w.w.Write(w.hex[:])
	w.w.WriteString(`"}`)
	return w.w.WriteByte('\n')
}

// Flush writes what is buffered to the underlying writer.
func (w *DuelWriter) Flush() error { return w.w.Flush() }

// DuelFile is a duel file as read: its header, its pairs added up, and
// where a run that continues it appends.
type DuelFile struct {
	Header DuelHeader
	// Tally holds the pairs, counted in order with the header's test.
	Tally Tally
	// Last is the state line after the last pair, if any.
	Last *DuelState
	// Size is the length of the file's whole lines; Cut says that bytes
	// after them, a line cut short when its run was killed, were left out.
	Size int64
	Cut  bool

	chain chain
	// state, when the last whole line is a state line, is where the
	// file stood before it: its size and the chain's last digest.
	state *stateAt
}

// stateAt is where a duel file stood before its last line, a state line.
type stateAt struct {
	size int64
	last [sha256.Size]byte
}

// DropState leaves out the state line that ends the file, if one does, so
// that a run that goes on writes its pairs where the state line was, and
// the file ends as if the duel had been played in one run: the state of a
// run that stopped was where it stood, not a part of the duel. Last is then
// nil.
func (f *DuelFile) DropState() {
	if f.state == nil {
		return
	}
	f.Size, f.chain.last = f.state.size, f.state.last
	f.Last, f.state = nil, nil
}

// ReadDuel reads and checks a duel file; name names it in errors. Every
// pair is checked against the duel (its seed, its seats), its outcome
// against its ranks, its line against the chain of digests, and no pair
// may follow the test's decision. A last line cut short is left out (see
// DuelFile.Cut).
func ReadDuel(r io.Reader, name string) (*DuelFile, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	f := &DuelFile{}
	rd := duelReader{name: name, f: f}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			long := slices.Clone(line)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxLine {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			if len(long) > maxLine {
				return nil, rd.errorf(rd.line+1, "a line longer than %d bytes; this is not a duel file", maxLine)
			}
			line = long
		}
		if err == io.EOF {
			if len(line) > 0 {
				if rd.line == 0 {
					return nil, fmt.Errorf("%s: its only line is cut short; start the duel again with --force", name)
				}
				f.Cut = true // the run was killed while writing it
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rd.line++
		if err := rd.read(bytes.TrimSpace(line)); err != nil {
			return nil, err
		}
		f.Size += int64(len(line))
	}
	if rd.line == 0 {
		return nil, fmt.Errorf("%s: empty; a duel file starts with a %s header line", name, DuelFormat)
	}
	return f, nil
}

// duelReader reads a duel file's lines.
type duelReader struct {
	name string
	f    *DuelFile
	line int
	json []byte
	hex  [64]byte
}

func (r *duelReader) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, line, fmt.Sprintf(format, args...))
}

// duelLine is any line after a duel file's header.
type duelLine struct {
	Pair    int          `json:"pair"`
	Outcome string       `json:"outcome"`
	Games   []GameResult `json:"games"`
	State   *DuelState   `json:"state"`
}

func (r *duelReader) read(line []byte) error {
	f := r.f
	if r.line == 1 {
		h, err := parseDuelHeader(line)
		if err != nil {
			return r.errorf(1, "%v", err)
		}
		f.Header = h
		f.Tally.Test = h.Test
		f.chain.start(line)
		return nil
	}
	body, digest, sealed := splitDigest(line)
	if !sealed {
		return r.errorf(r.line, "the line does not end with its digest (%s...\"}); the file was edited", digestKey)
	}
	r.json = append(append(r.json[:0], body...), '}')
	var l duelLine
	if err := engine.DecodeJSON(r.json, &l); err != nil {
		return r.errorf(r.line, "not a pair of the duel nor its state: %v", err)
	}
	before := stateAt{size: f.Size, last: f.chain.last}
	f.chain.digest(body)
	hex.Encode(r.hex[:], f.chain.next[:])
	if !bytes.Equal(r.hex[:], digest) {
		return r.errorf(r.line, "the digest does not follow from this line and the ones before it: the line was edited, or a line before it removed, added or moved, or the header changed")
	}
	f.chain.last = f.chain.next
	if l.State != nil {
		if l.Pair != 0 || l.Games != nil || l.Outcome != "" {
			return r.errorf(r.line, "a line is a pair or a state, not both")
		}
		f.state = &before
		return r.state(l.State)
	}
	f.state = nil
	return r.pair(&l)
}

// state checks a state line against the pairs before it.
func (r *duelReader) state(s *DuelState) error {
	t := &r.f.Tally
	want := t.State(s.Ended)
	want.LLR = s.LLR // a number written, not counted: the counts say it
	switch {
	case s.Ended != EndedDecided && s.Ended != EndedGames && s.Ended != EndedInterrupted:
		return r.errorf(r.line, "state: ended %q; want %s, %s or %s", s.Ended, EndedDecided, EndedGames, EndedInterrupted)
	case *s != want:
		return r.errorf(r.line, "state: it does not add up to the %d pairs before it; the file was edited", t.Pairs())
	}
	r.f.Last = s
	return nil
}

// pair checks a pair line and counts it.
func (r *duelReader) pair(l *duelLine) error {
	f := &r.f.Header
	d := f.Duel
	t := &r.f.Tally
	k := t.Pairs()
	switch {
	case l.Pair != k+1:
		return r.errorf(r.line, "pair %d; after %d pairs the next is pair %d (pairs are written in order, once each)", l.Pair, k, k+1)
	case k >= MaxPairs:
		return r.errorf(r.line, "more than %d pairs", MaxPairs)
	case len(l.Games) != 2:
		return r.errorf(r.line, "pair %d: %d games; a pair is two", l.Pair, len(l.Games))
	case t.Verdict != sprt.Continue:
		return r.errorf(r.line, "pair %d comes after the test's decision (%s); the file was edited", l.Pair, t.Verdict)
	}
	names := d.Names()
	for i := range l.Games {
		if err := checkDuelGame(d, names, k, i == 1, &l.Games[i]); err != nil {
			return r.errorf(r.line, "pair %d, game %d: %v", l.Pair, 2*k+i+1, err)
		}
	}
	p := d.NewPair(k, l.Games[0], l.Games[1])
	if p.Outcome != l.Outcome {
		return r.errorf(r.line, "pair %d: outcome %q, but the ranks make it %q; the file was edited", l.Pair, l.Outcome, p.Outcome)
	}
	return t.Add(d, &p)
}

// checkDuelGame tells whether g can be the first or second game of pair k
// of d.
func checkDuelGame(d *Duel, names []string, k int, second bool, g *GameResult) error {
	n := d.Seats()
	want := 2*k + 1
	if second {
		want++
	}
	switch {
	case g.Game != want:
		return fmt.Errorf("numbered %d", g.Game)
	case g.Seed != d.PairSeed(k):
		return fmt.Errorf("seed %d; the duel gives it seed %d", g.Seed, d.PairSeed(k))
	case len(g.Seats) != n || len(g.Scores) != n || len(g.Ranks) != n || len(g.Faults) != n:
		return fmt.Errorf("%d seats, %d scores, %d ranks and %d fault counts; the duel seats %d", len(g.Seats), len(g.Scores), len(g.Ranks), len(g.Faults), n)
	case g.Status != nil && len(g.Status) != n:
		return fmt.Errorf("%d statuses for %d seats", len(g.Status), n)
	case g.Names != nil && len(g.Names) != n:
		return fmt.Errorf("%d names for %d seats", len(g.Names), n)
	}
	for s, e := range d.Lineup(k, second) {
		if g.Seats[s] != names[e] {
			return fmt.Errorf("seat %d: %q; the duel seats %q there", s, g.Seats[s], names[e])
		}
		if g.Ranks[s] < 1 || g.Ranks[s] > n {
			return fmt.Errorf("seat %d: rank %d; ranks run from 1 to %d", s, g.Ranks[s], n)
		}
		if g.Faults[s] < 0 {
			return fmt.Errorf("seat %d: %d faults", s, g.Faults[s])
		}
	}
	for _, w := range g.Winners {
		if w < 0 || w >= n {
			return fmt.Errorf("winner %d; seats run from 0 to %d", w, n-1)
		}
	}
	return nil
}

func parseDuelHeader(line []byte) (DuelHeader, error) {
	var probe struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(line, &probe); err != nil || probe.Format != DuelFormat {
		if bytes.Contains(line, []byte(`"`+DuelFormat+`"`)) {
			return DuelHeader{}, fmt.Errorf("the header line is broken (%v)", engine.DecodeJSON(line, &probe))
		}
		return DuelHeader{}, fmt.Errorf("not a duel file (its first line should be a header with \"format\":%q)", DuelFormat)
	}
	if probe.Version != DuelVersion {
		return DuelHeader{}, fmt.Errorf("duel file format version %d; this Arbiter reads version %d", probe.Version, DuelVersion)
	}
	var h DuelHeader
	if err := engine.DecodeJSON(line, &h); err != nil {
		return DuelHeader{}, fmt.Errorf("header: %w", err)
	}
	switch d := h.Duel; {
	case d == nil:
		return DuelHeader{}, errors.New("header: no duel")
	case d.Seats() > engine.MaxSeats:
		return DuelHeader{}, fmt.Errorf("header: %d seats; a game has at most %d", d.Seats(), engine.MaxSeats)
	case h.ID != d.ID():
		return DuelHeader{}, fmt.Errorf("header: the id %q does not match its duel (%s); the file was edited", h.ID, d.ID())
	}
	if h.Test != nil {
		if err := h.Test.Check(); err != nil {
			return DuelHeader{}, fmt.Errorf("header: test: %w", err)
		}
	}
	return h, nil
}

// Same says whether the file holds duel d under test (nil: no test), and
// if not, why not, in words that name both.
func (f *DuelFile) Same(d *Duel, test *sprt.Test) error {
	h := &f.Header
	if h.Duel.ID() != d.ID() {
		return fmt.Errorf("it holds another duel (%s), not this one (%s); give another --out, or the same game, players, field, options and seed to continue it", h.Duel.Describe(), d.Describe())
	}
	switch {
	case h.Test == nil && test != nil:
		return errors.New("it holds a duel of a fixed number of games, without --sprt; continue it without --sprt, or give another --out")
	case h.Test != nil && test == nil:
		return fmt.Errorf("it holds a duel tested with --sprt %s --elo-model %s; give the same test to continue it, or another --out", h.Test, h.Test.Model)
	case h.Test != nil && *h.Test != *test:
		return fmt.Errorf("it holds a duel tested with --sprt %s --elo-model %s, not --sprt %s --elo-model %s; give the same test to continue it, or another --out",
			h.Test, h.Test.Model, test, test.Model)
	}
	return nil
}
