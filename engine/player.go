package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Player decides moves for one seat.
//
// Decide is called once per request, from one goroutine at a time. The request
// and the view are valid only during the call: a player that wants to keep
// them copies what it needs. The request is the player's own copy of the
// match's: writing into it changes nothing of the match's, but Choices is
// the match's own slice, which a player must not write into. A player that
// returns an error, panics, answers an illegal move or overruns req.Deadline
// gets the request's default instead (as the match made it, whatever the
// player wrote into its copy), and the fault is recorded. A call abandoned
// for overrunning keeps its request struct, but its view and the request's
// Choices may change under it as the match goes on.
//
// ctx is the match's context: it is cancelled when the match is abandoned.
// In-process players are not expected to check it on every decision.
type Player[M, V any] interface {
	Decide(ctx context.Context, req *Request[M], view V) (M, error)
}

// PlayerFunc adapts a function to the Player interface.
type PlayerFunc[M, V any] func(ctx context.Context, req *Request[M], view V) (M, error)

// Decide calls f.
func (f PlayerFunc[M, V]) Decide(ctx context.Context, req *Request[M], view V) (M, error) {
	return f(ctx, req, view)
}

// MatchInfo is what a player is told when a match starts. It never holds
// the match's seed, from which the match's hidden draws (identities, dice)
// could be recomputed: a player that wants chance draws it from its seat's
// own seed (Seed, RNG).
type MatchInfo struct {
	Ruleset      string
	Variant      string
	RulesVersion string
	// Game is the match's number in its series or tournament, from 1.
	Game int
	// Seat is the player's seat, from 0.
	Seat int
	// Players names the player of each seat, as the match's record does.
	Players []string
	// Options are the match's options.
	Options map[string]string
	// Seed is the seat's own seed, SeatSeed(match seed, Seat): the same
	// match gives the same seed, and it tells nothing of the match's that
	// a player could not learn by trying match seeds one by one (see
	// SeatSeed): a match seed is as secret as it is hard to guess.
	Seed uint64
	// Time is the seat's time control.
	Time TimeControl
}

// RNG returns the seat's own dice, seeded with Seed: the same source as
// SeatRNG(match seed, Seat).
func (i MatchInfo) RNG() *rand.PCG { return seatRNG(i.Seed) }

// Starter is implemented by players that prepare for each match: reset their
// memory, seed their own random source (MatchInfo.RNG), start a process. Start
// is called once per match before the first decision; an error abandons the
// seat, which then gets default moves.
type Starter interface {
	Start(ctx context.Context, info MatchInfo) error
}

// Preparer is implemented by players whose decisions take time and need
// nothing of the match but the request and the view: programs and bots
// over HTTP. Prepare takes what it needs of them at once, while the match
// stands still (the view may share the match's memory), and returns the
// decision itself, which a host makes later without holding the match, so
// that the match serves others while the player thinks.
type Preparer[M, V any] interface {
	Prepare(req *Request[M], view V) (func(ctx context.Context) (M, error), error)
}

// Finisher is implemented by players that want to hear how a match ended.
type Finisher interface {
	Finish(ctx context.Context, result Result)
}

// Follower is implemented by players that follow their seat's fortunes
// between their own decisions: a person at a terminal, told at once when
// their seat is out of the match while the others play on. Follow is given
// the seat's view before each round is asked, while the match goes on (over
// false), and once when the match has ended (over true), before Finish. The
// view is valid only during the call. Follow must return at once, without
// blocking: nothing watches it, and its panics are ignored.
type Follower[V any] interface {
	Follow(view V, over bool)
}

// SelfTimed is implemented by players that keep their own time: external
// programs and people at a terminal. They return ErrDeadline when a decision's
// deadline passes, and the seat is not abandoned. The runner's watchdog still
// stands behind them, at twice the deadline plus Grace, in case they hang.
type SelfTimed interface {
	SelfTimed()
}

// Bounded is implemented by players whose every decision returns at once,
// without blocking: pure functions of the request and the view, like the
// built-in rule-of-thumb AIs. Bounded reports whether this player is such a
// one. When every seat of a match is bounded, the runner plays it on the
// caller's goroutine with no watchdog at all; a bounded player that blocks
// holds its match up for good, so claim it only for code that cannot.
type Bounded interface {
	Bounded() bool
}

// Grace is the extra time the watchdog allows a SelfTimed player past twice its
// deadline before abandoning it.
const Grace = time.Second

// Entrant is a kind of player, by name, and how to make one for a seat: a
// built-in bot, an external program, a person.
type Entrant[M, V any] struct {
	// Name is the seat's name in records and reports, e.g. "basic.conquer".
	Name string
	// New makes a fresh player.
	New func() Player[M, V]
	// Person marks a person, who has no deadline unless one is given.
	Person bool
}

// Initializer is implemented by a game's bots that prepare for each match:
// forget the last one, seed their own dice (MatchInfo.RNG). Init runs when the
// match starts, before the first decision.
type Initializer interface {
	Init(info MatchInfo) error
}

// Shell is embedded by the players a game makes of its bots, so that each
// game writes only Decide: Start runs the bot's Init when it is an
// Initializer, and Bounded is the bot's own when it is Bounded.
type Shell struct {
	Bot any
}

// Start prepares the bot for a match.
func (s Shell) Start(_ context.Context, info MatchInfo) error {
	if init, ok := s.Bot.(Initializer); ok {
		return init.Init(info)
	}
	return nil
}

// Bounded reports whether the bot answers at once.
func (s Shell) Bounded() bool {
	b, ok := s.Bot.(Bounded)
	return ok && b.Bounded()
}

// shelledBot is the bot the shell holds: players around one bot are one
// player, whose calls must not overlap (see samePlayer).
func (s Shell) shelledBot() any { return s.Bot }

// Roster is a game's built-in players, one entrant per name, in the order
// help texts list them.
type Roster[M, V any] []Entrant[M, V]

// Names returns the roster's names, in order.
func (r Roster[M, V]) Names() []string {
	names := make([]string, len(r))
	for i, e := range r {
		names[i] = e.Name
	}
	return names
}

// Find returns the entrant called name, or an error that lists the roster;
// game names the game in it ("TNCC").
func (r Roster[M, V]) Find(name, game string) ([]Entrant[M, V], error) {
	for _, e := range r {
		if e.Name == name {
			return []Entrant[M, V]{e}, nil
		}
	}
	return nil, UnknownPlayer(name, game, r.Names())
}

// UnknownPlayer refuses a player's name that a game's roster does not
// have, offering the nearest name when it looks like a typo of one, and
// listing them all; game names the game in it ("TNCC"). The search AI's
// name (mcts, with its settings), which the command line takes in every
// game but no game's roster has, is told where it is made in Go.
func UnknownPlayer(name, game string, names []string) error {
	if name == "mcts" || strings.HasPrefix(name, "mcts:") {
		return fmt.Errorf("unknown player %q: the search AI is no game's bot; in Go, package mcts makes it (mcts.Parse(%q), then mcts.New); %s players are %s", name, name, game, strings.Join(names, ", "))
	}
	if near := Nearest(name, names); near != "" {
		return fmt.Errorf("unknown player %q: did you mean %s? %s players are %s", name, near, game, strings.Join(names, ", "))
	}
	return fmt.Errorf("unknown player %q; %s players are %s", name, game, strings.Join(names, ", "))
}
