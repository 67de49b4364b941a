package ajveciv

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Moves is one step of the pure rules: a turn's or an inflection's choices,
// one per society, None (JSON null) for a dead one. Its JSON form is
//
//	{"kind": "turn", "choices": ["conquer", null, "develop"]}
type Moves struct {
	Kind    engine.Kind `json:"kind"`
	Choices []Value     `json:"choices"`
}

// ParseMoves reads a Moves object. The kind must be "turn" or "inflection";
// choices must be value names or null; unknown fields are refused.
func ParseMoves(data []byte) (Moves, error) {
	var raw struct {
		Kind    *string         `json:"kind"`
		Choices json.RawMessage `json:"choices"`
	}
	if err := engine.DecodeJSON(data, &raw); err != nil {
		return Moves{}, fmt.Errorf("moves: %w", err)
	}
	if raw.Kind == nil {
		return Moves{}, errors.New(`moves: kind is missing; want "turn" or "inflection"`)
	}
	kind := engine.Kind(*raw.Kind)
	if kind != TurnKind && kind != InflectionKind {
		return Moves{}, fmt.Errorf(`moves: kind %q; want "turn" or "inflection"`, kind)
	}
	if raw.Choices == nil {
		return Moves{}, errors.New("moves: choices is missing; want one value name (or null for a dead society) per society")
	}
	choices, err := choicesJSON(raw.Choices)
	if err != nil {
		return Moves{}, fmt.Errorf("moves: %w", err)
	}
	return Moves{Kind: kind, Choices: choices}, nil
}

// Step applies one turn or inflection of the original rules to a copy of w
// and returns the world after it: the pure rules function, for world authors
// and other programs. seed seeds the match's random source, which the rules
// draw from only to break ties.
//
// The choices must fit the world: one per society, none for a dead society,
// one for each living society, and at an inflection one of the society's
// three highest values. A turn accepts any of the six values (offers are not
// part of the world). A choice the rules refuse is an *engine.RuleError; a
// world that is not consistent, or a number of choices that does not match
// it, is a plain error.
func Step(w World, mv Moves, seed uint64) (World, error) {
	if err := w.Check(); err != nil {
		return World{}, err
	}
	if len(mv.Choices) != len(w.Societies) {
		return World{}, fmt.Errorf("moves: %s for %s; give one per society, in their order (choices[0] is society 1), null for a dead one", count(len(mv.Choices), "choice", "choices"), count(len(w.Societies), "society", "societies"))
	}
	for i, c := range mv.Choices {
		s := &w.Societies[i]
		switch {
		case s.Dead && c != None:
			return World{}, engine.Refuse("dead", "%s is %v, but the society is dead: its choice must be null", choiceAt(i), c)
		case !s.Dead && c == None:
			return World{}, engine.Refuse("missing", "%s is null, but the society is alive and must choose a value", choiceAt(i))
		case !s.Dead && mv.Kind == InflectionKind:
			if top := s.Values.Top(); c != top[0] && c != top[1] && c != top[2] {
				return World{}, engine.Refuse("not-offered", "%s is %v, but at an inflection a society chooses among its three highest values: %v, %v or %v", choiceAt(i), c, top[0], top[1], top[2])
			}
		}
	}
	next := w.Clone()
	var err error
	if mv.Kind == InflectionKind {
		err = OriginalRules{}.Inflection(&next, mv.Choices)
	} else {
		err = OriginalRules{}.Turn(&next, mv.Choices, rand.New(engine.NewRNG(seed)))
	}
	if err != nil {
		return World{}, err
	}
	return next, nil
}

// count writes n with its noun: "1 choice", "3 choices".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
