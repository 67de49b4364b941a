package ajveciv

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// The hooks a search AI plays AjveCiv with (engine/search.go): a match
// copies itself (Clone), and the game makes a match from one society's view
// (Sample).
var (
	_ engine.Cloner[Value, View]  = (*Match)(nil)
	_ engine.Sampler[Value, View] = Game{}
)

// Clone returns a copy of the match that plays on exactly as the match
// would under the same moves, its random source included, and shares no
// memory with it.
func (m *Match) Clone() engine.Match[Value, View] { return m.CloneMatch() }

// CloneMatch is Clone with the concrete type.
func (m *Match) CloneMatch() *Match {
	c := *m
	c.world = m.world.Clone()
	n := len(m.chosen)
	c.offers, c.shown = offers(n)
	copy(c.offers, m.offers)
	copy(c.shown, m.offers)
	// The choices of the round and of the last one share one piece of
	// memory, as the requests do.
	values := make([]Value, 2*n)
	c.chosen = values[:n:n]
	c.last = values[n:]
	copy(c.chosen, m.chosen)
	copy(c.last, m.last)
	c.players = append([]string(nil), m.players...)
	c.rng = *rand.New(&c.pcg)
	c.reqs, c.open = requests(n)
	for _, r := range m.reqs {
		r.Choices = c.shown[r.Seat][:3:3]
		c.reqs = append(c.reqs, r)
	}
	c.result = cloneResult(m.result)
	return &c
}

// cloneResult copies a result's slices.
func cloneResult(r engine.Result) engine.Result {
	if r.Scores != nil {
		r.Scores = append([]int64(nil), r.Scores...)
	}
	if r.Ranks != nil {
		r.Ranks = append([]int(nil), r.Ranks...)
	}
	if r.Winners != nil {
		r.Winners = append([]int{}, r.Winners...)
	}
	if r.Status != nil {
		r.Status = append([]string(nil), r.Status...)
	}
	return r
}

// Sample makes a match from what seat's view shows (see engine.Sampler):
// the world, the turn, seat's own offer and the choices of the last round
// are the view's. A view hides two things, and rng fills them in: the
// offers the other societies hold this turn (at an inflection they are
// known: each society's three highest values), and the chance to come, the
// offers of later turns and the draws among ties, which the sample's own
// random source, seeded from rng, deals. Every other living society still
// owes its choice in the sample, whether or not it has made it in the
// match: a choice not yet revealed is not known.
//
// setup gives the players and the options; its seed is not used.
func (g Game) Sample(setup engine.Setup, seat int, view View, rng *rand.PCG) (engine.Match[Value, View], error) {
	return g.SampleMatch(setup, seat, view, rng)
}

// SampleMatch is Sample with the concrete type.
func (g Game) SampleMatch(setup engine.Setup, seat int, view View, rng *rand.PCG) (*Match, error) {
	if view.m == nil {
		return nil, errors.New("ajveciv: sample: the view is of no match")
	}
	if seat != view.you {
		return nil, fmt.Errorf("ajveciv: sample: the view is society %d's, not society %d's", view.you+1, seat+1)
	}
	offered := view.Offered()
	if offered == nil {
		return nil, fmt.Errorf("ajveciv: sample: society %d has no choice to make", seat+1)
	}
	src := view.m
	if setup.Seats() != len(src.chosen) {
		return nil, fmt.Errorf("ajveciv: sample: the setup has %d seats; the view shows %d societies", setup.Seats(), len(src.chosen))
	}
	turns, inflections, err := g.options(setup)
	if err != nil {
		return nil, fmt.Errorf("ajveciv: sample: %w", err)
	}
	if turns != view.Turns() {
		return nil, fmt.Errorf("ajveciv: sample: the setup is of a game of %d turns; the view's is of %d", turns, view.Turns())
	}
	n := len(src.chosen)
	turn := view.Turn() // the turns completed, at an inflection
	if !view.Inflection() {
		turn--
	}
	m := &Match{
		rules:       g.Rules,
		variant:     g.Variant,
		turns:       turns,
		inflections: inflections,
		world:       view.World().Clone(),
		original:    isOriginal(g.Rules),
		turn:        turn,
		kind:        view.Kind(),
		infl:        view.Inflection(),
		vturn:       view.Turn(),
		round:       roundOf(turn, inflections, view.Inflection()),
		lastInfl:    src.lastInfl,
		players:     append([]string(nil), setup.Players...),
	}
	if m.rules == nil {
		return nil, errors.New("ajveciv: sample: the game has no rules")
	}
	m.living = m.world.Living()
	m.offers, m.shown = offers(n)
	values := make([]Value, 2*n)
	m.chosen, m.last = values[:n:n], values[n:]
	copy(m.last, src.last)
	m.pcg.Seed(rng.Uint64(), rng.Uint64())
	m.rng = *rand.New(&m.pcg)
	m.reqs, m.open = requests(n)
	base := m.round * int64(n)
	for i := range m.world.Societies {
		m.chosen[i] = None
		s := &m.world.Societies[i]
		switch {
		case s.Dead:
			m.offers[i] = noOffer
			continue
		case i == seat:
			m.offers[i] = src.offers[seat]
		case m.infl:
			t := s.Values.Top()
			m.offers[i] = newOffer(t[0], t[1], t[2])
		default:
			m.offers[i] = deal(rng)
		}
		m.reqs = append(m.reqs, engine.Request[Value]{ID: base + int64(i), Seat: i, Kind: m.kind, Choices: m.shown[i][:3:3], Default: m.offers[i][0]})
	}
	copy(m.shown, m.offers)
	m.owed = len(m.reqs)
	return m, nil
}

// options reads the turns and inflections of setup's options.
func (g Game) options(setup engine.Setup) (turns int, inflections bool, err error) {
	info := declared
	if turns, err = setup.Int(info, "turns"); err != nil {
		return 0, false, err
	}
	inflections, err = setup.Bool(info, "inflections")
	return turns, inflections, err
}

// roundOf is the number of the round the rules open after turn turns
// completed: the turn after it, or the inflection that follows it.
func roundOf(turn int, inflections, inflection bool) int64 {
	t := int64(turn)
	round := t + 1
	if inflections {
		round += t / InflectionEvery
	}
	if inflection {
		round--
	}
	return round
}
