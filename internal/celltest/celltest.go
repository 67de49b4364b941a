// Package celltest checks, in tests, text written for a terminal: that its
// lines fit a width and that its columns line up, counted in the cells a
// terminal shows (wrap.Cells: two for a wide character or an emoji, none
// for a combining mark), not in bytes or runes.
package celltest

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// Names are players' names in other scripts than ASCII's, among long and
// plain ones: wide characters (two cells each), a decomposed "José" (an e
// and a combining mark, no cell of its own), emoji (two cells, one a
// cluster joined by a ZWJ), Korean, and names long enough to be cut, so
// that a cut falls next to such characters.
var Names = []string{
	"太郎",
	"Jose\u0301",
	"🎲 dice",
	"👩\u200d🚀 astronaut bot",
	"basic.conquer",
	"花子のとても長い名前のボットですよ本当に長い",
	"exec:python3 /home/さくら/projects/arbiter-bots/e\u0301tude-😀-bot.py",
	"한국어 봇",
}

// Fits fails t for each line of text wider than width cells.
func Fits(t testing.TB, text string, width int) {
	t.Helper()
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		if n := wrap.Cells(line); n > width {
			t.Errorf("a line of %d cells (at most %d): %q\nin\n%s", n, width, line, text)
		}
	}
}

// Cell returns the cell at which line's byte i begins.
func Cell(line string, i int) int { return wrap.Cells(line[:i]) }

// At returns the byte of line at which its cell c begins, or -1 when no
// character begins there (c is inside a wide one, or past the end).
func At(line string, c int) int {
	for i := range line {
		if wrap.Cells(line[:i]) == c {
			return i
		}
	}
	if wrap.Cells(line) == c {
		return len(line)
	}
	return -1
}

// Ends reports whether a column ends at cell c of line, as a number
// aligned right does: a character other than a space just before it, and
// a space or the end of the line at it.
func Ends(line string, c int) bool {
	i := At(line, c)
	return i > 0 && line[i-1] != ' ' && (i == len(line) || line[i] == ' ')
}

// Begins reports whether a column begins at cell c of line, as a name
// aligned left does: a space or the start of the line just before it, and
// a character other than a space at it.
func Begins(line string, c int) bool {
	i := At(line, c)
	return i >= 0 && i < len(line) && line[i] != ' ' && (i == 0 || line[i-1] == ' ')
}

// CutBetweenClusters reports whether shown, a name as a table shows it,
// perhaps cut with "…", was cut between grapheme clusters: no mark,
// joiner, variation selector or skin tone right after the "…", no joiner
// right before it.
func CutBetweenClusters(shown string) bool {
	head, tail, cut := strings.Cut(shown, "…")
	if !cut {
		return true
	}
	r, _ := utf8.DecodeRuneInString(tail)
	extends := unicode.Is(unicode.M, r) || unicode.Is(unicode.Variation_Selector, r) || r == '\u200d' || (r >= 0x1F3FB && r <= 0x1F3FF)
	return !extends && !strings.HasSuffix(head, "\u200d")
}

// nameCell is a row of a society board after its number: the player's
// name, then the first number.
var nameCell = regexp.MustCompile(`^(.*?) +-?\d+ `)

// Board checks a board of societies as seat sees it (AjveCiv's and Reaj's:
// a heading " # player" and a row a player, in seat order): each column of
// numbers ends, and the last turn's column begins, at its heading's cell on
// every row; a column about "you" is blank in the seat's own row; and
// each other player's name is shown whole, or cut between characters.
func Board(t testing.TB, board string, players []string, seat int) {
	t.Helper()
	lines := strings.Split(board, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, " # player") })
	if at < 0 || at+len(players) >= len(lines) {
		t.Fatalf("no heading and a row a player:\n%s", board)
	}
	head := lines[at]
	rows := lines[at+1 : at+1+len(players)]
	for _, h := range strings.Fields(head)[2:] {
		cell := Cell(head, strings.Index(head, h))
		for k, row := range rows {
			switch {
			case h == "turn":
			case h == "last": // "last turn", aligned left
				if !Begins(row, cell) {
					t.Errorf("row %q: %q does not begin at cell %d\n%s", row, h, cell, board)
				}
			case k == seat && strings.Contains(h, "you"): // blank in the seat's own row
			case !Ends(row, cell+wrap.Cells(h)):
				t.Errorf("row %q: %q does not end at cell %d\n%s", row, h, cell+wrap.Cells(h), board)
			}
		}
	}
	for k, row := range rows {
		i := At(row, 3)
		m := nameCell.FindStringSubmatch(row[max(i, 0):])
		if i < 0 || m == nil {
			t.Errorf("row %q has no name at cell 3", row)
			continue
		}
		name := m[1]
		if k != seat && name != players[k] && (!CutBetweenClusters(name) || !strings.HasPrefix(players[k], strings.TrimSuffix(name, "…"))) {
			t.Errorf("row %q shows %q for %q", row, name, players[k])
		}
	}
}
