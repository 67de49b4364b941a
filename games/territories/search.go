package territories

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// What a search AI needs of territories (engine/search.go): a match copies
// itself (Clone), lists a covering set of a seat's actions (Moves) and says
// how each seat stands before the end (Estimate); and Game makes a match
// from a seat's view alone, with dice of its own (Sample).

// Clone returns a copy of the match that continues exactly as the match
// would under the same actions, dice included, and shares nothing it
// changes with it.
func (m *Match) Clone() engine.Match[Action, View] { return m.CloneMatch() }

// CloneMatch is Clone with the concrete type.
func (m *Match) CloneMatch() *Match {
	c := *m
	c.w = m.w.Clone()
	c.seen = nil
	c.acted = slices.Clone(m.acted)
	// The chronicle only grows: the clone's appends go to an array of its
	// own. The latest outcomes are written in place: whoever writes next
	// copies them first.
	c.events = slices.Clip(m.events)
	m.recentShared, c.recentShared = true, true
	if m.req[0].Choices != nil {
		c.choices = slices.Clone(m.choices)
		c.req[0].Choices = c.choices
	} else {
		c.choices = nil
	}
	return &c
}

// Moves appends to buf a covering set of seat's legal answers to req, one
// of the match's pending requests: at a join its choices (every free
// territory); on a turn every raise and every attack, each move to a
// neighbour with one army, half the armies and the most that may go (all
// of them, or what the neighbour has room for), and pass. It needs no
// dice: the set is the same every time. A colour change is not an action
// of a turn, and not among them.
func (m *Match) Moves(req *engine.Request[Action], _ *rand.PCG, buf []Action) []Action {
	if req.Choices != nil {
		return append(buf, req.Choices...)
	}
	n := len(buf)
	buf = m.w.appendActions(buf, m.nationOf(req.Seat))
	if len(buf) == n {
		buf = append(buf, req.Default)
	}
	return buf
}

// appendActions appends nation k's covering set of actions (see Moves) to
// buf; nothing when it may not act.
func (w *World) appendActions(buf []Action, k int) []Action {
	return w.actions(buf, k, false)
}

// actions appends to buf nation k's raises, attacks and moves, then pass
// when turn management is on; nothing when it may not act. A move into a
// territory that takes at most most more armies is made with every number
// of them when every is set, else with 1, half the armies and the most.
func (w *World) actions(buf []Action, k int, every bool) []Action {
	if k < 0 || !w.nations[k].In() || !w.Started() || (w.cfg.TurnManagement && w.nations[k].ActionsLeft() == 0) {
		return buf
	}
	cfg := w.cfg
	for i, h := range w.held {
		if h.Nation != k {
			continue
		}
		id := cfg.Territories[i].ID
		if h.Armies < cfg.MaxArmies {
			buf = append(buf, RaiseAction(id))
		}
		for _, j := range cfg.neighbors[i] {
			to := w.held[j]
			if to.Nation >= 0 && to.Nation != k {
				buf = append(buf, AttackAction(id, cfg.Territories[j].ID))
				continue
			}
			most := min(h.Armies, cfg.MaxArmies-to.Armies)
			if every {
				for n := 1; n <= most; n++ {
					buf = append(buf, MoveAction(id, n, cfg.Territories[j].ID))
				}
				continue
			}
			half := min(h.Armies/2, most)
			if most >= 1 {
				buf = append(buf, MoveAction(id, 1, cfg.Territories[j].ID))
			}
			if half > 1 {
				buf = append(buf, MoveAction(id, half, cfg.Territories[j].ID))
			}
			if most > max(half, 1) {
				buf = append(buf, MoveAction(id, most, cfg.Territories[j].ID))
			}
		}
	}
	if cfg.TurnManagement {
		buf = append(buf, PassAction)
	}
	return buf
}

// Estimate writes each seat's share of the win as the board stands: none
// for a nation out of the game; among those in, a share that grows with
// the square of its strength, its territories and half its armies (the
// score, and what takes and keeps it). A finished match gives its winners
// equal shares.
func (m *Match) Estimate(shares []float64) {
	clear(shares)
	if m.over {
		for _, s := range m.result.Winners {
			shares[s] = 1 / float64(len(m.result.Winners))
		}
		return
	}
	var held, armies [MaxSeats]int
	for _, h := range m.w.held {
		if h.Nation >= 0 && h.Nation < MaxSeats {
			held[h.Nation]++
			armies[h.Nation] += h.Armies
		}
	}
	total := 0.0
	for s := range m.seats {
		k := m.nationOf(s)
		if k < 0 && len(m.w.nations) < m.seats {
			shares[s] = 1 // still to join: as good as anyone
		} else if k >= 0 && m.w.nations[k].In() {
			x := float64(held[k]) + 0.5*float64(armies[k])
			shares[s] = x * x
		}
		total += shares[s]
	}
	if total == 0 {
		return
	}
	for s := range m.seats {
		shares[s] /= total
	}
}

// Sample makes a match from seat's view alone (see engine.Sampler): the
// board is public, so the sample's is the view's, nations, holdings,
// actions left and turn; only the dice are hidden, and the sample's come
// from rng. It owes the request the view was shown for, and shows the seat
// the view: what happened since its last action (the outcomes, without
// the draws the log keeps of them) and the turn in which each nation out
// of the game went out. The other seats' views show what of that is since
// their last action in it. setup gives the players and the options (the
// turns); its seed is not used.
func (g Game) Sample(setup engine.Setup, seat int, v View, rng *rand.PCG) (engine.Match[Action, View], error) {
	return g.SampleMatch(setup, seat, v, rng)
}

// SampleMatch is Sample with the concrete type.
func (Game) SampleMatch(setup engine.Setup, seat int, v View, rng *rand.PCG) (*Match, error) {
	if v.m == nil {
		return nil, errors.New("territories: sample: an empty view; want a view a match gave")
	}
	if seat != v.seat {
		return nil, fmt.Errorf("territories: sample: the view is seat %d's, not seat %d's", v.seat+1, seat+1)
	}
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return nil, err
	}
	if n := setup.Seats(); n != v.m.seats {
		return nil, fmt.Errorf("territories: sample: the setup has %d seats; the view's match has %d", n, v.m.seats)
	}
	if v.m.over {
		return nil, errors.New("territories: sample: the game is over; there is nothing to decide")
	}
	seen := v.World()
	w := &World{cfg: seen.cfg, nations: slices.Clone(seen.nations), held: slices.Clone(seen.held), seq: seen.seq, turn: seen.turn,
		dice: rand.NewPCG(rng.Uint64(), rng.Uint64()), untracked: true}
	m := &Match{w: w, seats: v.m.seats, turns: turns, players: seatPlayers(v.m.seats), names: setup.Players,
		acted: make([]int, v.m.seats), blind: make([]*Config, v.m.seats), terr: v.m.terr}
	for s := range m.blind {
		m.blind[s] = seen.cfg // the searcher's own copy, for every seat
	}
	m.serial = v.m.req[0].ID - 1
	m.sampleTold(v)
	if v.Kind() == JoinKind {
		m.ask(len(w.nations), JoinKind)
	} else {
		m.ask(m.firstToAct(), ActionKind)
	}
	return m, nil
}

// sampleTold puts into m, a match sampled from v, what v tells of the
// match's actions: the outcomes since v's seat's last action (the
// latest recentSize, their dice left out) and when the seat acted; the
// other seats acted last at their latest action among them, or before
// the first; and the nations out of the game, each in the turn it went
// out (the chronicle's "out" events, in order).
func (m *Match) sampleTold(v View) {
	from, to := v.sinceLast()
	m.recent, m.told = make([]Outcome, recentSize), v.m.told
	for s := range m.acted {
		m.acted[s] = from
	}
	for k := from; k < to; k++ {
		o := v.m.recent[k%recentSize]
		o.Dice = nil
		m.recent[k%recentSize] = o
		if s := slices.Index(m.players, o.Player); s >= 0 {
			m.acted[s] = k
		}
	}
	m.acted[v.seat] = v.m.acted[v.seat]
	for _, e := range v.m.events {
		if e.Kind == "out" {
			m.events = append(m.events, e)
		}
	}
}
