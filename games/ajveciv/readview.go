package ajveciv

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a society's player is sent as
// JSON, {you, turn, turns, kind, offered, world, last, last_kind}, each
// read back into the View the player is given in process
// (engine.ViewReader): its methods, World, the search's Sample and the
// built-in AIs all read it as they read the match's own. info is the match
// as its hello tells it: the seat, the players (whom String names) and the
// options.
//
// A view's JSON holds all a society knows, so nothing is lost: a view read
// back is the view in process, but for the names of the players, which
// are those of the hello (a program by its file, exec:bot.py, as the JSON
// that other seats are sent names it).
func (g Game) ReadViews(info engine.MatchInfo) (func(id int64, data []byte) (View, error), error) {
	setup := engine.Setup{Players: info.Players, Options: info.Options}
	if err := setup.Check(declared); err != nil {
		return nil, err
	}
	turns, inflections, err := g.options(setup)
	if err != nil {
		return nil, err
	}
	if info.Seat < 0 || info.Seat >= setup.Seats() {
		return nil, fmt.Errorf("ajveciv: seat %d of a game of %d societies", info.Seat, setup.Seats())
	}
	r := &viewReader{g: g, seat: info.Seat, turns: turns, inflections: inflections, players: slices.Clone(info.Players)}
	return r.read, nil
}

// viewReader reads one seat's views, each into a match of its own that
// holds what the view shows and nothing else.
type viewReader struct {
	g           Game
	seat, turns int
	inflections bool
	players     []string
}

// wireView is a view's JSON, as View.MarshalJSON writes it, every field
// but last and last_kind required.
type wireView struct {
	You      *int            `json:"you"`
	Turn     *int            `json:"turn"`
	Turns    *int            `json:"turns"`
	Kind     engine.Kind     `json:"kind"`
	Offered  []Value         `json:"offered"`
	World    json.RawMessage `json:"world"`
	Last     []Value         `json:"last"`
	LastKind engine.Kind     `json:"last_kind"`
}

// read reads one view.
func (r *viewReader) read(_ int64, data []byte) (View, error) {
	var j wireView
	if err := json.Unmarshal(data, &j); err != nil {
		return View{}, fmt.Errorf("ajveciv: view: %w", err)
	}
	switch {
	case j.You == nil || j.Turn == nil || j.Turns == nil || j.Kind == "" || j.Offered == nil || j.World == nil:
		return View{}, errors.New("ajveciv: view: you, turn, turns, kind, offered and world are required")
	case *j.You != r.seat:
		return View{}, fmt.Errorf("ajveciv: view: it is society %d's; this seat is society %d", *j.You+1, r.seat+1)
	case *j.Turns != r.turns:
		return View{}, fmt.Errorf("ajveciv: view: a game of %d turns; the hello's options say %d", *j.Turns, r.turns)
	case *j.Turn < 0 || *j.Turn > r.turns:
		return View{}, fmt.Errorf("ajveciv: view: turn %d of a game of %d", *j.Turn, r.turns)
	case j.Kind != TurnKind && j.Kind != InflectionKind:
		return View{}, fmt.Errorf("ajveciv: view: kind %q; want %q or %q", j.Kind, TurnKind, InflectionKind)
	case j.Kind == InflectionKind && (!r.inflections || *j.Turn == 0 || *j.Turn%InflectionEvery != 0):
		return View{}, fmt.Errorf("ajveciv: view: an inflection after turn %d, which has none", *j.Turn)
	case j.Kind == TurnKind && *j.Turn == 0:
		return View{}, errors.New("ajveciv: view: turn 0; turns count from 1")
	}
	w, err := ParseWorld(j.World)
	if err != nil {
		return View{}, fmt.Errorf("ajveciv: view: %w", err)
	}
	n := len(r.players)
	if len(w.Societies) != n {
		return View{}, fmt.Errorf("ajveciv: view: the world has %d societies for %d players", len(w.Societies), n)
	}
	o := noOffer
	switch len(j.Offered) {
	case 0:
	case 3:
		a, b, c := j.Offered[0], j.Offered[1], j.Offered[2]
		if !a.Valid() || !b.Valid() || !c.Valid() || a == b || a == c || b == c {
			return View{}, fmt.Errorf("ajveciv: view: offered %v, %v, %v; an offer is three different values", a, b, c)
		}
		o = newOffer(a, b, c)
	default:
		return View{}, fmt.Errorf("ajveciv: view: %d values offered; an offer is three", len(j.Offered))
	}
	last := noChoices(n)
	if j.Last != nil {
		if len(j.Last) != n {
			return View{}, fmt.Errorf("ajveciv: view: last has %d choices for %d societies", len(j.Last), n)
		}
		copy(last, j.Last)
		if j.LastKind != TurnKind && j.LastKind != InflectionKind {
			return View{}, fmt.Errorf("ajveciv: view: last_kind %q; want %q or %q", j.LastKind, TurnKind, InflectionKind)
		}
	}
	infl := j.Kind == InflectionKind
	turn := *j.Turn // the turns completed
	if !infl {
		turn--
	}
	m := &Match{
		rules:       r.g.Rules,
		variant:     r.g.Variant,
		turns:       r.turns,
		inflections: r.inflections,
		world:       w,
		original:    isOriginal(r.g.Rules),
		turn:        turn,
		kind:        j.Kind,
		infl:        infl,
		vturn:       *j.Turn,
		round:       roundOf(turn, r.inflections, infl),
		chosen:      noChoices(n),
		last:        last,
		lastInfl:    j.Last != nil && j.LastKind == InflectionKind,
		players:     r.players,
		living:      w.Living(),
	}
	m.offers, m.shown = offers(n)
	for i := range m.offers {
		m.offers[i] = noOffer
	}
	m.offers[r.seat] = o
	copy(m.shown, m.offers)
	return View{m: m, you: r.seat}, nil
}
