// Package wrap breaks text into lines for a terminal, and measures and
// aligns it there: the views of the games, the terminal player's messages
// and the text reports all wrap their prose with it, so that they break
// lines alike, and pad their tables' columns with it, in the cells a
// terminal gives each character (see Cells).
package wrap

import (
	"strings"
	"unicode"
)

// Width is the width of a person's terminal, in columns (cells).
const Width = 80

// NoBreak holds the words either side of it on one line; it is written as
// a space. "1\u00a0Alice" keeps a seat's number with its player.
const NoBreak = '\u00a0'

// Writer is what the text is written to: a strings.Builder or a
// bytes.Buffer.
type Writer interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

// Write writes text to b in lines of at most width cells (see Cells),
// broken at spaces but never at a NoBreak, the first line after first and
// the others after rest, and a newline at the end. A word longer than a
// line stays whole. Runs of spaces, tabs and newlines count as one space.
func Write(b Writer, text, first, rest string, width int) {
	n, i := 0, 0
	for len(text) > 0 {
		var word string
		word, text = next(text)
		if word == "" {
			break
		}
		wl := Cells(word)
		switch {
		case i == 0:
			b.WriteString(first)
			n = Cells(first)
		case n+1+wl > width:
			b.WriteByte('\n')
			b.WriteString(rest)
			n = Cells(rest)
		default:
			b.WriteByte(' ')
			n++
		}
		i++
		writeWord(b, word)
		n += wl
	}
	b.WriteByte('\n')
}

// Paragraphs returns text with each of its lines wrapped to width columns
// (see Write), each ending in a newline; an empty line stays empty.
func Paragraphs(text string, width int) string {
	var b strings.Builder
	for para := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		Write(&b, para, "", "", width)
	}
	return b.String()
}

// next returns text's first word, which NoBreak may join, and what follows
// it; the word is "" when text holds only spaces.
func next(text string) (word, after string) {
	text = strings.TrimLeftFunc(text, breaks)
	end := strings.IndexFunc(text, breaks)
	if end < 0 {
		return text, ""
	}
	return text[:end], text[end:]
}

// breaks says whether r is a space a line may break at.
func breaks(r rune) bool { return r != NoBreak && unicode.IsSpace(r) }

// writeWord writes word with each NoBreak as a space.
func writeWord(b Writer, word string) {
	for {
		part, after, joined := strings.Cut(word, string(NoBreak))
		b.WriteString(part)
		if !joined {
			return
		}
		b.WriteByte(' ')
		word = after
	}
}
