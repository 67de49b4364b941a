package territories

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// unknown refuses a territory reference that names nothing, listing the
// territories whose id, name or alias is closest to it.
func (c *Config) unknown(ref string) error {
	close := c.Closest(ref, 3)
	if len(close) == 0 {
		ids := make([]string, 0, min(len(c.Territories), 30))
		for _, t := range c.Territories[:cap(ids)] {
			ids = append(ids, t.ID)
		}
		more := ""
		if len(c.Territories) > len(ids) {
			more = fmt.Sprintf(" and %d more", len(c.Territories)-len(ids))
		}
		return engine.Refuse("unknown-territory", "unknown territory %q; the territories are %s%s", ref, strings.Join(ids, ", "), more)
	}
	names := make([]string, len(close))
	for k, i := range close {
		t := &c.Territories[i]
		names[k] = fmt.Sprintf("%s (%s)", t.ID, t.Name)
	}
	return engine.Refuse("unknown-territory", "unknown territory %q; the closest are %s", ref, strings.Join(names, ", "))
}

// Closest returns up to n territories whose id, name or alias is closest to
// ref in edit distance (ignoring case), a name that starts with ref
// counting as closest; ties keep the file's order.
func (c *Config) Closest(ref string, n int) []int {
	r := []rune(strings.ToLower(strings.TrimSpace(ref)))
	type scored struct{ i, d int }
	best := make([]scored, len(c.Territories))
	for i := range c.Territories {
		t := &c.Territories[i]
		d := -1
		for _, name := range append([]string{t.ID, t.Name}, t.Aliases...) {
			l := []rune(strings.ToLower(name))
			e := engine.EditDistance(r, l)
			if len(r) > 0 && len(r) < len(l) && slices.Equal(l[:len(r)], r) {
				e = 0
			}
			if d < 0 || e < d {
				d = e
			}
		}
		best[i] = scored{i, d}
	}
	slices.SortStableFunc(best, func(a, b scored) int { return a.d - b.d })
	var out []int
	for _, s := range best[:min(n, len(best))] {
		// Only names that share something with ref: at most two thirds of
		// it rewritten.
		if s.d*3 <= 2*max(len(r), 1) {
			out = append(out, s.i)
		}
	}
	return out
}
