package reaj

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

func TestBotCatalog(t *testing.T) {
	// "One fixed-value player per value (conquer, …, adapt), random, repl
	// (a person), and at least one AI that reads the state and plays to
	// score."
	es, err := Bots("fixed")
	if err != nil || len(es) != 6 || es[0].Name != "conquer" || es[5].Name != "adapt" {
		t.Fatalf("fixed: %v %v", es, err)
	}
	for _, name := range []string{"conquer", "exchange", "expand", "develop", "consent", "adapt", "random", "steward"} {
		es, err := Bots(name)
		if err != nil || len(es) != 1 || es[0].Name != name {
			t.Errorf("%s: %v %v", name, es, err)
		}
	}
	for _, bad := range []string{"Adapt", "basic", "adapt.x", ""} {
		if _, err := Bots(bad); err == nil {
			t.Errorf("Bots(%q) accepted", bad)
		}
	}
	// A fixed player always chooses its value.
	m := newMatch(t, 2, nil)
	for _, v := range AllValues {
		if got, _ := Fixed(v).Turn(m.View(0)); got != v {
			t.Errorf("Fixed(%v) chose %v", v, got)
		}
	}
}

func TestRandomAI(t *testing.T) {
	m := newMatch(t, 2, nil)
	before, _ := m.pcg.MarshalBinary()
	ai := Random().(*randomAI)
	ai.Init(engine.MatchInfo{Seed: engine.SeatSeed(4, 0), Seat: 0})
	var counts [NumValues]int
	for range 60000 {
		v, _ := ai.Turn(m.View(0))
		counts[v]++
	}
	for v, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("%v chosen %d times of 60000", Value(v), c)
		}
	}
	if after, _ := m.pcg.MarshalBinary(); string(before) != string(after) {
		t.Error("the random AI drew from the match's random source")
	}
}

func TestStewardBeatsEveryFixedPlayer(t *testing.T) {
	// The steward against the six fixed-value players, each seat in turn.
	entrants, _ := Bots("fixed")
	wins, games := 0, 0
	for seat := range 7 {
		var seats []engine.Seat[Value, View]
		for _, e := range entrants {
			seats = append(seats, engine.Seat[Value, View]{Name: e.Name, Player: e.New()})
		}
		seats = append(seats[:seat], append([]engine.Seat[Value, View]{{Name: "steward", Player: Player(Steward())}}, seats[seat:]...)...)
		s := &engine.Series[Value, View]{Ruleset: Game{}, Seed: uint64(seat)}
		s.Game(seats...)
		recs, err := s.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		res := recs[0].End.Result
		games++
		if res.Won(seat) && len(res.Winners) == 1 {
			wins++
		}
	}
	if wins != games {
		t.Errorf("the steward won %d of %d games against the six fixed players", wins, games)
	}
}

type panicky struct{}

func (panicky) Turn(View) (Value, error) { panic("no") }

type wayward struct{}

func (wayward) Turn(View) (Value, error) { return None, nil }

type sleepy struct{ wake chan struct{} }

func (s sleepy) Turn(View) (Value, error) { <-s.wake; return Conquer, nil }

type erring struct{}

func (erring) Turn(View) (Value, error) { return Conquer, errors.New("lost") }

func TestMisbehavingBotsAdapt(t *testing.T) {
	// "Default on timeout/crash/invalid answer: adapt, recorded as a fault."
	wake := make(chan struct{})
	defer close(wake)
	s := &engine.Series[Value, View]{Ruleset: Game{}, Seed: 1, Options: map[string]string{"turns": "5"}}
	var seats []engine.Seat[Value, View]
	for i, ai := range []AI{panicky{}, wayward{}, sleepy{wake}, erring{}, Fixed(Conquer)} {
		seats = append(seats, engine.Seat[Value, View]{Name: string(rune('a' + i)), Player: Player(ai), Deadline: 20 * time.Millisecond})
	}
	s.Game(seats...)
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	faults := map[int]int{}
	for _, f := range recs[0].Faults() {
		faults[f.Seat]++
		if recs[0].Steps[f.Step].Move != Adapt {
			t.Errorf("fault %+v: the move played is %v; want adapt", f, recs[0].Steps[f.Step].Move)
		}
	}
	if diff := cmp.Diff(map[int]int{0: 5, 1: 5, 2: 5, 3: 5}, faults); diff != "" {
		t.Errorf("faults by seat:\n%s", diff)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	m := newMatch(t, 4, nil)
	r := rand.New(rand.NewPCG(1, 2))
	for range 37 {
		for _, q := range m.Pending() {
			if err := m.Apply(q.Seat, AllValues[r.IntN(NumValues)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	q := m.Pending()[0]
	m.Apply(q.Seat, Expand)
	snap, _ := m.MarshalJSON()
	back, err := Game{}.RestoreMatch(engine.Setup{Seed: 1, Players: make([]string, 4)}, snap)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.MarshalJSON()
	if string(snap) != string(again) {
		t.Fatalf("round trip differs:\n%s\n%s", snap, again)
	}
	for _, x := range []*Match{m, back} {
		r := rand.New(rand.NewPCG(9, 9))
		for !x.Over() {
			for _, q := range x.Pending() {
				x.Apply(q.Seat, AllValues[r.IntN(NumValues)])
			}
		}
	}
	a, _ := m.MarshalJSON()
	b, _ := back.MarshalJSON()
	if string(a) != string(b) {
		t.Error("the restored match played on differently")
	}
	for _, bad := range []string{`{}`, `[`, strings.Replace(string(snap), `"turns":100`, `"turns":0`, 1)} {
		if _, err := (Game{}).RestoreMatch(engine.Setup{Seed: 1, Players: make([]string, 4)}, []byte(bad)); err == nil {
			t.Errorf("Restore(%.40s) accepted", bad)
		}
	}
}

func TestStep(t *testing.T) {
	st := NewState(3)
	st.Societies[2] = Society{Dead: true}
	next, err := Step(st, Moves{Choices: []Value{Adapt, Consent, None}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := turn(t, st, Adapt, Consent, None)
	for i := range want.Societies {
		if want.Societies[i].Died == 7 {
			want.Societies[i].Died = 0
		}
	}
	if diff := cmp.Diff(want, next); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(NewState(3).Societies[0], NewState(3).Societies[0]); diff != "" {
		t.Error(diff)
	}
	for _, c := range []struct {
		choices []Value
		rule    bool
	}{
		{[]Value{Adapt, None, None}, true},         // a living society without a choice
		{[]Value{Adapt, Adapt, Adapt}, true},       // a choice for the dead
		{[]Value{Adapt, Adapt}, false},             // too few
		{[]Value{Adapt, Adapt, None, None}, false}, // too many
	} {
		_, err := Step(st, Moves{Choices: c.choices}, 0)
		if err == nil || engine.IsRuleError(err) != c.rule {
			t.Errorf("%v: %v (rule error: %v)", c.choices, err, engine.IsRuleError(err))
		}
	}
}

// referenceTurn is the rules page read as plainly as possible, with the
// effects computed into deltas before any is applied.
func referenceTurn(st *State, turn int, choices []Value, seed uint64) {
	n := len(st.Societies)
	pcg := engine.NewRNG(seed)
	alive := func(i int) bool { return !st.Societies[i].Dead }
	st.Environment.Resources += max(0, st.Environment.Ecology)
	for i, c := range choices {
		if c != None {
			st.Societies[i].Values[c]++
		}
	}
	gain := make([]int, n)
	drel := make([][]int, n)
	for i := range drel {
		drel[i] = make([]int, n)
	}
	var expanders, developers []int
	adapters := 0
	for i, c := range choices {
		switch c {
		case Conquer:
			for j := range n {
				if j != i && st.Societies[j].Values[Conquer] < st.Societies[i].Values[Conquer] {
					gain[i]++
				}
				if j != i && alive(j) {
					drel[j][i]--
				}
			}
		case Exchange:
			for j := range n {
				if j != i && st.Relations[j][i] > 0 {
					gain[i]++
				}
			}
		case Expand:
			expanders = append(expanders, i)
		case Develop:
			developers = append(developers, i)
		case Consent:
			for j := range n {
				if j != i && alive(j) {
					drel[j][i]++
				}
			}
		case Adapt:
			adapters++
		}
	}
	share := func(left *int, who []int) {
		if len(who) > *left {
			for k := len(who) - 1; k > 0; k-- {
				j := int(engine.Below(pcg, uint64(k+1)))
				who[k], who[j] = who[j], who[k]
			}
			who = who[:*left]
		}
		for _, i := range who {
			gain[i] += 3
			*left--
		}
	}
	share(&st.Environment.Land, expanders)
	share(&st.Environment.Ecology, developers)
	st.Environment.Ecology += adapters
	for i := range n {
		st.Societies[i].Resources += gain[i]
		for j := range n {
			st.Relations[i][j] += drel[i][j]
		}
	}
	for i := range n {
		s := &st.Societies[i]
		if s.Dead {
			continue
		}
		s.Resources += s.Values[Adapt] - s.Values[Expand] - s.Values[Develop]
		if s.Resources < 0 {
			if st.Environment.Resources >= -s.Resources {
				st.Environment.Resources += s.Resources
				s.Resources = 0
			} else {
				st.Environment.Resources = 0
				s.Resources, s.Dead, s.Died = 0, true, turn
			}
		}
	}
}

func TestTurnMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for k := range 5000 {
		n := 1 + r.IntN(MaxSocieties)
		st := NewState(n)
		st.Environment = Environment{Land: r.IntN(4), Ecology: r.IntN(4), Resources: r.IntN(30)}
		choices := make([]Value, n)
		for i := range st.Societies {
			s := &st.Societies[i]
			for v := range s.Values {
				s.Values[v] = r.IntN(5)
			}
			s.Resources = r.IntN(8)
			if r.IntN(5) == 0 {
				*s = Society{Values: s.Values, Dead: true, Died: 1}
			}
			for j := range st.Relations[i] {
				st.Relations[i][j] = r.IntN(5) - 2
			}
			choices[i] = None
			if !s.Dead {
				choices[i] = Value(r.IntN(NumValues))
			}
		}
		seed := r.Uint64()
		got, want := st.Clone(), st.Clone()
		if err := Turn(&got, 3, choices, engine.NewRNG(seed)); err != nil {
			t.Fatal(err)
		}
		referenceTurn(&want, 3, choices, seed)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d, choices %v:\n%s", k, choices, diff)
		}
	}
}

func FuzzParseState(f *testing.F) {
	b, _ := json.Marshal(NewState(3))
	f.Add(b)
	f.Add([]byte(`{"environment":{"land":0,"ecology":0,"resources":0},"societies":[],"relations":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseState(data)
		if err != nil {
			return
		}
		choices := make([]Value, len(st.Societies))
		for i := range choices {
			choices[i] = None
			if !st.Societies[i].Dead {
				choices[i] = AllValues[i%NumValues]
			}
		}
		next, err := Step(st, Moves{Choices: choices}, 1)
		if err != nil {
			t.Fatalf("a state that parses does not step: %v", err)
		}
		if err := next.Check(); err != nil {
			t.Fatalf("a step left the state inconsistent: %v", err)
		}
	})
}

func FuzzParseMoves(f *testing.F) {
	f.Add([]byte(`{"choices":["adapt",null,"conquer"]}`))
	f.Add([]byte(`{"choices":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		mv, err := ParseMoves(data)
		if err != nil {
			return
		}
		for _, c := range mv.Choices {
			if c != None && !c.Valid() {
				t.Fatalf("choice %v accepted", c)
			}
		}
		_, _ = Step(NewState(max(1, min(len(mv.Choices), MaxSocieties))), mv, 0)
	})
}

func TestViewTellsAPersonTheirSocietyDied(t *testing.T) {
	// A person whose society dies is told so, and in which turn
	// (player.Knockout).
	m := newMatch(t, 3, nil)
	if out := m.View(1).Out(); out != "" {
		t.Errorf("a living society's view says %q", out)
	}
	m.state.Societies[1].Dead, m.state.Societies[1].Died = true, 7
	want := "Your society died in turn 7: neither its resources nor the environment's could cover its upkeep"
	if out := m.View(1).Out(); out != want {
		t.Errorf("a dead society's view says %q; want %q", out, want)
	}
}
