// Package mcts is a search AI for every game: Monte-Carlo tree search over
// the match, from what the engine's search hooks give (engine/search.go).
//
// At each decision the player searches a tree of its own. Every playout
// starts from a fresh sample of the match made from its seat's view alone
// (engine.Sampler): where the game hides something, each playout sees one
// of the states the view allows, and the statistics gather over all of them
// (information-set search); the sample's dice are the player's own. A
// node holds, for each seat asked there, the moves it may make and how they
// fared for that seat (decoupled selection, so simultaneous choices are
// searched as simultaneous: no seat's statistics depend on a choice it
// could not see). Selection is UCB1 on the seat's own share of the win;
// past the tree, moves are drawn at random among the choices or the
// generated moves (engine.Generator), until the match ends or the playout's
// depth runs out (then engine.Estimator scores it, or it counts as a draw).
// The move played is the one tried most often at the root.
//
// With a fixed number of playouts (Config.Playouts) the player is
// reproducible: its dice are its seat's own (engine.MatchInfo.RNG).
package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// Player is the search AI for a game of move type M and view type V.
type Player[M, V any] struct {
	cfg     Config
	sampler engine.Sampler[M, V]

	setup engine.Setup
	seat  int
	rng   *rand.PCG
	// Playouts counts the playouts of the last decision, for tests and
	// measurements.
	Playouts int

	// policy, when set, plays each seat past the tree (Config.Rollout).
	newPolicy func() engine.Player[M, V]
	policy    []engine.Player[M, V]
	ctx       context.Context

	shares  []float64
	pending []engine.Request[M]
	moves   []M
	path    []step[M]
}

// New returns a search player for rules, which must be an engine.Sampler.
// rollout makes the player that plays every seat past the tree, one per
// seat and per match (a game's bot, or one of your own); nil plays random
// moves there. Config.Rollout names that player in errors; when it is set,
// rollout must be given.
func New[M, V any](rules engine.Ruleset[M, V], cfg Config, rollout func() engine.Player[M, V]) (*Player[M, V], error) {
	s, ok := rules.(engine.Sampler[M, V])
	if !ok {
		return nil, fmt.Errorf("%s has no search AI: its rules offer no sample of a match from a view (engine.Sampler)", rules.Info().Name)
	}
	if cfg.Playouts <= 0 && cfg.Time <= 0 {
		return nil, errors.New("mcts: a budget of playouts or time is needed")
	}
	if cfg.Explore <= 0 {
		cfg.Explore = DefaultExplore
	}
	if cfg.Width <= 0 {
		cfg.Width = DefaultWidth
	}
	if cfg.Rollout != "" && rollout == nil {
		return nil, fmt.Errorf("mcts: Config.Rollout names %q, but New was given no rollout to make it: pass the function that makes that player (a game's bot: the New of its Bots(%q) entrant)", cfg.Rollout, cfg.Rollout)
	}
	return &Player[M, V]{cfg: cfg, sampler: s, newPolicy: rollout}, nil
}

// Start takes the match's players and options and seeds the player's dice
// from its seat's seed.
func (p *Player[M, V]) Start(_ context.Context, info engine.MatchInfo) error {
	p.setup = engine.Setup{Players: info.Players, Options: info.Options}
	p.seat = info.Seat
	p.rng = info.RNG()
	p.shares = make([]float64, len(info.Players))
	p.policy = nil
	if p.newPolicy != nil {
		p.policy = make([]engine.Player[M, V], len(info.Players))
		for s := range p.policy {
			pl := p.newPolicy()
			if st, ok := pl.(engine.Starter); ok {
				i := info
				i.Seat, i.Seed = s, p.rng.Uint64()
				if err := st.Start(context.Background(), i); err != nil {
					return fmt.Errorf("mcts: rollout=%s: %w", p.cfg.Rollout, err)
				}
			}
			p.policy[s] = pl
		}
	}
	return nil
}

// Decide searches for seat's move.
func (p *Player[M, V]) Decide(ctx context.Context, req *engine.Request[M], view V) (M, error) {
	if len(req.Choices) == 1 {
		return req.Choices[0], nil
	}
	if p.rng == nil {
		return req.Default, errors.New("mcts: the player was not started")
	}
	budget := p.cfg.Time
	if d := req.Deadline * 3 / 4; d > 0 && (budget == 0 || d < budget) {
		budget = d // a seat's deadline is never overrun for a search
	}
	var stop time.Time
	if budget > 0 {
		stop = time.Now().Add(budget)
	}
	t := tree[M]{explore: p.cfg.Explore, width: p.cfg.Width}
	root := &node[M]{}
	p.Playouts = 0
	p.ctx = ctx
	for {
		if p.cfg.Playouts > 0 && p.Playouts >= p.cfg.Playouts {
			break
		}
		if p.Playouts&15 == 0 && p.Playouts > 0 {
			if !stop.IsZero() && time.Now().After(stop) {
				break
			}
			if ctx.Err() != nil {
				break
			}
		}
		s, err := p.sampler.Sample(p.setup, p.seat, view, p.rng)
		if err != nil {
			if p.Playouts == 0 {
				return req.Default, fmt.Errorf("mcts: sample: %w", err)
			}
			break
		}
		p.playout(&t, root, s)
		p.Playouts++
	}
	tab := root.table(p.seat)
	if tab == nil || len(tab.moves) == 0 {
		return req.Default, nil
	}
	best := 0
	for i := range tab.moves {
		if tab.visits[i] > tab.visits[best] || tab.visits[i] == tab.visits[best] && tab.wins[i] > tab.wins[best] {
			best = i
		}
	}
	return tab.moves[best], nil
}

// Bounded reports that a decision returns by itself, without blocking on
// anything: a fixed number of playouts, or the clock.
func (p *Player[M, V]) Bounded() bool { return true }

// playout plays m, a fresh sample, from the root down the tree, adds one
// node, plays on at random, and scores the end for every seat along the
// path.
func (p *Player[M, V]) playout(t *tree[M], root *node[M], m engine.Match[M, V]) {
	n := root
	p.path = p.path[:0]
	moves := 0
	inTree := true
	depth := p.cfg.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	for !m.Over() && moves < depth {
		reqs := m.Pending()
		if len(reqs) == 0 {
			break
		}
		p.pending = append(p.pending[:0], reqs...)
		if inTree {
			st := stepOf(n)
			for _, req := range p.pending {
				k, arm, mv := t.choose(n, m, &req, p.rng)
				if k < maxSeats {
					st.arms[k] = int16(arm)
				}
				if m.Apply(req.Seat, mv) != nil {
					_ = m.Apply(req.Seat, req.Default)
				}
				moves++
			}
			p.path = append(p.path, st)
			fresh := n.visits == 0
			n = n.child(&st)
			if fresh {
				inTree = false
				if _, ok := m.(engine.Estimator); ok && p.cfg.Depth == 0 {
					depth = moves + 2*len(p.shares)
				}
			}
			continue
		}
		for _, req := range p.pending {
			mv := p.rollout(m, &req)
			if m.Apply(req.Seat, mv) != nil {
				_ = m.Apply(req.Seat, req.Default)
			}
			moves++
		}
	}
	p.score(m)
	for _, st := range p.path {
		st.n.visits++
		for k, tab := range st.n.tables {
			if k >= maxSeats || st.arms[k] < 0 {
				continue
			}
			a := st.arms[k]
			tab.visits[a]++
			tab.wins[a] += p.shares[tab.seat]
			tab.total++
		}
	}
}

// rollout is req's move past the tree: the rollout player's, or a random
// one.
func (p *Player[M, V]) rollout(m engine.Match[M, V], req *engine.Request[M]) M {
	if p.policy != nil && req.Seat >= 0 && req.Seat < len(p.policy) {
		if mv, err := p.policy[req.Seat].Decide(p.ctx, req, m.View(req.Seat)); err == nil {
			return mv
		}
	}
	return p.random(m, req)
}

// random is a move for req drawn at random among its choices or the moves
// the match generates.
func (p *Player[M, V]) random(m engine.Match[M, V], req *engine.Request[M]) M {
	if n := len(req.Choices); n > 0 {
		return req.Choices[engine.Below(p.rng, uint64(n))]
	}
	g, ok := m.(engine.Generator[M])
	if !ok {
		return req.Default
	}
	p.moves = g.Moves(req, p.rng, p.moves[:0])
	if len(p.moves) == 0 {
		return req.Default
	}
	return p.moves[engine.Below(p.rng, uint64(len(p.moves)))]
}

// score sets p.shares to each seat's share of the win at m's end: half for
// winning (split among the winners), a quarter by rank and a quarter by
// score, from the lowest to the highest. A match not over is the game's
// estimate, or an even share.
func (p *Player[M, V]) score(m engine.Match[M, V]) {
	n := len(p.shares)
	if !m.Over() {
		if e, ok := m.(engine.Estimator); ok {
			e.Estimate(p.shares)
			return
		}
		for s := range p.shares {
			p.shares[s] = 1 / float64(n)
		}
		return
	}
	r := m.Result()
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, sc := range r.Scores {
		lo, hi = min(lo, sc), max(hi, sc)
	}
	for s := range p.shares {
		p.shares[s] = 0
		if n > 1 && s < len(r.Ranks) {
			p.shares[s] += 0.25 * float64(n-r.Ranks[s]) / float64(n-1)
		}
		if s < len(r.Scores) && hi > lo {
			p.shares[s] += 0.25 * float64(r.Scores[s]-lo) / float64(hi-lo)
		}
	}
	for _, w := range r.Winners {
		if w >= 0 && w < n {
			p.shares[w] += 0.5 / float64(len(r.Winners))
		}
	}
}
