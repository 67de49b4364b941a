package catalog

import (
	"context"
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
	// Deadline, Bank and Startup are every seat's time limits.
	Deadline, Bank, Startup time.Duration
	// Ready, if not nil, is called with the schedule once it is dealt and
	// the options are checked, before any game is played; an error stops
	// the tournament before it starts.
	Ready func(*tournament.Schedule) error
	// Played is called with each game's result in schedule order, from
	// one goroutine; an error stops the tournament.
	Played func(tournament.GameResult) error
	// Training, if not nil, is called after Played with each game's
	// decisions as training lines.
	Training func(lines []byte) error
}

func (h *hosted[M, V]) Tournament(ctx context.Context, o TournamentOptions) (int, error) {
	info := h.rules.Info()
	entrants, err := player.Resolve(o.Players, h.roster, func() engine.Player[M, V] { return nil }, o.External)
	if err != nil {
		return 0, Invalid(err)
	}
	for _, e := range entrants {
		if e.Person {
			return 0, Invalidf("%s is a person; a tournament plays its games at once, among bots only (play a person with arbiter play %s)", e.Name, info.Name)
		}
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
	if _, err := h.rules.New(engine.Setup{Seed: sched.Seed, Players: make([]string, len(sched.Games[0])), Options: o.Params.Options}); err != nil {
		return 0, Invalid(err)
	}
	if o.Ready != nil {
		if err := o.Ready(sched); err != nil {
			return 0, err
		}
	}
	t := &tournament.Tournament[M, V]{
		Ruleset: h.rules, Schedule: sched, Entrants: entrants,
		Deadline: o.Deadline, Bank: o.Bank, StartDeadline: o.Startup, Parallel: o.Parallel, Shard: o.Shard,
		Played: o.Played, Training: o.Training,
	}
	return t.Run(ctx)
}
