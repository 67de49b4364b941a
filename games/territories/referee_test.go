package territories

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// refereed starts a refereed game on the sample map with min_nations n.
func refereed(t *testing.T, n int) *Refereed {
	t.Helper()
	c := *Sample()
	c.MinNations = n
	m, err := Referee{}.New(engine.Setup{Seed: 1, Options: map[string]string{"board": string(c.JSON())}})
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Refereed)
}

func call(t *testing.T, m *Refereed, player string, a Action) {
	t.Helper()
	if err := m.Apply(engine.Judge, Call{Player: player, Action: a}); err != nil {
		t.Fatalf("%s %v: %v", player, a, err)
	}
}

func TestRefereedGameGoesOnWithOneNationSoFar(t *testing.T) {
	// The seed leaves who acts when, and the end, to the calling
	// application: a game that asks no min_nations has started at once,
	// and its first nation is not "the last nation" while the others are
	// yet to join. It ends when one nation is left of two or more.
	for _, n := range []int{0, 1} {
		m := refereed(t, n)
		call(t, m, "alice", JoinAction("Amber", "CA"))
		if m.Over() {
			t.Errorf("min_nations %d: the game ended at its first join: %s", n, m.Result().Reason)
		}
		call(t, m, "bob", JoinAction("Basalt", "NV"))
		if m.Over() {
			t.Errorf("min_nations %d: the game ended with two nations in it", n)
		}
	}
}

func TestRefereedBoardTellsTheLastAction(t *testing.T) {
	// An application reads what its call did from the board: the last
	// action's outcome, an attack's roll and losses included.
	m := refereed(t, 2)
	if m.board().Last != nil {
		t.Error("a board before any action tells a last one")
	}
	call(t, m, "alice", JoinAction("Amber", "CA"))
	call(t, m, "bob", JoinAction("Basalt", "NV"))
	call(t, m, "alice", AttackAction("CA", "NV"))
	b, err := json.Marshal(m.Public())
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Last map[string]any
	}
	json.Unmarshal(b, &j)
	for _, k := range []string{"roll", "threshold", "success", "attacker_losses", "defender_losses", "removed"} {
		if _, ok := j.Last[k]; !ok || j.Last["action"] != "attack" {
			t.Errorf("the board's last action lacks %q: %s", k, b)
		}
	}
}

func TestRefereedChronicleTellsConquestsAndNationsOut(t *testing.T) {
	// A refereed game tells the public story a seated one does: each
	// territory emptied by an attack, each nation out (marked), of no
	// seat, and a snapshot keeps it.
	m := refereed(t, 2)
	call(t, m, "alice", JoinAction("Amber", "CA"))
	call(t, m, "bob", JoinAction("Basalt", "NV"))
	for k := 0; !m.Over(); k++ {
		if k == 200 {
			t.Fatal("200 attacks and Basalt still stands")
		}
		// Amber attacks at full strength only, and raises in between.
		if m.w.Armies(m.w.NationOf("alice")) < m.w.cfg.MaxArmies {
			call(t, m, "alice", RaiseAction("CA"))
			continue
		}
		call(t, m, "alice", AttackAction("CA", "NV"))
	}
	ev := m.Chronicle()
	if len(ev) < 2 || ev[len(ev)-1].Kind != "out" || !ev[len(ev)-1].Mark || ev[len(ev)-1].Text != "Basalt is out of the game" || ev[len(ev)-2].Kind != "conquest" {
		t.Fatalf("the chronicle: %+v; want NV emptied, then Basalt out", ev)
	}
	for _, e := range ev {
		if len(e.Seats) != 0 {
			t.Errorf("an event of seats %v in a game of none: %+v", e.Seats, e)
		}
	}
	snap, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Referee{}.Restore(engine.Setup{Seed: 1, Options: map[string]string{"board": string(m.w.cfg.JSON())}}, snap)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.(*Refereed).Chronicle(); len(got) != len(ev) {
		t.Errorf("restored, the chronicle has %d events; want %d", len(got), len(ev))
	}
}

func TestRefereedTurnIsTimedFromItsFirstAction(t *testing.T) {
	// "A turn ends when every nation has used its actions or after
	// turn_duration." arbiter territories counts a turn's time from the
	// action that began it: the first action, then the one that ended the
	// turn before. A live match's host reads it from Due, and resumes it
	// from a snapshot alike.
	c := *Sample()
	c.TurnManagement, c.TurnDuration = true, Duration(time.Minute)
	m, err := Referee{}.New(engine.Setup{Seed: 1, Options: map[string]string{"board": string(c.JSON())}})
	if err != nil {
		t.Fatal(err)
	}
	g := m.(*Refereed)
	if _, _, _, _, ok := g.Due(); ok {
		t.Error("a turn is timed before the first action")
	}
	due := func(wantSince int64, wantIdle bool) {
		t.Helper()
		since, wait, end, idle, ok := g.Due()
		if !ok || since != wantSince || wait != time.Minute || end.Action.Kind != EndTurn || end.Player != "" || idle != wantIdle {
			t.Errorf("Due() = %d, %v, %+v, idle %v, %v; want the judge's end-turn a minute after action %d, idle %v", since, wait, end, idle, ok, wantSince, wantIdle)
		}
	}
	call(t, g, "alice", JoinAction("Amber", "CA"))
	due(1, false)
	call(t, g, "bob", JoinAction("Basalt", "NV"))
	call(t, g, "alice", RaiseAction("CA")) // her one action: bob's is left
	due(1, false)
	call(t, g, "", EndTurnAction) // the judge ends turn 1
	due(4, true)
	call(t, g, "bob", RaiseAction("NV"))
	due(4, false)
	snap, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Referee{}.Restore(engine.Setup{Seed: 1, Options: map[string]string{"board": string(c.JSON())}}, snap)
	if err != nil {
		t.Fatal(err)
	}
	g = back.(*Refereed)
	due(4, false)
	// Without a turn_duration, or without turn management, no turn is timed.
	if (&Refereed{w: NewWorld(Sample())}).Timed() {
		t.Error("the sample board's turns are timed")
	}
}

func TestRefereedBoardGivesItsTerritories(t *testing.T) {
	// A board of one's own has no map drawn: its territories, names and
	// neighbours come with the board, for a page (or an application) to
	// offer the moves the rules allow; a restored game's board too.
	board := `{"map": "none", "min_nations": 2, "territories": [{"id": "A", "name": "Alpha", "neighbors": ["B"]}, {"id": "B", "name": "Beta", "neighbors": ["A", "C"]}, {"id": "C", "name": "Gamma", "neighbors": ["B"]}]}`
	setup := engine.Setup{Seed: 1, Options: map[string]string{"board": board}}
	m, err := Referee{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	want := `"map":[{"id":"A","name":"Alpha","neighbors":["B"]},{"id":"B","name":"Beta","neighbors":["A","C"]},{"id":"C","name":"Gamma","neighbors":["B"]}]`
	if b, _ := json.Marshal(m.View(0)); !strings.Contains(string(b), want) {
		t.Errorf("the board's JSON: %s\nwant it to hold %s", b, want)
	}
	if err := m.Apply(engine.Judge, Call{Player: "alice", Action: JoinAction("Amber", "A")}); err != nil {
		t.Fatal(err)
	}
	snap, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Referee{}.Restore(setup, snap)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(r.View(0)); !strings.Contains(string(b), want) {
		t.Errorf("the restored board's JSON: %s\nwant it to hold %s", b, want)
	}
	// A game of seats gives its map in each seat's view, not on its board.
	if b, _ := json.Marshal(newBoard(m.(*Refereed).World())); strings.Contains(string(b), `"map"`) {
		t.Errorf("a board of a game of seats has a map: %s", b)
	}
}

func TestACallReadsItsFieldsExactly(t *testing.T) {
	// {"player": "alice", "acton": "raise CA"} was read as a call with no
	// action, refused as "unknown action": the misspelt field is named
	// now, and a call with no action says what one is.
	for in, want := range map[string]string{
		`{"player": "alice", "acton": "raise CA"}`:                   `unknown field "acton"; did you mean action? The fields are player, action`,
		`{"player": "alice", "action": "raise CA", "armies": 2}`:     `unknown field "armies"`,
		`{"player": "alice"}`:                                        `a call has an action`,
		`{"player": "alice", "action": null}`:                        `a call has an action`,
		`{"player": "alice", "action": "raise CA", "player": "bob"}`: `"player"`,
		// The action alone, as arbiter territories is given it: the call
		// it should have been is shown (it said only "want an object").
		`"join Pacifica CA"`: `a call names the player who acts beside the action: {"player": "alice", "action": "join Pacifica CA"}`,
	} {
		var c Call
		if err := json.Unmarshal([]byte(in), &c); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error with %q", in, err, want)
		}
	}
	for in, want := range map[string]Call{
		`{"player": "alice", "action": "raise CA"}`: {Player: "alice", Action: RaiseAction("CA")},
		`{"action": "end-turn"}`:                    {Action: EndTurnAction},
	} {
		var c Call
		if err := json.Unmarshal([]byte(in), &c); err != nil || c != want {
			t.Errorf("%s: %+v, %v; want %+v", in, c, err, want)
		}
	}
}
