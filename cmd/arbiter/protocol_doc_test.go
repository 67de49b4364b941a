package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/games/zombie"
)

// botDocs returns docs/protocol.md and the README, each with its white
// space made single spaces, so that a claim can be found across lines.
func botDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	for _, name := range []string{"../../docs/protocol.md", "../../README.md"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(name)] = strings.Join(strings.Fields(string(data)), " ")
	}
	return docs
}

func TestProtocolDocSaysWhichMovesAreReadInAnyCase(t *testing.T) {
	// "Names in moves are read in any case where the move is a name or a
	// text: AjveCiv's and Reaj's values ("Conquer" and "CONQUER" are
	// conquer), territories' actions ("ATTACK ca nv") and a zombie plan's
	// text ("p2/P guard=P"). TNCC's type is not: ... ("Wait" is garbage);
	// its resource names (give, take) are read in any case."
	read := func(move string, into any) error { return json.Unmarshal([]byte(move), into) }
	var a ajveciv.Value
	var r reaj.Value
	var ta territories.Action
	var z zombie.Plan
	var tm tncc.Move
	for _, c := range []struct {
		move string
		into any
		want string // the move read, in its text form; "" if refused
	}{
		{`"Conquer"`, &a, "conquer"},
		{`"CONQUER"`, &r, "conquer"},
		{`"ATTACK ca nv"`, &ta, "attack ca nv"}, // played in games/territories
		{`"p2/P guard=P"`, &z, "P2/p guard=p"},
		{`{"type":"Wait"}`, &tm, ""},
		{`{"type":"trade","with":1,"give":"GOLD","give_n":1,"take":"Food","take_n":2}`, &tm, "trade 2 gold 1 food 2"},
	} {
		err := read(c.move, c.into)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s is read", c.move)
		case c.want != "" && err != nil:
			t.Errorf("%s: %v", c.move, err)
		case c.want != "":
			if got := stringOf(c.into); got != c.want {
				t.Errorf("%s is read as %q; want %q", c.move, got, c.want)
			}
		}
	}
	doc := botDocs(t)["protocol.md"]
	for _, claim := range []string{
		"Names in moves are read in any case where the move is a name or a text: AjveCiv's and Reaj's values (`\"Conquer\"` and `\"CONQUER\"` are `conquer`), territories' actions (`\"ATTACK ca nv\"`) and a zombie plan's text (`\"p2/P guard=P\"`).",
		"(`\"Wait\"` is garbage); its resource names (`give`, `take`) are read in any case.",
	} {
		if !strings.Contains(doc, claim) {
			t.Errorf("docs/protocol.md does not say %s", claim)
		}
	}
}

// stringOf is a move's text form.
func stringOf(move any) string {
	switch m := move.(type) {
	case *ajveciv.Value:
		return m.String()
	case *reaj.Value:
		return m.String()
	case *territories.Action:
		return m.String()
	case *zombie.Plan:
		return m.String()
	case *tncc.Move:
		return m.String()
	}
	return ""
}

func TestProtocolDocSaysHowTheJavaScriptStarterKeepsTheSeed(t *testing.T) {
	// "The JavaScript starter (starters/js/bot.js) quotes the seed before it
	// parses a line, line.replace(/"seed":(\d+)/, '"seed":"$1"'), and reads
	// it with BigInt(hello.seed)."
	js, err := os.ReadFile("../../starters/js/bot.js")
	if err != nil {
		t.Fatal(err)
	}
	doc := botDocs(t)["protocol.md"]
	for _, code := range []string{`line.replace(/"seed":(\d+)/, '"seed":"$1"')`, `BigInt(hello.seed)`} {
		if !strings.Contains(string(js), code) {
			t.Errorf("starters/js/bot.js does not hold %s", code)
		}
		if !strings.Contains(doc, "`"+code+"`") {
			t.Errorf("docs/protocol.md does not quote %s", code)
		}
	}
	if !strings.Contains(doc, "JavaScript's `JSON.parse` reads `16067919025521619762` as 16067919025521619000") {
		t.Error("docs/protocol.md does not give the seed JSON.parse reads wrong")
	}
}

func TestBotDocsShowAShellScriptsFix(t *testing.T) {
	// The fix for a relative path inside exec:sh -c '...', which is not made
	// absolute (player's TestAShellScriptsPathsStayRelative), in both docs.
	for name, doc := range botDocs(t) {
		if !strings.Contains(doc, "`--player \"exec:sh -c 'cd $PWD/bots && exec python3 mybot.py'\"`") {
			t.Errorf("%s does not show the $PWD fix", name)
		}
	}
}
