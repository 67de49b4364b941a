package ajveciv

import (
	"fmt"
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

// effects is indexed by value; the two entries past the six do nothing.
var effects = [8]effect{
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
// Its loops run over the seats, skipping the dead (a branch a processor
// predicts: the living change a few times a game), and what it works out
// about each society it keeps in small arrays on the stack. The effects are
// read from a table, without branches on the choices, which a processor
// cannot predict.
func originalTurn(w *World, choices []Value, rng *rand.Rand, lag *regard) (int, error) {
	socs, feels := w.Societies, w.Feels
	n := len(socs)
	if len(choices) != n || len(feels) != n {
		return 0, fmt.Errorf("ajveciv: %d choices and %d rows of feels for %d societies", len(choices), len(feels), n)
	}
	if n > MaxSocieties {
		return 0, fmt.Errorf("ajveciv: %d societies; the rules take at most %d", n, MaxSocieties)
	}
	choices, lg := choices[:n], lag[:n]
	var devotions [MaxSocieties]int
	dev := devotions[:n]

	// Each living society's chosen value rises by 1; a wrong choice undoes
	// the rises before it, so that a refused turn leaves the world as it
	// was. The living are noted, as a set of seats, and those that conquer
	// or exchange, in seat order.
	var aimers [32]uint8
	var bias [MaxSocieties]int // none for the dead, who are nobody's target
	var living uint32
	aiming := 0
	for i := range socs {
		s, c := &socs[i], choices[i]
		if s.Dead {
			if c != None {
				undoRises(socs[:i], choices)
				return 0, fmt.Errorf("ajveciv: society %d is dead and cannot choose %v", i+1, c)
			}
			bias[i] = none
			continue
		}
		if c >= NumValues {
			undoRises(socs[:i], choices)
			return 0, fmt.Errorf("ajveciv: society %d is alive and must choose a value", i+1)
		}
		s.Values[c]++
		dev[i] = s.Values[c]
		living |= 1 << (uint(i) & 31)
		aimers[aiming&31] = uint8(i)
		aiming += b2i(c <= Exchange)
	}

	// Targets, from the feelings before any effect, in seat order (the
	// order of any draws among ties): a society with no target aims at
	// itself, which the effects turn into nothing.
	target := selves
	tgt := target[:n]
	for _, i := range aimers[:aiming] {
		sign := 1 - 2*b2i(choices[i] == Exchange)
		if j := favourite(feels[i], lg, bias[:n], int(i), sign, rng); j >= 0 {
			tgt[i] = uint8(j)
		}
	}

	// Every chooser's effect at once, from the world after the rises: on
	// itself and the world, then, for those that aim at another, on their
	// target. The change of everyone else's feeling toward a chooser goes
	// to lag.
	worldYield := w.Yield
	for i := range socs {
		s := &socs[i]
		if s.Dead {
			continue
		}
		e := &effects[choices[i]&7]
		d := dev[i]
		s.Nation.Yield += e.yield * d
		s.Nation.Population += e.population * d
		worldYield += e.world * d
		lg[i] += e.regard + e.regardD*d
	}
	w.Yield = worldYield
	for _, i := range aimers[:aiming] {
		j := int(tgt[i])
		if j == int(i) {
			continue // alone: nobody to aim at
		}
		e := &effects[choices[i]&7]
		gain := e.raid * dev[i]
		socs[i].Nation.Yield += gain
		o := &socs[j]
		o.Nation.Yield += e.trade*o.Values[Exchange] - gain
		feels[j][i] += e.answer
	}

	// Starvation: a living society whose population exceeds the world's
	// yield plus its own falls to that sum; one left with none dies.
	count, dead := 0, 0
	for i := range socs {
		s := &socs[i]
		if s.Dead {
			continue
		}
		count++
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
		for k := range socs {
			if living>>(uint(k)&31)&1 != 0 {
				addRow(feels[k][:n], lg, k)
			}
		}
		*lag = regard{}
	}
	return count - dead, nil
}

// undoRises takes back the rise of every living society's choice.
func undoRises(socs []Society, choices []Value) {
	for i := range socs {
		if !socs[i].Dead {
			socs[i].Values[choices[i]]--
		}
	}
}

// selves is the target of every society that aims at nobody: itself.
var selves = func() (t [MaxSocieties]uint8) {
	for i := range t {
		t[i] = uint8(i)
	}
	return t
}()

// none lifts the key of a seat that is not a target above every other (see
// favourite). Keys stay within ±2^57 (feelings within ±10^15), so no sum or
// difference of keys overflows.
const none = 1 << 62

// favourite returns the living society j ≠ i that i likes least (sign 1)
// or most (sign −1), by i's row of feelings plus lag (see regard), drawing
// among ties, or -1 when i is alone. bias is none for the dead, else 0.
//
// Seat j's key, sign·feeling·32 + j, orders the seats by feeling, then by
// seat, and is unique: the smallest key is the first of the best. One pass
// keeps the two smallest keys, in arithmetic without a branch or a
// conditional (the feelings are too varied for a processor to predict);
// the best is shared only when both keys have the same feeling, and only
// then does a second pass count and draw.
func favourite(row, lag, bias []int, i, sign int, rng *rand.Rand) int {
	lag = lag[:len(bias)]
	row = row[:len(bias)]
	sign32 := sign << 5
	bias[i] += none // not itself
	k1, k2 := none, none
	for j, r := range row {
		k := (r+lag[j])*sign32 + j + bias[j]
		d := k - k1
		d &= d >> 63 // k − k1 when k < k1, else 0
		k2 = min2(k2, k-d)
		k1 += d
	}
	bias[i] -= none
	if k1 >= none/2 {
		return -1
	}
	at, best := k1&31, k1>>5
	if k2 >= none/2 || k2>>5 != best {
		return at
	}
	ties := 0
	for j, r := range row {
		ties += b2i(j != i && bias[j] == 0 && sign*(r+lag[j]) == best)
	}
	k := rng.IntN(ties)
	for j := at; ; j++ {
		if j != i && bias[j] == 0 && sign*(row[j]+lag[j]) == best {
			if k == 0 {
				return j
			}
			k--
		}
	}
}

// min2 is min(a, b) in arithmetic, for a and b within ±2^62.
func min2(a, b int) int {
	d := b - a
	return a + d&(d>>63)
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag move, not
// a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// originalInflection is Inflection for choices a match has checked against
// offers, every living society's three highest values in order: the
// chosen value rises by 2 and the other two fall by 1, never below 0.
func originalInflection(socs []Society, choices []Value, offers []offer) {
	choices, offers = choices[:len(socs)], offers[:len(socs)]
	for i := range socs {
		s := &socs[i]
		if s.Dead {
			continue
		}
		c := choices[i]
		for _, v := range offers[i][:3] {
			d := &s.Values[v%NumValues]
			if v == c {
				*d += 2
			} else if *d > 0 {
				*d--
			}
		}
	}
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
