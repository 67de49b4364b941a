package ajveciv

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Rules are a world's laws: how the choices of a turn and of an inflection
// change the world. A custom world, a named variant of the game, implements
// Rules; the game around it deals the offered choices, checks the answers,
// counts the turns and scores the end.
//
// choices holds one entry per society, None for a dead one. Turn and
// Inflection change w in place. They are pure functions of (w, choices) and
// the random source: rng is the match's own, and drawing from it in the same
// order every time keeps matches reproducible.
type Rules interface {
	Turn(w *World, choices []Value, rng *rand.Rand) error
	Inflection(w *World, choices []Value) error
}

// Initializer is implemented by Rules that change the starting world (a
// larger world yield, unequal societies). Init runs once per match, on the
// world NewWorld made; the result must pass World.Check.
type Initializer interface {
	Init(w *World) error
}

// OriginalRules are the world's laws as the seed describes them.
//
// A turn: each living society's chosen value rises by 1. Every effect is then
// computed from the world after the rises and before any effect, and all
// effects are added together; nobody goes first. For society i with devotion
// d to its choice:
//
//   - conquer: the living society j ≠ i that i likes least loses d yield and
//     i gains d; j's feeling toward i falls by 5, and every other living
//     society's by 1.
//   - exchange: i gains d yield; the living society j ≠ i that i likes most
//     gains its own devotion to exchange in yield, and its feeling toward i
//     rises by 1.
//   - discover: i gains d yield.
//   - expand: i's population rises by d.
//   - develop: i gains 3d yield, the world's yield falls by d, and every other
//     living society's feeling toward i falls by 1.
//   - consent: the world's yield rises by d, and every other living society's
//     feeling toward i rises by d.
//
// Ties for "likes least" and "likes most" are broken by rng.IntN over the tied
// societies in seat order; the draws are made only when there is a tie, in
// seat order of the choosing societies. Then starvation: a living society
// whose population exceeds the world's yield plus its own falls to that sum,
// and one left with none is dead. Dead societies are never affected.
//
// An inflection: each living society's chosen value (one of its three
// highest) rises by 2 and the other two of the three fall by 1, never below 0.
type OriginalRules struct{}

// effect is what a value does to its chooser, per point of devotion d. The
// turn works from this table rather than a switch, which keeps the hot loop
// free of hard-to-predict branches.
type effect struct {
	yield      int // the chooser gains yield × d
	population int // the chooser's population grows by population × d
	world      int // the world's yield changes by world × d
	regard     int // every other living society's feeling toward the chooser changes by regard + regardD × d
	regardD    int
}

var effects = [NumValues]effect{
	Conquer:  {regard: -1}, // the raid's gain comes with its target
	Exchange: {yield: 1},
	Discover: {yield: 1},
	Expand:   {population: 1},
	Develop:  {yield: 3, world: -1, regard: -1},
	Consent:  {world: 1, regardD: 1},
}

// Turn applies one turn of the original rules.
func (OriginalRules) Turn(w *World, choices []Value, rng *rand.Rand) error {
	// Work on local copies of the world's slice headers and yield: stores
	// through w would make the compiler reload them at every step.
	socs, feels, worldYield := w.Societies, w.Feels, w.Yield
	n := len(socs)
	if len(choices) != n || len(feels) != n {
		return fmt.Errorf("ajveciv: %d choices and %d rows of feels for %d societies", len(choices), len(feels), n)
	}
	var (
		regardBuf  [MaxSocieties]int
		livingBuf  [MaxSocieties]int
		targetsBuf [MaxSocieties]int8
	)
	regard, living, targets := regardBuf[:], livingBuf[:0], targetsBuf[:]
	if n > MaxSocieties {
		regard, living, targets = make([]int, n), make([]int, 0, n), make([]int8, n)
	}
	regard, targets, choices = regard[:n], targets[:n], choices[:n]

	// The rises come first.
	for i := range socs {
		s, c := &socs[i], choices[i]
		if s.Dead {
			if c != None {
				return fmt.Errorf("ajveciv: society %d is dead and cannot choose %v", i+1, c)
			}
			continue
		}
		if !c.Valid() {
			return fmt.Errorf("ajveciv: society %d is alive and must choose a value", i+1)
		}
		s.Values[c]++
		living = append(living, i)
	}

	// Then every effect, each worked out from the world after the rises:
	// yields, populations and the world's yield change at once; feelings only
	// in the pass after this one, so every target is chosen from the
	// feelings as they were. Targets are chosen in seat order, which is the
	// order of any draws among ties.
	anyRegard := false
	for _, i := range living {
		c := choices[i]
		s := &socs[i]
		d := s.Values[c&7]
		e := &effects[c&7]
		s.Nation.Yield += e.yield * d
		s.Nation.Population += e.population * d
		worldYield += e.world * d
		r := e.regard + e.regardD*d
		regard[i] = r
		anyRegard = anyRegard || r != 0
		targets[i] = -1
		if c > Exchange {
			continue
		}
		j := favourite(feels[i], i, living, c == Exchange, rng)
		if j < 0 {
			continue // nobody else is alive
		}
		targets[i] = int8(j)
		if t := &socs[j]; c == Conquer {
			t.Nation.Yield -= d
			s.Nation.Yield += d
		} else {
			t.Nation.Yield += t.Values[Exchange]
		}
	}
	w.Yield = worldYield

	// Feelings: every living society's change toward each chooser (never on
	// the diagonal); then the raided society's −5 in all (−1 of it came with
	// everyone's) and the trading partner's +1.
	if anyRegard {
		for _, k := range living {
			row := feels[k][:n]
			self := row[k]
			for i, r := range regard {
				row[i] += r
			}
			row[k] = self
		}
	}
	for _, i := range living {
		switch j := targets[i]; {
		case j < 0:
		case choices[i] == Conquer:
			feels[j][i] -= 4
		default:
			feels[j][i]++
		}
	}

	// Starvation, after all effects.
	for _, i := range living {
		s := &socs[i]
		if limit := worldYield + s.Nation.Yield; s.Nation.Population > limit {
			s.Nation.Population = limit
		}
		if s.Nation.Population <= 0 {
			s.Nation.Population = 0
			s.Dead = true
		}
	}
	return nil
}

// favourite returns the living society j ≠ i that i likes most (or least),
// by i's row of feelings, drawing among ties, or -1 when i is alone. living
// lists the living societies in seat order.
func favourite(row []int, i int, living []int, most bool, rng *rand.Rand) int {
	sign := 1 // minimise sign × feeling
	if most {
		sign = -1
	}
	// key = sign·feeling·32 + j orders by feeling, then by seat, and is
	// unique: the smallest key is the first of the best, found with min
	// alone. A second pass counts the ties.
	best := math.MaxInt
	for _, j := range living {
		k := sign*row[j]*32 + j
		if j == i {
			k = math.MaxInt
		}
		best = min(best, k)
	}
	if best == math.MaxInt {
		return -1
	}
	at, f := best&31, best>>5
	ties := 0
	for _, j := range living {
		if sign*row[j] == f && j != i {
			ties++
		}
	}
	if ties == 1 {
		return at
	}
	k := rng.IntN(ties)
	for _, j := range living {
		if j != i && sign*row[j] == f {
			if k == 0 {
				return j
			}
			k--
		}
	}
	return at // not reached
}

// Inflection applies one inflection of the original rules.
func (OriginalRules) Inflection(w *World, choices []Value) error {
	if len(choices) != len(w.Societies) {
		return fmt.Errorf("ajveciv: %d choices for %d societies", len(choices), len(w.Societies))
	}
	for i, c := range choices {
		s := &w.Societies[i]
		if s.Dead {
			if c != None {
				return fmt.Errorf("ajveciv: society %d is dead and cannot choose %v", i+1, c)
			}
			continue
		}
		top := s.Values.Top()
		if c != top[0] && c != top[1] && c != top[2] {
			return fmt.Errorf("ajveciv: society %d chose %v at an inflection; it may choose only among its three highest values: %v, %v, %v", i+1, c, top[0], top[1], top[2])
		}
		for _, v := range top {
			if v == c {
				s.Values[v] += 2
			} else if s.Values[v] > 0 {
				s.Values[v]--
			}
		}
	}
	return nil
}
