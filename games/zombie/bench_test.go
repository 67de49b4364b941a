package zombie

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// benchScript writes a game of 24 players (4 zombies) in lines lines: every
// turn each player touches two or three others, with precaution or viruses
// now and then, some cure, some end their turn, and NEXT_TURN closes it;
// mistakes are left in, as in a real evening: the game runs 133 turns, and
// about one line in five is an ERROR line (touching a player who has ended
// the turn, mostly).
func benchScript(lines int) []byte {
	rng := rand.New(rand.NewPCG(10000, 1))
	var b strings.Builder
	const n = 24
	for i := range n {
		if i%6 == 5 {
			fmt.Fprintf(&b, "ZOMBIE Zombie%d\n", i)
		} else {
			fmt.Fprintf(&b, "HUMAN Human%d\n", i)
		}
	}
	b.WriteString("GAME_START 1000 antibodies=300 viruses=2\n")
	name := func(i int) string {
		if i%6 == 5 {
			return fmt.Sprintf("Zombie%d", i)
		}
		return fmt.Sprintf("Human%d", i)
	}
	side := func(i int) string {
		s := name(i)
		switch {
		case rng.IntN(6) > 0:
			return s
		case i%6 == 5:
			return s + "/v1"
		}
		return s + "/p"
	}
	count := n + 1
	for count < lines {
		for i := 0; i < n && count < lines; i++ {
			for range 2 + rng.IntN(2) {
				fmt.Fprintf(&b, "i %s %s\n", side(i), side((i+1+rng.IntN(n-1))%n))
				count++
			}
			if rng.IntN(5) == 0 {
				fmt.Fprintf(&b, "c %s\n", name(i))
				count++
			}
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&b, "e %s # done\n", name(i))
				count++
			}
		}
		b.WriteString("nt\n")
		count++
	}
	return []byte(b.String())
}

// BenchmarkJudge judges a 10,000-line script and writes its output.
func BenchmarkJudge(b *testing.B) {
	script := benchScript(10000)
	if n := strings.Count(string(script), "\n"); n < 10000 {
		b.Fatalf("%d lines", n)
	}
	tr, err := Run(script)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("10,000 lines: %d turns, %d ERROR lines, %s", tr.Turn, tr.Errors, tr.Phase)
	b.SetBytes(int64(len(script)))
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Run(script)
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/line")
}

// BenchmarkGame plays full games of five sensible bots (one zombie, two
// antibodies each, so that games run their five turns) through the real
// match runner, with an in-memory record.
func BenchmarkGame(b *testing.B) {
	seats, setup := botSeats(b, "sensible", "sensible", "sensible", "sensible", "sensible")
	setup.Options = map[string]string{"antibodies": "2"}
	var runner engine.Runner[Plan, View]
	rec := engine.NewRecord[Plan](info, setup)
	ctx := context.Background()
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := Game{}.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		rec.Reset(info, setup)
		if err := runner.Run(ctx, m, seats, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// botSeats returns the named built-in bots as seats, and their setup.
func botSeats(tb testing.TB, names ...string) ([]engine.Seat[Plan, View], engine.Setup) {
	tb.Helper()
	var out []engine.Seat[Plan, View]
	setup := engine.Setup{}
	for _, name := range names {
		es, err := Bots(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range es {
			out = append(out, engine.Seat[Plan, View]{Name: e.Name, Player: e.New()})
			setup.Players = append(setup.Players, e.Name)
		}
	}
	return out, setup
}
