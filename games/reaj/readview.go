package reaj

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a society's player is sent as
// JSON, {you, turn, turns, environment, societies, relations, kind}, each
// read back into the View the player is given in process
// (engine.ViewReader): its methods, State, the search's Sample and the
// built-in players read it as they read the match's own. info is the
// match as its hello tells it: the seat, the players (whom String names)
// and the options.
//
// The JSON has not the last turn's choices, which String shows and a
// sample keeps: the reader finds them in how the values rose since the
// view before (each living society's chosen value rises by 1, and nothing
// else changes a value), so that a view read back is the view in process,
// but for the names of the players, which are the hello's.
func (Game) ReadViews(info engine.MatchInfo) (func(id int64, data []byte) (View, error), error) {
	setup := engine.Setup{Players: info.Players, Options: info.Options}
	if err := setup.Check(Game{}.Info()); err != nil {
		return nil, err
	}
	turns, err := setup.Int(Game{}.Info(), "turns")
	if err != nil {
		return nil, err
	}
	if info.Seat < 0 || info.Seat >= setup.Seats() {
		return nil, fmt.Errorf("reaj: seat %d of a game of %d societies", info.Seat, setup.Seats())
	}
	r := &viewReader{seat: info.Seat, turns: turns, players: slices.Clone(info.Players)}
	return r.read, nil
}

// viewReader reads one seat's views, each into a match of its own that
// holds what the view shows, and remembers the last one's values.
type viewReader struct {
	seat, turns int
	players     []string
	// turn and values are the last view's turn and societies' values.
	turn   int
	values []Values
}

// wireView is a view's JSON, as View.MarshalJSON writes it.
type wireView struct {
	You         *int            `json:"you"`
	Turn        *int            `json:"turn"`
	Turns       *int            `json:"turns"`
	Environment json.RawMessage `json:"environment"`
	Societies   json.RawMessage `json:"societies"`
	Relations   json.RawMessage `json:"relations"`
	Kind        engine.Kind     `json:"kind"`
}

// read reads one view.
func (r *viewReader) read(_ int64, data []byte) (View, error) {
	var j wireView
	if err := json.Unmarshal(data, &j); err != nil {
		return View{}, fmt.Errorf("reaj: view: %w", err)
	}
	switch {
	case j.You == nil || j.Turn == nil || j.Turns == nil || j.Environment == nil || j.Societies == nil || j.Relations == nil:
		return View{}, errors.New("reaj: view: you, turn, turns, environment, societies and relations are required")
	case *j.You != r.seat:
		return View{}, fmt.Errorf("reaj: view: it is society %d's; this seat is society %d", *j.You+1, r.seat+1)
	case *j.Turns != r.turns:
		return View{}, fmt.Errorf("reaj: view: a game of %d turns; the hello's options say %d", *j.Turns, r.turns)
	case *j.Turn < 1 || *j.Turn > r.turns:
		return View{}, fmt.Errorf("reaj: view: turn %d of a game of %d", *j.Turn, r.turns)
	case j.Kind != TurnKind:
		return View{}, fmt.Errorf("reaj: view: kind %q; want %q", j.Kind, TurnKind)
	}
	state, err := json.Marshal(struct {
		Environment json.RawMessage `json:"environment"`
		Societies   json.RawMessage `json:"societies"`
		Relations   json.RawMessage `json:"relations"`
	}{j.Environment, j.Societies, j.Relations})
	if err != nil {
		return View{}, fmt.Errorf("reaj: view: %w", err)
	}
	st, err := ParseState(state)
	if err != nil {
		return View{}, fmt.Errorf("reaj: view: %w", err)
	}
	n := len(r.players)
	if len(st.Societies) != n {
		return View{}, fmt.Errorf("reaj: view: %d societies for %d players", len(st.Societies), n)
	}
	last := noChoices(n)
	if r.values != nil && r.turn == *j.Turn-1 {
		for i := range st.Societies {
			last[i] = rose(&r.values[i], &st.Societies[i].Values)
		}
	}
	r.turn = *j.Turn
	r.values = r.values[:0]
	for i := range st.Societies {
		r.values = append(r.values, st.Societies[i].Values)
	}
	m := &Match{turns: r.turns, turn: *j.Turn - 1, state: st, chosen: noChoices(n), living: st.Living(), last: last, players: r.players}
	return View{m: m, you: r.seat}, nil
}

// rose returns the value that rose by 1 from was to is, the others staying
// as they were: a society's choice in the turn between; None when none
// did (a society dead before it).
func rose(was, is *Values) Value {
	chosen := None
	for v := range was {
		switch d := is[v] - was[v]; {
		case d == 1 && chosen == None:
			chosen = Value(v)
		case d != 0:
			return None
		}
	}
	return chosen
}
