package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/celltest"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

func TestGameTextCountsCells(t *testing.T) {
	// The final scores line up in a terminal's cells whatever the script
	// of the names, negative scores among them: every name begins at the
	// same cell, every score ends at the same cell, every rank begins at
	// the same cell, and no line is wider than 80.
	g := Game{Number: 1, Ruleset: "ajveciv", Seed: 3, ClockName: "turn", Clock: 2, Players: celltest.Names,
		Result: &engine.Result{Scores: []int64{12, -7, 0, -123456789, 4500, 31, -2, 8},
			Ranks: []int{2, 6, 5, 8, 1, 3, 7, 4}, Winners: []int{4}, Status: []string{"", "dead", "", "absent", "", "", "", ""}},
		Faults: []engine.SeatFault{{Step: 4, Seat: 6, Fault: engine.Fault{Kind: engine.FaultGarbage, Detail: "answered 「こんにちは」 and e\u0301te\u0301 with 🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲 and more words to wrap"}}}}
	var b bytes.Buffer
	g.writeText(&b, false)
	text := b.String()
	celltest.Fits(t, text, wrap.Width)
	_, scores, ok := strings.Cut(text, "final scores\n")
	if !ok {
		t.Fatalf("no final scores:\n%s", text)
	}
	rows := strings.Split(scores, "\n")[:len(g.Players)]
	var scoreEnd, rank int
	for s, row := range rows {
		// "   1  太郎   ...      12  rank 2"
		if !strings.HasPrefix(row, fmt.Sprintf("  %2d  ", s+1)) {
			t.Fatalf("row %d: %q", s+1, row)
		}
		name := strings.TrimRight(row[6:strings.LastIndex(row, fmt.Sprintf("%d  rank", g.Result.Scores[s]))], " ")
		if name != g.Players[s] {
			if !celltest.CutBetweenClusters(name) {
				t.Errorf("%q is cut inside a character", name)
			}
			if !strings.Contains(name, "…") {
				t.Errorf("row %d shows %q for %q", s+1, name, g.Players[s])
			}
		}
		end := celltest.Cell(row, strings.LastIndex(row, "  rank"))
		r := celltest.Cell(row, strings.LastIndex(row, "rank"))
		if s == 0 {
			scoreEnd, rank = end, r
		}
		if end != scoreEnd || r != rank {
			t.Errorf("row %d: its score ends at cell %d and its rank begins at %d; row 1's at %d and %d:\n%s", s+1, end, r, scoreEnd, rank, scores)
		}
	}
}

func TestSummaryCountsCells(t *testing.T) {
	// The summary's columns line up in a terminal's cells, with faults
	// and without, whatever the script of the names: each column begins
	// (or, for numbers, ends) at the same cell on every row, its heading's
	// included, and no line is wider than 80.
	for _, faults := range []bool{false, true} {
		var games []Game
		for i := range 6 {
			g := Game{Number: i + 1, Players: celltest.Names,
				Result: &engine.Result{Scores: make([]int64, len(celltest.Names)), Ranks: make([]int, len(celltest.Names)), Winners: []int{i % len(celltest.Names)}}}
			for s := range celltest.Names {
				g.Result.Scores[s] = int64((s*7+i*3)%11) - 5 - int64(s)*1000
				g.Result.Ranks[s] = 1 + (s+i)%len(celltest.Names)
			}
			if faults && i%2 == 0 {
				g.Faults = []engine.SeatFault{{Step: 1, Seat: i, Fault: engine.Fault{Kind: engine.FaultTimeout, Detail: "太郎 took too long"}}}
			}
			games = append(games, g)
		}
		summary := summaryOf(t, games)
		celltest.Fits(t, summary, wrap.Width)
		lines := strings.Split(summary, "\n")
		head := lines[1]
		if !strings.HasPrefix(head, "  player ") {
			t.Fatalf("no heading:\n%s", summary)
		}
		// Where each column begins (the names, the win rates, the means)
		// or ends (the counts and the faults), in cells.
		cols := func(line string, cells []string) []int {
			at := []int{}
			from := 0
			for k, c := range cells {
				i := from + strings.Index(line[from:], c)
				if i < from {
					t.Fatalf("no %q in %q", c, line)
				}
				from = i + len(c)
				if k == 1 || k == 2 || k == 5 {
					at = append(at, celltest.Cell(line, from)) // right-aligned: where it ends
				} else {
					at = append(at, celltest.Cell(line, i))
				}
			}
			return at
		}
		headCells := []string{"player", "games", "wins", "win rate (95% CI)", "mean score (95% CI)"}
		if faults {
			headCells = append(headCells, "faults")
		}
		want := cols(head, headCells)
		for k, p := range celltest.Names {
			line := lines[2+k]
			shown := wrap.Middle(p, 24) // at most
			if !strings.HasPrefix(line[2:], shown) {
				// A narrower column: the name is cut further.
				shown = strings.TrimRight(line[2:strings.Index(line, "     6")], " ")
				if !celltest.CutBetweenClusters(shown) {
					t.Errorf("%q is cut inside a character", shown)
				}
			}
			f := strings.Fields(line[2+len(shown):])
			cells := []string{shown, f[0], f[1], f[2] + " " + f[3], f[4] + " " + f[5] + " " + f[6]}
			if faults {
				cells = append(cells, f[7])
			}
			if got := cols(line, cells); !slices.Equal(got, want) {
				t.Errorf("row %q: its columns at cells %v; the headings' at %v:\n%s", line, got, want, summary)
			}
		}
	}
}
