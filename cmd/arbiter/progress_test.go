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

func TestGamesPerSecondOfASlowRun(t *testing.T) {
	// 20 games of a search AI at 50 ms a decision took 45.7 s, and the
	// line that ends the run said "0 games/s".
	for _, c := range []struct {
		n    int
		d    time.Duration
		want string
	}{
		{20, 45700 * time.Millisecond, "0.44 games/s"},
		{3, 2 * time.Second, "1.5 games/s"},
		{594, 17188 * time.Millisecond, "35 games/s"},
		{5206, 378 * time.Millisecond, "13772 games/s"},
	} {
		if got := gamesPerSecond(c.n, c.d); got != c.want {
			t.Errorf("gamesPerSecond(%d, %v) = %q; want %q", c.n, c.d, got, c.want)
		}
	}
}
