package ajveciv

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// View is what a society's player sees when it decides: in JSON
// {you, turn, turns, kind, offered, world}, as methods. The world is never
// rotated: World().Society(You()) is the player's own.
//
// A View is a window on the match, two words wide: it copies nothing, and it
// is valid only during the decision it was given for. Copy what you keep
// (WorldView.Clone). Its JSON form is the object above.
type View struct {
	m   *Match
	you int
}

// You returns the player's society (seat), from 0.
func (v View) You() int { return v.you }

// Out tells a person that their society is dead (player.Knockout); it is ""
// while it lives.
func (v View) Out() string {
	if !v.m.world.Societies[v.you].Dead {
		return ""
	}
	return "Your society died: starvation left it with no people"
}

// Turn returns the turn being played; for an inflection, the turn it follows.
func (v View) Turn() int { return v.m.vturn }

// Turns returns the number of turns in the game.
func (v View) Turns() int { return v.m.turns }

// Kind returns TurnKind or InflectionKind.
func (v View) Kind() engine.Kind { return v.m.kind }

// Inflection reports whether the decision is an inflection's.
func (v View) Inflection() bool { return v.m.infl }

// Offered returns the values the player may choose among, the first being
// the default; nil when it has nothing to choose (a dead society, a
// spectator, the game over). The slice is shared with the seat's request
// and valid only during the decision; writing into it changes nothing of
// what the rules allow.
func (v View) Offered() []Value {
	m := v.m
	if uint(v.you) >= uint(len(m.offers)) || m.offers[v.you][0] == None {
		return nil
	}
	return m.shown[v.you][:3:3]
}

// offer returns the player's offer (noOffer when it has none).
func (v View) offer() *offer {
	if uint(v.you) >= uint(len(v.m.offers)) {
		return &noOffer
	}
	return &v.m.offers[v.you]
}

// World returns a read-only window on the world.
func (v View) World() WorldView { return WorldView{&v.m.world, &v.m.lag} }

// Me returns a copy of the player's own society.
func (v View) Me() Society { return v.m.world.Societies[v.you] }

// Offers reports whether value x is among the offered choices.
func (v View) Offers(x Value) bool {
	return x.Valid() && v.offer().has(x)
}

// viewJSON is the View's JSON shape.
type viewJSON struct {
	You     int         `json:"you"`
	Turn    int         `json:"turn"`
	Turns   int         `json:"turns"`
	Kind    engine.Kind `json:"kind"`
	Offered []Value     `json:"offered"`
	World   *World      `json:"world"`
	// Last is what each society chose in the last round played (null for
	// the dead), and LastKind that round's kind; both left out before the
	// first. Every society's choices are public once played.
	Last     []Value     `json:"last,omitempty"`
	LastKind engine.Kind `json:"last_kind,omitempty"`
}

// MarshalJSON writes {you, turn, turns, kind, offered, world, last,
// last_kind}.
func (v View) MarshalJSON() ([]byte, error) {
	offered := v.Offered()
	if offered == nil {
		offered = []Value{}
	}
	w := v.World().settled()
	j := viewJSON{You: v.you, Turn: v.Turn(), Turns: v.Turns(), Kind: v.Kind(), Offered: offered, World: w}
	if slices.ContainsFunc(v.m.last, Value.Valid) {
		j.Last, j.LastKind = v.m.last, TurnKind
		if v.m.lastInfl {
			j.LastKind = InflectionKind
		}
	}
	return json.Marshal(j)
}

// String shows the decision to a person: the turn, the world with each
// society's player, the player's own society marked, how it and the others
// feel about each other, what each chose in the last round, and the offered
// choices. It fits 80 columns.
func (v View) String() string {
	var b strings.Builder
	m := v.m
	if v.Inflection() {
		fmt.Fprintf(&b, "Inflection after turn %d of %d: your society consults its three highest values.\n", v.Turn(), v.Turns())
	} else {
		fmt.Fprintf(&b, "Turn %d of %d\n", v.Turn(), v.Turns())
	}
	w := v.World().settled()
	fmt.Fprintf(&b, "world yield %d\n", w.Yield)
	head := "last turn"
	if m.lastInfl {
		head = "inflection"
	}
	w.writeBoard(&b, v.you, m.players, m.last, head)
	if offered := v.Offered(); len(offered) > 0 {
		fmt.Fprintf(&b, "You are society %d. Offered:", v.you+1)
		for _, o := range offered {
			fmt.Fprintf(&b, " %v", o)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Help tells a person what each value does when chosen (and, at an
// inflection, what choosing does), in the rules' words.
func (v View) Help() string {
	var b strings.Builder
	if v.Inflection() {
		b.WriteString("At an inflection you choose among your three highest values: the one you\nchoose rises by 2, the other two fall by 1 (never below 0). What each does on\na turn, d being your devotion to it:\n")
	} else {
		b.WriteString("The value you choose rises by 1; then, d being your devotion to it:\n")
	}
	offered := v.Offered()
	for _, x := range offered {
		fmt.Fprintf(&b, "  %-9s %s\n", x, valueEffects[x])
	}
	var others []string
	for _, x := range AllValues {
		if !slices.Contains(offered, x) {
			others = append(others, x.String())
		}
	}
	switch {
	case len(others) == 0 || len(offered) == 0:
	case v.Inflection():
		fmt.Fprintf(&b, "Not offered at this inflection: %s.\n", strings.Join(others, ", "))
	default:
		b.WriteString("Not offered this turn (each turn draws three of your six values):\n")
		for _, x := range AllValues {
			if !slices.Contains(offered, x) {
				fmt.Fprintf(&b, "  %-9s %s\n", x, valueEffects[x])
			}
		}
	}
	b.WriteString("A society scores its yield plus its population after the last turn\n(arbiter rules ajveciv).\n")
	return b.String()
}

// valueEffects says what each value does on a turn, as the rules put it.
var valueEffects = [NumValues]string{
	"raid the living society you like least: it loses d yield, you gain d",
	"gain d yield; the society you like most gains too and likes you more",
	"gain d yield",
	"your population grows by d",
	"gain 3 × d yield; the world's yield falls by d; others like you less",
	"the world's yield rises by d; the others like you d more",
}

// WorldView is a read-only window on a match's world, for players. It costs
// nothing to make and copies nothing; Clone copies the world out.
type WorldView struct {
	w   *World
	lag *regard // feelings the match has not yet written into w; nil for none
}

// ViewOf returns a read-only view of w.
func ViewOf(w *World) WorldView { return WorldView{w: w} }

// lagging reports whether the view's feelings differ from its world's.
func (v WorldView) lagging() bool { return v.lag != nil && *v.lag != (regard{}) }

// settled returns the world with the feelings the match owes written in: the
// match's own world when it owes none, else a copy. It changes nothing of
// the match's: a view may be read by a player the match no longer waits
// for.
func (v WorldView) settled() *World {
	if !v.lagging() {
		return v.w
	}
	c := v.w.Clone()
	lag := *v.lag
	lag.settle(&c)
	return &c
}

// Yield returns the world's yield.
func (v WorldView) Yield() int { return v.w.Yield }

// Len returns the number of societies.
func (v WorldView) Len() int { return len(v.w.Societies) }

// Feels returns society i's feeling toward society j.
func (v WorldView) Feels(i, j int) int {
	f := v.w.Feels[i][j]
	if v.lag != nil && i != j && !v.w.Societies[i].Dead {
		f += v.lag[j]
	}
	return f
}

// Society returns a copy of society i.
func (v WorldView) Society(i int) Society { return v.w.Societies[i] }

// Clone returns a deep copy of the world.
func (v WorldView) Clone() World {
	if v.lagging() {
		return *v.settled()
	}
	return v.w.Clone()
}

// CopyTo makes dst a deep copy of the world, as Clone returns it, in dst's
// own memory: a bot that plays the rules forward at every decision keeps
// one World and copies the view into it without allocating, once dst has
// grown to the world's size. dst shares no memory with the match.
func (v WorldView) CopyTo(dst *World) {
	copyWorld(dst, v.w)
	if v.lagging() {
		lag := *v.lag
		lag.settle(dst)
	}
}

// MarshalJSON writes the world in its JSON shape.
func (v WorldView) MarshalJSON() ([]byte, error) { return json.Marshal(v.settled()) }

// String formats the world as World.String does.
func (v WorldView) String() string { return v.settled().String() }
