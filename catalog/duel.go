package catalog

import (
	"context"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/tournament"
)

// DuelOptions says what duel to play.
type DuelOptions struct {
	// A and B are the two players, by spec; each must be one bot.
	A, B string
	// Field are the players of the other seats, by spec, in seat order (a
	// name may stand for several, as in --players); nil seats the game's
	// default players, an empty list none.
	Field []string
	// External says how external players run.
	External player.External
	// Options are the game's options, the same for every game.
	Options map[string]string
	// Seed is the first pair's seed.
	Seed uint64
	// Parallel is how many games are played at once (0: one per core).
	Parallel int
	// Deadline, Bank, Startup and Reply are every seat's time limits
	// (Reply: for answers owed to another seat's move; 0 is Deadline).
	Deadline, Bank, Startup, Reply time.Duration
	// Ready is called with the duel once the players and options are
	// checked, before any game is played. It returns the pairs to play:
	// from pair from (from 0; the pairs before it were played before) to
	// one before to. An error stops the duel before it starts.
	Ready func(d *tournament.Duel) (from, to int, err error)
	// Pair is called with each pair in order, from one goroutine;
	// tournament.ErrStop ends the duel there, any other error stops it.
	Pair func(tournament.Pair) error
	// KeepGoing plays on when a player never answers in its first game
	// (see tournament.AbsentError).
	KeepGoing bool
}

func (h *hosted[M, V]) Duel(ctx context.Context, o DuelOptions) (int, error) {
	info := h.rules.Info()
	one := func(which, spec string) (engine.Entrant[M, V], error) {
		es, err := player.Resolve([]string{spec}, h.roster, nil, o.External)
		if err != nil {
			return engine.Entrant[M, V]{}, Invalidf("%s: %v", which, err)
		}
		if len(es) != 1 {
			names := make([]string, len(es))
			for i, e := range es {
				names[i] = e.Name
			}
			return engine.Entrant[M, V]{}, Invalidf("%s: %s stands for %d players (%s); a duel is between two: name one of them", which, spec, len(es), strings.Join(names, ", "))
		}
		if es[0].Person {
			return engine.Entrant[M, V]{}, Invalidf("%s: %s is a person; a duel plays its games at once, among bots only", which, spec)
		}
		return es[0], nil
	}
	a, err := one("A", o.A)
	if err != nil {
		return 0, err
	}
	b, err := one("B", o.B)
	if err != nil {
		return 0, err
	}
	field := o.Field
	if field == nil {
		if field, err = player.ParseList(info.DefaultPlayers); err != nil {
			return 0, err
		}
	}
	others, err := player.Resolve(field, h.roster, nil, o.External)
	if err != nil {
		return 0, Invalidf("--field: %v", err)
	}
	d := &tournament.Duel{Ruleset: info.Name, Variant: info.Variant, Rules: info.Version, Options: o.Options,
		A: a.Name, B: b.Name, Seed: o.Seed}
	entrants := []engine.Entrant[M, V]{a, b}
	for _, e := range others {
		if e.Person {
			return 0, Invalidf("--field: %s is a person; a duel plays its games at once, among bots only", e.Name)
		}
		d.Field = append(d.Field, e.Name)
		entrants = append(entrants, e)
	}
	if n := d.Seats(); n < info.MinSeats || n > info.MaxSeats {
		return 0, Invalidf("%s takes %d to %d seats; %s, %s and a field of %d make %d (--field P,Q,... sets the field; none for a game of two)",
			info.Name, info.MinSeats, info.MaxSeats, d.A, d.B, len(d.Field), n)
	}
	// Check the options once, before anything is played.
	if _, err := h.rules.New(engine.Setup{Seed: o.Seed, Players: d.Names(), Options: o.Options}); err != nil {
		return 0, Invalid(err)
	}
	from, to := 0, 0
	if o.Ready != nil {
		if from, to, err = o.Ready(d); err != nil {
			return 0, err
		}
	}
	r := &tournament.DuelRun[M, V]{
		Ruleset: h.rules, Duel: d, Entrants: entrants,
		Deadline: o.Deadline, Bank: o.Bank, StartDeadline: o.Startup, ReplyDeadline: o.Reply, Parallel: o.Parallel,
		From: from, To: to, Pair: o.Pair, KeepGoing: o.KeepGoing,
	}
	return r.Run(ctx)
}
