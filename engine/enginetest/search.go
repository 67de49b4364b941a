package enginetest

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// CheckSearch plays a random match of rules from setup, as CheckRestore
// does, and checks at every step what a search AI relies on (the hooks of
// engine/search.go), for each hook the match or the rules offer:
//
//   - Cloner: a clone shows what the match shows, byte for byte; the clones
//     made at steps 0, 1, 4, 16, 64, ... are played on with the match, with
//     the same moves, and keep showing the same (refusals included); a move
//     applied to a clone changes nothing the match shows.
//   - Generator: for every pending request without a list of choices, the
//     moves it generates are not none, and each is legal (applied to a
//     clone, or to a match restored from the snapshot when the match is no
//     Cloner).
//   - Sampler: for every pending request, the match sampled from its seat's
//     view shows that seat the same view, byte for byte, owes a request of
//     the same kind and choices, and plays on to its end (or o.Steps moves)
//     without a panic; samples drawn with different dice may differ only in
//     what the view hides.
//
// A ruleset that offers none of the hooks fails the check.
func CheckSearch[M, V any](t testing.TB, rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V]) {
	t.Helper()
	checkSearch(t, rules, setup, o)
}

func checkSearch[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V]) {
	t.Helper()
	m, err := rules.New(setup)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	_, cloner := m.(engine.Cloner[M, V])
	_, generator := m.(engine.Generator[M])
	sampler, _ := rules.(engine.Sampler[M, V])
	if !cloner && !generator && sampler == nil {
		t.Fatalf("%T offers none of engine.Cloner, engine.Generator, engine.Sampler", rules)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5345_4152))
	dice := rand.NewPCG(o.Seed, 0x4449_4345)
	type copy struct {
		at int
		m  engine.Match[M, V]
	}
	var kept []copy
	for step := 0; ; step++ {
		want := faceOf(m, setup.Seats(), o.Judge)
		if cloner {
			c := m.(engine.Cloner[M, V]).Clone()
			if what, got, exp := want.differs(faceOf(c, setup.Seats(), o.Judge)); what != "" {
				t.Fatalf("step %d: the clone differs in %s:\n got %.600s\nwant %.600s", step, what, got, exp)
			}
			if step&(step-1) == 0 && bits.TrailingZeros(uint(step))%2 == 0 {
				kept = append(kept, copy{step, c})
			}
			d := m.(engine.Cloner[M, V]).Clone()
			for range 4 {
				seat, mv, ok := NextMove(r, d)
				if !ok {
					break
				}
				_ = d.Apply(seat, mv)
			}
			if what, got, exp := want.differs(faceOf(m, setup.Seats(), o.Judge)); what != "" {
				t.Fatalf("step %d: moves applied to a clone changed %s of the match:\n got %.600s\nwant %.600s", step, what, got, exp)
			}
			for _, k := range kept {
				if what, got, exp := want.differs(faceOf(k.m, setup.Seats(), o.Judge)); what != "" {
					t.Fatalf("step %d: the clone made at step %d differs in %s:\n got %.600s\nwant %.600s", step, k.at, what, got, exp)
				}
			}
		}
		for _, req := range m.Pending() {
			if generator && req.Choices == nil {
				checkGenerated(t, rules, setup, m, req, dice, step)
			}
			if sampler != nil {
				checkSample(t, sampler, setup, m, req, dice, step, o.steps())
			}
		}
		if what, got, exp := want.differs(faceOf(m, setup.Seats(), o.Judge)); what != "" {
			t.Fatalf("step %d: checking the hooks changed %s:\n got %.600s\nwant %.600s", step, what, got, exp)
		}
		if step == o.steps() {
			return
		}
		seat, mv, ok := o.move(r, m)
		if !ok {
			return
		}
		errWant := m.Apply(seat, mv)
		for _, k := range kept {
			if errGot := k.m.Apply(seat, mv); errText(errGot) != errText(errWant) {
				t.Fatalf("step %d: seat %d's move %s: the match says %q, the clone made at step %d says %q",
					step, seat, text(mv), errText(errWant), k.at, errText(errGot))
			}
		}
	}
}

// copyOf returns a match that continues as m does: its clone, or the
// match restored from its snapshot.
func copyOf[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, m engine.Match[M, V]) engine.Match[M, V] {
	t.Helper()
	if c, ok := m.(engine.Cloner[M, V]); ok {
		return c.Clone()
	}
	rs, ok := rules.(engine.Restorer[M, V])
	if !ok {
		t.Fatalf("%T is neither an engine.Cloner nor its rules an engine.Restorer: its generated moves cannot be tried", m)
	}
	c, err := rs.Restore(setup, snapshot(t, m))
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	return c
}

func checkGenerated[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, m engine.Match[M, V], req engine.Request[M], dice *rand.PCG, step int) {
	t.Helper()
	moves := m.(engine.Generator[M]).Moves(&req, dice, nil)
	if len(moves) == 0 {
		t.Fatalf("step %d: no moves generated for seat %d's %s", step, req.Seat, req.Kind)
	}
	for _, mv := range moves {
		c := copyOf(t, rules, setup, m)
		if err := c.Apply(req.Seat, mv); err != nil {
			t.Fatalf("step %d: seat %d's generated %s %s is refused: %v", step, req.Seat, req.Kind, text(mv), err)
		}
	}
}

func checkSample[M, V any](t reporter, sampler engine.Sampler[M, V], setup engine.Setup, m engine.Match[M, V], req engine.Request[M], dice *rand.PCG, step, steps int) {
	t.Helper()
	view := marshal(m.View(req.Seat))
	blind := engine.Setup{Players: setup.Players, Options: setup.Options, Seed: dice.Uint64()}
	s, err := sampler.Sample(blind, req.Seat, m.View(req.Seat), dice)
	if err != nil {
		t.Fatalf("step %d: Sample for seat %d: %v", step, req.Seat, err)
	}
	if got := marshal(s.View(req.Seat)); string(got) != string(view) {
		t.Fatalf("step %d: the match sampled for seat %d shows it another view:\n got %.600s\nwant %.600s", step, req.Seat, got, view)
	}
	owed := false
	for _, q := range s.Pending() {
		if q.Seat == req.Seat && q.Kind == req.Kind && string(marshal(q.Choices)) == string(marshal(req.Choices)) {
			owed = true
		}
	}
	if !owed {
		t.Fatalf("step %d: the match sampled for seat %d owes no %s with choices %s; it owes %s", step, req.Seat, req.Kind, text(req.Choices), text(s.Pending()))
	}
	if step%16 != 0 {
		return
	}
	r := rand.New(rand.NewPCG(dice.Uint64(), 0))
	for i := 0; i < steps && !s.Over(); i++ {
		seat, mv, ok := NextMove(r, s)
		if !ok {
			break
		}
		if err := catch(func() { _ = s.Apply(seat, mv) }); err != nil {
			t.Fatalf("step %d: the match sampled for seat %d, played on %d moves: %v", step, req.Seat, i, err)
		}
	}
}

// catch runs f and returns its panic as an error.
func catch(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	f()
	return nil
}
