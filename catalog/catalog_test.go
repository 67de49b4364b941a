package catalog_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
)

func TestEveryGameOnce(t *testing.T) {
	want := []string{"ajveciv", "reaj", "tncc", "zombie", "territories"}
	if got := catalog.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("games %v; want %v", got, want)
	}
	for _, name := range want {
		g, err := catalog.Find(name)
		if err != nil || g.Info().Name != name {
			t.Errorf("Find(%q) = %v, %v", name, g, err)
		}
	}
	if _, err := catalog.Find("chess"); !catalog.IsInvalid(err) || !strings.Contains(err.Error(), "games: ajveciv, reaj") {
		t.Errorf("an unknown game: %v; want invalid input that lists the games", err)
	}
}

func TestSeriesOfEveryGame(t *testing.T) {
	// Every game plays a series of its default players, and tells each
	// match: its record, its report, its training lines.
	for _, g := range catalog.Games() {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			var told []int
			err := g.Series(context.Background(), catalog.SeriesOptions{
				Players: strings.Split(info.DefaultPlayers, ","), Seed: 3, Games: 2,
				Played: func(p catalog.Played) error {
					told = append(told, p.Number)
					if _, err := p.Report(); err != nil {
						return err
					}
					var b strings.Builder
					if err := p.WriteRecord(&b); err != nil || !strings.HasPrefix(b.String(), `{"format":"arbiter-record"`) {
						return errors.Join(err, errors.New("not a record: "+b.String()[:min(80, b.Len())]))
					}
					return nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(told) != 2 || told[0] != 1 || told[1] != 2 {
				t.Errorf("told matches %v; want 1 and 2", told)
			}
		})
	}
}

func TestSeriesRefusesBadInput(t *testing.T) {
	g, _ := catalog.Find("reaj")
	for _, o := range []catalog.SeriesOptions{
		{Players: []string{"nobody"}, Games: 1},
		{Players: []string{"adapt"}, Games: 1},
		{Players: []string{"adapt", "conquer"}, Games: 1, Options: map[string]string{"turns": "0"}},
		{Players: []string{"adapt", "conquer"}, Games: 1, Options: map[string]string{"colour": "red"}},
	} {
		err := g.Series(context.Background(), o)
		if !catalog.IsInvalid(err) {
			t.Errorf("%+v: %v; want invalid input", o, err)
		}
	}
	// A record whose move is not a move of the game does not parse.
	rec := `{"format":"arbiter-record","version":1,"ruleset":"reaj","rules_version":"1","setup":{"seed":1,"players":["a","b"],"options":{"turns":"1"}}}` + "\n" + `{"seat":0,"move":"fly"}` + "\n"
	if _, err := g.Replay([]byte(rec)); !catalog.IsInvalid(err) {
		t.Errorf("replay of a move that does not parse: %v; want invalid input", err)
	}
}

func TestUntimed(t *testing.T) {
	// A time limit changes nothing only for built-in AIs that answer at
	// once and read no deadline: the search AI takes its deadline as its
	// budget, AjveCiv's planner and guide are watched, and people,
	// programs and bots behind a URL keep time.
	for _, c := range []struct {
		game    string
		players []string
		untimed bool
	}{
		{"ajveciv", []string{"basic", "random", "basic2.conquer-exchange"}, true},
		{"ajveciv", []string{"basic", "planner"}, false},
		{"ajveciv", []string{"guide", "random"}, false},
		{"reaj", []string{"fixed", "steward"}, true},
		{"tncc", []string{"war", "general", "trader"}, true},
		{"tncc", []string{"war", "mcts:playouts=5"}, false},
		{"zombie", []string{"sensible", "searcher"}, true},
		{"territories", []string{"greedy", "random"}, true},
		{"territories", []string{"greedy", "mcts"}, false},
		{"reaj", []string{"steward", "repl"}, false},
		{"reaj", []string{"steward", "exec:./bot"}, false},
		{"reaj", []string{"steward", "http://localhost:9/bot"}, false},
		{"reaj", []string{"steward", "nobody"}, false},
	} {
		g, err := catalog.Find(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Untimed(c.players); got != c.untimed {
			t.Errorf("%s %v: Untimed %v, want %v", c.game, c.players, got, c.untimed)
		}
	}
}
