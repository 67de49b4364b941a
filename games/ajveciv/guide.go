package ajveciv

import (
	"math"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Guide is an AI that learns how the other societies choose and plays the
// rest of the game out against them before every choice.
//
// What it learns. Every round a society's view shows what each society
// chose in the round before. The guide takes every other society for a
// people that follows a list of priorities, as the basic AIs do: it chooses
// the first of up to three values that is offered, else the first offered
// choice (a list of none is a society that takes whatever comes first, as a
// random player does). It weighs each of the 157 such lists by how likely
// it makes what the society has chosen so far, turn by turn and at every
// inflection (Bayes' rule, with a small allowance for choices no list
// explains), so that after a few turns the lists that fit carry the weight.
//
// How it chooses. Its people follow a rule of thumb that the rules reward:
// develop (three times the yield of any other value); then, when one rival
// is left, conquer (what is raided counts twice, once in its score and once
// in the rival's), else consent (goodwill, which sends raiders to less liked
// societies and keeps the world's yield up); then discover. Before every
// choice it plays the game on to its end, Rollouts times, on a copy of the
// world, first with the rule of thumb's choice and then with each other
// offered value, its people following the rule after it: the other
// societies' offers of the turn and every later offer are dealt from the
// guide's own dice, and each other society follows a list drawn by its
// weight. A playout counts the guide's share of the win (nothing if its
// people starve), plus a little for its lead over the best of the others.
// Every choice is played out on the same dice, and another choice is taken
// only when it beats the rule of thumb's, playout by playout, by more than
// two standard errors: the search corrects the rule only where its
// playouts show the rule wrong, and chance alone never moves it.
//
// It plays with the original rules, whatever the world's. The guide is
// deterministic given the match seed and its seat. A decision costs about
// Rollouts × 3 × (turns left) turns of the rules: about a millisecond at
// the start of a six-society game.
type Guide struct {
	// Rollouts is the number of playouts per offered choice.
	Rollouts int

	seed          uint64 // from the guide's own dice
	decisions     uint64 // decisions made this match
	noInflections bool   // the game was set up without inflections

	// What the guide has learnt: per society, the log-likelihood of each
	// list of priorities. seen is the round of the guide's last decision,
	// whose choices the next view shows; tops are every society's three
	// highest values then, for an inflection's.
	belief  [][numLists]float64
	seen    roundMark
	tops    [][3]Value
	weights [][numLists]float64 // cumulative weights of the decision

	// Reused from playout to playout, so that playing allocates nothing.
	world   World
	choices []Value
	lists   []uint8
	base    []float64
	tops3   []offer
	offers  rand.PCG // deals the offers of a playout
	pick    rand.PCG // draws the other societies' lists
	ties    rand.PCG // breaks the ties of "likes least" and "likes most"
	tieRNG  *rand.Rand
}

// roundMark names a round: the turn of its view, and whether it is an
// inflection.
type roundMark struct {
	turn int
	infl bool
	ok   bool
}

// next reports whether r is the round that follows s, in a game with
// inflections or not.
func (s roundMark) next(r roundMark, inflections bool) bool {
	if !s.ok {
		return false
	}
	if s.infl {
		return !r.infl && r.turn == s.turn+1
	}
	if inflections && s.turn%InflectionEvery == 0 && r.infl {
		return r.turn == s.turn
	}
	return !r.infl && r.turn == s.turn+1
}

// The guide's default settings.
const (
	defaultGuideRollouts = 24
	// guideNoise is the share of every choice the guide leaves to chance
	// when it weighs a list: a list is never ruled out by one surprise.
	guideNoise = 0.05
	// guideLead weighs a playout's lead against its win: a lead as large as
	// the two scores together counts this much of a win.
	guideLead = 0.25
	// guideSureness is how many standard errors a choice's playouts must
	// beat the rule of thumb's by for the guide to take it.
	guideSureness = 2.0
)

// NewGuide returns a guide with its default settings.
func NewGuide() *Guide { return &Guide{Rollouts: defaultGuideRollouts} }

// priorityList is a list of up to three values, chosen in order when
// offered, else the first offered choice.
type priorityList struct {
	order [3]Value
	n     int
}

// choose returns what the list chooses from o.
func (l *priorityList) choose(o *offer) Value {
	for _, v := range l.order[:l.n] {
		if o.has(v) {
			return v
		}
	}
	return o[0]
}

// numLists is the number of priority lists the guide weighs: none, 6 of
// one value, 30 of two and 120 of three.
const numLists = 1 + 6 + 30 + 120

// lists are the priority lists, and listOdds[k][v] the chance that list k
// chooses v on a turn, over the 120 offers.
var lists, listOdds = func() (ls [numLists]priorityList, odds [numLists][NumValues]float64) {
	k := 1
	for a := range Value(NumValues) {
		ls[k] = priorityList{order: [3]Value{a}, n: 1}
		k++
	}
	for a := range Value(NumValues) {
		for b := range Value(NumValues) {
			if b != a {
				ls[k] = priorityList{order: [3]Value{a, b}, n: 2}
				k++
			}
		}
	}
	for a := range Value(NumValues) {
		for b := range Value(NumValues) {
			for c := range Value(NumValues) {
				if b != a && c != a && c != b {
					ls[k] = priorityList{order: [3]Value{a, b, c}, n: 3}
					k++
				}
			}
		}
	}
	for i := range ls {
		for x := range offerTable {
			odds[i][ls[i].choose(&offerTable[x])] += 1.0 / float64(len(offerTable))
		}
	}
	return ls, odds
}()

// Init seeds the guide's dice from its seat's seed, forgets what it learnt
// and reads whether the game has inflections.
func (g *Guide) Init(info engine.MatchInfo) error {
	g.seed = info.RNG().Uint64()
	g.decisions = 0
	g.belief, g.tops, g.seen = nil, nil, roundMark{}
	on, err := engine.Setup{Options: info.Options}.Bool(Original().Info(), "inflections")
	g.noInflections = err == nil && !on
	return nil
}

// Turn chooses among the offered values by playing each out.
func (g *Guide) Turn(v View) (Value, error) { return g.decide(v), nil }

// Inflection chooses among the three highest values by playing each out.
func (g *Guide) Inflection(v View) (Value, error) { return g.decide(v), nil }

// decide learns from the last round and plays every offered choice out.
func (g *Guide) decide(v View) Value {
	offered := v.Offered()
	if len(offered) == 0 {
		return None
	}
	g.learn(v)
	if len(offered) == 1 {
		return offered[0]
	}
	if g.tieRNG == nil {
		g.tieRNG = rand.New(&g.ties)
	}
	g.decisions++
	g.prepareWeights()
	seed := g.seed + g.decisions*0x9e3779b97f4a7c15
	rollouts := max(g.Rollouts, 2)
	if cap(g.base) < rollouts {
		g.base = make([]float64, rollouts)
	}
	base := g.base[:rollouts]
	mine := g.own(v.offer(), v.m.living)
	g.playAll(v, mine, seed, base)
	// Another choice is taken only when its playouts beat the rule of
	// thumb's, on the same dice, by more than chance would explain.
	best, bestGain := mine, 0.0
	for _, c := range offered {
		if c == mine {
			continue
		}
		var sum, sq float64
		for r, b := range base {
			d := g.playoutOn(v, c, seed, r) - b
			sum += d
			sq += d * d
		}
		k := float64(rollouts)
		mean := sum / k
		spread := math.Sqrt(max(sq/k-mean*mean, 0) / (k - 1))
		if mean > guideSureness*spread && mean > bestGain {
			best, bestGain = c, mean
		}
	}
	return best
}

// playAll plays choice c out once per entry of out, on the dice of seed.
func (g *Guide) playAll(v View, c Value, seed uint64, out []float64) {
	for r := range out {
		out[r] = g.playoutOn(v, c, seed, r)
	}
}

// playoutOn plays choice c out on the dice of playout r of seed.
func (g *Guide) playoutOn(v View, c Value, seed uint64, r int) float64 {
	u := uint64(r)
	g.offers.Seed(seed, 3*u)
	g.ties.Seed(seed, 3*u+1)
	g.pick.Seed(seed, 3*u+2)
	return g.playout(v, c)
}

// learn reads the choices of the round before, when it was the guide's
// last decision, into its beliefs, and notes this round.
func (g *Guide) learn(v View) {
	m := v.m
	n := len(m.world.Societies)
	if len(g.belief) != n {
		g.belief = make([][numLists]float64, n)
		g.tops = make([][3]Value, n)
		g.weights = make([][numLists]float64, n)
		g.seen = roundMark{}
	}
	now := roundMark{turn: v.Turn(), infl: v.Inflection(), ok: true}
	if g.seen.next(now, !g.noInflections) && m.lastInfl == g.seen.infl {
		for i, c := range m.last {
			if i == v.you || !c.Valid() {
				continue
			}
			g.observe(i, c, g.seen.infl)
		}
	}
	g.seen = now
	for i := range m.world.Societies {
		g.tops[i] = m.world.Societies[i].Values.Top()
	}
}

// observe weighs every list of society i by the chance it gives to choice
// c, at an inflection or a turn.
func (g *Guide) observe(i int, c Value, inflection bool) {
	b := &g.belief[i]
	if inflection {
		top := g.tops[i]
		o := newOffer(top[0], top[1], top[2])
		hit, miss := math.Log(1-guideNoise+guideNoise/3), math.Log(guideNoise/3)
		for k := range lists {
			if lists[k].choose(&o) == c {
				b[k] += hit
			} else {
				b[k] += miss
			}
		}
		return
	}
	for k := range lists {
		b[k] += math.Log((1-guideNoise)*listOdds[k][c] + guideNoise/NumValues)
	}
}

// prepareWeights turns the beliefs into cumulative weights, one row per
// society, for drawing lists.
func (g *Guide) prepareWeights() {
	for i := range g.belief {
		b, w := &g.belief[i], &g.weights[i]
		top := math.Inf(-1)
		for _, x := range b {
			top = max(top, x)
		}
		sum := 0.0
		for k, x := range b {
			sum += math.Exp(x - top)
			w[k] = sum
		}
	}
}

// drawList draws a list for society i by its weight.
func (g *Guide) drawList(i int) uint8 {
	w := &g.weights[i]
	x := float64(g.pick.Uint64()>>11) / (1 << 53) * w[numLists-1]
	lo, hi := 0, numLists-1
	for lo < hi {
		mid := (lo + hi) / 2
		if w[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uint8(lo)
}

// own is the guide's rule of thumb for its people in a playout: develop;
// then conquer when one rival is left, else consent; then discover; else
// the first offered choice. living is the number of living societies.
func (g *Guide) own(o *offer, living int) Value {
	if living <= 2 {
		return o.firstOf(Develop, Conquer, Discover)
	}
	return o.firstOf(Develop, Consent, Discover)
}

// playout plays the game on from v to its end, the guide choosing now
// first, and returns how it ended for the guide (see Guide).
func (g *Guide) playout(v View, now Value) float64 {
	w := &g.world
	copyWorld(w, &v.m.world)
	lag := v.m.lag
	n := len(w.Societies)
	if cap(g.choices) < n {
		g.choices = make([]Value, n)
		g.lists = make([]uint8, n)
	}
	choices, ls := g.choices[:n], g.lists[:n]
	you := v.You()
	for i := range ls {
		if i != you {
			ls[i] = g.drawList(i)
		}
	}
	turns, inflections := v.Turns(), !g.noInflections
	done := v.Turn() // turns completed
	inflection := v.Inflection()
	if !inflection {
		done--
	}
	living, first := v.m.living, true
	for {
		for i := range w.Societies {
			s := &w.Societies[i]
			if s.Dead {
				choices[i] = None
				continue
			}
			var o offer
			switch {
			case i == you && first:
				choices[i] = now
				continue
			case inflection:
				t := s.Values.Top()
				o = newOffer(t[0], t[1], t[2])
			default:
				o = deal(&g.offers)
			}
			if i == you {
				choices[i] = g.own(&o, living)
			} else {
				choices[i] = lists[ls[i]].choose(&o)
			}
		}
		first = false
		if inflection {
			originalInflection(w.Societies, choices, g.offersOf(w))
			inflection = false
			continue
		}
		living, _ = originalTurn(w, choices, g.tieRNG, &lag)
		done++
		if w.Societies[you].Dead {
			return -guideLead
		}
		if living == 1 {
			return 1 + guideLead
		}
		if done >= turns {
			break
		}
		inflection = inflections && done%InflectionEvery == 0
	}
	return g.judge(w, you)
}

// offersOf returns every society's three highest values, as an inflection
// offers them.
func (g *Guide) offersOf(w *World) []offer {
	o := g.tops3[:0]
	for i := range w.Societies {
		t := w.Societies[i].Values.Top()
		o = append(o, newOffer(t[0], t[1], t[2]))
	}
	g.tops3 = o
	return o
}

// judge scores a finished playout for the guide at seat you: its share of
// the win, plus guideLead times its lead over the best other living
// society, as a share of the two scores.
func (g *Guide) judge(w *World, you int) float64 {
	mine := float64(w.Societies[you].Score())
	rival, found := 0.0, false
	win, tied := 1.0, 1.0
	for i := range w.Societies {
		s := &w.Societies[i]
		if i == you || s.Dead {
			continue
		}
		x := float64(s.Score())
		if !found || x > rival {
			rival, found = x, true
		}
		switch {
		case x > mine:
			win = 0
		case x == mine:
			tied++
		}
	}
	lead := (mine - rival) / (1 + math.Abs(mine) + math.Abs(rival))
	return win/tied + guideLead*lead
}
