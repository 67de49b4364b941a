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

// OriginalRules are the world's laws as the rules tell them.
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
//
// It works in phases, each a small function: a function with few live values
// keeps them in registers, and the phases that run for every society are
// written without branches that depend on the choices, which a processor
// cannot predict.
func (OriginalRules) Turn(w *World, choices []Value, rng *rand.Rand) error {
	n := len(w.Societies)
	if len(choices) != n || len(w.Feels) != n {
		return fmt.Errorf("ajveciv: %d choices and %d rows of feels for %d societies", len(choices), len(w.Feels), n)
	}
	if n > MaxSocieties {
		return fmt.Errorf("ajveciv: %d societies; the rules take at most %d", n, MaxSocieties)
	}
	if err := checkChoices(w.Societies, choices); err != nil {
		return err
	}
	var t turnScratch
	t.rise(w.Societies, choices)
	t.aim(w.Feels, choices, rng)
	if t.affect(w, choices) {
		t.regardAll(w.Feels, n)
	}
	t.starve(w.Societies, w.Yield)
	return nil
}

// turnScratch is what one turn works out about each society before it
// changes the feelings: whom it targets and how everyone else's feeling
// toward it changes. It lives on the stack.
type turnScratch struct {
	living [MaxSocieties]int // the living societies, in seat order
	count  int               // how many are living
	aimers [MaxSocieties]int // the living that conquer or exchange, in seat order
	aiming int               // how many
	target [MaxSocieties]int // whom each living society raids or trades with; itself for nobody
	regard [MaxSocieties]int // the change of everyone else's feeling toward each
}

// checkChoices returns an error unless every living society chooses a value
// and every dead one None. It changes nothing, so a refused turn leaves the
// world as it was.
func checkChoices(socs []Society, choices []Value) error {
	for i := range socs {
		switch c := choices[i]; {
		case socs[i].Dead && c != None:
			return fmt.Errorf("ajveciv: society %d is dead and cannot choose %v", i+1, c)
		case !socs[i].Dead && !c.Valid():
			return fmt.Errorf("ajveciv: society %d is alive and must choose a value", i+1)
		}
	}
	return nil
}

// rise raises each living society's chosen value by 1, noting the living
// and the conquerors and traders.
func (t *turnScratch) rise(socs []Society, choices []Value) {
	choices = choices[:len(socs)]
	for i := range socs {
		s, c := &socs[i], choices[i]
		if s.Dead {
			continue
		}
		s.Values[c]++
		t.living[t.count] = i
		t.count++
		// Note the conquerors and traders without a branch on the choice.
		t.aimers[t.aiming] = i
		t.aiming += b2i(c <= Exchange)
	}
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag move, not
// a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// aim chooses the target of every conquer (whom it likes least) and every
// exchange (whom it likes most), from the feelings before any effect, in
// seat order, which is the order of any draws among ties. A society with no
// target (another value, or nobody else alive) aims at itself, which the
// effects turn into nothing.
func (t *turnScratch) aim(feels [][]int, choices []Value, rng *rand.Rand) {
	living := t.living[:t.count]
	for _, i := range living {
		t.target[i] = i
	}
	for _, i := range t.aimers[:t.aiming] {
		if j := favourite(feels[i], i, living, choices[i] == Exchange, rng); j >= 0 {
			t.target[i] = j
		}
	}
}

// affect applies every chooser's effect, worked out from the world after the
// rises: yields, populations and the world's yield at once, and the
// feelings of the raided and the traded with; everyone else's feelings
// (regard) are only noted, for the pass after this one. It reports whether
// any regard is not zero.
func (t *turnScratch) affect(w *World, choices []Value) (anyRegard bool) {
	socs, feels, worldYield := w.Societies, w.Feels, w.Yield
	nonzero := 0
	for _, i := range t.living[:t.count] {
		c := choices[i] & 7
		s := &socs[i]
		d := s.Values[c]
		e := &effects[c]
		s.Nation.Yield += e.yield * d
		s.Nation.Population += e.population * d
		worldYield += e.world * d
		r := e.regard + e.regardD*d
		t.regard[i] = r
		nonzero |= r
		// The target: a raid or a trade, or itself, to no effect.
		j := t.target[i]
		real := 0
		if j != i {
			real = 1
		}
		o := &socs[j]
		gain := real * e.raid * d
		o.Nation.Yield += real*e.trade*o.Values[Exchange] - gain
		s.Nation.Yield += gain
		feels[j][i] += real * e.answer
	}
	w.Yield = worldYield
	return nonzero != 0
}

// regardAll changes every living society's feeling toward each chooser by
// its regard, never on the diagonal.
func (t *turnScratch) regardAll(feels [][]int, n int) {
	add := t.regard[:n]
	for _, k := range t.living[:t.count] {
		row := feels[k][:n]
		self := row[k]
		for i, r := range add {
			row[i] += r
		}
		row[k] = self
	}
}

// starve shrinks every living society whose population exceeds the world's
// yield plus its own to that sum; one left with no people dies.
func (t *turnScratch) starve(socs []Society, worldYield int) {
	for _, i := range t.living[:t.count] {
		s := &socs[i]
		s.Nation.Population = min(s.Nation.Population, worldYield+s.Nation.Yield)
		if s.Nation.Population <= 0 {
			s.Nation.Population = 0
			s.Dead = true
		}
	}
}

// favourite returns the living society j ≠ i that i likes most (or least),
// by i's row of feelings, drawing among ties, or -1 when i is alone. living
// lists the living societies in seat order.
func favourite(row []int, i int, living []int, most bool, rng *rand.Rand) int {
	sign := 1 - 2*b2i(most) // minimise sign × feeling
	// key = sign·feeling·32 + j orders by feeling, then by seat, and is
	// unique: the smallest key is the first of the best. Both passes are
	// conditional moves and flag arithmetic, not branches: the feelings are
	// too varied for a processor to predict.
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
		ties += b2i(sign*row[j] == f) & b2i(j != i)
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
