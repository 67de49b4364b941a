package reaj

import (
	"fmt"
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
	socs, rel := st.Societies, st.Relations
	n := len(socs)
	if len(choices) != n || len(rel) != n {
		return fmt.Errorf("reaj: %d choices and %d rows of relations for %d societies", len(choices), len(rel), n)
	}
	if n > MaxSocieties {
		return fmt.Errorf("reaj: %d societies; the rules take at most %d", n, MaxSocieties)
	}
	if err := checkChoices(socs, choices); err != nil {
		return err
	}
	env := &st.Environment
	env.Resources += max(0, env.Ecology)
	var t turnScratch
	t.rise(socs, choices)
	t.gains(st, choices)
	t.share(&env.Land, t.expanders[:t.expanding], rng)
	t.share(&env.Ecology, t.developers[:t.developing], rng)
	env.Ecology += t.adapting
	t.regard(rel, choices)
	for i := range socs {
		socs[i].Resources += t.gain[i]
	}
	t.upkeep(st, turn)
	return nil
}

// turnScratch is what one turn works out before it changes the state. It
// lives on the stack.
type turnScratch struct {
	living     [MaxSocieties]int // the living, in seat order
	count      int
	gain       [MaxSocieties]int // each society's resources gained this turn
	expanders  [MaxSocieties]int // who expands, in seat order
	expanding  int
	developers [MaxSocieties]int // who develops, in seat order
	developing int
	adapting   int // how many adapt
}

// checkChoices returns a *engine.RuleError unless every living society
// chooses a value and every dead one None. It changes nothing, so a refused turn leaves the
// state as it was.
func checkChoices(socs []Society, choices []Value) error {
	for i := range socs {
		switch c := choices[i]; {
		case socs[i].Dead && c != None:
			return engine.Refuse("dead", "society %d is dead and cannot choose %v; its choice must be null", i+1, c)
		case !socs[i].Dead && !c.Valid():
			return engine.Refuse("missing", "society %d is alive and must choose a value", i+1)
		}
	}
	return nil
}

// rise raises each living society's chosen value, and notes who is living
// and who expands, develops and adapts.
func (t *turnScratch) rise(socs []Society, choices []Value) {
	for i := range socs {
		s, c := &socs[i], choices[i]
		if s.Dead {
			continue
		}
		s.Values[c]++
		t.living[t.count] = i
		t.count++
		switch c {
		case Expand:
			t.expanders[t.expanding] = i
			t.expanding++
		case Develop:
			t.developers[t.developing] = i
			t.developing++
		case Adapt:
			t.adapting++
		}
	}
}

// gains works out what conquer and exchange bring, from the state after the
// rises and before any effect.
func (t *turnScratch) gains(st *State, choices []Value) {
	socs, rel := st.Societies, st.Relations
	for _, i := range t.living[:t.count] {
		switch choices[i] {
		case Conquer:
			mine := socs[i].Values[Conquer]
			for j := range socs {
				if j != i && socs[j].Values[Conquer] < mine {
					t.gain[i]++
				}
			}
		case Exchange:
			for j, row := range rel {
				if j != i && row[i] > 0 {
					t.gain[i]++
				}
			}
		}
	}
}

// share gives what is left of a resource (land or ecology) to the
// contenders, one each, +3 resources each: all of them when there is enough,
// else the first in a random order.
func (t *turnScratch) share(left *int, contenders []int, rng *rand.PCG) {
	if len(contenders) > *left {
		for k := len(contenders) - 1; k > 0; k-- {
			j := int(engine.Below(rng, uint64(k+1)))
			contenders[k], contenders[j] = contenders[j], contenders[k]
		}
		contenders = contenders[:*left]
	}
	*left -= len(contenders)
	for _, i := range contenders {
		t.gain[i] += 3
	}
}

// regard changes dispositions: every other living society's toward a
// conqueror −1, toward a consenter +1.
func (t *turnScratch) regard(rel [][]int, choices []Value) {
	living := t.living[:t.count]
	for _, i := range living {
		delta := 0
		switch choices[i] {
		case Conquer:
			delta = -1
		case Consent:
			delta = 1
		default:
			continue
		}
		for _, j := range living {
			if j != i {
				rel[j][i] += delta
			}
		}
	}
}

// upkeep charges every living society, in seat order, its adapt less its
// expand and develop; the short draw on the environment, and die if it runs
// out.
func (t *turnScratch) upkeep(st *State, turn int) {
	env := &st.Environment
	for _, i := range t.living[:t.count] {
		s := &st.Societies[i]
		s.Resources += s.Values.Upkeep()
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
	}
}
