package territories

import (
	"math/bits"
	"math/rand/v2"
)

// General returns the general: it plays each decision forward before it
// makes it. For its join, every free territory; for an action of its turn,
// a covering set of them (see Match.Moves): each is tried on copies of the
// board with dice of the general's own, and the game played on from there
// by every nation as the greedy bot plays, for a few turns or to the end.
// Each playout is scored by how the general's nation stands at its end
// (won or lost; else its share of territories and armies, as
// Match.Estimate counts it), and the candidates are narrowed by halves
// until one is left, the playouts of a decision shared evenly among the
// rounds and in each round among the candidates still in. All of them see
// the same dice playout by playout, so they are compared on equal luck.
// Its budget is counted in playouts, not time: the same game gives the
// same decisions on any machine.
func General() Bot {
	return &general{rng: rand.NewPCG(1, 2), budget: generalBudget, horizon: generalHorizon}
}

// The general's budget: the playouts of a decision, the turns a playout
// looks ahead, and the actions it plays at most (on a large map, fewer
// turns than the horizon).
const (
	generalBudget   = 1280
	generalHorizon  = 6
	generalMaxSteps = 400
)

type general struct {
	rng     *rand.PCG
	budget  int
	horizon int

	// Scratch, reused from decision to decision.
	cands  []Action
	alive  []int
	score  []float64
	played []int
	play   *World
	seeds  []uint64
}

func (g *general) Seed(src *rand.Rand) { g.rng = rand.NewPCG(src.Uint64(), src.Uint64()) }
func (*general) Bounded() bool         { return true }

func (g *general) Join(v View) (Action, error) {
	g.cands = append(g.cands[:0], v.m.choices...)
	return g.decide(v), nil
}

func (g *general) Act(v View) (Action, error) {
	k := v.Nation()
	if k < 0 {
		return PassAction, nil
	}
	g.cands = v.World().appendActions(g.cands[:0], k)
	if len(g.cands) == 0 {
		return PassAction, nil
	}
	return g.decide(v), nil
}

// decide plays the candidates out and returns the best, by successive
// halving: each round plays every candidate still in on the round's dice,
// and keeps the better half.
func (g *general) decide(v View) Action {
	if len(g.cands) == 1 {
		return g.cands[0]
	}
	root := v.World()
	g.alive = g.alive[:0]
	g.score = append(g.score[:0], make([]float64, len(g.cands))...)
	g.played = append(g.played[:0], make([]int, len(g.cands))...)
	for i := range g.cands {
		g.alive = append(g.alive, i)
	}
	if g.play == nil {
		g.play = &World{dice: rand.NewPCG(0, 0), untracked: true}
	}
	seat, turns := v.You(), v.m.turns
	seats := v.m.seats
	rounds := bits.Len(uint(len(g.alive) - 1)) // ⌈log2 candidates⌉
	for len(g.alive) > 1 {
		n := max(1, g.budget/rounds/len(g.alive))
		g.seeds = g.seeds[:0]
		for range n {
			g.seeds = append(g.seeds, g.rng.Uint64())
		}
		for _, c := range g.alive {
			for _, s := range g.seeds {
				g.score[c] += g.playout(root, g.cands[c], seat, seats, turns, s)
				g.played[c]++
			}
		}
		g.keepBetterHalf()
	}
	return g.cands[g.alive[0]]
}

// keepBetterHalf keeps the better half of the candidates still in, by mean
// score; ties keep the earlier.
func (g *general) keepBetterHalf() {
	mean := func(c int) float64 { return g.score[c] / float64(g.played[c]) }
	a := g.alive
	for i := 1; i < len(a); i++ { // insertion sort, best first, stable
		for j := i; j > 0 && mean(a[j]) > mean(a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	g.alive = a[:(len(a)+1)/2]
}

// playout applies action a of seat to a copy of root with dice seeded
// from seed, plays on as the greedy bot plays for every seat for g.horizon
// turns or to the end, and scores the end for seat: 1 won, 0 lost, else
// its share (see standing).
func (g *general) playout(root *World, a Action, seat, seats, turns int, seed uint64) float64 {
	w := g.play
	w.cfg = root.cfg
	w.nations = append(w.nations[:0], root.nations...)
	w.held = append(w.held[:0], root.held...)
	w.seq, w.turn = root.seq, root.turn
	w.dice.Seed(seed, 0x67656e)
	players := seatNames[:seats]
	if _, err := w.Apply(players[seat], a); err != nil {
		return 0
	}
	until := w.turn + g.horizon
	for step := 0; ; step++ {
		if len(w.nations) == seats && (w.InGame() <= 1 || w.turn > turns) {
			break
		}
		if w.turn > until || step == generalMaxSteps {
			return standing(w, seat, seats)
		}
		if len(w.nations) < seats {
			s := len(w.nations)
			if _, err := w.Apply(players[s], greedyJoin(w, s)); err != nil {
				break // not reached: greedy joins on a free territory
			}
			continue
		}
		s := nextToAct(w, seats)
		if s < 0 {
			break
		}
		if _, err := w.play(s, greedyOrder(w, s)); err != nil {
			break // not reached: greedy's actions are legal
		}
	}
	return final(w, seat)
}

// seatNames are the world's players of the seats, as a match names them.
var seatNames = func() (p [MaxSeats]string) {
	copy(p[:], seatPlayers(MaxSeats))
	return p
}()

// nextToAct returns the seat that acts next on w, a game whose seats have
// all joined, as a match asks it: the first with actions left; −1 when
// nobody can act.
func nextToAct(w *World, seats int) int {
	for s := range seats {
		if w.nations[s].ActionsLeft() > 0 {
			return s
		}
	}
	return -1
}

// final scores a finished game for seat, as Match.end ranks it: 1 when it
// ranks first alone, 1/n when it shares the first place with n − 1 others,
// 0 otherwise.
func final(w *World, seat int) float64 {
	if !w.nations[seat].In() {
		return 0
	}
	var held [MaxTerritories]int
	var armies [MaxTerritories]int
	for _, h := range w.held {
		if h.Nation >= 0 {
			held[h.Nation]++
			armies[h.Nation] += h.Armies
		}
	}
	tied := 1
	for k := range w.nations {
		if k == seat || !w.nations[k].In() {
			continue
		}
		switch {
		case held[k] > held[seat] || (held[k] == held[seat] && armies[k] > armies[seat]):
			return 0
		case held[k] == held[seat] && armies[k] == armies[seat]:
			tied++
		}
	}
	return 1 / float64(tied)
}

// standing is seat's share of the win on w, a game under way, as
// Match.Estimate counts it.
func standing(w *World, seat, seats int) float64 {
	var held, armies [MaxSeats]int
	for _, h := range w.held {
		if h.Nation >= 0 && h.Nation < MaxSeats {
			held[h.Nation]++
			armies[h.Nation] += h.Armies
		}
	}
	total, mine := 0.0, 0.0
	for k := range min(len(w.nations), seats) {
		if !w.nations[k].In() {
			continue
		}
		x := float64(held[k]) + 0.5*float64(armies[k])
		total += x * x
		if k == seat {
			mine = x * x
		}
	}
	if total == 0 {
		return 0
	}
	return mine / total
}
