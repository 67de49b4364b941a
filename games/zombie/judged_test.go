package zombie

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestJudgingPlaysTheScript(t *testing.T) {
	// A game run by its judge, line by line, says what the script says
	// when arbiter zombie run judges it whole: the same transcript, and
	// each seat's sheet is that player's private view.
	script, err := os.ReadFile("testdata/ranking.txt")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Run(script)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Bob", "Cat", "Dan", "Zed"}
	g, err := Judging{}.New(engine.Setup{Seed: 1, Players: names})
	if err != nil {
		t.Fatal(err)
	}
	m := g.(*Judged)
	for _, line := range strings.Split(string(script), "\n") {
		if _, ok := ParseLine(line); !ok {
			continue
		}
		if err := m.Apply(engine.Judge, Line(line)); err != nil && !engine.IsRuleError(err) {
			t.Fatal(err)
		}
	}
	var want, got bytes.Buffer
	whole.WriteJSON(&want)
	j, _ := json.Marshal(m.View(engine.Judge))
	json.Indent(&got, j, "", "  ")
	// The judge's view is the whole transcript but for ERROR lines, which
	// a refused line never becomes here: the judge is told at once.
	var w, g2 map[string]any
	json.Unmarshal(want.Bytes(), &w)
	json.Unmarshal(got.Bytes(), &g2)
	delete(w, "errors")
	delete(g2, "errors")
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g2)
	if string(wj) != string(gj) {
		t.Errorf("the judge's view\n%s\nwant\n%s", gj, wj)
	}
	for seat, name := range names {
		i, _ := whole.Lookup(name)
		var p bytes.Buffer
		whole.WritePrivateJSON(&p, i)
		sheet, _ := json.Marshal(m.View(seat))
		var a, b any
		json.Unmarshal(p.Bytes(), &a)
		json.Unmarshal(sheet, &b)
		aj, _ := json.Marshal(a)
		bj, _ := json.Marshal(b)
		if string(aj) != string(bj) {
			t.Errorf("%s's sheet\n%s\nwant\n%s", name, bj, aj)
		}
		if strings.Contains(string(sheet), "infected") {
			t.Errorf("%s's sheet says infected", name)
		}
	}
	if !m.Over() || len(m.Result().Winners) == 0 {
		t.Errorf("the game is over: %v, result %+v", m.Over(), m.Result())
	}
}

func TestJudgingRefusals(t *testing.T) {
	g, _ := Judging{}.New(engine.Setup{Players: []string{"Ann", "Bob", "Cat"}})
	m := g.(*Judged)
	for _, c := range []struct {
		seat int
		line string
		code string
	}{
		{0, "HUMAN Ann", "judge-only"},
		{engine.Judge, "", "no-command"},
		{engine.Judge, "# a comment", "no-command"},
		{engine.Judge, "HUMAN Zed", "no-seat"},
		{engine.Judge, "i Ann Bob", string(CodeNotStarted)},
		{engine.Judge, "fly Ann", string(CodeUnknownCommand)},
		{engine.Judge, "HUMAN Ann\nHUMAN Bob\nZOMBIE Cat", "one-line"},
	} {
		before, _ := json.Marshal(m)
		err := m.Apply(c.seat, Line(c.line))
		var re *engine.RuleError
		if !errorsAsRule(err, &re) || re.Code != c.code {
			t.Errorf("%q by seat %d: %v; want a rule error %s", c.line, c.seat, err, c.code)
		}
		if after, _ := json.Marshal(m); string(after) != string(before) {
			t.Errorf("%q changed the game", c.line)
		}
	}
	// Before a seat's player is enrolled, its sheet holds nothing.
	if s, _ := json.Marshal(m.View(1)); strings.Contains(string(s), "Bob") {
		t.Errorf("an unenrolled seat's sheet: %s", s)
	}
	if _, err := (Judging{}).New(engine.Setup{Players: []string{"Ann", "ann", "Cat"}}); err == nil {
		t.Error("two seats called Ann and ann accepted")
	}
	if _, err := (Judging{}).New(engine.Setup{Players: []string{"Ann", "Bob", "9lives"}}); err == nil {
		t.Error("a seat called 9lives accepted")
	}
}

func errorsAsRule(err error, re **engine.RuleError) bool {
	r, ok := err.(*engine.RuleError)
	*re = r
	return ok
}
