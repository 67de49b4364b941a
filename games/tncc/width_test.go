package tncc

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/celltest"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

// checkCountries checks the table of countries in text: every resource
// column ends at its heading's cell on every row, and a player's name
// begins at cell 3, whole or cut between grapheme clusters.
func checkCountries(t *testing.T, text string, players []string, you int) {
	t.Helper()
	lines := strings.Split(text, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "country ") {
			at = i
		}
	}
	if at < 0 || at+len(players) >= len(lines) {
		t.Fatalf("no table of countries:\n%s", text)
	}
	head := lines[at]
	for k, row := range lines[at+1 : at+1+len(players)] {
		for _, h := range []string{"gold", "food", "citizens", "army", "land"} {
			end := celltest.Cell(head, strings.Index(head, h)) + len(h)
			if !celltest.Ends(row, end) {
				t.Errorf("row %q: %q does not end at cell %d\n%s", row, h, end, text)
			}
		}
		name := "you"
		if k != you {
			name = engine.DisplayName(players[k])
		}
		shown := row[celltest.At(row, 3):]
		if !strings.HasPrefix(shown, name+" ") {
			cut, _, _ := strings.Cut(shown, "… ")
			if !strings.HasPrefix(name, cut) || !celltest.CutBetweenClusters(cut+"…") || wrap.Cells(cut+"…") > 14 {
				t.Errorf("row %q shows %q for %q\n%s", row, shown, name, text)
			}
		}
	}
}

func TestTextLinesUpNamesInAnyScript(t *testing.T) {
	// Countries played by bots named in Japanese, Korean, with a
	// combining accent and with emoji, among long names, fighting wars
	// that are told in long lines: every view fits 80 cells and the
	// public view 78 (a report indents it by two), and the resources line
	// up under their headings.
	bots := []string{"war", "blitz", "trader", "general", "war", "blitz", "turtle", "nothing"}
	players := celltest.Names[:len(bots)]
	var m *Match
	var ss []engine.Seat[Move, View]
	told := 0
	for i, b := range bots {
		es, err := Bots(b)
		if err != nil {
			t.Fatal(err)
		}
		check := func(_ *engine.Request[Move], v View, _ Move) {
			text := v.String()
			celltest.Fits(t, text, 80)
			checkCountries(t, text, players, i)
			p := m.Public().(*Public)
			text = p.String()
			celltest.Fits(t, text, 78)
			checkCountries(t, text, players, -1)
			told += len(p.Told)
		}
		ss = append(ss, engine.Seat[Move, View]{Name: players[i], Player: &spyPlayer{es[0].New(), check}})
	}
	setup := engine.Setup{Seed: 5, Players: players}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	var r engine.Runner[Move, View]
	if err := r.Run(context.Background(), m, ss, engine.NewRecord[Move](Game{}.Info(), setup)); err != nil {
		t.Fatal(err)
	}
	if told == 0 {
		t.Error("the public view told nothing")
	}
}
