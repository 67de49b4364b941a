package ajveciv

import (
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Planner is an AI that plans with the rules themselves (Monte Carlo).
type Planner struct {
	// Rollouts is the number of playouts per offered choice.
	Rollouts int
	// Horizon bounds how many turns a playout looks ahead; 0 plays to the end.
	Horizon int
	// Rules are the laws to plan with; nil means OriginalRules.
	Rules Rules

	selfPolicy int // experiment
	rivalModel int // experiment
	winBonus   int64
	margin     bool

	seed    uint64
	draws   uint64
	world   World
	choices []Value
	aims    []Value
}

// NewPlanner returns a planner with its default settings.
func NewPlanner() *Planner { return &Planner{Rollouts: 12, Horizon: 40} }

// Init seeds the planner's dice from the match seed and its seat.
func (p *Planner) Init(info engine.MatchInfo) error {
	p.seed = engine.SeatRNG(info.Setup.Seed, info.Seat).Uint64()
	p.draws = 0
	return nil
}

// Turn chooses among the offered values by playing each out.
func (p *Planner) Turn(v View) (Value, error) { return p.plan(v), nil }

// Inflection chooses among the three highest values by playing each out.
func (p *Planner) Inflection(v View) (Value, error) { return p.plan(v), nil }

// deathPenalty outweighs any score: a society that starves ranks last.
const deathPenalty = 1 << 40

func (p *Planner) plan(v View) Value {
	offered := v.Offered()
	if len(offered) == 1 {
		return offered[0]
	}
	rules := p.Rules
	if rules == nil {
		rules = OriginalRules{}
	}
	p.draws++
	w := &v.m.world
	n := len(w.Societies)
	p.aims = p.aims[:0]
	for i := range n {
		p.aims = append(p.aims, aim(&w.Societies[i].Values))
	}
	best, bestScore := offered[0], int64(0)
	for i, c := range offered {
		var total int64
		for r := 0; r < p.Rollouts; r++ {
			// Common random numbers: rollout r uses the same dice for every choice.
			pcg := rand.NewPCG(p.seed^p.draws, uint64(r))
			ties := rand.NewPCG(p.seed^p.draws, uint64(r)|1<<32)
			total += p.playout(rules, v, c, pcg, ties)
		}
		if i == 0 || total > bestScore {
			best, bestScore = c, total
		}
	}
	return best
}

// aim returns the value a society is most devoted to, or None when no one
// value leads.
func aim(vs *Values) Value {
	best, tie := Value(0), false
	for v := Value(1); v < NumValues; v++ {
		switch {
		case vs[v] > vs[best]:
			best, tie = v, false
		case vs[v] == vs[best]:
			tie = true
		}
	}
	if tie {
		return None
	}
	return best
}

func (p *Planner) rivalChoice(i int, s *Society, o []Value) Value {
	switch p.rivalModel {
	case 1:
		return habit(&s.Values, o)
	}
	a := p.aims[i]
	for _, x := range o {
		if x == a {
			return a
		}
	}
	return o[0]
}

func (p *Planner) selfChoice(s *Society, o []Value) Value {
	switch p.selfPolicy {
	case 1:
		a := aim(&s.Values)
		for _, x := range o {
			if x == a {
				return a
			}
		}
		return o[0]
	case 2:
		// develop, else the most devoted of conquer/exchange/discover/expand
		for _, x := range o {
			if x == Develop {
				return x
			}
		}
		best := None
		for _, x := range o {
			if x == Consent {
				continue
			}
			if best == None || s.Values[x] > s.Values[best] {
				best = x
			}
		}
		if best == None {
			return o[0]
		}
		return best
	}
	return habit(&s.Values, o)
}

// playout plays the rest of the game from v with the planner choosing first
// now, and returns how that ended for it.
func (p *Planner) playout(rules Rules, v View, now Value, pcg, ties *rand.PCG) int64 {
	w := &p.world
	copyWorld(w, &v.m.world)
	n := len(w.Societies)
	if cap(p.choices) < n {
		p.choices = make([]Value, n)
	}
	choices := p.choices[:n]
	rng := rand.New(ties)

	you, vturn, turns := v.You(), v.Turn(), v.Turns()
	turn, last := vturn, turns
	if p.Horizon > 0 && turn+p.Horizon < last {
		last = turn + p.Horizon
	}
	inflection := v.Inflection()
	first := true
	for {
		for i := range w.Societies {
			s := &w.Societies[i]
			var o []Value
			if inflection {
				top := s.Values.Top()
				o = top[:]
			} else {
				offer := deal(pcg)
				o = offer[:3]
			}
			switch {
			case s.Dead:
				choices[i] = None
			case i == you && first:
				choices[i] = now
			case i == you:
				choices[i] = p.selfChoice(s, o)
			default:
				choices[i] = p.rivalChoice(i, s, o)
			}
		}
		first = false
		var err error
		if inflection {
			err = rules.Inflection(w, choices)
		} else {
			err = rules.Turn(w, choices, rng)
		}
		if err != nil {
			return -deathPenalty
		}
		me := &w.Societies[you]
		if me.Dead {
			return -deathPenalty + int64(turn)
		}
		if w.Living() == 0 || turn >= last {
			break
		}
		if !inflection && turn%InflectionEvery == 0 && turn < turns {
			inflection = true
			continue
		}
		inflection = false
		turn++
	}
	mine := int64(w.Societies[you].Score())
	var rival int64 = -deathPenalty
	for i := range w.Societies {
		if s := &w.Societies[i]; i != you && !s.Dead {
			rival = max(rival, int64(s.Score()))
		}
	}
	score := mine
	if p.margin {
		score = mine - rival
	}
	if mine > rival {
		score += p.winBonus
	}
	return score
}

// habit chooses the most devoted of the offered values, the first on ties.
func habit(values *Values, offered []Value) Value {
	best := offered[0]
	for _, o := range offered[1:] {
		if values[o] > values[best] {
			best = o
		}
	}
	return best
}

// deal draws three distinct values the way the game does: one draw k in
// [0, 120), read through the offer table.
func deal(pcg *rand.PCG) offer { return offerTable[engine.Below(pcg, 120)] }

// offer is the three values offered to a society, and None: four bytes copy
// and compare faster than three.
type offer [4]Value

// has reports whether v is one of the three offered values, without a
// branch: it looks for a zero byte in the offer xor v in every byte.
func (o *offer) has(v Value) bool {
	x := uint32(o[0]) | uint32(o[1])<<8 | uint32(o[2])<<16 | uint32(o[3])<<24
	x ^= uint32(v) * 0x01010101
	return v.Valid() && (x-0x01010101)&^x&0x80808080 != 0
}

// dealGroup is how many societies one draw deals; 120^9 < 2^64.
const dealGroup = 9

// dealSpan[g] is 120^g.
var dealSpan = func() (p [dealGroup + 1]uint64) {
	p[0] = 1
	for g := 1; g <= dealGroup; g++ {
		p[g] = p[g-1] * 120
	}
	return p
}()

// noOffer is the offer of a society that has nothing to choose.
var noOffer = offer{None, None, None, None}

// offerTable[k] is the offer that draw k stands for: the first three values
// of a partial Fisher–Yates shuffle of the six, in the seed's order, at
// positions (k mod 6, k/6 mod 5, k/30).
var offerTable = func() (t [120]offer) {
	for k := range t {
		deck, x := AllValues, k
		for pos, span := range [3]int{6, 5, 4} {
			j := pos + x%span
			x /= span
			deck[pos], deck[j] = deck[j], deck[pos]
		}
		t[k] = offer{deck[0], deck[1], deck[2], None}
	}
	return t
}()

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
