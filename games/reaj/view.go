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

// Out tells a person that their society is dead, and in which turn when
// known (player.Knockout); it is "" while it lives.
func (v View) Out() string {
	s := &v.m.state.Societies[v.you]
	switch {
	case !s.Dead:
		return ""
	case s.Died > 0:
		return fmt.Sprintf("Your society died in turn %d: neither its resources nor the environment's could cover its upkeep", s.Died)
	}
	return "Your society died: neither its resources nor the environment's could cover its upkeep"
}

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

// String shows the decision to a person: the turn, the environment, every
// society with its player, the player's own marked, the dispositions between
// it and the others, and what each chose last turn. It fits 80 columns.
func (v View) String() string {
	var b strings.Builder
	m := v.m
	e := m.state.Environment
	fmt.Fprintf(&b, "Turn %d of %d\n", v.Turn(), v.Turns())
	fmt.Fprintf(&b, "environment: land %d, ecology %d, resources %d\n", e.Land, e.Ecology, e.Resources)
	var last []Value
	if m.turn > 0 {
		last = m.last
	}
	m.state.writeBoard(&b, v.you, m.players, last)
	fmt.Fprintf(&b, "You are society %d. Upkeep each turn: %+d resources.\n", v.you+1, m.state.Societies[v.you].Values.Upkeep())
	return b.String()
}

// Help tells a person what each value does when chosen, in the rules'
// words.
func (v View) Help() string {
	var b strings.Builder
	b.WriteString("The value you choose rises by 1; then:\n")
	for x := range Value(NumValues) {
		fmt.Fprintf(&b, "  %-9s %s\n", x, valueEffects[x])
	}
	b.WriteString("Upkeep: each turn your resources change by your adapt less your expand\nand develop.\n")
	b.WriteString("Score at the end: resources plus every positive disposition toward you,\ndead or alive.\n")
	return b.String()
}

// valueEffects says what each value does on a turn, as the rules put it.
var valueEffects = [NumValues]string{
	"+1 resource per society whose conquer is lower; all like you less",
	"+1 resource for every society that likes you",
	"land −1 and +3 resources",
	"ecology −1 and +3 resources",
	"every living society likes you 1 more",
	"ecology +1",
}
