package reaj

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// View is what a society's player sees when it decides: {you, turn, turns,
// environment, societies, relations}, as methods. It is a window on the
// match, two words wide, valid only during the decision it was given for.
type View struct {
	m   *Match
	you int
}

// You returns the player's society (seat), from 0.
func (v View) You() int { return v.you }

// Turn returns the turn being played, from 1.
func (v View) Turn() int { return v.m.turn + 1 }

// Turns returns the number of turns in the game.
func (v View) Turns() int { return v.m.turns }

// Environment returns the shared environment.
func (v View) Environment() Environment { return v.m.state.Environment }

// Len returns the number of societies.
func (v View) Len() int { return len(v.m.state.Societies) }

// Society returns a copy of society i.
func (v View) Society(i int) Society { return v.m.state.Societies[i] }

// Me returns a copy of the player's own society.
func (v View) Me() Society { return v.m.state.Societies[v.you] }

// Relation returns society i's disposition toward society j.
func (v View) Relation(i, j int) int { return v.m.state.Relations[i][j] }

// Score returns society i's score as it stands.
func (v View) Score(i int) int { return v.m.state.Score(i) }

// State returns a deep copy of the state.
func (v View) State() State { return v.m.state.Clone() }

// viewJSON is the View's JSON shape.
type viewJSON struct {
	You   int         `json:"you"`
	Turn  int         `json:"turn"`
	Turns int         `json:"turns"`
	State             // environment, societies, relations
	Kind  engine.Kind `json:"kind"`
}

// MarshalJSON writes {you, turn, turns, environment, societies, relations,
// kind}.
func (v View) MarshalJSON() ([]byte, error) {
	return json.Marshal(viewJSON{You: v.you, Turn: v.Turn(), Turns: v.Turns(), State: v.m.state, Kind: TurnKind})
}

// String shows the decision to a person: the turn and the state with the
// player's own society marked.
func (v View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d of %d\n", v.Turn(), v.Turns())
	v.m.state.writeText(&b, v.you)
	fmt.Fprintf(&b, "You are society %d. Upkeep each turn: %+d resources.\n", v.you+1, v.m.state.Societies[v.you].Values.Upkeep())
	return b.String()
}
