package tournament_test

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/tournament"
)

// A tournament from Go: a schedule of players (here every pair of three,
// each in both seats, three times over), the entrant that makes each
// player (a bot of your own goes beside the game's), and a table that
// adds up the results, played on every core and rated in schedule order.
func ExampleTournament() {
	var entrants []engine.Entrant[tncc.Move, tncc.View]
	for _, name := range []string{"blitz", "war", "nothing"} {
		e, err := tncc.Bots(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		entrants = append(entrants, e...)
	}
	players := make([]string, len(entrants))
	for i, e := range entrants {
		players[i] = e.Name
	}
	s, err := tournament.NewSchedule(tournament.Params{Info: tncc.Game{}.Info(), Players: players, Seats: 2, Repeat: 3, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		fmt.Println(err)
		return
	}
	t := tournament.Tournament[tncc.Move, tncc.View]{Ruleset: tncc.Game{}, Schedule: s, Entrants: entrants, Played: table.Add}
	if _, err := t.Run(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(table.Describe())
	for _, st := range table.Standings() {
		fmt.Printf("%-8s %2d games, %2d wins\n", st.Player, st.Games, st.Wins)
	}
	// Output:
	// tncc tournament 1f30221d9a40f8b8: 3 players, every group of 2 in every seat, 3 times over, seed 1, 18 games
	// blitz    12 games, 12 wins
	// nothing  12 games,  6 wins
	// war      12 games,  6 wins
}
