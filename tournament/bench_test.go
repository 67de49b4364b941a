package tournament_test

import (
	"context"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// BenchmarkTournament plays a whole tournament per iteration: 1,000 six-seat
// Reaj games of 100 turns (the default), dealt by the groups schedule among
// the six fixed players, the steward and the random player (750 appearances
// each), on every core, and rates them. It reports the tournament's time
// (ns/op) and games played per second.
func BenchmarkTournament(b *testing.B) {
	const rounds = 1000
	es := reajEntrants(b, "fixed", "steward", "random")
	s, err := tournament.NewSchedule(tournament.Params{
		Info: reaj.Game{}.Info(), Players: names(es), Seed: 1,
		Rounds: rounds, Appearances: rounds * 6 / len(es), Repeat: 1,
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range s.Games() {
		if len(g) != 6 {
			b.Fatalf("a game of %d; want 6", len(g))
		}
	}
	ctx := context.Background()
	games := 0
	b.ReportAllocs()
	for b.Loop() {
		table, err := tournament.NewTable(s, s.Len())
		if err != nil {
			b.Fatal(err)
		}
		tour := &tournament.Tournament[reaj.Value, reaj.View]{
			Ruleset: reaj.Game{}, Schedule: s, Entrants: es,
			Parallel: runtime.GOMAXPROCS(0), Played: table.Add,
		}
		n, err := tour.Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n != rounds || table.Played != rounds {
			b.Fatalf("played %d games, rated %d; want %d", n, table.Played, rounds)
		}
		games += n
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkResultsMerge writes the results files of 1,000 six-seat games in
// four shards and merges them: the schedule dealt again, every line's seats
// and digest checked, the games rated. It reports the time per game.
func BenchmarkResultsMerge(b *testing.B) {
	const rounds = 1000
	es := reajEntrants(b, "fixed", "steward", "random")
	s, err := tournament.NewSchedule(tournament.Params{
		Info: reaj.Game{}.Info(), Players: names(es), Seed: 1,
		Rounds: rounds, Appearances: rounds * 6 / len(es), Repeat: 1,
	})
	if err != nil {
		b.Fatal(err)
	}
	results := make([]tournament.GameResult, s.Len())
	for g, lineup := range s.Games() {
		r := tournament.GameResult{Game: g + 1, Seed: s.GameSeed(g), Winners: []int{0}}
		for i, p := range lineup {
			r.Seats = append(r.Seats, s.Players[p])
			r.Scores = append(r.Scores, int64(1000*i+g))
			r.Ranks = append(r.Ranks, i+1)
			r.Faults = append(r.Faults, 0)
		}
		results[g] = r
	}
	var files []string
	for i := range 4 {
		files = append(files, shardFile(b, s, results, tournament.Shard{Index: i, Count: 4}))
	}
	b.ReportAllocs()
	for b.Loop() {
		var rs []*tournament.Reader
		for i, f := range files {
			r, err := tournament.NewReader(strings.NewReader(f), strconv.Itoa(i))
			if err != nil {
				b.Fatal(err)
			}
			rs = append(rs, r)
		}
		if _, err := tournament.Merge(rs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rounds, "ns/game")
}

// duelPairs returns n pairs of a duel of zombie bots, played once.
func duelPairs(b *testing.B, n int) (*tournament.Duel, []tournament.Pair) {
	r := zombieDuel(b, 1, "sensible", "cautious", "sensible", "sensible", "sensible", "sensible", "sensible")
	r.To = n
	pairs, _ := playDuel(b, r, nil)
	return r.Duel, pairs
}

// BenchmarkDuelTally is a duel's bookkeeping per pair: its outcomes
// counted, A's and B's faults, and the SPRT's log-likelihood ratio and
// decision (normalized Elo, the costlier model), as the duel does after
// every pair. The pairs are those of a real duel, played before.
func BenchmarkDuelTally(b *testing.B) {
	d, pairs := duelPairs(b, 1000)
	test := &sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized}
	b.ReportAllocs()
	tally := tournament.Tally{Test: test}
	i := 0
	for b.Loop() {
		if i%len(pairs) == 0 || tally.Verdict != sprt.Continue {
			tally = tournament.Tally{Test: test}
		}
		if err := tally.Add(d, &pairs[i%len(pairs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDuelWrite is a pair's line in a duel file: JSON and its digest.
func BenchmarkDuelWrite(b *testing.B) {
	d, pairs := duelPairs(b, 100)
	w, err := tournament.NewDuelWriter(io.Discard, d, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := w.Write(&pairs[i%len(pairs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
