package ajveciv

import (
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Planner is an AI that plans with the rules themselves. For each offered
// choice it plays the game on many times on a copy of the world (Monte Carlo
// playouts), Horizon turns ahead, and takes the choice whose playouts ended
// best on the whole.
//
// In a playout, the offers are dealt from the planner's own dice, never the
// match's. Every other society is taken for what its values say it is: a
// people devoted above all to one value, which it chooses whenever that value
// is offered, and otherwise the first offered choice; at an inflection, that
// value if it is among its three highest, else the highest. (The basic
// AIs are exactly that.) A society devoted equally to several values at the
// top is given one of them at random in each playout. The planner's own
// people, after the choice being weighed, follow a rule of thumb: develop
// (three times the yield of any other value), else exchange (yield that grows
// with every partner who trades back), else consent (goodwill, which spares a
// people raids and wins it trade), else the first offered choice.
//
// A playout ends at the horizon or at the game's end, and is judged by the
// planner's score plus its lead over the best of the other living societies:
// it plays both to score and to win. Every point it gains counts twice, in its
// score and in its lead, and every point it takes from the leader once more.
// Starving is worse than anything: a playout in which its people die counts
// as a loss greater than any score, so the planner takes the choice that
// starves least often, and only then the best.
//
// Every choice of one decision is played out on the same dice (common random
// numbers): the same offers and the same draws among ties, so that the
// comparison is between the choices, not between their luck. The planner is
// deterministic given the match seed and its seat. A decision costs about
// Rollouts × 3 × Horizon turns of the rules: for six societies, with the
// default settings, under a millisecond.
type Planner struct {
	// Rollouts is the number of playouts per offered choice.
	Rollouts int
	// Horizon bounds how many turns a playout looks ahead; 0 plays to the end.
	Horizon int
	// Rules are the laws to plan with; nil means OriginalRules.
	Rules Rules

	seed          uint64 // from the planner's own dice
	decisions     uint64 // decisions made this match
	noInflections bool   // the game was set up without inflections

	// Reused from playout to playout, so that planning allocates nothing.
	world   World
	choices []Value
	aims    []Value
	offers  rand.PCG // deals the offers of a playout (and the aims)
	ties    rand.PCG // breaks the ties of "likes least" and "likes most"
	tieRNG  *rand.Rand
}

// The planner's default settings. More playouts or a longer horizon cost
// time and, against the basic AIs, win nothing more.
const (
	defaultRollouts = 32
	defaultHorizon  = 20
)

// NewPlanner returns a planner with its default settings.
func NewPlanner() *Planner {
	return &Planner{Rollouts: defaultRollouts, Horizon: defaultHorizon}
}

// Init seeds the planner's dice from its seat's seed, and reads whether the
// game has inflections.
func (p *Planner) Init(info engine.MatchInfo) error {
	p.seed = info.RNG().Uint64()
	p.decisions = 0
	on, err := engine.Setup{Options: info.Options}.Bool(Original().Info(), "inflections")
	p.noInflections = err == nil && !on
	return nil
}

// Turn chooses among the offered values by playing each out.
func (p *Planner) Turn(v View) (Value, error) { return p.plan(v), nil }

// Inflection chooses among the three highest values by playing each out.
func (p *Planner) Inflection(v View) (Value, error) { return p.plan(v), nil }

// deathPenalty outweighs any score: a playout in which the planner's people
// starve ranks below every playout in which they live.
const deathPenalty = 1 << 40

// plan plays every offered choice out and returns the best.
func (p *Planner) plan(v View) Value {
	offered := v.Offered()
	if len(offered) <= 1 {
		if len(offered) == 0 {
			return None
		}
		return offered[0]
	}
	rules := p.Rules
	if rules == nil {
		rules = OriginalRules{}
	}
	if p.tieRNG == nil {
		p.tieRNG = rand.New(&p.ties)
	}
	p.decisions++
	// The dice of this decision: playout r of every choice uses streams 2r
	// and 2r+1 of the same seed.
	seed := p.seed + p.decisions*0x9e3779b97f4a7c15
	best, bestTotal := offered[0], int64(0)
	for i, c := range offered {
		var total int64
		for r := range uint64(max(p.Rollouts, 1)) {
			p.offers.Seed(seed, 2*r)
			p.ties.Seed(seed, 2*r+1)
			total += p.playout(rules, v, c)
		}
		if i == 0 || total > bestTotal {
			best, bestTotal = c, total
		}
	}
	return best
}

// playout plays the game on from v, the planner choosing now first, and
// returns how it ended for the planner (see Planner).
func (p *Planner) playout(rules Rules, v View, now Value) int64 {
	w := &p.world
	copyWorld(w, &v.m.world)
	lag := v.m.lag
	lag.settle(w)
	n := len(w.Societies)
	if cap(p.choices) < n {
		p.choices = make([]Value, n)
		p.aims = make([]Value, n)
	}
	choices, aims := p.choices[:n], p.aims[:n]
	for i := range w.Societies {
		aims[i] = p.aim(&w.Societies[i].Values)
	}

	you, turns := v.You(), v.Turns()
	turn, last := v.Turn(), turns
	if p.Horizon > 0 && turn+p.Horizon < last {
		last = turn + p.Horizon
	}
	inflection, first := v.Inflection(), true
	for {
		for i := range w.Societies {
			s := &w.Societies[i]
			// Every society is dealt an offer every turn, living or not and
			// whatever it chose before, so that the offers of a turn are the
			// same for every choice being weighed.
			var o offer
			if inflection {
				top := s.Values.Top()
				o = newOffer(top[0], top[1], top[2])
			} else {
				o = deal(&p.offers)
			}
			switch {
			case s.Dead:
				choices[i] = None
			case i == you && first:
				choices[i] = now
			case i == you:
				choices[i] = o.firstOf(Develop, Exchange, Consent)
			default:
				choices[i] = o.firstOf(aims[i])
			}
		}
		first = false
		var err error
		if inflection {
			err = rules.Inflection(w, choices)
		} else {
			err = rules.Turn(w, choices, p.tieRNG)
		}
		if err != nil {
			return -deathPenalty
		}
		if w.Societies[you].Dead {
			return -deathPenalty + int64(turn)
		}
		if turn >= last || w.Living() == 0 {
			break
		}
		if !inflection && !p.noInflections && turn%InflectionEvery == 0 {
			inflection = true
			continue
		}
		inflection = false
		turn++
	}

	mine, rival := int64(w.Societies[you].Score()), int64(0)
	found := false
	for i := range w.Societies {
		if s := &w.Societies[i]; i != you && !s.Dead && (!found || int64(s.Score()) > rival) {
			rival, found = int64(s.Score()), true
		}
	}
	return mine + (mine - rival)
}

// aim returns the value a society is most devoted to: the one it is taken to
// choose whenever it is offered. When several values share the top, it draws
// one of them from the playout's dice.
func (p *Planner) aim(vs *Values) Value {
	var tied [NumValues]Value
	k, top := 0, vs[0]
	for v, d := range vs {
		switch {
		case d > top:
			top, k = d, 0
			fallthrough
		case d == top:
			tied[k] = Value(v)
			k++
		}
	}
	if k == 1 {
		return tied[0]
	}
	return tied[engine.Below(&p.offers, uint64(k))]
}

// firstOf returns the first of the wanted values that is offered, in the
// order wanted, or else the first offered choice.
func (o *offer) firstOf(wanted ...Value) Value {
	for _, w := range wanted {
		if o.has(w) {
			return w
		}
	}
	return o[0]
}

// copyWorld makes dst a deep copy of src, reusing dst's memory.
func copyWorld(dst, src *World) {
	n := len(src.Societies)
	dst.Yield = src.Yield
	dst.Societies = append(dst.Societies[:0], src.Societies...)
	if cap(dst.Feels) < n {
		dst.Feels = make([][]int, n)
	}
	dst.Feels = dst.Feels[:n]
	for i, row := range src.Feels {
		dst.Feels[i] = append(dst.Feels[i][:0], row...)
	}
}
