package main

import (
	"strings"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8/decor"
)

func TestProgressRateCountsFromTheStart(t *testing.T) {
	// The bar appears once a series has run for a while, with the games
	// played so far: its rate and time left count from the series' start,
	// not from the bar's (which showed 646,249 games/s for 48,000 a
	// second, and the time left far too short).
	p := &progress{total: 2000, start: time.Now().Add(-1000 * time.Second)}
	var shown []string
	for _, d := range p.after() {
		s, _ := d.Decor(decor.Statistics{Current: 1000, Total: 2000})
		shown = append(shown, s)
	}
	// 1,000 games in 1,000 s (and the test's own moments): 1 a second,
	// and as long again for the 1,000 left.
	if got := strings.Join(shown, ""); !strings.HasPrefix(got, " 1 games/s  left 16m") {
		t.Errorf("the bar shows %q; want 1 game/s and 16m40s left", got)
	}
}
