package territories

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// StepState is a game in the JSON that arbiter step territories reads and
// writes: the configuration (seed included), the rules' state, and, in
// what Step writes, the outcome of the action applied.
type StepState struct {
	Config  json.RawMessage `json:"config"`
	State   json.RawMessage `json:"state"`
	Outcome *Outcome        `json:"outcome,omitempty"`
}

// StepMove is one action in the JSON of arbiter step territories:
// {"player": "alice", "action": "attack CA NV"}; the player is "" (or left
// out) for the judge's end-turn.
type StepMove struct {
	Player string `json:"player"`
	Action Action `json:"action"`
}

// ParseStepState reads a game, checking its configuration and state.
func ParseStepState(data []byte) (*World, error) {
	var s StepState
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, err
	}
	if len(s.Config) == 0 {
		return nil, fmt.Errorf("config: missing; want {config, state}")
	}
	cfg, err := ParseConfig(s.Config)
	if err != nil {
		return nil, err
	}
	if cfg.Seed == nil {
		cfg = cfg.WithSeed(0)
	}
	if len(s.State) == 0 {
		return NewWorld(cfg), nil
	}
	return LoadWorld(cfg, s.State)
}

// ParseStepMove reads one action.
func ParseStepMove(data []byte) (StepMove, error) {
	var m StepMove
	if err := engine.DecodeJSON(data, &m); err != nil {
		return StepMove{}, err
	}
	if m.Action.Kind == 0 {
		return StepMove{}, fmt.Errorf("action: missing; want {\"player\": NAME, \"action\": \"attack CA NV\"}")
	}
	if err := CheckCaller(m.Player, m.Action); err != nil {
		return StepMove{}, fmt.Errorf("player: %w", err)
	}
	return m, nil
}

// Step applies one action to a game and returns the game after it, with
// the action's outcome; a refusal is a *engine.RuleError.
func Step(w *World, m StepMove) (StepState, error) {
	o, err := w.Apply(m.Player, m.Action)
	if err != nil {
		return StepState{}, err
	}
	state, err := w.MarshalJSON()
	if err != nil {
		return StepState{}, err
	}
	return StepState{Config: w.cfg.JSON(), State: state, Outcome: &o}, nil
}
