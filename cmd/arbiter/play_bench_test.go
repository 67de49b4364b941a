package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// benchCommand runs the command line in this process, its output thrown
// away, once per iteration.
func benchCommand(b *testing.B, args ...string) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkPlayText is arbiter play ajveciv --games 300 with its text
// report: 300 games of the six basic AIs, each reported as it ends.
func BenchmarkPlayText(b *testing.B) {
	benchCommand(b, "play", "ajveciv", "--seed", "1", "--games", "300")
}

// BenchmarkTournamentText is the same 300 games (seeds 1 to 300, the six
// basic AIs, their seats rotated) as a tournament on one core, rated, with
// its standings: what play's report is measured against.
func BenchmarkTournamentText(b *testing.B) {
	benchCommand(b, "tournament", "ajveciv", "--players", "basic", "--games", "50", "--parallel", "1", "--seed", "1")
}
