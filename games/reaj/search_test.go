package reaj

import (
	"fmt"
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
