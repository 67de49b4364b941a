package reaj

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
	for _, c := range []struct {
		what string
		a, b any
	}{
		{"You", in.You(), read.You()},
		{"Turn", in.Turn(), read.Turn()},
		{"Turns", in.Turns(), read.Turns()},
		{"Environment", in.Environment(), read.Environment()},
		{"Len", in.Len(), read.Len()},
		{"Me", in.Me(), read.Me()},
		{"Out", in.Out(), read.Out()},
		{"State", in.State(), read.State()},
		{"String", in.String(), read.String()},
		{"Help", in.Help(), read.Help()},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s: in process %v, read back %v", c.what, c.a, c.b)
		}
	}
	for i := range in.Len() {
		if in.Society(i) != read.Society(i) || in.Score(i) != read.Score(i) {
			return fmt.Sprintf("society %d: in process %+v (score %d), read back %+v (score %d)", i, in.Society(i), in.Score(i), read.Society(i), read.Score(i))
		}
		for j := range in.Len() {
			if in.Relation(i, j) != read.Relation(i, j) {
				return fmt.Sprintf("Relation(%d, %d): in process %d, read back %d", i, j, in.Relation(i, j), read.Relation(i, j))
			}
		}
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, at every decision of many games, societies dying, the last
// turn's choices included; the built-in players and the search AI decide
// the same on it as in process.
func TestReadViews(t *testing.T) {
	entrant := func(name string) func() engine.Player[Value, View] {
		es, err := Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		return es[0].New
	}
	search := func() engine.Player[Value, View] {
		p, err := mcts.New[Value, View](Game{}, mcts.Config{Playouts: 40}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tables := [][]string{
		{"steward", "random", "expand", "develop"},
		{"random", "steward", "conquer", "exchange", "consent", "adapt", "random"},
		{"develop", "expand", "expand"}, // the land and ecology run short: lots, and deaths
	}
	for i, names := range tables {
		for seed := range uint64(3) {
			setup := engine.Setup{Seed: 40*uint64(i) + seed, Players: names, Options: map[string]string{"turns": fmt.Sprint(10 + 15*int(seed))}}
			o := enginetest.ReadOptions[Value, View]{Same: sameView, Seed: seed, Steps: 400}
			for _, name := range names {
				o.Players = append(o.Players, entrant(name))
			}
			t.Run(fmt.Sprintf("%s/seed-%d", strings.Join(names, ","), setup.Seed), func(t *testing.T) {
				enginetest.CheckReadViews(t, Game{}, setup, o)
			})
		}
	}
	t.Run("mcts", func(t *testing.T) {
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "12"}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Value, View]{
			Players: []func() engine.Player[Value, View]{search, entrant("random"), search}, Same: sameView})
	})
}

// TestReadViewsRefuses: a view that is not one of the seat's match is
// refused with what is wrong.
func TestReadViewsRefuses(t *testing.T) {
	info := engine.MatchInfo{Ruleset: "reaj", Seat: 1, Players: []string{"a", "b"}, Options: map[string]string{"turns": "20"}}
	read, err := Game{}.ReadViews(info)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Game{}.NewMatch(engine.Setup{Players: info.Players, Options: info.Options})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(m.View(1))
	if _, err := read(0, good); err != nil {
		t.Fatalf("the view itself is refused: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"you":1`, `"you":0`, "society 1's; this seat is society 2"},
		{`"turns":20`, `"turns":2`, "a game of 2 turns"},
		{`"kind":"turn"`, `"kind":"war"`, `kind "war"`},
		{`"land":10`, `"land":-1`, "never negative"},
		{`"turn":1`, `"turn":0`, "turn 0"},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in %s", c.from, good)
		}
		if _, err := read(0, []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s for %s: %v; want it to say %q", c.to, c.from, err, c.want)
		}
	}
}

// FuzzReadViews: a view's JSON, however damaged, is read or refused;
// never a panic, and a view read back writes JSON that reads back the
// same.
func FuzzReadViews(f *testing.F) {
	info := engine.MatchInfo{Ruleset: "reaj", Seat: 0, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "30"}}
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: info.Players, Options: info.Options})
	if err != nil {
		f.Fatal(err)
	}
	for step := 0; !m.Over() && step < 30; step++ {
		if step%5 == 0 {
			b, _ := json.Marshal(m.View(0))
			f.Add(b)
		}
		for _, r := range append([]engine.Request[Value](nil), m.Pending()...) {
			_ = m.Apply(r.Seat, r.Choices[(step+r.Seat)%len(r.Choices)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read, err := Game{}.ReadViews(info)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := enginetest.ReadBack(t, read, 0, data); ok {
			_ = v.String()
		}
	})
}
