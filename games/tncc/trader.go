package tncc

import "github.com/arbiter-games/arbiter/engine"

// Trader returns a bot that trades gold and food to better its position,
// and otherwise keeps to itself as the turtle does.
//
// It prices what a country holds by what the country needs: food to feed
// its army (and, where citizens eat more than they make, its citizens)
// through the next few cycles, gold to pay its soldiers; the first units of
// a need are worth twice the fair rate, the next ones the fair rate, and
// a surplus a quarter of it. The fair rate of food in gold is what a
// citizen makes of each (gold_per_citizen / food_per_citizen), or one for
// one where citizens make no food. People are worth what they make over
// the next cycles (citizens above what the land holds, nothing), and land
// the people it holds.
//
// On its turn it arms like the turtle against the largest army of the
// rivals who could afford a war, and disbands when nobody could. Otherwise
// it offers the living rival and the amount, gold for food or food for
// gold at the fair rate, that by those prices does both sides the most
// good, if one does both some good and the rules allow it; a rival that
// declines is not asked again for a while (twice as long each time).
// Otherwise it waits. It accepts an offer that raises the value of what it
// holds by its prices, refuses the rest, and defends with its army in
// thirds.
func Trader() Bot { return &trader{} }

// traderCycles is how many cycles ahead the trader provides for.
const traderCycles = 5

type trader struct {
	refuser
	world World // the view's world, for World.Check
	seen  int   // history entries read
	// declined[i] counts the offers seat i declined; quiet[i] is the first
	// cycle in which the trader asks seat i again.
	declined [MaxCountries]int
	quiet    [MaxCountries]int
}

// Init forgets the last match. The trader draws no chance: it is the same
// in every seat and every game.
func (t *trader) Init(engine.MatchInfo) error {
	*t = trader{world: t.world}
	return nil
}

// Bounded reports that the trader answers at once.
func (*trader) Bounded() bool { return true }

// read catches up with the history: the answers to its own offers.
func (t *trader) read(v View) {
	if v.Len() < t.seen { // a new match without Init
		*t = trader{world: t.world}
	}
	for ; t.seen < v.Len(); t.seen++ {
		e := v.Entry(t.seen)
		o, accepted, ok := e.Trade()
		if !ok || e.Seat != v.You() || accepted || o.With < 0 || o.With >= MaxCountries {
			continue
		}
		k := min(t.declined[o.With], 5)
		t.declined[o.With]++
		t.quiet[o.With] = e.Cycle + 1<<k
	}
}

func (t *trader) Turn(v View) (Move, error) {
	t.read(v)
	me, p := v.Me(), v.preset()
	army := me.Stock[Army]
	switch threat := largestThreat(v); {
	case threat > army:
		if n := min(threat-army, feedable(p, me.Stock)-army); n > 0 {
			return RecruitMove(n), nil
		}
	case threat == 0 && army > 0:
		return RecruitMove(-army), nil
	}
	if mv, ok := t.offer(v); ok {
		return mv, nil
	}
	return WaitMove, nil
}

// offer finds the trade of gold and food at the fair rate that does both
// sides the most good by the trader's prices, among a few amounts for each
// living rival not asked to keep quiet.
func (t *trader) offer(v View) (Move, bool) {
	p := v.preset()
	pr := pricesOf(p)
	me := v.You()
	mine := v.Me().Stock
	best, bestGain := Move{}, 0.0
	loaded := false
	for j := range v.Countries() {
		c := v.Country(j)
		if j == me || c.Dead || v.Cycle() < t.quiet[j] {
			continue
		}
		theirs := c.Stock
		// Amounts of food to move: what either side lacks or has to spare.
		myLack, mySpare := pr.foodBalance(p, &mine)
		theirLack, theirSpare := pr.foodBalance(p, &theirs)
		for _, q := range [...]int64{myLack, mySpare / 2, theirLack, theirSpare / 2, min(myLack, theirSpare), min(mySpare, theirLack)} {
			if q <= 0 {
				continue
			}
			g := max(int64(float64(q)*pr.food+0.5), 1) // gold at the fair rate
			for _, mv := range [...]Move{TradeMove(j, Gold, g, Food, q), TradeMove(j, Food, q, Gold, g)} {
				if mv.GiveN > mine[mv.Give] || mv.TakeN > theirs[mv.Take] {
					continue
				}
				a, b := traded(mine, mv.Give, mv.GiveN, mv.Take, mv.TakeN), traded(theirs, mv.Take, mv.TakeN, mv.Give, mv.GiveN)
				gain := min(pr.worth(p, &a)-pr.worth(p, &mine), pr.worth(p, &b)-pr.worth(p, &theirs))
				if gain <= bestGain {
					continue
				}
				if !loaded {
					loadWorld(&t.world, v)
					loaded = true
				}
				if t.world.Check(me, mv) == nil {
					best, bestGain = mv, gain
				}
			}
		}
	}
	return best, bestGain > 0
}

// traded returns s after giving n of give and taking m of take.
func traded(s Stock, give Resource, n int64, take Resource, m int64) Stock {
	s[give] -= n
	s[take] += m
	return s
}

// AnswerTrade accepts an offer that raises the worth of what the trader
// holds, by its prices, and refuses the rest.
func (t *trader) AnswerTrade(v View, o Offer) (bool, error) {
	t.read(v)
	p := v.preset()
	pr := pricesOf(p)
	s := v.Me().Stock
	if !o.Give.Valid() || !o.Take.Valid() || o.GiveN < 0 || o.TakeN < 0 || o.TakeN > s[o.Take] {
		return false, nil
	}
	after := traded(s, o.Take, o.TakeN, o.Give, o.GiveN)
	return pr.worth(p, &after) > pr.worth(p, &s), nil
}

// prices are the trader's prices, in gold.
type prices struct {
	food   float64 // one food, at the fair rate
	person float64 // a citizen or a soldier
	land   float64
}

func pricesOf(p *Preset) prices {
	fpc, gpc := ratioFloat(p.FoodPerCitizen), ratioFloat(p.GoldPerCitizen)
	pr := prices{food: 1}
	if fpc > 0 && gpc > 0 {
		pr.food = gpc / fpc
	}
	pr.person = max((gpc+fpc*pr.food)*2*traderCycles, gpc*traderCycles, 0.1)
	pr.land = ratioFloat(p.LandCapacity) * pr.person / 2
	return pr
}

// needs returns the food and gold a country spends in traderCycles cycles
// beyond what it makes, and 0 when it makes more than it spends.
func needs(p *Preset, s *Stock) (food, gold int64) {
	food = p.FoodPerSoldier.Floor(s[Army]) - p.FoodPerCitizen.Floor(s[Citizens])
	gold = p.GoldPerSoldier.Floor(s[Army]) - p.GoldPerCitizen.Floor(s[Citizens])
	return max(food, 0) * traderCycles, max(gold, 0) * traderCycles
}

// foodBalance returns the food a country lacks for its needs, and the food
// it has beyond three times them (and beyond what it started with).
func (pr prices) foodBalance(p *Preset, s *Stock) (lack, spare int64) {
	need, _ := needs(p, s)
	return max(need-s[Food], 0), max(s[Food]-3*need-p.Start[Food], 0)
}

// worth is the value of a stock to its country, in gold: food and gold by
// need (twice the price up to the need, the price up to three times it and
// the starting amount, a quarter beyond), people and land by what they
// make and hold. A country without citizens is worth nothing.
func (pr prices) worth(p *Preset, s *Stock) float64 {
	if s[Citizens] <= 0 {
		return -1e18
	}
	nf, ng := needs(p, s)
	v := pr.food*byNeed(s[Food], nf, p.Start[Food]) + byNeed(s[Gold], ng, p.Start[Gold])
	room := max(0, p.LandCapacity.Floor(s[Land])-s[Army])
	v += pr.person*float64(min(s[Citizens], room)+s[Army]) + pr.land*float64(s[Land])
	return v
}

// byNeed values x units of something a country needs need of: twice up to
// the need, once up to three times it and base more, a quarter beyond.
func byNeed(x, need, base int64) float64 {
	x = max(x, 0)
	first := min(x, need)
	second := min(x-first, 2*need+base)
	return 2*float64(first) + float64(second) + float64(x-first-second)/4
}
