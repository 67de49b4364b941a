package territories

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
	"github.com/arbiter-games/arbiter/mcts"
)

// outTurn is how String tells the turn a nation went out, which a view
// read back does not know.
var outTurn = regexp.MustCompile(`out of the game at turn \d+ \(action`)

// sinceLast is String's account of what happened since the seat's last
// action, which a view read back has not.
func withoutRecent(s string) string {
	if !strings.HasPrefix(s, "Since your last action") {
		return s
	}
	_, rest, _ := strings.Cut(s, "\nNations:")
	return "Nations:" + rest
}

// sameView says how a view read back from its JSON differs from the view
// in process, method by method, or "": in all but what its JSON cannot
// tell (see ReadViews), the actions left of the nations after the seat's
// in the turn, which lag counts.
func sameView(lag *int) func(in, read View) string {
	return func(in, read View) string {
		wi, wr := in.World().Clone(), read.World().Clone()
		seat := in.You()
		for k := range wi.nations {
			a, b := wi.nations[k], wr.nations[k]
			switch {
			case k == seat || j(in) == JoinKind:
			case k < seat || !a.In():
				a.Allowed, a.Used, a.Passed = 0, 0, false
				b.Allowed, b.Used, b.Passed = 0, 0, false
			default:
				if a.ActionsLeft() != b.ActionsLeft() {
					*lag++
				}
				a.Allowed, a.Used, b.Allowed, b.Used = 0, 0, 0, 0
			}
			if a != b {
				return fmt.Sprintf("World().Nation(%d): in process %+v, read back %+v", k, wi.nations[k], wr.nations[k])
			}
		}
		strIn := outTurn.ReplaceAllString(withoutRecent(in.String()), "out of the game (action")
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
			{"String", strIn, read.String()},
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
		tries := append(in.Legal(), PassAction, RaiseAction("CA"), AttackAction("CA", "NV"), MoveAction("WA", 1, "OR"), JoinAction("Amber", "WA"))
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
}

func j(v View) engine.Kind { return v.Kind() }

// sameSample compares two matches sampled from a view, in process and read
// back, but for how the nations with no action left in the turn came to
// have none (used, passed, out of the game), which no view shows and no
// play reads: the next turn counts their actions afresh.
func sameSample(in, read engine.Match[Action, View]) string {
	face := func(m engine.Match[Action, View]) string {
		x := m.(*Match)
		c := *x
		w := *x.w
		w.nations = append([]Nation(nil), w.nations...)
		for k := range w.nations {
			if w.nations[k].ActionsLeft() == 0 {
				w.nations[k].Allowed, w.nations[k].Used, w.nations[k].Passed = 0, 0, false
			}
		}
		c.w = &w
		snap, err := c.MarshalJSON()
		if err != nil {
			return err.Error()
		}
		reqs, _ := json.Marshal(c.Pending())
		return string(snap) + "\n" + string(reqs)
	}
	if a, b := face(in), face(read); a != b {
		return fmt.Sprintf("in process %.600s, read back %.600s", a, b)
	}
	return ""
}

// TestReadViews: a view sent to a program reads back into the view in
// process, at every decision of many games, on the sample board and on
// boards of one's own, nations out of the game; the built-in bots, the
// general's lookahead included, and the search AI decide the same on it
// as in process.
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
	}{
		{[]string{"greedy", "greedy", "random"}, map[string]string{"turns": "30"}},
		{[]string{"general", "greedy", "random", "greedy"}, map[string]string{"turns": "12"}},
		{[]string{"random", "general"}, map[string]string{"turns": "15"}},
		{[]string{"greedy", "random", "greedy", "random", "greedy", "greedy"}, map[string]string{"turns": "40"}},
	}
	lag, views := 0, 0
	for i, tab := range tables {
		for seed := range uint64(3) {
			setup := engine.Setup{Seed: 40*uint64(i) + seed, Players: tab.names, Options: tab.options}
			same := sameView(&lag)
			o := enginetest.ReadOptions[Action, View]{Seed: seed, Steps: 400, SameSample: sameSample, Same: func(in, read View) string { views++; return same(in, read) }}
			for _, name := range tab.names {
				o.Players = append(o.Players, entrant(name))
			}
			t.Run(fmt.Sprintf("%s/seed-%d", strings.Join(tab.names, ","), setup.Seed), func(t *testing.T) {
				enginetest.CheckReadViews(t, Game{}, setup, o)
			})
		}
	}
	t.Logf("%d views, %d nations with other actions left than in process", views, lag)
	t.Run("mcts", func(t *testing.T) {
		search := func() engine.Player[Action, View] {
			p, err := mcts.New[Action, View](Game{}, mcts.Config{Playouts: 30}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		setup := engine.Setup{Seed: 9, Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "6"}}
		enginetest.CheckReadViews(t, Game{}, setup, enginetest.ReadOptions[Action, View]{Same: sameView(new(int)), SameSample: sameSample, Steps: 150,
			Players: []func() engine.Player[Action, View]{search, entrant("greedy"), search}})
	})
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
		v, err := read(id, data)
		if err != nil {
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("a view read back does not write: %v", err)
		}
		_, _, _ = v.String(), v.Legal(), v.Help()
		again, err := read(id, b)
		if err != nil {
			t.Fatalf("a view read back writes JSON that does not read back: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(again); string(b2) != string(b) {
			t.Fatalf("read twice, a view writes other JSON:\n%s\n%s", b, b2)
		}
	})
}
