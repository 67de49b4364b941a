package ajveciv

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The board is the world as people read it, at a terminal of 80 columns:
// one row per society with its nation and values, then how the societies
// feel about each other.

// boardWidth is the widest a board's line is meant to be: 80 columns, less
// the indent of a report.
const boardWidth = 78

// valueHeads head the values' columns; valueLegend says what they stand for.
var valueHeads = [NumValues]string{"con", "exc", "dis", "exp", "dev", "cns"}

const valueLegend = "con conquer, exc exchange, dis discover, exp expand, dev develop, cns consent"

// column is one column of a board: its head, its cells, and whether it is
// read left to right (names) rather than right-aligned (numbers).
type column struct {
	head  string
	left  bool
	cells []string
	width int // at least
}

// writeMatrix writes cols as writeColumns does, but a matrix too wide for
// boardWidth is written in blocks of as many columns as fit, each block
// after the first beginning again with the row labels (column 0).
func writeMatrix(b *strings.Builder, cols []column) {
	width := func(c column) int {
		w := max(c.width, utf8.RuneCountInString(c.head))
		for _, s := range c.cells {
			w = max(w, utf8.RuneCountInString(s))
		}
		return w
	}
	label := width(cols[0])
	for start := 1; start < len(cols); {
		end, used := start, label
		for end < len(cols) && (end == start || used+1+width(cols[end]) <= boardWidth) {
			used += 1 + width(cols[end])
			end++
		}
		if start > 1 {
			b.WriteByte('\n')
		}
		writeColumns(b, append([]column{cols[0]}, cols[start:end]...), -1)
		start = end
	}
}

// writeColumns writes cols as a table, the columns apart by one space.
// Column shrink (if ≥ 0) is cut, its long cells ending in "…", so that the
// table fits boardWidth, but to no fewer than 8 characters.
func writeColumns(b *strings.Builder, cols []column, shrink int) {
	widths := make([]int, len(cols))
	total := 0
	for i, c := range cols {
		widths[i] = max(c.width, utf8.RuneCountInString(c.head))
		for _, s := range c.cells {
			widths[i] = max(widths[i], utf8.RuneCountInString(s))
		}
		total += widths[i] + 1
	}
	if shrink >= 0 && total-1 > boardWidth {
		widths[shrink] = max(8, widths[shrink]-(total-1-boardWidth))
	}
	row := func(cell func(c *column) string) {
		var line strings.Builder
		for i := range cols {
			c := &cols[i]
			s := []rune(cell(c))
			if len(s) > widths[i] {
				s = append(s[:widths[i]-1], '…')
			}
			pad := strings.Repeat(" ", widths[i]-len(s))
			if i > 0 {
				line.WriteByte(' ')
			}
			if c.left {
				line.WriteString(string(s) + pad)
			} else {
				line.WriteString(pad + string(s))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	row(func(c *column) string { return c.head })
	for r := range cols[0].cells {
		row(func(c *column) string { return c.cells[r] })
	}
}

// writeBoard writes the world as a table. With you ≥ 0 the table is that
// society's: its row marked, and how it and each other society feel about
// each other in two columns; otherwise the feelings follow as a matrix.
// players, when given, names each society's player; last, when given, is
// each society's choice in the last round, headed lastHead.
func (w *World) writeBoard(b *strings.Builder, you int, players []string, last []Value, lastHead string) {
	n := len(w.Societies)
	cols := []column{{head: " #"}}
	name := -1
	if players != nil {
		name = len(cols)
		cols = append(cols, column{head: "player", left: true})
	}
	cols = append(cols, column{head: "pop"}, column{head: "yield"})
	for _, h := range valueHeads {
		cols = append(cols, column{head: h})
	}
	if you >= 0 {
		cols = append(cols, column{head: "you→"}, column{head: "→you"})
	}
	if last == nil {
		lastHead = ""
	}
	cols = append(cols, column{head: lastHead, left: true})
	for i := range w.Societies {
		s := &w.Societies[i]
		mark := " "
		if i == you {
			mark = ">"
		}
		k := 0
		add := func(cell string) { cols[k].cells = append(cols[k].cells, cell); k++ }
		add(fmt.Sprintf("%s%d", mark, i+1))
		if players != nil {
			p := players[i]
			if i == you {
				p = "you"
			}
			add(p)
		}
		add(strconv.Itoa(s.Nation.Population))
		add(strconv.Itoa(s.Nation.Yield))
		for _, d := range s.Values {
			add(strconv.Itoa(d))
		}
		if you >= 0 {
			if i == you {
				add("")
				add("")
			} else {
				add(strconv.Itoa(w.Feels[you][i]))
				add(strconv.Itoa(w.Feels[i][you]))
			}
		}
		switch {
		case s.Dead:
			add("dead")
		case last == nil || last[i] == None:
			add("")
		default:
			add(last[i].String())
		}
	}
	writeColumns(b, cols, name)
	b.WriteString(valueLegend + "\n")
	if you >= 0 {
		b.WriteString("you→ how you feel toward them, →you how they feel toward you (+ liking)\n")
		return
	}
	feels := []column{{head: "feel"}}
	for j := range n {
		feels = append(feels, column{head: strconv.Itoa(j + 1)})
	}
	for i := range n {
		feels[0].cells = append(feels[0].cells, strconv.Itoa(i+1))
		for j := range n {
			cell := "·"
			if i != j {
				cell = strconv.Itoa(w.Feels[i][j])
			}
			feels[j+1].cells = append(feels[j+1].cells, cell)
		}
	}
	width := 0
	for _, c := range feels[1:] {
		for _, s := range c.cells {
			width = max(width, len(s))
		}
	}
	for j := range feels[1:] {
		feels[j+1].width = width
	}
	b.WriteString("how each society (row) feels toward each other (column):\n")
	writeMatrix(b, feels)
}
