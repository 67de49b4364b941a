package zombie

import (
	"maps"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// What a search AI needs of the Zombie Game (engine/search.go): a match
// copies itself (Clone), lists a covering set of plans for a seat
// (Moves), and the game makes a match from one seat's view alone (Sample).

var (
	_ engine.Cloner[Plan, View]  = (*Match)(nil)
	_ engine.Generator[Plan]     = (*Match)(nil)
	_ engine.Sampler[Plan, View] = Game{}
)

// Clone returns a copy of the match that continues exactly as it would and
// shares no memory that either writes, its generator included. The logs
// only ever appended to (the judge's events, the script's commands, where
// each turn starts) keep their written entries in common, clipped to their
// length: an append by either copies, and nobody writes an entry twice.
func (m *Match) Clone() engine.Match[Plan, View] { return m.clone() }

func (m *Match) clone() *Match {
	c := *m
	c.judge = m.judge.clone()
	rng := *m.rng
	c.rng = &rng
	c.order = append([]int(nil), m.order...)
	c.entrants = append([]string(nil), m.entrants...)
	c.plans = make([]Plan, m.n)
	for s := range m.plans {
		if m.planned[s] {
			c.plans[s] = m.plans[s].clone()
		}
	}
	c.planned = append([]bool(nil), m.planned...)
	c.used = make([][]bool, m.n)
	c.reqs = append([]engine.Request[Plan](nil), m.reqs...)
	defaults := make([]Contact, m.n)
	for s := range c.reqs {
		defaults[s] = c.reqs[s].Default.Touch[0]
		c.reqs[s].Default.Touch = defaults[s : s+1 : s+1]
	}
	c.cmds = m.cmds[:len(m.cmds):len(m.cmds)]
	c.turnAt = m.turnAt[:len(m.turnAt):len(m.turnAt)]
	c.result = cloneResult(m.result)
	return &c
}

func cloneResult(r engine.Result) engine.Result {
	r.Scores = append([]int64(nil), r.Scores...)
	r.Ranks = append([]int(nil), r.Ranks...)
	if r.Winners != nil {
		r.Winners = append([]int{}, r.Winners...)
	}
	r.Status = append([]string(nil), r.Status...)
	return r
}

// clone returns a copy of the judge that shares no memory with it. The
// meetings of past turns are left out: they no longer matter.
func (j *Judge) clone() *Judge {
	c := *j
	c.players = append([]member(nil), j.players...)
	c.index = maps.Clone(j.index)
	c.met = make(map[uint64]int, len(j.met))
	for k, t := range j.met {
		if t == j.turn {
			c.met[k] = t
		}
	}
	c.opened, c.idlers = j.opened.clone(), j.idlers.clone()
	c.result.Ranking = append([]Ranked(nil), j.result.Ranking...)
	c.events = j.events[:len(j.events):len(j.events)]
	return &c
}

func (r roll) clone() roll {
	r.next = append([]int(nil), r.next...)
	r.prev = append([]int(nil), r.prev...)
	return r
}

// Moves appends to buf a covering set of legal plans for req's seat (see
// engine.Generator). For a seat told human: touching each other player
// alone, plainly or with precaution, ending the turn or staying open, with
// or without a guard; curing first; touching everyone. For a seat told
// zombie: touching each player alone and ending the turn, or staying open;
// touching everyone, with its viruses spread two at a time or all on the
// first touch. Which plans it returns depends only on the seat's view;
// rng shuffles the order in which every seat is touched.
func (m *Match) Moves(req *engine.Request[Plan], rng *rand.PCG, buf []Plan) []Plan {
	if req.Seat < 0 || req.Seat >= m.n || m.judge.Phase() != InProgress {
		return append(buf, req.Default)
	}
	return appendPlans(buf, m.View(req.Seat), rng)
}

// appendPlans appends the covering set of plans of Moves for the seat of v.
func appendPlans(buf []Plan, v View, rng *rand.PCG) []Plan {
	me := v.Me()
	n, seat := v.Seats(), v.You()
	others := make([]int, 0, n-1)
	for s := range n {
		if s != seat {
			others = append(others, s)
		}
	}
	for i := len(others) - 1; i > 0; i-- {
		k := int(engine.Below(rng, uint64(i+1)))
		others[i], others[k] = others[k], others[i]
	}
	everyone := func(viruses, each int64) Plan {
		p := Plan{Touch: make([]Contact, len(others))}
		for i, s := range others {
			p.Touch[i] = Contact{With: s}
			if k := min(each, viruses); k > 0 {
				p.Touch[i].Viruses = k
				viruses -= k
			}
		}
		return p
	}
	if me.Zombie() {
		for _, s := range others {
			buf = append(buf, Plan{Touch: []Contact{{With: s}}, End: true}, Plan{Touch: []Contact{{With: s}}})
			if me.Viruses > 0 {
				buf = append(buf, Plan{Touch: []Contact{{With: s, Modifier: Viruses(me.Viruses)}}})
			}
		}
		buf = append(buf, everyone(0, 0))
		if me.Viruses > 0 {
			buf = append(buf, everyone(me.Viruses, 2), everyone(me.Viruses, me.Viruses))
		}
		return buf
	}
	a := me.Antibodies
	for _, s := range others {
		buf = append(buf, Plan{Touch: []Contact{{With: s}}, End: true}, Plan{Touch: []Contact{{With: s}}})
		if a >= 1 {
			buf = append(buf,
				Plan{Touch: []Contact{{With: s, Modifier: Precaution}}, End: true},
				Plan{Touch: []Contact{{With: s}}, CureFirst: true, End: true})
		}
		if a >= 2 {
			buf = append(buf, Plan{Touch: []Contact{{With: s, Modifier: Precaution}}, Guard: Precaution})
		}
	}
	buf = append(buf, everyone(0, 0))
	if a >= 1 {
		p := everyone(0, 0)
		p.CureLast = true
		buf = append(buf, p)
	}
	return buf
}

// Sample makes a match that agrees with everything seat's view shows (see
// engine.Sampler): its own PRIVATE messages, the PUBLIC announcements, the
// turn and max_turns. What the view hides is drawn from rng: which of the
// others started as zombies and which turned in each turn (as many as each
// announcement counts), whether each player told human, the seat itself
// included, is infected, and every other player's antibodies or viruses
// (at most the announced highest, which someone holds). The sample's own
// order of play is drawn from rng too. Nothing but the view's own
// methods is read: never another seat's messages or the real match.
func (Game) Sample(setup engine.Setup, seat int, v View, rng *rand.PCG) (engine.Match[Plan, View], error) {
	return sampleMatch(setup, seat, v, rng)
}

// infectedOdds is the chance a sample takes a player told human, holding
// an antibody or more after a turn, to be infected: one in four.
const infectedOdds = 4

func sampleMatch(setup engine.Setup, seat int, v View, rng *rand.PCG) (*Match, error) {
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	n := setup.Seats()
	msgs, pubs := v.Messages(), v.Announcements()
	if v.Seats() != n || v.You() != seat || len(msgs) == 0 || len(pubs) != len(msgs) {
		return nil, engine.Refuse("view", "the view of %s does not belong to a match of %d seats under way", SeatName(seat), n)
	}
	startA, err := setup.Int(info, "antibodies")
	if err != nil {
		return nil, err
	}
	startV, err := setup.Int(info, "viruses")
	if err != nil {
		return nil, err
	}
	turns := len(msgs) // messages at the start, then after each turn
	// turned[p]: the turn (index into msgs) from which p is a zombie, or
	// turns when p is not one now.
	turned := drawZombieChain(n, seat, msgs, pubs, rng)
	last := pubs[turns-1]
	mine := msgs[turns-1]

	j := &Judge{phase: InProgress, index: make(map[string]int, n), maxTurns: int64(v.MaxTurns()), turn: v.Turn(), met: map[uint64]int{}}
	j.players = make([]member, n)
	for p := range j.players {
		name := SeatName(p)
		m := member{Player: Player{Name: name}, key: foldName(name), from: Human, turned: turned[p]}
		if turned[p] == 0 {
			m.from = Zombie
			j.rostered++
		}
		if turned[p] < turns {
			m.State = Zombie
		}
		j.index[m.key] = p
		j.players[p] = m
	}
	drawCounts(j, seat, mine, last, turns > 1, int64(startA), int64(startV), rng)
	// The events: what everyone was told at the start and after each turn.
	j.events = make([]Event, 0, turns*(n+2)+1+2*n)
	j.events = append(j.events, Event{Kind: Started, MaxTurns: j.maxTurns})
	for t := range turns {
		if t > 0 {
			j.events = append(j.events, Event{Kind: TurnEnded, Turn: t})
		}
		for p := range j.players {
			e := Event{Kind: Told, Turn: t, Player: p, Identity: Human}
			q := &j.players[p]
			switch {
			case p == seat:
				e.Identity, e.Antibodies, e.Viruses = msgs[t].Identity, msgs[t].Antibodies, msgs[t].Viruses
			case t == 0 && turned[p] == 0:
				e.Identity, e.Viruses = Zombie, int64(startV)
			case t == 0:
				e.Antibodies = int64(startA)
			case turned[p] <= t:
				e.Identity, e.Viruses = Zombie, q.Viruses
			default:
				e.Antibodies = q.Antibodies
			}
			j.events = append(j.events, e)
		}
		a := pubs[t]
		j.events = append(j.events, Event{Kind: Announced, Turn: a.Turn, Zombies: a.Zombies, Humans: a.Humans, MaxAntibodies: a.MaxAntibodies, MaxViruses: a.MaxViruses})
	}
	j.newTurn()

	m := &Match{judge: j, rng: rand.NewPCG(rng.Uint64(), rng.Uint64()), order: make([]int, n), n: n, seed: setup.Seed, entrants: setup.Players,
		plans: make([]Plan, n), planned: make([]bool, n), used: make([][]bool, n), reqs: make([]engine.Request[Plan], n)}
	for i := range m.order {
		m.order[i] = i
	}
	for s := range m.reqs {
		m.reqs[s] = engine.Request[Plan]{Seat: s, Kind: PlanKind, Default: Plan{Touch: []Contact{{With: (s + 1) % n}}}}
	}
	m.serial = int64(n * (turns - 1))
	m.open()
	return m, nil
}

// drawZombieChain draws who is a zombie from which turn: turned[p] is the
// first message index at which p is a zombie (0: from the start), or
// len(msgs) for a player who is not one now. The seat's own entries are
// what it was told; the others are drawn uniformly so that each
// announcement's count of zombies holds, zombies staying zombies.
func drawZombieChain(n, seat int, msgs []Message, pubs []Announcement, rng *rand.PCG) []int {
	turns := len(msgs)
	turned := make([]int, n)
	for p := range turned {
		turned[p] = turns
	}
	for t := range turns {
		if msgs[t].Zombie() && turned[seat] == turns {
			turned[seat] = t
		}
	}
	// The others not yet drawn, as a pool from which each turn's new
	// zombies are taken at random.
	pool := make([]int, 0, n-1)
	for p := range n {
		if p != seat {
			pool = append(pool, p)
		}
	}
	zombies := 0
	if turned[seat] == 0 {
		zombies = 1
	}
	for t := range turns {
		if turned[seat] == t && t > 0 {
			zombies++
		}
		for want := pubs[t].Zombies; zombies < want && len(pool) > 0; zombies++ {
			k := int(engine.Below(rng, uint64(len(pool))))
			turned[pool[k]] = t
			pool[k] = pool[len(pool)-1]
			pool = pool[:len(pool)-1]
		}
	}
	return turned
}

// drawCounts draws every other player's antibodies (non-zombies) or
// viruses (zombies) up to the announced highest, someone holding it, and
// whether each player told human, the seat included, is infected; the
// seat's own counts are its last message's. At the start everyone holds
// the starting counts, which the seat's own message and the options give.
func drawCounts(j *Judge, seat int, mine Message, last Announcement, played bool, startA, startV int64, rng *rand.PCG) {
	me := &j.players[seat]
	me.Antibodies, me.Viruses = mine.Antibodies, mine.Viruses
	if !played {
		for p := range j.players {
			if q := &j.players[p]; p != seat && q.State == Zombie {
				q.Viruses = startV
			} else if p != seat {
				q.Antibodies = startA
			}
		}
		return
	}
	var humans, zombies []int
	for p := range j.players {
		if p == seat {
			continue
		}
		q := &j.players[p]
		if q.State == Zombie {
			q.Viruses = int64(engine.Below(rng, uint64(last.MaxViruses)+1))
			zombies = append(zombies, p)
			continue
		}
		q.Antibodies = int64(engine.Below(rng, uint64(last.MaxAntibodies)+1))
		humans = append(humans, p)
	}
	topUp := func(own int64, max int64, ps []int, count func(*Player) *int64) {
		if own >= max || len(ps) == 0 {
			return
		}
		for _, p := range ps {
			if *count(&j.players[p].Player) == max {
				return
			}
		}
		p := ps[engine.Below(rng, uint64(len(ps)))]
		*count(&j.players[p].Player) = max
	}
	ownA, ownV := me.Antibodies, me.Viruses
	topUp(ownA, last.MaxAntibodies, humans, func(p *Player) *int64 { return &p.Antibodies })
	topUp(ownV, last.MaxViruses, zombies, func(p *Player) *int64 { return &p.Viruses })
	for p := range j.players {
		q := &j.players[p]
		if q.State != Zombie && q.Antibodies >= 1 && engine.Below(rng, infectedOdds) == 0 {
			q.State = Infected
		}
	}
}
