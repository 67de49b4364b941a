package mcts

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Name is the player name of the search AI in every game that offers the
// hooks it needs; "mcts:KEY=VALUE,..." sets its budget (see Parse).
const Name = "mcts"

// Config is how a search player searches.
type Config struct {
	// Playouts is the number of playouts per decision. With a fixed number
	// of playouts the player is reproducible: the same match and seat give
	// the same moves. Zero means the budget is Time alone.
	Playouts int
	// Time is the time per decision, by the clock: the player stops
	// between playouts once it has passed. Zero means the budget is
	// Playouts alone. Both set: whichever runs out first.
	Time time.Duration
	// Explore is the exploration constant of the selection (UCB1): higher
	// tries more moves, lower deepens the best. Zero means DefaultExplore.
	Explore float64
	// Depth bounds the moves of a playout; a playout cut short is scored
	// by the game's estimate (engine.Estimator), or as a draw. Zero means
	// two moves a seat past the tree in a game that estimates (a short
	// look ahead and the estimate tell more than a long random game), and
	// DefaultDepth moves in all in one that does not.
	Depth int
	// Width bounds the moves tried at a decision without a list of choices
	// (engine.Generator). Zero means DefaultWidth.
	Width int
	// Rollout names the game's built-in player that plays every seat past
	// the tree, instead of random moves: a model of how seats play makes
	// playouts tell more. Empty means random moves.
	Rollout string
}

// Defaults.
const (
	DefaultPlayouts = 1000
	DefaultExplore  = 0.7
	DefaultDepth    = 5000
	DefaultWidth    = 24
)

// Levels are the named strengths people choose from, weakest first: each is
// a number of playouts, so a level plays the same way on any machine.
var Levels = []struct {
	Name     string
	Playouts int
}{
	{"easy", 30},
	{"medium", 300},
	{"hard", 3000},
}

// Default is the search player's configuration when its name has no
// settings.
func Default() Config {
	return Config{Playouts: DefaultPlayouts, Explore: DefaultExplore, Width: DefaultWidth}
}

// syntax is what Parse accepts, for its messages.
const syntax = "mcts, or mcts with settings, each after a colon: playouts=N (1 to 10000000), ms=N (1 to 600000), level=easy|medium|hard, explore=X (above 0, up to 100), depth=N (1 to 1000000), width=N (1 to 1000), rollout=BOT (one of the game's built-in players); e.g. mcts:ms=50 or mcts:playouts=2000:explore=1"

// Is reports whether name names the search player, with or without
// settings.
func Is(name string) bool { return name == Name || strings.HasPrefix(name, Name+":") }

// Parse reads a search player's name: "mcts" alone is Default; settings
// follow it, each KEY=VALUE after a colon (a comma would split a --players
// list), as in mcts:playouts=2000:explore=1:
//
//	playouts=N   playouts per decision (reproducible)
//	ms=N         milliseconds per decision, by the clock
//	level=L      easy, medium or hard: a number of playouts (Levels)
//	explore=X    the exploration constant, DefaultExplore unless set
//	depth=N      moves of a playout before it is estimated
//	width=N      moves tried where a request has no list of choices
//	rollout=BOT  the game's built-in player that plays the playouts
//
// ms alone drops the default number of playouts; playouts and ms together
// stop at whichever runs out first.
func Parse(name string) (Config, error) {
	c := Default()
	if name == Name {
		return c, nil
	}
	rest, ok := strings.CutPrefix(name, Name+":")
	if !ok || rest == "" {
		return c, fmt.Errorf("player %q: write %s", name, syntax)
	}
	seen := map[string]bool{}
	playoutsSet := false
	for _, kv := range strings.Split(rest, ":") {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return c, fmt.Errorf("player %q: %q is not KEY=VALUE; write %s", name, kv, syntax)
		}
		if seen[key] {
			return c, fmt.Errorf("player %q: %s is set twice", name, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "playouts":
			c.Playouts, err = number(value, 1, 10_000_000)
			playoutsSet = true
		case "ms":
			var ms int
			ms, err = number(value, 1, 600_000)
			c.Time = time.Duration(ms) * time.Millisecond
		case "level":
			err = fmt.Errorf("%q is not a level; levels are easy, medium, hard", value)
			for _, l := range Levels {
				if l.Name == value {
					c.Playouts, err = l.Playouts, nil
				}
			}
			playoutsSet = true
		case "explore":
			c.Explore, err = strconv.ParseFloat(value, 64)
			if err != nil || !(c.Explore > 0 && c.Explore <= 100) {
				err = fmt.Errorf("%q is not a number above 0, up to 100", value)
			}
		case "depth":
			c.Depth, err = number(value, 1, 1_000_000)
		case "width":
			c.Width, err = number(value, 1, 1000)
		case "rollout":
			c.Rollout = value
			if value == "" || value == Name || strings.ContainsAny(value, ":=") {
				err = fmt.Errorf("%q names no built-in player", value)
			}
		default:
			return c, fmt.Errorf("player %q: no setting %q; write %s", name, key, syntax)
		}
		if err != nil {
			return c, fmt.Errorf("player %q: %s: %v", name, key, err)
		}
	}
	if seen["level"] && seen["playouts"] {
		return c, fmt.Errorf("player %q: give level or playouts, not both", name)
	}
	if c.Time > 0 && !playoutsSet {
		c.Playouts = 0
	}
	return c, nil
}

func number(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", s, lo, hi)
	}
	return n, nil
}
