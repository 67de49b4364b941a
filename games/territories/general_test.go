package territories

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// tally plays games of lineup with every rotation of its seats, on seeds
// from 1, and counts the first places of the player at lineup[0]: wins,
// and first places shared (counted 1/n each) among games played.
func tally(tb testing.TB, games int, lineup ...string) (wins float64, played int) {
	tb.Helper()
	n := len(lineup)
	for g := range games {
		rot := g % n
		names := make([]string, n)
		for s := range n {
			names[(s+rot)%n] = lineup[s]
		}
		_, m := play(tb, uint64(g/n+1), nil, names...)
		r := m.Result()
		if r.Ranks[rot] == 1 {
			wins += 1 / float64(len(r.Winners))
		}
		played++
	}
	return wins, played
}

// TestGeneralBeatsGreedy: on a short seeded series, seats rotated, the
// general takes the first place in at least three games of four against
// greedy alone, and against two greedy bots.
func TestGeneralBeatsGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	for _, lineup := range [][]string{{"general", "greedy"}, {"general", "greedy", "greedy"}} {
		wins, played := tally(t, 3*len(lineup), lineup...)
		if wins < 0.75*float64(played) {
			t.Errorf("%v: the general won %.1f of %d games; want at least 75%%", lineup, wins, played)
		}
	}
}

// TestMeasureGeneral prints the general's first places in longer series;
// run it with ARBITER_MEASURE=GAMES go test -run MeasureGeneral -v.
func TestMeasureGeneral(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ARBITER_MEASURE"))
	if games == 0 {
		t.Skip("set ARBITER_MEASURE to the games of each series")
	}
	for _, lineup := range [][]string{{"general", "greedy"}, {"general", "greedy", "greedy"}, {"general", "greedy", "random"}} {
		wins, played := tally(t, games, lineup...)
		fmt.Printf("%v: first %.1f of %d (%.1f%%)\n", lineup, wins, played, 100*wins/float64(played))
	}
}

// tuneBudgets reads ARBITER_BUDGETS, "budget/horizon,...".
func tuneBudgets() (out [][2]int) {
	for _, f := range strings.Split(os.Getenv("ARBITER_BUDGETS"), ",") {
		var p, h int
		if _, err := fmt.Sscanf(f, "%d/%d", &p, &h); err == nil {
			out = append(out, [2]int{p, h})
		}
	}
	return out
}

// TestTuneGeneral compares budgets of the general against greedy; run it
// with ARBITER_TUNE=GAMES, and ARBITER_TUNE_RANDOM=1 for a random bot in
// the third seat.
func TestTuneGeneral(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ARBITER_TUNE"))
	if games == 0 {
		t.Skip("set ARBITER_TUNE")
	}
	for _, b := range tuneBudgets() {
		for _, n := range []int{2, 3} {
			wins, played := 0.0, 0
			start := time.Now()
			for g := range games {
				rot := g % n
				ss, setup := seats(t, make([]string, 0)...)
				for s := range n {
					p := Player(Greedy())
					name := "greedy"
					if s == (rot+2)%n && os.Getenv("ARBITER_TUNE_RANDOM") != "" {
						p, name = Player(Random()), "random"
					}
					if s == rot {
						p, name = Player(&general{rng: rand.NewPCG(1, 2), budget: b[0], horizon: b[1]}), "general"
					}
					ss = append(ss, engine.Seat[Action, View]{Name: name, Player: p, Deadline: time.Minute})
					setup.Players = append(setup.Players, name)
				}
				setup.Seed = uint64(g/n + 1)
				m, _ := Game{}.NewMatch(setup)
				var runner engine.Runner[Action, View]
				if err := runner.Run(context.Background(), m, ss, engine.NewRecord[Action](info, setup)); err != nil {
					t.Fatal(err)
				}
				if r := m.Result(); r.Ranks[rot] == 1 {
					wins += 1 / float64(len(r.Winners))
				}
				played++
			}
			fmt.Printf("budget %d horizon %d seats %d: %.1f of %d (%.1f%%) %v\n", b[0], b[1], n, wins, played, 100*wins/float64(played), time.Since(start)/time.Duration(games))
		}
	}
}

// BenchmarkGeneralDecision times the general's action in the middle of a
// game of three, at its default budget.
func BenchmarkGeneralDecision(b *testing.B) {
	m := midGame(b, 1, 3, 40)
	req := m.Pending()[0]
	g := General()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Act(m.View(req.Seat)); err != nil {
			b.Fatal(err)
		}
	}
}

// timed is a bot whose every decision is timed.
type timed struct {
	Bot
	took *[]time.Duration
}

func (t timed) Act(v View) (Action, error) {
	start := time.Now()
	a, err := t.Bot.Act(v)
	*t.took = append(*t.took, time.Since(start))
	return a, err
}

// TestMeasureGeneralTime prints the mean and the 99th percentile of the
// general's decision time at its default budget, in games against one and
// two greedy bots; run it with ARBITER_MEASURE_TIME=GAMES.
func TestMeasureGeneralTime(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ARBITER_MEASURE_TIME"))
	if games == 0 {
		t.Skip("set ARBITER_MEASURE_TIME to the games of each series")
	}
	for _, n := range []int{2, 3} {
		var took []time.Duration
		for g := range games {
			var ss []engine.Seat[Action, View]
			setup := engine.Setup{Seed: uint64(g + 1)}
			for s := range n {
				p := Player(Greedy())
				if s == g%n {
					p = Player(timed{General(), &took})
				}
				ss = append(ss, engine.Seat[Action, View]{Name: "bot", Player: p, Deadline: time.Minute})
				setup.Players = append(setup.Players, "bot")
			}
			m, _ := Game{}.NewMatch(setup)
			var runner engine.Runner[Action, View]
			if err := runner.Run(context.Background(), m, ss, engine.NewRecord[Action](info, setup)); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(took)
		var sum time.Duration
		for _, d := range took {
			sum += d
		}
		fmt.Printf("%d seats: %d decisions, mean %v, p99 %v, max %v\n", n, len(took), sum/time.Duration(len(took)), took[len(took)*99/100], took[len(took)-1])
	}
}

// BenchmarkGeneralJoin times the general's join, the first of a game of
// three: every territory is free.
func BenchmarkGeneralJoin(b *testing.B) {
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: make([]string, 3)})
	if err != nil {
		b.Fatal(err)
	}
	g := General()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Join(m.View(0)); err != nil {
			b.Fatal(err)
		}
	}
}
