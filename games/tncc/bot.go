package tncc

import (
	"context"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Bot plays one country. Turn chooses the turn's action; AnswerTrade and
// AnswerWar answer another country's offer or attack. An illegal action, an
// error or a panic gets the rules' default (wait; accept; defend with 0, 0,
// 0), and the fault is recorded.
type Bot interface {
	Turn(v View) (Move, error)
	AnswerTrade(v View, o Offer) (accept bool, err error)
	AnswerWar(v View, a Attack) (Flanks, error)
}

// BotInitializer is implemented by bots that prepare for each match; Init
// runs before the first decision.
type BotInitializer = engine.Initializer

// Player turns a bot into a player for a seat. The player is engine.Bounded
// when the bot is.
func Player(b Bot) engine.Player[Move, View] { return &botPlayer{engine.Shell{Bot: b}, b} }

type botPlayer struct {
	engine.Shell
	bot Bot
}

func (p *botPlayer) Decide(_ context.Context, req *engine.Request[Move], v View) (Move, error) {
	switch req.Kind {
	case TradeAnswerKind:
		o, _ := v.Offer()
		yes, err := p.bot.AnswerTrade(v, o)
		if yes {
			return AcceptMove, err
		}
		return DeclineMove, err
	case WarAnswerKind:
		a, _ := v.Attack()
		f, err := p.bot.AnswerWar(v, a)
		return DefendMove(f), err
	}
	return p.bot.Turn(v)
}

// Thirds splits an army into three flanks as evenly as it goes, the
// remainder on the right.
func Thirds(army int64) Flanks {
	t := max(army, 0) / 3
	return Flanks{t, t, max(army, 0) - 2*t}
}

// Nothing returns the nothing bot: it always waits, refuses every
// trade and defends with 0, 0, 0.
func Nothing() Bot { return nothing{} }

type nothing struct{}

func (nothing) Turn(View) (Move, error)                { return WaitMove, nil }
func (nothing) AnswerTrade(View, Offer) (bool, error)  { return false, nil }
func (nothing) AnswerWar(View, Attack) (Flanks, error) { return Flanks{}, nil }
func (nothing) Bounded() bool                          { return true }

// refuser refuses trades and defends in thirds, as most built-in bots do.
type refuser struct{}

func (refuser) AnswerTrade(View, Offer) (bool, error) { return false, nil }
func (refuser) AnswerWar(v View, _ Attack) (Flanks, error) {
	return Thirds(v.Me().Stock[Army]), nil
}

// Turtle returns the turtle: it watches the largest army among the
// rivals who could afford a war next cycle, and recruits up to that size
// while keeping enough citizens to feed its army; with nobody to fear it
// sends its soldiers home. It never attacks, refuses trades and defends
// with its army in thirds.
func Turtle() Bot { return turtle{} }

type turtle struct{ refuser }

func (turtle) Bounded() bool { return true }

func (turtle) Turn(v View) (Move, error) {
	me := v.Me()
	threat := largestThreat(v)
	army := me.Stock[Army]
	if threat == 0 {
		if army > 0 {
			return RecruitMove(-army), nil
		}
		return WaitMove, nil
	}
	if threat <= army {
		return WaitMove, nil
	}
	n := min(threat-army, feedable(v.preset(), me.Stock)-army)
	if n <= 0 {
		return WaitMove, nil
	}
	return RecruitMove(n), nil
}

// largestThreat returns the largest army among living rivals that could
// pay for a war next cycle: their gold and a cycle of their citizens'
// gold reach gold_for_war.
func largestThreat(v View) int64 {
	p := v.preset()
	var threat int64
	for i := range v.Countries() {
		c := v.Country(i)
		if i == v.You() || c.Dead {
			continue
		}
		if c.Stock[Gold]+p.GoldPerCitizen.Floor(c.Stock[Citizens]) >= p.GoldForWar {
			threat = max(threat, c.Stock[Army])
		}
	}
	return threat
}

// feedable returns the largest army a country can keep while its citizens
// still make the food the army eats: food_per_citizen × (citizens − n) ≥
// food_per_soldier × (army + n). With citizens that make no food, it is
// the army the food in store feeds for a cycle.
func feedable(p *Preset, s Stock) int64 {
	total := s[Citizens] + s[Army]
	if p.FoodPerCitizen.Sign() <= 0 || p.FoodPerSoldier.Sign() == 0 {
		if p.FoodPerSoldier.Sign() == 0 {
			return total - 1
		}
		lo, hi := int64(0), total
		for lo < hi { // the largest army whose upkeep the stored food pays
			mid := (lo + hi + 1) / 2
			if p.FoodPerSoldier.Floor(mid) <= s[Food] {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return min(lo, total-1)
	}
	ok := func(n int64) bool { return p.FoodPerCitizen.Floor(total-n) >= p.FoodPerSoldier.Floor(n) }
	lo, hi := int64(0), total-1
	// Start near the answer without the rounding, when the numbers are
	// small enough to multiply: n ≤ a·d·T / (a·d + c·b) for fpc = a/b and
	// fps = c/d; the rounding moves it by a few soldiers at most.
	a, b, c, d := p.FoodPerCitizen.Num, p.FoodPerCitizen.den(), p.FoodPerSoldier.Num, p.FoodPerSoldier.den()
	if small(a) && small(b) && small(c) && small(d) && small(total) && a*d < 1<<31 {
		est := min(max(a*d*total/(a*d+c*b), 0), hi)
		if e := max(est-4, 0); ok(e) {
			lo = e
		}
		if e := min(est+4, hi); e > lo && !ok(e) {
			hi = e - 1
		}
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return max(lo, 0)
}

// War returns the war bot: with at least 3 soldiers and the gold for
// a war it attacks a random living rival with its army in thirds; with no
// army it recruits a tenth of its citizens; otherwise it waits. It refuses
// trades and defends in thirds.
func WarBot() Bot { return &warBot{} }

type warBot struct {
	refuser
	rng *rand.Rand
}

func (b *warBot) Init(info engine.MatchInfo) error {
	b.rng = rand.New(info.RNG())
	return nil
}

func (*warBot) Bounded() bool { return true }

func (b *warBot) Turn(v View) (Move, error) {
	me := v.Me()
	army := me.Stock[Army]
	switch {
	case army >= 3 && me.Stock[Gold] >= v.GoldForWar():
		if t, ok := b.rival(v); ok {
			return WarMove(t, Thirds(army)), nil
		}
	case army == 0 && me.Stock[Citizens]/10 > 0:
		return RecruitMove(me.Stock[Citizens] / 10), nil
	}
	return WaitMove, nil
}

// rival picks a living rival at random.
func (b *warBot) rival(v View) (int, bool) {
	if b.rng == nil {
		b.rng = rand.New(engine.SeatRNG(0, v.You()))
	}
	k := 0
	for i := range v.Countries() {
		if i != v.You() && !v.Country(i).Dead {
			k++
		}
	}
	if k == 0 {
		return 0, false
	}
	pick := b.rng.IntN(k)
	for i := range v.Countries() {
		if i != v.You() && !v.Country(i).Dead {
			if pick == 0 {
				return i, true
			}
			pick--
		}
	}
	return 0, false
}

// Blitz returns the blitz bot: it builds up while poor, then commits:
// it recruits almost every citizen, and next turn attacks the rival with
// the smallest army with everything on one random flank; then it sends the
// survivors home and builds up again. It refuses trades, defends in thirds
// when the attack is small (no more than half its army), otherwise with two
// halves and one empty flank.
func Blitz() Bot { return &blitz{} }

type blitz struct {
	rng *rand.Rand
}

func (b *blitz) Init(info engine.MatchInfo) error {
	b.rng = rand.New(info.RNG())
	return nil
}

func (*blitz) Bounded() bool { return true }

func (b *blitz) dice(v View) *rand.Rand {
	if b.rng == nil {
		b.rng = rand.New(engine.SeatRNG(0, v.You()))
	}
	return b.rng
}

func (b *blitz) Turn(v View) (Move, error) {
	me, p := v.Me(), v.preset()
	army, citizens := me.Stock[Army], me.Stock[Citizens]
	// Committed: the army is most of the country. Attack with everything.
	if army > 0 && army >= citizens*4 {
		if me.Stock[Gold] >= p.GoldForWar {
			if t, ok := weakestRival(v); ok {
				var f Flanks
				f[b.dice(v).IntN(3)] = army
				return WarMove(t, f), nil
			}
		}
		return RecruitMove(-army), nil
	}
	if army > 0 {
		return RecruitMove(-army), nil // the war is over: back to work
	}
	// Rich enough to pay for the war and a cycle of upkeep: commit.
	keep := max(citizens/20, 1)
	n := citizens - keep
	if n > 0 && me.Stock[Gold] >= p.GoldForWar+p.GoldPerSoldier.Floor(n) && me.Stock[Food] > p.FoodPerSoldier.Floor(n) {
		return RecruitMove(n), nil
	}
	return WaitMove, nil
}

// weakestRival returns the living rival with the smallest army, the first
// in seat order on ties.
func weakestRival(v View) (int, bool) {
	best, found := 0, false
	for i := range v.Countries() {
		c := v.Country(i)
		if i == v.You() || c.Dead {
			continue
		}
		if !found || c.Stock[Army] < v.Country(best).Stock[Army] {
			best, found = i, true
		}
	}
	return best, found
}

func (*blitz) AnswerTrade(View, Offer) (bool, error) { return false, nil }

func (b *blitz) AnswerWar(v View, a Attack) (Flanks, error) {
	army := v.Me().Stock[Army]
	if a.Sent <= army/2 {
		return Thirds(army), nil
	}
	half := army / 2
	f := Flanks{half, half, half}
	f[b.dice(v).IntN(3)] = 0
	// Two halves: put the odd soldier on the first filled flank.
	for i := range f {
		if f[i] > 0 {
			f[i] += army - 2*half
			break
		}
	}
	return f, nil
}

// Entrant is a named kind of TNCC player.
type Entrant = engine.Entrant[Move, View]

// roster lists the built-in bots, in the order help texts give them.
var roster = engine.Roster[Move, View]{
	builtIn("nothing", Nothing), // always waits; refuses trades; defends with 0, 0, 0
	builtIn("turtle", Turtle),   // arms against the largest affordable threat; never attacks
	builtIn("war", WarBot),      // attacks a random rival with its army in thirds whenever it can
	builtIn("blitz", Blitz),     // builds up, then throws almost every citizen at the weakest rival
	builtIn("trader", Trader),   // trades gold and food when both sides gain; arms like the turtle
	builtIn("general", General), // plays its plans a few cycles ahead by the rules and takes the best
	builtIn("marshal", Marshal), // the general, fearing too that a rival at war calls its people to arms
	builtIn("random", Random),   // a random legal action, random answers
}

func builtIn(name string, bot func() Bot) Entrant {
	return Entrant{Name: name, New: func() engine.Player[Move, View] { return Player(bot()) }}
}

// Bots returns the built-in player that one --players name stands for.
func Bots(name string) ([]Entrant, error) { return roster.Find(name, "TNCC") }
