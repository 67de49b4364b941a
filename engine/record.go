package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Record format identifiers, written in every record's header line.
const (
	RecordFormat  = "arbiter-record"
	RecordVersion = 1
)

// Record is a match as a log: a header (ruleset, variant, setup), one step
// per applied move, and an end (the result and a hash of the final state, or
// the reason play stopped). On disk it is JSON Lines, one line for each.
type Record[M any] struct {
	Header Header
	Steps  []Step[M]
	// Notes holds, by step, the judge's word on a move of theirs in a
	// live match: the reason given for a correction, or what made a move
	// that time made (a turn's turn_duration). A step's line carries its
	// note ("note"). Few steps have one, and matches played by the runner
	// none: they are kept beside the steps, which they would lengthen.
	Notes map[int]string
	// End is nil while the match is under way.
	End *End
}

// Header is a record's first line.
type Header struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	Ruleset      string `json:"ruleset"`
	Variant      string `json:"variant,omitempty"`
	RulesVersion string `json:"rules_version"`
	Setup        Setup  `json:"setup"`
}

// Step is one applied move. Fault appears only where one happened, and the
// decision's time only when timings were asked for.
type Step[M any] struct {
	Seat  int    `json:"seat"`
	Move  M      `json:"move"`
	Fault *Fault `json:"fault,omitempty"`
	// Nanos is the decision's wall time in nanoseconds, at least 1: when the
	// runner is asked for timings (Runner.Timings), every decision of every
	// seat has it, the built-in bots' (well under a microsecond) included.
	Nanos int64 `json:"decision_ns,omitempty"`
	// Micros is a decision's time in microseconds, as records written
	// before Nanos kept it (then only decisions of a microsecond or more
	// showed). It is read, never written.
	Micros int64 `json:"decision_us,omitempty"`
}

// FaultKind classifies what a player did wrong.
type FaultKind string

// Fault kinds.
const (
	// FaultTimeout: the player did not answer within its deadline.
	FaultTimeout FaultKind = "timeout"
	// FaultBlocked: the player stopped reading what it was sent, and the
	// request could not be written to it within its deadline.
	FaultBlocked FaultKind = "blocked"
	// FaultCrash: the player's program exited or was killed; the detail
	// gives its exit code or signal.
	FaultCrash FaultKind = "crash"
	// FaultGarbage: the player answered something that is not a move of
	// the game: not JSON, a message of the wrong type, a line too long.
	FaultGarbage FaultKind = "garbage"
	// FaultPanic: an in-process player panicked.
	FaultPanic FaultKind = "panic"
	// FaultError: the player returned an error, or could not be reached.
	FaultError FaultKind = "error"
	// FaultIllegal: the player answered a move the rules refused.
	FaultIllegal FaultKind = "illegal"
	// FaultAbandoned: the seat was abandoned earlier (a stuck call or a
	// failed start) and is no longer asked.
	FaultAbandoned FaultKind = "abandoned"
	// FaultStart: the player failed to start; the seat is abandoned.
	FaultStart FaultKind = "start"
)

// Fault is why a step's move is the request's default rather than the
// player's answer.
type Fault struct {
	Kind   FaultKind `json:"kind"`
	Detail string    `json:"detail,omitempty"`
}

// Printable is s as a terminal shows it and does not obey it: control
// characters (an escape sequence's ESC, a carriage return, a backspace)
// and bytes that are not UTF-8 become "?". A fault's detail quotes what a
// player said, and reports print it.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// End is a record's last line.
type End struct {
	Result *Result `json:"result,omitempty"`
	// Hash is "sha256:" and the hex digest of the final state's snapshot.
	Hash string `json:"hash,omitempty"`
	// Aborted says why play stopped before the match ended ("interrupted").
	Aborted string `json:"aborted,omitempty"`
	// Lines is "sha256:" and the hex digest of the record's lines above the
	// end line (the header and every step, each with its newline), as read:
	// ReadRecord refuses a record whose lines do not match it. WriteTo
	// writes the digest of the lines it writes, whatever Lines holds.
	// Records written before the digest have none.
	Lines string `json:"lines,omitempty"`
}

// ErrEdited marks a record whose lines do not match the digest in its end
// line: a line was changed, added, removed or moved after it was written.
var ErrEdited = errors.New("the record was edited")

// NewRecord starts a record for a match of the ruleset described by info.
func NewRecord[M any](info Info, setup Setup) *Record[M] {
	r := &Record[M]{}
	r.Reset(info, setup)
	return r
}

// Reset empties r for a new match, keeping the memory of its steps.
func (r *Record[M]) Reset(info Info, setup Setup) {
	r.Header = Header{
		Format:       RecordFormat,
		Version:      RecordVersion,
		Ruleset:      info.Name,
		Variant:      info.Variant,
		RulesVersion: info.Version,
		Setup:        setup,
	}
	clear(r.Steps)
	r.Steps = r.Steps[:0]
	r.Notes = nil
	r.End = nil
}

// add appends seat's move, with no fault and no time, to the steps. It
// writes the new step's fields in place when the steps have room, which
// costs a third of an append's copy of a whole step.
func (r *Record[M]) add(seat int, mv M) {
	n := len(r.Steps)
	if n == cap(r.Steps) {
		r.Steps = append(r.Steps, Step[M]{Seat: seat, Move: mv})
		return
	}
	r.Steps = r.Steps[:n+1]
	s := &r.Steps[n]
	s.Seat, s.Move, s.Nanos, s.Micros = seat, mv, 0, 0
	if s.Fault != nil {
		s.Fault = nil
	}
}

// SeatFault is a fault with the step and seat it belongs to.
type SeatFault struct {
	Step int `json:"step"`
	Seat int `json:"seat"`
	Fault
}

// Faults lists the record's faults in order.
func (r *Record[M]) Faults() []SeatFault {
	var fs []SeatFault
	for i, s := range r.Steps {
		if s.Fault != nil {
			fs = append(fs, SeatFault{Step: i, Seat: s.Seat, Fault: *s.Fault})
		}
	}
	return fs
}

// Seal sets the hash of the final state from the match's snapshot; the match
// must implement json.Marshaler. Seal does nothing to a record without an end.
func (r *Record[M]) Seal(match any) error {
	if r.End == nil || r.End.Result == nil {
		return nil
	}
	h, err := StateHash(match)
	if err != nil {
		return err
	}
	r.End.Hash = h
	return nil
}

// StateHash returns "sha256:" and the hex digest of m's JSON snapshot.
func StateHash(m any) (string, error) {
	j, ok := m.(json.Marshaler)
	if !ok {
		return "", fmt.Errorf("engine: %T has no snapshot (json.Marshaler)", m)
	}
	b, err := j.MarshalJSON()
	if err != nil {
		return "", fmt.Errorf("engine: snapshot: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// WriteTo writes r as JSON Lines: the header, one line per step, and the end
// when there is one, with the digest of the lines above it.
func (r *Record[M]) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countingWriter{w: bw, sum: sha256.New()}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.Header); err != nil {
		return cw.n, err
	}
	for i := range r.Steps {
		var step any = &r.Steps[i]
		if note, ok := r.Notes[i]; ok {
			step = notedStep[M]{&r.Steps[i], note}
		}
		if err := enc.Encode(step); err != nil {
			return cw.n, fmt.Errorf("engine: record step %d: %w", i, err)
		}
	}
	if r.End != nil {
		end := *r.End
		end.Lines = linesDigest(cw.sum)
		cw.sum = nil
		if err := enc.Encode(&end); err != nil {
			return cw.n, err
		}
	}
	return cw.n, bw.Flush()
}

// notedStep is a step's line with its note.
type notedStep[M any] struct {
	*Step[M]
	Note string `json:"note"`
}

// countingWriter counts what it writes, and adds it to sum when there is one.
type countingWriter struct {
	w   io.Writer
	n   int64
	sum hash.Hash
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if c.sum != nil {
		c.sum.Write(p[:n])
	}
	return n, err
}

// newline ends every line of a record.
var newline = []byte{'\n'}

// linesDigest is the End.Lines of lines summed into h.
func linesDigest(h hash.Hash) string {
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// maxRecordLine bounds one line of a record file.
const maxRecordLine = 16 << 20

// ReadHeader reads the header line of a record, so that a host can find the
// ruleset before decoding the moves.
func ReadHeader(r io.Reader) (Header, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxRecordLine)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return Header{}, fmt.Errorf("record: %w", err)
		}
		return Header{}, errors.New("record: empty file; want a header line first")
	}
	return parseHeader(sc.Bytes())
}

func parseHeader(line []byte) (Header, error) {
	var h Header
	if err := DecodeJSON(line, &h); err != nil {
		return Header{}, fmt.Errorf("record line 1 (header): %w", err)
	}
	if h.Format != RecordFormat {
		return Header{}, fmt.Errorf("record line 1: format %q; want %q", h.Format, RecordFormat)
	}
	if h.Version != RecordVersion {
		return Header{}, fmt.Errorf("record line 1: version %d; this Arbiter reads version %d", h.Version, RecordVersion)
	}
	if h.Ruleset == "" {
		return Header{}, errors.New("record line 1: no ruleset named")
	}
	return h, nil
}

// recordLine is any line after the header.
type recordLine[M any] struct {
	Seat    *int    `json:"seat"`
	Move    *M      `json:"move"`
	Fault   *Fault  `json:"fault"`
	Note    string  `json:"note"`
	Nanos   int64   `json:"decision_ns"`
	Micros  int64   `json:"decision_us"`
	Result  *Result `json:"result"`
	Hash    string  `json:"hash"`
	Aborted string  `json:"aborted"`
	Lines   string  `json:"lines"`
}

// ReadRecord reads a JSON Lines record. Every line must parse; a line after
// the end line is an error; a record without an end line is a match that was
// cut off (End is nil). When the end line has the digest of the lines above
// it, they must match it: otherwise the error wraps ErrEdited.
func ReadRecord[M any](r io.Reader) (*Record[M], error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxRecordLine)
	rec := &Record[M]{}
	sum := sha256.New()
	n, blank := 0, 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			h, err := parseHeader(line)
			if err != nil {
				return nil, err
			}
			rec.Header = h
			sum.Write(line)
			sum.Write(newline)
			continue
		}
		if len(line) == 0 {
			if blank == 0 {
				blank = n
			}
			continue
		}
		if blank != 0 {
			// Lines keep their numbers: step i is on line i+2.
			return nil, fmt.Errorf("record line %d: a blank line inside the record; its lines follow one another", blank)
		}
		if rec.End != nil {
			return nil, fmt.Errorf("record line %d: text after the end line", n)
		}
		var l recordLine[M]
		if err := DecodeJSON(line, &l); err != nil {
			return nil, fmt.Errorf("record line %d: %w", n, err)
		}
		switch {
		case l.Result != nil || l.Aborted != "":
			if l.Seat != nil || l.Move != nil || l.Note != "" {
				return nil, fmt.Errorf("record line %d: an end line carries no seat or move", n)
			}
			if l.Lines != "" && l.Lines != linesDigest(sum) {
				return nil, fmt.Errorf("record line %d: %w: lines 1 to %d do not match the digest of them in this end line (a name, move, fault or timing was changed, or a line added, removed or moved)", n, ErrEdited, n-1)
			}
			rec.End = &End{Result: l.Result, Hash: l.Hash, Aborted: l.Aborted, Lines: l.Lines}
		case l.Seat != nil && l.Move != nil:
			rec.Steps = append(rec.Steps, Step[M]{Seat: *l.Seat, Move: *l.Move, Fault: l.Fault, Nanos: l.Nanos, Micros: l.Micros})
			if l.Note != "" {
				if rec.Notes == nil {
					rec.Notes = map[int]string{}
				}
				rec.Notes[len(rec.Steps)-1] = l.Note
			}
			sum.Write(line)
			sum.Write(newline)
		default:
			return nil, fmt.Errorf("record line %d: want a step {seat, move} or an end {result, hash} / {aborted}", n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("record line %d: %w", n+1, err)
	}
	if n == 0 {
		return nil, errors.New("record: empty file; want a header line first")
	}
	return rec, nil
}
