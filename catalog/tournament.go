package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/tournament"
)

// TournamentOptions says what tournament to play and among whom.
type TournamentOptions struct {
	// Players are the players by spec; a person cannot play (games are
	// played at once). Params.Players is filled from them.
	Players []string
	// External says how external players run.
	External player.External
	// Params are the schedule's: the game's options, the seed, the rounds
	// and appearances or the seats per game, the repeats.
	Params tournament.Params
	// Parallel is how many games are played at once (0: one per core).
	Parallel int
	// Shard is the part of the schedule to play; the zero value plays all.
	Shard tournament.Shard
	// Deadline, Bank, Startup and Reply are every seat's time limits
	// (Reply: for answers owed to another seat's move; 0 is Deadline).
	Deadline, Bank, Startup, Reply time.Duration
	// Ready, if not nil, is called with the schedule once it is dealt and
	// the options are checked, before any game is played; an error stops
	// the tournament before it starts. It returns how many of the shard's
	// games were played before (kept in a results file that goes on):
	// play starts after them.
	Ready func(*tournament.Schedule) (from int, err error)
	// Played is called with each game's result in schedule order, from
	// one goroutine; an error stops the tournament.
	Played func(tournament.GameResult) error
	// KeepGoing plays on when a player never answers in its first game
	// (see tournament.AbsentError).
	KeepGoing bool
	// Training, if not nil, is called after Played with each game's
	// decisions as training lines.
	Training func(lines []byte) error
	// Decided, if not nil, is told how long every decision of the players
	// it names took, by the clock: it is called from the games'
	// goroutines, at once. Players that keep their own time or decide
	// outside the match (programs, bots over HTTP) are not timed: the
	// runner treats them by what they are.
	Decided func(player string, took time.Duration)
	// Timed names the players whose decisions Decided is told.
	Timed []string
}

func (h *hosted[M, V]) Tournament(ctx context.Context, o TournamentOptions) (int, error) {
	info := h.rules.Info()
	entrants, err := player.Resolve(o.Players, h.roster, nil, o.External)
	if err != nil {
		return 0, Invalid(err)
	}
	for _, e := range entrants {
		if e.Person {
			return 0, Invalidf("%s is a person; a tournament plays its games at once, among bots only (play a person with arbiter play %s)", e.Name, info.Name)
		}
	}
	if o.Decided != nil {
		for i, e := range entrants {
			if slices.Contains(o.Timed, e.Name) && !e.Person {
				entrants[i].New = timedPlayer(e.Name, e.New, o.Decided)
			}
		}
	}
	if err := namedTwice(o.Players, entrants, h.roster); err != nil {
		return 0, Invalid(err)
	}
	o.Params.Info = info
	o.Params.Players = make([]string, len(entrants))
	for i, e := range entrants {
		o.Params.Players[i] = e.Name
	}
	sched, err := tournament.NewSchedule(o.Params)
	if err != nil {
		return 0, Invalid(err)
	}
	// Check the options once, before anything is played.
	if _, err := h.rules.New(engine.Setup{Seed: sched.Seed, Players: make([]string, len(sched.Game(0))), Options: o.Params.Options}); err != nil {
		return 0, Invalid(err)
	}
	from := 0
	if o.Ready != nil {
		if from, err = o.Ready(sched); err != nil {
			return 0, err
		}
	}
	t := &tournament.Tournament[M, V]{
		Ruleset: h.rules, Schedule: sched, Entrants: entrants, From: from,
		Deadline: o.Deadline, Bank: o.Bank, StartDeadline: o.Startup, ReplyDeadline: o.Reply, Parallel: o.Parallel, Shard: o.Shard,
		Played: o.Played, Training: o.Training, KeepGoing: o.KeepGoing,
	}
	return t.Run(ctx)
}

// timedPlayer makes players as make does, each telling decided how long
// every decision of its took.
func timedPlayer[M, V any](name string, make func() engine.Player[M, V], decided func(string, time.Duration)) func() engine.Player[M, V] {
	return func() engine.Player[M, V] {
		p := make()
		if _, ok := p.(engine.SelfTimed); ok {
			return p
		}
		if _, ok := p.(engine.Preparer[M, V]); ok {
			return p
		}
		return &timed[M, V]{Player: p, name: name, decided: decided}
	}
}

// timed is a player whose decisions are timed. It keeps what the runner
// asks of the player it wraps: its start, its finish and whether it is
// bounded.
type timed[M, V any] struct {
	engine.Player[M, V]
	name    string
	decided func(string, time.Duration)
}

func (t *timed[M, V]) Decide(ctx context.Context, req *engine.Request[M], view V) (M, error) {
	start := time.Now()
	mv, err := t.Player.Decide(ctx, req, view)
	t.decided(t.name, time.Since(start))
	return mv, err
}

func (t *timed[M, V]) Start(ctx context.Context, info engine.MatchInfo) error {
	if s, ok := t.Player.(engine.Starter); ok {
		return s.Start(ctx, info)
	}
	return nil
}

func (t *timed[M, V]) Finish(ctx context.Context, r engine.Result) {
	if f, ok := t.Player.(engine.Finisher); ok {
		f.Finish(ctx, r)
	}
}

func (t *timed[M, V]) Bounded() bool {
	b, ok := t.Player.(engine.Bounded)
	return ok && b.Bounded()
}

// namedTwice says which player the specs name twice, and by which specs
// when one of them is a name that stands for several (Reaj's fixed, AjveCiv's
// basic): "adapt" given with fixed is named twice though written once.
func namedTwice[M, V any](specs []string, entrants []engine.Entrant[M, V], roster func(string) ([]engine.Entrant[M, V], error)) error {
	for i, spec := range specs {
		if slices.Contains(specs[:i], spec) {
			return fmt.Errorf("tournament: player %q is named twice; every player of a tournament is one entrant", spec)
		}
	}
	seen := map[string]bool{}
	for _, e := range entrants {
		if !seen[e.Name] {
			seen[e.Name] = true
			continue
		}
		var by []string
		for _, spec := range specs {
			if spec == e.Name {
				by = append(by, spec)
			} else if es, err := roster(spec); err == nil && len(es) > 1 && slices.ContainsFunc(es, func(g engine.Entrant[M, V]) bool { return g.Name == e.Name }) {
				by = append(by, spec+" (which includes it)")
			}
		}
		if len(by) < 2 {
			return nil // the schedule says it in its words
		}
		return fmt.Errorf("tournament: player %q is named twice, by %s; every player of a tournament is one entrant", e.Name, strings.Join(by, " and by "))
	}
	return nil
}
