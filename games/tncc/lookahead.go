package tncc

import (
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// What a search AI needs of TNCC (engine/search.go): a match copies itself
// (Clone), a country's view makes a match (Game.Sample), the turns and the
// war answers, which have no list of choices, list their moves (Moves), and
// a game cut short says how each country stands (Estimate).

var (
	_ engine.Cloner[Move, View]  = (*Match)(nil)
	_ engine.Generator[Move]     = (*Match)(nil)
	_ engine.Estimator           = (*Match)(nil)
	_ engine.Sampler[Move, View] = Game{}
)

// Clone returns a copy of the match that plays on as it does and shares no
// memory with it. TNCC's rules draw no chance: there is no random source
// to copy.
func (m *Match) Clone() engine.Match[Move, View] {
	c := *m
	c.world.Countries = slices.Clone(m.world.Countries)
	c.hist = m.hist.clone()
	c.deaths = slices.Clone(m.deaths)
	c.players = slices.Clone(m.players)
	c.shown = nil // its own, made when a view of it is asked for the preset
	if m.phase == overPhase {
		c.result = cloneResult(m.result)
	}
	return &c
}

// clone copies the history, each part with room to grow by a cycle.
func (h *history) clone() history {
	grow := func(n int) int { return n + n/8 + 8 }
	c := history{
		log:      append(make([]logEntry, 0, grow(len(h.log))), h.log...),
		amounts:  append(make([]int64, 0, grow(len(h.amounts))), h.amounts...),
		refusals: slices.Clone(h.refusals),
	}
	if h.battles != nil {
		c.battles = append(make([]Battle, 0, grow(len(h.battles))), h.battles...)
	}
	return c
}

func cloneResult(r engine.Result) engine.Result {
	r.Scores = slices.Clone(r.Scores)
	r.Ranks = slices.Clone(r.Ranks)
	r.Winners = slices.Clone(r.Winners)
	r.Status = slices.Clone(r.Status)
	return r
}

// Sample makes a match from what seat's view shows: the world, the whole
// public history, and the decision owed now. What no country but the
// attacker knows, the flanks of a war waiting for its answer, is drawn
// from rng: the soldiers the defender was told of, on one flank, in
// thirds, in two flanks or at random. The match's players are setup's; its
// seed plays no part (the rules draw no chance).
func (Game) Sample(setup engine.Setup, seat int, v View, rng *rand.PCG) (engine.Match[Move, View], error) {
	p := v.preset()
	m := &Match{reqs: requests(), players: slices.Clone(setup.Players)}
	m.world = World{Preset: *p, Cycle: v.Cycle(), Countries: make([]Country, v.Countries())}
	for i := range m.world.Countries {
		m.world.Countries[i] = v.Country(i)
	}
	m.living = m.world.Living()
	m.hist.log = make([]logEntry, 0, v.Len()+len(m.world.Countries)*4)
	for i := range v.Len() {
		m.hist.add(v.Entry(i))
	}
	m.noteSampledDeaths()
	m.serial = int64(v.Len()) + 1
	switch {
	case v.Living() <= 1:
		m.end(m.world.Cycle)
		return m, nil
	case m.world.Cycle > p.MaxCycles:
		m.end(m.world.Cycle - 1)
		return m, nil
	}
	m.next = m.turnAfterHistory()
	switch o, offered := v.Offer(); {
	case offered:
		m.next, m.phase = o.From, tradePhase
		m.action = TradeMove(seat, o.Give, o.GiveN, o.Take, o.TakeN)
		m.asked(seat, tradeRequest, m.serial)
	default:
		a, attacked := v.Attack()
		if !attacked {
			m.phase = turnPhase
			m.asked(m.next, turnRequest, m.serial)
			break
		}
		m.next, m.phase = a.From, warPhase
		m.action = WarMove(seat, SampleFlanks(a.Sent, rng))
		m.asked(seat, warRequest, m.serial)
	}
	return m, nil
}

// add appends entry e to the history, as the rules wrote it.
func (h *history) add(e Entry) {
	switch e.Type {
	case Recruit:
		h.recruit(e.Cycle, e.Seat, e.N)
	case Trade:
		o := e.Offer
		h.trade(e.Cycle, e.Seat, TradeMove(o.With, o.Give, o.GiveN, o.Take, o.TakeN), e.Accepted)
	case War:
		h.war(e.Cycle, e.Seat, e.Battle)
	default:
		h.wait(e.Cycle, e.Seat, e.Refused)
	}
}

// noteSampledDeaths notes the deaths of a sampled match: each dead
// country's after the history's entries of the cycles before it died, in
// the order of those cycles (only the public story, Chronicle, reads them).
func (m *Match) noteSampledDeaths() {
	order := make([]int, 0, len(m.world.Countries))
	for i := range m.world.Countries {
		if m.world.Countries[i].Dead {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return m.world.Countries[a].Died - m.world.Countries[b].Died })
	at := 0
	for _, i := range order {
		for at < m.hist.len() && int(m.hist.log[at].cycle) <= m.world.Countries[i].Died {
			at++
		}
		m.buried |= 1 << i
		m.deaths = append(m.deaths, death{at: at, seat: i, cycle: m.world.Countries[i].Died})
	}
}

// turnAfterHistory returns the country whose turn comes after the last
// action of this cycle's history: the first living country after it, or
// the first of the cycle.
func (m *Match) turnAfterHistory() int {
	w := &m.world
	from := 0
	if n := m.hist.len(); n > 0 && int(m.hist.log[n-1].cycle) == w.Cycle {
		from = int(m.hist.log[n-1].seat) + 1
	}
	for s := from; s < len(w.Countries); s++ {
		if !w.Countries[s].Dead {
			return s
		}
	}
	for s := range w.Countries { // not reached: production follows the last turn
		if !w.Countries[s].Dead {
			return s
		}
	}
	return 0
}

// SampleFlanks draws a war's flanks of sent soldiers in all, as attackers
// split them: all on one flank (two times in five), in thirds, in two
// flanks, or at random (one time in five each); which flank takes what is
// drawn too.
func SampleFlanks(sent int64, rng *rand.PCG) Flanks {
	sent = max(sent, 0)
	var f Flanks
	switch engine.Below(rng, 5) {
	case 0, 1:
		f = Flanks{sent, 0, 0}
	case 2:
		f = Thirds(sent)
	case 3:
		f = Flanks{sent / 2, sent - sent/2, 0}
	default:
		a := int64(engine.Below(rng, uint64(sent)+1))
		b := int64(engine.Below(rng, uint64(sent-a)+1))
		f = Flanks{a, b, sent - a - b}
	}
	return rotate(f, int(engine.Below(rng, 3)))
}

// rotate turns flanks f k places: the left flank's soldiers go to flank k.
func rotate(f Flanks, k int) Flanks {
	return Flanks{f[(3-k)%3], f[(4-k)%3], f[(5-k)%3]}
}

// Moves appends to buf legal moves for req (engine.Generator). A turn
// gets a wait; recruits to armies of none, a tenth, a quarter, half, three
// quarters and all but one of the country's people, and to each rival's
// army; a war on each rival it can pay for, with the army on one flank, in
// thirds and in two flanks; and trades of gold for food and food for gold
// with a rival drawn by rng, at one for one and at what production makes
// of each. A war's answer gets no soldiers, the army on one flank, in
// thirds, in two flanks, in thirds of what holds the attack, and one split
// drawn at random. A trade's answer has its choices: it gets yes and no.
func (m *Match) Moves(req *engine.Request[Move], rng *rand.PCG, buf []Move) []Move {
	if m.phase == overPhase || req.Seat != m.reqs[m.kind].Seat || req.Kind != m.reqs[m.kind].Kind {
		return append(buf, req.Default)
	}
	switch m.phase {
	case tradePhase:
		return append(buf, AcceptMove, DeclineMove)
	case warPhase:
		return m.defences(req.Seat, m.action.Flanks.Total(), rng, buf)
	}
	return m.actions(req.Seat, rng, buf)
}

// actions appends the turn's moves of seat (see Moves).
func (m *Match) actions(seat int, rng *rand.PCG, buf []Move) []Move {
	w := &m.world
	c := &w.Countries[seat]
	army, pop := c.Stock[Army], c.Stock[Army]+c.Stock[Citizens]
	buf = append(buf, WaitMove)
	start := len(buf)
	recruitTo := func(t int64) {
		t = min(max(t, 0), pop-1)
		if mv := RecruitMove(t - army); t != army && !slices.Contains(buf[start:], mv) {
			buf = append(buf, mv)
		}
	}
	for _, k := range [...]int64{0, 10, 4, 2} {
		if k == 0 {
			recruitTo(0)
		} else {
			recruitTo(pop / k)
		}
	}
	recruitTo(pop * 3 / 4)
	recruitTo(pop - 1)
	for i := range w.Countries {
		if i != seat && !w.Countries[i].Dead {
			recruitTo(w.Countries[i].Stock[Army])
		}
	}
	if army > 0 && c.Stock[Gold] >= w.Preset.GoldForWar {
		for i := range w.Countries {
			if i == seat || w.Countries[i].Dead {
				continue
			}
			k := int(engine.Below(rng, 3))
			buf = append(buf,
				WarMove(i, rotate(Flanks{army, 0, 0}, k)),
				WarMove(i, Thirds(army)),
				WarMove(i, rotate(Flanks{army / 2, army - army/2, 0}, k)))
		}
	}
	return m.trades(seat, rng, buf)
}

// trades appends offers of gold for food and food for gold to a living
// rival drawn by rng: one for one, and at the rate production makes them.
func (m *Match) trades(seat int, rng *rand.PCG, buf []Move) []Move {
	w := &m.world
	n := w.Living() - 1
	if n < 1 {
		return buf
	}
	pick := int(engine.Below(rng, uint64(n)))
	with := -1
	for i := range w.Countries {
		if i != seat && !w.Countries[i].Dead {
			if pick == 0 {
				with = i
				break
			}
			pick--
		}
	}
	me, other := &w.Countries[seat].Stock, &w.Countries[with].Stock
	p := &w.Preset
	// The food a gold buys, as production makes them: food_per_citizen
	// over gold_per_citizen, at least one.
	rate := int64(1)
	if g, f := p.GoldPerCitizen.Floor(1000), p.FoodPerCitizen.Floor(1000); g > 0 && f > g {
		rate = f / g
	}
	offer := func(give Resource, giveN int64, take Resource, takeN int64) {
		mv := TradeMove(with, give, giveN, take, takeN)
		if (giveN > 0 || takeN > 0) && w.Check(seat, mv) == nil {
			buf = append(buf, mv)
		}
	}
	g := min(me[Gold]/4, other[Food]/rate)
	offer(Gold, g, Food, g*rate)
	offer(Gold, g, Food, g)
	f := min(me[Food]/4, other[Gold]*rate)
	offer(Food, f, Gold, f/rate)
	offer(Food, f, Gold, f)
	return buf
}

// defences appends answers of seat to a war of sent soldiers (see Moves).
func (m *Match) defences(seat int, sent int64, rng *rand.PCG, buf []Move) []Move {
	w := &m.world
	army := w.Countries[seat].Stock[Army]
	k := int(engine.Below(rng, 3))
	half := army / 2
	hold := min(army, sent-sent/4) // thirds of three quarters hold a blow on one flank
	start := len(buf)
	add := func(f Flanks) {
		if mv := DefendMove(f); !slices.Contains(buf[start:], mv) {
			buf = append(buf, mv)
		}
	}
	add(Flanks{})
	if army == 0 {
		return buf
	}
	add(Thirds(army))
	add(rotate(Flanks{army, 0, 0}, k))
	add(rotate(Flanks{half, army - half, 0}, k))
	add(Thirds(hold))
	a := int64(engine.Below(rng, uint64(army)+1))
	b := int64(engine.Below(rng, uint64(army-a)+1))
	add(Flanks{a, b, army - a - b})
	return buf
}

// Estimate writes each country's share of the win were the game to stop
// now, as the rules rank it then: the living share it, each by its people
// (citizens and soldiers) and the people its land holds, to count its
// strength; the dead get none (engine.Estimator).
func (m *Match) Estimate(shares []float64) {
	w := &m.world
	capacity := w.Preset.LandCapacity
	var total float64
	for i := range shares {
		shares[i] = 0
		if i >= len(w.Countries) || w.Countries[i].Dead {
			continue
		}
		s := &w.Countries[i].Stock
		shares[i] = float64(s[Citizens]+s[Army]) + float64(capacity.Floor(s[Land]))/2 + 1
		total += shares[i]
	}
	if total > 0 {
		for i := range shares {
			shares[i] /= total
		}
	}
}
