package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// nim is a race to a goal: seats take turns adding 1 or 2 to a count, and
// whoever reaches the goal wins. The seat to move wins when the count is
// not one short of a multiple of three below the goal: it should leave the
// count at goal-3k.
type nim struct{ goal int }

type nimMatch struct {
	goal, count, turn int
	reqs              []engine.Request[int]
}

type nimView struct{ Count, Turn int }

func (nim) Info() engine.Info { return engine.Info{Name: "nim", MinSeats: 2, MaxSeats: 2} }

func (g nim) New(s engine.Setup) (engine.Match[int, nimView], error) {
	return &nimMatch{goal: g.goal}, nil
}

func (g nim) Sample(s engine.Setup, seat int, v nimView, _ *rand.PCG) (engine.Match[int, nimView], error) {
	return &nimMatch{goal: g.goal, count: v.Count, turn: v.Turn}, nil
}

func (m *nimMatch) Pending() []engine.Request[int] {
	if m.Over() {
		return nil
	}
	m.reqs = append(m.reqs[:0], engine.Request[int]{ID: int64(m.count), Seat: m.turn, Kind: "add", Choices: []int{1, 2}, Default: 1})
	return m.reqs
}

func (m *nimMatch) Apply(seat, n int) error {
	if seat != m.turn || n < 1 || n > 2 || m.Over() {
		return engine.Refuse("no", "no")
	}
	m.count += n
	if !m.Over() {
		m.turn = 1 - m.turn
	}
	return nil
}

func (m *nimMatch) View(int) nimView { return nimView{m.count, m.turn} }
func (m *nimMatch) Over() bool       { return m.count >= m.goal }
func (m *nimMatch) Result() engine.Result {
	r := engine.Result{Scores: []int64{0, 0}, Ranks: []int{2, 2}, Winners: []int{m.turn}}
	r.Scores[m.turn], r.Ranks[m.turn] = 1, 1
	return r
}

// start makes a search player of rules for seat of a two-seat match.
func start[M, V any](t testing.TB, rules engine.Ruleset[M, V], cfg Config, seat int, seed uint64) *Player[M, V] {
	t.Helper()
	p, err := New(rules, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(context.Background(), engine.MatchInfo{Seat: seat, Players: []string{"a", "b"}, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFindsTheWinningMove: from every count of a race to 10 where the seat
// to move can win, the search (1000 playouts) finds the move that wins.
func TestFindsTheWinningMove(t *testing.T) {
	g := nim{goal: 10}
	for count := 0; count < 10; count++ {
		if (g.goal-count)%3 == 0 {
			continue // every move loses
		}
		m := &nimMatch{goal: g.goal, count: count}
		p := start(t, engine.Ruleset[int, nimView](g), Default(), 0, 7)
		req := m.Pending()[0]
		mv, err := p.Decide(context.Background(), &req, m.View(0))
		if err != nil {
			t.Fatal(err)
		}
		if left := g.goal - count - mv; left > 0 && left%3 != 0 {
			t.Errorf("count %d: adds %d, which loses; adding %d wins", count, mv, 3-mv)
		}
	}
}

// pick is a simultaneous game of one round: each seat picks 1, 2 or 3, and
// the higher pick wins, unless a seat hides a card (the match's hidden
// state, which no view shows) that turns 1 into the best pick.
type pick struct{}

type pickMatch struct {
	picks [2]int
	joker bool // hidden: when set, 1 beats everything
	reqs  []engine.Request[int]
}

type pickView struct{ Mine int }

func (pick) Info() engine.Info { return engine.Info{Name: "pick", MinSeats: 2, MaxSeats: 2} }

func (pick) New(s engine.Setup) (engine.Match[int, pickView], error) {
	return &pickMatch{joker: s.Seed%2 == 1}, nil
}

// Sample draws the hidden joker: one time in ten.
func (pick) Sample(s engine.Setup, seat int, v pickView, rng *rand.PCG) (engine.Match[int, pickView], error) {
	m := &pickMatch{joker: engine.Below(rng, 10) == 0}
	m.picks[seat] = v.Mine
	return m, nil
}

func (m *pickMatch) Pending() []engine.Request[int] {
	m.reqs = m.reqs[:0]
	for s, p := range m.picks {
		if p == 0 {
			m.reqs = append(m.reqs, engine.Request[int]{ID: int64(s), Seat: s, Kind: "pick", Choices: []int{1, 2, 3}, Default: 1})
		}
	}
	return m.reqs
}

func (m *pickMatch) Apply(seat, p int) error {
	if seat < 0 || seat > 1 || m.picks[seat] != 0 || p < 1 || p > 3 {
		return engine.Refuse("no", "no")
	}
	m.picks[seat] = p
	return nil
}

func (m *pickMatch) View(seat int) pickView { return pickView{} }
func (m *pickMatch) Over() bool             { return m.picks[0] != 0 && m.picks[1] != 0 }
func (m *pickMatch) Result() engine.Result {
	a, b := m.picks[0], m.picks[1]
	if m.joker {
		a, b = 4-a, 4-b
	}
	switch {
	case a > b:
		return engine.Result{Scores: []int64{1, 0}, Ranks: []int{1, 2}, Winners: []int{0}}
	case b > a:
		return engine.Result{Scores: []int64{0, 1}, Ranks: []int{2, 1}, Winners: []int{1}}
	}
	return engine.Result{Scores: []int64{0, 0}, Ranks: []int{1, 1}, Winners: []int{0, 1}}
}

// TestSimultaneousChoicesAreSearchedBlind: in a simultaneous game the
// search picks the move best against every answer (3), and the hidden
// joker, which the real match holds, changes nothing: the player sees only
// its view, and its dice are its own.
func TestSimultaneousChoicesAreSearchedBlind(t *testing.T) {
	for seed := uint64(0); seed < 4; seed++ {
		m, _ := pick{}.New(engine.Setup{Seed: seed})
		for seat := range 2 {
			p := start(t, engine.Ruleset[int, pickView](pick{}), Default(), seat, 11)
			req := m.Pending()[seat]
			mv, err := p.Decide(context.Background(), &req, m.View(seat))
			if err != nil {
				t.Fatal(err)
			}
			if mv != 3 {
				t.Errorf("match %d seat %d: picks %d, not 3", seed, seat, mv)
			}
		}
	}
}

// TestReproducible: with a fixed number of playouts the same seat seed
// gives the same moves, and another seed may not.
func TestReproducible(t *testing.T) {
	g := nim{goal: 30}
	moves := func(seed uint64) []int {
		p := start(t, engine.Ruleset[int, nimView](g), Config{Playouts: 50}, 0, seed)
		var out []int
		for count := range 20 {
			m := &nimMatch{goal: g.goal, count: count}
			req := m.Pending()[0]
			mv, _ := p.Decide(context.Background(), &req, m.View(0))
			out = append(out, mv)
		}
		return out
	}
	a, b := moves(1), moves(1)
	if !slices.Equal(a, b) {
		t.Fatalf("the same seed gave %v then %v", a, b)
	}
}

// TestBudgets: a fixed number of playouts is played exactly; a time budget
// and a request's deadline stop the search once passed, whatever the
// playouts asked (the test checks only that it stops, not how soon).
func TestBudgets(t *testing.T) {
	g := nim{goal: 1000}
	m := &nimMatch{goal: g.goal}
	req := m.Pending()[0]
	p := start(t, engine.Ruleset[int, nimView](g), Config{Playouts: 123}, 0, 1)
	if _, err := p.Decide(context.Background(), &req, m.View(0)); err != nil || p.Playouts != 123 {
		t.Fatalf("played %d playouts (%v), asked 123", p.Playouts, err)
	}
	p = start(t, engine.Ruleset[int, nimView](g), Config{Time: time.Millisecond}, 0, 1)
	if _, err := p.Decide(context.Background(), &req, m.View(0)); err != nil || p.Playouts == 0 {
		t.Fatalf("played %d playouts (%v) in its time", p.Playouts, err)
	}
	p = start(t, engine.Ruleset[int, nimView](g), Config{Playouts: 1 << 30}, 0, 1)
	dl := req
	dl.Deadline = time.Millisecond
	if _, err := p.Decide(context.Background(), &dl, m.View(0)); err != nil || p.Playouts >= 1<<30 {
		t.Fatalf("played %d playouts (%v) with a deadline", p.Playouts, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Decide(ctx, &req, m.View(0)); err != nil || p.Playouts >= 1<<30 {
		t.Fatalf("played %d playouts (%v) for a match abandoned", p.Playouts, err)
	}
}

// TestRulesWithoutSamples: a game whose rules offer no sample has no search
// AI, and says so.
func TestRulesWithoutSamples(t *testing.T) {
	type plain struct{ engine.Ruleset[int, nimView] }
	if _, err := New[int, nimView](plain{nim{}}, Default(), nil); err == nil {
		t.Fatal("a search player of rules without samples")
	} else {
		t.Log(err)
	}
}

func TestParse(t *testing.T) {
	for name, want := range map[string]Config{
		"mcts":                             Default(),
		"mcts:playouts=2000":               {Playouts: 2000, Explore: DefaultExplore, Width: DefaultWidth},
		"mcts:ms=50":                       {Time: 50 * time.Millisecond, Explore: DefaultExplore, Width: DefaultWidth},
		"mcts:ms=50:playouts=9":            {Playouts: 9, Time: 50 * time.Millisecond, Explore: DefaultExplore, Width: DefaultWidth},
		"mcts:level=easy":                  {Playouts: 30, Explore: DefaultExplore, Width: DefaultWidth},
		"mcts:explore=1.5:depth=9:width=3": {Playouts: DefaultPlayouts, Explore: 1.5, Depth: 9, Width: 3},
		"mcts:rollout=steward":             {Playouts: DefaultPlayouts, Explore: DefaultExplore, Width: DefaultWidth, Rollout: "steward"},
	} {
		got, err := Parse(name)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	for _, bad := range []string{"mcts:", "mcts:ms", "mcts:ms=0", "mcts:ms=x", "mcts:playouts=-1", "mcts:level=godlike",
		"mcts:speed=3", "mcts:ms=5:ms=6", "mcts:level=easy:playouts=3", "mcts:explore=0", "mcts:explore=NaN", "mctsx", "mcts:width=1001", "mcts:rollout=", "mcts:rollout=mcts"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		} else {
			t.Logf("%s: %v", bad, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"mcts", "mcts:ms=50", "mcts:playouts=2000:explore=1", "mcts:level=hard", "mcts:=", "mcts::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		if c.Playouts <= 0 && c.Time <= 0 || c.Explore <= 0 || c.Depth < 0 || c.Width <= 0 {
			t.Fatalf("Parse(%q) = %+v: no budget", s, c)
		}
	})
}

func ExampleParse() {
	c, _ := Parse("mcts:ms=50")
	fmt.Println(c.Time, c.Playouts)
	// Output: 50ms 0
}

func TestRolloutNamedButNotGivenSaysWhatIsMissing(t *testing.T) {
	// A Go program that names a rollout in its Config and passes New no
	// function to make it is told that, not that the player does not
	// exist.
	_, err := New[int, nimView](nim{goal: 10}, Config{Playouts: 10, Rollout: "greedy"}, nil)
	if err == nil || !strings.Contains(err.Error(), `Config.Rollout names "greedy", but New was given no rollout`) {
		t.Errorf("error %v; want it to say New was given no rollout for greedy", err)
	}
}
