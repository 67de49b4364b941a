package mcts_test

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/mcts"
)

// New makes the search AI of any game whose rules offer the engine's
// search hooks, here TNCC: a fixed number of playouts makes its moves the
// same on every run, and the rollout, a player of your own or one of the
// game's bots, plays every seat past the search tree.
func ExampleNew() {
	turtle, err := tncc.Bots("turtle")
	if err != nil {
		fmt.Println(err)
		return
	}
	search, err := mcts.New[tncc.Move, tncc.View](tncc.Game{}, mcts.Config{Playouts: 40, Rollout: "turtle"}, turtle[0].New)
	if err != nil {
		fmt.Println(err)
		return
	}
	war, err := tncc.Bots("war")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := engine.Series[tncc.Move, tncc.View]{Ruleset: tncc.Game{}, Seed: 2}
	s.Game(
		engine.Seat[tncc.Move, tncc.View]{Name: "mcts", Player: search},
		engine.Seat[tncc.Move, tncc.View]{Name: "war", Player: war[0].New()},
	)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	res := recs[0].End.Result
	fmt.Println(res.Reason)
	for seat, name := range recs[0].Header.Setup.Players {
		fmt.Printf("%-4s rank %d, %d cycles\n", name, res.Ranks[seat], res.Scores[seat])
	}
	// Output:
	// one country left
	// mcts rank 1, 42 cycles
	// war  rank 2, 41 cycles
}
