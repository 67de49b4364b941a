package reaj

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Turn applies one turn of the rules to st: turn is the turn's number (from
// 1), noted as Died on the societies that die in it; choices holds one value
// per society, None for a dead one; rng is the match's random source.
//
//  1. The environment's resources grow by its ecology (never by a negative
//     amount).
//  2. Each living society's chosen value rises by 1.
//  3. Every effect is worked out from the state after the rises, and all are
//     applied together:
//     conquer: +1 resource for every other society, dead or alive, whose
//     conquer is lower; every other living society's disposition toward the
//     conqueror −1.
//     exchange: +1 resource for every other society, dead or alive, whose
//     disposition toward the trader is positive.
//     expand: land −1 and +3 resources; develop: ecology −1 and +3
//     resources. Land and ecology never go below 0: when more societies want
//     them than remain, what remains goes to them in a random order.
//     consent: every other living society's disposition toward the chooser
//     +1.
//     adapt: ecology +1, after develop has taken its share.
//  4. Upkeep, for each living society in seat order: its resources change by
//     its adapt less its expand and develop. A society left short draws the
//     shortfall from the environment's resources; if the environment has
//     less, it gives what it has and the society dies with none.
//
// The random order of step 3 is drawn from rng only when it matters: first
// for the expanders, when they outnumber the land left, then for the
// developers, when they outnumber the ecology left. The contenders are
// listed in seat order and shuffled by Fisher–Yates from the last: for k
// from the last position down to 1, the contender at k swaps with the one at
// engine.Below(rng, k+1). The first ones in the shuffled order get a share.
//
// Dead societies choose nothing and are touched by nothing: their resources,
// values, and row and column of the relations stay as they were.
func Turn(st *State, turn int, choices []Value, rng *rand.PCG) error {
	_, err := resolve(st, turn, choices, rng)
	return err
}

// resolve is Turn, and returns how many societies are living after it.
//
// One pass over the seats checks the choices, makes the rises and notes
// who chose what as sets of seats (bit i for society i); every later step
// runs over the set it concerns, in seat order, so that a turn costs what
// its choices do.
func resolve(st *State, turn int, choices []Value, rng *rand.PCG) (int, error) {
	socs, rel := st.Societies, st.Relations
	n := len(socs)
	if len(choices) != n || len(rel) != n {
		return 0, fmt.Errorf("reaj: %d choices and %d rows of relations for %d societies", len(choices), len(rel), n)
	}
	if n > MaxSocieties {
		return 0, fmt.Errorf("reaj: %d societies; the rules take at most %d", n, MaxSocieties)
	}
	choices = choices[:n]

	// The rises, and who chose what. A wrong choice undoes the rises
	// before it, so that a refused turn leaves the state as it was.
	var chose [8]uint32 // per value, the set of its choosers
	for i := range socs {
		s, c := &socs[i], choices[i]
		if s.Dead {
			if c != None {
				undoRises(socs[:i], choices)
				return 0, engine.Refuse("dead", "society %d is dead and cannot choose %v; its choice must be null", i+1, c)
			}
			continue
		}
		if c >= NumValues {
			undoRises(socs[:i], choices)
			return 0, engine.Refuse("missing", "society %d is alive and must choose a value", i+1)
		}
		s.Values[c]++
		chose[c&7] |= 1 << (uint(i) & 31)
	}
	living := chose[Conquer] | chose[Exchange] | chose[Expand] | chose[Develop] | chose[Consent] | chose[Adapt]
	env := &st.Environment
	env.Resources += max(0, env.Ecology)

	// What conquer and exchange bring, from the state after the rises and
	// before any effect.
	var gain [MaxSocieties]int
	for set := chose[Conquer]; set != 0; set &= set - 1 {
		i := bits.TrailingZeros32(set)
		mine, g := socs[i].Values[Conquer], 0
		for j := range socs {
			g += b2i(socs[j].Values[Conquer] < mine) // never itself
		}
		gain[i&(MaxSocieties-1)] = g
	}
	for set := chose[Exchange]; set != 0; set &= set - 1 {
		i := bits.TrailingZeros32(set)
		g := 0
		for _, row := range rel {
			g += b2i(row[i] > 0)
		}
		gain[i&(MaxSocieties-1)] = g - b2i(rel[i][i] > 0)
	}

	share(&env.Land, chose[Expand], &gain, rng)
	share(&env.Ecology, chose[Develop], &gain, rng)
	env.Ecology += bits.OnesCount32(chose[Adapt])

	// Dispositions: every other living society's toward a conqueror −1,
	// toward a consenter +1.
	regard(rel, chose[Conquer], living, -1)
	regard(rel, chose[Consent], living, 1)

	// Upkeep, in seat order.
	count := bits.OnesCount32(living)
	for set := living; set != 0; set &= set - 1 {
		s := &socs[bits.TrailingZeros32(set)]
		s.Resources += gain[bits.TrailingZeros32(set)&(MaxSocieties-1)] + s.Values.Upkeep()
		if s.Resources >= 0 {
			continue
		}
		short := -s.Resources
		if env.Resources >= short {
			env.Resources -= short
			s.Resources = 0
			continue
		}
		env.Resources = 0
		s.Resources, s.Dead, s.Died = 0, true, turn
		count--
	}
	return count, nil
}

// regard changes by delta the disposition of every other living society
// toward each of the choosers.
func regard(rel [][]int, choosers, living uint32, delta int) {
	for ; choosers != 0; choosers &= choosers - 1 {
		i := bits.TrailingZeros32(choosers)
		for others := living &^ (1 << uint(i)); others != 0; others &= others - 1 {
			rel[bits.TrailingZeros32(others)][i] += delta
		}
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

// undoRises takes back the rise of every living society's choice.
func undoRises(socs []Society, choices []Value) {
	for i := range socs {
		if !socs[i].Dead {
			socs[i].Values[choices[i]]--
		}
	}
}

// share gives what is left of a resource (land or ecology) to the
// contenders, a set of seats, one each, +3 resources each: all of them
// when there is enough, else the first in a random order (see Turn).
func share(left *int, contenders uint32, gain *[MaxSocieties]int, rng *rand.PCG) {
	if bits.OnesCount32(contenders) > *left {
		var order [32]uint8
		k := 0
		for set := contenders; set != 0; set &= set - 1 {
			order[k&31] = uint8(bits.TrailingZeros32(set))
			k++
		}
		for k := k - 1; k > 0; k-- {
			j := int(engine.Below(rng, uint64(k+1)))
			order[k], order[j] = order[j], order[k]
		}
		contenders = 0
		for _, i := range order[:*left] {
			contenders |= 1 << i
		}
	}
	*left -= bits.OnesCount32(contenders)
	for ; contenders != 0; contenders &= contenders - 1 {
		gain[bits.TrailingZeros32(contenders)&(MaxSocieties-1)] += 3
	}
}
