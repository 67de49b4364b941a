package catalog

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/tncc"
)

// ajvecivStep is one turn or inflection of the original rules on a world in
// AjveCiv's JSON shape.
func ajvecivStep(state, moves []byte, seed uint64) ([]byte, error) {
	return pureStep(state, moves, ajveciv.ParseWorld, ajveciv.ParseMoves,
		func(w ajveciv.World, m ajveciv.Moves) (ajveciv.World, error) { return ajveciv.Step(w, m, seed) })
}

// reajStep is one turn of the rules on a state in Reaj's JSON shape.
func reajStep(state, moves []byte, seed uint64) ([]byte, error) {
	return pureStep(state, moves, reaj.ParseState, reaj.ParseMoves,
		func(s reaj.State, m reaj.Moves) (reaj.State, error) { return reaj.Step(s, m, seed) })
}

// tnccStep is one action (with its answer) or one production step on a
// world in TNCC's world JSON.
func tnccStep(state, moves []byte, _ uint64) ([]byte, error) {
	return pureStep(state, moves, func(b []byte) (tncc.World, error) {
		var w tncc.World
		err := w.UnmarshalJSON(b)
		return w, err
	}, tncc.ParseStepMove, tncc.Step)
}

// territoriesStep is one action on a territories world.
func territoriesStep(state, moves []byte, _ uint64) ([]byte, error) {
	return pureStep(state, moves, territories.ParseStepState, territories.ParseStepMove, territories.Step)
}

// ErrNoStep is what Step's error is (errors.Is) for a game that has no
// world to step, whatever it is given.
var ErrNoStep = errors.New("the game has no world JSON to step")

// zombieStep says there is no world to step: a judge's state is its script.
func zombieStep(_, _ []byte, _ uint64) ([]byte, error) {
	return nil, &InputError{noStep("zombie has no world JSON to step: its state is the script so far; write the commands into game.txt and run arbiter zombie run, or arbiter zombie watch")}
}

// noStep is ErrNoStep in a game's own words.
type noStep string

func (e noStep) Error() string   { return string(e) }
func (noStep) Is(err error) bool { return err == ErrNoStep }

// pureStep is a game's pure step: a state or moves that do not parse, or
// moves that the step finds do not fit the state (three choices for two
// societies), are invalid input, named by the flag that gave them as
// arbiter step names them (--moves: ...); a move the rules refuse is the
// rules' error; the world after the step is one JSON line.
func pureStep[S, M, W any](state, moves []byte, parseState func([]byte) (S, error), parseMoves func([]byte) (M, error), step func(S, M) (W, error)) ([]byte, error) {
	s, err := parseState(state)
	if err != nil {
		return nil, Invalid(fmt.Errorf("--state: %w", err))
	}
	m, err := parseMoves(moves)
	if err != nil {
		return nil, Invalid(fmt.Errorf("--moves: %w", err))
	}
	next, err := step(s, m)
	if err != nil {
		if engine.IsRuleError(err) {
			return nil, err
		}
		// The state parsed, and parsing checks it whole: what the step
		// finds wrong besides a rule is how the moves fit it.
		return nil, Invalid(fmt.Errorf("--moves: %w", err))
	}
	b, err := json.Marshal(next)
	return append(b, '\n'), err
}
