package reaj

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// TestSearchHooks: a clone plays on as the match does, and a match sampled
// from a society's view shows it that view and asks it the same.
func TestSearchHooks(t *testing.T) {
	for i, setup := range restoreSetups {
		for seed := range uint64(3) {
			setup.Seed = 100*uint64(i) + seed
			t.Run(fmt.Sprintf("%d-seats/seed-%d", setup.Seats(), setup.Seed), func(t *testing.T) {
				enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Value, View]{Seed: seed, Steps: 400})
			})
		}
	}
}

// TestSampleHidesTheOthersChoices: what the others chose this turn makes no
// difference to a sample.
func TestSampleHidesTheOthersChoices(t *testing.T) {
	setup := engine.Setup{Seed: 3, Players: []string{"a", "b", "c"}}
	a, _ := Game{}.NewMatch(setup)
	b, _ := Game{}.NewMatch(setup)
	_ = a.Apply(1, Conquer)
	_ = b.Apply(1, Consent)
	sa, _ := Game{}.Sample(setup, 0, a.View(0), rand.NewPCG(1, 2))
	sb, _ := Game{}.Sample(setup, 0, b.View(0), rand.NewPCG(1, 2))
	ja, _ := sa.(*Match).MarshalJSON()
	jb, _ := sb.(*Match).MarshalJSON()
	if string(ja) != string(jb) {
		t.Fatalf("samples differ with the others' hidden choices:\n%s\n%s", ja, jb)
	}
}

func BenchmarkClone(b *testing.B) {
	m, _ := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b", "c", "d", "e", "f"}})
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Clone()
	}
}

func BenchmarkSample(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: []string{"a", "b", "c", "d", "e", "f"}}
	m, _ := Game{}.NewMatch(setup)
	rng := rand.NewPCG(1, 2)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Game{}.Sample(setup, 0, m.View(0), rng)
	}
}

// TestNoStrategyLeadsAdaptByMoreThanOne: head to head, no strategy beats
// adapt by more than one point, and the steward's lead is that one point.
// Adapt chosen with L turns left (this one included) adds L: its value
// rises and every upkeep from now pays it. Anything else adds a one-off of
// at most the number of other societies (conquer, consent, exchange: 1
// here), or 3 less the upkeep of L turns (expand, develop). Only on the
// last turn does something pay more than adapt: expand or develop, 3 − 1.
// The test plays every ending of the last five turns (6⁵ of them) after
// adapting until then, and every game that leaves adapt for one turn
// earlier: none leads by more than one.
func TestNoStrategyLeadsAdaptByMoreThanOne(t *testing.T) {
	setup := engine.Setup{Seed: 1, Players: []string{"me", "adapt"}}
	base, _ := Game{}.NewMatch(setup)
	lead := func(m *Match) int64 {
		r := m.Result()
		return r.Scores[0] - r.Scores[1]
	}
	play := func(m *Match, me Value) {
		if err := m.Apply(0, me); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(1, Adapt); err != nil {
			t.Fatal(err)
		}
	}
	best := int64(math.MinInt64)
	for turn := 1; turn <= 95; turn++ {
		for _, v := range AllValues {
			m := base.Clone().(*Match)
			for !m.Over() {
				if m.Turn()+1 == turn {
					play(m, v)
				} else {
					play(m, Adapt)
				}
			}
			best = max(best, lead(m))
		}
	}
	for range 95 {
		play(base, Adapt)
	}
	var ending func(m *Match)
	ending = func(m *Match) {
		if m.Over() {
			best = max(best, lead(m))
			return
		}
		for _, v := range AllValues {
			c := m.Clone().(*Match)
			play(c, v)
			ending(c)
		}
	}
	ending(base)
	if best != 1 {
		t.Fatalf("the best lead over adapt is %d; the rules allow 1", best)
	}
	s, _ := Game{}.NewMatch(setup)
	for !s.Over() {
		v, _ := Steward().Turn(s.View(0))
		play(s, v)
	}
	if got := lead(s); got != 1 {
		t.Errorf("the steward leads adapt by %d; the most anyone can is 1", got)
	}
}
