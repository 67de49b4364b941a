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
