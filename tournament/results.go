package tournament

import (
	"bufio"
	"bytes"
	"container/heap"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Results file format identifiers, written in every results file's first
// line. Version 2 ends every game's line with its digest.
const (
	ResultsFormat  = "arbiter-tournament"
	ResultsVersion = 2
)

// Header is a results file's first line: the tournament, and the shard of
// it whose games follow, one GameResult per line in schedule order.
//
// Each game's line ends with a digest, "digest":"<hex>": the SHA-256 of the
// digest before it (of the line above; the first game's, of the header
// line's bytes) followed by the line's own bytes without the digest (the
// GameResult's JSON). An edited score, rank, winner, fault, status or seat,
// and a line removed, added or moved, breaks the chain at that line. The
// digest is no signature: whoever recomputes the chain can still forge a
// file, except in what the schedule determines (each game's seed, its seats
// in order and its shard), which the reader deals again from the header.
type Header struct {
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	ID       string    `json:"id"`
	Schedule *Schedule `json:"schedule"`
	// Games is the number of games in the whole schedule.
	Games int    `json:"games"`
	Shard string `json:"shard"`
	// Conditions are how the games were played beyond their schedule;
	// files of older versions have none, nor files of runs where no
	// program played (see the CLI).
	Conditions Conditions `json:"conditions,omitempty"`

	shard Shard
}

// Conditions are how a run plays its games beyond their schedule: the time
// each decision has and what programs may do, by the flag that sets each
// (deadline, reply-deadline, bank, startup, on-timeout, strikes, grace,
// bot-limits, sandbox) and its value as the run took it. Games played under
// other conditions are other games: a run that goes on with a results
// file, and a merge of shards, keep to one set of them. What a flag hands
// the programs themselves (--bot-env, which may hold secrets) is not among
// them.
type Conditions map[string]string

// Differences says, flag by flag, how c differs from other ("--deadline
// 1s, not 200ms"), in the order of the flags' names; a flag that one of
// them lacks is taken as equal.
func (c Conditions) Differences(other Conditions) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if v, ok := other[k]; ok && v != c[k] {
			out = append(out, fmt.Sprintf("--%s %s, not %s", k, c[k], v))
		}
	}
	return out
}

// Writer writes a results file.
type Writer struct {
	w     *bufio.Writer
	chain chain
	hex   [2 * sha256.Size]byte
}

// NewWriter starts a results file of a schedule's shard on w: it writes the
// header line.
func NewWriter(w io.Writer, s *Schedule, shard Shard, c Conditions) (*Writer, error) {
	h := Header{Format: ResultsFormat, Version: ResultsVersion, ID: s.ID(), Schedule: s, Games: s.Len(), Shard: shard.String(), Conditions: c}
	rw := &Writer{w: bufio.NewWriter(w)}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	rw.chain.start(b)
	rw.w.Write(b)
	if err := rw.w.WriteByte('\n'); err != nil {
		return nil, err
	}
	return rw, nil
}

// Write adds a game's result, with its digest.
func (w *Writer) Write(r GameResult) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	body := b[:len(b)-1] // all but the closing brace
	w.chain.digest(body)
	w.chain.last = w.chain.next
	hex.Encode(w.hex[:], w.chain.next[:])
	w.w.Write(body)
	w.w.WriteString(digestKey)
	w.w.Write(w.hex[:])
	w.w.WriteString(`"}`)
	return w.w.WriteByte('\n')
}

// digestKey comes before the digest that ends every game's line.
const digestKey = `,"digest":"`

// chain is the digest of a results file up to a line, and of the line
// after it.
type chain struct {
	last, next [sha256.Size]byte
	h          hash.Hash
}

// start begins the chain with the header line.
func (c *chain) start(header []byte) {
	c.last = sha256.Sum256(header)
	c.h = sha256.New()
}

// digest sets c.next to the digest of the line after c.last whose JSON is
// body and a closing brace.
func (c *chain) digest(body []byte) {
	c.h.Reset()
	c.h.Write(c.last[:])
	c.h.Write(body)
	c.h.Write(closingBrace)
	c.h.Sum(c.next[:0])
}

var closingBrace = []byte{'}'}

// splitDigest cuts a game's line into its body (the JSON without its
// closing brace) and the digest's hex; ok is false when the line does not
// end with a digest.
func splitDigest(line []byte) (body, digest []byte, ok bool) {
	const tail = len(digestKey) + 2*sha256.Size + len(`"}`)
	if len(line) < tail+1 || !bytes.HasSuffix(line, []byte(`"}`)) {
		return nil, nil, false
	}
	at := len(line) - tail
	if string(line[at:at+len(digestKey)]) != digestKey {
		return nil, nil, false
	}
	return line[:at], line[at+len(digestKey) : len(line)-2], true
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Reader reads a results file and checks every line against its header.
type Reader struct {
	// Header is the file's first line.
	Header Header

	name    string
	sc      *bufio.Scanner
	line    int
	last    int // the last game read
	n       int // the games read
	players map[string]bool
	chain   chain
	sched   *Schedule // the schedule, dealt again from the header
	json    []byte    // a game's JSON, reused
	hex     [2 * sha256.Size]byte

	// pos is the bytes scanned so far, and open whether the last line
	// scanned had no newline; kept and keptOpen are the same up to the
	// last line read without error.
	pos, kept      int64
	open, keptOpen bool
}

// maxLine bounds a results line: 20 seats with long names fit well within.
const maxLine = 1 << 20

// NewReader reads the header of a results file; name names the file in
// errors.
func NewReader(r io.Reader, name string) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	rd := &Reader{name: name, sc: sc}
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		advance, token, err := bufio.ScanLines(data, atEOF)
		if advance > 0 {
			rd.pos += int64(advance)
			rd.open = data[advance-1] != '\n'
		}
		return advance, token, err
	})
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, rd.errorf("%v", err)
		}
		return nil, fmt.Errorf("%s: empty; a results file starts with a %s header line", name, ResultsFormat)
	}
	rd.line = 1
	h, err := parseHeader(sc.Bytes())
	if err != nil {
		return nil, rd.errorf("%v", err)
	}
	rd.Header = h
	rd.chain.start(bytes.TrimSpace(sc.Bytes()))
	rd.kept, rd.keptOpen = rd.pos, rd.open
	rd.players = map[string]bool{}
	for _, p := range h.Schedule.Players {
		rd.players[p] = true
	}
	return rd, nil
}

func parseHeader(line []byte) (Header, error) {
	var probe struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(line, &probe); err != nil || probe.Format != ResultsFormat {
		if bytes.Contains(line, []byte(`"`+ResultsFormat+`"`)) {
			return Header{}, fmt.Errorf("the header line is cut short or broken (%v)", engine.DecodeJSON(line, &probe))
		}
		return Header{}, fmt.Errorf("not a tournament results file (its first line should be a header with \"format\":%q)", ResultsFormat)
	}
	if probe.Version == 1 {
		return Header{}, fmt.Errorf("results format version 1, whose lines carry no digest, so an edit would go unseen; this Arbiter reads version %d: play the shard again", ResultsVersion)
	}
	if probe.Version != ResultsVersion {
		return Header{}, fmt.Errorf("results format version %d; this Arbiter reads version %d", probe.Version, ResultsVersion)
	}
	var h Header
	if err := engine.DecodeJSON(line, &h); err != nil {
		return Header{}, fmt.Errorf("header: %w", err)
	}
	s := h.Schedule
	switch {
	case s == nil:
		return Header{}, errors.New("header: no schedule")
	case h.Games < 1 || h.Games > MaxGames:
		return Header{}, fmt.Errorf("header: %d games; a tournament has 1 to %d", h.Games, MaxGames)
	case len(s.Players) < 1:
		return Header{}, errors.New("header: the schedule has no players")
	case h.ID != s.ID():
		return Header{}, fmt.Errorf("header: the id %q does not match its schedule (%s); the file was edited", h.ID, s.ID())
	}
	seen := map[string]bool{}
	for _, p := range s.Players {
		if seen[p] {
			return Header{}, fmt.Errorf("header: player %q is named twice", p)
		}
		seen[p] = true
	}
	shard, err := ParseShard(h.Shard)
	if err != nil {
		return Header{}, fmt.Errorf("header: %w", err)
	}
	h.shard = shard
	return h, nil
}

// Next returns the next game's result, checked, or io.EOF after the last.
func (r *Reader) Next() (GameResult, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return GameResult{}, r.errorf("%v", err)
		}
		return GameResult{}, io.EOF
	}
	r.line++
	line := bytes.TrimSpace(r.sc.Bytes())
	body, digest, sealed := splitDigest(line)
	content := line
	if sealed {
		r.json = append(append(r.json[:0], body...), '}')
		content = r.json
	}
	var g GameResult
	if err := engine.DecodeJSON(content, &g); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
			return GameResult{}, r.errorf("the line is cut short; was its shard stopped while writing? (play that shard again)")
		}
		return GameResult{}, r.errorf("not a game's result: %v", err)
	}
	if err := r.dealt(); err != nil {
		return GameResult{}, err
	}
	if err := r.check(&g); err != nil {
		return GameResult{}, r.errorf("game %d: %v", g.Game, err)
	}
	if !sealed {
		return GameResult{}, r.errorf("game %d: the line does not end with its digest (%s...\"}); the file was edited", g.Game, digestKey)
	}
	r.chain.digest(body)
	hex.Encode(r.hex[:], r.chain.next[:])
	if !bytes.Equal(r.hex[:], digest) {
		return GameResult{}, r.errorf("game %d: the digest does not follow from this line and the ones before it: the line was edited, or a line before it removed, added or moved, or the header changed", g.Game)
	}
	r.chain.last = r.chain.next
	r.last = g.Game
	r.n++
	r.kept, r.keptOpen = r.pos, r.open
	return g, nil
}

// Kept returns how many bytes of the file the header and the games read
// without error take, and whether the last of those lines lacks its
// newline (the file ends there). A run that goes on with the file cuts it
// there: a line cut short by a stopped run is played again.
func (r *Reader) Kept() (size int64, open bool) { return r.kept, r.keptOpen }

// Continue returns a Writer that adds games after the last one read
// without error, on w, which must write at the end of what Kept counts:
// the digests go on from that game's.
func (r *Reader) Continue(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), chain: chain{last: r.chain.last, h: sha256.New()}}
}

// Read returns the number of games read without error so far, and the
// last of them (0 before the first).
func (r *Reader) Read() (games, last int) { return r.n, r.last }

// dealt deals the schedule's games again from the header's parameters,
// once: each game's seats are checked against them.
func (r *Reader) dealt() error {
	if r.sched != nil {
		return nil
	}
	again, err := dealAgain(r.Header.Schedule)
	if err == nil && again.Len() != r.Header.Games {
		err = fmt.Errorf("it says %d games, but its schedule deals %d; the file was edited", r.Header.Games, again.Len())
	}
	if err != nil {
		return fmt.Errorf("%s:1: header: %w", r.name, err)
	}
	r.sched = again
	return nil
}

// dealAgain makes again the games of the schedule whose parameters s holds (a
// results file's header holds no games). The ruleset's seat range is not
// known here; any range that holds the schedule deals the same games.
func dealAgain(s *Schedule) (*Schedule, error) {
	p := Params{
		Info:    engine.Info{Name: s.Ruleset, Variant: s.Variant, MinSeats: 1, MaxSeats: engine.MaxSeats},
		Options: s.Options, Players: s.Players, Seed: s.Seed, Repeat: s.Repeat,
		Uneven: true, // a file played before uneven rounds were refused
	}
	switch s.Kind {
	case Groups:
		p.Rounds, p.Appearances = s.Rounds, s.Appearances
	case Rotation:
		p.Seats = s.Seats
		if p.Seats < 1 {
			return nil, fmt.Errorf("a %s schedule of %d seats; want at least 1", Rotation, p.Seats)
		}
	default:
		return nil, fmt.Errorf("schedule kind %q; want %s or %s", s.Kind, Groups, Rotation)
	}
	again, err := NewSchedule(p)
	if err != nil {
		return nil, fmt.Errorf("its schedule cannot be dealt: %w", err)
	}
	if again.ID() != s.ID() {
		return nil, fmt.Errorf("its %s schedule's parameters do not make one of that kind; the file was edited", s.Kind)
	}
	return again, nil
}

// check tells whether a result could belong to the file's tournament.
func (r *Reader) check(g *GameResult) error {
	h := &r.Header
	n := len(g.Seats)
	switch {
	case g.Game < 1 || g.Game > h.Games:
		return fmt.Errorf("no such game; the tournament has games 1 to %d", h.Games)
	case g.Game <= r.last:
		return fmt.Errorf("comes after game %d; a results file lists its games in order, once each", r.last)
	case !h.shard.Has(g.Game - 1):
		return fmt.Errorf("is not in shard %s", h.Shard)
	case g.Seed != h.Schedule.GameSeed(g.Game-1):
		return fmt.Errorf("seed %d; the schedule gives it seed %d", g.Seed, h.Schedule.GameSeed(g.Game-1))
	case n < 1 || n > engine.MaxSeats:
		return fmt.Errorf("%d seats; a game has 1 to %d", n, engine.MaxSeats)
	case len(g.Scores) != n || len(g.Ranks) != n || len(g.Faults) != n:
		return fmt.Errorf("%d seats but %d scores, %d ranks and %d fault counts; want one each per seat", n, len(g.Scores), len(g.Ranks), len(g.Faults))
	case g.Status != nil && len(g.Status) != n:
		return fmt.Errorf("%d seats but %d statuses; want none or one per seat", n, len(g.Status))
	case len(g.FaultKinds) > n:
		return fmt.Errorf("%d seats but faults of %d seats", n, len(g.FaultKinds))
	case g.Names != nil && len(g.Names) != n:
		return fmt.Errorf("%d seats but %d names; want none or one per seat", n, len(g.Names))
	}
	for i, kinds := range g.FaultKinds {
		total := 0
		for _, f := range kinds {
			if f.Count < 1 || f.Kind == "" {
				return fmt.Errorf("seat %d: %d faults of kind %q; each kind listed counts 1 or more", i, f.Count, f.Kind)
			}
			total += f.Count
		}
		if total != g.Faults[i] {
			return fmt.Errorf("seat %d: %d faults, but its faults by kind add up to %d", i, g.Faults[i], total)
		}
	}
	for i, p := range g.Seats {
		if !r.players[p] {
			return fmt.Errorf("seat %d: %q is not a player of this tournament", i, p)
		}
		if slices.Contains(g.Seats[:i], p) {
			return fmt.Errorf("seat %d: %q sits twice", i, p)
		}
		if g.Ranks[i] < 1 || g.Ranks[i] > n {
			return fmt.Errorf("seat %d: rank %d; ranks run from 1 to %d", i, g.Ranks[i], n)
		}
		if g.Faults[i] < 0 {
			return fmt.Errorf("seat %d: %d faults", i, g.Faults[i])
		}
	}
	for _, w := range g.Winners {
		if w < 0 || w >= n {
			return fmt.Errorf("winner %d; seats run from 0 to %d", w, n-1)
		}
	}
	lineup := r.sched.Game(g.Game - 1)
	if len(lineup) != n {
		return fmt.Errorf("%d seats; the schedule seats %d players in this game", n, len(lineup))
	}
	for i, k := range lineup {
		if want := h.Schedule.Players[k]; g.Seats[i] != want {
			return fmt.Errorf("seat %d: %q; the schedule seats %q there", i, g.Seats[i], want)
		}
	}
	return nil
}

func (r *Reader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, r.line, fmt.Sprintf(format, args...))
}

// Merge reads the results files of one tournament, shards played anywhere
// or a whole run, and returns its table, exactly as a single run makes it:
// every game of the schedule must be in exactly one file.
func Merge(files []*Reader) (*Table, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no results files")
	}
	first := files[0]
	for _, f := range files[1:] {
		if f.Header.ID != first.Header.ID || f.Header.Games != first.Header.Games {
			return nil, fmt.Errorf("merge: %s and %s hold different tournaments:\n  %s: %s\n  %s: %s\nmerge the shards of one tournament: the same game, players, options, schedule and seed",
				first.name, f.name, first.name, Describe(first.Header.Schedule, first.Header.Games), f.name, Describe(f.Header.Schedule, f.Header.Games))
		}
		if d := first.Header.Conditions.Differences(f.Header.Conditions); len(d) > 0 {
			return nil, fmt.Errorf("merge: %s was played with %s as %s was; merge shards played with the same time limits and programs' bounds",
				first.name, strings.Join(d, ", "), f.name)
		}
	}
	// The files hold one schedule: deal its games once for all.
	if err := first.dealt(); err != nil {
		return nil, err
	}
	for _, f := range files[1:] {
		f.sched = first.sched
	}
	t, err := NewTable(first.Header.Schedule, first.Header.Games)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	// Each file lists its games in order; take the least game of all the
	// files' next ones, so the games come out in schedule order.
	h := &heads{}
	for _, f := range files {
		if err := h.pull(f); err != nil {
			return nil, err
		}
	}
	want, from := 1, (*Reader)(nil)
	for h.Len() > 0 {
		top := (*h)[0]
		g := top.next
		switch {
		case g.Game < want:
			return nil, twice(g.Game, from, top.r, files)
		case g.Game > want:
			// A file with its games out of order also leaves a gap here;
			// say so rather than that the game is missing.
			for _, f := range files {
				if err := drain(f); err != nil {
					return nil, err
				}
			}
			return nil, missing(want, g.Game-1, files)
		}
		if err := t.Add(g); err != nil {
			return nil, fmt.Errorf("%s: %w", top.r.name, err)
		}
		want, from = want+1, top.r
		heap.Pop(h)
		if err := h.pull(top.r); err != nil {
			return nil, err
		}
	}
	if want <= first.Header.Games {
		return nil, missing(want, first.Header.Games, files)
	}
	return t, nil
}

// twice says that game is in both files a and b, named in the order of
// files: the same shard's file given twice, or shards of two splits that
// overlap.
func twice(game int, a, b *Reader, files []*Reader) error {
	if slices.Index(files, b) < slices.Index(files, a) {
		a, b = b, a
	}
	if a.Header.Shard == b.Header.Shard {
		what := "the whole tournament"
		if a.Header.shard.count() > 1 {
			what = "shard " + a.Header.Shard
		}
		return fmt.Errorf("merge: game %d is in both %s and %s, each %s; give each shard's file once", game, a.name, b.name, what)
	}
	whose := func(r *Reader) string {
		if r.Header.shard.count() == 1 {
			return r.name + " (the whole tournament)"
		}
		return fmt.Sprintf("%s (shard %s)", r.name, r.Header.Shard)
	}
	return fmt.Errorf("merge: game %d is in both %s and %s: shards of different splits overlap; give the files of one split, --shard 0/N to N-1/N, each once", game, whose(a), whose(b))
}

// drain reads the rest of r, and returns the first error other than io.EOF.
func drain(r *Reader) error {
	for {
		if _, err := r.Next(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// missing says that games lo to hi are in no file, and, when the files are
// shards of one split, which shards are missing.
func missing(lo, hi int, files []*Reader) error {
	games := fmt.Sprintf("game %d is", lo)
	if hi > lo {
		games = fmt.Sprintf("games %d to %d are", lo, hi)
	}
	count := files[0].Header.shard.count()
	have := map[int]bool{}
	for _, f := range files {
		if f.Header.shard.count() != count {
			count = 0
			break
		}
		have[f.Header.shard.Index] = true
	}
	if count > 1 && len(have) < count {
		var absent []string
		for i := range count {
			if !have[i] {
				absent = append(absent, Shard{i, count}.String())
			}
		}
		if len(absent) > 5 {
			absent = append(absent[:5], fmt.Sprintf("and %d more", len(absent)-5))
		}
		return fmt.Errorf("merge: no file holds shard %s; every shard's file is needed", strings.Join(absent, ", "))
	}
	var shards []string
	for _, f := range files {
		shards = append(shards, f.name+" (shard "+f.Header.Shard+")")
	}
	return fmt.Errorf("merge: %s in none of the files: %s; every shard's file is needed, complete (a run stopped by Ctrl-C goes on where it stopped when its command is run again with the same --out, and one stopped by --until-certain shows its standings so)",
		games, strings.Join(shards, ", "))
}

// head is a file's next result.
type head struct {
	r    *Reader
	next GameResult
}

// heads is a heap of the files' next results, least game first.
type heads []head

func (h heads) Len() int           { return len(h) }
func (h heads) Less(i, j int) bool { return h[i].next.Game < h[j].next.Game }
func (h heads) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *heads) Push(x any)        { *h = append(*h, x.(head)) }
func (h *heads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// pull reads r's next result onto the heap.
func (h *heads) pull(r *Reader) error {
	g, err := r.Next()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	heap.Push(h, head{r: r, next: g})
	return nil
}
