// Package celltest checks, in tests, text written for a terminal: that its
// lines fit a width and that its columns line up, counted in the cells a
// terminal shows (wrap.Cells: two for a wide character or an emoji, none
// for a combining mark), not in bytes or runes.
package celltest

import (
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
