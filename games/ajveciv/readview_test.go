package ajveciv

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
		{"Kind", in.Kind(), read.Kind()},
		{"Inflection", in.Inflection(), read.Inflection()},
		{"Offered", in.Offered(), read.Offered()},
		{"Out", in.Out(), read.Out()},
		{"Me", in.Me(), read.Me()},
		{"World", in.World().Clone(), read.World().Clone()},
		{"World().String", in.World().String(), read.World().String()},
		{"String", in.String(), read.String()},
		{"Help", in.Help(), read.Help()},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s: in process %v, read back %v", c.what, c.a, c.b)
		}
	}
	for _, x := range AllValues {
		if in.Offers(x) != read.Offers(x) {
			return fmt.Sprintf("Offers(%v): in process %v, read back %v", x, in.Offers(x), read.Offers(x))
		}
	}
	w, r := in.World(), read.World()
	for i := range w.Len() {
		for j := range w.Len() {
			if w.Feels(i, j) != r.Feels(i, j) {
				return fmt.Sprintf("World().Feels(%d, %d): in process %d, read back %d", i, j, w.Feels(i, j), r.Feels(i, j))
			}
		}
	}
	var a, b World
	w.CopyTo(&a)
	r.CopyTo(&b)
	if !reflect.DeepEqual(a, b) {
		return "World().CopyTo"
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, at every decision of many games, with inflections and without,
// societies dying; the built-in AIs and the search AI decide the same on
// it as in process.
func TestReadViews(t *testing.T) {
	search := func() engine.Player[Value, View] {
		p, err := mcts.New[Value, View](Original(), mcts.Config{Playouts: 40}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	entrant := func(name string) func() engine.Player[Value, View] {
		es, err := Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		return es[0].New
	}
	tables := [][]string{
		{"guide", "planner", "random", "basic.expand"},
		{"random", "guide", "basic2.conquer-develop", "basic.conquer", "planner", "random"},
		{"planner", "random"},
	}
	for i, names := range tables {
		for seed := range uint64(4) {
			setup := engine.Setup{Seed: 40*uint64(i) + seed, Players: names, Options: map[string]string{"turns": fmt.Sprint(12 + 9*int(seed))}}
			if seed == 3 {
				setup.Options["inflections"] = "false"
			}
			o := enginetest.ReadOptions[Value, View]{Same: sameView, Seed: seed, Steps: 400}
			for _, name := range names {
				o.Players = append(o.Players, entrant(name))
			}
			t.Run(fmt.Sprintf("%s/seed-%d", strings.Join(names, ","), setup.Seed), func(t *testing.T) {
				enginetest.CheckReadViews(t, Original(), setup, o)
			})
		}
	}
	t.Run("mcts", func(t *testing.T) {
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "12"}}
		enginetest.CheckReadViews(t, Original(), setup, enginetest.ReadOptions[Value, View]{
			Players: []func() engine.Player[Value, View]{search, entrant("random"), search}, Same: sameView})
	})
}

// TestReadViewsRefuses: a view that is not one of the seat's match is
// refused with what is wrong, never read as another.
func TestReadViewsRefuses(t *testing.T) {
	info := engine.MatchInfo{Ruleset: "ajveciv", Seat: 1, Players: []string{"a", "b"}, Options: map[string]string{"turns": "20"}}
	read, err := Original().ReadViews(info)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Original().NewMatch(engine.Setup{Players: info.Players, Options: info.Options})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(m.View(1))
	if _, err := read(0, good); err != nil {
		t.Fatalf("the view itself is refused: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"you":1`, `"you":0`, "society 1's; this seat is society 2"},
		{`"turns":20`, `"turns":21`, "a game of 21 turns"},
		{`"kind":"turn"`, `"kind":"war"`, `kind "war"`},
		{`"offered":[`, `"offered":["conquer",`, "4 values offered"},
		{`"yield":20`, `"yield":"20"`, "yield"},
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
	if _, err := Original().ReadViews(engine.MatchInfo{Seat: 0, Players: []string{"a"}}); err == nil {
		t.Error("a match of one society is read")
	}
	if _, err := Original().ReadViews(engine.MatchInfo{Seat: 2, Players: []string{"a", "b"}}); err == nil {
		t.Error("seat 2 of two is read")
	}
}

// FuzzReadViews: a view's JSON, however damaged, is read or refused;
// never a panic, and a view read back writes JSON that reads back the
// same.
func FuzzReadViews(f *testing.F) {
	info := engine.MatchInfo{Ruleset: "ajveciv", Seat: 0, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "21"}}
	m, err := Original().NewMatch(engine.Setup{Seed: 3, Players: info.Players, Options: info.Options})
	if err != nil {
		f.Fatal(err)
	}
	for step := 0; !m.Over() && step < 80; step++ {
		if step%7 == 0 {
			b, _ := json.Marshal(m.View(0))
			f.Add(b)
		}
		for _, r := range append([]engine.Request[Value](nil), m.Pending()...) {
			_ = m.Apply(r.Seat, r.Choices[step%3])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read, err := Original().ReadViews(info)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := enginetest.ReadBack(t, read, 0, data); ok {
			_ = v.String()
			_ = v.Help()
		}
	})
}
