package zombie

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// TestSearch checks the search hooks (Clone, Moves, Sample) at every step
// of random games of 3 to 12 seats, with one zombie or several, with and
// without starting counts, and games long enough to reach max_turns.
func TestSearch(t *testing.T) {
	cases := []map[string]string{
		{},
		{"zombies": "2", "turns": "12", "antibodies": "3", "viruses": "4"},
		{"turns": "30", "antibodies": "1", "viruses": "2"},
		{"turns": "6", "antibodies": "30", "viruses": "1"},
	}
	for i, opts := range cases {
		for _, n := range []int{3, 5, 8, 12} {
			if n == 3 && opts["zombies"] == "2" {
				continue
			}
			for seed := range uint64(2) {
				setup := engine.Setup{Seed: seed + 10*uint64(i), Players: make([]string, n), Options: opts}
				t.Run(fmt.Sprintf("%d/%d-seats/seed-%d", i, n, setup.Seed), func(t *testing.T) {
					enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Plan, View]{Seed: seed, Steps: 120, Move: randomPlan})
				})
			}
		}
	}
}

// TestMovesCoverEveryKind: the plans generated for a seat told human
// include a plain touch, a touch with precaution, a cure, a guard, staying
// open and touching everyone once it holds antibodies; for a seat told
// zombie, touching one and ending, staying open, touching everyone, and
// spending viruses.
func TestMovesCoverEveryKind(t *testing.T) {
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: make([]string, 5), Options: map[string]string{"antibodies": "2", "viruses": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range m.Pending() {
		plans := m.Moves(&req, rand.NewPCG(1, 2), nil)
		kinds := map[string]bool{}
		for _, p := range plans {
			if err := m.View(req.Seat).Check(p); err != nil {
				t.Fatalf("seat %d: generated %s is refused: %v", req.Seat, p, err)
			}
			for _, c := range p.Touch {
				kinds[map[bool]string{true: "precaution", false: "plain"}[c.Precaution]] = true
				if c.Viruses > 0 {
					kinds["viruses"] = true
				}
			}
			if len(p.Touch) == 4 {
				kinds["everyone"] = true
			}
			if p.End {
				kinds["end"] = true
			} else {
				kinds["open"] = true
			}
			if p.CureFirst || p.CureLast {
				kinds["cure"] = true
			}
			if !p.Guard.None() {
				kinds["guard"] = true
			}
		}
		want := []string{"plain", "precaution", "cure", "guard", "end", "open", "everyone"}
		if m.View(req.Seat).Me().Zombie() {
			want = []string{"plain", "viruses", "end", "open", "everyone"}
		}
		for _, k := range want {
			if !kinds[k] {
				t.Errorf("seat %d (%s): no generated plan of kind %s among %v", req.Seat, m.View(req.Seat).Me().Identity, k, plans)
			}
		}
	}
}

// TestSampleNeverReadsTheHiddenRoles: two real matches that differ only in
// who is a zombie (and so in who is infected) but show a seat the same
// view give that seat the same sample, with the same dice: the sample
// is made of the view alone. Every seat of games of 6 and 7 seats is tried
// against the same game with the zombie drawn elsewhere, at the start and
// after each of 3 turns.
func TestSampleNeverReadsTheHiddenRoles(t *testing.T) {
	tried := 0
	for _, n := range []int{6, 7} {
		for seed := uint64(0); seed < 4; seed++ {
			for turns := range 4 {
				for za := range n {
					for zb := za + 1; zb < n; zb++ {
						a, b := playedMatch(t, seed, n, za, turns), playedMatch(t, seed, n, zb, turns)
						for seat := range n {
							if seatView(t, a, seat) != seatView(t, b, seat) {
								continue
							}
							tried++
							if sa, sb := sampled(t, a, seat), sampled(t, b, seat); sa != sb {
								t.Fatalf("%d seats, seed %d, turn %d, seat %d: the same view gives another sample when the zombie is P%d, not P%d:\n%s\n%s",
									n, seed, turns+1, seat, zb+1, za+1, sb, sa)
							}
						}
					}
				}
			}
		}
	}
	if tried < 200 {
		t.Fatalf("only %d views shared by matches with other roles; the test proves too little", tried)
	}
}

// sampleOptions are the options of the matches of
// TestSampleNeverReadsTheHiddenRoles.
var sampleOptions = map[string]string{"antibodies": "4"}

// playedMatch is a match of n seats on seed whose zombie sits at seat
// zombie, played for turns turns: every human touches the next seat with
// precaution and guards itself with precaution too, the zombie touches the
// next seat plainly. Nobody is infected, and a seat's view tells only
// whether the zombie sits next to it, so that the views of many matches
// with the zombie elsewhere agree.
func playedMatch(t *testing.T, seed uint64, n, zombie, turns int) *Match {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: make([]string, n), Options: sampleOptions})
	if err != nil {
		t.Fatal(err)
	}
	j := NewJudge()
	for i := range n {
		c := HumanCommand(SeatName(i))
		if i == zombie {
			c = ZombieCommand(SeatName(i))
		}
		if err := j.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Do(StartCommand(DefaultMaxTurns, 4, 0)); err != nil {
		t.Fatal(err)
	}
	m.judge = j
	for range turns {
		for s := range n {
			p := Plan{Touch: []Contact{{With: (s + 1) % n, Modifier: Precaution}}, Guard: Precaution}
			if s == zombie {
				p = Plan{Touch: []Contact{{With: (s + 1) % n}}}
			}
			if err := m.Apply(s, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

func seatView(t *testing.T, m *Match, seat int) string {
	t.Helper()
	b, err := json.Marshal(m.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampled is the sample of seat's view with fixed dice: every player's
// true state and the sample's snapshot.
func sampled(t *testing.T, m *Match, seat int) string {
	t.Helper()
	s, err := Game{}.Sample(engine.Setup{Players: make([]string, m.n), Options: sampleOptions}, seat, m.View(seat), rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(s.(*Match).players()) + string(b)
}

// searchBenchMatch is a match of n seats with 2 antibodies each, played by
// cautious bots for two turns: the middle of a game.
func searchBenchMatch(b *testing.B, n int) *Match {
	b.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: 4, Players: make([]string, n), Options: map[string]string{"antibodies": "2", "turns": "8"}})
	if err != nil {
		b.Fatal(err)
	}
	bots := make([]*Sensible, n)
	for s := range bots {
		bots[s] = &Sensible{Human: Cautious, Zombie: Spreading}
		_ = bots[s].Init(engine.MatchInfo{})
	}
	for range 2 {
		for s := range n {
			p, _ := bots[s].Plan(m.View(s))
			if err := m.Apply(s, p); err != nil {
				b.Fatal(err)
			}
		}
	}
	if m.Over() {
		b.Fatal("the match is over")
	}
	return m
}

func BenchmarkClone(b *testing.B) {
	for _, n := range []int{5, 12} {
		b.Run(fmt.Sprintf("%d-seats", n), func(b *testing.B) {
			m := searchBenchMatch(b, n)
			b.ReportAllocs()
			for b.Loop() {
				_ = m.Clone()
			}
		})
	}
}

func BenchmarkSample(b *testing.B) {
	for _, n := range []int{5, 12} {
		b.Run(fmt.Sprintf("%d-seats", n), func(b *testing.B) {
			m := searchBenchMatch(b, n)
			setup := engine.Setup{Players: make([]string, n), Options: map[string]string{"antibodies": "2", "turns": "8"}}
			rng := rand.NewPCG(1, 2)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (Game{}).Sample(setup, 1, m.View(1), rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMoves(b *testing.B) {
	for _, n := range []int{5, 12} {
		b.Run(fmt.Sprintf("%d-seats", n), func(b *testing.B) {
			m := searchBenchMatch(b, n)
			req := m.Pending()[1]
			rng := rand.NewPCG(1, 2)
			var buf []Plan
			b.ReportAllocs()
			for b.Loop() {
				buf = m.Moves(&req, rng, buf[:0])
			}
		})
	}
}
