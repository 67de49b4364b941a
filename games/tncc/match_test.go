package tncc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
)

// play runs a match among seats with the given options and returns its
// record and match.
func play(t *testing.T, seed uint64, options map[string]string, ss []engine.Seat[Move, View]) (*engine.Record[Move], *Match) {
	t.Helper()
	setup := engine.Setup{Seed: seed, Options: options}
	for _, s := range ss {
		setup.Players = append(setup.Players, s.Name)
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
	if err := rec.Seal(m); err != nil {
		t.Fatal(err)
	}
	return rec, m
}

func recordBytes(t *testing.T, rec *engine.Record[Move]) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterministicAndReplayable(t *testing.T) {
	// "Rules are deterministic given the match seed; the same seed and moves
	// give byte-identical results."
	for _, preset := range PresetNames() {
		opts := map[string]string{"preset": preset}
		ss, _ := seats(t, "nothing", "turtle", "war", "blitz")
		a, _ := play(t, 7, opts, ss)
		ss, _ = seats(t, "nothing", "turtle", "war", "blitz")
		b, _ := play(t, 7, opts, ss)
		if !bytes.Equal(recordBytes(t, a), recordBytes(t, b)) {
			t.Errorf("%s: two games with seed 7 differ", preset)
		}
		back, err := engine.ReadRecord[Move](bytes.NewReader(recordBytes(t, a)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Replay[Move, View](Game{}, back, nil); err != nil {
			t.Errorf("%s: replay: %v", preset, err)
		}
	}
}

func TestCustomPresetOption(t *testing.T) {
	p := Default()
	p.Name, p.GoldForWar, p.MaxCycles = "cheap war", 100, 30
	opts := map[string]string{"preset": p.Option()}
	ss, _ := seats(t, "war", "war", "nothing")
	rec, m := play(t, 3, opts, ss)
	if m.World().Preset != p {
		t.Fatalf("preset %+v; want %+v", m.World().Preset, p)
	}
	if _, err := engine.Replay[Move, View](Game{}, rec, nil); err != nil {
		t.Errorf("replay with a custom preset: %v", err)
	}
	if _, err := PresetOption(`{"base": "nope"}`); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("a bad preset option: %v", err)
	}
}

// misbehaving is a bot whose every decision is a function. It is not
// Bounded: the runner watches it.
type misbehaving struct {
	turn   func(View) (Move, error)
	trade  func(View, Offer) (bool, error)
	war    func(View, Attack) (Flanks, error)
	called atomic.Int32
}

func (b *misbehaving) Turn(v View) (Move, error) {
	b.called.Add(1)
	if b.turn == nil {
		return WaitMove, nil
	}
	return b.turn(v)
}

func (b *misbehaving) AnswerTrade(v View, o Offer) (bool, error) {
	b.called.Add(1)
	if b.trade == nil {
		return false, nil
	}
	return b.trade(v, o)
}

func (b *misbehaving) AnswerWar(v View, a Attack) (Flanks, error) {
	b.called.Add(1)
	if b.war == nil {
		return Flanks{}, nil
	}
	return b.war(v, a)
}

// attacker attacks country 1 (seat 1) with every soldier on the front as
// soon as it can, after recruiting half its citizens.
type attacker struct{}

func (attacker) Turn(v View) (Move, error) {
	me := v.Me()
	if me.Stock[Army] == 0 {
		return RecruitMove(me.Stock[Citizens] / 2), nil
	}
	if me.Stock[Gold] >= v.GoldForWar() && !v.Country(1).Dead {
		return WarMove(1, Flanks{0, me.Stock[Army], 0}), nil
	}
	return WaitMove, nil
}
func (attacker) AnswerTrade(View, Offer) (bool, error)      { return false, nil }
func (attacker) AnswerWar(v View, _ Attack) (Flanks, error) { return Thirds(v.Me().Stock[Army]), nil }

// offerer offers seat 1 gold for food every turn.
type offerer struct{}

func (offerer) Turn(v View) (Move, error) {
	if v.Me().Stock[Gold] >= 10 && v.Country(1).Stock[Food] >= 10 && !v.Country(1).Dead {
		return TradeMove(1, Gold, 10, Food, 10), nil
	}
	return WaitMove, nil
}
func (offerer) AnswerTrade(View, Offer) (bool, error)  { return false, nil }
func (offerer) AnswerWar(View, Attack) (Flanks, error) { return Flanks{}, nil }

func seat(name string, b Bot, deadline time.Duration) engine.Seat[Move, View] {
	return engine.Seat[Move, View]{Name: name, Player: Player(b), Deadline: deadline}
}

func faultsOf(rec *engine.Record[Move], seat int) []engine.SeatFault {
	var out []engine.SeatFault
	for _, f := range rec.Faults() {
		if f.Seat == seat {
			out = append(out, f)
		}
	}
	return out
}

func TestFaultDefaults(t *testing.T) {
	// "A turn: wait. A trade answer: yes (accept). A war answer: 0, 0, 0.
	// Every such default is recorded as a fault in the match record."
	opts := map[string]string{"preset": "default"}
	t.Run("illegal action becomes wait", func(t *testing.T) {
		// "An illegal action is refused with a message that says why; a
		// bot's illegal action becomes wait and is recorded as a fault."
		bad := &misbehaving{turn: func(View) (Move, error) { return RecruitMove(1_000_000), nil }}
		rec, m := play(t, 1, opts, []engine.Seat[Move, View]{seat("bad", bad, time.Second), seat("nothing", Nothing(), time.Second)})
		fs := faultsOf(rec, 0)
		if len(fs) == 0 || fs[0].Kind != engine.FaultIllegal || !strings.Contains(fs[0].Detail, "citizens") {
			t.Fatalf("faults %+v; want illegal recruits that name the citizens", fs)
		}
		e := m.History()[0]
		if e.Type != Wait || !strings.Contains(e.Refused, "recruit 1000000") {
			t.Errorf("history %v; want a wait that says the recruit was refused", e)
		}
		if c := m.World().Countries[0]; c.Stock[Army] != 0 {
			t.Errorf("the refused recruit changed the army: %+v", c)
		}
		// The record keeps the reason in the fault, and its replay tells
		// the match: the replayed history is the one played, to the hash.
		back, err := engine.Replay[Move, View](Game{}, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := back.(*Match).History()[0]; e != m.History()[0] {
			t.Errorf("replayed, the history begins %+v; played, %+v", e, m.History()[0])
		}
	})
	t.Run("crashes and errors", func(t *testing.T) {
		panicky := &misbehaving{
			turn:  func(View) (Move, error) { panic("turn exploded") },
			trade: func(View, Offer) (bool, error) { return false, errors.New("no idea") },
			war:   func(View, Attack) (Flanks, error) { panic("war exploded") },
		}
		rec, _ := play(t, 1, map[string]string{"preset": "tribe"}, []engine.Seat[Move, View]{
			seat("offerer", offerer{}, time.Second), seat("panicky", panicky, time.Second), seat("attacker", attacker{}, time.Second),
		})
		kinds := map[engine.FaultKind]int{}
		for _, f := range faultsOf(rec, 1) {
			kinds[f.Kind]++
		}
		if kinds[engine.FaultPanic] == 0 || kinds[engine.FaultError] == 0 {
			t.Errorf("faults of the panicking seat %v; want panics and errors", kinds)
		}
		// The trade answer's error gets the default, accept: every offer
		// of 10 gold for 10 food was accepted.
		for _, s := range rec.Steps {
			if s.Seat == 1 && s.Fault != nil && s.Fault.Kind == engine.FaultError && s.Move.Type != Accept {
				t.Errorf("a failed trade answer got %v; want accept", s.Move)
			}
			if s.Seat == 1 && s.Fault != nil && s.Fault.Kind == engine.FaultPanic && s.Move.Type == Defend && s.Move.Flanks != (Flanks{}) {
				t.Errorf("a crashed war answer got %v; want defend 0 0 0", s.Move)
			}
		}
	})
	t.Run("nonsense answers", func(t *testing.T) {
		// A defence larger than the army, and a war answered with "accept".
		liar := &misbehaving{war: func(v View, a Attack) (Flanks, error) { return Flanks{1 << 40, 0, 0}, nil }}
		rec, _ := play(t, 1, map[string]string{"preset": "tribe"}, []engine.Seat[Move, View]{
			seat("attacker", attacker{}, time.Second), seat("liar", liar, time.Second),
		})
		fs := faultsOf(rec, 1)
		if len(fs) == 0 || fs[0].Kind != engine.FaultIllegal || !strings.Contains(fs[0].Detail, "defence") {
			t.Fatalf("faults %+v; want an illegal defence", fs)
		}
		for _, s := range rec.Steps {
			if s.Seat == 1 && s.Fault != nil && s.Move != DefendMove(Flanks{}) {
				t.Errorf("a nonsense defence got %v; want defend 0 0 0", s.Move)
			}
		}
	})
	t.Run("never answers", func(t *testing.T) {
		// "The runner never waits longer than the deadline ... never lets one
		// slow bot delay another's deadline." A bot stuck on its first trade
		// answer is abandoned after its reply deadline; the match goes on.
		release := make(chan struct{})
		defer close(release)
		// A player that blocks before it reads its view: a stuck call that
		// read the view would race, by design, with the match going on.
		var called atomic.Int32
		stuck := engine.PlayerFunc[Move, View](func(_ context.Context, req *engine.Request[Move], _ View) (Move, error) {
			called.Add(1)
			if req.Kind == TradeAnswerKind {
				<-release
			}
			return WaitMove, nil
		})
		ss := []engine.Seat[Move, View]{
			seat("offerer", offerer{}, time.Second), {Name: "stuck", Player: stuck, Deadline: time.Second},
		}
		ss[1].ReplyDeadline = 20 * time.Millisecond
		start := time.Now()
		rec, m := play(t, 1, map[string]string{"preset": "tribe"}, ss)
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the match took %v", took)
		}
		fs := faultsOf(rec, 1)
		if len(fs) < 2 || fs[0].Kind != engine.FaultTimeout || !strings.Contains(fs[0].Detail, "20ms") || fs[1].Kind != engine.FaultAbandoned {
			t.Fatalf("faults %+v; want a timeout after 20ms, then the seat abandoned", fs[:min(len(fs), 3)])
		}
		if called.Load() != 1 { // the first offer comes before its first turn
			t.Errorf("the stuck player was called %d times; want once", called.Load())
		}
		if !m.Over() {
			t.Error("the match did not end")
		}
		if len(faultsOf(rec, 0)) != 0 {
			t.Errorf("the offerer has faults: %+v", faultsOf(rec, 0))
		}
	})
}

func TestFlanksNeverLeak(t *testing.T) {
	// "The defender is told only the attacker and the total sent" and
	// "Flank divisions are never revealed." Every view and every public
	// snapshot of games full of wars is searched for a flank division.
	var views, attacks int
	spy := func(inner Bot) Bot {
		return &misbehaving{
			turn: func(v View) (Move, error) { checkView(t, v); views++; return inner.Turn(v) },
			trade: func(v View, o Offer) (bool, error) {
				checkView(t, v)
				return inner.AnswerTrade(v, o)
			},
			war: func(v View, a Attack) (Flanks, error) {
				checkView(t, v)
				attacks++
				got, ok := v.Attack()
				if !ok || got != a {
					t.Errorf("Attack() = %v, %v; the defender was told %v", got, ok, a)
				}
				return inner.AnswerWar(v, a)
			},
		}
	}
	for seed := uint64(1); seed <= 5; seed++ {
		ss := []engine.Seat[Move, View]{
			seat("war", spy(WarBot()), time.Second), seat("blitz", spy(Blitz()), time.Second),
			seat("attacker", spy(attacker{}), time.Second), seat("turtle", spy(Turtle()), time.Second),
		}
		_, m := play(t, seed, nil, ss)
		b, err := json.Marshal(m.Public())
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("flank")) {
			t.Errorf("the public state mentions flanks: %s", b)
		}
		for _, e := range m.Chronicle() {
			if strings.Contains(e.Text, "flank") {
				t.Errorf("the chronicle mentions flanks: %s", e.Text)
			}
		}
	}
	if attacks == 0 || views == 0 {
		t.Fatalf("%d views and %d attacks seen; the test saw no war", views, attacks)
	}
}

// checkView fails if v's JSON or text shows anything of a flank division.
func checkView(t *testing.T, v View) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("flank")) {
		t.Errorf("a view's JSON mentions flanks: %s", b)
	}
	if m := v.m; m.phase == warPhase && m.action.Target == v.seat {
		f := m.action.Flanks
		split := fmt.Sprintf("%d %d %d", f[0], f[1], f[2])
		if f[0] != f[1] && strings.Contains(v.String(), split) {
			t.Errorf("the defender's view shows the attack's flanks %s:\n%s", split, v)
		}
	}
}

func TestPersonChecksAndCompletes(t *testing.T) {
	ss, setup := seats(t, "nothing", "nothing")
	_ = ss
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0)
	if err := v.Check(RecruitMove(10_000)); err == nil || !strings.Contains(err.Error(), "800 citizens") {
		t.Errorf("Check(recruit 10000) = %v; want the citizens named", err)
	}
	if err := v.Check(WarMove(1, Flanks{})); err == nil || !strings.Contains(err.Error(), "1600 gold") {
		t.Errorf("Check(war) = %v; want the price of war", err)
	}
	if err := m.View(1).Check(WaitMove); err == nil {
		t.Error("country 2 may move on country 1's turn")
	}
	// A person typed the country's number, from 1: the seats of moves,
	// from 0, are no concern of theirs.
	for _, mv := range []Move{TradeMove(8, Gold, 1, Food, 1), WarMove(8, Flanks{})} {
		err := v.Check(mv)
		if err == nil || !strings.Contains(err.Error(), "there is no country 9; countries are 1 to 2") || strings.Contains(err.Error(), "seat") {
			t.Errorf("Check(%v) = %v; want country 9 named, and no seat", mv, err)
		}
	}
	for line, want := range map[string]string{
		"":          "wait",
		"tr":        "trade",
		"trade ":    "trade 2",
		"trade 2 g": "trade 2 gold",
		"war 2 ":    "war 2 0 0 0",
	} {
		got := v.Complete(line)
		if len(got) == 0 || !contains(got, want) {
			t.Errorf("Complete(%q) = %q; want %q among them", line, got, want)
		}
	}
	if err := m.Apply(0, TradeMove(1, Gold, 10, Food, 20)); err != nil {
		t.Fatal(err)
	}
	a := m.View(1)
	if got := a.Complete(""); !contains(got, "yes") || !contains(got, "no") {
		t.Errorf("a trade answer completes to %q; want yes and no", got)
	}
	if s := a.String(); !strings.Contains(s, "Country 1 offers you 10 gold for 20 of your food") {
		t.Errorf("the person answering a trade sees:\n%s", s)
	}
	if err := a.Check(RecruitMove(1)); err == nil {
		t.Error("a recruit answers a trade offer")
	}
	if err := a.Check(AcceptMove); err != nil {
		t.Errorf("Check(accept) = %v", err)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestViewTellsAPersonWhyTheirCountryDied(t *testing.T) {
	// A person whose country dies is told at once in which cycle and why
	// (player.Knockout), whatever emptied it of citizens.
	m := rulesMatch(t, 6, nil)
	m.world.Countries[3].Stock[Army], m.world.Countries[3].Stock[Gold] = 3000, 1e6
	m.world.Countries[4].Stock[Citizens] = 1
	for seat := range 6 {
		if out := m.View(seat).Out(); out != "" {
			t.Errorf("country %d lives, and its view says %q", seat+1, out)
		}
	}
	rulesPlay(t, m, 0, RecruitMove(800))
	rulesPlay(t, m, 1, TradeMove(2, Gold, 1, Citizens, 800))
	rulesPlay(t, m, 2, AcceptMove)
	rulesPlay(t, m, 3, WarMove(4, Flanks{1000, 1000, 1000}))
	rulesPlay(t, m, 4, DefendMove(Flanks{}))
	for seat, want := range map[int]string{
		0: "Your country died in cycle 1: you sent your last citizens to the army",
		2: "Your country died in cycle 1: a trade took your last citizens",
		4: "Your country died in cycle 1: country 4 won a war against you and took your last citizens",
		1: "",
	} {
		if got := m.View(seat).Out(); got != want {
			t.Errorf("country %d's view says %q; want %q", seat+1, got, want)
		}
	}

	p := rulesPreset(func(p *Preset) {
		p.Start = Stock{600, 0, 100, 0, 150}
		p.FoodPerCitizen = Whole(0)
	})
	m = rulesMatch(t, 3, p)
	m.world.Countries[1].Stock[Food], m.world.Countries[2].Stock[Food] = 1000, 1000
	for seat := range 3 {
		rulesPlay(t, m, seat, WaitMove)
	}
	want := "Your country died in cycle 1: the cycle's production found you no food: hunger took your last citizens"
	if got := m.View(0).Out(); got != want || m.Over() {
		t.Errorf("a starved country's view says %q (game over: %v); want %q", got, m.Over(), want)
	}
}

func TestRefusedWarKeepsItsFlanksHidden(t *testing.T) {
	// "Everyone may read the war afterwards as: attacker, defender, total
	// sent by each, survivors, winner, loot. Flank divisions are never
	// revealed." A war refused for its flanks is told in the history
	// without them; its fault, the player's own, keeps them.
	opts := map[string]string{"preset": "default"}
	for _, flanks := range []Flanks{{10, 0, 30}, {10, -4, 3}} {
		bad := &misbehaving{turn: func(View) (Move, error) { return WarMove(1, flanks), nil }}
		rec, m := play(t, 1, opts, []engine.Seat[Move, View]{seat("bad", bad, time.Second), seat("nothing", Nothing(), time.Second)})
		fs := faultsOf(rec, 0)
		if len(fs) == 0 || !strings.Contains(fs[0].Detail, "flank") {
			t.Fatalf("faults %+v; want the war refused for its flanks", fs)
		}
		e := m.History()[0]
		if e.Type != Wait || !strings.Contains(e.Refused, "flank") {
			t.Fatalf("history %v; want a wait that says the war was refused for its flanks", e)
		}
		for _, n := range flanks {
			if n != 0 && strings.Contains(e.Refused, fmt.Sprint(n)) {
				t.Errorf("the history tells the refused war's flanks %v: %q", flanks, e.Refused)
			}
		}
	}
	if got, want := Told("war: 10, 0 and 30 soldiers on the flanks, and the army has 35; also, war costs 1600 gold, and you have 800"),
		"war: the flanks send more soldiers than the army has (35); also, war costs 1600 gold, and you have 800"; got != want {
		t.Errorf("Told = %q; want %q", got, want)
	}
}

func TestAPersonAnswersATradeYesOrNo(t *testing.T) {
	// The offer asks "Accept? (yes or no)" and tab completes yes and no:
	// the list of choices and the prompt's default use the same words,
	// and the rules' words, accept and decline, are read too.
	_, setup := seats(t, "nothing", "nothing")
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(0, TradeMove(1, Gold, 10, Food, 20)); err != nil {
		t.Fatal(err)
	}
	req := m.Pending()[0]
	for input, want := range map[string]Move{"\n": AcceptMove, "2\n": DeclineMove, "n\n": DeclineMove, "decline\n": DeclineMove, "Accept\n": AcceptMove} {
		var out bytes.Buffer
		term := &player.Terminal[Move, View]{In: strings.NewReader(input), Out: &out}
		mv, err := term.Decide(context.Background(), &req, m.View(req.Seat))
		if err != nil || mv.Type != want.Type {
			t.Errorf("%q answers %v, %v; want %v\n%s", input, mv, err, want, out.String())
		}
		for _, s := range []string{"Accept? (yes or no)", "Choose 1 yes or 2 no", "Enter plays yes;", "trade answer [yes]> "} {
			if !strings.Contains(out.String(), s) {
				t.Errorf("the person offered a trade is not shown %q:\n%s", s, out.String())
			}
		}
	}
}

func TestAPersonIsWarnedOfHungerAndUnpaidSoldiers(t *testing.T) {
	// A person sees their food fall but cannot work out production in
	// their head: at their turn the view warns of what this cycle's
	// production will do if nothing changes, while an action can still
	// avert it.
	_, setup := seats(t, "nothing", "nothing")
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	if s := m.View(0).String(); strings.Contains(s, "Warning") {
		t.Errorf("a country that production feeds is warned:\n%s", s)
	}
	me := &m.world.Countries[0].Stock
	me[Army], me[Food], me[Citizens] = 500, 110, 343
	s := strings.Join(strings.Fields(m.View(0).String()), " ")
	if !strings.Contains(s, "Warning: at this cycle's production, if nothing changes, your food runs out (your 500 soldiers eat 500; recruit -N sends N home), and hunger kills 200 citizens.") {
		t.Errorf("the person is not warned of hunger:\n%s", s)
	}
	me[Gold], me[Army] = 0, 1000
	s = strings.Join(strings.Fields(m.View(0).String()), " ")
	if !strings.Contains(s, "if nothing changes, your gold runs out (your 1000 soldiers cost 100), and the army goes home as citizens; your food runs out") {
		t.Errorf("the person is not warned of unpaid soldiers:\n%s", s)
	}
	me[Gold], me[Army], me[Citizens] = 1000, 500, 150
	s = strings.Join(strings.Fields(m.View(0).String()), " ")
	if !strings.Contains(s, "hunger kills your last citizens: your country dies.") || strings.Contains(s, "gold runs out") {
		t.Errorf("the person is not warned that hunger ends their country:\n%s", s)
	}
	if s := m.View(1).String(); strings.Contains(s, "Warning") {
		t.Errorf("a country that is not to move is warned:\n%s", s)
	}
}

func TestRefusedPartnerNamesTheLivingOthers(t *testing.T) {
	// "An illegal action is refused with a message that says why": a trade
	// or a war with oneself, with a dead country or with none says which
	// countries one may pick, the living others. Programs are told each by
	// its seat, as moves name it, and by its player, as the hello's
	// "players" names it; a person by its number, from 1, and its player.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"exec:python3 bots/mine.py", "war", "turtle", "http://bots.example:8080/tncc"}})
	if err != nil {
		t.Fatal(err)
	}
	m.world.Countries[2].Dead, m.world.Countries[2].Stock[Citizens] = true, 0
	m.world.Countries[0].Stock[Gold] = 5000
	m.world.Countries[0].Stock[Army] = 30
	for _, c := range []struct {
		mv   Move
		want string
	}{
		{TradeMove(0, Gold, 1, Food, 1), "you cannot trade with yourself (country 1, seat 0); trade with another living country: country 2 (seat 1, war) or country 4 (seat 3, http://bots.example:8080)"},
		{WarMove(0, Flanks{1, 1, 1}), "you cannot attack yourself (country 1, seat 0); attack another living country: country 2 (seat 1, war) or country 4 (seat 3, http://bots.example:8080)"},
		{TradeMove(2, Gold, 1, Food, 1), "trade with country 3: country 3 is dead; trade with another living country: country 2 (seat 1, war) or country 4 (seat 3, http://bots.example:8080)"},
		{WarMove(7, Flanks{1, 1, 1}), "attack country 8: there is no country 8; countries are 1 to 4 (seat 7: in moves, seats count from 0, so 0 to 3); attack another living country: country 2 (seat 1, war) or country 4 (seat 3, http://bots.example:8080)"},
	} {
		if err := m.Apply(0, c.mv); err == nil || err.Error() != c.want {
			t.Errorf("Apply(%v) = %v;\nwant %s", c.mv, err, c.want)
		}
	}
	v := m.View(0)
	for _, c := range []struct {
		mv   Move
		want string
	}{
		{TradeMove(0, Gold, 1, Food, 1), "you cannot trade with yourself (country 1); trade with another living country: country 2 (war) or country 4 (http://bots.example:8080)"},
		{WarMove(2, Flanks{1, 1, 1}), "attack country 3: country 3 is dead; attack another living country: country 2 (war) or country 4 (http://bots.example:8080)"},
		{TradeMove(8, Gold, 1, Food, 1), "trade with country 9: there is no country 9; countries are 1 to 4; trade with another living country: country 2 (war) or country 4 (http://bots.example:8080)"},
	} {
		if err := v.Check(c.mv); err == nil || err.Error() != c.want {
			t.Errorf("View.Check(%v) = %v;\nwant %s", c.mv, err, c.want)
		}
	}
	// The pure rules (arbiter step) know no players: seats alone.
	w := NewWorld(Default(), 2)
	if err, want := w.Check(1, TradeMove(1, Gold, 1, Food, 1)), "you cannot trade with yourself (country 2, seat 1); trade with another living country: country 1 (seat 0)"; err == nil || err.Error() != want {
		t.Errorf("World.Check = %v; want %s", err, want)
	}
	w.Countries[0].Dead, w.Countries[0].Stock[Citizens] = true, 0
	if err, want := w.Check(1, WarMove(1, Flanks{})), "there is no other living country to attack"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("World.Check with nobody else alive = %v; want %q", err, want)
	}
}

func TestAnAnswerAtATurnIsToldTheActions(t *testing.T) {
	// "An illegal action is refused with a message that says why": an
	// answer to a trade or a war played at a turn says what a turn takes,
	// each action as a program writes it and as a person types it.
	m := rulesMatch(t, 2, nil)
	const actions = `{"type": "wait"}, {"type": "recruit", "n": 50}, {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200} or {"type": "war", "target": 1, "flanks": [10, 0, 30]} (wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N; war COUNTRY LEFT FRONT RIGHT at a prompt)`
	for mv, want := range map[Move]string{
		AcceptMove:                  "it is your turn: play an action, not an answer to a trade offer (accept): " + actions,
		DeclineMove:                 "it is your turn: play an action, not an answer to a trade offer (decline): " + actions,
		DefendMove(Flanks{1, 1, 1}): "it is your turn: play an action, not an answer to a war (defend): " + actions,
	} {
		if err := m.Apply(0, mv); err == nil || err.Error() != want {
			t.Errorf("Apply(%v) = %v;\nwant %s", mv, err, want)
		}
	}
}
