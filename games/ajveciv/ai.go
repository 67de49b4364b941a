package ajveciv

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// AI decides for one society, as the built-in AIs do: Turn chooses among
// view.Offered every turn, and Inflection chooses among view.Offered (the
// society's three highest values) at an inflection. An answer that was not
// offered, an error or a panic gets the first offered choice instead, and the
// fault is recorded.
//
// An AI that keeps memory between decisions may implement AIInitializer to
// reset it when a match starts; give each seat its own value then.
type AI interface {
	Turn(v View) (Value, error)
	Inflection(v View) (Value, error)
}

// AIInitializer is implemented by AIs that prepare for each match. Init runs
// when the match starts, before the first decision; info.Seat is the AI's
// society and info.RNG() its own fair dice.
type AIInitializer = engine.Initializer

// Player turns an AI into a player for a seat. The player is
// engine.Bounded when the AI is. An AI that is an engine.Player itself is
// used as it is.
func Player(ai AI) engine.Player[Value, View] {
	if p, ok := ai.(engine.Player[Value, View]); ok {
		return p
	}
	return &aiPlayer{engine.Shell{Bot: ai}, ai}
}

type aiPlayer struct {
	engine.Shell
	ai AI
}

func (p *aiPlayer) Decide(_ context.Context, req *engine.Request[Value], v View) (Value, error) {
	if req.Kind == InflectionKind {
		return p.ai.Inflection(v)
	}
	return p.ai.Turn(v)
}

// Priority returns the basic AIs: it chooses the first of its values
// that is offered, in the order given, and otherwise the first offered
// choice. One value is a basic AI, two a basic2, three a basic3.
func Priority(values ...Value) AI {
	p := &priority{n: len(values)}
	copy(p.order[:], values)
	return p
}

type priority struct {
	order [NumValues]Value
	n     int
}

func (p *priority) choose(v View) Value {
	o := v.offer()
	if p.n == 1 {
		// The basic AI, without a branch on what was offered.
		want, first := p.order[0], o[0]
		return first ^ (first^want)&Value(-b2i(o.has(want)))
	}
	for _, want := range p.order[:p.n] {
		if o.has(want) {
			return want
		}
	}
	return o[0]
}

func (p *priority) Turn(v View) (Value, error)       { return p.choose(v), nil }
func (p *priority) Inflection(v View) (Value, error) { return p.choose(v), nil }

// Decide makes the priority AI a player by itself: it chooses the same way
// at a turn and at an inflection. The basic AI's choice is worked out here,
// without a call: it is most of the decisions of most games.
func (p *priority) Decide(_ context.Context, _ *engine.Request[Value], v View) (Value, error) {
	if p.n == 1 && uint(v.you) < uint(len(v.m.offers)) {
		o := &v.m.offers[v.you]
		want, first := p.order[0], o[0]
		// want if offered, else the first: a select in arithmetic, not a
		// branch on what was dealt.
		return first ^ (first^want)&Value(-b2i(o.has(want))), nil
	}
	return p.choose(v), nil
}

// Bounded reports that a priority AI answers at once.
func (*priority) Bounded() bool { return true }

// Random returns an AI that chooses uniformly among the offered values, with
// its own dice seeded from its seat's seed (MatchInfo.RNG).
func Random() AI { return &randomAI{} }

type randomAI struct{ rng *rand.PCG }

func (r *randomAI) Init(info engine.MatchInfo) error {
	r.rng = info.RNG()
	return nil
}

func (r *randomAI) pick(v View) (Value, error) {
	offered := v.Offered()
	return offered[engine.Below(r.rng, uint64(len(offered)))], nil
}

func (r *randomAI) Turn(v View) (Value, error)       { return r.pick(v) }
func (r *randomAI) Inflection(v View) (Value, error) { return r.pick(v) }

// Bounded reports that the random AI answers at once.
func (*randomAI) Bounded() bool { return true }

// Entrant is a named kind of AjveCiv player.
type Entrant = engine.Entrant[Value, View]

// botNames lists the names Bots understands, for messages.
const botNames = "basic, basic.<value>, basic2, basic2.<value>-<value>, basic3, basic3.<value>-<value>-<value>, random, planner, guide"

// Bots returns the built-in players that one --players name stands for:
//
//	basic                     the six basic AIs, one per value, in the rules' order
//	basic.<value>             chooses <value> when offered, else the first offered choice
//	basic2                    all 15 pairs of values, in the rules' order
//	basic2.<v1>-<v2>          chooses v1, else v2, else the first offered choice
//	basic3                    all 20 triples of values
//	basic3.<v1>-<v2>-<v3>     the same with three values
//	random                    chooses uniformly among the offered values
//	planner                   looks ahead with the rules (see Planner)
//	guide                     learns how the others choose and plays each choice out against them (see Guide)
func Bots(name string) ([]Entrant, error) {
	kind, rest, dotted := strings.Cut(name, ".")
	size := 0
	switch kind {
	case "basic":
		size = 1
	case "basic2":
		size = 2
	case "basic3":
		size = 3
	case "random", "planner", "guide":
		if dotted {
			return nil, fmt.Errorf("unknown player %q: %s takes no values", name, kind)
		}
		if kind == "guide" {
			return []Entrant{{Name: "guide", New: func() engine.Player[Value, View] { return Player(NewGuide()) }}}, nil
		}
		if kind == "random" {
			return []Entrant{{Name: "random", New: func() engine.Player[Value, View] { return Player(Random()) }}}, nil
		}
		return []Entrant{{Name: "planner", New: func() engine.Player[Value, View] { return Player(NewPlanner()) }}}, nil
	default:
		return nil, engine.UnknownPlayer(name, "AjveCiv", strings.Split(botNames, ", "))
	}
	if !dotted {
		var out []Entrant
		for _, vs := range combinations(size) {
			out = append(out, priorityEntrant(kind, vs))
		}
		return out, nil
	}
	parts := strings.Split(rest, "-")
	if len(parts) != size {
		return nil, fmt.Errorf("player %q: %s takes %d value(s) joined by '-', e.g. %s", name, kind, size, example(kind, size))
	}
	vs := make([]Value, size)
	for i, p := range parts {
		v, err := ParseValue(p)
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", name, err)
		}
		for _, w := range vs[:i] {
			if w == v {
				return nil, fmt.Errorf("player %q: %v is named twice; the values must differ", name, v)
			}
		}
		vs[i] = v
	}
	return []Entrant{priorityEntrant(kind, vs)}, nil
}

func example(kind string, size int) string {
	return kind + "." + strings.Join(valueNames[:size], "-")
}

func priorityEntrant(kind string, vs []Value) Entrant {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.String()
	}
	ai := Priority(vs...)
	return Entrant{Name: kind + "." + strings.Join(names, "-"), New: func() engine.Player[Value, View] { return Player(ai) }}
}

// combinations lists every set of size distinct values, each in the rules'
// order, the sets in lexicographic order.
func combinations(size int) [][]Value {
	var out [][]Value
	var rec func(start int, cur []Value)
	rec = func(start int, cur []Value) {
		if len(cur) == size {
			out = append(out, append([]Value(nil), cur...))
			return
		}
		for v := start; v < NumValues; v++ {
			rec(v+1, append(cur, Value(v)))
		}
	}
	rec(0, nil)
	return out
}
