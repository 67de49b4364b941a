package tncc

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// General returns a bot that plans by playing the rules ahead.
//
// On its turn it weighs a few dozen plans: to wait; to recruit or disband
// to an army of none, one that holds or beats in thirds the blow of a rival
// that could pay for a war, one more than the smallest army, one its people
// can feed, or half or almost all of its people; the last three and the
// army it has followed, at its next turn, by a war with the whole army on
// one flank on a rival whose army in thirds it would beat; and, when it can
// pay for one, a war now on each rival with its army on one flank, in
// thirds or in two halves. It plays each plan with the rules themselves (World.Recruit,
// War, Produce) on a copy of the world: the defender answers a war in
// thirds or in two halves, and a war scores its worse line; then the rest
// of the cycle and two more cycles, production between, in which every
// rival that can pay for a war and has gone to war before (or has made most
// of its people soldiers) raids with all its soldiers on one flank. Half the
// weight goes to a world where every raider attacks the country with the
// smallest army, half to one where the largest raider attacks the general.
//
// A line scores its end: a dead general the least, earlier deaths less;
// otherwise its people (citizens the land holds, and soldiers), its land,
// its gold (up to a war and a cycle's upkeep, a tenth beyond) and food, a
// cycle of growth and making less upkeep, less a famine it is heading to;
// less a share of each rival's citizens and soldiers, and plus a bonus for
// each dead rival, counting in full the rivals that have gone to war or
// made most of their people soldiers and a fifth the others.
//
// It defends by the same rules: against an attack of s soldiers, whose
// split it is not told, it tries a few splits of its army and keeps the one
// whose worst outcome, over the ways s can be split, scores best. It
// accepts a trade that raises its score of the world as it stands.
//
// It keeps its buffers from one decision to the next: a decision allocates
// nothing once they have grown.
func General() Bot { return &general{} }

// Marshal returns the general that also fears a call to arms. Its lines
// of play have a third world, weighed a hundredth of the half that goes to
// the one where the largest raider attacks it: there, besides, a rival
// that has called its people to arms before (made soldiers of as many
// citizens as it kept, and gone to war at its next turn, as blitz does)
// and could pay for a war and a cycle of upkeep does it again: it makes
// almost all its citizens soldiers at its turn and raids with them at its
// next. Against such a rival it strikes
// first, or arms in time, where the general waits.
func Marshal() Bot { return &general{mobilize: true} }

const (
	// searchCycles is how many productions a line of play runs to: the one
	// that ends this cycle and two more.
	searchCycles = 3
	// famineCycles is how many cycles of food the general wants in store
	// when it spends more than it makes.
	famineCycles = 10
	// harmless is how much a rival that has not gone to war (nor made most
	// of its people soldiers) counts, against one that has.
	harmless = 0.2
	// callWeight is the share, for the marshal, of the world where the
	// largest raider attacks it that goes to the one where rivals at war
	// call their people to arms.
	callWeight = 0.01
)

type general struct {
	// mobilize says that rivals may call their people to arms in a line
	// of play (see Marshal).
	mobilize bool

	rng  *rand.PCG
	me   int
	base World // the world of the view, in buffers the bot keeps
	sim  World // a line of play under way
	save []Country
	w    weights

	// warlike[i] says seat i has gone to war; seen is how many history
	// entries have been read. hostile[i] says, for the turn, that rival i
	// has gone to war or has made most of its people soldiers.
	warlike [MaxCountries]bool
	hostile [MaxCountries]bool
	// calledUp[i] says that seat i has called its people to arms and gone
	// to war at its next turn: it recruited at least as many citizens as
	// it kept, then attacked. calling[i] says that its last action was
	// such a recruit.
	calledUp [MaxCountries]bool
	calling  [MaxCountries]bool
	seen     int

	// plans are a turn's candidates, sizes the army sizes they try.
	plans []plan
	sizes []int64
	// In a line of play: the seat the plan attacks at the general's next
	// turn (or −1), and whether the largest raider attacks the general
	// (otherwise every raider attacks the smallest army).
	then      int
	targetsMe bool
	// callWorld says that rivals may call their people to arms in the line
	// (the marshal's third world), and called[i] that rival i has.
	callWorld bool
	called    [MaxCountries]bool
}

// plan is a candidate of the general's turn: an action now and, if then is
// a seat, a war on it with the whole army at its next turn.
type plan struct {
	now  Move
	then int
}

// weights turn a world into a score, in people (citizens or soldiers).
type weights struct {
	land      float64 // per land: half the people it holds
	gold      float64 // per gold, up to a war and a cycle's upkeep
	goldMore  float64 // per gold beyond that
	food      float64 // per food
	rival     float64 // per citizen of a rival, taken off
	rivalArmy float64 // per soldier of a rival, taken off
	kill      float64 // per dead rival
}

func weightsOf(p *Preset) weights {
	people := float64(max(p.Start[Citizens]+p.Start[Army], 1))
	w := weights{
		land:      0.5 * ratioFloat(p.LandCapacity),
		gold:      0.1 * people / float64(max(p.GoldForWar, 1)),
		food:      0.02 * people / float64(max(p.Start[Food], 1)),
		rival:     0.25,
		rivalArmy: 0.6,
		kill:      0.5 * people,
	}
	w.goldMore = w.gold / 10
	return w
}

func ratioFloat(r Ratio) float64 { return float64(r.Num) / float64(r.den()) }

func (b *general) Init(info engine.MatchInfo) error {
	b.rng = info.RNG()
	b.seen, b.warlike, b.calledUp, b.calling = 0, [MaxCountries]bool{}, [MaxCountries]bool{}, [MaxCountries]bool{}
	return nil
}

// Bounded reports that the general answers at once: it plays a bounded
// number of short lines.
func (*general) Bounded() bool { return true }

// loadWorld copies the view's world into w, in w's own buffers: what
// View.World does, without allocating once w has grown to size.
func loadWorld(w *World, v View) {
	w.Preset = *v.preset()
	w.Cycle = v.Cycle()
	w.Countries = w.Countries[:0]
	for i := range v.Countries() {
		w.Countries = append(w.Countries, v.Country(i))
	}
}

// load reads the view: the world, into the bot's own buffers, and the
// history it has not read yet.
func (b *general) load(v View) {
	b.me = v.You()
	loadWorld(&b.base, v)
	if v.Len() < b.seen { // a new match without Init
		b.seen, b.warlike, b.calledUp, b.calling = 0, [MaxCountries]bool{}, [MaxCountries]bool{}, [MaxCountries]bool{}
	}
	for ; b.seen < v.Len(); b.seen++ {
		e := v.Entry(b.seen)
		if e.Seat < 0 || e.Seat >= len(b.base.Countries) {
			continue
		}
		i := e.Seat
		b.calledUp[i] = b.calledUp[i] || b.calling[i] && e.Type == War
		// Read soon after it was made, a recruit's citizens kept are about
		// those the country has now.
		b.calling[i] = e.Type == Recruit && e.N > 0 && e.N >= b.base.Countries[i].Stock[Citizens]
		if e.Type == War {
			b.warlike[i] = true
		}
	}
	for i := range b.base.Countries {
		a := b.base.Countries[i].Stock[Army]
		b.hostile[i] = b.warlike[i] || a > 0 && a >= b.base.Countries[i].Stock[Citizens]
	}
	b.sim.Preset = b.base.Preset
	b.w = weightsOf(&b.base.Preset)
	if b.rng == nil {
		b.rng = engine.SeatRNG(0, b.me)
	}
}

// restore starts a line of play from the view's world.
func (b *general) restore() {
	b.sim.Cycle = b.base.Cycle
	b.sim.Countries = append(b.sim.Countries[:0], b.base.Countries...)
}

func (b *general) Turn(v View) (Move, error) {
	b.load(v)
	b.candidates()
	best, bestScore := WaitMove, math.Inf(-1)
	for _, pl := range b.plans {
		if s := b.evaluate(pl); s > bestScore {
			best, bestScore = pl.now, s
		}
	}
	if best.Type == War {
		// Which flank takes the weight is the seat's dice's: which flank a
		// defender leaves short is its own.
		k := engine.Below(b.rng, 3)
		best.Flanks = Flanks{best.Flanks[k], best.Flanks[(k+1)%3], best.Flanks[(k+2)%3]}
	}
	if b.base.Check(b.me, best) != nil {
		return WaitMove, nil
	}
	return best, nil
}

// candidates lists the turn's plans (see General).
func (b *general) candidates() {
	b.plans, b.sizes = b.plans[:0], b.sizes[:0]
	w, me := &b.base, b.me
	c := &w.Countries[me]
	army := c.Stock[Army]
	pop := army + c.Stock[Citizens]
	size := func(t int64) {
		if t = min(max(t, 0), pop-1); !slices.Contains(b.sizes, t) {
			b.sizes = append(b.sizes, t)
		}
	}
	p := &w.Preset
	size(army)
	size(pop / 2)
	size(pop - max(pop/20, 1))
	size(feedable(p, c.Stock))
	strikes := len(b.sizes) // the sizes above may strike at the next turn
	size(0)
	smallest := int64(-1)
	for i := range w.Countries {
		r := &w.Countries[i]
		if i == me || r.Dead {
			continue
		}
		a := r.Stock[Army]
		if smallest < 0 || a < smallest {
			smallest = a
		}
		// Armies to meet the blow of a rival that could pay for a war by
		// the next cycle.
		if a > 0 && r.Stock[Gold]+p.GoldPerCitizen.Floor(r.Stock[Citizens]) >= p.GoldForWar {
			hold, win := b.holding(a)
			size(hold)
			size(win)
		}
	}
	if smallest >= 0 {
		size(smallest + 1)
	}
	for k, t := range b.sizes {
		now := WaitMove
		if t != army {
			now = RecruitMove(t - army)
		}
		b.plans = append(b.plans, plan{now, -1})
		// Strikes at the next turn, on a rival whose army in thirds the
		// army would beat now.
		if k >= strikes || t == 0 {
			continue
		}
		for i := range w.Countries {
			r := &w.Countries[i]
			if i == me || r.Dead {
				continue
			}
			if left, _ := Fight(Flanks{t, 0, 0}, Thirds(r.Stock[Army]), p.DefendAdvantage, p.AttackAdvantage); left > 0 {
				b.plans = append(b.plans, plan{now, i})
			}
		}
	}
	if army > 0 && c.Stock[Gold] >= p.GoldForWar {
		for i := range w.Countries {
			if i == me || w.Countries[i].Dead {
				continue
			}
			b.plans = append(b.plans,
				plan{WarMove(i, Flanks{army, 0, 0}), -1},
				plan{WarMove(i, Thirds(army)), -1},
				plan{WarMove(i, Flanks{army / 2, army - army/2, 0}), -1})
		}
	}
}

// holding returns the smallest armies that, in thirds, hold a blow of a
// soldiers on one flank to a tie, and that beat it.
func (b *general) holding(a int64) (hold, win int64) {
	p := &b.base.Preset
	least := func(won bool) int64 {
		lo, hi := int64(0), 2*a+3
		for lo < hi {
			mid := lo + (hi-lo)/2
			att, def := Fight(Flanks{a, 0, 0}, Thirds(mid), p.DefendAdvantage, p.AttackAdvantage)
			if att == 0 && (!won || def > 0) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo
	}
	return least(false), least(true)
}

// evaluate scores a plan by the lines of play it starts; a war scores its
// worse line over the defences the target might put up.
func (b *general) evaluate(pl plan) float64 {
	me, mv := b.me, pl.now
	b.restore()
	switch mv.Type {
	case Recruit:
		b.sim.Recruit(me, mv.N)
	case War:
		d := b.base.Countries[mv.Target].Stock[Army]
		half := d / 2
		worst := math.Inf(1)
		for _, def := range [...]Flanks{Thirds(d), {0, half, d - half}, {half, d - half, 0}} {
			b.restore()
			b.sim.War(me, mv, def)
			worst = min(worst, b.lines(me+1, -1))
		}
		return worst
	}
	return b.lines(me+1, pl.then)
}

// lines plays on from b.sim twice, once in each world of raiders, and
// returns the mean of the two scores.
func (b *general) lines(from, then int) float64 {
	b.save = append(b.save[:0], b.sim.Countries...)
	cycle := b.sim.Cycle
	b.then, b.targetsMe, b.callWorld = then, false, false
	x := b.line(from)
	b.sim.Countries = append(b.sim.Countries[:0], b.save...)
	b.sim.Cycle = cycle
	b.then, b.targetsMe = then, true
	y := b.line(from)
	if !b.mobilize {
		return (x + y) / 2
	}
	b.sim.Countries = append(b.sim.Countries[:0], b.save...)
	b.sim.Cycle = cycle
	b.then, b.callWorld = then, true
	z := b.line(from)
	b.callWorld = false
	if b.called == [MaxCountries]bool{} { // nobody called: the second world again
		return (x + y) / 2
	}
	return x/2 + (1-callWeight)*y/2 + callWeight*z/2
}

// line plays the world on from seat from's turn to the end of the cycle,
// then searchCycles−1 more cycles, and scores it.
func (b *general) line(from int) float64 {
	w := &b.sim
	b.called = [MaxCountries]bool{}
	for range searchCycles {
		for j := from; j < len(w.Countries); j++ {
			switch {
			case w.Countries[j].Dead:
			case w.Living() <= 1:
				return b.score()
			case j == b.me:
				b.myTurn()
			default:
				b.raid(j)
			}
		}
		w.Produce()
		from = 0
		if w.Cycle > w.Preset.MaxCycles || w.Living() <= 1 {
			break
		}
	}
	return b.score()
}

// myTurn is the general's own turn further down a line: the war its plan
// makes, with its whole army on one flank against the defender's army in
// thirds, if it can pay for it; otherwise a wait.
func (b *general) myTurn() {
	w := &b.sim
	t := b.then
	b.then = -1
	c := &w.Countries[b.me]
	if t < 0 || w.Countries[t].Dead || c.Stock[Army] == 0 || c.Stock[Gold] < w.Preset.GoldForWar {
		return
	}
	w.War(b.me, WarMove(t, Flanks{c.Stock[Army], 0, 0}), Thirds(w.Countries[t].Stock[Army]))
}

// raid is a rival's turn as the general fears it: if it could go to war and
// might (see fearsome), it attacks with all its soldiers on the defender's
// shortest flank, and the defender answers in thirds. Its target is the
// general if targetsMe and it is the largest raider; otherwise the country
// with the smallest army (the general on ties).
func (b *general) raid(j int) {
	if !b.fearsome(j) {
		b.callToArms(j)
		return
	}
	w := &b.sim
	t := b.me
	if !b.targetsMe || j != b.largest() {
		for i := range w.Countries {
			r := &w.Countries[i]
			if i != j && !r.Dead && r.Stock[Army] < w.Countries[t].Stock[Army] {
				t = i
			}
		}
	}
	w.War(j, WarMove(t, Flanks{w.Countries[j].Stock[Army], 0, 0}), Thirds(w.Countries[t].Stock[Army]))
}

// callToArms is, in the marshal's third world, rival j's turn when it is
// not fearsome: if it has called its people to arms before (calledUp),
// has not in this line, and could pay for a war and a cycle of the army's
// upkeep, it makes all but a twentieth of its citizens soldiers, when that
// more than doubles its army, and is fearsome at its next turn.
func (b *general) callToArms(j int) {
	if !b.callWorld || !b.calledUp[j] || b.called[j] {
		return
	}
	w := &b.sim
	p := &w.Preset
	s := &w.Countries[j].Stock
	n := s[Citizens] - max(s[Citizens]/20, 1)
	if n <= s[Army] || s[Gold] < p.GoldForWar+p.GoldPerSoldier.Floor(s[Army]+n) || s[Food] <= p.FoodPerSoldier.Floor(s[Army]+n) {
		return
	}
	b.called[j] = true
	w.Recruit(j, n)
}

// fearsome reports whether rival i, in the line of play, could go to war
// and might: it has the gold and at least 3 soldiers, and it has gone to
// war before or has made most of its people soldiers.
func (b *general) fearsome(i int) bool {
	w := &b.sim
	r := &w.Countries[i]
	return !r.Dead && r.Stock[Army] >= 3 && r.Stock[Gold] >= w.Preset.GoldForWar &&
		(b.warlike[i] || r.Stock[Army] >= r.Stock[Citizens])
}

// largest returns the fearsome rival with the largest army, the first in
// seat order on ties; or −1.
func (b *general) largest() int {
	w := &b.sim
	best := -1
	for i := range w.Countries {
		if i != b.me && b.fearsome(i) && (best < 0 || w.Countries[i].Stock[Army] > w.Countries[best].Stock[Army]) {
			best = i
		}
	}
	return best
}

// score values the world of a line of play for the general (see General).
func (b *general) score() float64 {
	w := &b.sim
	p := &w.Preset
	c := &w.Countries[b.me]
	if c.Dead {
		return -1e15 + 1e9*float64(c.Died)
	}
	s := &c.Stock
	room := max(0, p.LandCapacity.Floor(s[Land])-s[Army])
	cit := min(s[Citizens], room) // the rest go at production
	v := float64(cit+s[Army]) + b.w.land*float64(s[Land])
	need := p.GoldForWar + p.GoldPerSoldier.Floor(s[Army])
	v += b.w.gold*float64(min(s[Gold], need)) + b.w.goldMore*float64(max(0, s[Gold]-need))
	v += b.w.food * float64(s[Food])
	// A cycle more: growth up to the land's room, and what the citizens
	// make less what the soldiers cost.
	v += float64(min(p.Growth.Floor(cit), room) - cit)
	v += b.w.food*float64(p.FoodPerCitizen.Floor(cit)-p.FoodPerSoldier.Floor(s[Army])) +
		b.w.gold*float64(p.GoldPerCitizen.Floor(cit)-p.GoldPerSoldier.Floor(s[Army]))
	// A famine to come: the food in store lasts fewer than famineCycles.
	if net := p.FoodPerCitizen.Floor(s[Citizens]) - p.FoodPerSoldier.Floor(s[Army]); net < 0 {
		if left := s[Food] / -net; left < famineCycles {
			v -= float64(famineCycles-left) / famineCycles * float64(min(s[Citizens], p.HungerDeaths))
		}
	}
	for i := range w.Countries {
		if i == b.me {
			continue
		}
		r := &w.Countries[i]
		k := harmless
		if b.hostile[i] {
			k = 1
		}
		if r.Dead {
			v += k * b.w.kill
		} else {
			v -= k * (b.w.rival*float64(r.Stock[Citizens]) + b.w.rivalArmy*float64(r.Stock[Army]))
		}
	}
	return v
}

// AnswerTrade accepts an offer that raises the general's score of the
// world as it stands, and refuses the rest.
func (b *general) AnswerTrade(v View, o Offer) (bool, error) {
	b.load(v)
	mv := TradeMove(b.me, o.Give, o.GiveN, o.Take, o.TakeN)
	if b.base.Check(o.From, mv) != nil {
		return false, nil
	}
	b.restore()
	before := b.score()
	b.sim.Trade(o.From, mv, true)
	return b.score() > before, nil
}

// AnswerWar tries a few defences against the ways the attack may be split
// and keeps the one whose worst outcome scores best: nothing, the whole
// army in thirds, in two halves or heavy on one flank, and in thirds just
// enough to hold the attack to a tie or to beat it.
func (b *general) AnswerWar(v View, a Attack) (Flanks, error) {
	b.load(v)
	me, s := b.me, a.Sent
	army := b.base.Countries[me].Stock[Army]
	if a.From < 0 || a.From >= len(b.base.Countries) || a.From == me || s < 0 {
		return Thirds(army), nil
	}
	b.hostile[a.From] = true
	half := army / 2
	hold, win := b.holding(s)
	defences := [...]Flanks{
		{},
		Thirds(army),
		Thirds(min(army, hold)),
		Thirds(min(army, win)),
		Thirds(army / 2),
		{half, army - half, 0}, {0, half, army - half}, {half, 0, army - half},
		{army - 2*(army/4), army / 4, army / 4},
	}
	sh := s / 2
	attacks := [...]Flanks{{s, 0, 0}, {0, s, 0}, {0, 0, s}, Thirds(s), {sh, s - sh, 0}, {0, sh, s - sh}, {sh, 0, s - sh}}
	best, bestScore := Thirds(army), math.Inf(-1)
	for _, d := range defences {
		if b.base.CheckDefence(me, d) != nil {
			continue
		}
		worst := math.Inf(1)
		for _, f := range attacks {
			b.restore()
			b.sim.War(a.From, WarMove(me, f), d)
			worst = min(worst, b.score())
		}
		if worst > bestScore {
			best, bestScore = d, worst
		}
	}
	return best, nil
}
