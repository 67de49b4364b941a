package ajveciv

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// guidePairs is the number of pairs of games (seats swapped) the guide
// plays against each opponent in TestGuideTable, and guideSix the number
// of six-seat games.
var (
	guidePairs = flag.Int("guide.pairs", 5, "pairs of two-seat games TestGuideTable plays against each basic, basic2 and basic3 player")
	guideSix   = flag.Int("guide.six", 60, "six-seat games TestGuideTable plays")
)

// played is one game played through the real runner: its lineup, its
// result, and the decisions of the entrant under test.
type played struct {
	lineup []Entrant
	result engine.Result
	nanos  []int64 // every decision of the seats named as the entrant under test
	faults []string
	err    error
}

// playGames plays every lineup with the seed of its index through the real
// runner, as many at once as there are processors, and returns the games.
// The decision times of the seats whose entrant is named under are kept.
func playGames(lineups [][]Entrant, seed func(g int) uint64, under string) []played {
	out := make([]played, len(lineups))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var r engine.Runner[Value, View]
			r.Timings = true
			for g := range next {
				out[g] = playOne(&r, lineups[g], seed(g), under)
			}
		})
	}
	for g := range lineups {
		next <- g
	}
	close(next)
	wg.Wait()
	return out
}

// playOne plays one game of lineup with the runner r. The deadline is
// long: the table measures play, not speed, on a machine that may be busy.
func playOne(r *engine.Runner[Value, View], lineup []Entrant, seed uint64, under string) played {
	p := played{lineup: lineup}
	seats := make([]engine.Seat[Value, View], len(lineup))
	names := make([]string, len(lineup))
	for i, e := range lineup {
		seats[i] = engine.Seat[Value, View]{Name: e.Name, Player: e.New(), Deadline: time.Minute}
		names[i] = e.Name
	}
	setup := engine.Setup{Seed: seed, Players: names}
	m, err := Original().New(setup)
	if err != nil {
		p.err = err
		return p
	}
	rec := engine.NewRecord[Value](Original().Info(), setup)
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		p.err = err
		return p
	}
	if rec.End == nil || rec.End.Result == nil {
		p.err = fmt.Errorf("seed %d: the game did not end", seed)
		return p
	}
	p.result = *rec.End.Result
	for i, s := range rec.Steps {
		if s.Fault != nil {
			p.faults = append(p.faults, fmt.Sprintf("seed %d, step %d, seat %d (%s): %s %s", seed, i, s.Seat, names[s.Seat], s.Fault.Kind, s.Fault.Detail))
		}
		if names[s.Seat] == under {
			p.nanos = append(p.nanos, s.Nanos)
		}
	}
	return p
}

// winShare is seat's share of the game's win: 1 for a sole winner, 1/k for
// one of k who share it, else 0.
func winShare(r engine.Result, seat int) float64 {
	if !r.Won(seat) {
		return 0
	}
	return 1 / float64(len(r.Winners))
}

// guideRecord is how the guide fared against one opponent, or one field.
type guideRecord struct {
	Opponent string
	Games    int
	Wins     float64 // shared wins count their share
}

// Rate returns the guide's share of the wins.
func (r guideRecord) Rate() float64 { return r.Wins / float64(max(r.Games, 1)) }

// guideTable is the guide's record against each opponent head to head,
// and in the six-seat field, with its decision times.
type guideTable struct {
	Duels  []guideRecord
	Six    guideRecord
	Nanos  []int64
	Faults []string
}

// String prints the table.
func (t *guideTable) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-36s %6s %7s\n", "guide against (two seats)", "games", "win %")
	for _, r := range t.Duels {
		fmt.Fprintf(&b, "%-36s %6d %7.1f\n", r.Opponent, r.Games, 100*r.Rate())
	}
	fmt.Fprintf(&b, "%-36s %6d %7.1f\n", t.Six.Opponent, t.Six.Games, 100*t.Six.Rate())
	if n := len(t.Nanos); n > 0 {
		s := slices.Clone(t.Nanos)
		slices.Sort(s)
		var sum int64
		for _, x := range s {
			sum += x
		}
		fmt.Fprintf(&b, "guide: %d decisions, mean %v, p99 %v, slowest %v\n", n,
			time.Duration(sum/int64(n)), time.Duration(s[n*99/100]), time.Duration(s[n-1]))
	}
	return b.String()
}

// playGuideTable plays the guide against every basic, basic2 and basic3
// player, pairs pairs of two-seat games each (the guide in seat 1, then in
// seat 2, on the same seed), and six six-seat games, the guide in seat g
// mod 6 of game g and the other five seats drawn from the same 41 players.
func playGuideTable(tb testing.TB, pairs, six int) *guideTable {
	tb.Helper()
	guide := guideEntrant(tb)
	var opponents []Entrant
	for _, kind := range []string{"basic", "basic2", "basic3"} {
		es, err := Bots(kind)
		if err != nil {
			tb.Fatal(err)
		}
		opponents = append(opponents, es...)
	}
	var lineups [][]Entrant
	for _, o := range opponents {
		for range pairs {
			lineups = append(lineups, []Entrant{guide, o}, []Entrant{o, guide})
		}
	}
	duels := len(lineups)
	deal := rand.New(rand.NewPCG(6, 6))
	for g := range six {
		lineup := make([]Entrant, 6)
		for s := range lineup {
			lineup[s] = opponents[deal.IntN(len(opponents))]
		}
		lineup[g%6] = guide
		lineups = append(lineups, lineup)
	}
	// A pair of games shares a seed; the six-seat games have their own.
	seed := func(g int) uint64 {
		if g < duels {
			return uint64(5000 + g/2)
		}
		return uint64(900_000 + g)
	}
	games := playGames(lineups, seed, guide.Name)
	t := &guideTable{Six: guideRecord{Opponent: "six seats, five drawn from the 41"}}
	for i, o := range opponents {
		r := guideRecord{Opponent: o.Name}
		for _, p := range games[2*pairs*i : 2*pairs*(i+1)] {
			r.Games++
			r.Wins += winShare(p.result, slices.IndexFunc(p.lineup, func(e Entrant) bool { return e.Name == guide.Name }))
		}
		t.Duels = append(t.Duels, r)
	}
	for g, p := range games {
		if p.err != nil {
			tb.Fatalf("game %d: %v", g, p.err)
		}
		t.Nanos = append(t.Nanos, p.nanos...)
		t.Faults = append(t.Faults, p.faults...)
		if g >= duels {
			t.Six.Games++
			t.Six.Wins += winShare(p.result, (g-duels)%6)
		}
	}
	return t
}

// guideEntrant returns the guide as Bots("guide") makes it.
func guideEntrant(tb testing.TB) Entrant {
	tb.Helper()
	es, err := Bots("guide")
	if err != nil || len(es) != 1 {
		tb.Fatalf("Bots(guide) = %v, %v", es, err)
	}
	return es[0]
}

// guideHard are the opponents the guide is not held to 90% against: they
// develop whenever develop is offered, as the guide does, so that the game
// between them turns on how often each is offered it. The best list of
// priorities wins about 75% against them, and so does a player that sees
// every offer to come; the guide is held to 60% here.
var guideHard = map[string]bool{"basic.develop": true, "basic2.develop-consent": true}

// TestGuideTable plays the guide against every basic, basic2 and basic3
// player, head to head, and in six-seat fields of them, and checks that it
// wins at least 90% against each (60% against guideHard) and 85% of the
// six-seat games. Print the table with
//
//	go test ./games/ajveciv -run GuideTable -v -guide.pairs 200 -guide.six 1200
func TestGuideTable(t *testing.T) {
	table := playGuideTable(t, *guidePairs, *guideSix)
	t.Logf("\n%v", table)
	for _, f := range table.Faults {
		t.Errorf("fault: %s", f)
	}
	for _, r := range table.Duels {
		bar := 0.9
		if guideHard[r.Opponent] {
			bar = 0.6
		}
		if r.Rate() < bar {
			t.Errorf("the guide won %.1f%% of %d games against %s; the bar is %.0f%%", 100*r.Rate(), r.Games, r.Opponent, 100*bar)
		}
	}
	if r := table.Six; r.Rate() < 0.85 {
		t.Errorf("the guide won %.1f%% of %d six-seat games; the bar is 85%%", 100*r.Rate(), r.Games)
	}
}

// TestGuideLearns: after a game against a basic2 player, the list the guide
// believes most likely begins with the player's two priorities.
func TestGuideLearns(t *testing.T) {
	for _, name := range []string{"basic2.conquer-develop", "basic2.consent-expand", "basic.develop"} {
		es, err := Bots(name)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGuide()
		setup := engine.Setup{Seed: 11, Players: []string{name, "guide"}, Options: map[string]string{"turns": "60"}}
		m, err := Original().NewMatch(setup)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Init(engine.MatchInfo{Seat: 1, Seed: engine.SeatSeed(11, 1), Options: setup.Options}); err != nil {
			t.Fatal(err)
		}
		basic := es[0].New()
		for !m.Over() {
			for _, r := range append([]engine.Request[Value](nil), m.Pending()...) {
				var c Value
				if r.Seat == 1 {
					c = g.decide(m.View(1))
				} else if c, err = basic.Decide(context.Background(), &r, m.View(0)); err != nil {
					t.Fatal(err)
				}
				if err := m.Apply(r.Seat, c); err != nil {
					t.Fatal(err)
				}
			}
		}
		best := 0
		for k, x := range g.belief[0] {
			if x > g.belief[0][best] {
				best = k
			}
		}
		l := lists[best]
		var got []string
		for _, v := range l.order[:l.n] {
			got = append(got, v.String())
		}
		want := strings.Split(strings.SplitN(name, ".", 2)[1], "-")
		if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Errorf("against %s the guide believes most in the list %v", name, got)
		}
	}
}

func TestGuideOptions(t *testing.T) {
	// Short games, and games without inflections, are planned for too.
	basics, err := Bots("basic")
	if err != nil {
		t.Fatal(err)
	}
	g := guideEntrant(t)
	for _, options := range []map[string]string{
		{"turns": "3"},
		{"turns": "25", "inflections": "false"},
		{"turns": "11"},
	} {
		playLineup(t, 5, options, tableLineup(0, basics, g))
	}
	// Two guides, face to face, and the guide against the planner.
	playLineup(t, 6, map[string]string{"turns": "30"}, []Entrant{g, g})
	playLineup(t, 7, map[string]string{"turns": "30"}, []Entrant{plannerEntrant(t), g})
}

// BenchmarkGuideGame plays whole games of the guide against basics, two
// seats and six, and reports the guide's mean time per decision.
func BenchmarkGuideGame(b *testing.B) {
	for _, seats := range []int{2, 6} {
		b.Run(fmt.Sprintf("%d-seats", seats), func(b *testing.B) {
			basics, err := Bots("basic")
			if err != nil {
				b.Fatal(err)
			}
			var spent time.Duration
			decisions := 0
			seed := uint64(0)
			for b.Loop() {
				seed++
				g := NewGuide()
				ais := []AI{g}
				for i := 1; i < seats; i++ {
					ais = append(ais, aiOf(basics[(int(seed)+i)%len(basics)]))
				}
				names := make([]string, seats)
				m, err := Original().NewMatch(engine.Setup{Seed: seed, Players: names})
				if err != nil {
					b.Fatal(err)
				}
				g.Init(engine.MatchInfo{Seed: engine.SeatSeed(seed, 0), Players: names})
				for !m.Over() {
					for _, r := range slices.Clone(m.Pending()) {
						start := time.Now()
						c := decideWith(ais[r.Seat], m.View(r.Seat), r.Default)
						if r.Seat == 0 {
							spent += time.Since(start)
							decisions++
						}
						if err := m.Apply(r.Seat, c); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.ReportMetric(float64(spent.Nanoseconds())/float64(max(decisions, 1)), "ns/decision")
		})
	}
}
