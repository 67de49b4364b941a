package ajveciv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

// Each test here checks one rule of the seed (000_b1f6ea0d52288063.txt) as
// settled by the rules page (rules/ajveciv.md), and quotes it.

// turn applies one turn of the original rules to a copy of w.
func turn(t *testing.T, w World, choices ...Value) World {
	t.Helper()
	w = w.Clone()
	if err := (OriginalRules{}).Turn(&w, choices, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	return w
}

// distinctFeels makes every feeling different, so no choice of target ties:
// society i feels i·10 + j toward j.
func distinctFeels(w *World) {
	for i := range w.Feels {
		for j := range w.Feels[i] {
			w.Feels[i][j] = i*10 + j
		}
	}
}

func newMatch(t *testing.T, seats int, seed uint64, options map[string]string) *Match {
	t.Helper()
	players := make([]string, seats)
	for i := range players {
		players[i] = "p"
	}
	m, err := Original().NewMatch(engine.Setup{Seed: seed, Players: players, Options: options})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRuleSeats(t *testing.T) {
	// "2 to 20 seats (basic3 alone is 20 AIs)."
	for _, n := range []int{0, 1, 21} {
		if _, err := Original().New(engine.Setup{Players: make([]string, n)}); err == nil {
			t.Errorf("%d seats accepted", n)
		}
	}
	for _, n := range []int{2, 6, 20} {
		if _, err := Original().New(engine.Setup{Players: make([]string, n)}); err != nil {
			t.Errorf("%d seats refused: %v", n, err)
		}
	}
}

func TestRuleStartingWorld(t *testing.T) {
	// "World: yield 20, feels an n×n matrix of 0, societies one per seat.
	// Each society: every value 2 (conquer, exchange, discover, expand,
	// develop, consent); nation population 3, yield 3."
	w := newMatch(t, 4, 1, nil).world
	want := World{Yield: 20, Feels: [][]int{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	for range 4 {
		want.Societies = append(want.Societies, Society{Values: Values{2, 2, 2, 2, 2, 2}, Nation: Nation{Population: 3, Yield: 3}})
	}
	if diff := cmp.Diff(want, w); diff != "" {
		t.Error(diff)
	}
}

func TestRuleWorldJSON(t *testing.T) {
	// "The world JSON is the seed's shape, {feels, societies:[{values,
	// nation:{population, yield}}], yield}, plus "dead": true on a dead
	// society (omitted for a living one)."
	w := NewWorld(2)
	w.Societies[1].Dead, w.Societies[1].Nation.Population = true, 0
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"feels":[[0,0],[0,0]],"societies":[` +
		`{"values":{"conquer":2,"exchange":2,"discover":2,"expand":2,"develop":2,"consent":2},"nation":{"population":3,"yield":3}},` +
		`{"values":{"conquer":2,"exchange":2,"discover":2,"expand":2,"develop":2,"consent":2},"nation":{"population":0,"yield":3},"dead":true}],"yield":20}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	back, err := ParseWorld(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, back); diff != "" {
		t.Error(diff)
	}
}

// TestParseWorldRefusesKeyTwice: a world that gives a key twice, the
// world's yield or a nation's, is refused with the key and where it is,
// not played with the last value.
func TestParseWorldRefusesKeyTwice(t *testing.T) {
	b, _ := json.Marshal(NewWorld(2))
	for in, want := range map[string]string{
		strings.Replace(string(b), `"yield":20`, `"yield":20,"yield":30`, 1): `world: the top level: key "yield" is given twice`,
		strings.Replace(string(b), `"yield":3}`, `"yield":3,"yield":4}`, 1):  `world: societies[0].nation: key "yield" is given twice`,
	} {
		if _, err := ParseWorld([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", in, err, want)
		}
	}
}

func TestRuleDiagonal(t *testing.T) {
	// "feels[i][j] is society i's feeling toward j; the diagonal is never
	// read or changed."
	w := NewWorld(3)
	for i := range w.Feels {
		w.Feels[i][i] = -1000 // would be everyone's least liked, if it were read
	}
	for _, c := range AllValues {
		after := turn(t, w, c, c, c)
		for i := range after.Feels {
			if after.Feels[i][i] != -1000 {
				t.Errorf("%v: feels[%d][%d] changed to %d", c, i, i, after.Feels[i][i])
			}
		}
	}
	// Conquer's target comes from the others only: society 0 raids 1 or 2.
	after := turn(t, w, Conquer, Discover, Discover)
	if after.Societies[0].Nation.Yield != 3+3 {
		t.Errorf("conqueror's yield %d; want 6", after.Societies[0].Nation.Yield)
	}
}

func TestRuleNegativeYields(t *testing.T) {
	// "All yields are plain integers and may go negative; only population is
	// clamped."
	w := NewWorld(2)
	w.Yield = 1
	w.Societies[1].Nation.Yield = 1
	w.Societies[0].Values[Develop] = 10
	w.Societies[1].Values[Conquer] = 10
	after := turn(t, w, Develop, Conquer) // 1 raids 0 for 11; 0 develops 11 (+33 yield, world −11)
	if got := after.Yield; got != -10 {
		t.Errorf("world yield %d; want -10", got)
	}
	if got := after.Societies[0].Nation.Yield; got != 3+33-11 {
		t.Errorf("developer's yield %d; want 25", got)
	}
}

func TestRuleView(t *testing.T) {
	// "What a seat sees each decision: {you, turn, turns, kind, offered,
	// world}. The world is never rotated: world.societies[you] is yours."
	m := newMatch(t, 3, 7, nil)
	v := m.View(2)
	if v.You() != 2 || v.Turn() != 1 || v.Turns() != 100 || v.Kind() != TurnKind || len(v.Offered()) != 3 {
		t.Fatalf("view %+v", v)
	}
	m.world.Societies[2].Nation.Yield = 99
	if v.World().Society(2).Nation.Yield != 99 || v.Me().Nation.Yield != 99 {
		t.Error("world.societies[you] is not the seat's own society")
	}
	b, err := v.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"you":2`, `"turn":1`, `"turns":100`, `"kind":"turn"`, `"offered":[`, `"world":{"feels"`} {
		if !contains(string(b), key) {
			t.Errorf("view JSON %s lacks %s", b, key)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestRuleTurnsAndInflectionsOptions(t *testing.T) {
	// "100 turns by default (--turns). Inflections on (--no-inflections)."
	count := func(options map[string]string) (turns, inflections int) {
		m := newMatch(t, 2, 3, options)
		for !m.Over() {
			if m.infl {
				inflections++
			} else {
				turns++
			}
			for _, r := range m.Pending() {
				if err := m.Apply(r.Seat, r.Default); err != nil {
					t.Fatal(err)
				}
			}
		}
		return turns, inflections
	}
	if turns, infl := count(nil); turns != 100 || infl != 9 {
		t.Errorf("default: %d turns, %d inflections; want 100, 9", turns, infl)
	}
	if turns, infl := count(map[string]string{"turns": "25", "inflections": "false"}); turns != 25 || infl != 0 {
		t.Errorf("turns=25 no inflections: %d turns, %d inflections", turns, infl)
	}
	for _, bad := range []map[string]string{{"turns": "0"}, {"turns": "x"}, {"inflections": "maybe"}, {"speed": "1"}} {
		if _, err := Original().New(engine.Setup{Players: []string{"a", "b"}, Options: bad}); err == nil {
			t.Errorf("options %v accepted", bad)
		}
	}
}

func TestRuleOffers(t *testing.T) {
	// "Offered choices: each living society, in seat order, is offered 3
	// distinct values drawn uniformly at random from its six (match RNG, one
	// draw order: seat order, then the offer's order). The first offered is
	// the default."
	const rounds = 20000
	var seen [NumValues][3]int
	m := newMatch(t, 4, 11, map[string]string{"turns": "30000", "inflections": "false"})
	for r := 0; r < rounds; r++ {
		reqs := m.Pending()
		if len(reqs) != 4 {
			t.Fatalf("%d requests; want one per living society", len(reqs))
		}
		for k, req := range reqs {
			if req.Seat != k {
				t.Fatalf("requests out of seat order: %v", reqs)
			}
			o := req.Choices
			if len(o) != 3 || o[0] == o[1] || o[0] == o[2] || o[1] == o[2] {
				t.Fatalf("offer %v is not 3 distinct values", o)
			}
			if req.Default != o[0] {
				t.Fatalf("default %v; want the first offered %v", req.Default, o[0])
			}
			for pos, v := range o {
				seen[v][pos]++
			}
		}
		for _, req := range reqs {
			if err := m.Apply(req.Seat, req.Default); err != nil {
				t.Fatal(err)
			}
		}
		if m.Over() {
			t.Fatal("game over too soon")
		}
	}
	// Uniform: each value appears at each position with probability 1/6.
	// A chi-square test over the 18 cells, 17 degrees of freedom: 40.8 is
	// the 0.1% critical value.
	expected := float64(rounds*4) / 6
	chi := 0.0
	for v := range seen {
		for pos := range seen[v] {
			d := float64(seen[v][pos]) - expected
			chi += d * d / expected
		}
	}
	if chi > 40.8 {
		t.Errorf("offers are not uniform: chi-square %.1f over %v", chi, seen)
	}
}

func TestRuleOfferDrawOrder(t *testing.T) {
	// The draw order, as the Match documents it: groups of up to nine living
	// societies in seat order, one draw in [0, 120^g) per group, base-120
	// digits from the least significant up.
	m := newMatch(t, 11, 5, nil)
	pcg := engine.NewRNG(5)
	k := engine.Below(pcg, dealSpan[9])
	for seat := 0; seat < 9; seat++ {
		if got, want := m.offers[seat], offerTable[k%120]; got != want {
			t.Errorf("seat %d offered %v; want %v", seat, got, want)
		}
		k /= 120
	}
	k = engine.Below(pcg, dealSpan[2])
	for seat := 9; seat < 11; seat++ {
		if got, want := m.offers[seat], offerTable[k%120]; got != want {
			t.Errorf("seat %d offered %v; want %v", seat, got, want)
		}
		k /= 120
	}
	// The table is every ordered triple of distinct values, once.
	seen := map[offer]bool{}
	for _, o := range offerTable {
		if o[0] == o[1] || o[0] == o[2] || o[1] == o[2] || o[3] != o[0] || seen[o] {
			t.Fatalf("bad offer %v in the table", o)
		}
		seen[o] = true
	}
}

func TestRuleSimultaneous(t *testing.T) {
	// "All living societies choose at once. Each chosen value first rises by
	// 1. Every effect is then computed from the state after the rises and
	// before any effect, and all effects are added together. No seat goes
	// first."
	w := NewWorld(3)
	distinctFeels(&w)
	// 0 and 1 trade with their favourites (the highest feeling: 0 likes 2 most,
	// 1 likes 2 most); 2 conquers whom it likes least (0).
	after := turn(t, w, Exchange, Exchange, Conquer)
	// Each exchanger gains its exchange after the rise (3). Society 2, the
	// favourite of both, gains its own exchange (2, not raised) twice; it
	// also raids 0 for its conquer after the rise (3).
	want := []int{3 + 3 - 3, 3 + 3, 3 + 2 + 2 + 3}
	for i, s := range after.Societies {
		if s.Nation.Yield != want[i] {
			t.Errorf("society %d yield %d; want %d", i, s.Nation.Yield, want[i])
		}
	}
	// The order of the seats does not matter: mirror the world and the
	// choices and the result mirrors too.
	mirror := func(w World) World {
		n := len(w.Societies)
		m := w.Clone()
		for i := range n {
			m.Societies[i] = w.Societies[n-1-i]
			for j := range n {
				m.Feels[i][j] = w.Feels[n-1-i][n-1-j]
			}
		}
		return m
	}
	mirrored := turn(t, mirror(w), Conquer, Exchange, Exchange)
	if diff := cmp.Diff(mirror(after), mirrored); diff != "" {
		t.Errorf("the result depends on seat order:\n%s", diff)
	}
}

func TestRuleConquer(t *testing.T) {
	// "conquer: the living society j ≠ i that i likes least (lowest
	// feels[i][j]) loses d yield and i gains d; j's feeling toward i −5;
	// every other living society's (not i, not j) feeling toward i −1."
	w := NewWorld(4)
	distinctFeels(&w)
	w.Feels[1][0], w.Feels[1][2], w.Feels[1][3] = 5, -3, 7 // 1 likes 2 least
	w.Societies[1].Values[Conquer] = 4
	after := turn(t, w, Discover, Conquer, Discover, Discover)
	d := 5
	if got := after.Societies[1].Nation.Yield; got != 3+d {
		t.Errorf("conqueror's yield %d; want %d", got, 3+d)
	}
	if got := after.Societies[2].Nation.Yield; got != 3-d+3 { // raided, and discovered 3
		t.Errorf("raided yield %d; want %d", got, 3-d+3)
	}
	if got := after.Feels[2][1] - w.Feels[2][1]; got != -5 {
		t.Errorf("raided society's feeling toward the conqueror changed by %d; want -5", got)
	}
	for _, k := range []int{0, 3} {
		if got := after.Feels[k][1] - w.Feels[k][1]; got != -1 {
			t.Errorf("society %d's feeling toward the conqueror changed by %d; want -1", k, got)
		}
	}
}

func TestRuleConquerAlone(t *testing.T) {
	// "With no other living society there is nobody to raid: nothing but
	// the rise."
	w := NewWorld(2)
	w.Societies[1].Dead, w.Societies[1].Nation.Population = true, 0
	after := turn(t, w, Conquer, None)
	want := w.Clone()
	want.Societies[0].Values[Conquer]++
	if diff := cmp.Diff(want, after); diff != "" {
		t.Error(diff)
	}
}

func TestRuleExchange(t *testing.T) {
	// "exchange: i gains d yield. The living society j ≠ i that i likes most
	// gains its own devotion to exchange (after its own rise, if it also chose
	// exchange) in yield, and j's feeling toward i +1."
	w := NewWorld(3)
	distinctFeels(&w) // 0 likes 2 most
	w.Societies[2].Values[Exchange] = 7
	after := turn(t, w, Exchange, Discover, Discover)
	if got := after.Societies[0].Nation.Yield; got != 3+3 {
		t.Errorf("trader's yield %d; want 6", got)
	}
	if got := after.Societies[2].Nation.Yield; got != 3+7+3 {
		t.Errorf("partner's yield %d; want its exchange 7 plus its own discover 3: 13", got)
	}
	if got := after.Feels[2][0] - w.Feels[2][0]; got != 1 {
		t.Errorf("partner's feeling changed by %d; want +1", got)
	}
	if got := after.Feels[1][0] - w.Feels[1][0]; got != 0 {
		t.Errorf("a bystander's feeling changed by %d; want 0", got)
	}
	// The partner also chose exchange: its own devotion after its rise.
	after = turn(t, w, Exchange, Discover, Exchange)
	if got := after.Societies[2].Nation.Yield; got != 3+8+8 { // its own exchange 8, plus 8 as 0's partner
		t.Errorf("partner's yield %d; want 19", got)
	}
}

func TestRuleExchangeAlone(t *testing.T) {
	// "With no other living society, i still gains d."
	w := NewWorld(2)
	w.Societies[1].Dead, w.Societies[1].Nation.Population = true, 0
	after := turn(t, w, Exchange, None)
	if got := after.Societies[0].Nation.Yield; got != 3+3 {
		t.Errorf("yield %d; want 6", got)
	}
	if after.Societies[1].Nation.Yield != 3 {
		t.Error("a dead society was traded with")
	}
}

func TestRuleDiscover(t *testing.T) {
	// "discover: i gains d yield."
	w := NewWorld(2)
	w.Societies[0].Values[Discover] = 9
	after := turn(t, w, Discover, Expand)
	if got := after.Societies[0].Nation.Yield; got != 13 {
		t.Errorf("yield %d; want 3+10", got)
	}
	if after.Yield != w.Yield || after.Feels[1][0] != 0 {
		t.Error("discover touched more than its own yield")
	}
}

func TestRuleExpand(t *testing.T) {
	// "expand: i's population +d."
	w := NewWorld(2)
	w.Societies[0].Values[Expand] = 4
	after := turn(t, w, Expand, Discover)
	if got := after.Societies[0].Nation.Population; got != 3+5 {
		t.Errorf("population %d; want 8", got)
	}
}

func TestRuleDevelop(t *testing.T) {
	// "develop: i gains 3d yield; world yield −d; every other living
	// society's feeling toward i −1."
	w := NewWorld(3)
	after := turn(t, w, Develop, Discover, Discover)
	if got := after.Societies[0].Nation.Yield; got != 3+9 {
		t.Errorf("yield %d; want 3+3·3", got)
	}
	if got := after.Yield; got != 20-3 {
		t.Errorf("world yield %d; want 17", got)
	}
	for _, k := range []int{1, 2} {
		if got := after.Feels[k][0]; got != -1 {
			t.Errorf("society %d's feeling %d; want -1", k, got)
		}
	}
}

func TestRuleConsent(t *testing.T) {
	// "consent: world yield +d; every other living society's feeling toward
	// i +d."
	w := NewWorld(3)
	w.Societies[0].Values[Consent] = 5
	after := turn(t, w, Consent, Discover, Discover)
	if got := after.Yield; got != 26 {
		t.Errorf("world yield %d; want 26", got)
	}
	for _, k := range []int{1, 2} {
		if got := after.Feels[k][0]; got != 6 {
			t.Errorf("society %d's feeling %d; want 6", k, got)
		}
	}
}

func TestRuleDeadUntouched(t *testing.T) {
	// "Dead societies are never affected by anything: their numbers and
	// their row of feels stay as they were."
	w := NewWorld(3)
	distinctFeels(&w)
	w.Societies[2].Dead, w.Societies[2].Nation.Population = true, 0
	w.Feels[0][2], w.Feels[1][2] = -100, 100 // the dead would be least and most liked
	for _, c := range AllValues {
		after := turn(t, w, c, c, None)
		if diff := cmp.Diff(w.Societies[2], after.Societies[2]); diff != "" {
			t.Errorf("%v touched the dead: %s", c, diff)
		}
		if diff := cmp.Diff(w.Feels[2], after.Feels[2]); diff != "" {
			t.Errorf("%v changed the dead's feelings: %s", c, diff)
		}
	}
}

func TestRuleTies(t *testing.T) {
	// "Ties for "likes least/most" are broken uniformly at random: the
	// match RNG is drawn only when there is a tie, in seat order of the
	// choosing societies, picking among the tied societies listed in seat
	// order."
	w := NewWorld(4) // all feelings 0: every choice of target ties three ways
	rng := rand.New(rand.NewPCG(9, 9))
	twin := rand.New(rand.NewPCG(9, 9))
	// Seat order of choosers: 1 conquers (ties among 0, 2, 3), then 3
	// exchanges (ties among 0, 1, 2).
	want1 := []int{0, 2, 3}[twin.IntN(3)]
	want3 := []int{0, 1, 2}[twin.IntN(3)]
	after := w.Clone()
	if err := (OriginalRules{}).Turn(&after, []Value{Discover, Conquer, Discover, Exchange}, rng); err != nil {
		t.Fatal(err)
	}
	if after.Feels[want1][1] != -5 {
		t.Errorf("conquer raided someone other than %d: %v", want1, after.Feels)
	}
	if after.Feels[want3][3] != 1 {
		t.Errorf("exchange traded with someone other than %d: %v", want3, after.Feels)
	}
	if rng.Uint64() != twin.Uint64() {
		t.Error("the RNG was drawn more than once per tie")
	}
	// No tie, no draw.
	distinctFeels(&w)
	after = w.Clone()
	if err := (OriginalRules{}).Turn(&after, []Value{Conquer, Exchange, Conquer, Exchange}, rng); err != nil {
		t.Fatal(err)
	}
	if rng.Uint64() != twin.Uint64() {
		t.Error("the RNG was drawn without a tie")
	}
	// Uniform among the tied: over many draws each of three is picked about
	// a third of the time.
	var picks [4]int
	for range 30000 {
		x := NewWorld(4)
		if err := (OriginalRules{}).Turn(&x, []Value{Conquer, Discover, Discover, Discover}, rng); err != nil {
			t.Fatal(err)
		}
		for j := 1; j < 4; j++ {
			if x.Feels[j][0] == -5 {
				picks[j]++
			}
		}
	}
	for j := 1; j < 4; j++ {
		if picks[j] < 9500 || picks[j] > 10500 {
			t.Errorf("target %d picked %d times of 30000", j, picks[j])
		}
	}
}

func TestRuleStarvation(t *testing.T) {
	// "Starvation, after all effects: for each living society, if population
	// > world yield + its nation yield, population drops to that sum."
	w := NewWorld(2)
	w.Societies[0].Nation.Population = 30
	after := turn(t, w, Discover, Develop) // world 20 − 3 = 17; own yield 3 + 3 = 6
	if got := after.Societies[0].Nation.Population; got != 23 {
		t.Errorf("population %d; want 17 + 6 = 23", got)
	}
	// Expand past the limit the same turn: the effect first, then starvation.
	w.Societies[0].Nation.Population = 25
	w.Societies[0].Values[Expand] = 10
	after = turn(t, w, Expand, Discover)
	if got := after.Societies[0].Nation.Population; got != 20+3 {
		t.Errorf("population %d; want 23", got)
	}
}

func TestRuleDeath(t *testing.T) {
	// "A society whose population is then 0 or less is dead, with population
	// set to 0: it is offered nothing, makes no choices, is never a target,
	// and cannot win."
	w := NewWorld(3)
	w.Yield = -5
	w.Societies[1].Nation.Yield = 2 // limit −5 + 2 + 3 (discover) = 0
	after := turn(t, w, Develop, Discover, Develop)
	s := after.Societies[1]
	if !s.Dead || s.Nation.Population != 0 {
		t.Fatalf("society 1 is %+v; want dead with population 0", s)
	}
	// In a match: a dead society is offered nothing and cannot choose.
	m := newMatch(t, 3, 1, nil)
	m.world = after
	m.living = 2
	m.openTurn()
	for _, r := range m.Pending() {
		if r.Seat == 1 {
			t.Fatal("a dead society was asked to choose")
		}
	}
	if m.View(1).Offered() != nil {
		t.Error("a dead society was offered something")
	}
	if err := m.Apply(1, m.offers[0][0]); !engine.IsRuleError(err) {
		t.Errorf("a dead society's choice was not refused: %v", err)
	}
	// Never a target: with the dead society the least liked, conquer raids
	// the other living one.
	x := after.Clone()
	x.Feels[0][1], x.Feels[0][2] = -100, 0
	x = turn(t, x, Conquer, None, Discover)
	if x.Societies[1].Nation.Yield != after.Societies[1].Nation.Yield {
		t.Error("the dead were raided")
	}
}

func TestRuleDeadCannotWin(t *testing.T) {
	// "... and cannot win." The dead rank below every living society, even
	// with a higher score.
	m := newMatch(t, 3, 1, map[string]string{"turns": "1"})
	m.world.Societies[0].Nation.Yield = 1000
	m.world.Societies[0].Dead, m.world.Societies[0].Nation.Population = true, 0
	m.living = 2
	m.openTurn()
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, r.Default); err != nil {
			t.Fatal(err)
		}
	}
	res := m.Result()
	if res.Won(0) || res.Ranks[0] != 3 || res.Status[0] != "dead" {
		t.Errorf("result %+v: the dead society won or ranks above the living", res)
	}
}

func TestRuleAllDeadEndsAtOnce(t *testing.T) {
	// "If every society is dead, the game ends at once." And "If every
	// society is dead, nobody wins."
	m := newMatch(t, 2, 1, nil)
	m.world.Yield = -100
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, r.Default); err != nil {
			t.Fatal(err)
		}
	}
	if !m.Over() || m.Turn() != 1 {
		t.Fatalf("over %v after turn %d; want over after turn 1", m.Over(), m.Turn())
	}
	res := m.Result()
	if len(res.Winners) != 0 || res.Reason != "all dead" {
		t.Errorf("result %+v; want no winners, reason all dead", res)
	}
}

func TestRuleInflectionSchedule(t *testing.T) {
	// "An inflection follows every 10th turn while the game goes on (after
	// turns 10, 20, …, 90 of a 100-turn game; none after the last turn,
	// where it could change nothing). It is an extra decision, not a
	// replacement of a turn."
	m := newMatch(t, 2, 4, nil)
	var after []int
	turns := 0
	for !m.Over() {
		if m.infl {
			after = append(after, m.turn)
		} else {
			turns++
		}
		for _, r := range m.Pending() {
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
	}
	if diff := cmp.Diff([]int{10, 20, 30, 40, 50, 60, 70, 80, 90}, after); diff != "" {
		t.Error(diff)
	}
	if turns != 100 {
		t.Errorf("%d turns played; want 100", turns)
	}
}

func TestRuleInflectionOffer(t *testing.T) {
	// "Each living society is offered its three highest values, highest
	// first (ties in the seed's order: conquer, exchange, discover, expand,
	// develop, consent); the first is the default."
	cases := []struct {
		values Values
		want   [3]Value
	}{
		{Values{2, 2, 2, 2, 2, 2}, [3]Value{Conquer, Exchange, Discover}},
		{Values{1, 5, 3, 5, 0, 9}, [3]Value{Consent, Exchange, Expand}},
		{Values{0, 0, 0, 0, 7, 0}, [3]Value{Develop, Conquer, Exchange}},
		{Values{4, 4, 4, 8, 8, 8}, [3]Value{Expand, Develop, Consent}},
	}
	for _, c := range cases {
		if got := c.values.Top(); got != c.want {
			t.Errorf("Top(%v) = %v; want %v", c.values, got, c.want)
		}
	}
	m := newMatch(t, 2, 1, map[string]string{"turns": "11"})
	for m.turn < 10 {
		for _, r := range m.Pending() {
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range m.Pending() {
		top := m.world.Societies[r.Seat].Values.Top()
		if r.Kind != InflectionKind || [3]Value(r.Choices) != top || r.Default != top[0] {
			t.Errorf("inflection request %+v; want the three highest %v", r, top)
		}
	}
}

func TestRuleInflectionEffect(t *testing.T) {
	// "It chooses one: that value rises by 2, the other two fall by 1 (never
	// below 0). An inflection changes values only: no effects, no
	// starvation." And the seed: "The chosen value increases by 2, while the
	// others decrease by 1 each."
	w := NewWorld(2)
	w.Societies[0].Values = Values{5, 0, 4, 3, 1, 1} // top: conquer, discover, expand
	w.Societies[0].Nation.Population = 100           // would starve, were it a turn
	w.Societies[1].Values = Values{0, 0, 0, 0, 0, 0} // top: conquer, exchange, discover
	after := w.Clone()
	if err := (OriginalRules{}).Inflection(&after, []Value{Discover, Exchange}); err != nil {
		t.Fatal(err)
	}
	want := w.Clone()
	want.Societies[0].Values = Values{4, 0, 6, 2, 1, 1}
	want.Societies[1].Values = Values{0, 2, 0, 0, 0, 0}
	if diff := cmp.Diff(want, after); diff != "" {
		t.Error(diff)
	}
	if err := (OriginalRules{}).Inflection(&after, []Value{Consent, Exchange}); err == nil {
		t.Error("an inflection choice outside the three highest was accepted")
	}
}

func TestRuleScoring(t *testing.T) {
	// "After the last turn, score = nation yield + population for each
	// living society. The highest score wins; equal highest scores share the
	// win." And the seed: "whichever surviving people has the greatest Yield
	// and Population wins."
	m := newMatch(t, 4, 1, map[string]string{"turns": "1"})
	set := func(i, yield, pop int) {
		m.world.Societies[i].Nation = Nation{Population: pop, Yield: yield}
	}
	m.world.Yield = 1000
	set(0, 10, 5)
	set(1, 7, 8)
	set(2, 3, 4)
	set(3, 12, 3)
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, r.Default); err != nil {
			t.Fatal(err)
		}
	}
	res := m.Result()
	for i := range 4 {
		s := m.world.Societies[i]
		if res.Scores[i] != int64(s.Nation.Yield+s.Nation.Population) {
			t.Errorf("score %d = %d; want yield + population", i, res.Scores[i])
		}
	}
	best := int64(math.MinInt64)
	for _, sc := range res.Scores {
		best = max(best, sc)
	}
	for i, sc := range res.Scores {
		if (sc == best) != res.Won(i) {
			t.Errorf("seat %d score %d won=%v; best %d", i, sc, res.Won(i), best)
		}
	}
}

func TestRuleSharedWin(t *testing.T) {
	// "equal highest scores share the win"
	m := newMatch(t, 3, 1, map[string]string{"turns": "1"})
	m.world.Societies[2].Nation.Population = 1
	m.end("turns") // societies 0 and 1 are equal, 2 is weaker
	if res := m.Result(); len(res.Winners) != 2 || res.Ranks[0] != 1 || res.Ranks[1] != 1 || res.Ranks[2] != 3 {
		t.Errorf("result %+v; want seats 0 and 1 winning, both rank 1", res)
	}
}

// eager are the original rules played without a match's fast path: every
// turn writes its change of feelings at once.
type eager struct{ OriginalRules }

// seeingAI is the basic AI that writes down, at every decision, the world
// as its view shows it, in every form a player can read it.
type seeingAI struct {
	priority
	seen *[]string
}

func (a *seeingAI) Decide(ctx context.Context, req *engine.Request[Value], v View) (Value, error) {
	w := v.World()
	clone := w.Clone()
	feels := make([]int, 0, w.Len()*w.Len())
	for i := range w.Len() {
		for j := range w.Len() {
			feels = append(feels, w.Feels(i, j))
		}
	}
	j1, _ := json.Marshal(w)
	j2, _ := json.Marshal(clone)
	j3, _ := v.MarshalJSON()
	*a.seen = append(*a.seen, fmt.Sprint(feels), string(j1), string(j2), string(j3), v.String(), w.String())
	return a.priority.Decide(ctx, req, v)
}

func TestViewsSeeEveryFeeling(t *testing.T) {
	// A match of the original rules leaves each turn's change of feelings
	// toward the choosers unwritten until the living change or the match
	// is read: every form of every view must show the feelings as rules
	// that write them at once do, and so must the match's snapshot.
	play := func(g Game, seed uint64) ([]string, []byte) {
		var seen []string
		seats := make([]engine.Seat[Value, View], 6)
		setup := engine.Setup{Seed: seed, Players: make([]string, 6)}
		for i := range seats {
			setup.Players[i] = Value(i).String()
			ai := &seeingAI{seen: &seen}
			ai.n, ai.order[0] = 1, Value(i)
			seats[i] = engine.Seat[Value, View]{Name: setup.Players[i], Player: ai}
		}
		m, err := g.NewMatch(setup)
		if err != nil {
			t.Fatal(err)
		}
		var r engine.Runner[Value, View]
		if err := r.Run(context.Background(), m, seats, engine.NewRecord[Value](g.Info(), setup)); err != nil {
			t.Fatal(err)
		}
		snap, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		return seen, snap
	}
	for seed := range uint64(20) {
		fast, fastSnap := play(Original(), seed)
		slow, slowSnap := play(Game{Variant: "original", Rules: eager{}}, seed)
		if len(fast) != len(slow) {
			t.Fatalf("seed %d: %d views against %d", seed, len(fast), len(slow))
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("seed %d, view %d:\n%s\nwant\n%s", seed, i/6, fast[i], slow[i])
			}
		}
		if !bytes.Equal(fastSnap, slowSnap) {
			t.Fatalf("seed %d: snapshots differ", seed)
		}
	}
}

func TestParseWorldRefusesAFeelingTowardItself(t *testing.T) {
	// The diagonal is never read or changed (TestRuleDiagonal): a world
	// written by hand with a number there is refused, naming the entry,
	// rather than carried along as if it counted.
	w := NewWorld(3)
	w.Feels[1][1] = 4
	b, _ := json.Marshal(w)
	want := "world: feels[1][1] is 4, society 2's feeling toward itself, which no rule reads; it must be 0"
	if _, err := ParseWorld(b); err == nil || err.Error() != want {
		t.Errorf("%v; want %q", err, want)
	}
}
