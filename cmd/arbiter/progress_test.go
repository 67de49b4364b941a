package main

import (
	"path/filepath"
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

func TestProgressPaceOfASlowSeries(t *testing.T) {
	// Games of a search AI: the bar said "0 games/s" for 0.38, and,
	// before the first game ended, 0 games/s and 0s left.
	for _, c := range []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 10, 5500 * time.Millisecond, "  5s so far, no game ended yet"},
		{3, 20, 8 * time.Second, " 0.38 games/s  left 45s"},
		{1000, 2000, 1000 * time.Second, " 1 games/s  left 16m40s"},
		{5000, 5000, 2 * time.Second, " 2500 games/s  left 0s"},
	} {
		if got := pace(c.done, c.total, c.elapsed); got != c.want {
			t.Errorf("pace(%d, %d, %v) = %q; want %q", c.done, c.total, c.elapsed, got, c.want)
		}
	}
}

func TestTournamentBarShowsBeforeAGameEnds(t *testing.T) {
	// A tournament whose first games are long showed nothing at a
	// terminal until one ended (minutes, for a search AI's): here the
	// first game never ends (its program waits, with an hour to start),
	// and the bar is up all the same, saying so.
	need(t, "python3")
	marker := filepath.Join(t.TempDir(), "gate")
	c, _ := startConsoleCols(t, 100, "tournament", "reaj", "--players", "steward", "--player", gateBot(1, marker),
		"--seats", "2", "--seed", "1", "--startup", "1h", "--parallel", "1", "--bot-logs", t.TempDir())
	c.expect("games 0 / 2 [")
	c.expect("so far, no game ended yet")
}
