package zombie

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// sideGames plays games of the default options (5 seats, one zombie, 5
// turns, no starting counts) on seeds from 1 with bot in every seat, and
// returns how many the zombies won and the turn each game ended in.
func sideGames(t testing.TB, games int, bot func() Bot) (zombies int, turns []int) {
	t.Helper()
	const n = 5
	for g := range games {
		seed := uint64(g + 1)
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: make([]string, n)})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]Bot, n)
		for s := range bots {
			bots[s] = bot()
			if in, ok := bots[s].(BotInitializer); ok {
				if err := in.Init(engine.MatchInfo{Seat: s, Players: make([]string, n), Seed: engine.SeatSeed(seed, s)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		for !m.Over() {
			for s := range n {
				p, err := bots[s].Plan(m.View(s))
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Apply(s, p); err != nil {
					t.Fatalf("game %d, seat %d: plan %s refused: %v", g+1, s, p, err)
				}
			}
		}
		if m.judge.Result().Outcome == ZombiesWin {
			zombies++
		}
		turns = append(turns, m.judge.Turn())
	}
	return zombies, turns
}

// TestSearcherBalance: with the default options and the searcher in every
// seat, neither side wins more than 65% of the games and the median game
// lasts at least three turns (seeds 1 to 60; arbiter play zombie --players
// searcher,searcher,searcher,searcher,searcher --games 500 --seed 1 plays
// the long run, whose numbers the README gives).
func TestSearcherBalance(t *testing.T) {
	const games = 60
	zombies, turns := sideGames(t, games, func() Bot { return &Searcher{Human: true, Zombie: true, ZombieTurns: 1, KeepPartners: true} })
	slices.Sort(turns)
	median := turns[games/2]
	t.Logf("zombies won %d of %d games; turns %v; median %d", zombies, games, turns, median)
	if zombies > games*65/100 || games-zombies > games*65/100 {
		t.Errorf("the zombies won %d of %d games, the humans %d: one side wins more than 65%%", zombies, games, games-zombies)
	}
	if median < 3 {
		t.Errorf("the median game lasts %d turns; want at least 3", median)
	}
}

// TestSearcherPlaysTheSameGame: the searcher's plans are a function of
// the seat's seed and view: the same seed plays the same game.
func TestSearcherPlaysTheSameGame(t *testing.T) {
	bot := func() Bot {
		return &Searcher{Human: true, Zombie: true, ZombieTurns: 1, KeepPartners: true, Playouts: 60}
	}
	z1, t1 := sideGames(t, 6, bot)
	z2, t2 := sideGames(t, 6, bot)
	if z1 != z2 || !slices.Equal(t1, t2) {
		t.Fatalf("the same seeds played other games: %d %v, then %d %v", z1, t1, z2, t2)
	}
}

// TestSearcherDecisionTime measures the searcher's decision at its default
// budget over the first 40 default games (mean and p99); it runs only when
// ARBITER_MEASURE is set:
//
//	ARBITER_MEASURE=1 go test ./games/zombie -run TestSearcherDecisionTime -v
func TestSearcherDecisionTime(t *testing.T) {
	if os.Getenv("ARBITER_MEASURE") == "" {
		t.Skip("a measurement: set ARBITER_MEASURE=1")
	}
	var times []time.Duration
	sideGames(t, 40, func() Bot {
		return &timed{bot: &Searcher{Human: true, Zombie: true, ZombieTurns: 1, KeepPartners: true}, times: &times}
	})
	slices.Sort(times)
	var sum time.Duration
	for _, d := range times {
		sum += d
	}
	t.Logf("%d decisions: mean %v, p99 %v, max %v", len(times), sum/time.Duration(len(times)), times[len(times)*99/100], times[len(times)-1])
}

type timed struct {
	bot   *Searcher
	times *[]time.Duration
}

func (b *timed) Init(info engine.MatchInfo) error { return b.bot.Init(info) }

func (b *timed) Plan(v View) (Plan, error) {
	start := time.Now()
	p, err := b.bot.Plan(v)
	*b.times = append(*b.times, time.Since(start))
	return p, err
}

// TestSearcherKeepsPartners: a human searcher that keeps partners touches
// whom its sensible self would, turn after turn, and only the how varies.
func TestSearcherKeepsPartners(t *testing.T) {
	const n = 5
	for seed := uint64(1); seed <= 6; seed++ {
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: make([]string, n), Options: map[string]string{"antibodies": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		searchers := make([]*Searcher, n)
		rules := make([]*Sensible, n)
		for s := range n {
			searchers[s] = &Searcher{Human: true, KeepPartners: true, Playouts: 40}
			rules[s] = &Sensible{Human: Cautious, Zombie: Spreading}
			info := engine.MatchInfo{Seat: s, Players: make([]string, n), Options: map[string]string{"antibodies": "1"}, Seed: engine.SeatSeed(seed, s)}
			_ = searchers[s].Init(info)
			_ = rules[s].Init(info)
		}
		for !m.Over() {
			for s := range n {
				v := m.View(s)
				p, err := searchers[s].Plan(v)
				if err != nil {
					t.Fatal(err)
				}
				if !v.Me().Zombie() {
					want, _ := rules[s].Plan(v)
					rules[s].learn(v, p)
					if len(p.Touch) != len(want.Touch) || p.Touch[0].With != want.Touch[0].With {
						t.Fatalf("seed %d, turn %d, seat %d: the searcher touches %s; its rule touches %s", seed, v.Turn(), s, p, want)
					}
				}
				if err := m.Apply(s, p); err != nil {
					t.Fatalf("seed %d: plan %s refused: %v", seed, p, err)
				}
			}
		}
	}
}
