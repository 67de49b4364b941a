package ajveciv

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// searchSetups are the games the search hooks are checked on: two, three
// and six seats, with inflections and without, to the end.
var searchSetups = []engine.Setup{
	{Players: []string{"a", "b"}, Options: map[string]string{"turns": "25"}},
	{Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "21"}},
	{Players: []string{"a", "b", "c", "d", "e", "f"}, Options: map[string]string{"turns": "32"}},
	{Players: []string{"a", "b", "c", "d", "e", "f"}, Options: map[string]string{"turns": "30", "inflections": "false"}},
}

// TestSearchHooks: a clone shows and plays on as the match, and a match
// sampled from a society's view shows it the same view and owes it the same
// choice, at every step of random games of two, three and six seats.
func TestSearchHooks(t *testing.T) {
	for i, setup := range searchSetups {
		for seed := range uint64(4) {
			setup.Seed = 100*uint64(i) + seed
			t.Run(fmt.Sprintf("%d-seats/%s/seed-%d", setup.Seats(), setup.Options["turns"], setup.Seed), func(t *testing.T) {
				enginetest.CheckSearch(t, Original(), setup, enginetest.Options[Value, View]{Seed: seed, Steps: 500})
			})
		}
	}
}

// TestSampleHidesOnlyWhatTheViewHides: samples of one view agree on all it
// shows (the world, the turn, the seat's offer) and differ in the other
// societies' offers of the turn and in the chance to come, never in the
// offers at an inflection, which every society's values show.
func TestSampleHidesOnlyWhatTheViewHides(t *testing.T) {
	setup := engine.Setup{Seed: 9, Players: make([]string, 6), Options: map[string]string{"turns": "30"}}
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	dice := rand.NewPCG(1, 2)
	for round := 0; !m.Over(); round++ {
		a, err := Original().SampleMatch(setup, 2, m.View(2), dice)
		if err != nil {
			t.Fatal(err)
		}
		othersDiffer, futureDiffers := false, false
		for range 20 {
			b, err := Original().SampleMatch(setup, 2, m.View(2), dice)
			if err != nil {
				t.Fatal(err)
			}
			for i := range b.offers {
				switch {
				case i == 2 || m.infl:
					if b.offers[i] != m.offers[i] {
						t.Fatalf("round %d: society %d's offer %v is known, and the sample has %v", round, i+1, m.offers[i], b.offers[i])
					}
				case b.offers[i] != a.offers[i]:
					othersDiffer = true
				}
			}
			futureDiffers = futureDiffers || b.pcg != a.pcg
		}
		if !m.infl && !othersDiffer {
			t.Errorf("round %d: 21 samples dealt the other societies the same offers", round)
		}
		if !futureDiffers {
			t.Errorf("round %d: 21 samples have the same chance to come", round)
		}
		for _, r := range append([]engine.Request[Value](nil), m.Pending()...) {
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSampleRefuses: a view that is not the seat's, or has no choice to
// make, or a setup of another game, is refused with an error.
func TestSampleRefuses(t *testing.T) {
	setup := engine.Setup{Seed: 9, Players: make([]string, 3)}
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	dice := rand.NewPCG(1, 2)
	if _, err := Original().Sample(setup, 1, m.View(0), dice); err == nil {
		t.Error("seat 1 sampled from seat 0's view")
	}
	if _, err := Original().Sample(setup, 5, m.View(5), dice); err == nil {
		t.Error("a seat that is not in the game sampled")
	}
	other := engine.Setup{Players: make([]string, 3), Options: map[string]string{"turns": "7"}}
	if _, err := Original().Sample(other, 0, m.View(0), dice); err == nil {
		t.Error("a 100-turn view sampled as a 7-turn game")
	}
	if _, err := Original().Sample(engine.Setup{Players: make([]string, 4)}, 0, m.View(0), dice); err == nil {
		t.Error("a three-society view sampled as four seats")
	}
}

// searchBenchMatch is a six-society match at turn 50 of 100, played by
// random choices.
func searchBenchMatch(b *testing.B) (*Match, engine.Setup) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 6)}
	m, err := Original().NewMatch(setup)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for m.Turn() < 50 {
		for _, q := range append([]engine.Request[Value](nil), m.Pending()...) {
			if err := m.Apply(q.Seat, q.Choices[r.IntN(len(q.Choices))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return m, setup
}

// BenchmarkClone copies a six-society match.
func BenchmarkClone(b *testing.B) {
	m, _ := searchBenchMatch(b)
	b.ReportAllocs()
	for b.Loop() {
		m.Clone()
	}
}

// BenchmarkSample makes a six-society match from one society's view.
func BenchmarkSample(b *testing.B) {
	m, setup := searchBenchMatch(b)
	dice := rand.NewPCG(1, 2)
	v := m.View(0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Original().Sample(setup, 0, v, dice); err != nil {
			b.Fatal(err)
		}
	}
}
