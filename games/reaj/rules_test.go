package reaj

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

// Each test checks one rule of seed 001_2b2a79bec75b8b8f.txt as settled by
// the rules page (rules/reaj.md), and quotes it.

// turn plays one turn on a copy of st with the given choices.
func turn(t *testing.T, st State, choices ...Value) State {
	t.Helper()
	st = st.Clone()
	if err := Turn(&st, 7, choices, engine.NewRNG(1)); err != nil {
		t.Fatal(err)
	}
	return st
}

func newMatch(t *testing.T, seats int, options map[string]string) *Match {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: make([]string, seats), Options: options})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRuleSetup(t *testing.T) {
	// "2 to 16 seats. Environment: land 10, ecology 10, resources 10."
	// "Each society: resources 10, every value 0 (conquer, exchange, expand,
	// develop, consent, adapt), index = its seat, and the shared relations
	// matrix, where relations[i][j] is society i's disposition toward j (all
	// 0)." "100 turns by default."
	for _, n := range []int{1, 17} {
		if _, err := (Game{}).New(engine.Setup{Players: make([]string, n)}); err == nil {
			t.Errorf("%d seats accepted", n)
		}
	}
	m := newMatch(t, 3, nil)
	want := State{
		Environment: Environment{Land: 10, Ecology: 10, Resources: 10},
		Societies:   []Society{{Resources: 10}, {Resources: 10}, {Resources: 10}},
		Relations:   [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
	}
	if diff := cmp.Diff(want, m.state); diff != "" {
		t.Error(diff)
	}
	if m.turns != 100 {
		t.Errorf("%d turns; want 100", m.turns)
	}
}

func TestRuleGrowth(t *testing.T) {
	// "The environment's resources grow by its ecology (never by a negative
	// amount)."
	st := NewState(2)
	st.Environment.Ecology = 7
	if got := turn(t, st, Conquer, Conquer).Environment.Resources; got != 17 {
		t.Errorf("resources %d; want 10 + 7", got)
	}
	st.Environment.Ecology = 0
	if got := turn(t, st, Conquer, Conquer).Environment.Resources; got != 10 {
		t.Errorf("resources %d with no ecology; want 10", got)
	}
}

func TestRuleRise(t *testing.T) {
	// "Every living society chooses one of the six values at once; each
	// chosen value rises by 1 before effects are computed."
	st := turn(t, NewState(6), Conquer, Exchange, Expand, Develop, Consent, Adapt)
	for i, s := range st.Societies {
		for v, d := range s.Values {
			if want := b(v == i); d != want {
				t.Errorf("society %d's %v is %d; want %d", i, Value(v), d, want)
			}
		}
	}
}

func b(x bool) int {
	if x {
		return 1
	}
	return 0
}

func TestRuleConquer(t *testing.T) {
	// "conquer: +1 resource for every other society (dead ones too:
	// counting them does not affect them) whose conquer is lower than yours;
	// every other living society's disposition toward you −1."
	st := NewState(4)
	st.Societies[0].Values[Conquer] = 3 // after the rise 4
	st.Societies[1].Values[Conquer] = 4 // equal: not lower
	st.Societies[2].Values[Conquer] = 1
	st.Societies[3] = Society{Values: Values{Conquer: 2}, Dead: true, Died: 3}
	after := turn(t, st, Conquer, Consent, Consent, None)
	// Society 0 gains 2 (societies 2 and 3); the upkeep of its values is 0.
	if got := after.Societies[0].Resources; got != 12 {
		t.Errorf("conqueror's resources %d; want 12", got)
	}
	for _, j := range []int{1, 2} {
		if got := after.Relations[j][0]; got != -1 {
			t.Errorf("society %d's disposition toward the conqueror %d; want -1", j, got)
		}
	}
	if got := after.Relations[3][0]; got != 0 {
		t.Errorf("the dead's disposition changed to %d", got)
	}
	if diff := cmp.Diff(st.Societies[3], after.Societies[3]); diff != "" {
		t.Errorf("counting the dead touched them: %s", diff)
	}
}

func TestRuleExchange(t *testing.T) {
	// "exchange: +1 resource for every other society (dead ones too) whose
	// disposition toward you is positive."
	st := NewState(4)
	st.Relations[1][0], st.Relations[2][0], st.Relations[3][0] = 2, 0, 5
	st.Societies[3] = Society{Dead: true}
	after := turn(t, st, Exchange, Adapt, Adapt, None)
	if got := after.Societies[0].Resources; got != 12 {
		t.Errorf("trader's resources %d; want 10 + 2", got)
	}
}

func TestRuleExpand(t *testing.T) {
	// "expand: land −1 and +3 resources."
	st := turn(t, NewState(2), Expand, Adapt)
	if st.Environment.Land != 9 {
		t.Errorf("land %d; want 9", st.Environment.Land)
	}
	// +3, then upkeep: adapt 0 − expand 1.
	if got := st.Societies[0].Resources; got != 10+3-1 {
		t.Errorf("expander's resources %d; want 12", got)
	}
}

func TestRuleLandShared(t *testing.T) {
	// "Land never goes below 0: when more societies expand than land
	// remains, the remaining land goes to expanders in a random order (the
	// match RNG shuffles them, listed in seat order); an expander that gets
	// no land gains nothing, but its expand value has still risen (and costs
	// upkeep)."
	st := NewState(4)
	st.Environment.Land = 2
	pcg := engine.NewRNG(5)
	// The documented order: Fisher–Yates over [0 1 2 3] from the last.
	order := []int{0, 1, 2, 3}
	twin := engine.NewRNG(5)
	for k := 3; k > 0; k-- {
		j := int(engine.Below(twin, uint64(k+1)))
		order[k], order[j] = order[j], order[k]
	}
	after := st.Clone()
	if err := Turn(&after, 1, []Value{Expand, Expand, Expand, Expand}, pcg); err != nil {
		t.Fatal(err)
	}
	if after.Environment.Land != 0 {
		t.Errorf("land %d; want 0", after.Environment.Land)
	}
	for pos, i := range order {
		s := after.Societies[i]
		want := 10 - 1 // upkeep only
		if pos < 2 {
			want += 3
		}
		if s.Resources != want || s.Values[Expand] != 1 {
			t.Errorf("society %d (drawn %d): %+v; want resources %d and expand 1", i, pos, s, want)
		}
	}
	// Enough land: no draw at all.
	before, _ := pcg.MarshalBinary()
	st.Environment.Land = 5
	if err := Turn(&st, 2, []Value{Expand, Expand, Adapt, Adapt}, pcg); err != nil {
		t.Fatal(err)
	}
	if after, _ := pcg.MarshalBinary(); string(before) != string(after) {
		t.Error("the RNG was drawn with land enough for every expander")
	}
}

func TestRuleDevelop(t *testing.T) {
	// "develop: ecology −1 and +3 resources. Ecology never goes below 0; the
	// same random sharing applies when ecology runs out."
	st := NewState(3)
	st.Environment.Ecology = 1
	after := turn(t, st, Develop, Develop, Adapt)
	got := 0
	for i := 0; i < 2; i++ {
		if after.Societies[i].Resources == 10+3-1 {
			got++
		}
	}
	if got != 1 {
		t.Errorf("%d developers got the last ecology; want 1", got)
	}
	// The adapter adds 1 after develop has taken its share: 1 − 1 + 1.
	if after.Environment.Ecology != 1 {
		t.Errorf("ecology %d; want 1", after.Environment.Ecology)
	}
}

func TestRuleConsent(t *testing.T) {
	// "consent: every other living society's disposition toward you +1."
	st := NewState(3)
	st.Societies[2] = Society{Dead: true}
	after := turn(t, st, Consent, Adapt, None)
	if after.Relations[1][0] != 1 || after.Relations[2][0] != 0 {
		t.Errorf("relations toward the consenter: %d from the living, %d from the dead; want 1 and 0", after.Relations[1][0], after.Relations[2][0])
	}
}

func TestRuleAdapt(t *testing.T) {
	// "adapt: ecology +1 (after develop has taken its share)."
	st := NewState(3)
	st.Environment.Ecology = 0
	after := turn(t, st, Develop, Adapt, Adapt)
	if after.Environment.Ecology != 2 {
		t.Errorf("ecology %d; want 0 (develop finds none) + 2", after.Environment.Ecology)
	}
	if after.Societies[0].Resources != 10-1 {
		t.Errorf("the developer got %d; with no ecology left it gains nothing but pays upkeep", after.Societies[0].Resources)
	}
}

func TestRuleSimultaneous(t *testing.T) {
	// "Effects are computed from the state after step 2 and applied
	// together": an exchange counts the dispositions as they were, before a
	// consent in the same turn raises them.
	st := NewState(2)
	st.Relations[1][0] = 0
	after := turn(t, st, Exchange, Consent)
	if got := after.Societies[0].Resources; got != 10 {
		t.Errorf("trader's resources %d; the consent toward 1 comes too late for 0's exchange, and 0 is not the consenter", got)
	}
	st.Relations[0][1] = 0
	after = turn(t, st, Consent, Exchange)
	if got := after.Societies[1].Resources; got != 10 {
		t.Errorf("trader's resources %d; 0's consent this turn must not count yet", got)
	}
}

func TestRuleUpkeep(t *testing.T) {
	// "Upkeep, for every living society in seat order: resources += adapt −
	// (expand + develop) (the society's totals)."
	st := NewState(2)
	st.Societies[0].Values = Values{Adapt: 5, Expand: 1, Develop: 1}
	after := turn(t, st, Adapt, Adapt)
	if got := after.Societies[0].Resources; got != 10+(6-2) {
		t.Errorf("resources %d; want 10 + 6 − 2", got)
	}
}

func TestRuleShortfall(t *testing.T) {
	// "If that leaves a society negative, it draws the shortfall from the
	// environment's resources; if the environment has less than the
	// shortfall, the environment gives what it has and the society dies with
	// 0 resources."
	st := NewState(3)
	st.Environment = Environment{Land: 10, Ecology: 0, Resources: 4}
	st.Societies[0] = Society{Resources: 1, Values: Values{Expand: 3}}  // upkeep −3
	st.Societies[1] = Society{Resources: 0, Values: Values{Develop: 9}} // upkeep −9
	after := turn(t, st, Conquer, Conquer, Conquer)
	// Seat order: society 0 is short by 2 (1 − 3) and draws 2; society 1 is
	// short by 9, the environment has 2 left: it gives them and 1 dies.
	if s := after.Societies[0]; s.Resources != 0 || s.Dead {
		t.Errorf("society 0: %+v; want alive with 0", s)
	}
	if s := after.Societies[1]; s.Resources != 0 || !s.Dead || s.Died != 7 {
		t.Errorf("society 1: %+v; want dead with 0 resources, died on turn 7", s)
	}
	if after.Environment.Resources != 0 {
		t.Errorf("environment's resources %d; want 0", after.Environment.Resources)
	}
}

func TestRuleDeadUntouched(t *testing.T) {
	// "Dead societies make no choices and are not affected by anyone's
	// choices (their resources, values and their row and column of the
	// relations matrix stay as they were), but they are scored."
	st := NewState(3)
	st.Societies[2] = Society{Values: Values{Consent: 4}, Dead: true, Died: 2}
	st.Relations[2][0], st.Relations[0][2] = 3, 2
	for _, c := range AllValues {
		after := turn(t, st, c, c, None)
		if diff := cmp.Diff(st.Societies[2], after.Societies[2]); diff != "" {
			t.Errorf("%v touched the dead: %s", c, diff)
		}
		for k := range 3 {
			if after.Relations[2][k] != st.Relations[2][k] || after.Relations[k][2] != st.Relations[k][2] {
				t.Errorf("%v changed the dead's row or column of relations", c)
			}
		}
	}
	m := newMatch(t, 3, nil)
	m.state, m.living = st, st.Living()
	m.open()
	for _, r := range m.Pending() {
		if r.Seat == 2 {
			t.Error("a dead society was asked")
		}
	}
	if err := m.Apply(2, Adapt); !engine.IsRuleError(err) {
		t.Errorf("a dead society's choice: %v", err)
	}
}

func TestRuleScoring(t *testing.T) {
	// "After the last turn every society, dead or alive, scores resources +
	// Σ max(0, relations[j][i]) over j != i. Highest score wins; equal
	// highest scores share the win."
	m := newMatch(t, 3, map[string]string{"turns": "1"})
	m.state.Relations[1][0], m.state.Relations[2][0] = 5, -3 // negatives do not count
	m.state.Relations[0][2] = 5
	m.state.Societies[2] = Society{Dead: true, Died: 1}
	m.living = 2
	m.open()
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, Conquer); err != nil {
			t.Fatal(err)
		}
	}
	res := m.Result()
	// After the turn: 0 conquered (+1: society 2 has a lower conquer) and
	// lost 1 of 1's goodwill; 1 conquered too (equal conquer with 0, higher
	// than the dead 2's: +1).
	want := []int64{10 + 1 + 4, 10 + 1, 0 + 5}
	if diff := cmp.Diff(want, res.Scores); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
	if !res.Won(0) || len(res.Winners) != 1 || res.Ranks[2] != 3 {
		t.Errorf("result %+v", res)
	}
	m2 := newMatch(t, 2, map[string]string{"turns": "1"})
	for _, r := range m2.Pending() {
		m2.Apply(r.Seat, Adapt)
	}
	if res := m2.Result(); len(res.Winners) != 2 {
		t.Errorf("equal scores %v: winners %v; want both", res.Scores, res.Winners)
	}
}

func TestRuleDefault(t *testing.T) {
	// "Default on timeout/crash/invalid answer: adapt, recorded as a
	// fault."
	m := newMatch(t, 2, nil)
	for _, r := range m.Pending() {
		if r.Default != Adapt || len(r.Choices) != NumValues {
			t.Errorf("request %+v; want all six values offered, adapt the default", r)
		}
	}
}

func TestStateJSON(t *testing.T) {
	// The state JSON: {environment:{land,ecology,resources},
	// societies:[{resources, values, dead?}], relations:[[...]]}.
	st := NewState(2)
	st.Societies[1] = Society{Dead: true, Died: 4}
	b, _ := json.Marshal(st)
	const want = `{"environment":{"land":10,"ecology":10,"resources":10},"societies":[` +
		`{"resources":10,"values":{"conquer":0,"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0}},` +
		`{"resources":0,"values":{"conquer":0,"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0},"dead":true,"died":4}],` +
		`"relations":[[0,0],[0,0]]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	back, err := ParseState(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, back); diff != "" {
		t.Error(diff)
	}
}

func TestStateJSONErrorsNameTheSociety(t *testing.T) {
	// The state JSON: "societies:[{resources, values, dead?}]". Values
	// that are not the six whole numbers name the society they belong
	// to, as a missing resources or values does.
	st := NewState(3)
	b, _ := json.Marshal(st)
	values := `{"conquer":0,"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0}`
	third := strings.LastIndex(string(b), values)
	for _, c := range []struct{ values, want string }{
		{`{"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0}`, "state: societies[2]: values: conquer is missing"},
		{`{"conquer":0.5,"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0}`, "state: societies[2]: values.conquer: want a whole number, got 0.5"},
		{`{"conquer":0,"exchange":0,"expand":0,"develop":0,"consent":0,"adapt":0,"bribe":1}`, `state: societies[2]: values: unknown key "bribe"`},
		{`null`, "state: societies[2].values is missing"},
	} {
		in := string(b[:third]) + c.values + string(b[third+len(values):])
		if _, err := ParseState([]byte(in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("values %s: %v; want %q", c.values, err, c.want)
		}
	}
}

func TestParseStateRefusesADispositionTowardItself(t *testing.T) {
	// A society's disposition toward itself counts in no score and no
	// exchange, and no choice changes it: a state written by hand with a
	// number there is refused, naming the entry.
	st := NewState(3)
	st.Relations[2][2] = -3
	b, _ := json.Marshal(st)
	want := "state: relations[2][2] is -3, society 3's disposition toward itself, which no rule reads; it must be 0"
	if _, err := ParseState(b); err == nil || err.Error() != want {
		t.Errorf("%v; want %q", err, want)
	}
}
