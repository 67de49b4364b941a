package tncc

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

// Each test here checks one rule of the seed (002_416829ef34f7a222.txt) as
// settled by the rules page (rules/tncc.md), and quotes it.

// rulesMatch starts a match of n countries on preset p (nil: the default).
func rulesMatch(t *testing.T, n int, p *Preset) *Match {
	t.Helper()
	setup := engine.Setup{Seed: 1, Players: make([]string, n)}
	if p != nil {
		setup.Options = map[string]string{"preset": p.Option()}
	}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// rulesPlay applies seat's move, which must be the one asked for and legal.
func rulesPlay(t *testing.T, m *Match, seat int, mv Move) {
	t.Helper()
	req := m.Pending()
	if len(req) != 1 {
		t.Fatalf("%d requests pending; want 1 (for country %d's %v)", len(req), seat+1, mv)
	}
	if req[0].Seat != seat {
		t.Fatalf("country %d is asked (%s); the test wants country %d to play %v", req[0].Seat+1, req[0].Kind, seat+1, mv)
	}
	if err := m.Apply(seat, mv); err != nil {
		t.Fatalf("country %d: %v: %v", seat+1, mv, err)
	}
}

// rulesAsked returns the seat asked now and what for.
func rulesAsked(t *testing.T, m *Match) (int, engine.Kind) {
	t.Helper()
	req := m.Pending()
	if len(req) != 1 {
		t.Fatalf("%d requests pending; want 1", len(req))
	}
	return req[0].Seat, req[0].Kind
}

// wantRefused checks that err is a *engine.RuleError whose message says why
// (it contains every one of words).
func wantRefused(t *testing.T, what string, err error, words ...string) {
	t.Helper()
	var re *engine.RuleError
	if !errors.As(err, &re) {
		t.Errorf("%s: got %v (%T); want a *engine.RuleError", what, err, err)
		return
	}
	if re.Msg == "" {
		t.Errorf("%s: refused without a reason", what)
	}
	for _, w := range words {
		if !strings.Contains(re.Msg, w) {
			t.Errorf("%s: refused with %q; want the reason to mention %q", what, re.Msg, w)
		}
	}
}

func rulesPreset(f func(p *Preset)) *Preset {
	p := Default()
	p.Name = "test"
	f(&p)
	return &p
}

func TestRuleSeats(t *testing.T) {
	// "2 to 12 seats. Each country holds five whole-number resources: gold,
	// food, citizens (population), army (military), land; and is alive or
	// dead." (Start values: the preset's table.)
	for _, n := range []int{0, 1, 13} {
		if _, err := (Game{}).New(engine.Setup{Players: make([]string, n)}); err == nil {
			t.Errorf("%d seats accepted", n)
		}
	}
	for _, n := range []int{2, 5, 12} {
		m := rulesMatch(t, n, nil)
		if len(m.world.Countries) != n || m.world.Cycle != 1 {
			t.Fatalf("%d seats: %d countries in cycle %d", n, len(m.world.Countries), m.world.Cycle)
		}
		for i, c := range m.world.Countries {
			if want := (Country{Stock: Stock{600, 800, 800, 0, 150}}); c != want {
				t.Errorf("%d seats: country %d starts as %+v; want %+v", n, i+1, c, want)
			}
		}
	}
	m, err := Game{}.NewMatch(engine.Setup{Players: make([]string, 2), Options: map[string]string{"preset": "tribe"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.world.Countries[1].Stock; got != (Stock{50, 400, 100, 10, 50}) {
		t.Errorf("the tribe preset starts countries with %v", got)
	}
	if _, err := (Game{}).NewMatch(engine.Setup{Players: make([]string, 2), Options: map[string]string{"preset": "nope"}}); err == nil {
		t.Error("an unknown preset was accepted")
	}
}

func TestRuleCycleOrder(t *testing.T) {
	// "A cycle: every living country takes one turn, in seat order; then
	// production runs for every living country, in seat order."
	m := rulesMatch(t, 4, nil)
	// Country 2 dies in cycle 1: country 1 buys all its citizens.
	rulesPlay(t, m, 0, TradeMove(1, Gold, 1, Citizens, 800))
	rulesPlay(t, m, 1, AcceptMove)
	dead := m.world.Countries[1]
	if !dead.Dead || dead.Died != 1 {
		t.Fatalf("country 2 with no citizens: %+v; want dead in cycle 1", dead)
	}
	type turn struct{ Cycle, Seat int }
	var got []turn
	for range 7 {
		seat, kind := rulesAsked(t, m)
		if kind != TurnKind {
			t.Fatalf("asked for a %s", kind)
		}
		got = append(got, turn{m.world.Cycle, seat})
		if seat == 3 && m.world.Cycle == 1 {
			// Production has not run before the last country's turn.
			if s := m.world.Countries[2].Stock; s != (Stock{600, 800, 800, 0, 150}) {
				t.Errorf("country 3 before the last turn of cycle 1: %v; production ran early", s)
			}
		}
		rulesPlay(t, m, seat, WaitMove)
	}
	want := []turn{{1, 2}, {1, 3}, {2, 0}, {2, 2}, {2, 3}, {3, 0}, {3, 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("turns (cycle, seat) -want +got:\n%s", diff)
	}
	// Production ran twice for every living country, and not for the dead.
	// Cycle 1: country 1 (599 gold, 1600 citizens) makes 800 food and 400
	// gold; 1600 × 1.07 = 1712 is capped at 150 × 10 = 1500. Countries 3 and
	// 4 make 400 food and 200 gold and grow to ⌊800 × 1.07⌋ = 856.
	// Cycle 2: country 1 makes 750 food and 375 gold, and stays at the cap;
	// countries 3 and 4 make 428 food, 214 gold, and grow to ⌊915.92⌋ = 915.
	wantStocks := []Stock{
		{599 + 400 + 375, 800 + 800 + 750, 1500, 0, 150},
		dead.Stock,
		{600 + 200 + 214, 800 + 400 + 428, 915, 0, 150},
		{600 + 200 + 214, 800 + 400 + 428, 915, 0, 150},
	}
	for i, c := range m.world.Countries {
		if c.Stock != wantStocks[i] {
			t.Errorf("country %d after two productions: %v; want %v", i+1, c.Stock, wantStocks[i])
		}
	}
	if m.world.Countries[1] != dead {
		t.Errorf("the dead country changed: %+v; was %+v", m.world.Countries[1], dead)
	}
}

func TestRuleDeathAfterAction(t *testing.T) {
	// "A country with no citizens left has lost: it is dead. This is checked
	// after every action (a recruit or trade can empty a country) and after
	// production."
	m := rulesMatch(t, 3, nil)
	rulesPlay(t, m, 0, RecruitMove(800))
	if c := m.world.Countries[0]; !c.Dead || c.Died != 1 || c.Stock != (Stock{600, 800, 0, 800, 150}) {
		t.Errorf("country 1 after recruiting every citizen: %+v; want dead in cycle 1, its numbers kept", c)
	}
	// The offerer empties itself in a trade.
	rulesPlay(t, m, 1, TradeMove(2, Citizens, 800, Gold, 0))
	rulesPlay(t, m, 2, AcceptMove)
	if !m.world.Countries[1].Dead {
		t.Errorf("country 2 traded away every citizen and lives: %+v", m.world.Countries[1])
	}
	if !m.Over() {
		t.Error("one country is left, and the game goes on")
	}
}

func TestRuleWait(t *testing.T) {
	// "`wait`." — the turn passes and nothing changes.
	m := rulesMatch(t, 2, nil)
	before := m.world.Clone()
	rulesPlay(t, m, 0, WaitMove)
	if diff := cmp.Diff(before, m.world); diff != "" {
		t.Errorf("wait changed the world:\n%s", diff)
	}
	if seat, _ := rulesAsked(t, m); seat != 1 {
		t.Errorf("after country 1's wait, country %d is asked", seat+1)
	}
	if e := m.History()[0]; e.Type != Wait || e.Seat != 0 || e.Cycle != 1 || e.Refused != "" {
		t.Errorf("history: %+v", e)
	}
}

func TestRuleRecruit(t *testing.T) {
	// "`recruit N`: N citizens become army at once (N may be negative: army
	// back to citizens). Legal when citizens − N ≥ 0 and army + N ≥ 0."
	legal := []struct {
		citizens, army, n int64
	}{
		{800, 0, 50},
		{800, 0, 0},
		{800, 0, 800}, // citizens − N = 0: legal (and deadly)
		{700, 100, -40},
		{700, 100, -100}, // army + N = 0
	}
	for _, c := range legal {
		w := NewWorld(Default(), 2)
		w.Countries[0].Stock[Citizens], w.Countries[0].Stock[Army] = c.citizens, c.army
		if err := w.Check(0, RecruitMove(c.n)); err != nil {
			t.Errorf("recruit %d with %d citizens and %d soldiers refused: %v", c.n, c.citizens, c.army, err)
			continue
		}
		w.Recruit(0, c.n)
		if s := w.Countries[0].Stock; s[Citizens] != c.citizens-c.n || s[Army] != c.army+c.n {
			t.Errorf("recruit %d: %d citizens and %d soldiers; want %d and %d", c.n, s[Citizens], s[Army], c.citizens-c.n, c.army+c.n)
		}
	}
	illegal := []struct {
		citizens, army, n int64
		why               string
	}{
		{800, 0, 801, "800 citizens"},
		{700, 100, -101, "100 soldiers"},
		{800, 0, -1, "no soldiers to send back"},
		{800, 0, math.MinInt64, "no soldiers to send back"},
		{800, 0, math.MaxInt64, "800 citizens"},
	}
	for _, c := range illegal {
		w := NewWorld(Default(), 2)
		w.Countries[0].Stock[Citizens], w.Countries[0].Stock[Army] = c.citizens, c.army
		wantRefused(t, RecruitMove(c.n).String(), w.Check(0, RecruitMove(c.n)), c.why)
	}
	// Through a match, "at once": the next country sees the army.
	m := rulesMatch(t, 2, nil)
	rulesPlay(t, m, 0, RecruitMove(50))
	if got := m.View(1).Country(0).Stock; got[Army] != 50 || got[Citizens] != 750 {
		t.Errorf("after recruit 50, country 2 sees %v", got)
	}
	rulesPlay(t, m, 1, WaitMove) // production: 750 citizens make 375 food, pay 50 food and 5 gold.
	rulesPlay(t, m, 0, RecruitMove(-50))
	if got := m.world.Countries[0].Stock; got[Army] != 0 || got[Citizens] != 802+50 {
		t.Errorf("after recruit -50: %v; want 852 citizens, no army", got)
	}
	if n, ok := m.History()[0].Recruited(); !ok || n != 50 {
		t.Errorf("history: recruit %d, %v", n, ok)
	}
}

func TestRuleTradeLegal(t *testing.T) {
	// "`trade WITH GIVE_RES GIVE_N TAKE_RES TAKE_N`: an offer to another
	// living country. At least one side is gold; amounts ≥ 0 and not both
	// 0; each side holds what it would hand over when the offer is made."
	w := NewWorld(Default(), 4)
	w.Countries[2].Dead, w.Countries[2].Stock[Citizens] = true, 0
	w.Countries[1].Stock[Food] = 300
	legal := []Move{
		TradeMove(1, Gold, 100, Food, 200),
		TradeMove(1, Food, 800, Gold, 600),  // exactly what each side holds
		TradeMove(1, Gold, 600, Food, 300),  // the partner's whole stock
		TradeMove(1, Gold, 0, Food, 5),      // one amount 0: a gift asked
		TradeMove(1, Land, 5, Gold, 0),      // or given
		TradeMove(3, Gold, 10, Gold, 20),    // gold on both sides is "at least one side"
		TradeMove(3, Citizens, 1, Gold, 1),  // any of the five resources
		TradeMove(3, Gold, 1, Army, 0),      // the partner has no army, and gives none
		TradeMove(3, Gold, 1, Citizens, 10), //
	}
	for _, mv := range legal {
		if err := w.Check(0, mv); err != nil {
			t.Errorf("%v refused: %v", mv, err)
		}
	}
	illegal := []struct {
		mv  Move
		why string
	}{
		{TradeMove(1, Food, 10, Land, 1), "gold"},
		{TradeMove(1, Gold, -1, Food, 10), "0 or more"},
		{TradeMove(1, Gold, 10, Food, -1), "0 or more"},
		{TradeMove(1, Gold, 0, Food, 0), "above 0"},
		{TradeMove(1, Gold, 601, Food, 1), "hold 600"},
		{TradeMove(1, Gold, 1, Food, 301), "holds 300"},
		{TradeMove(1, Gold, 1, Army, 1), "holds 0"},
		{TradeMove(0, Gold, 1, Food, 1), "yourself"},
		{TradeMove(2, Gold, 1, Food, 1), "dead"},
		{TradeMove(4, Gold, 1, Food, 1), "no country 5"},
		{TradeMove(-1, Gold, 1, Food, 1), "no country"},
		{TradeMove(1, Resource(5), 1, Gold, 1), "resources"},
	}
	for _, c := range illegal {
		wantRefused(t, c.mv.String(), w.Check(0, c.mv), c.why)
	}
	// A dead country may not offer.
	wantRefused(t, "a dead offerer", w.Check(2, TradeMove(0, Gold, 0, Food, 1)), "dead")
}

func TestRuleTradeOfGoldForGoldAndAGiftArePlayed(t *testing.T) {
	// The seed: "One of the resources in the exchange must be gold." The
	// rules: "At least one side is gold; amounts ≥ 0 and not both 0." Gold
	// on both sides has gold on one side, and one amount 0 is not both:
	// neither is refused, and each moves what it says when accepted, a
	// program's move as a person's.
	m := rulesMatch(t, 3, nil)
	var goldForGold, gift Move
	if err := json.Unmarshal([]byte(`{"type": "trade", "with": 1, "give": "gold", "give_n": 10, "take": "gold", "take_n": 30}`), &goldForGold); err != nil {
		t.Fatal(err)
	}
	if err := gift.UnmarshalText([]byte("trade 3 gold 0 food 50")); err != nil {
		t.Fatal(err)
	}
	rulesPlay(t, m, 0, goldForGold)
	rulesPlay(t, m, 1, AcceptMove)
	if a, b := m.world.Countries[0].Stock[Gold], m.world.Countries[1].Stock[Gold]; a != 620 || b != 580 {
		t.Errorf("gold 10 for gold 30, accepted: %d and %d gold; want 620 and 580", a, b)
	}
	rulesPlay(t, m, 1, gift) // country 2 asks country 3 for 50 food, and gives nothing
	rulesPlay(t, m, 2, AcceptMove)
	if a, b := m.world.Countries[1].Stock, m.world.Countries[2].Stock; a[Food] != 850 || b[Food] != 750 || a[Gold] != 580 || b[Gold] != 600 {
		t.Errorf("gold 0 for food 50, accepted: %v and %v; want 850 and 750 food, gold unmoved", a, b)
	}
}

func TestRuleTradeAnswer(t *testing.T) {
	// "The other country answers yes or no at once; yes moves both amounts
	// instantly; no spends the offerer's turn. Any of the five resources may
	// be traded."
	m := rulesMatch(t, 3, nil)
	rulesPlay(t, m, 0, TradeMove(1, Gold, 100, Food, 200))
	if seat, kind := rulesAsked(t, m); seat != 1 || kind != TradeAnswerKind {
		t.Fatalf("country %d is asked for a %s; want country 2's trade answer", seat+1, kind)
	}
	if o, ok := m.View(1).Offer(); !ok || o != (Offer{From: 0, With: 1, Give: Gold, GiveN: 100, Take: Food, TakeN: 200}) {
		t.Errorf("country 2 is offered %+v, %v", o, ok)
	}
	if _, ok := m.View(2).Offer(); ok {
		t.Error("country 3 sees an offer made to country 2")
	}
	rulesPlay(t, m, 1, AcceptMove)
	if a, b := m.world.Countries[0].Stock, m.world.Countries[1].Stock; a[Gold] != 500 || a[Food] != 1000 || b[Gold] != 700 || b[Food] != 600 {
		t.Errorf("after yes: %v and %v; want 500 gold 1000 food, 700 gold 600 food", a, b)
	}
	// No: nothing moves, and the offerer's turn is spent.
	rulesPlay(t, m, 1, TradeMove(2, Land, 10, Gold, 50))
	before := m.world.Clone()
	rulesPlay(t, m, 2, DeclineMove)
	if diff := cmp.Diff(before, m.world); diff != "" {
		t.Errorf("a declined offer changed the world:\n%s", diff)
	}
	if seat, kind := rulesAsked(t, m); seat != 2 || kind != TurnKind {
		t.Errorf("after country 2's declined offer, country %d is asked for a %s; want country 3's turn", seat+1, kind)
	}
	h := m.History()
	if o, yes, ok := h[0].Trade(); !ok || !yes || o.GiveN != 100 || o.From != 0 {
		t.Errorf("history: %+v %v %v", o, yes, ok)
	}
	if o, yes, ok := h[1].Trade(); !ok || yes || o.Give != Land || o.From != 1 {
		t.Errorf("history: %+v %v %v", o, yes, ok)
	}
	// Each of the five resources, both ways.
	for r := range Resource(NumResources) {
		w := NewWorld(Default(), 2)
		w.Countries[0].Stock[Army], w.Countries[1].Stock[Army] = 20, 20
		mv := TradeMove(1, r, 7, Gold, 3)
		if err := w.Check(0, mv); err != nil {
			t.Errorf("%v: %v", mv, err)
			continue
		}
		a0, b0 := w.Countries[0].Stock, w.Countries[1].Stock
		w.Trade(0, mv, true)
		a1, b1 := w.Countries[0].Stock, w.Countries[1].Stock
		a0[r] -= 7
		b0[r] += 7
		a0[Gold] += 3
		b0[Gold] -= 3
		if a0 != a1 || b0 != b1 {
			t.Errorf("%v: %v and %v; want %v and %v", mv, a1, b1, a0, b0)
		}
	}
}

func TestRuleWarLegal(t *testing.T) {
	// "`war TARGET L F R`: attack another living country with L, F, R
	// soldiers on the left, front and right flanks (each ≥ 0, sum ≤ army
	// ...). Requires gold ≥ `gold_for_war`"
	w := NewWorld(Default(), 4)
	w.Countries[0].Stock[Army], w.Countries[0].Stock[Gold] = 40, 1600
	w.Countries[2].Dead, w.Countries[2].Stock[Citizens] = true, 0
	legal := []Move{
		WarMove(1, Flanks{10, 0, 30}), // the whole army, and exactly gold_for_war
		WarMove(3, Flanks{1, 2, 3}),
		WarMove(1, Flanks{0, 0, 0}), // nobody sent: legal, and costs the gold
	}
	for _, mv := range legal {
		if err := w.Check(0, mv); err != nil {
			t.Errorf("%v refused: %v", mv, err)
		}
	}
	illegal := []struct {
		mv  Move
		why string
	}{
		{WarMove(0, Flanks{1, 1, 1}), "yourself"},
		{WarMove(2, Flanks{1, 1, 1}), "dead"},
		{WarMove(4, Flanks{1, 1, 1}), "no country 5"},
		{WarMove(1, Flanks{-1, 10, 10}), "left flank"},
		{WarMove(1, Flanks{10, 10, -1}), "right flank"},
		{WarMove(1, Flanks{10, 1, 30}), "army has 40"},
		{WarMove(1, Flanks{41, 0, 0}), "army has 40"},
		// Three flanks whose int64 sum wraps around to 0.
		{WarMove(1, Flanks{math.MaxInt64, math.MaxInt64, 2}), "army has 40"},
		{WarMove(1, Flanks{math.MaxInt64, 1, 0}), "army has 40"},
	}
	for _, c := range illegal {
		wantRefused(t, c.mv.String(), w.Check(0, c.mv), c.why)
	}
	w.Countries[0].Stock[Gold] = 1599
	wantRefused(t, "war with 1599 gold", w.Check(0, WarMove(1, Flanks{1, 1, 1})), "1600", "1599")
	// The defence: "each ≥ 0, sum ≤ its army".
	w.Countries[1].Stock[Army] = 15
	if err := w.CheckDefence(1, Flanks{5, 5, 5}); err != nil {
		t.Errorf("defence 5 5 5 with 15 soldiers: %v", err)
	}
	wantRefused(t, "defence 5 5 6", w.CheckDefence(1, Flanks{5, 5, 6}), "army has 15")
	wantRefused(t, "defence -1 0 0", w.CheckDefence(1, Flanks{-1, 0, 0}), "0 or more")
	wantRefused(t, "defence overflowing", w.CheckDefence(1, Flanks{math.MaxInt64, math.MaxInt64, 2}), "army has 15")
}

// flanksKeys returns the paths of every "flanks" key in the JSON document b.
func flanksKeys(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var found []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.EqualFold(k, "flanks") {
					found = append(found, path+"."+k)
				}
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	walk("", v)
	return found
}

func TestRuleWarInMatch(t *testing.T) {
	// "Requires gold ≥ `gold_for_war`, which is paid on declaring, win or
	// lose. The defender is told only the attacker and the total sent, and
	// answers with its own three flanks (each ≥ 0, sum ≤ its army)."
	// "Everyone may read the war afterwards as: attacker, defender, total
	// sent by each, survivors, winner, loot. Flank divisions are never
	// revealed."
	m := rulesMatch(t, 3, nil)
	m.world.Countries[0].Stock[Army], m.world.Countries[0].Stock[Gold] = 60, 2000
	m.world.Countries[1].Stock[Army] = 15
	rulesPlay(t, m, 0, WarMove(1, Flanks{10, 0, 30}))
	if seat, kind := rulesAsked(t, m); seat != 1 || kind != WarAnswerKind {
		t.Fatalf("country %d asked for a %s; want country 2's war answer", seat+1, kind)
	}
	if a, ok := m.View(1).Attack(); !ok || a != (Attack{From: 0, Sent: 40}) {
		t.Errorf("the defender is told %+v, %v; want the attacker and 40 in all", a, ok)
	}
	for _, s := range []int{0, 2} {
		if _, ok := m.View(s).Attack(); ok {
			t.Errorf("country %d is told of an attack on country 2", s+1)
		}
	}
	for name, v := range map[string]any{"the defender's view": m.View(1), "the public": m.Public(), "a bystander's view": m.View(2)} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if k := flanksKeys(t, b); len(k) > 0 {
			t.Errorf("%s's JSON has %v: %s", name, k, b)
		}
		if strings.Contains(string(b), "[10,0,30]") {
			t.Errorf("%s's JSON shows the flanks: %s", name, b)
		}
	}
	if !strings.Contains(m.View(1).String(), "40 soldiers") {
		t.Errorf("the defender's view does not say 40 soldiers attack:\n%s", m.View(1))
	}
	// Wave one (m1 = 2): left 10 − ⌊2·5⌋ = 0 and 5 − 10 → 0; front 0 and 5;
	// right 30 − 10 = 20 and 0. Wave two (m2 = 2): 20 − 5 = 15 attackers, 5 −
	// 40 → 0 defenders. Loot of r = 15: ⌊7.5⌋ gold, 15 food, ⌊1.5⌋ citizens,
	// no army, ⌊0.375⌋ land.
	rulesPlay(t, m, 1, DefendMove(Flanks{5, 5, 5}))
	a, d := m.world.Countries[0].Stock, m.world.Countries[1].Stock
	if want := (Stock{2000 - 1600 + 7, 815, 801, 60 - 40 + 15, 150}); a != want {
		t.Errorf("attacker %v; want %v", a, want)
	}
	if want := (Stock{593, 785, 799, 0, 150}); d != want {
		t.Errorf("defender %v; want %v", d, want)
	}
	h := m.History()
	bt, ok := h[len(h)-1].War()
	want := Battle{Attacker: 0, Defender: 1, Sent: 40, Defended: 15, AttackersLeft: 15, Outcome: AttackerWon, Loot: Stock{7, 15, 1, 0, 0}}
	if !ok || bt != want {
		t.Errorf("history: %+v; want %+v", bt, want)
	}
	b, err := json.Marshal(h[len(h)-1])
	if err != nil {
		t.Fatal(err)
	}
	const wantJSON = `{"cycle":1,"seat":0,"action":"war","war":{"attacker":0,"defender":1,"sent":40,"defended":15,` +
		`"attackers_left":15,"defenders_left":0,"winner":"attacker","loot":{"gold":7,"food":15,"citizens":1,"army":0,"land":0}}}`
	if string(b) != wantJSON {
		t.Errorf("the war in the history:\n got %s\nwant %s", b, wantJSON)
	}
	for name, v := range map[string]any{"the defender's view": m.View(1), "the public": m.Public()} {
		b, _ := json.Marshal(v)
		if k := flanksKeys(t, b); len(k) > 0 {
			t.Errorf("after the war, %s's JSON has %v", name, k)
		}
	}
}

func TestRuleIllegalRefused(t *testing.T) {
	// "An illegal action is refused with a message that says why; a bot's
	// illegal action becomes `wait` and is recorded as a fault." Refused,
	// the world is unchanged and the same country is asked again.
	m := rulesMatch(t, 3, nil)
	m.world.Countries[0].Stock[Army] = 10
	m.world.Countries[1].Stock[Army] = 6
	m.world.Countries[2].Dead, m.world.Countries[2].Stock[Citizens] = true, 0
	m.world.Countries[0].Stock[Gold] = 5000
	turns := []struct {
		mv  Move
		why string
	}{
		{RecruitMove(801), "800 citizens"},
		{RecruitMove(-11), "10 soldiers"},
		{TradeMove(1, Food, 1, Land, 1), "gold"},
		{TradeMove(1, Gold, 0, Food, 0), "above 0"},
		{TradeMove(1, Gold, 5001, Food, 0), "hold 5000"},
		{TradeMove(0, Gold, 1, Food, 1), "yourself"},
		{TradeMove(2, Gold, 1, Food, 1), "dead"},
		{WarMove(1, Flanks{5, 5, 1}), "army has 10"},
		{WarMove(2, Flanks{1, 1, 1}), "dead"},
		{WarMove(1, Flanks{-1, 0, 0}), "left flank"},
		{AcceptMove, "your turn"},
		{DefendMove(Flanks{1, 1, 1}), "your turn"},
	}
	check := func(what string, seat int, mv Move, why ...string) {
		t.Helper()
		before, hist, req := m.world.Clone(), len(m.History()), m.Pending()[0]
		wantRefused(t, what, m.Apply(seat, mv), why...)
		if diff := cmp.Diff(before, m.world); diff != "" {
			t.Errorf("%s: refused, and the world changed:\n%s", what, diff)
		}
		if now := m.Pending()[0]; len(m.History()) != hist || now.ID != req.ID || now.Seat != req.Seat || now.Kind != req.Kind {
			t.Errorf("%s: refused, and the match moved on", what)
		}
	}
	for _, c := range turns {
		check(c.mv.String(), 0, c.mv, c.why)
	}
	check("country 2 out of turn", 1, WaitMove, "country 1's move")
	// A bot's refused action becomes wait, recorded with the reason: the
	// runner (and a replay of its record) applies the default for the
	// fault, which says why.
	err := m.Apply(0, RecruitMove(801))
	wantRefused(t, "recruit 801", err)
	m.Defaulted(0, engine.Fault{Kind: engine.FaultIllegal, Detail: err.Error()})
	rulesPlay(t, m, 0, WaitMove)
	if e := m.History()[0]; e.Type != Wait || !strings.Contains(e.Refused, "800 citizens") {
		t.Errorf("the wait after a refusal is recorded as %+v; want the reason", e)
	}
	// A refused move itself changes nothing: a wait of a country's own
	// after it (a person tries again) is a plain wait.
	other := rulesMatch(t, 2, nil)
	wantRefused(t, "recruit 801", other.Apply(0, RecruitMove(801)))
	rulesPlay(t, other, 0, WaitMove)
	if e := other.History()[0]; e.Type != Wait || e.Refused != "" {
		t.Errorf("a wait after a refused action is recorded as %+v; want a plain wait", e)
	}
	// Answers: the trade's partner must answer yes or no; the defender, with
	// flanks it has.
	rulesPlay(t, m, 1, TradeMove(0, Gold, 1, Food, 1))
	// The answers a bot writes are said, as JSON, beside a person's words.
	check("a wait answering a trade", 0, WaitMove, `accept or decline ({"accept": true} or {"accept": false}; yes or no at a prompt), not wait`)
	check("flanks answering a trade", 0, DefendMove(Flanks{}), "accept or decline")
	check("country 2 answering its own offer", 1, AcceptMove, "country 1's move")
	rulesPlay(t, m, 0, AcceptMove)
	// Cycle 2: country 1 attacks country 2, which has 6 soldiers.
	rulesPlay(t, m, 0, WarMove(1, Flanks{3, 3, 3}))
	check("an accept answering a war", 1, AcceptMove, `your defending flanks ({"flanks": [LEFT, FRONT, RIGHT]}; defend LEFT FRONT RIGHT at a prompt), not accept`)
	check("a defence beyond the army", 1, DefendMove(Flanks{3, 3, 1}), "army has 6")
	check("a negative defence", 1, DefendMove(Flanks{0, -1, 0}), "front flank")
	rulesPlay(t, m, 1, DefendMove(Flanks{2, 2, 2}))
}

func TestRuleDefaults(t *testing.T) {
	// "A turn: `wait`. A trade answer: yes (accept). A war answer: 0, 0, 0."
	m := rulesMatch(t, 2, nil)
	m.world.Countries[0].Stock[Army], m.world.Countries[0].Stock[Gold] = 3, 2000
	if req := m.Pending()[0]; req.Default != WaitMove {
		t.Errorf("a turn's default is %v", req.Default)
	}
	rulesPlay(t, m, 0, TradeMove(1, Gold, 1, Food, 1))
	if req := m.Pending()[0]; req.Default != AcceptMove {
		t.Errorf("a trade answer's default is %v", req.Default)
	}
	rulesPlay(t, m, 1, AcceptMove)
	rulesPlay(t, m, 1, WaitMove)
	rulesPlay(t, m, 0, WarMove(1, Flanks{1, 1, 1}))
	if req := m.Pending()[0]; req.Default != DefendMove(Flanks{}) {
		t.Errorf("a war answer's default is %v", req.Default)
	}
}

func TestRuleBattleWaves(t *testing.T) {
	// "Wave one, on each flank separately, defenders have the advantage m1
	// (`defend_advantage`): with a attackers and d defenders on a flank,
	// attackers left = max(0, a − ⌊m1·d⌋), defenders left = max(0, d − a)."
	// "Wave two: survivors of all flanks gather into A attackers and D
	// defenders; attackers have the advantage m2 (`attack_advantage`):
	// attackers left = max(0, A − D), defenders left = max(0, D − ⌊m2·A⌋)."
	cases := []struct {
		attack, defence Flanks
		m1, m2          string
		a, d            int64
		why             string
	}{
		// Left: 10 − ⌊1.5·5⌋ = 3, 0. Front: 0, 5. Right: 30 − 7 = 23, 0.
		// A = 26, D = 5: 21 attackers, 5 − 39 → 0.
		{Flanks{10, 0, 30}, Flanks{5, 5, 5}, "1.5", "1.5", 21, 0, "fractional m1 rounds down per flank"},
		// Left: 5 − ⌊1.5·3⌋ = 1, 0. A = 1, D = 0.
		{Flanks{5, 0, 0}, Flanks{3, 0, 0}, "1.5", "1", 1, 0, "⌊4.5⌋ = 4"},
		// Left: 1 − 7 → 0, 5 − 1 = 4. Front and right: 1 and 0 each. A = 2,
		// D = 4: 0 attackers, 4 − ⌊1.5·2⌋ = 1 defender.
		{Flanks{1, 1, 1}, Flanks{5, 0, 0}, "1.5", "1.5", 0, 1, "the defender wins"},
		// The same with m2 = 2: 4 − 4 = 0: a tie.
		{Flanks{1, 1, 1}, Flanks{5, 0, 0}, "1.5", "2", 0, 0, "a tie in wave two"},
		// Every flank: 4 − 4 = 0 and 2 − 4 → 0. Nobody is left after wave one.
		{Flanks{4, 4, 4}, Flanks{2, 2, 2}, "2", "2", 0, 0, "a tie in wave one"},
		// A = 3 (right flank unopposed), D = 8 (left): 8 − ⌊2.5·3⌋ = 1.
		{Flanks{0, 0, 3}, Flanks{8, 0, 0}, "1", "2.5", 0, 1, "⌊7.5⌋ = 7"},
		// m2 = 1.07: A = 100, D = 50 − 0: 50 attackers left.
		{Flanks{100, 0, 0}, Flanks{0, 50, 0}, "1.07", "1.07", 50, 0, "survivors gather across flanks"},
		// Nobody attacks: the defenders all survive.
		{Flanks{}, Flanks{1, 2, 3}, "2", "2", 0, 6, "no attackers"},
		// Nobody defends: the attackers all survive.
		{Flanks{1, 2, 3}, Flanks{}, "2", "2", 6, 0, "no defenders"},
		{Flanks{}, Flanks{}, "2", "2", 0, 0, "nobody at all"},
	}
	for _, c := range cases {
		a, d := Fight(c.attack, c.defence, MustRatio(c.m1), MustRatio(c.m2))
		if a != c.a || d != c.d {
			t.Errorf("%s: %v against %v, m1 %s m2 %s: %d and %d left; want %d and %d", c.why, c.attack, c.defence, c.m1, c.m2, a, d, c.a, c.d)
		}
	}
}

// fightRef is the rules' battle computed with big.Rat, independently of Ratio.
func fightRef(attack, defence Flanks, m1, m2 *big.Rat) (int64, int64) {
	floor := func(m *big.Rat, x int64) int64 {
		p := new(big.Rat).Mul(m, new(big.Rat).SetInt64(x))
		return new(big.Int).Div(p.Num(), p.Denom()).Int64()
	}
	var a, d int64
	for i := range 3 {
		a += max(0, attack[i]-floor(m1, defence[i]))
		d += max(0, defence[i]-attack[i])
	}
	return max(0, a-d), max(0, d-floor(m2, a))
}

func TestRuleBattleOneSide(t *testing.T) {
	// "Otherwise the side with soldiers left wins (both m ≥ 1, so only one
	// side can have any), with r survivors."
	rng := rand.New(rand.NewPCG(2, 3))
	advantages := []string{"1", "1.001", "1.07", "1.5", "2", "2.5", "3", "7.125"}
	for range 20000 {
		var at, de Flanks
		for i := range 3 {
			at[i], de[i] = rng.Int64N(30), rng.Int64N(30)
		}
		s1, s2 := advantages[rng.IntN(len(advantages))], advantages[rng.IntN(len(advantages))]
		a, d := Fight(at, de, MustRatio(s1), MustRatio(s2))
		if a > 0 && d > 0 {
			t.Fatalf("%v against %v, m1 %s m2 %s: both sides have survivors (%d, %d)", at, de, s1, s2, a, d)
		}
		if a > at.Total() || d > de.Total() || a < 0 || d < 0 {
			t.Fatalf("%v against %v: %d and %d survivors", at, de, a, d)
		}
		r1, _ := new(big.Rat).SetString(s1)
		r2, _ := new(big.Rat).SetString(s2)
		if ra, rd := fightRef(at, de, r1, r2); ra != a || rd != d {
			t.Fatalf("%v against %v, m1 %s m2 %s: %d and %d; the formulas give %d and %d", at, de, s1, s2, a, d, ra, rd)
		}
	}
}

func TestRuleBattleLoot(t *testing.T) {
	// "When the attacker wins, it always takes from the defender, for each
	// resource, ⌊r × steal[resource]⌋, capped at what the defender holds."
	// "Soldiers sent by both sides leave home; survivors return home";
	// "soldiers not sent stay home and cannot die".
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{1600, 0, 10, 150, 0}
	w.Countries[1].Stock = Stock{30, 1000, 800, 20, 150}
	// Defence 0: the 101 sent all survive wave one, and 101 − 0 in wave two.
	b := w.War(0, WarMove(1, Flanks{0, 101, 0}), Flanks{})
	// Steal .5/1/.1/0/.025 × 101: ⌊50.5⌋ gold capped at 30, 101 food,
	// ⌊10.1⌋ citizens, 0 army, ⌊2.525⌋ land.
	want := Battle{Attacker: 0, Defender: 1, Sent: 101, Defended: 0, AttackersLeft: 101, Outcome: AttackerWon, Loot: Stock{30, 101, 10, 0, 2}}
	if b != want {
		t.Errorf("battle %+v; want %+v", b, want)
	}
	if got := w.Countries[0].Stock; got != (Stock{30, 101, 20, 150, 2}) {
		t.Errorf("attacker after looting: %v", got)
	}
	if got := w.Countries[1].Stock; got != (Stock{0, 899, 790, 20, 148}) {
		t.Errorf("defender after the loot: %v", got)
	}
	// A steal factor on army takes soldiers who stayed home too, capped.
	p := Default()
	p.Steal = Steal{Whole(0), Whole(0), Whole(0), MustRatio("0.5"), Whole(0)}
	w = NewWorld(p, 2)
	w.Countries[0].Stock = Stock{1600, 0, 10, 100, 0}
	w.Countries[1].Stock[Army] = 30
	b = w.War(0, WarMove(1, Flanks{100, 0, 0}), Flanks{0, 0, 10})
	// 100 on the left, unopposed; 10 defenders on the right meet no one.
	// A = 100, D = 10: 90 attackers; loot ⌊45⌋ soldiers, capped at 20 home.
	if b.AttackersLeft != 90 || b.Loot[Army] != 20 || w.Countries[1].Stock[Army] != 0 || w.Countries[0].Stock[Army] != 110 {
		t.Errorf("army loot: %+v; countries %v and %v", b, w.Countries[0].Stock, w.Countries[1].Stock)
	}
}

func TestRuleBattleDefenderWins(t *testing.T) {
	// "A defender that wins keeps its country and loots nothing." The
	// attacker's soldiers sent are lost; those kept home are not; the gold is
	// paid "win or lose".
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{2000, 800, 800, 50, 150}
	w.Countries[1].Stock = Stock{600, 800, 800, 30, 150}
	// Left: 10 − ⌊2·10⌋ → 0, 10 − 10 = 0; front: 0, 10; right: 0, 10.
	// A = 0, D = 20: 20 defenders left.
	b := w.War(0, WarMove(1, Flanks{10, 0, 0}), Flanks{10, 10, 10})
	if b.Outcome != DefenderWon || b.AttackersLeft != 0 || b.DefendersLeft != 20 || b.Loot != (Stock{}) {
		t.Errorf("battle %+v; want the defender to win with 20 and loot nothing", b)
	}
	if got := w.Countries[0].Stock; got != (Stock{400, 800, 800, 40, 150}) {
		t.Errorf("attacker: %v; want 1600 gold paid, the 10 sent lost, the 40 home kept", got)
	}
	if got := w.Countries[1].Stock; got != (Stock{600, 800, 800, 20, 150}) {
		t.Errorf("defender: %v; want 20 soldiers back home and nothing else changed", got)
	}
}

func TestRuleBattleTie(t *testing.T) {
	// "If nobody is left it is a tie: nothing is looted."
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{1600, 800, 800, 12, 150}
	w.Countries[1].Stock = Stock{600, 800, 800, 6, 150}
	b := w.War(0, WarMove(1, Flanks{4, 4, 4}), Flanks{2, 2, 2})
	if b.Outcome != Tie || b.AttackersLeft != 0 || b.DefendersLeft != 0 || b.Loot != (Stock{}) {
		t.Errorf("battle %+v; want a tie, nothing looted", b)
	}
	if a, d := w.Countries[0].Stock, w.Countries[1].Stock; a != (Stock{0, 800, 800, 0, 150}) || d != (Stock{600, 800, 800, 0, 150}) {
		t.Errorf("after the tie: %v and %v", a, d)
	}
}

func TestRuleDeathByWar(t *testing.T) {
	// "A defender left with no citizens is dead."
	m := rulesMatch(t, 3, nil)
	m.world.Countries[0].Stock[Army], m.world.Countries[0].Stock[Gold] = 50, 1600
	m.world.Countries[1].Stock[Citizens] = 5
	// 50 survivors steal ⌊50 × .1⌋ = 5 citizens: all of them.
	rulesPlay(t, m, 0, WarMove(1, Flanks{50, 0, 0}))
	rulesPlay(t, m, 1, DefendMove(Flanks{}))
	if c := m.world.Countries[1]; !c.Dead || c.Died != 1 || c.Stock[Citizens] != 0 {
		t.Errorf("the defender with no citizens left: %+v; want dead in cycle 1", c)
	}
	if m.Over() {
		t.Fatal("the game ended with two countries alive")
	}
	// The dead country's turn is skipped.
	if seat, _ := rulesAsked(t, m); seat != 2 {
		t.Errorf("country %d is asked; want country 3", seat+1)
	}
}

func TestRuleNoLand(t *testing.T) {
	// "A country left with no land keeps its citizens until production,
	// where the land cap takes them all."
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock[Army], w.Countries[0].Stock[Gold] = 80, 1600
	w.Countries[1].Stock[Land] = 2
	// 80 survivors steal ⌊80 × .025⌋ = 2 land, and ⌊8⌋ citizens.
	w.War(0, WarMove(1, Flanks{80, 0, 0}), Flanks{})
	c := w.Countries[1]
	if c.Stock[Land] != 0 || c.Stock[Citizens] != 792 || c.Dead {
		t.Fatalf("the defender after losing its land: %+v; want 792 citizens, alive", c)
	}
	w.Produce()
	c = w.Countries[1]
	// Step 1 still counts its 792 citizens: 396 food, 198 gold.
	if !c.Dead || c.Died != 1 || c.Stock != (Stock{600 - 40 + 198, 800 - 80 + 396, 0, 0, 0}) {
		t.Errorf("the landless country after production: %+v; want dead in cycle 1", c)
	}
}

func TestRuleProductionIncome(t *testing.T) {
	// "1. food += ⌊food_per_citizen × citizens⌋; gold += ⌊gold_per_citizen
	// × citizens⌋." — from the citizens before they grow in step 2.
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{0, 0, 801, 0, 1000}
	w.Produce()
	// ⌊.5 × 801⌋ = 400 food, ⌊.25 × 801⌋ = 200 gold; ⌊801 × 1.07⌋ = 857.
	if got := w.Countries[0].Stock; got != (Stock{200, 400, 857, 0, 1000}) {
		t.Errorf("after production: %v; want 200 gold 400 food 857 citizens", got)
	}
	if w.Cycle != 2 {
		t.Errorf("cycle %d after production; want 2", w.Cycle)
	}
}

func TestRuleProductionGrowthCap(t *testing.T) {
	// "2. Citizens grow to ⌊citizens × growth⌋, but growth never takes
	// citizens + army above land × `land_capacity`. A country already above
	// that cap (after losing land) loses citizens down to it."
	cases := []struct {
		citizens, army, land, want int64
		why                        string
	}{
		{100, 0, 1000, 107, "room to grow"},
		{90, 5, 10, 95, "growth stops at the cap: 96 + 5 > 100"},
		{200, 5, 10, 95, "above the cap after losing land: down to 100 − 5"},
		{50, 150, 10, 0, "an army above the cap leaves no room for citizens"},
		{14, 0, 2, 14, "⌊14 × 1.07⌋ = 14"},
	}
	for _, c := range cases {
		w := NewWorld(Default(), 2)
		w.Countries[0].Stock = Stock{1e6, 1e6, c.citizens, c.army, c.land}
		w.Produce()
		got := w.Countries[0].Stock
		if got[Citizens] != c.want || got[Army] != c.army {
			t.Errorf("%s: %d citizens, %d soldiers; want %d and %d", c.why, got[Citizens], got[Army], c.want, c.army)
		}
		// Step 1 came first: the income of the citizens before the cap.
		if wantFood := 1e6 + c.citizens/2 - c.army; got[Food] != wantFood {
			t.Errorf("%s: food %d; want %d, made by all %d citizens", c.why, got[Food], wantFood, c.citizens)
		}
	}
}

func TestRuleProductionUpkeep(t *testing.T) {
	// "3. Upkeep: food −= ⌊army × food_per_soldier⌋; gold −= ⌊army ×
	// gold_per_soldier⌋."
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{1000, 1000, 100, 57, 1000}
	w.Produce()
	// Food: 1000 + 50 − 57; gold: 1000 + 25 − ⌊5.7⌋.
	if got := w.Countries[0].Stock; got != (Stock{1020, 993, 107, 57, 1000}) {
		t.Errorf("after upkeep: %v", got)
	}
	// robot_army: soldiers eat no food, and cost 1 gold each.
	p, _ := LookupPreset("robot_army")
	w = NewWorld(p, 2)
	w.Countries[0].Stock = Stock{1000, 1000, 100, 57, 1000}
	w.Produce()
	// Food: 1000 + ⌊.01 × 100⌋; gold: 1000 + 25 − 57; ⌊100 × 1.02⌋ = 102.
	if got := w.Countries[0].Stock; got != (Stock{968, 1001, 102, 57, 1000}) {
		t.Errorf("robot_army after upkeep: %v", got)
	}
}

func TestRuleProductionBankrupt(t *testing.T) {
	// "4. Gold at 0 or less: gold becomes 0 and the whole army turns back
	// into citizens." It comes after the growth cap (step 2) and before
	// the food (step 5).
	w := NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{0, 0, 100, 300, 35}
	w.Produce()
	// 1: 50 food, 25 gold. 2: room 350 − 300 = 50 citizens (⌊107⌋ capped).
	// 3: food 50 − 300 = −250, gold 25 − 30 = −5. 4: gold 0, 50 + 300 = 350
	// citizens, no army. 5: food 0, 350 − 200 = 150 citizens.
	if got := w.Countries[0]; got.Stock != (Stock{0, 0, 150, 0, 35}) || got.Dead {
		t.Errorf("after bankruptcy and hunger: %+v; want 150 citizens alive", got)
	}
	// Gold exactly 0 counts: 0 + 25 − 25 = 0.
	w = NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{0, 1000, 100, 250, 1000}
	w.Produce()
	if got := w.Countries[0].Stock; got != (Stock{0, 1000 + 50 - 250, 107 + 250, 0, 1000}) {
		t.Errorf("gold at exactly 0: %v; want the army disbanded", got)
	}
	// Gold above 0 keeps the army.
	w = NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{1, 1000, 100, 250, 1000}
	w.Produce()
	if got := w.Countries[0].Stock; got[Army] != 250 || got[Gold] != 1 {
		t.Errorf("gold 1 after upkeep: %v; want the army kept", got)
	}
}

func TestRuleProductionHunger(t *testing.T) {
	// "5. Food at 0 or less: food becomes 0 and `hunger_deaths` citizens
	// die (never below 0)." "6. Citizens at 0 or less: the country is dead."
	cases := []struct {
		food, citizens, army int64
		want                 Stock
		dead                 bool
		why                  string
	}{
		// 1000 + 150 − 1200 = −50: 321 − 200 citizens.
		{1000, 300, 1200, Stock{1e6 + 75 - 120, 0, 121, 1200, 1e4}, false, "hunger"},
		// 0 + 150 − 150 = 0: exactly 0 counts.
		{0, 300, 150, Stock{1e6 + 75 - 15, 0, 121, 150, 1e4}, false, "food at exactly 0"},
		// 50 citizens, ⌊53.5⌋ = 53, − 200: never below 0, and dead.
		{0, 50, 100, Stock{1e6 + 12 - 10, 0, 0, 100, 1e4}, true, "starved to death"},
		// 1 food left: nobody dies.
		{0, 300, 149, Stock{1e6 + 75 - 14, 1, 321, 149, 1e4}, false, "1 food left"},
	}
	for _, c := range cases {
		w := NewWorld(Default(), 2)
		w.Countries[0].Stock = Stock{1e6, c.food, c.citizens, c.army, 1e4}
		w.Produce()
		got := w.Countries[0]
		if got.Stock != c.want || got.Dead != c.dead {
			t.Errorf("%s: %+v; want %v, dead %v", c.why, got, c.want, c.dead)
		}
		if c.dead && got.Died != 1 {
			t.Errorf("%s: died in cycle %d; want 1", c.why, got.Died)
		}
	}
}

func TestRuleProductionDecay(t *testing.T) {
	// "Whole numbers throughout; products round down exactly, toward −∞ (a
	// constant like 0.1 means one tenth, not the nearest binary float)." In
	// `decay`, food_per_citizen is −.1: 15 citizens make ⌊−1.5⌋ = −2 food.
	p, _ := LookupPreset("decay")
	w := NewWorld(p, 2)
	w.Countries[0].Stock = Stock{1000, 10, 15, 0, 100}
	w.Countries[1].Stock = Stock{1000, 2, 15, 0, 100}
	w.Produce()
	// Gold: ⌊.01 × 15⌋ = 0; growth 1: still 15.
	if got := w.Countries[0].Stock; got != (Stock{1000, 8, 15, 0, 100}) {
		t.Errorf("decay: %v; want 10 − 2 = 8 food", got)
	}
	// 2 − 2 = 0 food: hunger kills all 15 (rounding toward 0 would leave 1
	// food and nobody dead).
	if got := w.Countries[1]; !got.Dead || got.Stock != (Stock{1000, 0, 0, 0, 100}) {
		t.Errorf("decay, 2 food: %+v; want starved, dead", got)
	}
	// 15000 citizens: exactly −1500 food and 150 gold.
	w = NewWorld(p, 2)
	w.Produce()
	if got := w.Countries[0].Stock; got != (Stock{750, 500, 15000, 0, 1500}) {
		t.Errorf("decay's start after one production: %v", got)
	}
}

func TestRuleProductionDeadSkipped(t *testing.T) {
	// "a dead country keeps its other numbers as they were and is skipped by
	// production."
	w := NewWorld(Default(), 3)
	w.Countries[1] = Country{Stock: Stock{5, -3, 0, 7, 9}, Dead: true, Died: 1}
	dead := w.Countries[1]
	w.Produce()
	if w.Countries[1] != dead {
		t.Errorf("production changed a dead country: %+v; was %+v", w.Countries[1], dead)
	}
	// A living country with no citizens (from a world JSON) dies, and is
	// not brought back by its army's return.
	w = NewWorld(Default(), 2)
	w.Countries[0].Stock = Stock{0, 1000, 0, 0, 150}
	w.Produce()
	if !w.Countries[0].Dead {
		t.Errorf("a country with 0 citizens lives after production: %+v", w.Countries[0])
	}
}

func TestRuleEndOneLeft(t *testing.T) {
	// "The game ends when at most one country is alive" — at once, in the
	// middle of a cycle. The scores are the cycles lived through (match.go,
	// end): the cycles begun for the living, the cycles before the one it
	// died in for the dead.
	m := rulesMatch(t, 2, nil)
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, WaitMove)
	m.world.Countries[0].Stock[Army], m.world.Countries[0].Stock[Gold] = 2000, 2000
	m.world.Countries[1].Stock[Citizens] = 100 // 2000 survivors steal ⌊200⌋, capped at 100
	rulesPlay(t, m, 0, WarMove(1, Flanks{2000, 0, 0}))
	rulesPlay(t, m, 1, DefendMove(Flanks{}))
	if !m.Over() || m.Pending() != nil {
		t.Fatal("one country left, and the game goes on")
	}
	if m.world.Cycle != 2 {
		t.Errorf("cycle %d: production ran after the game ended", m.world.Cycle)
	}
	want := engine.Result{Scores: []int64{2, 1}, Ranks: []int{1, 2}, Winners: []int{0}, Status: []string{"", "dead (cycle 2)"}, Reason: "one country left"}
	if diff := cmp.Diff(want, m.Result()); diff != "" {
		t.Errorf("result -want +got:\n%s", diff)
	}
	wantRefused(t, "a move after the end", m.Apply(0, WaitMove), "over")
	// A country that empties itself by recruiting ends the game too.
	m = rulesMatch(t, 2, nil)
	rulesPlay(t, m, 0, RecruitMove(800))
	if !m.Over() || m.world.Cycle != 1 {
		t.Fatalf("over %v in cycle %d", m.Over(), m.world.Cycle)
	}
	if r := m.Result(); !cmp.Equal(r.Winners, []int{1}) || !cmp.Equal(r.Scores, []int64{0, 1}) || !cmp.Equal(r.Ranks, []int{2, 1}) {
		t.Errorf("result %+v", r)
	}
}

func TestRuleEndMaxCycles(t *testing.T) {
	// "or after the preset's `max_cycles` cycles. Ranking: living countries
	// share first place; dead countries rank below them"
	m := rulesMatch(t, 3, rulesPreset(func(p *Preset) { p.MaxCycles = 3 }))
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, WaitMove)
	rulesPlay(t, m, 2, RecruitMove(800))
	turns := 0
	for !m.Over() {
		seat, _ := rulesAsked(t, m)
		rulesPlay(t, m, seat, WaitMove)
		turns++
	}
	if turns != 4 || m.world.Cycle != 4 {
		t.Errorf("%d more turns, ending in cycle %d; want 2 cycles of 2 turns, then cycle 4", turns, m.world.Cycle)
	}
	want := engine.Result{Scores: []int64{3, 3, 0}, Ranks: []int{1, 1, 3}, Winners: []int{0, 1}, Status: []string{"", "", "dead (cycle 1)"}, Reason: "max_cycles played"}
	if diff := cmp.Diff(want, m.Result()); diff != "" {
		t.Errorf("result -want +got:\n%s", diff)
	}
}

func TestRuleRanking(t *testing.T) {
	// "dead countries rank below them, later deaths above earlier ones,
	// deaths in the same cycle sharing a rank."
	m := rulesMatch(t, 4, nil)
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, WaitMove)
	rulesPlay(t, m, 2, WaitMove)
	rulesPlay(t, m, 3, RecruitMove(800)) // dies in cycle 1
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, RecruitMove(856)) // dies in cycle 2
	rulesPlay(t, m, 2, RecruitMove(856)) // dies in cycle 2: one country left
	if !m.Over() {
		t.Fatal("one country left, and the game goes on")
	}
	want := engine.Result{
		Scores:  []int64{2, 1, 1, 0},
		Ranks:   []int{1, 2, 2, 4},
		Winners: []int{0},
		Status:  []string{"", "dead (cycle 2)", "dead (cycle 2)", "dead (cycle 1)"},
		Reason:  "one country left",
	}
	if diff := cmp.Diff(want, m.Result()); diff != "" {
		t.Errorf("result -want +got:\n%s", diff)
	}
}

func TestRuleAllDead(t *testing.T) {
	// "If all are dead, nobody wins." Here every country starves in the
	// same production.
	p := rulesPreset(func(p *Preset) {
		p.Start = Stock{600, 0, 100, 0, 150}
		p.FoodPerCitizen = Whole(0)
	})
	m := rulesMatch(t, 3, p)
	m.world.Countries[2].Stock[Food] = 1000 // this one is fed
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, WaitMove)
	rulesPlay(t, m, 2, RecruitMove(100)) // and dies now, in cycle 1 too
	if !m.Over() {
		t.Fatal("every country starved, and the game goes on")
	}
	want := engine.Result{Scores: []int64{0, 0, 0}, Ranks: []int{1, 1, 1}, Winners: []int{},
		Status: []string{"dead (cycle 1)", "dead (cycle 1)", "dead (cycle 1)"}, Reason: "every country is dead"}
	if diff := cmp.Diff(want, m.Result()); diff != "" {
		t.Errorf("result -want +got:\n%s", diff)
	}
	// One starves, one lives: the game ends after the production.
	m = rulesMatch(t, 2, p)
	m.world.Countries[1].Stock[Food] = 1000
	rulesPlay(t, m, 0, WaitMove)
	rulesPlay(t, m, 1, WaitMove)
	if !m.Over() {
		t.Fatal("one country left after production, and the game goes on")
	}
	// The survivor took part in the one cycle of the game; the dead lived
	// through none.
	want = engine.Result{Scores: []int64{0, 1}, Ranks: []int{2, 1}, Winners: []int{1},
		Status: []string{"dead (cycle 1)", ""}, Reason: "one country left"}
	if diff := cmp.Diff(want, m.Result()); diff != "" {
		t.Errorf("result -want +got:\n%s", diff)
	}
}

func TestRuleHistory(t *testing.T) {
	// "Every action taken so far, in order: cycle, seat, action, and its
	// public outcome (trade offered and answer; war as described above;
	// refused actions as faults)."
	m := rulesMatch(t, 2, nil)
	rulesPlay(t, m, 0, RecruitMove(10))
	rulesPlay(t, m, 1, TradeMove(0, Gold, 5, Food, 6))
	rulesPlay(t, m, 0, DeclineMove)
	// Cycle 2: country 1's 790 citizens have grown to ⌊845.3⌋.
	err := m.Apply(0, RecruitMove(1e6))
	wantRefused(t, "recruit too many", err)
	m.Defaulted(0, engine.Fault{Kind: engine.FaultIllegal, Detail: err.Error()})
	rulesPlay(t, m, 0, WaitMove)
	var got []string
	for _, e := range m.History() {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{
		`{"cycle":1,"seat":0,"action":"recruit","n":10}`,
		`{"cycle":1,"seat":1,"action":"trade","trade":{"with":0,"give":"gold","give_n":5,"take":"food","take_n":6,"accepted":false}}`,
		`{"cycle":2,"seat":0,"action":"wait","refused":"recruit 1000000: you have 845 citizens; recruit at most that many"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history -want +got:\n%s", diff)
	}
}

// The world JSON of the rules page.
const rulesWorld = `{"preset": "default", "cycle": 1,
     "countries": [{"gold": 600, "food": 800, "citizens": 800, "army": 0, "land": 150},
                   {"gold": 600, "food": 800, "citizens": 0, "army": 0, "land": 150, "dead": true}]}`

func TestRuleWorldJSON(t *testing.T) {
	// "`preset` is a preset's name or an object with every constant of the
	// table ... `dead` is omitted for a living country."
	var w World
	if err := json.Unmarshal([]byte(rulesWorld), &w); err != nil {
		t.Fatal(err)
	}
	want := World{Preset: Default(), Cycle: 1, Countries: []Country{
		{Stock: Stock{600, 800, 800, 0, 150}},
		{Stock: Stock{600, 800, 0, 0, 150}, Dead: true},
	}}
	if diff := cmp.Diff(want, w); diff != "" {
		t.Errorf("the rules' world -want +got:\n%s", diff)
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var compact strings.Builder
	for _, f := range strings.Fields(rulesWorld) {
		compact.WriteString(f)
	}
	if string(b) != compact.String() {
		t.Errorf("written back:\n got %s\nwant %s", b, compact.String())
	}
	// A custom preset is written out whole, and read back the same.
	w.Preset = *rulesPreset(func(p *Preset) { p.GoldForWar, p.Growth = 5, MustRatio("1.5") })
	w.Countries[1].Died = 3
	b, err = json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back World
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if diff := cmp.Diff(w, back); diff != "" {
		t.Errorf("a custom preset's world read back -want +got:\n%s\n%s", diff, b)
	}
	// The object form with base.
	const based = `{"preset": {"base": "tribe", "gold_for_war": 5}, "cycle": 7, "countries": [` +
		`{"gold": 1, "food": 2, "citizens": 3, "army": 4, "land": 5}, {"gold": 0, "food": 0, "citizens": 0, "army": 0, "land": 0, "dead": true, "died": 2}]}`
	if err := json.Unmarshal([]byte(based), &back); err != nil {
		t.Fatal(err)
	}
	tribe, _ := LookupPreset("tribe")
	if back.Preset.GoldForWar != 5 || back.Preset.Growth != tribe.Growth || back.Cycle != 7 || back.Countries[1].Died != 2 {
		t.Errorf("read %+v", back)
	}
}

func TestRuleWorldJSONErrors(t *testing.T) {
	// "An illegal action or answer is refused (exit 1, the world unchanged, a
	// message that says why)" — and so is a world that is not one.
	country := `{"gold": 1, "food": 2, "citizens": 3, "army": 4, "land": 5}`
	full, _ := json.Marshal(rulesPreset(func(*Preset) {}))
	var noHunger map[string]any
	json.Unmarshal(full, &noHunger)
	delete(noHunger, "hunger_deaths")
	noHungerJSON, _ := json.Marshal(noHunger)
	world := func(preset, countries string) string {
		return `{"preset": ` + preset + `, "cycle": 1, "countries": [` + countries + `]}`
	}
	cases := []struct {
		in   string
		want []string
	}{
		{world(`"default"`, `{"gold": 1, "food": 2, "citizens": 3, "army": 4}, `+country), []string{"countries[0]", "land is missing"}},
		{world(`"default"`, country+`, {"gold": 1, "citizens": 3, "army": 4, "land": 5}`), []string{"countries[1]", "food is missing"}},
		{world(`"nope"`, country+","+country), []string{"unknown preset", "nope", "default"}},
		{world(string(noHungerJSON), country+","+country), []string{"preset", "missing hunger_deaths"}},
		{world(`{"base": "nope"}`, country+","+country), []string{"base", "nope"}},
		{world(`{"base": "default", "growth": -1}`, country+","+country), []string{"growth", "negative"}},
		{world(`{"base": "default", "wat": 1}`, country+","+country), []string{"wat"}},
		{world(`"default"`, country), []string{"1 countries", "2 to 12"}},
		{world(`"default"`, strings.Repeat(country+",", 12)+country), []string{"13 countries", "2 to 12"}},
		{world(`"default"`, ``), []string{"0 countries"}},
		{`{"cycle": 1, "countries": [` + country + "," + country + `]}`, []string{"preset is missing"}},
		{`{"preset": "default", "countries": [` + country + "," + country + `]}`, []string{"cycle"}},
		{`{"preset": "default", "cycle": 0, "countries": [` + country + "," + country + `]}`, []string{"cycle", "0"}},
		{world(`"default"`, country+`, {"gold": 1.5, "food": 2, "citizens": 3, "army": 4, "land": 5}`), []string{"gold"}},
		{world(`"default"`, country+`, {"gold": 1e13, "food": 2, "citizens": 3, "army": 4, "land": 5}`), []string{"gold"}},
		{world(`"default"`, country+`, {"gold": 10000000000000, "food": 2, "citizens": 3, "army": 4, "land": 5}`), []string{"countries[1].gold", "out of range"}},
		{world(`"default"`, country+`, {"gold": 1, "food": 2, "citizens": 3, "army": 4, "land": 5, "died": 3}`), []string{"died"}},
		{world(`"default"`, country+`, {"gold": 1, "food": 2, "citizens": 3, "army": 4, "land": 5, "oil": 3}`), []string{"oil"}},
		{world(`"default"`, country+","+country) + `{}`, []string{"trailing"}},
		{``, []string{"empty"}},
		{`[]`, []string{"object"}},
	}
	for _, c := range cases {
		var w World
		err := w.UnmarshalJSON([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted", c.in)
			continue
		}
		for _, s := range c.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s:\n error %q does not mention %q", c.in, err, s)
			}
		}
	}
}

func TestRuleAmountsStopAtTheLargest(t *testing.T) {
	// arbiter rules tncc: "An amount that would pass 9223372036854775807
	// (2^63 - 1), the largest a country holds, stays at it." A preset
	// within its bounds reaches it (a report then shows that number),
	// so the rules say so rather than leave it unexplained.
	if !strings.Contains(strings.Join(strings.Fields(Game{}.Info().Rules), " "), "An amount that would pass 9223372036854775807 (2^63 - 1), the largest a country holds, stays at it.") {
		t.Error("the rules do not say where amounts stop")
	}
	p := rulesPreset(func(p *Preset) { p.FoodPerCitizen = Whole(999999999) })
	w := NewWorld(*p, 2)
	w.Countries[0].Stock = Stock{1000, math.MaxInt64 - 5, 1e12, 0, 1e12}
	w.Produce()
	if got := w.Countries[0].Stock[Food]; got != math.MaxInt64 {
		t.Errorf("food after production: %d; want %d, where it stops", got, int64(math.MaxInt64))
	}
}
