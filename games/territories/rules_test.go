package territories

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

// Each test here checks one rule of the seed (003_3c6715067aa5fc20.txt) as
// settled by the rules page (rules/territories.md), and quotes it.

// rulesWorld is a game on the sample map, with cfg changed by edit.
func rulesWorld(t *testing.T, edit func(*Config)) *World {
	t.Helper()
	cfg, err := ParseConfig(sampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(cfg)
	}
	return NewWorld(cfg)
}

// do applies "player action" lines, which must be accepted, and returns
// the last outcome.
func do(t *testing.T, w *World, lines ...string) Outcome {
	t.Helper()
	var o Outcome
	for _, l := range lines {
		player, text, _ := strings.Cut(l, " ")
		if player == "judge" {
			player = Judge
		}
		a, err := ParseAction(text)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if o, err = w.Apply(player, a); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	return o
}

// refused applies "player action", which must be refused with a reason
// that mentions every one of words, and checks that nothing changed.
func refused(t *testing.T, w *World, line string, words ...string) {
	t.Helper()
	before, _ := w.MarshalJSON()
	player, text, _ := strings.Cut(line, " ")
	if player == "judge" {
		player = Judge
	}
	a, err := ParseAction(text)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	_, err = w.Apply(player, a)
	wantRefused(t, line, err, words...)
	after, _ := w.MarshalJSON()
	if string(before) != string(after) {
		t.Errorf("%s: refused, but the game changed", line)
	}
}

// set puts armies of nation k on territory id, for tests of one rule.
func set(t *testing.T, w *World, id string, k, armies int) {
	t.Helper()
	i, err := w.cfg.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	if armies == 0 {
		w.held[i] = Holding{Nation: -1}
		return
	}
	w.held[i] = Holding{Nation: k, Armies: armies}
}

func armiesIn(w *World, id string) (nation string, armies int) {
	i, _ := w.cfg.Lookup(id)
	h := w.held[i]
	if h.Nation < 0 {
		return "", 0
	}
	return w.nations[h.Nation].Name, h.Armies
}

func started(t *testing.T, edit func(*Config)) *World {
	t.Helper()
	w := rulesWorld(t, edit)
	do(t, w, "alice join Pacifica CA", "bob join Deseret NV")
	return w
}

func TestConfigTerritories(t *testing.T) {
	// "territories: a list of {id, name, aliases[], neighbors[]}; ids,
	// names and aliases are unique (case-insensitive); neighbours exist,
	// are not the territory itself, and are mutual."
	base := "map: m.svg\nterritories:\n"
	for _, c := range []struct{ terr, want string }{
		{"  - {id: A, name: Ay, neighbors: [B]}\n  - {id: B, name: Bee, neighbors: [A]}\n", ""},
		{"  - {id: A, name: Ay, neighbors: [B]}\n  - {id: a, name: Bee, neighbors: [A]}\n", `id "a" is already a name of A`},
		{"  - {id: A, name: Ay, neighbors: [B]}\n  - {id: B, name: AY, neighbors: [A]}\n", `name "AY" is already a name of A`},
		{"  - {id: A, name: Ay, aliases: [bee], neighbors: [B]}\n  - {id: B, name: Bee, neighbors: [A]}\n", `name "Bee" is already a name of A`},
		{"  - {id: A, name: Ay, neighbors: [C]}\n  - {id: B, name: Bee, neighbors: [A]}\n", `neighbor "C" is not a territory`},
		{"  - {id: A, name: Ay, neighbors: [A]}\n", "not its own neighbor"},
		{"  - {id: A, name: Ay, neighbors: [B]}\n  - {id: B, name: Bee, neighbors: []}\n", "does not list A back; neighbours are mutual"},
		{"  - {id: A, name: Ay, neighbors: [B, b]}\n  - {id: B, name: Bee, neighbors: [A]}\n", "listed twice"},
		{"  - {id: A, name: Ay, neighbors: [Bee]}\n  - {id: B, name: Bee, neighbors: [ay]}\n", ""}, // by name, any case
		{"  - {id: 'A B', name: Ay, neighbors: []}\n", "ids are ASCII letters"},
		{"  - {id: A, name: ' Ay', neighbors: []}\n", "begins or ends with a space"},
		{"  - {id: A, neighbors: []}\n", "name: missing"},
		{"  - {id: A, name: Ay, neighbours: []}\n", `unknown territory key "neighbours"`},
	} {
		_, err := ParseConfig([]byte(base + c.terr))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.terr, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want an error with %q", c.terr, err, c.want)
		}
	}
	// A misspelt key names its territory and its line once, with the key
	// it is closest to.
	for _, c := range []struct{ terr, want string }{
		{"  - {id: A, name: Ay, neighbours: [B]}\n",
			`config: territories[0] (line 3): unknown territory key "neighbours"; did you mean neighbors? The keys are id, name, aliases, neighbors`},
		{"  - {id: A, name: Ay, neighbors: []}\n  - id: B\n    name: Bee\n    neigbors: []\n",
			`config: territories[1] (line 6): unknown territory key "neigbors"; did you mean neighbors? The keys are id, name, aliases, neighbors`},
		{"  - {id: A, name: Ay, colour: red}\n",
			`config: territories[0] (line 3): unknown territory key "colour"; the keys are id, name, aliases, neighbors`},
	} {
		if _, err := ParseConfig([]byte(base + c.terr)); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.terr, err, c.want)
		}
	}
	// The errors name the territory's line.
	_, err := ParseConfig([]byte(base + "  - {id: A, name: Ay, neighbors: []}\n  - {id: A, name: Bee, neighbors: []}\n"))
	if err == nil || !strings.Contains(err.Error(), "territories[1] (line 4)") {
		t.Errorf("a duplicate id: %v; want it to name territories[1] (line 4)", err)
	}
}

func TestTerritoryByIDNameOrAlias(t *testing.T) {
	// "A territory may be named by id, name or alias, case-insensitively."
	cfg := Sample()
	for _, ref := range []string{"CA", "ca", "California", "CALIFORNIA", "cali", "Calif"} {
		if i, err := cfg.Lookup(ref); err != nil || cfg.Territory(i).ID != "CA" {
			t.Errorf("%q: %d, %v; want CA", ref, i, err)
		}
	}
	w := started(t, nil)
	o := do(t, w, "alice raise california", "bob move Nevada:1 utah")
	if o.From != "NV" || o.To != "UT" {
		t.Errorf("the outcome names %s and %s; want the ids NV and UT", o.From, o.To)
	}
}

func TestConfigMapIsOptional(t *testing.T) {
	// "map: an SVG file": what the referee draws on. A board played where
	// nothing is drawn (arbiter play, a match of arbiter serve) needs none:
	// left out, or "none", the configuration has no map (arbiter
	// territories init asks for one).
	const terr = `"territories": [{"id": "A", "name": "Alpha", "neighbors": ["B"]}, {"id": "B", "name": "Beta", "neighbors": ["A"]}]`
	for _, doc := range []string{"{" + terr + "}", `{"map": "none", ` + terr + "}", `{"map": "NONE", ` + terr + "}"} {
		c, err := ParseConfig([]byte(doc))
		if err != nil {
			t.Errorf("%s: %v; want a configuration with no map", doc, err)
		} else if c.Map != "" {
			t.Errorf("%s: map %q; want none", doc, c.Map)
		}
	}
	if c, err := ParseConfig([]byte(`{"map": "m.svg", ` + terr + "}")); err != nil || c.Map != "m.svg" {
		t.Errorf("a map given: %v", err)
	}
	// The same board plays, with no map, where nothing is drawn.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"greedy", "random"}, Options: map[string]string{"board": "{" + terr + "}"}})
	if err != nil {
		t.Fatalf("a board with no map: %v", err)
	}
	if m.Over() {
		t.Error("the match is over before it began")
	}
}

func TestConfigInPartsIsWarnedOf(t *testing.T) {
	// "neighbours exist, are not the territory itself, and are mutual":
	// the rules ask no more, so a territory with no neighbours, or a map in
	// parts, is accepted; but nobody can reach it, and it is warned of,
	// naming the territories cut off.
	base := "territories:\n  - {id: A, name: Ay, neighbors: [B]}\n  - {id: B, name: Bee, neighbors: [A]}\n"
	for _, c := range []struct{ more, want string }{
		{"", ""},
		{"  - {id: C, name: Cee, neighbors: []}\n", "the map is in 2 parts that no move or attack crosses: C (no neighbours) cannot be reached from the rest (A and 1 more)"},
		{"  - {id: C, name: Cee, neighbors: [D]}\n  - {id: D, name: Dee, neighbors: [C]}\n  - {id: E, name: Eee, neighbors: []}\n", "the map is in 3 parts that no move or attack crosses: C, D; E (no neighbours) cannot be reached from the rest (A and 1 more)"},
	} {
		cfg, err := ParseConfig([]byte(base + c.more))
		if err != nil {
			t.Fatalf("%s: %v; the rules allow it", c.more, err)
		}
		if got := cfg.Warning(); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: warning %q; want %q", c.more, got, c.want)
		}
	}
	if w := Sample().Warning(); w != "" {
		t.Errorf("the sample map is warned of: %s", w)
	}
	// The board option tells it to programs that read options.
	for _, o := range info.Options {
		if o.Name != "board" {
			continue
		}
		if o.Warn == nil || !strings.Contains(o.Warn(`{"territories": [{"id": "A", "name": "Ay", "neighbors": []}, {"id": "B", "name": "Bee", "neighbors": []}]}`), "B (no neighbours)") {
			t.Error("the board option does not warn of a map in parts")
		}
		if o.Warn("sample") != "" {
			t.Error("the board option warns of the sample")
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	// "initial_armies (default 3), max_armies per territory (default 5),
	// seed for the dice."
	c, err := ParseConfig([]byte("map: m.svg\nterritories: [{id: A, name: Ay, neighbors: []}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.InitialArmies != 3 || c.MaxArmies != 5 || c.Seed != nil || c.MinNations != 0 || c.TurnManagement || c.HoldingsPerAction != 3 {
		t.Errorf("defaults: %+v", c)
	}
	for _, bad := range []struct{ yaml, want string }{
		// A value read but out of range names its line too, as the README
		// says every key is checked with its line.
		{"max_armies: 0", "line 3: max_armies: 0; allowed 1 to 1000"},
		{"initial_armies: 6", "line 3: initial_armies: 6; allowed 1 to max_armies (5)"},
		{"holdings_per_action: 2", "line 3: holdings_per_action: it counts only with turn_management: true"},
		{"turn_management: true\nholdings_per_action: 0", "line 4: holdings_per_action: 0; allowed 1 to 1000"},
		{"turn_management: true\nturn_duration: soon", `line 4: turn_duration "soon"`},
		{"turn_management: true\nturn_duration: -1h", "line 4: turn_duration: -1h0m0s; want 0 (no limit) or more"},
		{"turn_duration: 1h", "line 3: turn_duration: it counts only with turn_management: true"},
		{"min_nations: 2", "line 3: min_nations: 2; allowed 0 to the number of territories (1)"},
		{"seed: -1", `line 3: seed: want a whole number from 0 to 18446744073709551615, have "-1"`},
		{"colour: red", `line 3: unknown key "colour"; the keys are map, output, territories,`},
	} {
		_, err := ParseConfig([]byte("map: m.svg\nterritories: [{id: A, name: Ay, neighbors: []}]\n" + bad.yaml + "\n"))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v; want %q", bad.yaml, err, bad.want)
		}
	}
}

func TestConfigErrorsAreOneLine(t *testing.T) {
	// Every error of a configuration is one line that names the key (and
	// its line) and what is allowed: no "unmarshal errors:" block, no Go
	// type names, in YAML and in the JSON that arbiter step reads.
	const base = "map: m.svg\nterritories: [{id: A, name: Ay, neighbors: [B]}, {id: B, name: Bee, neighbors: [A]}]\n"
	const jsonBase = `"map": "m.svg", "territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}]`
	for _, c := range []struct{ in, want string }{
		{base + "max_armies: five\n", `config: line 3: max_armies: want a whole number, have "five"`},
		{base + "max_armies: [1]\n", `config: line 3: max_armies: want a whole number, have a list`},
		{base + "initial_armies: 2.5\n", `config: line 3: initial_armies: want a whole number, have "2.5"`},
		{base + "turn_management: maybe\n", `config: line 3: turn_management: want true or false, have "maybe"`},
		{base + "output: nowhere\n", `config: line 3: output: want none (no map files) or {svg: FILE, png: FILE}, have "nowhere"`},
		{base + "output: {gif: x.gif}\n", `config: line 3: unknown output key "gif"; the keys are svg, png`},
		{base + "map: other.svg\n", `config: line 3: map is given twice (first on line 1)`},
		{"map: m.svg\nterritories: [{id: A, name: Ay, neighbors: B}]\n", `config: territories[0] (line 2): neighbors: want a list of territory ids such as [A, B], have "B"`},
		{"map: m.svg\nterritories: {A: B}\n", `config: line 2: territories: want a list of territories, each {id, name, aliases, neighbors}, have a mapping`},
		{"- a\n- b\n", `config: line 1: want a mapping of keys (map, output, territories,`},
		{"map: m.svg\n  bad: indent\n", `config: line 2: mapping values are not allowed in this context`},
		{base + "---\nmap: n.svg\n", `config: more than one YAML document (a line ---); a configuration is one mapping`},
		{"{" + jsonBase + `, "output": "elsewhere"}`, `config: line 1: output: want none (no map files) or {svg: FILE, png: FILE}, have "elsewhere"`},
		{"{" + jsonBase + `, "max_armies": "five", "initial_armies": "x"}`, `config: line 1: max_armies: want a whole number, have "five"`},
		{`{"map": "m.svg", "territories": [{"id": "A", "name": "Ay", "neighbors": "B"}]}`, `config: territories[0] (line 1): neighbors: want a list of territory ids such as [A, B], have "B"`},
	} {
		_, err := ParseConfig([]byte(c.in))
		if err == nil {
			t.Errorf("%q: accepted", c.in)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "unmarshal") || strings.Contains(msg, "territories.") || strings.Contains(msg, "!!") {
			t.Errorf("%q:\n got %q\nwant %q, one line, no Go types", c.in, msg, c.want)
		}
	}
}

func TestConfigOutputNone(t *testing.T) {
	// "output ({svg, png}, relative to the database; left out: game.svg and
	// game.png beside game.db; none: not drawn)".
	const base = "map: m.svg\nterritories: [{id: A, name: Ay, neighbors: []}]\n"
	for _, c := range []struct {
		yaml string
		want Output
	}{
		{"output: none", Output{SVG: "none", PNG: "none"}},
		{"output: {svg: none, png: maps/now.png}", Output{SVG: "none", PNG: "maps/now.png"}},
		{"output: {svg: now.svg}", Output{SVG: "now.svg"}},
		{"", Output{}},
	} {
		cfg, err := ParseConfig([]byte(base + c.yaml + "\n"))
		if err != nil {
			t.Errorf("%s: %v", c.yaml, err)
			continue
		}
		if cfg.Output != c.want {
			t.Errorf("%s: output %+v; want %+v", c.yaml, cfg.Output, c.want)
		}
		// The stored form reads back the same.
		back, err := ParseConfig(cfg.JSON())
		if err != nil || back.Output != c.want {
			t.Errorf("%s: stored as %s, reads back %+v, %v", c.yaml, cfg.JSON(), back, err)
		}
	}
}

func TestSeedDecidesTheDice(t *testing.T) {
	// "seed for the dice": the same seed and actions give the same game,
	// another seed another.
	game := func(seed uint64) string {
		w := rulesWorld(t, func(c *Config) { c.Seed = &seed })
		do(t, w, "alice join Pacifica CA", "bob join Deseret NV", "alice raise CA")
		for range 3 {
			do(t, w, "alice attack CA NV")
			if _, b := armiesIn(w, "NV"); b == 0 {
				break
			}
			if _, a := armiesIn(w, "CA"); a == 0 {
				break
			}
		}
		b, _ := w.MarshalJSON()
		return string(b)
	}
	if a, b := game(1), game(1); a != b {
		t.Error("the same seed gave two games")
	}
	if game(1) == game(2) && game(2) == game(3) {
		t.Error("three seeds gave the same game")
	}
}

func TestMinNations(t *testing.T) {
	// "min_nations before move/raise/attack are allowed"
	w := rulesWorld(t, func(c *Config) { c.MinNations = 3 })
	do(t, w, "alice join Pacifica CA", "bob join Deseret NV", "alice color red")
	refused(t, w, "alice raise CA", "has not started", "3 nations", "2 have")
	refused(t, w, "alice move CA:1 OR", "has not started")
	refused(t, w, "alice attack CA NV", "has not started")
	do(t, w, "carol join Cascadia WA", "alice raise CA")
}

func TestTurnManagement(t *testing.T) {
	// "turn management: each nation has ⌈holdings ÷ holdings_per_action⌉
	// actions per turn (holdings_per_action default 3); a turn ends when
	// every nation has used its actions"
	w := rulesWorld(t, func(c *Config) { c.TurnManagement, c.MinNations, c.InitialArmies = true, 0, 5 })
	if w.Turn() != 1 {
		t.Fatalf("turn %d; want 1", w.Turn())
	}
	do(t, w, "alice join Pacifica CA", "bob join Deseret UT")
	o := do(t, w, "alice move CA:1 OR")
	if o.Turn != 1 || o.ActionsLeft != 0 || o.TurnEnded {
		t.Errorf("alice's one action of turn 1: %+v", o)
	}
	refused(t, w, "alice raise CA", "Pacifica has used its 1 action in turn 1", "when Deseret has used its actions or passed")
	o = do(t, w, "bob move UT:1 CO")
	if !o.TurnEnded || w.Turn() != 2 {
		t.Errorf("the last action of turn 1 did not end it: %+v", o)
	}
	// Turn 2: two holdings each, ⌈2 ÷ 3⌉ = 1 action.
	do(t, w, "alice move CA:1 NV")
	refused(t, w, "alice raise CA", "has used its 1 action")
	o = do(t, w, "bob pass")
	if !o.TurnEnded || w.Turn() != 3 {
		t.Errorf("a pass did not end the turn: %+v", o)
	}
	// Turn 3: alice has 3 holdings (CA, OR, NV), ⌈3 ÷ 3⌉ = 1; one more
	// makes ⌈4 ÷ 3⌉ = 2 in turn 4.
	do(t, w, "alice move CA:1 AZ", "bob pass")
	if k := w.NationNamed("Pacifica"); w.nations[k].Allowed != 2 {
		t.Errorf("4 holdings give %d actions; want ⌈4 ÷ 3⌉ = 2", w.nations[k].Allowed)
	}
	do(t, w, "alice raise OR")
	o = do(t, w, "alice raise NV")
	if o.ActionsLeft != 0 {
		t.Errorf("after two actions of two: %d left", o.ActionsLeft)
	}
	// holdings_per_action 1: one action per territory.
	w = rulesWorld(t, func(c *Config) { c.TurnManagement, c.HoldingsPerAction, c.MinNations = true, 1, 0 })
	do(t, w, "alice join Pacifica CA", "bob join Deseret UT", "alice move CA:1 OR", "bob pass")
	do(t, w, "alice raise CA", "alice raise OR")
	refused(t, w, "alice raise OR", "used its 2 actions")
	// The judge ends a turn; a player may not.
	refused(t, w, "alice end-turn", "the judge's action")
	o = do(t, w, "judge end-turn")
	if !o.TurnEnded || w.Turn() != 3 {
		t.Errorf("end-turn: %+v", o)
	}
	// Without turn management there is nothing to pass or end.
	w = started(t, nil)
	refused(t, w, "alice pass", "turn_management is off")
	refused(t, w, "judge end-turn", "turn_management is off")
}

func TestJoin(t *testing.T) {
	// "join NATION TERRITORY: a new nation with initial_armies at a
	// territory that has no army. The nation name and the player are not
	// already in the game. A random colour not used by another nation is
	// assigned."
	w := rulesWorld(t, func(c *Config) { c.InitialArmies = 2 })
	o := do(t, w, "alice join Pacifica CA")
	if n, a := armiesIn(w, "CA"); n != "Pacifica" || a != 2 || o.Armies != 2 {
		t.Errorf("CA holds %s with %d; want Pacifica with initial_armies, 2", n, a)
	}
	refused(t, w, "bob join Deseret CA", "CA (California) is held by Pacifica with 2 armies")
	refused(t, w, "bob join pacifica NV", "already a nation called Pacifica")
	refused(t, w, "alice join Other NV", "alice already plays Pacifica")
	refused(t, w, "bob join Deseret Nevda", `unknown territory "Nevda"`, "NV (Nevada)")
	seen := map[Color]bool{w.nations[0].Color: true}
	names := []string{"b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
	terr := []string{"NV", "OR", "WA", "ID", "MT", "WY", "UT", "CO", "AZ", "NM"}
	for i, p := range names {
		do(t, w, p+" join N"+p+" "+terr[i])
		c := w.nations[i+1].Color
		if seen[c] {
			t.Errorf("nation %d got %s, already used", i+2, c)
		}
		if _, err := ParseColor(string(c)); err != nil || len(c) != 7 {
			t.Errorf("dealt colour %q", c)
		}
		seen[c] = true
	}
	// Beyond the palette, any colour no one uses.
	w2 := rulesWorld(t, nil)
	for i := range palette {
		do(t, w2, "p"+string(rune('a'+i))+" join N"+string(rune('a'+i))+" "+terr[i%len(terr)])
		set(t, w2, terr[i%len(terr)], -1, 0) // free it again
	}
	o = do(t, w2, "late join Late CA")
	if w2.colorUsed(o.Color, len(w2.nations)-1) {
		t.Errorf("the 13th nation's colour %s is taken", o.Color)
	}
	if len(o.Dice) == 0 {
		t.Error("the colour was not drawn from the dice")
	}
}

func TestColor(t *testing.T) {
	// "color COLOR: any CSS colour (red, #f00, #ff0000, rgb(255,0,0),
	// hsl(...)). ... it is stored as 6 lowercase hex digits (any alpha is
	// dropped), and it may not be one already used by another nation."
	for in, want := range map[string]Color{
		"red": "#ff0000", "RED": "#ff0000", "#f00": "#ff0000", "#FF0000": "#ff0000", "rgb(255,0,0)": "#ff0000",
		"rgb(255, 0, 0)": "#ff0000", "rgb(100%, 0%, 0%)": "#ff0000", "rgb(255 0 0 / 50%)": "#ff0000", "rgba(255,0,0,0.5)": "#ff0000",
		"#ff000080": "#ff0000", "#f008": "#ff0000", "#ff00": "#ffff00", "hsl(0, 100%, 50%)": "#ff0000", "hsl(120 100% 25%)": "#008000",
		"hsla(240, 100%, 50%, 0.3)": "#0000ff", "hsl(0.5turn, 100%, 50%)": "#00ffff", "rebeccapurple": "#663399",
		"cornflowerblue": "#6495ed", "hsl(30, 50%, 40%)": "#996633", "rgb(300, -5, 12.6)": "#ff000d",
	} {
		got, err := ParseColor(in)
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "reddish", "#ggg", "rgb(1,2)", "rgb(a,b,c)", "hsl(x, 1%, 1%)", "rgb(1,2,3", "#1234567", "#ff000"} {
		if _, err := ParseColor(bad); err == nil {
			t.Errorf("ParseColor(%q) is accepted", bad)
		}
	}
	w := started(t, nil)
	o := do(t, w, "alice color hsl(0, 100%, 50%)")
	if o.Color != "#ff0000" || w.nations[0].Color != "#ff0000" {
		t.Errorf("alice's colour %s", w.nations[0].Color)
	}
	refused(t, w, "bob color #F00", "#ff0000 is Pacifica's colour")
	do(t, w, "alice color red") // one's own colour again is no clash
	refused(t, w, "carol color blue", "carol has no nation", "join")
}

func TestMove(t *testing.T) {
	// "move FROM[:N] TO: N armies (all when N is omitted) from a territory
	// the player holds to a neighbouring territory. ... So TO is empty, or
	// the player's own with room for N under max_armies. Moving all armies
	// releases FROM."
	w := started(t, nil)
	o := do(t, w, "alice move CA:2 OR")
	if n, a := armiesIn(w, "OR"); n != "Pacifica" || a != 2 || o.Armies != 2 || o.Released {
		t.Errorf("OR: %s %d, %+v", n, a, o)
	}
	if _, a := armiesIn(w, "CA"); a != 1 {
		t.Errorf("CA keeps %d; want 1", a)
	}
	o = do(t, w, "alice move OR CA")
	if n, a := armiesIn(w, "CA"); n != "Pacifica" || a != 3 || !o.Released || o.Armies != 2 {
		t.Errorf("moving all: CA %s %d, %+v", n, a, o)
	}
	if n, _ := armiesIn(w, "OR"); n != "" {
		t.Errorf("OR is still held by %s after moving all out", n)
	}
	refused(t, w, "alice move CA:4 OR", "CA (California) has 3 armies; you asked to move 4")
	refused(t, w, "alice move CA UT", "CA (California) and UT (Utah) are not neighbours", "CA borders OR, NV, AZ")
	refused(t, w, "alice move CA:1 CA", "not its own neighbour")
	refused(t, w, "alice move CA:1 NV", "NV (Nevada) is held by Deseret", "attack it instead")
	refused(t, w, "alice move OR:1 WA", "OR (Oregon) has no army")
	refused(t, w, "alice move NV:1 UT", "NV (Nevada) is held by Deseret, not by Pacifica")
	do(t, w, "alice raise CA", "alice raise CA", "alice move CA:2 OR", "alice raise OR", "alice raise OR")
	refused(t, w, "alice move CA:2 OR", "OR (Oregon) has 4 armies; 2 more would make 6, over the most a territory holds, 5 (max_armies)", "move at most 1: move CA:1 OR")
	do(t, w, "alice move CA:1 OR")
	refused(t, w, "alice move CA OR", "OR (Oregon) has 5 armies", "it has no room for more")
}

func TestRaise(t *testing.T) {
	// "raise TERRITORY: one more army where the player already has an army,
	// never above max_armies."
	w := started(t, nil)
	o := do(t, w, "alice raise CA")
	if _, a := armiesIn(w, "CA"); a != 4 || o.Armies != 4 {
		t.Errorf("CA has %d after a raise; want 4", a)
	}
	do(t, w, "alice raise CA")
	refused(t, w, "alice raise CA", "already has 5 armies, the most a territory holds (max_armies)")
	refused(t, w, "alice raise OR", "OR (Oregon) has no army")
	refused(t, w, "alice raise NV", "held by Deseret, not by Pacifica")
}

func TestAttack(t *testing.T) {
	// "attack FROM TO: the player's army in FROM attacks the army of
	// another nation in the neighbouring TO."
	w := started(t, nil)
	o := do(t, w, "alice attack CA NV")
	if o.Battle == nil || o.Battle.Attackers != 3 || o.Battle.Defenders != 3 || o.Defender != "Deseret" || o.From != "CA" || o.To != "NV" {
		t.Errorf("the battle: %+v %+v", o, o.Battle)
	}
	w = started(t, nil)
	do(t, w, "alice move CA:1 OR")
	refused(t, w, "alice attack CA OR", "OR (Oregon) is Pacifica's own")
	refused(t, w, "alice attack CA AZ", "AZ (Arizona) has no army to attack; move into it instead")
	refused(t, w, "alice attack CA UT", "not neighbours")
	refused(t, w, "alice attack NV CA", "held by Deseret, not by Pacifica")
	refused(t, w, "mallory attack CA NV", "mallory has no nation")
}

func TestRefusalsSayWhy(t *testing.T) {
	// "Every rejected action changes nothing and says exactly why (unknown
	// player, unknown territory with the closest matches, not neighbours,
	// occupied, over the cap, not yours, not enough armies, game not
	// started)."
	w := rulesWorld(t, func(c *Config) { c.MinNations = 2 })
	do(t, w, "alice join Pacifica CA")
	for _, c := range []struct {
		line  string
		words []string
	}{
		{"alice raise CA", []string{"has not started"}},
		{"nobody raise CA", []string{"nobody has no nation"}},
		{"alice raise Califronia", []string{`unknown territory "Califronia"`, "CA (California)"}},
		{"alice raise Utha", []string{"UT (Utah)"}},
		{"alice raise xyzzy", []string{`unknown territory "xyzzy"; the territories are WA, OR, CA`}},
		{"bob join Deseret CA", []string{"held by Pacifica", "the territories with none are WA, OR, NV, ID, MT, WY, UT, CO, AZ, NM"}},
	} {
		refused(t, w, c.line, c.words...)
	}
	two, err := ParseConfig([]byte("territories:\n  - {id: WA, name: Washington, neighbors: [OR]}\n  - {id: OR, name: Oregon, neighbors: [WA]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	full := NewWorld(two)
	do(t, full, "alice join Pacifica WA", "bob join Deseret OR")
	refused(t, full, "carol join Cascadia WA", "held by Pacifica", "every territory is held")
	do(t, w, "bob join Deseret NV", "alice raise CA", "alice raise CA")
	for _, c := range []struct {
		line  string
		words []string
	}{
		{"alice attack CA UT", []string{"not neighbours"}},
		{"alice raise CA", []string{"max_armies"}},
		{"alice raise NV", []string{"not by Pacifica"}},
		{"alice move CA:6 OR", []string{"has 5 armies; you asked to move 6"}},
		{"alice move CA NV", []string{"held by Deseret"}},
		// A player named in another case is someone else, and is told
		// whose name it is like.
		{"Alice raise CA", []string{"Alice has no nation, but alice (in another case) plays Pacifica", "read exactly as written"}},
	} {
		refused(t, w, c.line, c.words...)
	}
}

// battleByFormula computes the rules page's battle independently, in
// exact rationals: the formula, then the 19–20 and 1 rules, then "at
// least one", then the caps.
func battleByFormula(a, b, x int) (success bool, attLoss, defLoss int) {
	threshold := big.NewRat(int64((b-a)*2+10), 1)
	roll := big.NewRat(int64(x), 1)
	success = roll.Cmp(threshold) > 0
	if x == 19 || x == 20 {
		success = true
	}
	if x == 1 {
		success = false
	}
	y := new(big.Rat).Mul(big.NewRat(1, 2), roll)
	y.Add(y, big.NewRat(int64(a-b-5), 1))
	yf, _ := y.Float64()
	yi := int(math.Floor(yf))
	if success {
		defLoss = max(1, yi)
	} else {
		if yi < 0 {
			attLoss = -yi
		}
		if x == 1 && attLoss < 1 {
			attLoss = 1
		}
	}
	return success, min(attLoss, a), min(defLoss, b)
}

func TestBattleExhaustive(t *testing.T) {
	// "The attack succeeds when x > (b − a)·2 + 10; a roll of 19 or 20
	// always succeeds; a roll of 1 always fails. ... y = ⌊0.5·x + a − b −
	// 5⌋. On a success the defender loses max(1, y) armies and the attacker
	// none. On a failure the attacker loses −y armies when y < 0, at least
	// 1 when x = 1, and otherwise none; the defender loses none. Losses
	// never exceed the armies present."
	//
	// Every (a, b, x) for a, b in 1..max and x in 1..20, for the default
	// cap of 5 and for larger caps, where the 19–20 and 1 rules and the
	// caps on losses matter.
	for _, maxArmies := range []int{5, 12, 40} {
		for a := 1; a <= maxArmies; a++ {
			for b := 1; b <= maxArmies; b++ {
				for x := 1; x <= Die; x++ {
					got := Fight(a, b, x)
					success, att, def := battleByFormula(a, b, x)
					if got.Success != success || got.AttackerLosses != att || got.DefenderLosses != def {
						t.Fatalf("a=%d b=%d x=%d: got success %v, losses %d/%d; want %v, %d/%d", a, b, x, got.Success, got.AttackerLosses, got.DefenderLosses, success, att, def)
					}
					if got.Threshold != (b-a)*2+10 || got.Roll != x || got.Attackers != a || got.Defenders != b {
						t.Fatalf("a=%d b=%d x=%d: reported %+v", a, b, x, got)
					}
					if got.Success && (got.DefenderLosses < 1 || got.AttackerLosses != 0) {
						t.Fatalf("a=%d b=%d x=%d: a success destroys at least one defender and no attacker: %+v", a, b, x, got)
					}
					if !got.Success && got.DefenderLosses != 0 {
						t.Fatalf("a=%d b=%d x=%d: a failure destroys no defender: %+v", a, b, x, got)
					}
				}
				// "a roll of 19 or 20 always succeeds; a roll of 1 always fails"
				if !Fight(a, b, 19).Success || !Fight(a, b, 20).Success || Fight(a, b, 1).Success {
					t.Fatalf("a=%d b=%d: 19, 20 or 1 do not decide", a, b)
				}
				// "at least 1 when x = 1"
				if Fight(a, b, 1).AttackerLosses < 1 {
					t.Fatalf("a=%d b=%d: a roll of 1 costs the attacker nothing", a, b)
				}
			}
		}
	}
}

func TestBattleSeedBullets(t *testing.T) {
	// "The formula governs: the seed's '13 / 11 / 9 or higher' bullets are
	// its cases b − a = 1, 0, −1."
	for a := 1; a <= 4; a++ {
		for x := 2; x <= 18; x++ {
			if got, want := Fight(a, a+1, x).Success, x >= 13; got != want {
				t.Errorf("defenders one more (a=%d), x=%d: success %v; the seed says 13 or higher", a, x, got)
			}
			if got, want := Fight(a, a, x).Success, x >= 11; got != want {
				t.Errorf("equal forces (%d), x=%d: success %v; the seed says 11 or higher", a, x, got)
			}
			if got, want := Fight(a+1, a, x).Success, x >= 9; got != want {
				t.Errorf("attackers one more (a=%d), x=%d: success %v; the seed says 9 or higher", a+1, x, got)
			}
		}
	}
	// "(With the default max_armies of 5 the formula alone already agrees
	// with the 19–20 and 1 rules ...)"
	for a := 1; a <= 5; a++ {
		for b := 1; b <= 5; b++ {
			threshold := (b-a)*2 + 10
			y1 := floorHalf(1 + 2*(a-b-5))
			if 19 <= threshold || 1 > threshold || y1 > -1 {
				t.Errorf("a=%d b=%d: the formula alone disagrees with the 19–20 and 1 rules", a, b)
			}
		}
	}
}

func TestBattleLeavesUnclaimed(t *testing.T) {
	// "A territory left with no army is unclaimed: the attacker does not
	// move in by itself (it may move in later)."
	w := started(t, nil)
	do(t, w, "alice raise CA", "alice raise CA", "bob move NV:2 UT")
	// CA (5 armies) attacks NV (1) until it wins: the defender then loses
	// its one army.
	for {
		if o := do(t, w, "alice attack CA NV"); o.Battle.Success {
			break
		}
		if _, a := armiesIn(w, "CA"); a < 5 {
			do(t, w, "alice raise CA")
		}
	}
	if n, _ := armiesIn(w, "NV"); n != "" {
		t.Fatalf("NV is held by %s after its army was destroyed; want it unclaimed", n)
	}
	if n, _ := armiesIn(w, "CA"); n != "Pacifica" {
		t.Fatal("the attacker left CA")
	}
	do(t, w, "alice move CA:1 NV")
	if n, a := armiesIn(w, "NV"); n != "Pacifica" || a != 1 {
		t.Errorf("moving in later: NV %s %d", n, a)
	}
}

func TestRetreatIsAMove(t *testing.T) {
	// "Surviving defenders may retreat with an ordinary move to their own
	// neighbouring territory with room (with turn management on, that move
	// costs an action like any other)."
	for seed := range uint64(50) {
		w := rulesWorld(t, func(c *Config) { c.TurnManagement, c.MinNations, c.Seed = true, 0, &seed })
		do(t, w, "alice join Pacifica CA", "bob join Deseret NV", "alice raise CA", "bob move NV:1 UT")
		do(t, w, "alice attack CA NV")
		if n, _ := armiesIn(w, "NV"); n != "Deseret" {
			continue // no survivors to retreat with this seed
		}
		o := do(t, w, "bob move NV UT")
		if n, _ := armiesIn(w, "NV"); n != "" {
			t.Fatalf("NV is still held by %s after the retreat", n)
		}
		// Deseret's one action of turn 2: the retreat used it, and so
		// ended the turn.
		if o.Turn != 2 || o.ActionsLeft != 0 || !o.TurnEnded {
			t.Errorf("the retreat did not cost an action: %+v", o)
		}
		return
	}
	t.Fatal("no seed left defenders to retreat")
}

func TestNationOut(t *testing.T) {
	// "A nation with no army left anywhere is out of the game; its record
	// stays."
	w := started(t, nil)
	set(t, w, "CA", 0, 5)
	set(t, w, "NV", 1, 1)
	var o Outcome
	for {
		o = do(t, w, "alice attack CA NV")
		if o.Battle.Success {
			break
		}
		set(t, w, "CA", 0, 5)
	}
	if o.Removed != "Deseret" {
		t.Fatalf("removed %q; want Deseret", o.Removed)
	}
	if w.nations[1].Out != o.Seq || w.nations[1].In() || w.InGame() != 1 || w.Nations() != 2 {
		t.Errorf("Deseret: %+v", w.nations[1])
	}
	refused(t, w, "bob raise NV", "Deseret is out of the game")
	refused(t, w, "bob join Again NM", "out of the game; a player joins once")
	// An attacker that loses its last army is out too.
	w = started(t, nil)
	set(t, w, "CA", 0, 1)
	set(t, w, "NV", 1, 5)
	for {
		o = do(t, w, "alice attack CA NV")
		if o.Removed != "" {
			break
		}
		set(t, w, "CA", 0, 1)
		set(t, w, "NV", 1, 5)
	}
	if o.Removed != "Pacifica" || !strings.Contains(o.String(), "Pacifica is out of the game") {
		t.Errorf("the attacker out: %+v", o)
	}
}

func TestBattleReport(t *testing.T) {
	// "Every battle is reported with a, b, x, the threshold, success or
	// failure, and the losses on each side, in text and in JSON. The JSON
	// result of an attack carries at least: {"action": "attack", "player",
	// "from", "to", "attackers": a, "defenders": b, "roll": x, "threshold",
	// "success", "attacker_losses", "defender_losses", "removed": nation or
	// null}; other actions carry action, player and their own fields."
	w := started(t, nil)
	do(t, w, "bob move NV:1 UT") // Deseret keeps UT whatever happens
	o := do(t, w, "alice attack CA NV")
	var j map[string]any
	b, _ := json.Marshal(o)
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	bt := o.Battle
	want := map[string]any{"action": "attack", "player": "alice", "from": "CA", "to": "NV", "attackers": 3.0, "defenders": 2.0,
		"roll": float64(bt.Roll), "threshold": 8.0, "success": bt.Success, "attacker_losses": float64(bt.AttackerLosses),
		"defender_losses": float64(bt.DefenderLosses), "removed": nil, "seq": 4.0, "nation": "Pacifica", "defender": "Deseret"}
	if d := cmp.Diff(want, j); d != "" {
		t.Errorf("the attack's JSON (-want +got):\n%s", d)
	}
	text := o.String()
	for _, s := range []string{"alice (Pacifica) attacks Deseret in NV from CA", "3 against 2", "roll", "8", map[bool]string{true: "success", false: "failure"}[bt.Success], "loses"} {
		if !strings.Contains(text, s) {
			t.Errorf("the text %q lacks %q", text, s)
		}
	}
	// Other actions: action, player and their own fields.
	for line, keys := range map[string][]string{
		"alice raise CA":     {"action", "player", "seq", "nation", "territory", "armies"},
		"alice move CA:1 OR": {"action", "player", "seq", "nation", "from", "to", "armies", "released"},
		"alice color red":    {"action", "player", "seq", "nation", "color"},
		"carol join C WA":    {"action", "player", "seq", "nation", "territory", "armies", "color"},
	} {
		b, _ := json.Marshal(do(t, w, line))
		var m map[string]any
		json.Unmarshal(b, &m)
		var got []string
		for k := range m {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(keys)
		if d := cmp.Diff(keys, got); d != "" {
			t.Errorf("%s: keys (-want +got):\n%s", line, d)
		}
	}
	// The JSON reads back.
	var back Outcome
	if err := json.Unmarshal(b, &back); err != nil || back.Battle == nil || *back.Battle != *o.Battle {
		t.Errorf("the attack's JSON reads back as %+v, %v", back, err)
	}
}

func TestRefusedDrawsNoDice(t *testing.T) {
	// Dice are drawn only once an action is known to be legal, so that a
	// refused action cannot change the game's later rolls.
	a, b := started(t, nil), started(t, nil)
	refused(t, a, "alice attack CA UT", "not neighbours")
	refused(t, a, "bob attack NV NV", "not its own")
	oa := do(t, a, "alice attack CA NV")
	ob := do(t, b, "alice attack CA NV")
	if oa.Battle.Roll != ob.Battle.Roll {
		t.Errorf("refusals changed the next roll: %d, %d", oa.Battle.Roll, ob.Battle.Roll)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	w := rulesWorld(t, func(c *Config) { c.TurnManagement = true; c.MinNations = 0 })
	do(t, w, "alice join Pacifica CA", "bob join Deseret NV", "alice attack CA NV")
	b, _ := w.MarshalJSON()
	back, err := LoadWorld(w.cfg, b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := back.MarshalJSON()
	if string(b) != string(b2) {
		t.Errorf("the snapshot does not round-trip:\n%s\n%s", b, b2)
	}
	// The dice go on where they were.
	for range 10 {
		if x, y := engine.Below(w.dice, Die), engine.Below(back.dice, Die); x != y {
			t.Fatal("the restored dice roll differently")
		}
	}
	for _, bad := range []string{`{}`, `{"seq":1,"turn":1,"dice":"","nations":[],"holdings":[]}`, string(b[:len(b)/2])} {
		if _, err := LoadWorld(w.cfg, []byte(bad)); err == nil {
			t.Errorf("LoadWorld(%s) accepted", bad)
		}
	}
}
