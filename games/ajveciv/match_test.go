package ajveciv

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

func TestBotCatalog(t *testing.T) {
	// "basic.<value> for each of the six values ... basic alone means all
	// six." "basic2 alone means all 15 pairs and basic3 all 20 triples, in
	// the seed's value order."
	cases := []struct {
		name  string
		count int
		first string
		last  string
	}{
		{"basic", 6, "basic.conquer", "basic.consent"},
		{"basic2", 15, "basic2.conquer-exchange", "basic2.develop-consent"},
		{"basic3", 20, "basic3.conquer-exchange-discover", "basic3.expand-develop-consent"},
		{"basic.discover", 1, "basic.discover", "basic.discover"},
		{"basic2.consent-conquer", 1, "basic2.consent-conquer", "basic2.consent-conquer"},
		{"basic3.develop-expand-exchange", 1, "basic3.develop-expand-exchange", "basic3.develop-expand-exchange"},
		{"random", 1, "random", "random"},
		{"planner", 1, "planner", "planner"},
		{"guide", 1, "guide", "guide"},
	}
	for _, c := range cases {
		es, err := Bots(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(es) != c.count || es[0].Name != c.first || es[len(es)-1].Name != c.last {
			t.Errorf("%s: %d entrants from %s to %s", c.name, len(es), es[0].Name, es[len(es)-1].Name)
		}
	}
	for _, bad := range []string{"basic.flee", "basic2.conquer", "basic2.conquer-conquer", "basic3.a-b", "random.x", "wizard", "", "basic4"} {
		if _, err := Bots(bad); err == nil {
			t.Errorf("Bots(%q) accepted", bad)
		}
	}
}

func TestPriorityAIs(t *testing.T) {
	// "basic.<value>: picks that value when offered, else the first offered
	// choice." "basic2.<v1>-<v2> and basic3.<v1>-<v2>-<v3>: priority lists,
	// first offered choice when none is offered; any distinct values, in the
	// priority order written."
	m := newMatch(t, 2, 1, nil)
	m.offers[0] = offer{Expand, Develop, Consent, None}
	v := m.View(0)
	cases := []struct {
		ai   AI
		want Value
	}{
		{Priority(Develop), Develop},
		{Priority(Conquer), Expand},
		{Priority(Conquer, Consent), Consent},
		{Priority(Consent, Develop), Consent},
		{Priority(Conquer, Exchange, Develop), Develop},
		{Priority(Conquer, Exchange, Discover), Expand},
	}
	for _, c := range cases {
		got, err := c.ai.Turn(v)
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", aiName(c.ai), got, err, c.want)
		}
		if got, _ := c.ai.Inflection(v); got != c.want {
			t.Errorf("%s at an inflection: %v; want %v", aiName(c.ai), got, c.want)
		}
	}
}

func TestRandomAI(t *testing.T) {
	// "random: uniform among offered choices, from the bot's own RNG seeded
	// from (match seed, seat). Bots never draw from the match RNG."
	m := newMatch(t, 2, 1, nil)
	before, _ := m.pcg.MarshalBinary()
	ai := Random().(*randomAI)
	if err := ai.Init(engine.MatchInfo{Seed: engine.SeatSeed(9, 1), Seat: 1}); err != nil {
		t.Fatal(err)
	}
	var counts [NumValues]int
	for range 30000 {
		v, _ := ai.Turn(m.View(0))
		counts[v]++
	}
	after, _ := m.pcg.MarshalBinary()
	if string(before) != string(after) {
		t.Error("the random AI drew from the match's random source")
	}
	for _, o := range m.offers[0][:3] {
		if counts[o] < 9500 || counts[o] > 10500 {
			t.Errorf("%v chosen %d times of 30000: %v", o, counts[o], counts)
		}
	}
	// The same seed and seat give the same choices.
	a, b := Random().(*randomAI), Random().(*randomAI)
	a.Init(engine.MatchInfo{Seed: engine.SeatSeed(9, 1), Seat: 1})
	b.Init(engine.MatchInfo{Seed: engine.SeatSeed(9, 1), Seat: 1})
	for range 100 {
		x, _ := a.Turn(m.View(0))
		y, _ := b.Turn(m.View(0))
		if x != y {
			t.Fatal("two random AIs with the same seed and seat differ")
		}
	}
}

// misbehaving AIs.
type panicky struct{}

func (panicky) Turn(View) (Value, error)       { panic("the AI lost its mind") }
func (panicky) Inflection(View) (Value, error) { panic("the AI lost its mind") }

type wayward struct{}

func (wayward) Turn(v View) (Value, error) {
	for _, x := range AllValues {
		if !v.Offers(x) {
			return x, nil
		}
	}
	return None, nil
}
func (w wayward) Inflection(v View) (Value, error) { return w.Turn(v) }

type sleepy struct{ wake chan struct{} }

func (s sleepy) Turn(View) (Value, error)       { <-s.wake; return Conquer, nil }
func (s sleepy) Inflection(View) (Value, error) { <-s.wake; return Conquer, nil }

type erring struct{}

func (erring) Turn(View) (Value, error)       { return None, errors.New("cannot decide") }
func (erring) Inflection(View) (Value, error) { return None, errors.New("cannot decide") }

func TestMisbehavingBots(t *testing.T) {
	// "A bot that panics, passes its deadline, or answers a value it was not
	// offered gets the first offered choice; the fault is counted in the
	// report and written in the record; the match goes on and completes. A
	// Go bot stuck past its deadline is abandoned (never called again; its
	// seat gets default moves from then on)."
	wake := make(chan struct{})
	defer close(wake)
	seats := Seats(panicky{}, wayward{}, sleepy{wake}, erring{}, Priority(Develop))
	for i := range seats {
		seats[i].Deadline = 20 * time.Millisecond
	}
	s := NewSeries(Original(), 5)
	s.Options = map[string]string{"turns": "12"}
	s.Game(seats...)
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	if rec.End == nil || rec.End.Result == nil {
		t.Fatal("the match did not complete")
	}
	kinds := map[int]map[engine.FaultKind]int{}
	for _, f := range rec.Faults() {
		if kinds[f.Seat] == nil {
			kinds[f.Seat] = map[engine.FaultKind]int{}
		}
		kinds[f.Seat][f.Kind]++
	}
	want := map[int]map[engine.FaultKind]int{
		0: {engine.FaultPanic: 13},
		1: {engine.FaultIllegal: 13},
		2: {engine.FaultTimeout: 1, engine.FaultAbandoned: 12},
		3: {engine.FaultError: 13},
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("faults by seat (12 turns and one inflection, for the living):\n%s", diff)
	}
	// Every faulty move is the first offered choice: replaying the record
	// (which holds the moves applied) reaches the recorded end.
	if _, err := engine.Replay[Value, View](Original(), rec, nil); err != nil {
		t.Error(err)
	}
}

// forger writes conquer into the offer it is shown, through the view and
// through its request, and then chooses it.
type forger struct{}

func (forger) Decide(_ context.Context, req *engine.Request[Value], v View) (Value, error) {
	if o := v.Offered(); len(o) > 0 {
		o[0] = Conquer
	}
	if len(req.Choices) > 0 {
		req.Choices[1] = Conquer
	}
	return Conquer, nil
}

func TestOfferWrittenByAPlayerAllowsNothing(t *testing.T) {
	// A player writing into the offered values it was handed (View.Offered,
	// Request.Choices) changes nothing of what the rules allow: conquer,
	// when it was not offered, is refused and the first offered value
	// applied, the same in a clone and in a sample of the match.
	s := NewSeries(Original(), 1)
	s.Options = map[string]string{"turns": "20"}
	s.Game(engine.Seat[Value, View]{Name: "forger", Player: forger{}}, Seats(Random())[0])
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	refused, chosen := 0, 0
	for _, st := range recs[0].Steps {
		if st.Seat != 0 {
			continue
		}
		if st.Fault != nil {
			refused++
			if st.Fault.Kind != engine.FaultIllegal || st.Move == Conquer {
				t.Errorf("fault %v, move %v; want an illegal move replaced by the first offered value", st.Fault, st.Move)
			}
		} else if st.Move == Conquer {
			chosen++
		}
	}
	if refused == 0 || chosen == 0 {
		t.Errorf("conquer chosen when offered %d times, refused %d times; want both", chosen, refused)
	}

	m, err := Original().NewMatch(engine.Setup{Seed: 3, Players: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	for m.View(0).Offers(Conquer) {
		if err := m.Apply(0, m.View(0).Offered()[0]); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(1, m.View(1).Offered()[0]); err != nil {
			t.Fatal(err)
		}
	}
	sample, err := Original().Sample(engine.Setup{Seed: 3, Players: []string{"a", "b"}}, 0, m.View(0), rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for name, mm := range map[string]engine.Match[Value, View]{"match": m, "clone": m.Clone(), "sample": sample} {
		_, _ = forger{}.Decide(context.Background(), &mm.Pending()[0], mm.View(0))
		if err := mm.Apply(0, Conquer); !engine.IsRuleError(err) {
			t.Errorf("%s: conquer, not offered, after the offer was written into: %v; want it refused", name, err)
		}
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	// "snapshot: JSON round trip of the full state (turn, RNG, world,
	// pending)": a match restored from a snapshot plays on exactly as the
	// original does.
	seats, setup := basicSeatsN(t, 4)
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	play := func(m *Match, rounds int) {
		for r := 0; r < rounds && !m.Over(); r++ {
			reqs := m.Pending()
			for i := range reqs {
				// Answer all but the last of the round, to snapshot mid-round too.
				v, _ := seats[reqs[i].Seat].Player.Decide(context.Background(), &reqs[i], m.View(reqs[i].Seat))
				if err := m.Apply(reqs[i].Seat, v); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	play(m, 37)
	first := m.Pending()[0]
	if err := m.Apply(first.Seat, first.Default); err != nil {
		t.Fatal(err)
	}
	snap, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Original().RestoreMatch(setup, snap)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.MarshalJSON()
	if string(snap) != string(again) {
		t.Fatalf("snapshot round trip differs:\n%s\n%s", snap, again)
	}
	// Finish the open round and the game on both.
	for _, x := range []*Match{m, back} {
		for _, r := range x.Pending() {
			if err := x.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
		play(x, 1000)
	}
	a, _ := m.MarshalJSON()
	b, _ := back.MarshalJSON()
	if string(a) != string(b) {
		t.Error("the restored match played on differently")
	}
	for _, bad := range []string{`{}`, `{"variant":"flood"}`, strings.Replace(string(snap), `"kind":"turn"`, `"kind":"war"`, 1), `[`} {
		if _, err := Original().RestoreMatch(setup, []byte(bad)); err == nil {
			t.Errorf("Restore(%.40s) accepted", bad)
		}
	}
}

func basicSeatsN(t *testing.T, n int) ([]engine.Seat[Value, View], engine.Setup) {
	t.Helper()
	seats, setup := basicSeats(t)
	setup.Seed = 3
	return seats[:n], engine.Setup{Seed: 3, Players: setup.Players[:n]}
}

func TestSameSeedSameGame(t *testing.T) {
	// "Rules are deterministic given the match seed; the same seed and
	// moves give byte-identical results."
	play := func() []byte {
		s := NewSeries(Original(), 11)
		s.Game(Seats(Priority(Conquer), Random(), NewPlanner(), Priority(Exchange))...)
		recs, err := s.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		recs[0].WriteTo(&b)
		return []byte(b.String())
	}
	a, b := play(), play()
	if string(a) != string(b) {
		t.Error("two games with the same seed differ")
	}
	var end struct{ Hash string }
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	if json.Unmarshal([]byte(lines[len(lines)-1]), &end) != nil || !strings.HasPrefix(end.Hash, "sha256:") {
		t.Errorf("the record's last line %s has no state hash", lines[len(lines)-1])
	}
}

func FuzzParseWorld(f *testing.F) {
	w := NewWorld(3)
	w.Societies[2].Dead, w.Societies[2].Nation.Population = true, 0
	b, _ := json.Marshal(w)
	f.Add(b)
	f.Add([]byte(`{"feels":[[0]],"societies":[{"values":{"conquer":1,"exchange":1,"discover":1,"expand":1,"develop":1,"consent":1},"nation":{"population":1,"yield":-4}}],"yield":0}`))
	f.Add([]byte(`{"feels":[[0,1],[2]],"societies":[],"yield":1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorld(data)
		if err != nil {
			return
		}
		if err := w.Check(); err != nil {
			t.Fatalf("ParseWorld accepted a world that fails Check: %v", err)
		}
		// A world that parses survives a round trip and a step of each kind.
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseWorld(b)
		if err != nil {
			t.Fatalf("a parsed world does not parse again: %v\n%s", err, b)
		}
		if diff := cmp.Diff(w, back); diff != "" {
			t.Fatal(diff)
		}
		choices := make([]Value, len(w.Societies))
		for i := range choices {
			choices[i] = None
			if !w.Societies[i].Dead {
				choices[i] = w.Societies[i].Values.Top()[i%3]
			}
		}
		for _, kind := range []engine.Kind{TurnKind, InflectionKind} {
			next, err := Step(w, Moves{Kind: kind, Choices: choices}, 1)
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			for i, s := range next.Societies {
				if s.Dead && s.Nation.Population != 0 || !s.Dead && s.Nation.Population <= 0 {
					t.Fatalf("%s left society %d inconsistent: %+v", kind, i, s)
				}
			}
		}
	})
}

func FuzzParseMoves(f *testing.F) {
	f.Add([]byte(`{"kind":"turn","choices":["conquer",null,"develop"]}`))
	f.Add([]byte(`{"kind":"inflection","choices":[]}`))
	f.Add([]byte(`{"kind":"turn","choices":[1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		mv, err := ParseMoves(data)
		if err != nil {
			return
		}
		if mv.Kind != TurnKind && mv.Kind != InflectionKind {
			t.Fatalf("kind %q accepted", mv.Kind)
		}
		for _, c := range mv.Choices {
			if c != None && !c.Valid() {
				t.Fatalf("choice %v accepted", c)
			}
		}
		// Against any world: a clear answer, never a panic.
		_, _ = Step(NewWorld(max(1, min(len(mv.Choices), MaxSocieties))), mv, 0)
	})
}

func TestNoAllocationsPerTurn(t *testing.T) {
	// "0 allocations per turn in the rules step": a game allocates when it
	// starts and ends, never per turn; with a reused runner and record, a
	// long game allocates exactly what a short one does.
	seats, setup := basicSeats(t)
	var r engine.Runner[Value, View]
	rec := engine.NewRecord[Value](Original().Info(), setup)
	allocs := func(turns string) float64 {
		setup.Options = map[string]string{"turns": turns}
		return testing.AllocsPerRun(20, func() {
			m, err := Original().New(setup)
			if err != nil {
				t.Fatal(err)
			}
			rec.Reset(Original().Info(), setup)
			if err := r.Run(context.Background(), m, seats, rec); err != nil {
				t.Fatal(err)
			}
		})
	}
	allocs("500") // grow the record once
	if short, long := allocs("10"), allocs("500"); short != long {
		t.Errorf("%v allocations for a 10-turn game, %v for 500 turns", short, long)
	}
	w := NewWorld(6)
	rng := rand.New(rand.NewPCG(1, 1))
	choices := []Value{Conquer, Exchange, Discover, Expand, Develop, Consent}
	if n := testing.AllocsPerRun(100, func() { _ = (OriginalRules{}).Turn(&w, choices, rng) }); n != 0 {
		t.Errorf("a turn of the rules allocates %v times", n)
	}
}

func TestVariantNames(t *testing.T) {
	// A variant's name is 1 to 40 of a-z, 0-9, '_', '.', '-', the first a
	// letter or digit: the pattern ^[a-z0-9][a-z0-9_.-]{0,39}$, checked
	// without a regular expression.
	pattern := regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,39}$`)
	names := []string{"", "original", "a", "0", "_a", ".a", "-a", "a_b.c-d", "A", "aB", "a b", "a\n", "é",
		strings.Repeat("a", 40), strings.Repeat("a", 41), "a" + strings.Repeat("-", 39), "a/b", "a\x00"}
	for c := range 256 {
		names = append(names, string([]byte{byte(c)}), "x"+string([]byte{byte(c)}))
	}
	for _, name := range names {
		if got, want := validVariant(name), pattern.MatchString(name); got != want {
			t.Errorf("validVariant(%q) = %v; want %v", name, got, want)
		}
		_, err := Game{Variant: name, Rules: OriginalRules{}}.NewMatch(engine.Setup{Players: []string{"a", "b"}})
		if (err == nil) != pattern.MatchString(name) {
			t.Errorf("NewMatch with variant %q: %v", name, err)
		}
	}
}

func TestViewTellsAPersonTheirSocietyDied(t *testing.T) {
	// A person whose society dies is told so (player.Knockout).
	_, setup := basicSeatsN(t, 3)
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	if out := m.View(1).Out(); out != "" {
		t.Errorf("a living society's view says %q", out)
	}
	m.world.Societies[1].Dead = true
	if out, want := m.View(1).Out(), "Your society died: starvation left it with no people"; out != want {
		t.Errorf("a dead society's view says %q; want %q", out, want)
	}
}

func TestWorldViewCopyToIsCloneWithoutAllocating(t *testing.T) {
	// CopyTo gives the world Clone gives, owed feelings settled, in the
	// bot's own World, with no allocation once it has grown; writing into
	// the copy changes nothing of the match's.
	m, err := Original().NewMatch(engine.Setup{Seed: 8, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "25"}})
	if err != nil {
		t.Fatal(err)
	}
	var w World
	lagged := 0
	for turn := 0; !m.Over(); turn++ {
		v := m.View(1).World()
		if v.lagging() {
			lagged++
		}
		v.CopyTo(&w)
		if diff := cmp.Diff(v.Clone(), w); diff != "" {
			t.Fatalf("turn %d: CopyTo differs from Clone:\n%s", turn, diff)
		}
		if n := testing.AllocsPerRun(10, func() { v.CopyTo(&w) }); n != 0 {
			t.Fatalf("turn %d: CopyTo allocates %v times", turn, n)
		}
		before := v.Clone()
		w.Yield, w.Feels[0][1], w.Societies[2].Values[Conquer] = -1, 99, 77
		if diff := cmp.Diff(before, v.Clone()); diff != "" {
			t.Fatalf("turn %d: writing into the copy changed the match:\n%s", turn, diff)
		}
		for _, r := range m.Pending() {
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
	}
	if lagged == 0 {
		t.Error("no turn owed feelings to the world: the test did not see CopyTo settle them")
	}
}

func TestWorldViewMarshalsAsTheWorld(t *testing.T) {
	// A view's world is written in JSON as the world it shows, owed
	// feelings settled: the JSON of the world a program is sent.
	m, err := Original().NewMatch(engine.Setup{Seed: 8, Players: []string{"a", "b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0).World()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v.Clone())
	if string(got) != string(want) || string(got) == "{}" {
		t.Errorf("a WorldView as JSON: %s; want the world, %s", got, want)
	}
}
