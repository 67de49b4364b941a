package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
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

// consequences begin the parts of a fault's detail that say what became
// of the seat, not what went wrong.
var consequences = []string{"; the seat ", "; strike ", ": " + engine.ErrDeadline.Error()}

// firstClause is what a fault said, its hints included (a program must
// flush each line it writes), without what became of the seat
// (consequences), and at most 300 runes.
func firstClause(detail string) string {
	for _, c := range consequences {
		if i := strings.Index(detail, c); i >= 0 {
			detail = detail[:i]
		}
	}
	if utf8.RuneCountInString(detail) > 300 {
		detail = wrap.FirstRunes(detail, 299) + "…" // never half a character
	}
	return detail
}
