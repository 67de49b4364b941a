package tncc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// The moves of the rules page, "## A turn: one action" and the world
// JSON's steps, as people type them and as programs send them.

func TestMoveText(t *testing.T) {
	// "`wait`", "`recruit N`", "`trade WITH GIVE_RES GIVE_N TAKE_RES
	// TAKE_N`", "`war TARGET L F R`"; countries from 1 in text.
	cases := []struct {
		mv   Move
		text string
	}{
		{WaitMove, "wait"},
		{RecruitMove(50), "recruit 50"},
		{RecruitMove(-50), "recruit -50"},
		{RecruitMove(0), "recruit 0"},
		{TradeMove(1, Gold, 100, Food, 200), "trade 2 gold 100 food 200"},
		{TradeMove(11, Land, 0, Gold, MaxAmount), "trade 12 land 0 gold 1000000000000"},
		{TradeMove(0, Citizens, 5, Army, 6), "trade 1 citizens 5 army 6"}, // legality is not the parser's business
		{WarMove(1, Flanks{10, 0, 30}), "war 2 10 0 30"},
		{WarMove(0, Flanks{-1, -MaxAmount, 0}), "war 1 -1 -1000000000000 0"},
		{AcceptMove, "accept"},
		{DeclineMove, "decline"},
		{DefendMove(Flanks{5, 5, 5}), "defend 5 5 5"},
	}
	for _, c := range cases {
		if got := c.mv.String(); got != c.text {
			t.Errorf("%#v.String() = %q; want %q", c.mv, got, c.text)
		}
		back, err := ParseMove(c.text)
		if err != nil || back != c.mv {
			t.Errorf("ParseMove(%q) = %#v, %v; want %#v", c.text, back, err, c.mv)
		}
	}
	// Other spellings people type.
	other := []struct {
		text string
		mv   Move
	}{
		{"yes", AcceptMove},
		{"Y", AcceptMove},
		{"no", DeclineMove},
		{"N", DeclineMove},
		{"5 5 5", DefendMove(Flanks{5, 5, 5})},
		{"  WAR  2 10 0 30  ", WarMove(1, Flanks{10, 0, 30})},
		{"Trade 3 GOLD 1 Food 2", TradeMove(2, Gold, 1, Food, 2)},
		{"recruit +7", RecruitMove(7)},
		{"\twait\n", WaitMove},
	}
	for _, c := range other {
		if got, err := ParseMove(c.text); err != nil || got != c.mv {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", c.text, got, err, c.mv)
		}
	}
}

func TestMoveTextErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty move"},
		{"   ", "empty move"},
		{"fly", `unknown move "fly"`},
		{"5 5", `unknown move "5"`},
		{"wait now", "wait takes 0 arguments"},
		{"recruit", "recruit takes 1 argument:"},
		{"recruit 1 2", "recruit takes 1 argument"},
		{"recruit x", `N: "x" is not a whole number`},
		{"recruit 1.5", `"1.5" is not a whole number`},
		{"recruit 1000000000001", "N: 1000000000001 is out of range; amounts are whole numbers from -1000000000000 to 1000000000000"},
		{"recruit 99999999999999999999", "N: 99999999999999999999 is out of range; amounts are whole numbers"},
		{"trade 2 gold 1 food 1e3", `TAKE_N: "1e3" is not a whole number`},
		{"trade 2 gold 100 food", "trade takes 5 arguments"},
		{"trade 0 gold 1 food 1", "countries are numbered from 1"},
		{"trade 13 gold 1 food 1", `"13" is not a country`},
		{"trade two gold 1 food 1", `"two" is not a country`},
		{"trade 2 stone 1 food 1", `unknown resource "stone"`},
		{"trade 2 gold 1 food x", "TAKE_N"},
		{"war 2 1 2", "war takes 4 arguments"},
		{"war 2 1 2 x", "RIGHT"},
		{"defend 1 2", "defend takes 3 arguments"},
		{"5 5 x", "RIGHT"},
		{"yes please", "accept takes 0 arguments"},
	}
	for _, c := range cases {
		_, err := ParseMove(c.in)
		if err == nil {
			t.Errorf("ParseMove(%q) accepted", c.in)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseMove(%q): %q; want it to say %q", c.in, err, c.want)
		}
	}
}

func TestMoveJSON(t *testing.T) {
	// The world JSON's steps: actions {"type": ...} and answers
	// {"accept": true}, {"flanks": [5, 5, 5]}.
	cases := []struct {
		rules string // as the rules page writes it
		mv    Move
		json  string // as MarshalJSON writes it
	}{
		{`{"type": "wait"}`, WaitMove, `{"type":"wait"}`},
		{`{"type": "recruit", "n": 50}`, RecruitMove(50), `{"type":"recruit","n":50}`},
		{`{"type": "recruit", "n": 0}`, RecruitMove(0), `{"type":"recruit","n":0}`},
		{`{"type": "trade", "with": 1, "give": "gold", "give_n": 100,
		   "take": "food", "take_n": 200}`, TradeMove(1, Gold, 100, Food, 200),
			`{"type":"trade","with":1,"give":"gold","give_n":100,"take":"food","take_n":200}`},
		{`{"type": "trade", "with": 0, "give": "land", "give_n": 0, "take": "gold", "take_n": 0}`, TradeMove(0, Land, 0, Gold, 0),
			`{"type":"trade","with":0,"give":"land","give_n":0,"take":"gold","take_n":0}`},
		{`{"type": "war", "target": 1, "flanks": [10, 0, 30]}`, WarMove(1, Flanks{10, 0, 30}), `{"type":"war","target":1,"flanks":[10,0,30]}`},
		{`{"type": "war", "target": 0, "flanks": [0, 0, 0]}`, WarMove(0, Flanks{}), `{"type":"war","target":0,"flanks":[0,0,0]}`},
		{`{"accept": true}`, AcceptMove, `{"accept":true}`},
		{`{"accept": false}`, DeclineMove, `{"accept":false}`},
		{`{"flanks": [5, 5, 5]}`, DefendMove(Flanks{5, 5, 5}), `{"flanks":[5,5,5]}`},
		{`{"flanks": [0, 0, 0]}`, DefendMove(Flanks{}), `{"flanks":[0,0,0]}`},
	}
	for _, c := range cases {
		var mv Move
		if err := json.Unmarshal([]byte(c.rules), &mv); err != nil || mv != c.mv {
			t.Errorf("%s reads as %#v, %v; want %#v", c.rules, mv, err, c.mv)
		}
		b, err := json.Marshal(c.mv)
		if err != nil || string(b) != c.json {
			t.Errorf("%v marshals to %s, %v; want %s", c.mv, b, err, c.json)
		}
		var back Move
		if err := json.Unmarshal(b, &back); err != nil || back != c.mv {
			t.Errorf("%s reads back as %#v, %v", b, back, err)
		}
	}
}

func TestMoveJSONErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `needs "type"`},
		{`{"type": "fly"}`, `"fly" is not an action`},
		{`{"type": "Wait"}`, `"Wait" is not an action`},
		{`{"type": "accept"}`, `"accept" is not an action`},
		{`{"type": "defend", "flanks": [1, 1, 1]}`, `"defend" is not an action`},
		{`{"type": "recruit"}`, `recruit needs "n"`},
		{`{"type": "recruit", "n": 1.5}`, "n"},
		{`{"type": "recruit", "n": "5"}`, "n"},
		{`{"type": "wait", "n": 5}`, `"n" does not belong`},
		{`{"type": "recruit", "n": 5, "target": 1}`, `"target" does not belong`},
		{`{"type": "trade", "with": 1, "give": "gold", "give_n": 1, "take": "food"}`, `trade needs "take_n"`},
		{`{"type": "trade", "with": 1, "give": "stone", "give_n": 1, "take": "food", "take_n": 1}`, `unknown resource "stone"`},
		{`{"type": "trade", "with": 1, "give": 0, "give_n": 1, "take": "food", "take_n": 1}`, "give"},
		{`{"type": "war", "target": 1}`, `war needs "flanks"`},
		{`{"type": "war", "flanks": [1, 2, 3]}`, `war needs "target"`},
		{`{"type": "war", "target": 1, "flanks": [1, 2]}`, "three whole numbers"},
		{`{"type": "war", "target": 1, "flanks": [1, 2, 3, 4]}`, "three whole numbers"},
		{`{"type": "war", "target": 1, "flanks": [1, 2, 3.5]}`, "three whole numbers"},
		{`{"type": "war", "target": 1, "flanks": {"left": 1}}`, "three whole numbers"},
		{`{"flanks": [1, 2]}`, "three whole numbers"},
		{`{"flanks": []}`, "three whole numbers"},
		{`{"accept": true, "flanks": [1, 2, 3]}`, "with nothing else"},
		{`{"accept": true, "type": "wait"}`, "with nothing else"},
		{`{"accept": true, "n": 3}`, `"n" does not belong`},
		{`{"accept": "yes"}`, "accept"},
		{`{"flanks": [1, 2, 3], "target": 1}`, `"target" does not belong`},
		{`{"type": "wait", "colour": "red"}`, "colour"},
		{`{"type": "wait"} {}`, "trailing"},
		{`[]`, "object"},
		{``, "empty"},
	}
	for _, c := range cases {
		var mv Move
		err := mv.UnmarshalJSON([]byte(c.in))
		if err == nil {
			t.Errorf("%s accepted as %v", c.in, mv)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q; want it to say %q", c.in, err, c.want)
		}
	}
}

func TestMoveTypes(t *testing.T) {
	for _, c := range []struct {
		t      MoveType
		name   string
		action bool
	}{{Wait, "wait", true}, {Recruit, "recruit", true}, {Trade, "trade", true}, {War, "war", true},
		{Accept, "accept", false}, {Decline, "decline", false}, {Defend, "defend", false}} {
		if c.t.String() != c.name || c.t.IsAction() != c.action {
			t.Errorf("%d: %q, action %v", c.t, c.t.String(), c.t.IsAction())
		}
	}
	if s := MoveType(99).String(); s != "MoveType(99)" {
		t.Errorf("MoveType(99) is %q", s)
	}
	if f := (Flanks{1, 2, 3}); f.Total() != 6 {
		t.Errorf("total %d", f.Total())
	}
}

func TestParseMoveOffersTheClosestWord(t *testing.T) {
	// A mistyped move's word is answered with the move it looks like,
	// arguments and all, as AjveCiv's choices are.
	for line, want := range map[string]string{
		"recrut 5":              `unknown move "recrut"; did you mean recruit 5? Moves: wait;`,
		"wiat":                  `unknown move "wiat"; did you mean wait? Moves:`,
		"trdae 2 gold 1 food 1": `unknown move "trdae"; did you mean trade 2 gold 1 food 1? Moves:`,
		"declien":               `unknown move "declien"; did you mean decline? Moves:`,
		"xyzzy 5":               `unknown move "xyzzy"; moves: wait;`,
	} {
		_, err := ParseMove(line)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseMove(%q): %v; want %s…", line, err, want)
		}
	}
}

func TestWarRefusalNamesEveryLack(t *testing.T) {
	// "war costs gold_for_war gold, win or lose", and its flanks come from
	// the army: a war short of both is told both.
	m := rulesMatch(t, 2, nil)
	m.world.Countries[0].Stock[Gold] = 800
	err := m.View(0).Check(WarMove(1, Flanks{1, 1, 1}))
	want := "war: 1, 1 and 1 soldiers on the flanks, and the army has 0; also, war costs 1600 gold, and you have 800"
	if err == nil || err.Error() != want {
		t.Errorf("war 2 1 1 1 with 800 gold and no army: %v; want %q", err, want)
	}
	m.world.Countries[0].Stock[Army] = 3
	if err := m.View(0).Check(WarMove(1, Flanks{1, 1, 1})); err == nil || err.Error() != "war costs 1600 gold; you have 800" {
		t.Errorf("war short of gold alone: %v", err)
	}
}

func TestAMoveOfTheWrongShapeIsToldTheShapeOfItsKind(t *testing.T) {
	// A move read as the answer to a request of a known kind that is no
	// move at all is told what that kind's move is, not the fields of
	// every move: a bot that answers a trade offer with true learns of
	// {"accept": true}, not of "type", "n", "with", ...
	const (
		action = `{"type": "wait"}, {"type": "recruit", "n": 50}, {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200} or {"type": "war", "target": 1, "flanks": [10, 0, 30]}`
		trade  = `{"accept": true} or {"accept": false}`
		war    = `{"flanks": [LEFT, FRONT, RIGHT]}, the soldiers on each flank, like {"flanks": [10, 0, 30]}`
	)
	for _, c := range []struct {
		kind       engine.Kind
		data, want string
	}{
		{TradeAnswerKind, `true`, "want an answer to a trade offer: " + trade + "; got a JSON bool"},
		{TradeAnswerKind, `"yes"`, "want an answer to a trade offer: " + trade + "; got a JSON string"},
		{TradeAnswerKind, `{}`, `an answer to a trade offer needs "accept": ` + trade},
		{TradeAnswerKind, `{"answer": true}`, `"answer" is no field of an answer to a trade offer; want ` + trade},
		{TradeAnswerKind, `{"type": "wait", "accept": true}`, `"type" is no field of an answer to a trade offer; want ` + trade},
		{WarAnswerKind, `[1, 2, 3]`, "want an answer to a war: " + war + "; got a JSON array"},
		{WarAnswerKind, `{"accept": true, "n": 1}`, `"accept" is no field of an answer to a war; want ` + war},
		{TurnKind, `true`, "want an action: " + action + "; got a JSON bool"},
		{TurnKind, `{}`, `an action needs "type": ` + action},
		{TurnKind, `{"type": "wait", "accept": true}`, `"accept" is no field of an action; want ` + action},
		// What is wrong within a move of the kind's shape is told as before.
		{TradeAnswerKind, `{"accept": "yes"}`, "accept: want true or false, got a JSON string"},
		{TradeAnswerKind, `{"Accept": true}`, `field "Accept" is written "accept": names of fields are read exactly as written, in their case`},
		{WarAnswerKind, `{"flanks": [1, 2]}`, "flanks: want [LEFT, FRONT, RIGHT], three whole numbers, like [10, 0, 30]; have [1, 2]"},
		{TurnKind, `{"type": "recruit"}`, `recruit needs "n": {"type": "recruit", "n": 50}`},
		{TurnKind, `{"accept": true, "accept": false}`, `the top level: key "accept" is given twice; give each key once`},
	} {
		var mv Move
		if err := mv.UnmarshalKind(c.kind, []byte(c.data)); err == nil || err.Error() != c.want {
			t.Errorf("a %s of %s: %v;\nwant %s", c.kind, c.data, err, c.want)
		}
	}
	// A move of another kind is read: the rules refuse it where it is
	// played, as they refuse it in a match.
	var mv Move
	if err := mv.UnmarshalKind(TurnKind, []byte(`{"accept": true}`)); err != nil || mv != AcceptMove {
		t.Errorf("a turn of {\"accept\": true}: %v, %v; want accept, read", mv, err)
	}
	// arbiter step knows the kind of each part of a step.
	for step, want := range map[string]string{
		`{"seat": 0, "action": {"type": "trade", "with": 1, "give": "gold", "give_n": 1, "take": "food", "take_n": 1}, "answer": true}`: "answer: want an answer to a trade offer: " + trade + "; got a JSON bool",
		`{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [1, 1, 1]}, "answer": {"flanks": [0, 0, 0], "n": 1}}`:             `answer: "n" is no field of an answer to a war; want ` + war,
		`{"seat": 0, "action": "wait"}`: "action: want an action: " + action + "; got a JSON string",
	} {
		if _, err := ParseStepMove([]byte(step)); err == nil || err.Error() != want {
			t.Errorf("step %s: %v;\nwant %s", step, err, want)
		}
	}
}
