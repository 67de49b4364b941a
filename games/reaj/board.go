package reaj

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// The board is the state as people read it, at a terminal of 80 columns:
// one row per society with its resources, score and values, then the
// societies' dispositions toward each other.

// boardWidth is the widest a board's line is meant to be: 80 columns, less
// the indent of a report.
const boardWidth = 78

// valueHeads head the values' columns; valueLegend says what they stand for.
var valueHeads = [NumValues]string{"con", "exc", "exp", "dev", "cns", "adp"}

const valueLegend = "con conquer, exc exchange, exp expand, dev develop, cns consent, adp adapt"

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
		w := max(c.width, wrap.Cells(c.head))
		for _, s := range c.cells {
			w = max(w, wrap.Cells(s))
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

// writeColumns writes cols as a table, the columns apart by one space,
// each as wide as its widest cell in a terminal's cells (wrap.Cells).
// Column shrink (if ≥ 0) is cut, its long cells ending in "…" (cut between
// grapheme clusters), so that the table fits boardWidth, but to no fewer
// than 8 cells.
func writeColumns(b *strings.Builder, cols []column, shrink int) {
	widths := make([]int, len(cols))
	total := 0
	for i, c := range cols {
		widths[i] = max(c.width, wrap.Cells(c.head))
		for _, s := range c.cells {
			widths[i] = max(widths[i], wrap.Cells(s))
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
			s := cell(c)
			if wrap.Cells(s) > widths[i] {
				s = wrap.Head(s, widths[i]-1) + "…"
			}
			if i > 0 {
				line.WriteByte(' ')
			}
			if c.left {
				line.WriteString(wrap.PadRight(s, widths[i]))
			} else {
				line.WriteString(wrap.PadLeft(s, widths[i]))
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

// writeBoard writes the state as a table. With you ≥ 0 the table is that
// society's: its row marked, and its disposition toward each other society
// and theirs toward it in two columns; otherwise the dispositions follow as
// a matrix. players, when given, names each society's player; last, when
// given, is each society's choice in the last turn.
func (st *State) writeBoard(b *strings.Builder, you int, players []string, last []Value) {
	n := len(st.Societies)
	cols := []column{{head: " #"}}
	name := -1
	if players != nil {
		name = len(cols)
		cols = append(cols, column{head: "player", left: true})
	}
	cols = append(cols, column{head: "res"}, column{head: "score"})
	for _, h := range valueHeads {
		cols = append(cols, column{head: h})
	}
	if you >= 0 {
		cols = append(cols, column{head: "you→"}, column{head: "→you"})
	}
	cols = append(cols, column{head: "", left: true})
	if last != nil {
		cols[len(cols)-1].head = "last turn"
	}
	for i := range st.Societies {
		s := &st.Societies[i]
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
		add(strconv.Itoa(s.Resources))
		add(strconv.Itoa(st.Score(i)))
		for _, d := range s.Values {
			add(strconv.Itoa(d))
		}
		if you >= 0 {
			if i == you {
				add("")
				add("")
			} else {
				add(strconv.Itoa(st.Relations[you][i]))
				add(strconv.Itoa(st.Relations[i][you]))
			}
		}
		switch {
		case s.Dead && s.Died > 0:
			add(fmt.Sprintf("dead (turn %d)", s.Died))
		case s.Dead:
			add("dead")
		case last != nil && last[i] != None:
			add(last[i].String())
		default:
			add("")
		}
	}
	writeColumns(b, cols, name)
	b.WriteString(valueLegend + "\n")
	if you >= 0 {
		b.WriteString("you→ your disposition toward them, →you theirs toward you (+ liking)\n")
		return
	}
	rel := []column{{head: "disp"}}
	for j := range n {
		rel = append(rel, column{head: strconv.Itoa(j + 1)})
	}
	width := 0
	for i := range n {
		rel[0].cells = append(rel[0].cells, strconv.Itoa(i+1))
		for j := range n {
			cell := "·"
			if i != j {
				cell = strconv.Itoa(st.Relations[i][j])
			}
			width = max(width, len(cell))
			rel[j+1].cells = append(rel[j+1].cells, cell)
		}
	}
	for j := range rel[1:] {
		rel[j+1].width = width
	}
	b.WriteString("each society's (row) disposition toward each other (column):\n")
	writeMatrix(b, rel)
}
