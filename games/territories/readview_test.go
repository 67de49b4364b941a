package territories

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
	"github.com/arbiter-games/arbiter/mcts"
)

// sameView says how a view read back from its JSON differs from the view
// in process, method by method, or "": it must not differ at all.
func sameView(in, read View) string {
	wi, wr := in.World().Clone(), read.World().Clone()
	if len(wi.nations) != len(wr.nations) {
		return fmt.Sprintf("World().Nations(): in process %d, read back %d", len(wi.nations), len(wr.nations))
	}
	for k := range wi.nations {
		if wi.nations[k] != wr.nations[k] {
			return fmt.Sprintf("World().Nation(%d): in process %+v, read back %+v", k, wi.nations[k], wr.nations[k])
		}
	}
	for _, c := range []struct {
		what string
		a, b any
	}{
		{"You", in.You(), read.You()},
		{"Kind", in.Kind(), read.Kind()},
		{"Nation", in.Nation(), read.Nation()},
		{"Player", in.Player(), read.Player()},
		{"Config", in.Config(), read.Config()},
		{"Legal", in.Legal(), read.Legal()},
		{"World().held", wi.held, wr.held},
		{"World().Seq", wi.Seq(), wr.Seq()},
		{"World().Turn", wi.Turn(), wr.Turn()},
		{"World().Config", wi.Config(), wr.Config()},
		{"Out", in.Out(), read.Out()},
		{"String", in.String(), read.String()},
		{"Help", in.Help(), read.Help()},
		{"Complete", in.Complete(""), read.Complete("")},
		{"Complete a", in.Complete("a"), read.Complete("a")},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			return fmt.Sprintf("%s: in process %v, read back %v", c.what, c.a, c.b)
		}
	}
	for k := range in.World().Nations() {
		if in.NationOfSeat(k) != read.NationOfSeat(k) {
			return fmt.Sprintf("NationOfSeat(%d)", k)
		}
	}
	var tries []Action
	legal := in.Legal()
	for i := 0; i < len(legal); i += 1 + len(legal)/40 { // at most 40 of a large board's
		tries = append(tries, legal[i])
	}
	tries = append(tries, PassAction, RaiseAction("CA"), AttackAction("CA", "NV"), MoveAction("WA", 1, "OR"), JoinAction("Amber", "WA"))
	for _, a := range tries {
		if x, y := fmt.Sprint(in.Check(a)), fmt.Sprint(read.Check(a)); x != y {
			return fmt.Sprintf("Check(%v): in process %s, read back %s", a, x, y)
		}
		if in.ChoiceName(a) != read.ChoiceName(a) {
			return fmt.Sprintf("ChoiceName(%v)", a)
		}
	}
	for _, line := range []string{"CA", "pass", "attack CA NV", "raise Cali", "move WA:2 OR", "atack CA NV"} {
		a, errA := in.Parse(line)
		b, errB := read.Parse(line)
		if a != b || fmt.Sprint(errA) != fmt.Sprint(errB) {
			return fmt.Sprintf("Parse(%q): in process %v (%v), read back %v (%v)", line, a, errA, b, errB)
		}
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, exactly, at every decision of many games of two to six seats,
// nations out of the game, turns whose later nations have other actions
// left than they had at the seat's first action of the turn (a nation
// before the seat took one of their territories), and more actions since
// the seat's last than a view tells; the built-in bots, the general's
// lookahead included, and the search AI decide the same on it as in
// process, and the matches the search samples from it are the same, byte
// for byte.
func TestReadViews(t *testing.T) {
	entrant := func(name string) func() engine.Player[Action, View] {
		es, err := Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		return es[0].New
	}
	tables := []struct {
		names   []string
		options map[string]string
		seeds   uint64
	}{
		{[]string{"greedy", "greedy", "random"}, map[string]string{"turns": "30"}, 4},
		{[]string{"general", "greedy", "random", "greedy"}, map[string]string{"turns": "12"}, 3},
		{[]string{"random", "general"}, map[string]string{"turns": "15"}, 3},
		{[]string{"greedy", "random", "greedy", "random", "greedy", "greedy"}, map[string]string{"turns": "40"}, 6},
		{[]string{"greedy", "greedy", "greedy", "greedy", "greedy", "greedy"}, map[string]string{"turns": "60"}, 16},
		{[]string{"random", "random", "random", "random", "random", "random"}, map[string]string{"turns": "30"}, 6},
		{[]string{"greedy", "greedy", "greedy", "greedy", "greedy"}, map[string]string{"turns": "40", "board": turnBoard()}, 4},
		{[]string{"greedy", "random", "greedy", "greedy", "random", "greedy"}, map[string]string{"turns": "40", "board": gridBoard(10, 8)}, 1},
	}
	if testing.Short() {
		for i := range tables {
			tables[i].seeds = min(tables[i].seeds, 2)
		}
	}
	var views, later, hidden atomic.Int64
	count := func(in, read View) string {
		views.Add(1)
		w := in.World()
		for k := in.You() + 1; k < w.Nations(); k++ {
			if n := w.Nation(k); in.Kind() == ActionKind && n.In() && n.ActionsLeft() != ceilDiv(w.Holdings(k), w.Config().HoldingsPerAction) {
				later.Add(1) // what no board alone tells
				break
			}
		}
		if strings.Contains(in.String(), "are not shown") {
			hidden.Add(1)
		}
		return sameView(in, read)
	}
	t.Run("games", func(t *testing.T) {
		for i, tab := range tables {
			for seed := range tab.seeds {
				setup := engine.Setup{Seed: 40*uint64(i) + seed, Players: tab.names, Options: tab.options}
				o := enginetest.ReadOptions[Action, View]{Seed: seed, Steps: 3000, Same: count}
				for _, name := range tab.names {
					o.Players = append(o.Players, entrant(name))
				}
				t.Run(fmt.Sprintf("%s/seed-%d", strings.Join(tab.names, ","), setup.Seed), func(t *testing.T) {
					t.Parallel()
					enginetest.CheckReadViews(t, Game{}, setup, o)
				})
			}
		}
	})
	t.Logf("%d views, %d where a nation after the seat has other actions left than its holdings give, %d with actions not shown", views.Load(), later.Load(), hidden.Load())
	if !testing.Short() && !t.Failed() && (later.Load() == 0 || hidden.Load() == 0) {
		t.Errorf("no view where a nation after the seat has other actions left than its holdings give (%d), or with actions not shown (%d): the games do not test what they should", later.Load(), hidden.Load())
	}
	t.Run("mcts", func(t *testing.T) {
		search := func() engine.Player[Action, View] {
			p, err := mcts.New[Action, View](Game{}, mcts.Config{Playouts: 30}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "6"}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Action, View]{Same: sameView, Steps: 150,
			Players: []func() engine.Player[Action, View]{search, entrant("greedy"), search}})
	})
}

// gridBoard is a board of cols × rows territories, each next to those
// left, right, above and below it, with an action for each holding: in a
// turn of six nations, many more actions than a view tells pass between
// a seat's.
func gridBoard(cols, rows int) string {
	type territory struct {
		ID        string   `json:"id"`
		Name      string   `json:"name"`
		Neighbors []string `json:"neighbors"`
	}
	id := func(c, r int) string { return fmt.Sprintf("T%d%d", c, r) }
	var terr []territory
	for r := range rows {
		for c := range cols {
			t := territory{ID: id(c, r), Name: fmt.Sprintf("Field %d of row %d", c+1, r+1)}
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if x, y := c+d[0], r+d[1]; x >= 0 && x < cols && y >= 0 && y < rows {
					t.Neighbors = append(t.Neighbors, id(x, y))
				}
			}
			terr = append(terr, t)
		}
	}
	b, _ := json.Marshal(map[string]any{"turn_management": true, "holdings_per_action": 1, "territories": terr})
	return string(b)
}

// TestReadViewsRefuses: a view that is not one of the seat's match is
// refused with what is wrong.
func TestReadViewsRefuses(t *testing.T) {
	info := engine.MatchInfo{Ruleset: "territories", Seat: 1, Players: []string{"a", "b"}, Options: map[string]string{"turns": "5"}}
	read, err := Game{}.ReadViews(info)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Game{}.NewMatch(engine.Setup{Players: info.Players, Options: info.Options})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(0, JoinAction("Amber", "CA")); err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(m.View(1))
	if _, err := read(2, good); err != nil {
		t.Fatalf("the view itself is refused: %v\n%s", err, good)
	}
	if _, err := read(3, good); err == nil || !strings.Contains(err.Error(), "request 3") {
		t.Errorf("a join as the third request: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"seat":1`, `"seat":0`, "it is seat 1's; this seat is seat 2"},
		{`"max_armies":5`, `"max_armies":6`, "not the board"},
		{`"id":"WA"`, `"id":"XX"`, "not the board"},
		{`"nation":"Amber","armies":3`, `"nation":"Ember","armies":3`, "0 by the holdings"},
		{`"name":"Amber"`, `"name":"Basalt"`, "seat 1's is Amber"},
		{`"kind":"join"`, `"kind":"attack"`, `kind "attack"`},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in %s", c.from, good)
		}
		if _, err := read(2, []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s for %s: %v; want it to say %q", c.to, c.from, err, c.want)
		}
	}
	// An action's view: what happened since the seat's last action, and
	// the nations' actions in the turn, must be there and agree.
	if err := m.Apply(1, JoinAction("Basalt", "NV")); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(0, RaiseAction("CA")); err != nil {
		t.Fatal(err)
	}
	if r := m.Pending()[0]; r.Seat != 1 || r.ID != 4 {
		t.Fatalf("request %d of seat %d; want request 4 of seat 2", r.ID, r.Seat+1)
	}
	good, _ = json.Marshal(m.View(1))
	if _, err := read(4, good); err != nil {
		t.Fatalf("the view itself is refused: %v\n%s", err, good)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"seq":2,"action":"join","player":"seat 2"`, `"seq":2,"action":"join","player":"seat 1"`, "the seat's last action, action 2, is seat 1's"},
		{`"last_action_seq":2`, `"last_action_seq":3`, "2 actions since the seat's last, action 3, of 3 so far; want the 1 from action 3"},
		{`"last_action_seq":2`, `"last_action_seq":1`, "its join was action 2"},
		{`"last_action_seq":2`, `"last_action_seq":0`, "its join was action 2"},
		{`"last_action_seq":2,`, ``, "last_action_seq and since_last_action are required"},
		{`,"since_last_action":[`, `,"since":[`, "last_action_seq and since_last_action are required"},
		{`"seq":3,`, `"seq":4,`, "numbered 4; want 3"},
		{`"actions_left":1,"max_armies"`, `"actions_left":2,"max_armies"`, "2 actions left, where Basalt has used 0 of 1"},
		{`"used":0,"passed":false}],"holdings"`, `"used":0,"passed":true}],"holdings"`, "1 actions left, where Basalt has used 0 of 1 (passed true)"},
		{`"used":0,"passed":false}],"holdings"`, `"passed":false}],"holdings"`, "nation Basalt: allowed, used and passed are required"},
		{`"armies":4,"allowed":1,"used":1`, `"armies":4,"out_turn":1,"allowed":1,"used":1`, "nation Amber out at action 0 in turn 1"},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in %s", c.from, good)
		}
		if _, err := read(4, []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s for %s: %v; want it to say %q", c.to, c.from, err, c.want)
		}
	}
	if _, err := (Game{}).ReadViews(engine.MatchInfo{Seat: 0, Players: []string{"a", "b"}, Options: map[string]string{"board": "{"}}); err == nil {
		t.Error("a match of a board that does not parse is read")
	}
}

// FuzzReadViews: a view's JSON, however damaged, is read or refused;
// never a panic, and a view read back writes JSON that reads back the
// same.
func FuzzReadViews(f *testing.F) {
	info := engine.MatchInfo{Ruleset: "territories", Seat: 0, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "8"}}
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: info.Players, Options: info.Options})
	if err != nil {
		f.Fatal(err)
	}
	bot := Player(Greedy())
	for step := 0; !m.Over() && step < 60; step++ {
		r := m.Pending()[0]
		if r.Seat == 0 {
			b, _ := json.Marshal(m.View(0))
			f.Add(r.ID, b)
		}
		mv, err := bot.Decide(nil, &r, m.View(r.Seat))
		if err != nil || m.Apply(r.Seat, mv) != nil {
			_ = m.Apply(r.Seat, r.Default)
		}
	}
	f.Fuzz(func(t *testing.T, id int64, data []byte) {
		read, err := Game{}.ReadViews(info)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := enginetest.ReadBack(t, read, id, data); ok {
			_, _, _ = v.String(), v.Legal(), v.Help()
		}
	})
}
