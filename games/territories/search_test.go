package territories

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// TestSearchHooks: at every step of random games of 2, 3 and 6 seats, on
// several seeds, a clone shows and continues as the match, the generated
// actions are legal, and a match sampled from a seat's view shows it the
// same view and owes it the same request (enginetest.CheckSearch).
func TestSearchHooks(t *testing.T) {
	for _, n := range []int{2, 3, 6} {
		for seed := range uint64(4) {
			setup := engine.Setup{Seed: seed, Players: make([]string, n), Options: map[string]string{"turns": "40"}}
			t.Run(fmt.Sprintf("%d-seats/seed-%d", n, seed), func(t *testing.T) {
				enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Action, View]{Seed: seed, Steps: 200})
			})
		}
	}
}

// TestSearchHooksOnTurnBoard: the hooks on a map of its own, with an action
// for each holding.
func TestSearchHooksOnTurnBoard(t *testing.T) {
	for seed := range uint64(2) {
		setup := engine.Setup{Seed: seed, Players: make([]string, 3), Options: map[string]string{"turns": "30", "board": turnBoard()}}
		enginetest.CheckSearch(t, Game{}, setup, enginetest.Options[Action, View]{Seed: seed, Steps: 200})
	}
}

// TestMovesCoverEveryKind: the generated actions of a turn hold every raise
// and every attack of Legal, a move to every neighbour a move may go to,
// and pass; and each of them is in Legal.
func TestMovesCoverEveryKind(t *testing.T) {
	for seed := range uint64(10) {
		m := midGame(t, seed, 3, 40)
		req := m.Pending()[0]
		got := m.Moves(&req, nil, nil)
		legal := map[Action]bool{}
		moveTo := map[[2]string]bool{}
		for _, a := range m.View(req.Seat).Legal() {
			legal[a] = true
			if a.Kind == Move {
				moveTo[[2]string{a.From, a.To}] = true
			}
		}
		have := map[Action]bool{}
		for _, a := range got {
			if !legal[a] {
				t.Fatalf("seed %d: generated %s is not legal", seed, a)
			}
			have[a] = true
			if a.Kind == Move {
				delete(moveTo, [2]string{a.From, a.To})
			}
		}
		for a := range legal {
			if (a.Kind == Raise || a.Kind == Attack || a.Kind == Pass) && !have[a] {
				t.Fatalf("seed %d: %s is legal but not generated", seed, a)
			}
		}
		if len(moveTo) > 0 {
			t.Fatalf("seed %d: no move generated from-to %v", seed, moveTo)
		}
	}
}

// midGame returns a match of n seats under way after steps random
// actions (on the first of seed's streams whose game lasts that long).
func midGame(tb testing.TB, seed uint64, n, steps int) *Match {
	tb.Helper()
	for stream := range uint64(100) {
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: make([]string, n)})
		if err != nil {
			tb.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, stream))
		for i := 0; i < steps && !m.Over(); i++ {
			req := m.Pending()[0]
			l := m.View(req.Seat).Legal()
			if err := m.Apply(req.Seat, l[r.IntN(len(l))]); err != nil {
				tb.Fatal(err)
			}
		}
		if !m.Over() {
			return m
		}
	}
	tb.Fatalf("seed %d: every game ended within %d actions", seed, steps)
	return nil
}

// TestViewsHoldNoDice: two matches with the same actions so far and
// different dice (the second's reseeded; and one sampled from a view, with
// dice of its own) show every seat byte-identical views, and everything a
// view offers behaves the same on both: its legal actions, the checks of
// actions, and actions tried on its world, battles and their rolls
// included. No view carries the match's dice.
func TestViewsHoldNoDice(t *testing.T) {
	for seed := range uint64(6) {
		m := midGame(t, seed, 3, 30)
		other := m.CloneMatch()
		other.w.dice = rand.NewPCG(seed+1000, 99)
		req := m.Pending()[0]
		sampled, err := Game{}.SampleMatch(engine.Setup{Players: make([]string, 3), Seed: 12345}, req.Seat, m.View(req.Seat), rand.NewPCG(seed, 5))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []*Match{other, sampled} {
			sameViews(t, m, o, req.Seat)
		}
		if m.w.dice.Uint64() == other.w.dice.Uint64() {
			t.Fatal("the two matches' dice are the same; the test needs different dice")
		}
	}
}

// sameViews checks that what seat's view of a and of b offers is the same.
func sameViews(t *testing.T, a, b *Match, seat int) {
	t.Helper()
	va, vb := a.View(seat), b.View(seat)
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	if string(ja) != string(jb) {
		t.Fatalf("the views differ:\n%s\n%s", ja, jb)
	}
	la, lb := va.Legal(), vb.Legal()
	if fmt.Sprint(la) != fmt.Sprint(lb) {
		t.Fatalf("legal actions differ: %v, %v", la, lb)
	}
	for _, act := range la {
		if ea, eb := fmt.Sprint(va.Check(act)), fmt.Sprint(vb.Check(act)); ea != eb {
			t.Fatalf("%s: checks %s and %s", act, ea, eb)
		}
		wa, wb := va.World().Clone(), vb.World().Clone()
		for range 3 { // the same action tried again rolls again
			oa, ea := wa.Apply(va.Player(), act)
			ob, eb := wb.Apply(vb.Player(), act)
			if fmt.Sprint(oa, ea) != fmt.Sprint(ob, eb) {
				t.Fatalf("%s tried on the views' worlds: %v %v and %v %v", act, oa, ea, ob, eb)
			}
		}
	}
}

// TestSampleRefusesOthersViews: a sample is made for the view's own seat,
// under a setup of its match's seats.
func TestSampleRefusesOthersViews(t *testing.T) {
	m := midGame(t, 1, 3, 10)
	rng := rand.NewPCG(1, 2)
	if _, err := (Game{}).Sample(engine.Setup{Players: make([]string, 3)}, 0, m.View(1), rng); err == nil {
		t.Error("a sample for seat 1 from seat 2's view was made")
	}
	if _, err := (Game{}).Sample(engine.Setup{Players: make([]string, 4)}, 1, m.View(1), rng); err == nil {
		t.Error("a sample of 4 seats from a view of 3 was made")
	}
	if _, err := (Game{}).Sample(engine.Setup{Players: make([]string, 3)}, 0, View{}, rng); err == nil {
		t.Error("a sample from an empty view was made")
	}
}

// TestEstimate: shares are from 0 to 1 and sum to 1 among the nations in;
// a nation out has none; the stronger nation has the larger share.
func TestEstimate(t *testing.T) {
	m := midGame(t, 3, 2, 30)
	shares := make([]float64, 2)
	m.Estimate(shares)
	if s := shares[0] + shares[1]; s < 0.999 || s > 1.001 {
		t.Fatalf("shares %v sum to %v", shares, s)
	}
	strong := 0
	if m.w.Holdings(1)*2+m.w.Armies(1) > m.w.Holdings(0)*2+m.w.Armies(0) {
		strong = 1
	}
	if shares[strong] < shares[1-strong] {
		t.Fatalf("shares %v: the stronger seat %d has less", shares, strong)
	}
	_, end := play(t, 1, nil, "greedy", "random")
	end.Estimate(shares)
	w := end.Result().Winners[0]
	if shares[w] != 1 || shares[1-w] != 0 {
		t.Fatalf("shares %v at the end won by seat %d", shares, w)
	}
}

// BenchmarkClone copies a match in the middle of a game of three.
func BenchmarkClone(b *testing.B) {
	m := midGame(b, 1, 3, 40)
	b.ReportAllocs()
	for b.Loop() {
		m.CloneMatch()
	}
}

// BenchmarkCloneAndAct copies a match and applies one action to the copy:
// what a playout pays before it plays.
func BenchmarkCloneAndAct(b *testing.B) {
	m := midGame(b, 1, 3, 40)
	req := m.Pending()[0]
	a := m.Moves(&req, nil, nil)[0]
	b.ReportAllocs()
	for b.Loop() {
		c := m.CloneMatch()
		if err := c.Apply(req.Seat, a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSample makes a match from a seat's view.
func BenchmarkSample(b *testing.B) {
	m := midGame(b, 1, 3, 40)
	req := m.Pending()[0]
	setup := engine.Setup{Players: make([]string, 3)}
	rng := rand.NewPCG(1, 2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Game{}).SampleMatch(setup, req.Seat, m.View(req.Seat), rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoves lists the actions of a turn in the middle of a game.
func BenchmarkMoves(b *testing.B) {
	m := midGame(b, 1, 3, 40)
	req := m.Pending()[0]
	var buf []Action
	b.ReportAllocs()
	for b.Loop() {
		buf = m.Moves(&req, nil, buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "actions")
}
