package ajveciv

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/internal/wrap"
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

// grid is a table being built: its columns, and its cells, row by row,
// in one buffer. Boards are written often (a report writes one per game),
// so a grid is reused from a pool and writes without allocating.
type grid struct {
	cols   []gridColumn
	text   []byte     // every head's and cell's bytes, in the order added
	cells  []gridCell // row by row, a cell per column
	line   []byte     // the line being written
	pick   []int      // the columns of a block (writeMatrix)
	widths []int      // the widths of the columns being written
}

// gridColumn is one column of a grid: its head, whether it is read left
// to right (names) rather than right-aligned (numbers), and the least
// width it takes.
type gridColumn struct {
	head  gridCell
	left  bool
	width int
}

// gridCell is a cell's text, grid.text[start:end], as wide as cells on a
// terminal (see wrap.Cells).
type gridCell struct{ start, end, cells int32 }

var grids = sync.Pool{New: func() any { return new(grid) }}

// newGrid returns an empty grid from the pool; give it back with free.
func newGrid() *grid {
	g := grids.Get().(*grid)
	g.reset()
	return g
}

func (g *grid) free() { grids.Put(g) }

// reset empties the grid.
func (g *grid) reset() { g.cols, g.text, g.cells = g.cols[:0], g.text[:0], g.cells[:0] }

// column adds a column and returns its number.
func (g *grid) column(head string, left bool) int {
	g.text = append(g.text, head...)
	g.cols = append(g.cols, gridColumn{head: g.closed(len(g.text) - len(head)), left: left})
	return len(g.cols) - 1
}

// closed returns the cell of the bytes appended to g.text from start.
func (g *grid) closed(start int) gridCell {
	cells := len(g.text) - start
	for _, c := range g.text[start:] {
		if c >= utf8.RuneSelf {
			cells = wrap.CellsOf(g.text[start:])
			break
		}
	}
	return gridCell{int32(start), int32(len(g.text)), int32(cells)}
}

// str adds a cell of text; num a cell of a number.
func (g *grid) str(s string) {
	g.text = append(g.text, s...)
	g.cells = append(g.cells, g.closed(len(g.text)-len(s)))
}

func (g *grid) num(n int) {
	start := len(g.text)
	g.text = strconv.AppendInt(g.text, int64(n), 10)
	g.cells = append(g.cells, g.closed(start))
}

// width returns how wide column k is: its least width, its head's and
// its widest cell's.
func (g *grid) width(k int) int {
	c := &g.cols[k]
	w := max(c.width, int(c.head.cells))
	for r := k; r < len(g.cells); r += len(g.cols) {
		w = max(w, int(g.cells[r].cells))
	}
	return w
}

// writeAll writes every column of the grid (see write).
func (g *grid) writeAll(b *strings.Builder, shrink int) {
	g.pick = g.pick[:0]
	for k := range g.cols {
		g.pick = append(g.pick, k)
	}
	g.write(b, shrink)
}

// writeMatrix writes the grid as write does, but a matrix too wide for
// boardWidth is written in blocks of as many columns as fit, each block
// after the first beginning again with the row labels (column 0).
func (g *grid) writeMatrix(b *strings.Builder) {
	label := g.width(0)
	for start := 1; start < len(g.cols); {
		end, used := start, label
		for end < len(g.cols) {
			w := 1 + g.width(end)
			if end > start && used+w > boardWidth {
				break
			}
			used += w
			end++
		}
		if start > 1 {
			b.WriteByte('\n')
		}
		g.pick = append(g.pick[:0], 0)
		for k := start; k < end; k++ {
			g.pick = append(g.pick, k)
		}
		g.write(b, -1)
		start = end
	}
}

// write writes the columns g.pick of the grid as a table, the columns
// apart by one space, each line without the spaces at its end. Column
// shrink (an index into g.pick, if ≥ 0) is cut, its long cells ending in
// "…", so that the table fits boardWidth, but to no fewer than 8
// cells.
func (g *grid) write(b *strings.Builder, shrink int) {
	g.widths = g.widths[:0]
	total := 0
	for _, k := range g.pick {
		g.widths = append(g.widths, g.width(k))
		total += g.widths[len(g.widths)-1] + 1
	}
	if shrink >= 0 && total-1 > boardWidth {
		g.widths[shrink] = max(8, g.widths[shrink]-(total-1-boardWidth))
	}
	rows := len(g.cells) / len(g.cols)
	for r := -1; r < rows; r++ {
		line := g.line[:0]
		for i, k := range g.pick {
			c := &g.cols[k]
			cell := c.head
			if r >= 0 {
				cell = g.cells[r*len(g.cols)+k]
			}
			if i > 0 {
				line = append(line, ' ')
			}
			line = g.cell(line, c.left, cell, g.widths[i])
		}
		for len(line) > 0 && line[len(line)-1] == ' ' {
			line = line[:len(line)-1]
		}
		b.Write(line)
		b.WriteByte('\n')
		g.line = line
	}
}

// cell appends a cell to line, padded to width cells; cut to it between
// grapheme clusters, ending in "…", when wider.
func (g *grid) cell(line []byte, left bool, cell gridCell, width int) []byte {
	text, cells := g.text[cell.start:cell.end], int(cell.cells)
	cut := cells > width
	if cut {
		head := wrap.Head(string(text), width-1)
		text, cells = text[:len(head)], wrap.Cells(head)+1
	}
	if !left {
		line = appendSpaces(line, width-cells)
	}
	line = append(line, text...)
	if cut {
		line = append(line, "…"...)
	}
	if left {
		line = appendSpaces(line, width-cells)
	}
	return line
}

// appendSpaces appends n spaces.
func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// writeBoard writes the world as a table. With you ≥ 0 the table is that
// society's: its row marked, and how it and each other society feel about
// each other in two columns; otherwise the feelings follow as a matrix.
// players, when given, names each society's player; last, when given, is
// each society's choice in the last round, headed lastHead.
func (w *World) writeBoard(b *strings.Builder, you int, players []string, last []Value, lastHead string) {
	n := len(w.Societies)
	g := newGrid()
	defer g.free()
	g.column(" #", false)
	name := -1
	if players != nil {
		name = g.column("player", true)
	}
	g.column("pop", false)
	g.column("yield", false)
	for _, h := range valueHeads {
		g.column(h, false)
	}
	if you >= 0 {
		g.column("you→", false)
		g.column("→you", false)
	}
	if last == nil {
		lastHead = ""
	}
	g.column(lastHead, true)
	for i := range w.Societies {
		s := &w.Societies[i]
		start := len(g.text)
		if i == you {
			g.text = append(g.text, '>')
		} else {
			g.text = append(g.text, ' ')
		}
		g.text = strconv.AppendInt(g.text, int64(i+1), 10)
		g.cells = append(g.cells, g.closed(start))
		if players != nil {
			if i == you {
				g.str("you")
			} else {
				g.str(players[i])
			}
		}
		g.num(s.Nation.Population)
		g.num(s.Nation.Yield)
		for _, d := range s.Values {
			g.num(d)
		}
		if you >= 0 {
			if i == you {
				g.str("")
				g.str("")
			} else {
				g.num(w.Feels[you][i])
				g.num(w.Feels[i][you])
			}
		}
		switch {
		case s.Dead:
			g.str("dead")
		case last == nil || last[i] == None:
			g.str("")
		default:
			g.str(last[i].String())
		}
	}
	g.writeAll(b, name)
	b.WriteString(valueLegend + "\n")
	if you >= 0 {
		b.WriteString("you→ how you feel toward them, →you how they feel toward you (+ liking)\n")
		return
	}
	g.reset()
	g.column("feel", false)
	for j := range n {
		g.column(strconv.Itoa(j+1), false)
	}
	width := 0
	for i := range n {
		g.num(i + 1)
		for j := range n {
			if i == j {
				g.str("·")
				continue
			}
			g.num(w.Feels[i][j])
			width = max(width, int(g.cells[len(g.cells)-1].end-g.cells[len(g.cells)-1].start))
		}
	}
	for j := range n {
		g.cols[j+1].width = max(width, len("·"))
	}
	b.WriteString("how each society (row) feels toward each other (column):\n")
	g.writeMatrix(b)
}
