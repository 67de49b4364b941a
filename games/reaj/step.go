package reaj

import (
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// Moves is one turn's choices for Step, one per society, None (JSON null)
// for a dead one: {"choices": ["adapt", null, "conquer"]}.
type Moves struct {
	Choices []Value `json:"choices"`
}

// ParseMoves reads a Moves object; choices must be value names or null.
func ParseMoves(data []byte) (Moves, error) {
	var in struct {
		Choices *[]Value `json:"choices"`
	}
	if err := engine.DecodeJSON(data, &in); err != nil {
		return Moves{}, fmt.Errorf("moves: %w", err)
	}
	if in.Choices == nil {
		return Moves{}, errors.New("moves: choices is missing; want one value name (or null for a dead society) per society")
	}
	return Moves{Choices: *in.Choices}, nil
}

// Step plays one turn of the rules on a copy of st and returns the state
// after it: the pure rules function. seed seeds the match's random source,
// which the rules draw from only to share out the last land or ecology.
// Societies that die in the step have no turn number (died is 0).
//
// A choice for a dead society, or a living society without one, is refused
// with an *engine.RuleError; a state that is not consistent, or a number of
// choices that does not match it, is a plain error.
func Step(st State, mv Moves, seed uint64) (State, error) {
	if err := st.Check(); err != nil {
		return State{}, err
	}
	if len(mv.Choices) != len(st.Societies) {
		return State{}, fmt.Errorf("moves: %s for %s; give one per society, null for a dead one", count(len(mv.Choices), "choice", "choices"), count(len(st.Societies), "society", "societies"))
	}
	next := st.Clone() // a refused choice leaves it as it was: Turn checks them all first
	if err := Turn(&next, 0, mv.Choices, engine.NewRNG(seed)); err != nil {
		return State{}, err
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
