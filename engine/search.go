package engine

import "math/rand/v2"

// What a search AI needs of a game.
//
// A search AI (package mcts) plays a decision forward many times with the
// rules themselves: it makes a match of its own that agrees with what its
// seat sees (Sampler), copies it for every playout (Cloner), lists moves
// where a request has no finite list of choices (Generator), and, when a
// playout is cut short, asks how each seat stands (Estimator). None of these
// is needed to host a game; a game that offers them can be played by the
// search AI, and any game added later gets it by offering them too.
//
// Nothing here ever gives a searcher more than its seat's view: a sample is
// made from the view alone, and its chance draws come from the searcher's own
// generator, never from the real match's, which no view carries.

// Sampler is implemented by rulesets whose matches a search AI can play.
type Sampler[M, V any] interface {
	// Sample makes a match that agrees with everything view, seat's view
	// now, shows, and fills in what the view hides (other seats' hidden
	// roles, plans not yet revealed, a war's flanks) by drawing from rng
	// among the states the view allows: a determinization. The match's
	// own chance (dice, draws) comes from rng too.
	//
	// setup holds the match's players and options; its Seed is not the
	// match's and may be ignored. The sample's Pending holds a request of
	// seat's of the same kind as the one the view was shown for, with the
	// same choices when it has a list of them. The sample is the caller's
	// own and shares no memory with view.
	Sample(setup Setup, seat int, view V, rng *rand.PCG) (Match[M, V], error)
}

// Cloner is implemented by matches that copy themselves cheaply, for search:
// the copy continues exactly as the original would under the same moves and
// shares no memory with it, its chance source included.
type Cloner[M, V any] interface {
	Clone() Match[M, V]
}

// Generator is implemented by matches whose requests may have no finite
// list of choices (Request.Choices nil): a TNCC action, a territories
// action, a zombie plan.
type Generator[M any] interface {
	// Moves appends to buf legal moves for req, one of the match's
	// pending requests, and returns the extended slice: all of them when
	// they are few, else a sample drawn with rng that covers every kind of
	// move the game allows there. It never returns none: when nothing else
	// is legal it returns req.Default.
	Moves(req *Request[M], rng *rand.PCG, buf []M) []M
}

// Estimator is implemented by matches that can say, before they end, how
// well each seat stands. A search that cuts a playout short scores it with
// Estimate instead of the final result.
type Estimator interface {
	// Estimate writes into shares, one per seat, each seat's expected
	// share of the win: from 0 to 1, summing to at most 1.
	Estimate(shares []float64)
}
