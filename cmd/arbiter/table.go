package main

import (
	"io"
	"strings"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// writeTable writes rows as a table for a terminal, as text/tabwriter
// (padding 2) lays out cells ended by tabs, but measured in the cells a
// terminal shows (wrap.Cells: two for a Chinese character or an emoji,
// none for a combining accent) where tabwriter counts runes: every cell
// but a row's last padded to the widest of its column, the columns two
// spaces apart. A row may have fewer cells than the others.
func writeTable(w io.Writer, rows [][]string) error {
	var widths []int
	for _, row := range rows {
		for c, cell := range row[:max(len(row)-1, 0)] {
			if c == len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], wrap.Cells(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for c, cell := range row {
			if c == len(row)-1 {
				b.WriteString(cell)
				break
			}
			b.WriteString(wrap.PadRight(cell, widths[c]+2))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
