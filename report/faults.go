package report

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// FaultCount is how many faults of one kind a seat or a player committed,
// and what the first of them said.
type FaultCount struct {
	Kind  engine.FaultKind `json:"kind"`
	Count int              `json:"count"`
	First string           `json:"first"`
}

// AddFaults adds faults of one kind (a step's, or a player's in a game) to
// counts, kinds in the order they first came; the first detail of a kind
// is kept.
func AddFaults(counts []FaultCount, f FaultCount) []FaultCount {
	for i := range counts {
		if counts[i].Kind == f.Kind {
			counts[i].Count += f.Count
			return counts
		}
	}
	return append(counts, f)
}

// FaultsText says a player's faults kind by kind, with what the first of
// each kind said: "1 crash (the program exited with code 1), 2 abandoned
// (default moves once its seat was given up)". Series standings and
// tournament standings word them alike.
func FaultsText(counts []FaultCount) string {
	var parts []string
	for _, f := range counts {
		part := fmt.Sprintf("%d %s", f.Count, f.Kind)
		if f.Kind == engine.FaultAbandoned {
			part += " (default moves once its seat was given up)"
		} else if first := firstClause(f.First); first != "" {
			part += " (" + first + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// firstClause is what a fault said, up to its first "; " and at most 80
// runes.
func firstClause(detail string) string {
	detail, _, _ = strings.Cut(detail, "; ")
	if r := []rune(detail); len(r) > 80 {
		detail = string(r[:79]) + "…"
	}
	return detail
}
