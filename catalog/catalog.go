// Package catalog is the list of the games Arbiter hosts, and everything a
// host does with one whatever its move and view types: play a series of
// matches, a tournament, replay a record, step the pure rules; and, for
// live matches, its moves and views as JSON (the bot protocol's shapes).
// The command line and the server both reach games through it, never a
// game's package directly.
//
// This is the one place where games are named: nothing registers itself.
package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/games/zombie"
)

// games lists every hosted game, in the order help texts show them.
var games = []Game{
	&hosted[ajveciv.Value, ajveciv.View]{rules: ajveciv.Original(), bots: ajveciv.Bots, step: ajvecivStep},
	&hosted[reaj.Value, reaj.View]{rules: reaj.Game{}, bots: reaj.Bots, step: reajStep},
	&hosted[tncc.Move, tncc.View]{rules: tncc.Game{}, bots: tncc.Bots, step: tnccStep},
	&hosted[zombie.Plan, zombie.View]{rules: zombie.Game{}, bots: zombie.Bots, step: zombieStep,
		modes: []mode{
			{Mode: Mode{Name: "party", For: "to play it with friends, each on their own phone (bots may fill seats)", About: "each player sends their turn's plan from their own page; the plans of a turn resolve in an order drawn from the match's generator; a judge, if any, watches and may end a turn"}},
			{Mode: Mode{Name: "judge", For: "for a game master who runs a game played around a table: they type its script, the players read their sheets", About: "the judge enters the script's commands, one line at a time, as arbiter zombie run reads them; each seat is a player, named at creation, who reads their sheet", Judge: true,
				Settings: "the script's GAME_START sets max_turns and the starting antibodies and viruses, and its HUMAN and ZOMBIE lines who is what"},
				game: &hosted[zombie.Line, zombie.Sheet]{rules: zombie.Judging{}, bots: noBots[zombie.Line, zombie.Sheet]("zombie"), judged: true}},
		}},
	&hosted[territories.Action, territories.View]{rules: territories.Game{}, bots: territories.Bots, step: territoriesStep,
		modes: []mode{
			{Mode: Mode{Name: "referee", For: "for a game master or a program (a chat bot) that runs the game: no seats, no AI; players join by name", About: "the referee: the judge (the application that drives the game) makes each action for a named player, and may give a player who joins a secret of their own", Judge: true},
				game: &hosted[territories.Call, territories.Board]{rules: territories.Referee{}, bots: noBots[territories.Call, territories.Board]("territories"),
					joiner: territories.Joiner, asPlayer: territoriesAsPlayer, judged: true, project: territoriesProjection}},
			{Mode: Mode{Name: "seats", For: "to play it: you against the AI (or friends), each nation a seat, a person or a bot", About: "nations in seats, bots or people, take their turns as arbiter play territories plays them"}},
		}},
}

// noBots is the roster of a ruleset whose seats are never bots.
func noBots[M, V any](game string) func(string) ([]engine.Entrant[M, V], error) {
	return func(name string) ([]engine.Entrant[M, V], error) {
		return nil, fmt.Errorf("unknown player %q; in this mode of %s every seat is a person", name, game)
	}
}

// territoriesAsPlayer is a named player's call as the judge's: the call's
// player is the caller, whoever the call names.
func territoriesAsPlayer(name string, c territories.Call) (territories.Call, error) {
	if c.Player != "" && !strings.EqualFold(c.Player, name) {
		return c, engine.Refuse("not-yours", "you are %s; you act for yourself only (the call names %s)", name, c.Player)
	}
	c.Player = name
	return c, nil
}

// Games returns every hosted game.
func Games() []Game { return games }

// Names returns the games' names.
func Names() []string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Info().Name
	}
	return names
}

// Find returns the game called name, or an InputError that lists the
// games, with the closest one's name for a typo (ajvciv: ajveciv).
func Find(name string) (Game, error) {
	for _, g := range games {
		if g.Info().Name == name {
			return g, nil
		}
	}
	if name == "" {
		return nil, Invalidf("no game named; games: %s", strings.Join(Names(), ", "))
	}
	if near := engine.Nearest(name, Names()); near != "" {
		return nil, Invalidf("unknown game %q; did you mean %s? Games: %s", name, near, strings.Join(Names(), ", "))
	}
	return nil, Invalidf("unknown game %q; games: %s", name, strings.Join(Names(), ", "))
}

// Game is one hosted game, whatever its move and view types.
type Game interface {
	// Info describes the game: name, seats, options, players, rules.
	Info() engine.Info
	// Series plays a series of matches and tells each as it ends.
	Series(ctx context.Context, o SeriesOptions) error
	// Tournament plays a tournament's games (or one shard of them) and
	// tells each as it ends, in schedule order. It returns how many games
	// were told.
	Tournament(ctx context.Context, o TournamentOptions) (int, error)
	// Duel plays a duel's pairs (see tournament.Duel) and tells each as it
	// ends, in order. It returns how many pairs were told.
	Duel(ctx context.Context, o DuelOptions) (int, error)
	// Replay re-runs a match record and checks it.
	Replay(data []byte) (Replayed, error)
	// Step applies one step of the pure rules to the game's world JSON and
	// returns the world after it, as one JSON line.
	Step(state, moves []byte, seed uint64) ([]byte, error)
	// Untimed reports whether time limits change nothing for the players
	// specs name (see hosted.Untimed).
	Untimed(specs []string) bool
}
