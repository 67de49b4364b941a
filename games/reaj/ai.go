package reaj

import (
	"context"
	"math/rand/v2"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// AI decides for one society: Turn chooses one of the six values each turn.
// An answer that is not a value, an error or a panic gets adapt instead, and
// the fault is recorded.
type AI interface {
	Turn(v View) (Value, error)
}

// AIInitializer is implemented by AIs that prepare for each match; Init runs
// before the first decision.
type AIInitializer = engine.Initializer

// Player turns an AI into a player for a seat. The player is engine.Bounded
// when the AI is. An AI that is an engine.Player itself is used as it is.
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

func (p *aiPlayer) Decide(_ context.Context, _ *engine.Request[Value], v View) (Value, error) {
	return p.ai.Turn(v)
}

// Fixed returns the fixed-value AI: it chooses v every turn.
func Fixed(v Value) AI { return fixed(v) }

type fixed Value

func (f fixed) Turn(View) (Value, error) { return Value(f), nil }

// Decide makes the fixed AI a player by itself.
func (f fixed) Decide(context.Context, *engine.Request[Value], View) (Value, error) {
	return Value(f), nil
}

// Bounded reports that a fixed AI answers at once.
func (fixed) Bounded() bool { return true }

// Random returns an AI that chooses uniformly among the six values, with its
// own dice seeded from its seat's seed (MatchInfo.RNG).
func Random() AI { return &randomAI{} }

type randomAI struct{ rng *rand.PCG }

func (r *randomAI) Init(info engine.MatchInfo) error {
	r.rng = info.RNG()
	return nil
}

func (r *randomAI) Turn(View) (Value, error) { return Value(engine.Below(r.rng, NumValues)), nil }

// Bounded reports that the random AI answers at once.
func (*randomAI) Bounded() bool { return true }

// Steward returns an AI that reads the state and plays for its final score.
// It weighs what each value would add to its score by the end of the game,
// from the rules and the state as they stand:
//
//   - adapt adds 1 resource for every turn left, this one included: upkeep
//     is paid every turn;
//   - expand and develop add 3 now, if land or ecology is left, and cost 1
//     for every turn left;
//   - conquer takes 1 from every society less devoted to conquest, and loses
//     the goodwill of those who liked the conqueror;
//   - consent wins 1 of goodwill from every living society that does not
//     dislike it;
//   - exchange brings 1 from every society that likes it;
//
// and chooses the best, adapt on ties. Early on, adapt's income outweighs
// everything; near the end the one-off gains of goodwill and conquest win.
func Steward() AI { return steward{} }

type steward struct{}

// Bounded reports that the steward answers at once.
func (steward) Bounded() bool { return true }

func (steward) Turn(v View) (Value, error) {
	st, me := &v.m.state, v.you
	left := v.Turns() - v.Turn() + 1 // turns whose upkeep is still to pay
	worth := [NumValues]int{Adapt: left}
	if st.Environment.Land > 0 {
		worth[Expand] = 3 - left
	} else {
		worth[Expand] = -left
	}
	if st.Environment.Ecology > 0 {
		worth[Develop] = 3 - left
	} else {
		worth[Develop] = -left
	}
	mine := st.Societies[me].Values[Conquer] + 1
	for j := range st.Societies {
		if j == me {
			continue
		}
		s := &st.Societies[j]
		toward := st.Relations[j][me]
		if s.Values[Conquer] < mine {
			worth[Conquer]++
		}
		if toward > 0 {
			worth[Exchange]++
			if !s.Dead {
				worth[Conquer]-- // goodwill lost
			}
		}
		if !s.Dead && toward >= 0 {
			worth[Consent]++
		}
	}
	best := Adapt
	for _, x := range AllValues {
		if worth[x] > worth[best] {
			best = x
		}
	}
	return best, nil
}

// Entrant is a named kind of Reaj player.
type Entrant = engine.Entrant[Value, View]

// botNames lists the names Bots understands, for messages.
const botNames = "fixed, conquer, exchange, expand, develop, consent, adapt, random, steward"

// Bots returns the built-in players that one --players name stands for:
//
//	fixed        the six fixed-value players, one per value, in the rules' order
//	<value>      chooses <value> every turn (conquer, exchange, expand, develop, consent, adapt)
//	random       chooses uniformly among the six values
//	steward      reads the state and plays for its score (see Steward)
func Bots(name string) ([]Entrant, error) {
	switch name {
	case "fixed":
		out := make([]Entrant, 0, NumValues)
		for _, v := range AllValues {
			out = append(out, fixedEntrant(v))
		}
		return out, nil
	case "random":
		return []Entrant{{Name: name, New: func() engine.Player[Value, View] { return Player(Random()) }}}, nil
	case "steward":
		return []Entrant{{Name: name, New: func() engine.Player[Value, View] { return Player(Steward()) }}}, nil
	}
	if v, err := ParseValue(name); err == nil && name == strings.ToLower(name) {
		return []Entrant{fixedEntrant(v)}, nil
	}
	return nil, engine.UnknownPlayer(name, "Reaj", strings.Split(botNames, ", "))
}

func fixedEntrant(v Value) Entrant {
	return Entrant{Name: v.String(), New: func() engine.Player[Value, View] { return Player(Fixed(v)) }}
}
