package wrap

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/mattn/go-runewidth"
)

// A terminal gives each character of a line one cell, or two for an East
// Asian wide character ("太", "한") and most emoji, and none to a
// combining mark (the U+0301 of a decomposed "é"); a grapheme cluster, what
// a reader takes for one character (a letter and its marks, an emoji and
// its modifiers, a flag), takes at most two. Tables and wrapped text are
// measured in these cells, not in runes or bytes.
//
// The measure is go-runewidth's, with an ambiguous character ("…", "±",
// "μ") one cell whatever the locale: the same text gives the same bytes on
// every machine, as the golden reports need.
var terminal = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// Cells returns the number of cells s takes on a terminal.
func Cells(s string) int { return terminal.StringWidth(s) }

// CellsOf returns the number of cells the text in b takes, as Cells does,
// without copying it: for tables built in a buffer that write without
// allocating (the AjveCiv board's grid).
func CellsOf(b []byte) int {
	// The measure keeps nothing of the string once it returns, and b is
	// not written meanwhile.
	return Cells(unsafe.String(unsafe.SliceData(b), len(b)))
}

// Head returns the longest start of s that takes at most width cells,
// cut between grapheme clusters: s itself when it fits.
func Head(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return terminal.Truncate(s, width, "")
}

// Tail returns the longest end of s that takes at most width cells, cut
// between grapheme clusters: s itself when it fits.
func Tail(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return terminal.TruncatePrefix(s, width, "")
}

// FirstRunes returns the longest start of s of at most n runes (what a
// limit in characters keeps, such as a name's 40) that ends between
// grapheme clusters: a letter keeps its accents and an emoji its joined
// parts, or goes whole. It is s itself when s has no more than n runes.
// The clusters are UAX #29's, as go-runewidth finds them.
func FirstRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	end, runes := 0, 0
	for g := graphemes.FromString(s); g.Next(); {
		if runes += utf8.RuneCountInString(g.Value()); runes > n {
			break
		}
		end = g.End()
	}
	return s[:end]
}

// Middle returns s cut to at most width cells, when it is wider, in its
// middle: a third of the room for its start, then "…", then its end, each
// part whole grapheme clusters. The end is what tells apart programs of
// one directory ("exec:pyt…/mybots/bad_one.py").
func Middle(s string, width int) string {
	if Cells(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	head := Head(s, (width-1)/3)
	return head + "…" + Tail(s, width-1-Cells(head))
}

// PadRight returns s followed by the spaces that make it width cells wide:
// s aligned left in a column of that width. A wider s is returned whole.
func PadRight(s string, width int) string {
	if n := width - Cells(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// PadLeft returns s after the spaces that make it width cells wide: s
// aligned right in a column of that width. A wider s is returned whole.
func PadLeft(s string, width int) string {
	if n := width - Cells(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}
