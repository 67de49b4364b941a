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
	raid       int // 1 for conquer: the target loses d yield and the chooser gains it
	trade      int // 1 for exchange: the target gains its own devotion to exchange
	answer     int // the target's feeling toward the chooser changes by this, beyond its regard
}

var effects = [NumValues]effect{
	Conquer:  {regard: -1, raid: 1, answer: -4}, // −5 in all for the raided
	Exchange: {yield: 1, trade: 1, answer: 1},
	Discover: {yield: 1},
	Expand:   {population: 1},
	Develop:  {yield: 3, world: -1, regard: -1},
	Consent:  {world: 1, regardD: 1},
}

// Turn applies one turn of the original rules.
func (OriginalRules) Turn(w *World, choices []Value, rng *rand.Rand) error {
	var lag regard
	if _, err := originalTurn(w, choices, rng, &lag); err != nil {
		return err
	}
	lag.settle(w)
	return nil
}

// regard is the change of feelings that a turn leaves unwritten, one number
// per society felt about: living society k's feeling toward j ≠ k is
// Feels[k][j] + regard[j]. Every living society's feeling toward a chooser
// changes the same way, so a match adds each turn's change here, once per
// society, rather than to every row of its feelings; it writes them into the
// feelings (settle) when the living change, and whenever someone else looks.
type regard [MaxSocieties]int

// settle adds r to the feelings of every living society of w, never on the
// diagonal, and empties r.
func (r *regard) settle(w *World) {
	if *r == (regard{}) {
		return
	}
	n := len(w.Societies)
	add := r[:n]
	for k := range w.Societies {
		if !w.Societies[k].Dead {
			addRow(w.Feels[k][:n], add, k)
		}
	}
	*r = regard{}
}

// addRow adds add to row, but for row[self].
func addRow(row, add []int, self int) {
	keep := row[self]
	for j, d := range add[:len(row)] {
		row[j] += d
	}
	row[self] = keep
}

// originalTurn applies one turn of the original rules, leaving the change
// of feelings toward each chooser in lag (see regard), which it reads too,
// and returns how many societies are living after it. When a society dies,
// lag is written into the feelings and emptied.
//
// It keeps what it works out about the societies in small arrays of its own
// (registers and the stack, never the heap), and the loops that run for
// every society are written without branches that depend on the choices,
// which a processor cannot predict.
func originalTurn(w *World, choices []Value, rng *rand.Rand, lag *regard) (int, error) {
	n := len(w.Societies)
	if len(choices) != n || len(w.Feels) != n {
		return 0, fmt.Errorf("ajveciv: %d choices and %d rows of feels for %d societies", len(choices), len(w.Feels), n)
	}
	if n > MaxSocieties {
		return 0, fmt.Errorf("ajveciv: %d societies; the rules take at most %d", n, MaxSocieties)
	}
	socs, feels := w.Societies[:n], w.Feels[:n]
	choices = choices[:n]

	// The living, and among them those that conquer or exchange, in seat
	// order; nothing changes before every choice is checked, so a refused
	// turn leaves the world as it was.
	var living, aimers, target [MaxSocieties]uint8
	count, aiming := 0, 0
	for i := range socs {
		c := choices[i]
		if socs[i].Dead {
			if c != None {
				return 0, fmt.Errorf("ajveciv: society %d is dead and cannot choose %v", i+1, c)
			}
			continue
		}
		if !c.Valid() {
			return 0, fmt.Errorf("ajveciv: society %d is alive and must choose a value", i+1)
		}
		living[count] = uint8(i)
		count++
		aimers[aiming] = uint8(i)
		aiming += b2i(c <= Exchange)
	}
	live := living[:count]

	// Each living society's chosen value rises by 1.
	for _, i := range live {
		socs[i].Values[choices[i]]++
	}

	// Targets, from the feelings before any effect, in seat order (the
	// order of any draws among ties): a society with no target aims at
	// itself, which the effects turn into nothing.
	for _, i := range live {
		target[i] = i
	}
	for _, i := range aimers[:aiming] {
		if j := favourite(feels[i], lag[:n], int(i), live, choices[i] == Exchange, rng); j >= 0 {
			target[i] = uint8(j)
		}
	}

	// Every chooser's effect at once, from the world after the rises. The
	// change of everyone else's feeling toward it goes to lag.
	worldYield := w.Yield
	for _, i := range live {
		c := choices[i]
		s := &socs[i]
		d := s.Values[c]
		e := &effects[c]
		s.Nation.Yield += e.yield * d
		s.Nation.Population += e.population * d
		worldYield += e.world * d
		lag[i] += e.regard + e.regardD*d
		j := target[i]
		real := b2i(j != i)
		o := &socs[j]
		gain := real * e.raid * d
		o.Nation.Yield += real*e.trade*o.Values[Exchange] - gain
		s.Nation.Yield += gain
		feels[j][i] += real * e.answer
	}
	w.Yield = worldYield

	// Starvation: a living society whose population exceeds the world's
	// yield plus its own falls to that sum; one left with none dies.
	dead := 0
	for _, i := range live {
		s := &socs[i]
		s.Nation.Population = min(s.Nation.Population, worldYield+s.Nation.Yield)
		if s.Nation.Population <= 0 {
			s.Nation.Population = 0
			s.Dead = true
			dead++
		}
	}
	if dead > 0 {
		// The feelings owed are those of the societies living before
		// the deaths.
		for _, k := range live {
			addRow(feels[k][:n], lag[:n], int(k))
		}
		*lag = regard{}
	}
	return count - dead, nil
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag move, not
// a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// favourite returns the living society j ≠ i that i likes most (or least),
// by i's row of feelings plus lag (see regard), drawing among ties, or -1
// when i is alone. living lists the living societies in seat order.
func favourite(row, lag []int, i int, living []uint8, most bool, rng *rand.Rand) int {
	row = row[:len(lag)]
	sign := 1 - 2*b2i(most) // minimise sign × feeling
	// key = sign·feeling·32 + j orders by feeling, then by seat, and is
	// unique: the smallest key is the first of the best. Both passes are
	// conditional moves and flag arithmetic, not branches: the feelings are
	// too varied for a processor to predict.
	best := math.MaxInt
	for _, b := range living {
		j := int(b)
		k := sign*(row[j]+lag[j])*32 + j
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
	for _, b := range living {
		j := int(b)
		ties += b2i(sign*(row[j]+lag[j]) == f) & b2i(j != i)
	}
	if ties == 1 {
		return at
	}
	k := rng.IntN(ties)
	for _, b := range living {
		if j := int(b); j != i && sign*(row[j]+lag[j]) == f {
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
