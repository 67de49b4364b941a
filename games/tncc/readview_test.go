package tncc

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
	"github.com/arbiter-games/arbiter/mcts"
)

// sameView says how a view read back from its JSON differs from the view
// in process, method by method, or "".
func sameView(in, read View) string {
	offerIn, okIn := in.Offer()
	offerRead, okRead := read.Offer()
	attackIn, aIn := in.Attack()
	attackRead, aRead := read.Attack()
	var histIn, histRead []Entry
	for _, e := range in.History() {
		histIn = append(histIn, e)
	}
	for _, e := range read.History() {
		histRead = append(histRead, e)
	}
	for _, c := range []struct {
		what string
		a, b any
	}{
		{"You", in.You(), read.You()},
		{"Me", in.Me(), read.Me()},
		{"Cycle", in.Cycle(), read.Cycle()},
		{"Preset", *in.Preset(), *read.Preset()},
		{"GoldForWar", in.GoldForWar(), read.GoldForWar()},
		{"MaxCycles", in.MaxCycles(), read.MaxCycles()},
		{"Countries", in.Countries(), read.Countries()},
		{"Living", in.Living(), read.Living()},
		{"Len", in.Len(), read.Len()},
		{"History", histIn, histRead},
		{"Offer", []any{offerIn, okIn}, []any{offerRead, okRead}},
		{"Attack", []any{attackIn, aIn}, []any{attackRead, aRead}},
		{"World", in.World(), read.World()},
		{"String", in.String(), read.String()},
		{"Help", in.Help(), read.Help()},
		{"Complete", in.Complete(""), read.Complete("")},
		{"Complete war", in.Complete("war "), read.Complete("war ")},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s: in process %v, read back %v", c.what, c.a, c.b)
		}
	}
	for i := range in.Countries() {
		if in.Country(i) != read.Country(i) {
			return fmt.Sprintf("Country(%d): in process %v, read back %v", i, in.Country(i), read.Country(i))
		}
	}
	for i := range in.Len() {
		if in.Entry(i) != read.Entry(i) {
			return fmt.Sprintf("Entry(%d): in process %v, read back %v", i, in.Entry(i), read.Entry(i))
		}
	}
	for _, mv := range []Move{WaitMove, RecruitMove(5), AcceptMove, DeclineMove, DefendMove(Flanks{1, 2, 3}), WarMove(0, Flanks{1, 1, 1}), WarMove(1, Flanks{0, 0, 0}),
		TradeMove(0, Gold, 10, Food, 20), TradeMove(1, Food, 1, Gold, 1)} {
		if a, b := fmt.Sprint(in.Check(mv)), fmt.Sprint(read.Check(mv)); a != b {
			return fmt.Sprintf("Check(%v): in process %s, read back %s", mv, a, b)
		}
		if a, b := in.ChoiceName(mv), read.ChoiceName(mv); a != b {
			return fmt.Sprintf("ChoiceName(%v): in process %s, read back %s", mv, a, b)
		}
	}
	for _, line := range []string{"wait", "recruit 3", "war 2 1 1 1", "yes", "1 2 3", "trade 1 gold 5 food 5"} {
		a, errA := in.Parse(line)
		b, errB := read.Parse(line)
		if a != b || fmt.Sprint(errA) != fmt.Sprint(errB) {
			return fmt.Sprintf("Parse(%q): in process %v (%v), read back %v (%v)", line, a, errA, b, errB)
		}
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, the whole history included, at every decision of many games on
// every preset, with trades, wars and deaths; the built-in bots (the
// general's and the marshal's lookahead) and the search AI decide the same
// on it as in process.
func TestReadViews(t *testing.T) {
	entrant := func(name string) func() engine.Player[Move, View] {
		es, err := Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		return es[0].New
	}
	tables := [][]string{
		{"marshal", "blitz", "trader", "war"},
		{"general", "random", "trader", "turtle", "random"},
		{"random", "random", "random", "blitz", "war", "trader", "marshal"},
	}
	for i, names := range tables {
		presets := PresetNames() // every preset for the first table, two for the others
		if i > 0 {
			presets = []string{"crazy", "mexican_standoff"}
		}
		for k, preset := range presets {
			setup := engine.Setup{Seed: 40*uint64(i) + uint64(k), Players: names, Options: map[string]string{"preset": preset}}
			o := enginetest.ReadOptions[Move, View]{Same: sameView, Seed: uint64(k), Steps: 600}
			for _, name := range names {
				o.Players = append(o.Players, entrant(name))
			}
			t.Run(fmt.Sprintf("%s/%s", strings.Join(names, ","), preset), func(t *testing.T) {
				enginetest.CheckReadViews(t, Game{}, setup, o)
			})
		}
	}
	t.Run("custom", func(t *testing.T) {
		p := Default()
		p.Name, p.MaxCycles, p.GoldForWar = "", 12, 50
		setup := engine.Setup{Seed: 5, Players: []string{"a", "b", "c"}, Options: map[string]string{"preset": p.Option()}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Move, View]{Same: sameView,
			Players: []func() engine.Player[Move, View]{entrant("war"), entrant("random"), entrant("general")}})
	})
	t.Run("mcts", func(t *testing.T) {
		search := func() engine.Player[Move, View] {
			p, err := mcts.New[Move, View](Game{}, mcts.Config{Playouts: 30}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c"}, Options: map[string]string{"preset": "tribe"}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Move, View]{Steps: 120, Same: sameView,
			Players: []func() engine.Player[Move, View]{search, entrant("war"), search}})
	})
}

// TestReadViewsRefuses: a view that is not one of the seat's match is
// refused with what is wrong.
func TestReadViewsRefuses(t *testing.T) {
	p := Default()
	p.GoldForWar = 100
	info := engine.MatchInfo{Ruleset: "tncc", Seat: 1, Players: []string{"a", "b"}, Options: map[string]string{"preset": p.Option()}}
	read, err := Game{}.ReadViews(info)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Game{}.NewMatch(engine.Setup{Players: info.Players, Options: info.Options})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(0, WarMove(1, Flanks{0, 0, 0})); err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(m.View(1))
	if _, err := read(0, good); err != nil {
		t.Fatalf("the view itself is refused: %v\n%s", err, good)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"you":1`, `"you":0`, "country 1's; this seat is country 2"},
		{`"gold_for_war":100`, `"gold_for_war":101`, "not those of the hello's preset"},
		{`"attack":{"from":0`, `"attack":{"from":1`, "an attack from country 2"},
		{`"cycle":1,`, `"cycle":0,`, "cycle 0"},
		{`"countries":[{"gold":`, `"countries":[{"gold":-`, "gold is missing or negative"},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in %s", c.from, good)
		}
		if _, err := read(0, []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s for %s: %v; want it to say %q", c.to, c.from, err, c.want)
		}
	}
	if _, err := (Game{}).ReadViews(engine.MatchInfo{Seat: 0, Players: []string{"a", "b"}, Options: map[string]string{"preset": "nosuch"}}); err == nil {
		t.Error("a match of an unknown preset is read")
	}
}

// FuzzReadViews: a view's JSON, however damaged, is read or refused;
// never a panic, and a view read back writes JSON that reads back the
// same.
func FuzzReadViews(f *testing.F) {
	info := engine.MatchInfo{Ruleset: "tncc", Seat: 0, Players: []string{"a", "b", "c"}, Options: map[string]string{"preset": "crazy"}}
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: info.Players, Options: info.Options})
	if err != nil {
		f.Fatal(err)
	}
	bots := []engine.Player[Move, View]{Player(Blitz()), Player(Trader()), Player(WarBot())}
	for s, b := range bots {
		_ = b.(engine.Starter).Start(nil, engine.MatchInfo{Seat: s, Players: info.Players, Options: info.Options, Seed: uint64(s)})
	}
	for step := 0; !m.Over() && step < 60; step++ {
		r := m.Pending()[0]
		if r.Seat == 0 {
			b, _ := json.Marshal(m.View(0))
			f.Add(b)
		}
		mv, err := bots[r.Seat].Decide(nil, &r, m.View(r.Seat))
		if err != nil || m.Apply(r.Seat, mv) != nil {
			_ = m.Apply(r.Seat, r.Default)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read, err := Game{}.ReadViews(info)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := enginetest.ReadBack(t, read, 0, data); ok {
			_, _ = v.String(), v.Help()
		}
	})
}
