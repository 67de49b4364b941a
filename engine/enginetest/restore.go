// Package enginetest checks, for the tests of any game, that a ruleset keeps
// the parts of the engine's contract that no single test of its own rules
// shows: that a match restored from its snapshot is the match it was
// (engine.Restorer). It plays random matches, legal and illegal moves alike,
// and compares everything the matches show, byte for byte.
package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// Options say how a match is played.
type Options[M, V any] struct {
	// Seed seeds the dice that choose the moves.
	Seed uint64
	// Steps bounds the moves tried, legal or not; 0 means 300.
	Steps int
	// Judge says that the ruleset shows the judge (engine.Judge) a view of
	// its own; the views of the seats are compared in every game.
	Judge bool
	// Move proposes each move: the seat that makes it (or engine.Judge)
	// and the move, legal or not; ok is false when there is none to make.
	// Nil is NextMove, which plays the pending requests only.
	Move func(r *rand.Rand, m engine.Match[M, V]) (seat int, move M, ok bool)
}

func (o *Options[M, V]) steps() int {
	if o.Steps <= 0 {
		return 300
	}
	return o.Steps
}

func (o *Options[M, V]) move(r *rand.Rand, m engine.Match[M, V]) (int, M, bool) {
	if o.Move != nil {
		return o.Move(r, m)
	}
	return NextMove(r, m)
}

// NextMove is a random move of one of m's pending requests: one of its
// choices, or its default when it has none. One time in eight the move is
// made by the seat after the one asked, which the rules should mostly
// refuse. ok is false when nothing is pending.
func NextMove[M, V any](r *rand.Rand, m engine.Match[M, V]) (seat int, move M, ok bool) {
	reqs := m.Pending()
	if len(reqs) == 0 {
		return 0, move, false
	}
	q := reqs[r.IntN(len(reqs))]
	move = q.Default
	if len(q.Choices) > 0 {
		move = q.Choices[r.IntN(len(q.Choices))]
	}
	seat = q.Seat
	if r.IntN(8) == 0 {
		seat++
	}
	return seat, move, true
}

// CheckRestore plays a random match of rules from setup and checks, at
// every step, that the match restored from its snapshot is the same match:
// its snapshot, requests (ids included), views (of every seat, and of the
// judge when o.Judge), public view, chronicle, measures, whether it is over
// and its result are the same bytes. Each restored match is then played on
// with the original, with the same moves, and compared again after every
// move (refusals included): the one restored at the step before for one
// move, those restored at steps 0, 1, 4, 16, 64, ... to the end. rules must be
// an engine.Restorer.
//
// It also checks that a move the rules refuse changes nothing the match
// shows (engine.Match's Apply), and that Restore refuses a snapshot cut
// short, no snapshot at all, and the snapshot under a setup with another
// number of seats.
func CheckRestore[M, V any](t testing.TB, rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V]) {
	t.Helper()
	checkRestore(t, rules, setup, o)
}

// reporter is the part of testing.TB the checks use.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

func checkRestore[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V]) {
	t.Helper()
	rs := restorer(t, rules)
	m, err := rules.New(setup)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5245_5354))
	type copy struct {
		at int // the step it was restored at
		m  engine.Match[M, V]
	}
	var kept []copy // restored at steps 0, 1, 4, 16, 64, ...: played to the end
	var last *copy  // restored at the step before: played one move
	for step := 0; ; step++ {
		snap := snapshot(t, m)
		want := faceOf(m, setup.Seats(), o.Judge)
		fresh := restore(t, rs, setup, snap, step)
		if step == 0 {
			refusals(t, rs, rules.Info(), setup, snap)
		}
		for _, c := range append(kept, copy{step, fresh}) {
			if what, got, exp := want.differs(faceOf(c.m, setup.Seats(), o.Judge)); what != "" {
				t.Fatalf("step %d: the match restored at step %d differs in %s:\n got %.600s\nwant %.600s", step, c.at, what, got, exp)
			}
		}
		if step&(step-1) == 0 && bits.TrailingZeros(uint(step))%2 == 0 {
			kept = append(kept, copy{step, fresh})
		} else {
			last = &copy{step, fresh}
		}
		if step == o.steps() {
			return
		}
		seat, mv, ok := o.move(r, m)
		if !ok {
			return
		}
		errWant := m.Apply(seat, mv)
		if errWant != nil {
			if what, got, exp := faceOf(m, setup.Seats(), o.Judge).differs(want); what != "" {
				t.Fatalf("step %d: seat %d's move %s was refused (%v), but it changed %s:\n got %.600s\nwant %.600s", step, seat, text(mv), errWant, what, got, exp)
			}
		}
		others := kept
		if last != nil {
			others = append(others, *last)
		}
		for _, c := range others {
			if errGot := c.m.Apply(seat, mv); errText(errGot) != errText(errWant) {
				t.Fatalf("step %d: seat %d's move %s: the original says %q, the match restored at step %d says %q",
					step, seat, text(mv), errText(errWant), c.at, errText(errGot))
			}
		}
		if last != nil {
			if what, got, exp := faceOf(m, setup.Seats(), o.Judge).differs(faceOf(last.m, setup.Seats(), o.Judge)); what != "" {
				t.Fatalf("step %d: one move after it was restored, the match restored at step %d differs in %s:\n got %.600s\nwant %.600s", step+1, last.at, what, got, exp)
			}
			last = nil
		}
	}
}

// restorer returns rules as an engine.Restorer.
func restorer[M, V any](t reporter, rules engine.Ruleset[M, V]) engine.Restorer[M, V] {
	t.Helper()
	rs, ok := rules.(engine.Restorer[M, V])
	if !ok {
		t.Fatalf("%T is not an engine.Restorer", rules)
	}
	return rs
}

// snapshot returns m's snapshot.
func snapshot[M, V any](t reporter, m engine.Match[M, V]) []byte {
	t.Helper()
	j, ok := m.(json.Marshaler)
	if !ok {
		t.Fatalf("%T has no snapshot (json.Marshaler)", m)
	}
	b, err := j.MarshalJSON()
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return b
}

func restore[M, V any](t reporter, rs engine.Restorer[M, V], setup engine.Setup, snap []byte, step int) engine.Match[M, V] {
	t.Helper()
	m, err := rs.Restore(setup, snap)
	if err != nil {
		t.Fatalf("step %d: Restore: %v\nsnapshot: %.2000s", step, err, snap)
	}
	return m
}

// refusals checks that Restore refuses what is no snapshot of the match.
func refusals[M, V any](t reporter, rs engine.Restorer[M, V], info engine.Info, setup engine.Setup, snap []byte) {
	t.Helper()
	bad := map[string][]byte{"nothing": nil, "null": []byte("null"), "a list": []byte("[]"), "a cut snapshot": snap[:len(snap)/2]}
	for what, data := range bad {
		if _, err := rs.Restore(setup, data); err == nil || err.Error() == "" {
			t.Errorf("Restore of %s: no error", what)
		}
	}
	other := setup
	switch n := setup.Seats(); {
	case n+1 <= info.MaxSeats:
		other.Players = append(append([]string(nil), setup.Players...), "extra")
	case n-1 >= info.MinSeats && n > 0:
		other.Players = setup.Players[:n-1]
	default:
		return
	}
	if _, err := rs.Restore(other, snap); err == nil {
		t.Errorf("Restore of a snapshot of %d seats under a setup of %d: no error", setup.Seats(), other.Seats())
	}
}

// face is everything a match shows, as bytes, in a fixed order.
type face []part

type part struct {
	what string
	b    []byte
}

// faceOf returns what m shows: its snapshot, requests, views, public view,
// chronicle, measures, and whether it is over with its result.
func faceOf[M, V any](m engine.Match[M, V], seats int, judge bool) face {
	f := face{
		{"the snapshot", marshal(m)},
		{"the requests", marshal(m.Pending())},
		{"over", []byte(fmt.Sprint(m.Over()))},
		{"the result", marshal(m.Result())},
	}
	view := func(seat int) {
		v := m.View(seat)
		f = append(f, part{fmt.Sprintf("the view of seat %d", seat), marshal(v)})
		if s, ok := any(v).(fmt.Stringer); ok {
			f = append(f, part{fmt.Sprintf("the view of seat %d as text", seat), []byte(s.String())})
		}
	}
	for s := range seats {
		view(s)
	}
	if judge {
		view(engine.Judge)
	}
	if p, ok := m.(engine.Publisher); ok {
		v := p.Public()
		f = append(f, part{"the public view", marshal(v)})
		if s, ok := v.(fmt.Stringer); ok {
			f = append(f, part{"the public view as text", []byte(s.String())})
		}
	}
	if c, ok := m.(engine.Chronicler); ok {
		f = append(f, part{"the chronicle", marshal(c.Chronicle())})
	}
	if ms, ok := m.(engine.Measurer); ok {
		var b []byte
		b = fmt.Appendf(b, "clock %d;", ms.Clock())
		for k, x := range ms.Measures() {
			if !x.PerSeat {
				b = fmt.Appendf(b, " %s %v", x.Name, ms.Measure(k, 0))
				continue
			}
			for s := range seats {
				b = fmt.Appendf(b, " %s[%d] %v", x.Name, s, ms.Measure(k, s))
			}
		}
		f = append(f, part{"the measures", b})
	}
	return f
}

// differs returns the first part in which g differs from f: its name, and
// g's bytes and f's.
func (f face) differs(g face) (what string, got, want []byte) {
	if len(f) != len(g) {
		return "the parts it shows", fmt.Appendf(nil, "%d parts", len(g)), fmt.Appendf(nil, "%d parts", len(f))
	}
	for i := range f {
		if f[i].what != g[i].what || !bytes.Equal(f[i].b, g[i].b) {
			return f[i].what, g[i].b, f[i].b
		}
	}
	return "", nil, nil
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("error: " + err.Error())
	}
	return b
}

func text(v any) string { return string(marshal(v)) }

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Snapshots plays a random match of rules from setup, as CheckRestore
// does, and returns its snapshots at up to n steps spread over the match:
// the seeds of a fuzz test of Restore.
func Snapshots[M, V any](rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V], n int) ([][]byte, error) {
	m, err := rules.New(setup)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5245_5354))
	var all [][]byte
	for step := 0; ; step++ {
		snap, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		all = append(all, snap)
		seat, mv, ok := o.move(r, m)
		if step == o.steps() || !ok {
			break
		}
		_ = m.Apply(seat, mv) // a refused move is a step too
	}
	if len(all) <= n {
		return all, nil
	}
	out := make([][]byte, n)
	for i := range out {
		out[i] = all[i*(len(all)-1)/max(n-1, 1)]
	}
	return out, nil
}

// CheckDamaged is the body of a fuzz test of Restore: data, a snapshot
// perhaps damaged, must either be refused with an error that says what is
// wrong, or restore a match whose own snapshot restores to the same
// snapshot and that plays on (o.Steps moves, 50 if 0) without panicking.
func CheckDamaged[M, V any](t testing.TB, rules engine.Ruleset[M, V], setup engine.Setup, data []byte, o Options[M, V]) {
	t.Helper()
	checkDamaged(t, rules, setup, data, o)
}

func checkDamaged[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, data []byte, o Options[M, V]) {
	t.Helper()
	rs := restorer(t, rules)
	m, err := rs.Restore(setup, data)
	if err != nil {
		if err.Error() == "" {
			t.Fatalf("Restore refused the snapshot with an empty error")
		}
		return
	}
	snap := snapshot(t, m)
	again, err := rs.Restore(setup, snap)
	if err != nil {
		t.Fatalf("Restore accepted a snapshot, but refuses the snapshot of what it restored: %v\nsnapshot: %.2000s", err, snap)
	}
	if b := snapshot(t, again); !bytes.Equal(b, snap) {
		t.Fatalf("the snapshot of a restored match restores to another:\n got %.1000s\nwant %.1000s", b, snap)
	}
	faceOf(m, setup.Seats(), o.Judge)
	steps := o.Steps
	if steps <= 0 {
		steps = 50
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5245_5354))
	for range steps {
		seat, mv, ok := o.move(r, m)
		if !ok {
			break
		}
		_ = m.Apply(seat, mv)
		faceOf(m, setup.Seats(), o.Judge)
	}
}
