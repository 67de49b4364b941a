package ajveciv

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// Series is a run of AjveCiv games, one after another: the rules'
// civ.game(...).game(...).play(). Add games with Game; Play returns their
// records, from which the report package makes reports.
type Series = engine.Series[Value, View]

// NewSeries starts a series of games under game's rules; game k (from 0) is
// played with seed seed+k.
func NewSeries(game Game, seed uint64) *Series {
	return &Series{Ruleset: game, Seed: seed}
}

// DefaultDeadline is how long a bot has for each decision unless told
// otherwise.
const DefaultDeadline = time.Second

// Seats seats AIs for one game, in order, each with the default deadline. A
// seat is named by the AI's Name method if it has one, by its kind for the
// built-in AIs, and by its type otherwise.
func Seats(ais ...AI) []engine.Seat[Value, View] {
	seats := make([]engine.Seat[Value, View], len(ais))
	for i, ai := range ais {
		seats[i] = engine.Seat[Value, View]{Name: aiName(ai), Player: Player(ai), Deadline: DefaultDeadline}
	}
	return seats
}

func aiName(ai AI) string {
	switch a := ai.(type) {
	case interface{ Name() string }:
		return a.Name()
	case *priority:
		kind := "priority"
		switch a.n {
		case 1:
			kind = "basic"
		case 2, 3:
			kind = fmt.Sprintf("basic%d", a.n)
		}
		names := make([]string, a.n)
		for i, v := range a.order[:a.n] {
			names[i] = v.String()
		}
		return kind + "." + strings.Join(names, "-")
	case *randomAI:
		return "random"
	case *Planner:
		return "planner"
	case *Guide:
		return "guide"
	}
	t := reflect.TypeOf(ai)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" {
		return fmt.Sprintf("%T", ai)
	}
	return strings.ToLower(t.Name())
}
