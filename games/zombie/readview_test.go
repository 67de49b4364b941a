package zombie

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
		{"Name", in.Name(), read.Name()},
		{"Seats", in.Seats(), read.Seats()},
		{"Turn", in.Turn(), read.Turn()},
		{"MaxTurns", in.MaxTurns(), read.MaxTurns()},
		{"Me", in.Me(), read.Me()},
		{"Public", in.Public(), read.Public()},
		{"Messages", in.Messages(), read.Messages()},
		{"Announcements", in.Announcements(), read.Announcements()},
		{"Lines", in.Lines(), read.Lines()},
		{"Epilogue", in.Epilogue(), read.Epilogue()},
		{"Side", in.Side(), read.Side()},
		{"String", in.String(), read.String()},
		{"Help", in.Help(), read.Help()},
		{"Complete", in.Complete(""), read.Complete("")},
		{"Complete P", in.Complete("P1 P"), read.Complete("P1 P")},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s: in process %v, read back %v", c.what, c.a, c.b)
		}
	}
	n := in.Seats()
	for _, p := range []Plan{
		{Touch: []Contact{{With: (in.You() + 1) % n}}},
		{Touch: []Contact{{With: (in.You() + 1) % n, Modifier: Precaution}}, CureLast: true},
		{Touch: []Contact{{With: (in.You() + 1) % n, Modifier: Viruses(1)}}},
		{Touch: []Contact{{With: (in.You() + 1) % n, Modifier: Viruses(3)}}, Guard: Precaution},
		{Touch: []Contact{{With: in.You()}}},
		{Touch: []Contact{{With: n}}},
		{CureFirst: true, Touch: []Contact{{With: (in.You() + 2) % n, Modifier: Precaution}, {With: (in.You() + 1) % n, Modifier: Precaution}}},
		{},
	} {
		if a, b := fmt.Sprint(in.Check(p)), fmt.Sprint(read.Check(p)); a != b {
			return fmt.Sprintf("Check(%v): in process %s, read back %s", p, a, b)
		}
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, at every decision of many games, humans infected and turning,
// with antibodies and viruses; the built-in bots (the searcher's playouts
// included) and the search AI decide the same on it as in process.
func TestReadViews(t *testing.T) {
	entrant := func(name string) func() engine.Player[Plan, View] {
		es, err := Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		return es[0].New
	}
	tables := []struct {
		names   []string
		options map[string]string
	}{
		{[]string{"sensible", "random", "cautious", "spreader", "searcher"}, map[string]string{"turns": "8"}},
		{[]string{"searcher.human", "searcher.zombie", "random", "sensible"}, map[string]string{"antibodies": "2", "viruses": "3"}},
		{[]string{"random", "random", "random", "random", "random", "cautious", "sensible"}, map[string]string{"zombies": "2", "antibodies": "1", "viruses": "1", "turns": "12"}},
		{[]string{"Ann", "Bob", "random"}, nil},
	}
	for i, tab := range tables {
		for seed := range uint64(4) {
			setup := engine.Setup{Seed: 40*uint64(i) + seed, Players: tab.names, Options: tab.options}
			o := enginetest.ReadOptions[Plan, View]{Same: sameView, Seed: seed, Steps: 400}
			for _, name := range tab.names {
				if _, err := Bots(name); err != nil {
					name = "sensible" // a person's name, played by a bot
				}
				o.Players = append(o.Players, entrant(name))
			}
			t.Run(fmt.Sprintf("%s/seed-%d", strings.Join(tab.names, ","), setup.Seed), func(t *testing.T) {
				enginetest.CheckReadViews(t, Game{}, setup, o)
			})
		}
	}
	t.Run("mcts", func(t *testing.T) {
		search := func() engine.Player[Plan, View] {
			p, err := mcts.New[Plan, View](Game{}, mcts.Config{Playouts: 30}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"antibodies": "1", "turns": "6"}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Plan, View]{Same: sameView,
			Players: []func() engine.Player[Plan, View]{search, entrant("sensible"), search, entrant("random")}})
	})
}

// TestReadViewsRefuses: a view that is not one of the seat's match is
// refused with what is wrong.
func TestReadViewsRefuses(t *testing.T) {
	info := engine.MatchInfo{Ruleset: "zombie", Seat: 1, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "5"}}
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
		t.Fatalf("the view itself is refused: %v\n%s", err, good)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"you":1`, `"you":0`, "it is P1's; this seat is P2"},
		{`"max_turns":5`, `"max_turns":6`, "max_turns 6"},
		{`"identity":"`, `"identity":"infected`, "want human or zombie"},
		{`"seats":3`, `"seats":4`, "4 seats"},
		{`"turn":1,`, `"turn":2,`, "in turn 2"},
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
	info := engine.MatchInfo{Ruleset: "zombie", Seat: 0, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"antibodies": "1", "viruses": "2"}}
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: info.Players, Options: info.Options})
	if err != nil {
		f.Fatal(err)
	}
	for step := 0; !m.Over() && step < 8; step++ {
		b, _ := json.Marshal(m.View(0))
		f.Add(b)
		for _, r := range append([]engine.Request[Plan](nil), m.Pending()...) {
			_ = m.Apply(r.Seat, r.Default)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read, err := Game{}.ReadViews(info)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := enginetest.ReadBack(t, read, 0, data); ok {
			_, _, _ = v.String(), v.Lines(), v.Check(Plan{Touch: []Contact{{With: 1, Modifier: Precaution}}})
		}
	})
}
