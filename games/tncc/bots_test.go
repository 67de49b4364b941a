package tncc

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// Each behaviour test here quotes the rules page's "Built-in bots" and
// watches the bot play: a spy stands between the runner and the bot's
// player and checks every decision against the view it was made from.

// spyPlayer passes decisions to a bot's player and shows each to check,
// with the request and the view, before the runner applies it.
type spyPlayer struct {
	inner engine.Player[Move, View]
	check func(req *engine.Request[Move], v View, mv Move)
}

func (s *spyPlayer) Decide(ctx context.Context, req *engine.Request[Move], v View) (Move, error) {
	mv, err := s.inner.Decide(ctx, req, v)
	if err == nil {
		s.check(req, v, mv)
	}
	return mv, err
}

func (s *spyPlayer) Start(ctx context.Context, info engine.MatchInfo) error {
	if st, ok := s.inner.(engine.Starter); ok {
		return st.Start(ctx, info)
	}
	return nil
}

func (s *spyPlayer) Bounded() bool { return true }

// botGame plays one game of the named built-in bots on preset through the
// runner and returns its record. check, if not nil, sees every decision of
// the seats called spy. The game must end with no fault.
func botGame(t testing.TB, preset string, seed uint64, names []string, spy string, check func(req *engine.Request[Move], v View, mv Move)) *engine.Record[Move] {
	t.Helper()
	ss, setup := seats(t, names...)
	setup.Seed = seed
	setup.Options = map[string]string{"preset": preset}
	for i := range ss {
		if ss[i].Name == spy && check != nil {
			ss[i].Player = &spyPlayer{ss[i].Player, check}
		}
	}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecord[Move](Game{}.Info(), setup)
	var r engine.Runner[Move, View]
	if err := r.Run(context.Background(), m, ss, rec); err != nil {
		t.Fatal(err)
	}
	for _, f := range rec.Faults() {
		t.Errorf("%s, seed %d, %v: fault of %s: %s %s", preset, seed, names, names[f.Seat], f.Kind, f.Detail)
	}
	return rec
}

// everyGame plays each lineup in each preset with seeds 1 to seeds.
func everyGame(t *testing.T, seeds int, lineups [][]string, spy string, check func(req *engine.Request[Move], v View, mv Move)) {
	t.Helper()
	for _, p := range PresetNames() {
		for _, l := range lineups {
			for s := range seeds {
				botGame(t, p, uint64(s+1), l, spy, check)
			}
		}
	}
}

// threatOf is the turtle's threat, as the rules page says it: the largest
// army among the viewer's living rivals who could afford a war next cycle
// (their gold and a cycle of their citizens' gold reach gold_for_war).
func threatOf(v View) int64 {
	p := v.Preset()
	var threat int64
	for i := range v.Countries() {
		c := v.Country(i)
		if i != v.You() && !c.Dead && c.Stock[Gold]+p.GoldPerCitizen.Floor(c.Stock[Citizens]) >= p.GoldForWar {
			threat = max(threat, c.Stock[Army])
		}
	}
	return threat
}

// fed reports whether a country keeps "enough citizens to feed the army"
// with citizens and army: what its citizens make feeds its soldiers; where
// citizens make no food, the food in store feeds them a cycle; where
// soldiers eat nothing, a citizen is left.
func fed(p *Preset, food, citizens, army int64) bool {
	switch {
	case citizens < 1:
		return false
	case p.FoodPerSoldier.Sign() == 0:
		return true
	case p.FoodPerCitizen.Sign() <= 0:
		return p.FoodPerSoldier.Floor(army) <= food
	}
	return p.FoodPerCitizen.Floor(citizens) >= p.FoodPerSoldier.Floor(army)
}

// checkThirds checks that a defence is the army in thirds.
func checkThirds(t *testing.T, who string, v View, mv Move) {
	t.Helper()
	a := v.Me().Stock[Army]
	if mv.Type != Defend || mv.Flanks.Total() != a || slices.Max(mv.Flanks[:])-slices.Min(mv.Flanks[:]) > 2 {
		t.Errorf("%s with army %d defends with %v; want its army in thirds", who, a, mv)
	}
}

// counts tallies what the spied bots were asked, to be sure each behaviour
// was seen.
type counts map[string]int

func (c counts) want(t *testing.T, who string, kinds ...string) {
	t.Helper()
	for _, k := range kinds {
		if c[k] == 0 {
			t.Errorf("%s: never seen to %s; the test proves nothing about it", who, k)
		}
	}
}

func TestBotRegistry(t *testing.T) {
	for _, name := range []string{"nothing", "turtle", "war", "blitz", "trader", "general"} {
		es, err := Bots(name)
		if err != nil || len(es) != 1 || es[0].Name != name {
			t.Fatalf("Bots(%q) = %v, %v", name, es, err)
		}
		b, ok := es[0].New().(engine.Bounded)
		if !ok || !b.Bounded() {
			t.Errorf("%s is not bounded", name)
		}
		if !slices.Contains(Game{}.Info().Players, name) {
			t.Errorf("Info().Players lacks %s", name)
		}
	}
}

func TestBotNothing(t *testing.T) {
	// "`nothing`: always waits; refuses trades; defends with 0, 0, 0."
	seen := counts{}
	everyGame(t, 2, [][]string{{"nothing", "war", "trader", "blitz"}}, "nothing", func(req *engine.Request[Move], v View, mv Move) {
		switch req.Kind {
		case TurnKind:
			seen["wait"]++
			if mv != WaitMove {
				t.Errorf("nothing plays %v; it always waits", mv)
			}
		case TradeAnswerKind:
			seen["answer a trade"]++
			if mv.Type != Decline {
				t.Errorf("nothing answers an offer %v; it refuses trades", mv)
			}
		case WarAnswerKind:
			seen["defend"]++
			if mv != DefendMove(Flanks{}) {
				t.Errorf("nothing defends with %v; it defends with 0, 0, 0", mv)
			}
		}
	})
	seen.want(t, "nothing", "wait", "defend")
	// An offer it would like as well as any: a gift.
	m := offerTo(t, "default", TradeMove(1, Gold, 100, Food, 0))
	v := m.View(1)
	o, _ := v.Offer()
	if yes, _ := Nothing().AnswerTrade(v, o); yes {
		t.Error("nothing accepts a gift of 100 gold; it refuses trades")
	}
}

// offerTo starts a two-country game on preset in which country 0 offers mv
// to country 1 on its first turn, and returns it waiting for the answer.
func offerTo(t *testing.T, preset string, mv Move) *Match {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b"}, Options: map[string]string{"preset": preset}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(0, mv); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.View(1).Offer(); !ok {
		t.Fatal("country 2 is not asked to answer the offer")
	}
	return m
}

func TestBotTurtle(t *testing.T) {
	// "`turtle`: watches the largest army among rivals who could afford a
	// war next cycle; recruits up to that size while keeping enough
	// citizens to feed the army (or disbands when nobody threatens); never
	// attacks; refuses trades; defends with its army split in thirds."
	seen := counts{}
	everyGame(t, 2, [][]string{{"turtle", "blitz", "war", "trader"}, {"general", "turtle", "blitz", "nothing"}}, "turtle", func(req *engine.Request[Move], v View, mv Move) {
		me := v.Me().Stock
		switch req.Kind {
		case TradeAnswerKind:
			if mv.Type != Decline {
				t.Errorf("turtle answers an offer %v; it refuses trades", mv)
			}
			return
		case WarAnswerKind:
			seen["defend"]++
			checkThirds(t, "turtle", v, mv)
			return
		}
		threat, army, p := threatOf(v), me[Army], v.Preset()
		switch {
		case mv.Type == War || mv.Type == Trade:
			t.Errorf("turtle plays %v; it never attacks and refuses trades", mv)
		case threat == 0 && army > 0:
			seen["disband"]++
			if mv != RecruitMove(-army) {
				t.Errorf("turtle with army %d and nobody threatening plays %v; it disbands", army, mv)
			}
		case threat <= army:
			if mv != WaitMove {
				t.Errorf("turtle with army %d against a threat of %d plays %v; it waits", army, threat, mv)
			}
		case mv.Type == Recruit:
			seen["recruit"]++
			n := mv.N
			switch {
			case n <= 0 || army+n > threat:
				t.Errorf("turtle with army %d against a threat of %d recruits %d; it recruits up to that size", army, threat, n)
			case !fed(p, me[Food], me[Citizens]-n, army+n):
				t.Errorf("turtle recruits %d of %d citizens, to an army of %d it cannot feed", n, me[Citizens], army+n)
			case army+n < threat && fed(p, me[Food], me[Citizens]-n-1, army+n+1):
				t.Errorf("turtle recruits %d against a threat of %d, and could feed one more", n, threat)
			}
		case mv == WaitMove:
			if fed(p, me[Food], me[Citizens]-1, army+1) {
				t.Errorf("turtle waits with army %d against a threat of %d, and could feed more", army, threat)
			}
		default:
			t.Errorf("turtle plays %v", mv)
		}
	})
	seen.want(t, "turtle", "recruit", "disband", "defend")
}

func TestBotWar(t *testing.T) {
	// "`war`: with at least 3 soldiers and enough gold, attacks a random
	// living rival with its army in thirds; with no army, recruits a tenth
	// of its citizens; otherwise waits; refuses trades; defends in thirds."
	seen := counts{}
	targets := map[int]bool{} // relative to the war bot's seat
	everyGame(t, 3, [][]string{{"war", "nothing", "nothing", "nothing"}, {"blitz", "war", "turtle", "general"}}, "war", func(req *engine.Request[Move], v View, mv Move) {
		me := v.Me().Stock
		switch req.Kind {
		case TradeAnswerKind:
			if mv.Type != Decline {
				t.Errorf("war answers an offer %v; it refuses trades", mv)
			}
			return
		case WarAnswerKind:
			seen["defend"]++
			checkThirds(t, "war", v, mv)
			return
		}
		switch army := me[Army]; {
		case army >= 3 && me[Gold] >= v.GoldForWar():
			seen["attack"]++
			if mv.Type != War || mv.Flanks != Thirds(army) || mv.Target == v.You() || v.Country(mv.Target).Dead {
				t.Errorf("war with army %d and gold %d plays %v; it attacks a living rival with its army in thirds", army, me[Gold], mv)
			}
			if n := v.Countries(); v.Living() == n {
				targets[(mv.Target-v.You()+n)%n] = true
			}
		case army == 0 && me[Citizens]/10 > 0:
			seen["recruit"]++
			if mv != RecruitMove(me[Citizens]/10) {
				t.Errorf("war with no army and %d citizens plays %v; it recruits a tenth of its citizens", me[Citizens], mv)
			}
		default:
			if mv != WaitMove {
				t.Errorf("war with army %d and gold %d plays %v; it waits", army, me[Gold], mv)
			}
		}
	})
	seen.want(t, "war", "attack", "recruit", "defend")
	if len(targets) < 3 {
		t.Errorf("with three rivals alive, war attacked only %d of them over the games; it picks a random rival", len(targets))
	}
}

func TestBotBlitz(t *testing.T) {
	// "`blitz`: builds up while poor, then commits: recruits almost every
	// citizen and next turn attacks the rival with the smallest army with
	// everything on one random flank; defends in thirds when the attack is
	// small, otherwise two halves and one empty flank."
	seen := counts{}
	flanks := map[int]bool{}
	last := map[int]Move{} // per seat, its last action; reset each game
	everyGame(t, 3, [][]string{{"blitz", "turtle", "war", "nothing"}, {"general", "war", "blitz", "trader"}}, "blitz", func(req *engine.Request[Move], v View, mv Move) {
		me := v.Me().Stock
		switch req.Kind {
		case TradeAnswerKind:
			if mv.Type != Decline {
				t.Errorf("blitz answers an offer %v; it refuses trades", mv)
			}
			return
		case WarAnswerKind:
			a, _ := v.Attack()
			army := me[Army]
			if a.Sent <= army/2 {
				seen["defend in thirds"]++
				checkThirds(t, "blitz", v, mv)
				return
			}
			seen["defend in halves"]++
			f := mv.Flanks
			empty := slices.Index(f[:], 0)
			slices.Sort(f[:])
			if army >= 2 && (empty < 0 || f[0] != 0 || f[1] != army/2 || f[2] != army-army/2) {
				t.Errorf("blitz with army %d against %d defends with %v; want two halves and one empty flank", army, a.Sent, mv)
			}
			return
		}
		if v.Cycle() == 1 {
			delete(last, v.You())
		}
		prev, had := last[v.You()]
		last[v.You()] = mv
		switch mv.Type {
		case Recruit:
			if mv.N < 0 {
				if mv.N != -me[Army] {
					t.Errorf("blitz disbands %d of %d soldiers", -mv.N, me[Army])
				}
				return
			}
			seen["commit"]++
			if keep := me[Citizens] - mv.N; keep != max(me[Citizens]/20, 1) {
				t.Errorf("blitz recruits %d of %d citizens, keeping %d; it recruits almost every citizen (a twentieth stays)", mv.N, me[Citizens], keep)
			}
			if me[Gold] < v.GoldForWar() {
				t.Errorf("blitz commits with %d gold, short of a war's %d; it builds up while poor", me[Gold], v.GoldForWar())
			}
		case War:
			seen["attack"]++
			if had && prev.Type != War && (prev.Type != Recruit || prev.N <= 0) {
				t.Errorf("blitz attacks after %v; it attacks the turn after it commits", prev)
			}
			k := slices.IndexFunc(mv.Flanks[:], func(n int64) bool { return n > 0 })
			if mv.Flanks.Total() != me[Army] || mv.Flanks[k] != me[Army] {
				t.Errorf("blitz with army %d attacks with %v; it sends everything on one flank", me[Army], mv.Flanks)
			}
			flanks[k] = true
			for i := range v.Countries() {
				if c := v.Country(i); i != v.You() && !c.Dead && c.Stock[Army] < v.Country(mv.Target).Stock[Army] {
					t.Errorf("blitz attacks country %d with army %d; country %d has only %d", mv.Target+1, v.Country(mv.Target).Stock[Army], i+1, c.Stock[Army])
				}
			}
		case Trade:
			t.Errorf("blitz offers %v; it refuses trades", mv)
		default:
			if had && prev.Type == Recruit && prev.N > 0 && me[Gold] >= v.GoldForWar() {
				t.Errorf("blitz waits the turn after it commits, with %d gold; it attacks", me[Gold])
			}
		}
	})
	seen.want(t, "blitz", "commit", "attack", "defend in thirds", "defend in halves")
	if len(flanks) < 2 {
		t.Errorf("blitz attacked on flanks %v only; it picks one at random", flanks)
	}
}

func TestBotTraderTrades(t *testing.T) {
	// Beyond the seed: "`trader`, which makes and accepts trades that improve
	// its position." Its offers are legal, gold for food or food for gold;
	// it accepts an offer exactly when what it holds is worth more after
	// than before, by its prices.
	seen := counts{}
	lineups := append(rotations([]string{"trader", "trader", "war", "blitz"}), []string{"trader", "general", "trader", "turtle"})
	everyGame(t, 2, lineups, "trader", func(req *engine.Request[Move], v View, mv Move) {
		p := v.Preset()
		pr := pricesOf(p)
		switch req.Kind {
		case TurnKind:
			if mv.Type != Trade {
				return
			}
			seen["offer"]++
			w := v.World()
			if err := w.Check(v.You(), mv); err != nil {
				t.Errorf("trader offers %v: %v", mv, err)
			}
			if !(mv.Give == Gold && mv.Take == Food || mv.Give == Food && mv.Take == Gold) {
				t.Errorf("trader offers %v; it trades gold for food or food for gold", mv)
			}
		case TradeAnswerKind:
			o, _ := v.Offer()
			before := v.Me().Stock
			after := before
			after[o.Give] += o.GiveN
			after[o.Take] -= o.TakeN
			better := pr.worth(p, &after) > pr.worth(p, &before)
			if better {
				seen["accept"]++
			}
			if (mv.Type == Accept) != better {
				t.Errorf("trader answers %v to %+v; by its prices the offer improves its position: %v", mv, o, better)
			}
		}
	})
	seen.want(t, "trader", "offer", "accept")
}

func TestBotTraderAnswers(t *testing.T) {
	// "accepts offers whose value to it is positive and refuses the rest."
	for _, c := range []struct {
		preset string
		offer  Move // country 1's offer to the trader, country 2
		accept bool
	}{
		{"default", TradeMove(1, Gold, 100, Food, 0), true},              // a gift
		{"default", TradeMove(1, Gold, 1, Food, 800), false},             // all its food for a coin
		{"default", TradeMove(1, Gold, 1, Citizens, 800), false},         // all its people
		{"default", TradeMove(1, Gold, 10, Land, 100), false},            // most of its land
		{"mexican_standoff", TradeMove(1, Food, 1000, Gold, 500), true},  // food it needs for its soldiers, for spare gold
		{"mexican_standoff", TradeMove(1, Gold, 500, Food, 1000), false}, // the food its soldiers need
	} {
		m := offerTo(t, c.preset, c.offer)
		v := m.View(1)
		o, _ := v.Offer()
		if yes, err := Trader().AnswerTrade(v, o); err != nil || yes != c.accept {
			t.Errorf("%s: trader answers %v, %v to %v; want %v", c.preset, yes, err, c.offer, c.accept)
		}
	}
}

func TestBotTraderDefends(t *testing.T) {
	// "recruits to defend against affordable threats like the turtle,
	// defends in thirds"; it never attacks.
	seen := counts{}
	everyGame(t, 2, [][]string{{"trader", "blitz", "war", "general"}}, "trader", func(req *engine.Request[Move], v View, mv Move) {
		switch req.Kind {
		case WarAnswerKind:
			seen["defend"]++
			checkThirds(t, "trader", v, mv)
		case TurnKind:
			threat, army := threatOf(v), v.Me().Stock[Army]
			switch {
			case mv.Type == War:
				t.Errorf("trader attacks: %v", mv)
			case mv.Type == Recruit && mv.N > 0:
				seen["recruit"]++
				if army+mv.N > threat {
					t.Errorf("trader with army %d recruits %d against a threat of %d", army, mv.N, threat)
				}
			case mv.Type == Recruit && threat > 0:
				t.Errorf("trader disbands with a threat of %d", threat)
			}
		}
	})
	seen.want(t, "trader", "recruit", "defend")
}

func TestBotGeneralBeatsBlitz(t *testing.T) {
	// "at least one search-based bot that beats `blitz`": one against one,
	// in both seat orders, the general ranks better on every preset.
	for _, p := range PresetNames() {
		var general, blitz int
		for s := range 5 {
			for _, names := range [][]string{{"general", "blitz"}, {"blitz", "general"}} {
				rec := botGame(t, p, uint64(s+1), names, "", nil)
				for seat, name := range names {
					if name == "general" {
						general += rec.End.Result.Ranks[seat]
					} else {
						blitz += rec.End.Result.Ranks[seat]
					}
				}
			}
		}
		if general >= blitz {
			t.Errorf("%s: in 10 games the general's ranks add up to %d, blitz's to %d", p, general, blitz)
		}
	}
}

func TestBotGeneralDefends(t *testing.T) {
	// The general answers an attack with a legal defence that, whatever
	// the split of the attack, does at least as well by its score as
	// defending in thirds; against a blow it can hold it holds it.
	seen := counts{}
	everyGame(t, 2, [][]string{{"general", "blitz", "war", "turtle"}}, "general", func(req *engine.Request[Move], v View, mv Move) {
		if req.Kind != WarAnswerKind {
			return
		}
		a, _ := v.Attack()
		army := v.Me().Stock[Army]
		if w := v.World(); mv.Type != Defend || w.CheckDefence(v.You(), mv.Flanks) != nil {
			t.Errorf("general with army %d answers an attack of %d with %v", army, a.Sent, mv)
			return
		}
		seen["defend"]++
		// A blow on one flank of a soldiers: does the defence hold it?
		p := v.Preset()
		held := func(f Flanks) bool {
			for k := range 3 {
				var att Flanks
				att[k] = a.Sent
				if left, _ := Fight(att, f, p.DefendAdvantage, p.AttackAdvantage); left > 0 {
					return false
				}
			}
			return true
		}
		if held(Thirds(army)) && !held(mv.Flanks) {
			t.Errorf("general with army %d answers a blow of %d with %v, which does not hold it; thirds would", army, a.Sent, mv.Flanks)
		}
		if held(mv.Flanks) {
			seen["hold"]++
		}
	})
	seen.want(t, "general", "defend", "hold")
}

func TestBotsDeterministic(t *testing.T) {
	// Bots draw their chance from engine.SeatRNG: the same seed gives the
	// same game.
	for _, p := range PresetNames() {
		names := []string{"general", "trader", "war", "blitz", "turtle", "nothing"}
		a := botRecordBytes(t, botGame(t, p, 3, names, "", nil))
		b := botRecordBytes(t, botGame(t, p, 3, names, "", nil))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two games with seed 3 differ", p)
		}
	}
}

func botRecordBytes(t *testing.T, rec *engine.Record[Move]) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// midGame plays a game of the named bots on preset through their players
// until it is seat's turn in cycle at or after cycle, and returns the
// match there (nil if the game ended first, or seat died).
func midGame(tb testing.TB, preset string, seed uint64, cycle, seat int, names ...string) *Match {
	tb.Helper()
	ss, setup := seats(tb, names...)
	setup.Seed = seed
	setup.Options = map[string]string{"preset": preset}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	for i, s := range ss {
		if st, ok := s.Player.(engine.Starter); ok {
			if err := st.Start(ctx, engine.MatchInfo{Ruleset: "tncc", Players: setup.Players, Options: setup.Options, Seed: engine.SeatSeed(seed, i), Seat: i}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	for !m.Over() {
		req := m.Pending()[0]
		if req.Kind == TurnKind && req.Seat == seat && m.World().Cycle >= cycle {
			return m
		}
		mv, err := ss[req.Seat].Player.Decide(ctx, &req, m.View(req.Seat))
		if err != nil || m.Apply(req.Seat, mv) != nil {
			if err := m.Apply(req.Seat, req.Default); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return nil
}

func TestBotGeneralAllocates(t *testing.T) {
	// The general keeps its buffers: once they have grown, a decision
	// allocates nothing.
	for _, p := range PresetNames() {
		m := midGame(t, p, 1, 5, 0, "general", "blitz", "turtle", "war")
		if m == nil {
			continue
		}
		b := General()
		v := m.View(0)
		b.Turn(v)
		if n := testing.AllocsPerRun(20, func() { b.Turn(v) }); n > 0 {
			t.Errorf("%s: a decision of the general allocates %v times", p, n)
		}
	}
}

// BenchmarkGeneral times the general's decisions: a turn at a few points
// of a default game (cycle 10: four countries alive and armed; cycle 40),
// and every decision of whole games among general, blitz, turtle and war
// on each preset, in µs per decision.
func BenchmarkGeneral(b *testing.B) {
	for _, cycle := range []int{10, 40} {
		b.Run(fmt.Sprintf("turn/cycle%d", cycle), func(b *testing.B) {
			m := midGame(b, "default", 1, cycle, 0, "general", "blitz", "turtle", "war")
			if m == nil {
				b.Skip("the general is not alive then")
			}
			bot := General()
			v := m.View(0)
			b.ReportAllocs()
			for b.Loop() {
				bot.Turn(v)
			}
		})
	}
	for _, p := range PresetNames() {
		b.Run("games/"+p, func(b *testing.B) {
			ss, setup := seats(b, "general", "blitz", "turtle", "war")
			setup.Options = map[string]string{"preset": p}
			timer := &timedPlayer{inner: ss[0].Player}
			ss[0].Player = timer
			var runner engine.Runner[Move, View]
			rec := engine.NewRecord[Move](Game{}.Info(), setup)
			var seed uint64
			for b.Loop() {
				seed++
				setup.Seed = seed
				m, err := Game{}.New(setup)
				if err != nil {
					b.Fatal(err)
				}
				rec.Reset(Game{}.Info(), setup)
				if err := runner.Run(context.Background(), m, ss, rec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(timer.spent.Microseconds())/float64(max(timer.calls, 1)), "µs/decision")
			b.ReportMetric(float64(timer.calls)/float64(b.N), "decisions/game")
		})
	}
}

// timedPlayer adds up the time its player takes to decide.
type timedPlayer struct {
	inner engine.Player[Move, View]
	spent time.Duration
	calls int
}

func (p *timedPlayer) Decide(ctx context.Context, req *engine.Request[Move], v View) (Move, error) {
	start := time.Now()
	mv, err := p.inner.Decide(ctx, req, v)
	p.spent += time.Since(start)
	p.calls++
	return mv, err
}

func (p *timedPlayer) Start(ctx context.Context, info engine.MatchInfo) error {
	return p.inner.(engine.Starter).Start(ctx, info)
}

func (p *timedPlayer) Bounded() bool { return true }

// The tables: on each preset, every rotation of each lineup below, with
// seeds 1 to 10.

var tableLineups = [][]string{
	{"general", "blitz", "turtle", "war"},
	{"general", "trader", "nothing", "blitz"},
	{"marshal", "blitz", "turtle", "war"},
	{"marshal", "trader", "nothing", "blitz"},
}

const tableSeeds = 10

// tableRow is one bot's line of a preset's table.
type tableRow struct {
	Bot    string
	Games  int
	Wins   int // a shared win counts for every winner
	Ranks  int // the sum of its ranks
	Faults int
	Offers int // trades offered
	Deals  int // of those, accepted
	Micros int64
	Calls  int // decisions, and Micros the time they took
}

// MeanRank returns the bot's mean rank, 1 for the best.
func (r tableRow) MeanRank() float64 { return float64(r.Ranks) / float64(max(r.Games, 1)) }

// botTable is one preset's table, best mean rank first.
type botTable struct {
	Preset string
	Rows   []tableRow
}

func (t *botTable) row(bot string) *tableRow {
	for i := range t.Rows {
		if t.Rows[i].Bot == bot {
			return &t.Rows[i]
		}
	}
	return nil
}

func (t *botTable) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  %-8s %6s %6s %9s %6s %7s %12s\n", t.Preset, "bot", "games", "wins", "mean rank", "faults", "trades", "µs/decision")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "  %-8s %6d %6d %9.2f %6d %7s %12.1f\n", r.Bot, r.Games, r.Wins, r.MeanRank(), r.Faults,
			fmt.Sprintf("%d/%d", r.Deals, r.Offers), float64(r.Micros)/float64(max(r.Calls, 1)))
	}
	return b.String()
}

// rotations returns every rotation of lineup.
func rotations(lineup []string) [][]string {
	out := make([][]string, len(lineup))
	for k := range lineup {
		out[k] = append(slices.Clone(lineup[k:]), lineup[:k]...)
	}
	return out
}

// playBotTable plays every rotation of every lineup with seeds 1 to seeds
// on one preset through the runner, as many games at once as there are
// processors, and tallies them per bot.
func playBotTable(tb testing.TB, preset string, lineups [][]string, seeds int) *botTable {
	tb.Helper()
	type game struct {
		names []string
		seed  uint64
		ss    []engine.Seat[Move, View]
		setup engine.Setup
		rec   *engine.Record[Move]
		err   error
	}
	var games []*game
	for _, l := range lineups {
		for _, r := range rotations(l) {
			for s := range seeds {
				g := &game{names: r, seed: uint64(s + 1)}
				g.ss, g.setup = seats(tb, r...)
				g.setup.Seed = g.seed
				g.setup.Options = map[string]string{"preset": preset}
				games = append(games, g)
			}
		}
	}
	next := make(chan *game)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var runner engine.Runner[Move, View]
			runner.Timings = true
			for g := range next {
				m, err := Game{}.New(g.setup)
				if err != nil {
					g.err = err
					continue
				}
				g.rec = engine.NewRecord[Move](Game{}.Info(), g.setup)
				g.err = runner.Run(context.Background(), m, g.ss, g.rec)
			}
		})
	}
	for _, g := range games {
		next <- g
	}
	close(next)
	wg.Wait()

	rows := map[string]*tableRow{}
	for _, g := range games {
		if g.err != nil {
			tb.Fatalf("%s, seed %d, %v: %v", preset, g.seed, g.names, g.err)
		}
		res := g.rec.End.Result
		for seat, name := range g.names {
			r := rows[name]
			if r == nil {
				r = &tableRow{Bot: name}
				rows[name] = r
			}
			r.Games++
			r.Ranks += res.Ranks[seat]
			if res.Won(seat) {
				r.Wins++
			}
		}
		steps := g.rec.Steps
		for i, s := range steps {
			r := rows[g.names[s.Seat]]
			r.Calls++
			r.Micros += s.Nanos / 1000
			if s.Fault != nil {
				r.Faults++
			}
			if s.Move.Type == Trade && i+1 < len(steps) {
				r.Offers++
				if steps[i+1].Move.Type == Accept {
					r.Deals++
				}
			}
		}
	}
	t := &botTable{Preset: preset}
	for _, r := range rows {
		t.Rows = append(t.Rows, *r)
	}
	slices.SortFunc(t.Rows, func(a, b tableRow) int {
		return cmp.Or(cmp.Compare(a.MeanRank(), b.MeanRank()), cmp.Compare(b.Wins, a.Wins), strings.Compare(a.Bot, b.Bot))
	})
	return t
}

// TestBotTables plays, on each of the six presets, every rotation of the
// lineups above with ten seeds each, and prints a table of wins and mean
// ranks per bot (go test -run TestBotTables -v). The rules page asks for "at
// least one search-based bot that beats `blitz`": on the default preset the
// general's mean rank must beat blitz's. No bot may fault. The general and
// the marshal must win 95% of their games on every preset but
// mexican_standoff, and 80% there: no player can win more than 87.4% of
// that preset's games at these tables (TestSurvivalBound); each wins 85.8%
// of 800.
func TestBotTables(t *testing.T) {
	start := time.Now()
	for _, p := range PresetNames() {
		table := playBotTable(t, p, tableLineups, tableSeeds)
		t.Log("\n" + table.String())
		for _, r := range table.Rows {
			if r.Faults > 0 {
				t.Errorf("%s: %s made %d faults", p, r.Bot, r.Faults)
			}
		}
		want := 0.95
		if p == "mexican_standoff" {
			want = 0.80
		}
		for _, name := range []string{"general", "marshal"} {
			g := table.row(name)
			if got := float64(g.Wins) / float64(g.Games); got < want {
				t.Errorf("%s: the %s wins %d of %d games (%.1f%%); want at least %.0f%%", p, name, g.Wins, g.Games, 100*got, 100*want)
			}
		}
		if p == "default" {
			g, b := table.row("general"), table.row("blitz")
			if g.MeanRank() >= b.MeanRank() {
				t.Errorf("default: the general's mean rank %.2f does not beat blitz's %.2f", g.MeanRank(), b.MeanRank())
			}
		}
	}
	t.Logf("%d games in %v", 6*tableSeeds*4*len(tableLineups), time.Since(start).Round(time.Millisecond))
}

// BenchmarkGeneralDecisions plays, on each preset, games of the general
// (and of the marshal) against blitz, turtle and war through the runner,
// and reports the mean and the 99th percentile of its decision times (go
// test -run XXX -bench GeneralDecisions).
func BenchmarkGeneralDecisions(b *testing.B) {
	for _, bot := range []string{"general", "marshal"} {
		for _, p := range PresetNames() {
			benchmarkDecisions(b, bot, p)
		}
	}
}

func benchmarkDecisions(b *testing.B, bot, p string) {
	b.Run(bot+"/"+p, func(b *testing.B) {
		ss, setup := seats(b, bot, "blitz", "turtle", "war")
		setup.Options = map[string]string{"preset": p}
		var runner engine.Runner[Move, View]
		runner.Timings = true
		rec := engine.NewRecord[Move](Game{}.Info(), setup)
		var times []int64
		var seed uint64
		for b.Loop() {
			seed++
			setup.Seed = seed
			m, err := Game{}.New(setup)
			if err != nil {
				b.Fatal(err)
			}
			rec.Reset(Game{}.Info(), setup)
			if err := runner.Run(context.Background(), m, ss, rec); err != nil {
				b.Fatal(err)
			}
			for _, s := range rec.Steps {
				if s.Seat == 0 {
					times = append(times, s.Nanos)
				}
			}
		}
		slices.Sort(times)
		var sum int64
		for _, x := range times {
			sum += x
		}
		n := max(len(times), 1)
		b.ReportMetric(float64(sum)/float64(n)/1000, "mean-µs/decision")
		b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)])/1000, "p99-µs/decision")
	})

}

// TestBotMarshalStrikesFirst: on crazy, seed 3, blitz kills random and the
// general's seat kills war in cycle 3; in cycle 4 blitz sends its soldiers
// home, with some 30,000 citizens it can call to arms. The general arms
// and waits, and dies in cycle 6 to blitz's call to arms of 33,680; the
// marshal strikes while blitz has no army, and wins.
func TestBotMarshalStrikesFirst(t *testing.T) {
	for _, c := range []struct {
		bot string
		won bool
	}{{"general", false}, {"marshal", true}} {
		ss, setup := seats(t, "war", "blitz", c.bot, "random")
		setup.Seed = 3
		setup.Options = map[string]string{"preset": "crazy"}
		m, err := Game{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		rec := engine.NewRecord[Move](Game{}.Info(), setup)
		var runner engine.Runner[Move, View]
		if err := runner.Run(context.Background(), m, ss, rec); err != nil {
			t.Fatal(err)
		}
		if won := rec.End.Result.Won(2); won != c.won {
			t.Errorf("crazy, seed 3: the %s won: %v; want %v (%v)", c.bot, won, c.won, rec.End.Result.Status)
		}
	}
}
