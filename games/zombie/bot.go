package zombie

import (
	"context"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Bot plays one seat: every turn it plans from what it may know. A plan the
// rules refuse, an error or a panic gets the default plan (touch the next
// seat, nothing more), and the fault is recorded.
type Bot interface {
	Plan(v View) (Plan, error)
}

// BotInitializer is implemented by bots that prepare for each match: forget
// the last one, seed their dice. Init runs before the first decision.
type BotInitializer = engine.Initializer

// BotPlayer turns a bot into a player for a seat. The built-in bots are
// engine.Bounded: they answer at once.
func BotPlayer(b Bot) engine.Player[Plan, View] { return &botPlayer{engine.Shell{Bot: b}, b} }

type botPlayer struct {
	engine.Shell
	bot Bot
}

func (p *botPlayer) Decide(_ context.Context, _ *engine.Request[Plan], v View) (Plan, error) {
	return p.bot.Plan(v)
}

// Entrant is a named kind of player for `arbiter play zombie`.
type Entrant = engine.Entrant[Plan, View]

// The built-in bots, by name. Each plays whatever role it is dealt: a
// policy for when it is told human and one for when it is told zombie.
var roster = engine.Roster[Plan, View]{
	// cautious when told human, a spreader when told zombie
	builtIn("sensible", func() Bot { return &Sensible{Human: Cautious, Zombie: Spreading} }),
	// cautious in both roles: as a zombie it hides, one plain touch a turn
	builtIn("cautious", func() Bot { return &Sensible{Human: Cautious, Zombie: Hiding} }),
	// mixes with everyone in both roles: as a human, recklessly
	builtIn("spreader", func() Bot { return &Sensible{Human: Reckless, Zombie: Spreading} }),
	// random legal plans, with its own dice
	builtIn("random", func() Bot { return &Random{} }),
	// plays each turn forward in matches drawn from its view, in both roles
	builtIn("searcher", func() Bot { return &Searcher{Human: true, Zombie: true, ZombieTurns: 1, KeepPartners: true} }),
	// searches when told zombie, cautious when told human
	builtIn("searcher.zombie", func() Bot { return &Searcher{Zombie: true, ZombieTurns: 1} }),
	// searches when told human, a spreader when told zombie
	builtIn("searcher.human", func() Bot { return &Searcher{Human: true, KeepPartners: true} }),
}

func builtIn(name string, bot func() Bot) Entrant {
	return Entrant{Name: name, New: func() engine.Player[Plan, View] { return BotPlayer(bot()) }}
}

// Bots returns the built-in player that one --players name stands for.
func Bots(name string) ([]Entrant, error) { return roster.Find(name, "zombie") }

// HumanPolicy is how a bot plays while it is told human.
type HumanPolicy uint8

// The human policies.
const (
	// Cautious touches one player a turn, and ends its turn right after so
	// that nobody else can touch it. It keeps a list of players whose touch
	// paid (+1: a human then) and of those whose touch did not; it touches
	// a trusted player plainly, to gain an antibody, and anyone else with
	// precaution while it has antibodies, guarding itself with precaution
	// too. When its antibodies come out lower than its own touches explain,
	// it takes itself to be infected and cures first.
	Cautious HumanPolicy = iota
	// Reckless touches every other player plainly, gaining an antibody from
	// every human it meets, and cures first whenever it has two antibodies
	// or more, in case it was infected.
	Reckless
)

// ZombiePolicy is how a bot plays while it is told zombie.
type ZombiePolicy uint8

// The zombie policies.
const (
	// Spreading touches every other player, starting with a different one
	// each turn, and stays open to be touched; it spends its viruses two at
	// a time on its first contacts, which drains the antibodies that
	// precaution needs and turns the infected into zombies sooner.
	Spreading ZombiePolicy = iota
	// Hiding touches one player a turn plainly and ends its turn, as a
	// cautious human would: it gives nothing away in the numbers.
	Hiding
)

// Sensible is a bot with a policy for each role. It remembers its own last
// turn (whom it touched, what it spent) to read its next PRIVATE message;
// it is engine.Bounded.
type Sensible struct {
	Human  HumanPolicy
	Zombie ZombiePolicy

	last    int   // the seat touched last turn, -1 for none
	spent   int64 // antibodies spent last turn on precaution and cures
	guarded bool  // last turn's contact was made with precaution
	trusted []int8
}

// Bounded reports that a Sensible bot answers at once.
func (*Sensible) Bounded() bool { return true }

// Init forgets the last match.
func (b *Sensible) Init(engine.MatchInfo) error {
	b.last, b.spent, b.guarded, b.trusted = -1, 0, false, nil
	return nil
}

// Plan plans the turn by the policy of the role the bot is told it has.
func (b *Sensible) Plan(v View) (Plan, error) {
	if len(b.trusted) != v.Seats() {
		b.trusted = make([]int8, v.Seats())
		b.last = -1
	}
	me := v.Me()
	if me.Zombie() {
		b.last = -1
		if b.Zombie == Hiding {
			return b.hide(v), nil
		}
		return spread(v), nil
	}
	if b.Human == Reckless {
		return reckless(v), nil
	}
	return b.cautious(v), nil
}

// cautious is the Cautious policy.
func (b *Sensible) cautious(v View) Plan {
	me := v.Me()
	msgs := v.Messages()
	suspicious := false
	if b.last >= 0 && len(msgs) >= 2 {
		before := msgs[len(msgs)-2].Antibodies - b.spent
		gain := int64(1) // what a human partner would have given
		switch {
		case me.Antibodies >= before+gain:
			b.trusted[b.last] = 1
		default:
			b.trusted[b.last] = -1
			// Without precaution a bad partner infects: no gain, and the
			// infected lose 1 at the end of the turn. With it, only
			// viruses cost more than the precaution.
			suspicious = me.Antibodies < before || !b.guarded
		}
	}
	budget := me.Antibodies
	plan := Plan{End: true}
	if suspicious && budget >= 1 {
		plan.CureFirst = true
		budget--
	}
	partner := b.choose(v)
	c := Contact{With: partner}
	if b.trusted[partner] <= 0 && budget >= 1 {
		c.Precaution = true
		budget--
	}
	if budget >= 1 {
		plan.Guard = Precaution
	}
	plan.Touch = []Contact{c}
	b.last, b.guarded = partner, c.Precaution
	b.spent = 0
	if c.Precaution {
		b.spent++
	}
	if plan.CureFirst {
		b.spent++
	}
	return plan
}

// choose picks the cautious bot's partner: a trusted player if there is
// one, else one not known to be bad, else anyone; turn by turn it goes
// round the table so as to learn about everyone.
func (b *Sensible) choose(v View) int {
	best, bestScore := -1, int8(-2)
	for _, s := range roundTable(v) {
		if b.trusted[s] > bestScore {
			best, bestScore = s, b.trusted[s]
		}
	}
	return best
}

// roundTable returns the other seats in table order, starting one further
// round each turn.
func roundTable(v View) []int {
	n, me := v.Seats(), v.You()
	out := make([]int, 0, n-1)
	for k := range n - 1 {
		out = append(out, (me+1+(v.Turn()-1+k)%(n-1))%n)
	}
	return out
}

// hide is the Hiding zombie policy.
func (b *Sensible) hide(v View) Plan {
	return Plan{Touch: []Contact{{With: roundTable(v)[0]}}, End: true}
}

// spread is the Spreading zombie policy.
func spread(v View) Plan {
	viruses := v.Me().Viruses
	var plan Plan
	for _, s := range roundTable(v) {
		c := Contact{With: s}
		if viruses > 0 {
			c.Viruses = min(2, viruses)
			viruses -= c.Viruses
		}
		plan.Touch = append(plan.Touch, c)
	}
	return plan
}

// reckless is the Reckless human policy.
func reckless(v View) Plan {
	n, me := v.Seats(), v.You()
	plan := Plan{CureFirst: v.Me().Antibodies >= 2}
	for s := range n {
		if s != me {
			plan.Touch = append(plan.Touch, Contact{With: s})
		}
	}
	return plan
}

// Random plans at random, with its own dice (engine.SeatRNG): one to three
// partners, a precaution or some viruses now and then as its role and
// counts allow, sometimes a guard, a cure or an early end.
type Random struct {
	rng *rand.Rand
}

// Bounded reports that Random answers at once.
func (*Random) Bounded() bool { return true }

// Init seeds the dice from the seat's own seed.
func (r *Random) Init(info engine.MatchInfo) error {
	r.rng = rand.New(info.RNG())
	return nil
}

// Plan draws a legal plan.
func (r *Random) Plan(v View) (Plan, error) {
	if r.rng == nil {
		r.rng = rand.New(engine.SeatRNG(0, v.You()))
	}
	n, me := v.Seats(), v.You()
	msg := v.Me()
	antibodies, viruses := msg.Antibodies, msg.Viruses
	var plan Plan
	if !msg.Zombie() && antibodies > 0 && r.rng.IntN(4) == 0 {
		plan.CureFirst = true
		antibodies--
	}
	others := make([]int, 0, n-1)
	for s := range n {
		if s != me {
			others = append(others, s)
		}
	}
	r.rng.Shuffle(len(others), func(i, k int) { others[i], others[k] = others[k], others[i] })
	for _, s := range others[:1+r.rng.IntN(min(3, len(others)))] {
		c := Contact{With: s}
		switch {
		case msg.Zombie() && viruses > 0 && r.rng.IntN(3) == 0:
			c.Viruses = 1 + r.rng.Int64N(viruses)
			viruses -= c.Viruses
		case !msg.Zombie() && antibodies > 0 && r.rng.IntN(3) == 0:
			c.Precaution = true
			antibodies--
		}
		plan.Touch = append(plan.Touch, c)
	}
	if r.rng.IntN(3) == 0 {
		if msg.Zombie() {
			plan.Guard = Viruses(1)
		} else {
			plan.Guard = Precaution
		}
	}
	if !msg.Zombie() && antibodies > 0 && r.rng.IntN(4) == 0 {
		plan.CureLast = true
	}
	plan.End = r.rng.IntN(2) == 0
	return plan, nil
}

// learn has the bot remember plan p as its own for the turn of v, as if it
// had made it: whom it touched first, whether with precaution, and what it
// spent.
func (b *Sensible) learn(v View, p Plan) {
	if len(b.trusted) != v.Seats() {
		b.trusted = make([]int8, v.Seats())
	}
	b.last, b.guarded, b.spent = -1, false, 0
	if v.Me().Zombie() || len(p.Touch) == 0 {
		return
	}
	b.last, b.guarded = p.Touch[0].With, p.Touch[0].Precaution
	for _, c := range p.Touch {
		if c.Precaution {
			b.spent++
		}
	}
	for _, cure := range []bool{p.CureFirst, p.CureLast} {
		if cure {
			b.spent++
		}
	}
}
