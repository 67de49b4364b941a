package reaj

import (
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// Clone returns a copy of the match that plays on as it does, its random
// source included, and shares no memory with it (engine.Cloner).
func (m *Match) Clone() engine.Match[Value, View] {
	c := *m
	c.state = m.state.Clone()
	c.pcg = clonePCG(m.pcg)
	c.chosen = slices.Clone(m.chosen)
	c.last = slices.Clone(m.last)
	c.reqs = slices.Clone(m.reqs)
	c.open_ = nil
	c.result.Scores = slices.Clone(m.result.Scores)
	c.result.Ranks = slices.Clone(m.result.Ranks)
	c.result.Winners = slices.Clone(m.result.Winners)
	c.result.Status = slices.Clone(m.result.Status)
	return &c
}

func clonePCG(p *rand.PCG) *rand.PCG {
	b, _ := p.MarshalBinary()
	c := &rand.PCG{}
	_ = c.UnmarshalBinary(b)
	return c
}

// Sample makes a match from what seat's view shows: the state, the turn
// and the last turn's choices, with every living society yet to choose
// (the others' choices this turn are hidden) and dice drawn from rng
// (engine.Sampler).
func (Game) Sample(setup engine.Setup, seat int, v View, rng *rand.PCG) (engine.Match[Value, View], error) {
	st := v.State()
	n := len(st.Societies)
	m := &Match{turns: v.Turns(), turn: v.Turn() - 1, state: st, pcg: rand.NewPCG(rng.Uint64(), rng.Uint64()),
		chosen: make([]Value, n), living: st.Living(), last: noChoices(n), players: setup.Players}
	if m.turn > 0 {
		copy(m.last, v.m.last)
	}
	m.open()
	return m, nil
}

// Estimate shares the win by the scores as they stand, a living society's
// counted whole and a dead one's halved (engine.Estimator): a search that
// stops a playout early scores it so.
func (m *Match) Estimate(shares []float64) {
	total := 0.0
	for i := range shares {
		s := float64(max(0, m.state.Score(i)))
		if m.state.Societies[i].Dead {
			s /= 2
		}
		shares[i] = s
		total += s
	}
	for i := range shares {
		if total > 0 {
			shares[i] /= total
		} else {
			shares[i] = 1 / float64(len(shares))
		}
	}
}
