// Command gobot plays a built-in player of a game as an external program,
// through player.Serve: gobot GAME PLAYER, PLAYER a name the game's
// --players takes (guide, general, mcts:playouts=40, ...). The tests play
// it through exec: and compare its games with the same player's in
// process.
package main

import (
	"fmt"
	"os"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/games/zombie"
	"github.com/arbiter-games/arbiter/mcts"
	"github.com/arbiter-games/arbiter/player"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gobot GAME PLAYER")
		os.Exit(2)
	}
	game, name := os.Args[1], os.Args[2]
	var err error
	switch game {
	case "ajveciv":
		err = serve(ajveciv.Original(), ajveciv.Bots, name)
	case "reaj":
		err = serve(reaj.Game{}, reaj.Bots, name)
	case "tncc":
		err = serve(tncc.Game{}, tncc.Bots, name)
	case "territories":
		err = serve(territories.Game{}, territories.Bots, name)
	case "zombie":
		err = serve(zombie.Game{}, zombie.Bots, name)
	default:
		err = fmt.Errorf("no game %q", game)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// serve serves the player called name, as the command line makes it.
func serve[M, V any](rules engine.Ruleset[M, V], bots func(string) ([]engine.Entrant[M, V], error), name string) error {
	newPlayer, err := entrant(rules, bots, name)
	if err != nil {
		return err
	}
	player.Serve(rules, newPlayer)
	return nil
}

// entrant makes the player called name: a built-in bot, or the search AI.
func entrant[M, V any](rules engine.Ruleset[M, V], bots func(string) ([]engine.Entrant[M, V], error), name string) (func() engine.Player[M, V], error) {
	if mcts.Is(name) {
		cfg, err := mcts.Parse(name)
		if err != nil {
			return nil, err
		}
		if _, err := mcts.New(rules, cfg, nil); err != nil {
			return nil, err
		}
		return func() engine.Player[M, V] {
			p, _ := mcts.New(rules, cfg, nil)
			return p
		}, nil
	}
	es, err := bots(name)
	if err != nil {
		return nil, err
	}
	if len(es) != 1 {
		return nil, fmt.Errorf("%s stands for %d players; name one", name, len(es))
	}
	return es[0].New, nil
}
