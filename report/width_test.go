package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

// worldNames are players' names in other scripts than ASCII's, among long
// and plain ones: wide characters (two cells each), a decomposed "José"
// (an e and a combining mark, no cell of its own), emoji (two cells, one
// a cluster joined by a ZWJ), and names long enough to be cut, so that a
// cut falls next to such characters.
var worldNames = []string{
	"太郎",
	"Jose\u0301",
	"🎲 dice",
	"👩\u200d🚀 astronaut bot",
	"basic.conquer",
	"花子のとても長い名前のボットですよ本当に長い",
	"exec:python3 /home/さくら/projects/arbiter-bots/e\u0301tude-😀-bot.py",
	"한국어 봇",
}

// cellAt is the cell at which line's byte i begins on a terminal.
func cellAt(line string, i int) int { return wrap.Cells(line[:i]) }

// checkFits fails t for each line of text wider than 80 cells.
func checkFits(t *testing.T, text string) {
	t.Helper()
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		if n := wrap.Cells(line); n > wrap.Width {
			t.Errorf("a line of %d cells: %q\nin\n%s", n, line, text)
		}
	}
}

// checkCut fails t when name, as a table shows it, was cut inside a
// grapheme cluster: a mark or a joiner after the "…", a joiner before it.
func checkCut(t *testing.T, shown string) {
	t.Helper()
	head, tail, cut := strings.Cut(shown, "…")
	if !cut {
		return
	}
	r, _ := utf8.DecodeRuneInString(tail)
	l, _ := utf8.DecodeLastRuneInString(head)
	if unicode.Is(unicode.M, r) || r == '\u200d' || r == '\ufe0f' || l == '\u200d' {
		t.Errorf("%q is cut inside a character", shown)
	}
}

func TestGameTextCountsCells(t *testing.T) {
	// The final scores line up in a terminal's cells whatever the script
	// of the names, negative scores among them: every name begins at the
	// same cell, every score ends at the same cell, every rank begins at
	// the same cell, and no line is wider than 80.
	g := Game{Number: 1, Ruleset: "ajveciv", Seed: 3, ClockName: "turn", Clock: 2, Players: worldNames,
		Result: &engine.Result{Scores: []int64{12, -7, 0, -123456789, 4500, 31, -2, 8},
			Ranks: []int{2, 6, 5, 8, 1, 3, 7, 4}, Winners: []int{4}, Status: []string{"", "dead", "", "absent", "", "", "", ""}},
		Faults: []engine.SeatFault{{Step: 4, Seat: 6, Fault: engine.Fault{Kind: engine.FaultGarbage, Detail: "answered 「こんにちは」 and e\u0301te\u0301 with 🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲 and more words to wrap"}}}}
	var b bytes.Buffer
	g.writeText(&b, false)
	text := b.String()
	checkFits(t, text)
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
			checkCut(t, name)
			if !strings.Contains(name, "…") {
				t.Errorf("row %d shows %q for %q", s+1, name, g.Players[s])
			}
		}
		end := cellAt(row, strings.LastIndex(row, "  rank"))
		r := cellAt(row, strings.LastIndex(row, "rank"))
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
			g := Game{Number: i + 1, Players: worldNames,
				Result: &engine.Result{Scores: make([]int64, len(worldNames)), Ranks: make([]int, len(worldNames)), Winners: []int{i % len(worldNames)}}}
			for s := range worldNames {
				g.Result.Scores[s] = int64((s*7+i*3)%11) - 5 - int64(s)*1000
				g.Result.Ranks[s] = 1 + (s+i)%len(worldNames)
			}
			if faults && i%2 == 0 {
				g.Faults = []engine.SeatFault{{Step: 1, Seat: i, Fault: engine.Fault{Kind: engine.FaultTimeout, Detail: "太郎 took too long"}}}
			}
			games = append(games, g)
		}
		summary := summaryOf(t, games)
		checkFits(t, summary)
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
					at = append(at, cellAt(line, from)) // right-aligned: where it ends
				} else {
					at = append(at, cellAt(line, i))
				}
			}
			return at
		}
		headCells := []string{"player", "games", "wins", "win rate (95% CI)", "mean score (95% CI)"}
		if faults {
			headCells = append(headCells, "faults")
		}
		want := cols(head, headCells)
		for k, p := range worldNames {
			line := lines[2+k]
			shown := wrap.Middle(p, 24) // at most
			if !strings.HasPrefix(line[2:], shown) {
				// A narrower column: the name is cut further.
				shown = strings.TrimRight(line[2:strings.Index(line, "     6")], " ")
				checkCut(t, shown)
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
