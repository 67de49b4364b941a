package ajveciv

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fmtWorld is the world's table as fmt writes it: the reference the table's
// own number formatting must match byte for byte.
func fmtWorld(w *World, you int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "world yield %d\n", w.Yield)
	fmt.Fprintf(&b, "  society  population    yield  conquer exchange discover   expand  develop  consent   feels toward")
	for j := range w.Societies {
		fmt.Fprintf(&b, " %4d", j+1)
	}
	b.WriteByte('\n')
	for i := range w.Societies {
		s := &w.Societies[i]
		mark := ' '
		if i == you {
			mark = '>'
		}
		fmt.Fprintf(&b, "%c %7d %11d %8d", mark, i+1, s.Nation.Population, s.Nation.Yield)
		for _, d := range s.Values {
			fmt.Fprintf(&b, " %8d", d)
		}
		status := "             "
		if s.Dead {
			status = "  dead       "
		} else if i == you {
			status = "  (you)      "
		}
		b.WriteString(status)
		for j, f := range w.Feels[i] {
			if j == i {
				b.WriteString("    ·")
			} else {
				fmt.Fprintf(&b, " %4d", f)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestWorldTextIsFmts(t *testing.T) {
	// The world's table, as reports and the terminal print it, formats its
	// numbers without fmt: every width, sign and overflowing number comes
	// out as fmt's %d with a width would write it.
	rng := rand.New(rand.NewPCG(3, 4))
	number := func() int {
		switch rng.IntN(4) {
		case 0:
			return rng.IntN(21) - 10
		case 1:
			return rng.IntN(2_000_000) - 1_000_000
		case 2:
			return int(rng.Int64N(2*maxMagnitude+1) - maxMagnitude)
		}
		return rng.IntN(100_000)
	}
	for range 300 {
		n := 1 + rng.IntN(MaxSocieties)
		w := NewWorld(n)
		w.Yield = number()
		for i := range w.Societies {
			s := &w.Societies[i]
			s.Nation = Nation{Population: number(), Yield: number()}
			for v := range s.Values {
				s.Values[v] = number()
			}
			s.Dead = rng.IntN(5) == 0
			for j := range w.Feels[i] {
				w.Feels[i][j] = number()
			}
		}
		you := rng.IntN(n+1) - 1
		var b strings.Builder
		w.writeText(&b, you)
		if got, want := b.String(), fmtWorld(&w, you); got != want {
			t.Fatalf("world text:\n%s\nwant\n%s", got, want)
		}
	}
}
