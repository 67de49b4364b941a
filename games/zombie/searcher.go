package zombie

import (
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Searcher plans by playing the turn forward: it draws matches that agree
// with its view (Game.Sample: who is a zombie, who is infected, everyone's
// counts), tries each plan of a covering set (Match.Moves, and the plan
// its Fallback policy would make) in every one of them, with the other
// seats and the rest of the game played by Fallback bots (its own seat's
// remembering what its own Fallback has learnt), and takes the
// plan that did best on average. The same drawn matches serve every plan,
// so that plans are compared on the same luck. Its budget is a number of
// playouts, not a time, so that the same seed plays the same game on any
// machine; it is engine.Bounded.
//
// It plays each role it is dealt for that role's win: a zombie for the
// zombies' (a player turned in the game has no score of its own to win,
// and plays for the side it joined), a human for its own score, and then
// for its place among the humans by antibodies.
type Searcher struct {
	// Playouts is the number of games played forward for each decision,
	// shared among the plans tried; 0 means DefaultPlayouts.
	Playouts int
	// Human and Zombie are the roles Searcher searches in; in the other
	// it plays as Fallback would.
	Human, Zombie bool
	// ZombieTurns, when not 0, is the last turn in which it searches as a
	// zombie; later it plays as Fallback. In the first turn nobody knows
	// anything of anyone, and the drawn matches, played on by Fallback
	// bots with no memory, are the real game; later the real players
	// remember whose touch paid, which no view shows and no sample
	// holds, and a zombie searching on (measured: 32% of the zombies'
	// wins where the first turn's search alone makes 45%) is misled.
	ZombieTurns int
	// KeepPartners has it, as a human, touch whom Fallback would, in the
	// same order, and search only how: precaution on the first touch, a
	// guard, a cure first, ending the turn or not. Humans who all choose
	// their partners by one rule meet each other as the rule pairs them;
	// a human searching for its own partners wins more for itself and
	// leaves its side weaker (measured: the humans win 49.6% of the
	// default games where cautious humans win 60.8%; searching only how,
	// 63.0%).
	KeepPartners bool
	// Fallback is the policy of the other seats and of the rest of each
	// playout, and the plan always tried; nil means sensible.
	Fallback func() *Sensible

	own      *Sensible
	setup    engine.Setup
	rng      *rand.PCG
	rollouts []*Sensible
	plans    []Plan
	value    []float64
}

// DefaultPlayouts is Searcher's budget when none is given: games played
// forward per decision.
const DefaultPlayouts = 240

// Bounded reports that a Searcher answers without blocking: its work is a
// fixed number of playouts.
func (*Searcher) Bounded() bool { return true }

// Init prepares for a match: the setup it samples matches of, and its dice,
// from the seat's own seed.
func (b *Searcher) Init(info engine.MatchInfo) error {
	b.setup = engine.Setup{Players: info.Players, Options: info.Options}
	b.rng = rand.NewPCG(info.Seed, 0x5a6f_6d62)
	b.own = b.fallback()
	return b.own.Init(info)
}

func (b *Searcher) fallback() *Sensible {
	if b.Fallback != nil {
		return b.Fallback()
	}
	return &Sensible{Human: Cautious, Zombie: Spreading}
}

// Plan plans the turn: by search in the roles it searches in, else as its
// Fallback.
func (b *Searcher) Plan(v View) (Plan, error) {
	if b.own == nil || b.rng == nil {
		_ = b.Init(engine.MatchInfo{Seat: v.You(), Players: make([]string, v.Seats()), Seed: engine.SeatSeed(0, v.You())})
	}
	if len(b.setup.Players) != v.Seats() {
		b.setup.Players = make([]string, v.Seats())
	}
	own, err := b.own.Plan(v)
	if err != nil {
		return own, err
	}
	me := v.Me()
	if me.Zombie() && (!b.Zombie || b.ZombieTurns > 0 && v.Turn() > b.ZombieTurns) || !me.Zombie() && !b.Human {
		return own, nil
	}
	if !me.Zombie() && b.KeepPartners {
		b.plans = appendVariants(append(b.plans[:0], own), own, me.Antibodies)
	} else {
		b.plans = appendPlans(append(b.plans[:0], own), v, b.rng)
	}
	b.value = append(b.value[:0], make([]float64, len(b.plans))...)
	playouts := b.Playouts
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	worlds := max(2, playouts/len(b.plans))
	for range worlds {
		world, err := sampleMatch(b.setup, v.You(), v, b.rng)
		if err != nil {
			return own, nil
		}
		for i := range b.plans {
			b.value[i] += b.playout(world, v.You(), &b.plans[i], me.Zombie())
		}
	}
	best := 0
	for i := range b.value {
		if b.value[i] > b.value[best] {
			best = i
		}
	}
	b.own.learn(v, b.plans[best])
	return b.plans[best].clone(), nil
}

// playout plays world (a copy of it) to its end with seat's plan p and
// Fallback bots in every seat, and returns what the end is worth to seat.
func (b *Searcher) playout(world *Match, seat int, p *Plan, zombie bool) float64 {
	m := world.clone()
	n := m.n
	for len(b.rollouts) < n {
		b.rollouts = append(b.rollouts, b.fallback())
	}
	for s := range n {
		_ = b.rollouts[s].Init(engine.MatchInfo{Seat: s})
	}
	// The seat plays on remembering what it has learnt of the others
	// (whose touch paid); the others' memories, which no view shows, start
	// empty.
	mine := b.rollouts[seat]
	mine.trusted = append(mine.trusted[:0], b.own.trusted...)
	first := true
	for !m.Over() {
		for s := range n {
			var q Plan
			if first && s == seat {
				q = *p
				b.rollouts[s].learn(m.View(s), q)
			} else {
				q, _ = b.rollouts[s].Plan(m.View(s))
			}
			if m.Apply(s, q) != nil {
				_ = m.Apply(s, m.reqs[s].Default)
			}
		}
		first = false
	}
	return worth(m, seat, zombie)
}

// worth is what the end of m is worth to seat, which plans as a zombie or
// as a human: for a zombie, 1 when the zombies win; for a human, its score,
// and a little more for each player it ends above.
func worth(m *Match, seat int, zombie bool) float64 {
	if zombie {
		if m.judge.Result().Outcome == ZombiesWin {
			return 1
		}
		return 0
	}
	r := m.Result()
	return float64(r.Scores[seat]) + 0.05*float64(m.n-r.Ranks[seat])/float64(m.n)
}

// appendVariants appends to buf the plans that touch whom own touches, in
// its order, with every affordable choice of precaution on the first
// touch, a guard, a cure first, and ending the turn or not.
func appendVariants(buf []Plan, own Plan, antibodies int64) []Plan {
	for bits := range 16 {
		p := own.clone()
		for i := range p.Touch {
			p.Touch[i].Modifier = Modifier{}
		}
		p.Touch[0].Precaution = bits&1 != 0
		p.Guard = Modifier{}
		if bits&2 != 0 {
			p.Guard = Precaution
		}
		p.CureFirst, p.CureLast = bits&4 != 0, false
		p.End = bits&8 != 0
		cost := int64(0)
		if p.Touch[0].Precaution {
			cost++
		}
		if p.CureFirst {
			cost++
		}
		if cost > antibodies || p.Guard.Precaution && antibodies == 0 {
			continue
		}
		buf = append(buf, p)
	}
	return buf
}
