package ajveciv

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// referenceTurn is the original rules written as plainly as the rules page
// states them: rises, then every effect computed into deltas from the state
// after the rises, then the deltas added, then starvation. It is slow and
// obviously right; OriginalRules.Turn must agree with it exactly.
func referenceTurn(w *World, choices []Value, rng *rand.Rand) {
	n := len(w.Societies)
	alive := func(j int) bool { return !w.Societies[j].Dead }
	for i, c := range choices {
		if c != None {
			w.Societies[i].Values[c]++
		}
	}
	// Choose every target first, in seat order of the choosers.
	pick := func(i int, better func(a, b int) bool) int {
		var tied []int
		for j := 0; j < n; j++ {
			if j == i || !alive(j) {
				continue
			}
			switch {
			case len(tied) == 0 || better(w.Feels[i][j], w.Feels[i][tied[0]]):
				tied = []int{j}
			case w.Feels[i][j] == w.Feels[i][tied[0]]:
				tied = append(tied, j)
			}
		}
		switch len(tied) {
		case 0:
			return -1
		case 1:
			return tied[0]
		}
		return tied[rng.IntN(len(tied))]
	}
	target := make([]int, n)
	for i, c := range choices {
		target[i] = -1
		switch c {
		case Conquer:
			target[i] = pick(i, func(a, b int) bool { return a < b })
		case Exchange:
			target[i] = pick(i, func(a, b int) bool { return a > b })
		}
	}
	dYield := make([]int, n)
	dPop := make([]int, n)
	dWorld := 0
	dFeels := make([][]int, n)
	for i := range dFeels {
		dFeels[i] = make([]int, n)
	}
	for i, c := range choices {
		if c == None {
			continue
		}
		d := w.Societies[i].Values[c]
		j := target[i]
		switch c {
		case Conquer:
			if j < 0 {
				break
			}
			dYield[j] -= d
			dYield[i] += d
			dFeels[j][i] -= 5
			for k := 0; k < n; k++ {
				if k != i && k != j && alive(k) {
					dFeels[k][i]--
				}
			}
		case Exchange:
			dYield[i] += d
			if j >= 0 {
				dYield[j] += w.Societies[j].Values[Exchange]
				dFeels[j][i]++
			}
		case Discover:
			dYield[i] += d
		case Expand:
			dPop[i] += d
		case Develop:
			dYield[i] += 3 * d
			dWorld -= d
			for k := 0; k < n; k++ {
				if k != i && alive(k) {
					dFeels[k][i]--
				}
			}
		case Consent:
			dWorld += d
			for k := 0; k < n; k++ {
				if k != i && alive(k) {
					dFeels[k][i] += d
				}
			}
		}
	}
	w.Yield += dWorld
	for i := range w.Societies {
		w.Societies[i].Nation.Yield += dYield[i]
		w.Societies[i].Nation.Population += dPop[i]
		for j := range w.Feels[i] {
			w.Feels[i][j] += dFeels[i][j]
		}
	}
	for i := range w.Societies {
		s := &w.Societies[i]
		if s.Dead {
			continue
		}
		if limit := w.Yield + s.Nation.Yield; s.Nation.Population > limit {
			s.Nation.Population = limit
		}
		if s.Nation.Population <= 0 {
			s.Nation.Population, s.Dead = 0, true
		}
	}
}

// randomWorld makes a consistent world with small numbers, so that ties,
// deaths and negative yields all happen often.
func randomWorld(r *rand.Rand, n int) World {
	w := NewWorld(n)
	w.Yield = r.IntN(41) - 10
	for i := range w.Societies {
		s := &w.Societies[i]
		for v := range s.Values {
			s.Values[v] = r.IntN(6)
		}
		s.Nation = Nation{Population: 1 + r.IntN(30), Yield: r.IntN(30) - 5}
		if r.IntN(5) == 0 {
			s.Dead, s.Nation.Population = true, 0
		}
		for j := range w.Feels[i] {
			w.Feels[i][j] = r.IntN(5) - 2
		}
	}
	return w
}

func randomChoices(r *rand.Rand, w *World) []Value {
	c := make([]Value, len(w.Societies))
	for i := range c {
		c[i] = None
		if !w.Societies[i].Dead {
			c[i] = Value(r.IntN(NumValues))
		}
	}
	return c
}

func TestTurnMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(2024, 11))
	for k := range 5000 {
		w := randomWorld(r, 1+r.IntN(MaxSocieties))
		choices := randomChoices(r, &w)
		seed := r.Uint64()
		got, want := w.Clone(), w.Clone()
		if err := (OriginalRules{}).Turn(&got, choices, rand.New(rand.NewPCG(seed, 0))); err != nil {
			t.Fatal(err)
		}
		referenceTurn(&want, choices, rand.New(rand.NewPCG(seed, 0)))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d: choices %v on %v\n(-reference +got)\n%s", k, choices, w, diff)
		}
	}
}
