package mcts

import (
	"math"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// maxSeats bounds the seats asked at one node that the node keeps
// statistics for; seats past it are asked by their tables but not scored.
const maxSeats = 32

// tree holds what a search's nodes share.
type tree[M any] struct {
	explore float64
	width   int
}

// node is a decision of the tree: a table for each seat asked there, and
// the node after each joint choice of theirs.
type node[M any] struct {
	visits   int
	tables   []*table[M]
	children map[uint64]*node[M]
}

// table is what one seat may do at a node and how each move fared for it.
type table[M any] struct {
	seat   int
	moves  []M
	visits []int32
	wins   []float64
	total  int
	next   int // the next move not yet tried, in the order drawn
}

// step is one node of a playout's path, and the move (by its index in the
// seat's table) each seat asked there chose; -1 for none.
type step[M any] struct {
	n    *node[M]
	arms [maxSeats]int16
}

func stepOf[M any](n *node[M]) step[M] {
	st := step[M]{n: n}
	for i := range st.arms {
		st.arms[i] = -1
	}
	return st
}

// table returns the table of seat at n, or nil.
func (n *node[M]) table(seat int) *table[M] {
	for _, t := range n.tables {
		if t.seat == seat {
			return t
		}
	}
	return nil
}

// child returns the node after st's joint choice at n, made when new.
func (n *node[M]) child(st *step[M]) *node[M] {
	key := uint64(14695981039346656037)
	for k := range n.tables {
		if k >= maxSeats {
			break
		}
		key ^= uint64(uint16(st.arms[k])) | uint64(k)<<16
		key *= 1099511628211
	}
	if n.children == nil {
		n.children = make(map[uint64]*node[M], 4)
	}
	c := n.children[key]
	if c == nil {
		c = &node[M]{}
		n.children[key] = c
	}
	return c
}

// choose picks req's move at n: its table's index k at n, the move's index
// in the table, and the move. A seat new to the node gets a table of its
// choices, or of the moves m generates (at most the tree's width), in an
// order drawn at random; untried moves are tried first, in that order,
// then UCB1 picks.
func (t *tree[M]) choose(n *node[M], m any, req *engine.Request[M], rng *rand.PCG) (k, arm int, mv M) {
	k = -1
	for i, tab := range n.tables {
		if tab.seat == req.Seat {
			k = i
		}
	}
	if k < 0 {
		n.tables = append(n.tables, t.newTable(m, req, rng))
		k = len(n.tables) - 1
	}
	tab := n.tables[k]
	if tab.next < len(tab.moves) {
		arm = tab.next
		tab.next++
		return k, arm, tab.moves[arm]
	}
	logN := math.Log(float64(tab.total + 1))
	best := math.Inf(-1)
	for i := range tab.moves {
		v := float64(tab.visits[i])
		u := tab.wins[i]/v + t.explore*math.Sqrt(logN/v)
		if u > best {
			best, arm = u, i
		}
	}
	return k, arm, tab.moves[arm]
}

func (t *tree[M]) newTable(m any, req *engine.Request[M], rng *rand.PCG) *table[M] {
	tab := &table[M]{seat: req.Seat}
	switch {
	case len(req.Choices) > 0:
		tab.moves = append(tab.moves, req.Choices...)
	default:
		if g, ok := m.(engine.Generator[M]); ok {
			tab.moves = g.Moves(req, rng, nil)
		}
		if len(tab.moves) == 0 {
			tab.moves = append(tab.moves, req.Default)
		}
	}
	for i := len(tab.moves) - 1; i > 0; i-- {
		j := int(engine.Below(rng, uint64(i+1)))
		tab.moves[i], tab.moves[j] = tab.moves[j], tab.moves[i]
	}
	if len(tab.moves) > t.width && len(req.Choices) == 0 {
		tab.moves = tab.moves[:t.width]
	}
	tab.visits = make([]int32, len(tab.moves))
	tab.wins = make([]float64, len(tab.moves))
	return tab
}
