package tncc

import (
	"context"
	"math"
	"strconv"
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

func TestHugeAmountsFit(t *testing.T) {
	// A custom preset can take amounts to 2⁶³ − 1, 19 digits: the table of
	// countries still fits (78 columns in the public view, which a report
	// indents by two; 80 in a seat's), the amounts too wide shown in
	// short, lined up under their headings, beside the longest names and a
	// country dead in the last cycle a preset allows.
	w := NewWorld(Default(), 12)
	for i := range w.Countries {
		for r := range Resource(NumResources) {
			w.Countries[i].Stock[r] = math.MaxInt64 - int64(i)
		}
	}
	w.Countries[3].Stock[Army] = 7
	w.Countries[5].Dead, w.Countries[5].Died = true, MaxCyclesLimit
	players := make([]string, 12)
	for i := range players {
		players[i] = strings.Repeat("x", 20) + strconv.Itoa(i)
	}
	var b strings.Builder
	writeCountries(&b, &w, -1, players, publicWidth)
	text := b.String()
	celltest.Fits(t, text, 78)
	checkCountries(t, text, players, -1)
	if !strings.Contains(text, " 9.2E18 ") || !strings.Contains(text, " 7 ") || !strings.Contains(text, "dead (cycle 100000)") {
		t.Errorf("the amounts are not shown as 9.2E18, and 7 whole:\n%s", text)
	}
	b.Reset()
	writeCountries(&b, &w, 2, players, wrap.Width)
	celltest.Fits(t, b.String(), 80)
	checkCountries(t, b.String(), players, 2)

	// An amount of more than six digits stays whole while the table fits.
	w = NewWorld(Default(), 4)
	w.Countries[0].Stock[Gold] = 123456789012
	b.Reset()
	writeCountries(&b, &w, -1, players[:4], publicWidth)
	if !strings.Contains(b.String(), " 123456789012 ") {
		t.Errorf("an amount that fits is shortened:\n%s", b.String())
	}
	for n, want := range map[int64]string{math.MaxInt64: "9.2E18", 1_000_000: "1.0E6", 1_250_001: "1.3E6", 9_990_000: "1.0E7", 999_999_999_999: "1.0E12"} {
		if got := shortAmount(n); got != want {
			t.Errorf("%d in short: %s; want %s", n, got, want)
		}
	}
}
