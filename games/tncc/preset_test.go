package tncc

import (
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

// presetTable is the rules page's table of presets, row by row, copied as
// written there (−.1 with an ASCII minus).
var presetTable = []struct {
	name       string
	start      string // gold / food / citizens / army / land
	steal      string // steal gold / food / citizens / army / land
	perCitizen string // food_per_citizen / gold_per_citizen
	perSoldier string // food_per_soldier / gold_per_soldier
	growth     string // growth / land_capacity
	war        string // gold_for_war / defend_advantage / attack_advantage
	hunger     string // hunger_deaths / max_cycles
}{
	{"default", "600/800/800/0/150", ".5/1/.1/0/.025", ".5/.25", "1/.1", "1.07/10", "1600/2/2", "200/100"},
	{"tribe", "50/400/100/10/50", "1/2/.5/0/.2", "1/.1", "1/.1", "1.05/10", "1000/2/2", "200/200"},
	{"crazy", "6000/8000/10000/0/1500", "5/10/2.5/0/1", "2/1", "1/.1", "1.2/20", "10000/2/2", "200/100"},
	{"robot_army", "600/800/1000/0/200", "1/2/.5/0/.2", ".01/.25", "0/1", "1.02/10", "2000/1/1", "200/100"},
	{"mexican_standoff", "50000/1500/1/1499/150", "2/2/1/0/.05", ".5/.25", "1/.1", "1.08/10", "1600/2/2", "200/100"},
	{"decay", "600/2000/15000/0/1500", "1/2/.5/0/.2", "-.1/.01", "1/.1", "1/10", "1600/2/2", "200/100"},
}

func TestRulePresets(t *testing.T) {
	// "## Presets (start values; then steal factors; then constants)" — the
	// six presets are the table's numbers exactly. The expected values are
	// read here with strconv and math/big, not with ParseRatio.
	whole := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	check := func(preset, key string, got Ratio, want string) {
		t.Helper()
		w, ok := new(big.Rat).SetString(want)
		if !ok {
			t.Fatalf("bad table value %q", want)
		}
		if g := big.NewRat(got.Num, got.den()); g.Cmp(w) != 0 {
			t.Errorf("%s: %s is %v; the table says %s", preset, key, got, want)
		}
	}
	var names []string
	for _, row := range presetTable {
		names = append(names, row.name)
		p, err := LookupPreset(row.name)
		if err != nil {
			t.Errorf("%s: %v", row.name, err)
			continue
		}
		if p.Name != row.name {
			t.Errorf("%s is named %q", row.name, p.Name)
		}
		for r, v := range strings.Split(row.start, "/") {
			if p.Start[r] != whole(v) {
				t.Errorf("%s: start %v is %d; the table says %s", row.name, Resource(r), p.Start[r], v)
			}
		}
		for r, v := range strings.Split(row.steal, "/") {
			check(row.name, "steal "+Resource(r).String(), p.Steal[r], v)
		}
		f := strings.Split(row.perCitizen+"/"+row.perSoldier+"/"+row.growth, "/")
		for i, got := range []Ratio{p.FoodPerCitizen, p.GoldPerCitizen, p.FoodPerSoldier, p.GoldPerSoldier, p.Growth, p.LandCapacity} {
			key := []string{"food_per_citizen", "gold_per_citizen", "food_per_soldier", "gold_per_soldier", "growth", "land_capacity"}[i]
			check(row.name, key, got, f[i])
		}
		w := strings.Split(row.war, "/")
		if p.GoldForWar != whole(w[0]) {
			t.Errorf("%s: gold_for_war %d; the table says %s", row.name, p.GoldForWar, w[0])
		}
		check(row.name, "defend_advantage", p.DefendAdvantage, w[1])
		check(row.name, "attack_advantage", p.AttackAdvantage, w[2])
		h := strings.Split(row.hunger, "/")
		if p.HungerDeaths != whole(h[0]) || int64(p.MaxCycles) != whole(h[1]) {
			t.Errorf("%s: hunger_deaths %d, max_cycles %d; the table says %s", row.name, p.HungerDeaths, p.MaxCycles, row.hunger)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s: %v", row.name, err)
		}
	}
	if diff := cmp.Diff(names, PresetNames()); diff != "" {
		t.Errorf("preset names -want +got:\n%s", diff)
	}
	if Default().Name != "default" {
		t.Errorf("Default() is %q", Default().Name)
	}
	if _, err := LookupPreset("Default"); err == nil || !strings.Contains(err.Error(), "mexican_standoff") {
		t.Errorf("LookupPreset(Default): %v; want an error listing the presets", err)
	}
}

// everyKey is a preset file with every key of the table: the default's
// numbers, some changed.
const everyKey = `# a custom preset
name: mine
start: {gold: 700, food: 800, citizens: 900, army: 5, land: 100}
steal:
  gold: 0.5
  food: 1
  citizens: .1
  army: 0
  land: 0.025
food_per_citizen: -0.1
gold_per_citizen: .25
food_per_soldier: 1
gold_per_soldier: 0.1
growth: 1.07
land_capacity: 12.5
gold_for_war: 1500
defend_advantage: 1.5
attack_advantage: 2
hunger_deaths: 0
max_cycles: 30
`

func TestRulePresetFile(t *testing.T) {
	// "Custom presets come from a YAML file with the same keys; every key is
	// validated (advantages ≥ 1, non-negative counts and starting values,
	// capacity > 0)."
	p, err := ReadPreset(strings.NewReader(everyKey))
	if err != nil {
		t.Fatal(err)
	}
	want := Preset{
		Name:            "mine",
		Start:           Stock{700, 800, 900, 5, 100},
		Steal:           Steal{MustRatio(".5"), Whole(1), MustRatio(".1"), Whole(0), MustRatio(".025")},
		FoodPerCitizen:  MustRatio("-.1"),
		GoldPerCitizen:  MustRatio(".25"),
		FoodPerSoldier:  Whole(1),
		GoldPerSoldier:  MustRatio(".1"),
		Growth:          MustRatio("1.07"),
		LandCapacity:    MustRatio("12.5"),
		GoldForWar:      1500,
		DefendAdvantage: MustRatio("1.5"),
		AttackAdvantage: Whole(2),
		HungerDeaths:    0,
		MaxCycles:       30,
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("preset -want +got:\n%s", diff)
	}
	// The same preset as JSON, which is YAML too, and as the world JSON's
	// preset object.
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ReadPreset(strings.NewReader(string(b))); err != nil || back != p {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
	var back Preset
	if err := json.Unmarshal(b, &back); err != nil || back != p {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
	// Without a name, it is "custom".
	p, err = ReadPreset(strings.NewReader(strings.Replace(everyKey, "name: mine\n", "", 1)))
	if err != nil || p.Name != "custom" {
		t.Errorf("no name: %q, %v", p.Name, err)
	}
}

func TestRulePresetBase(t *testing.T) {
	// base: NAME starts from a built-in preset; the keys given change it.
	p, err := ReadPreset(strings.NewReader("base: tribe\ngold_for_war: 10\nsteal: {land: 0.5}\nstart:\n  army: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := LookupPreset("tribe")
	want.Name = "custom (tribe)"
	want.GoldForWar = 10
	want.Steal[Land] = MustRatio(".5")
	want.Start[Army] = 0
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("preset -want +got:\n%s", diff)
	}
	p, err = ReadPreset(strings.NewReader("base: decay\nname: rot\n"))
	if d, _ := LookupPreset("decay"); err != nil || p.Name != "rot" || p.Growth != d.Growth || p.FoodPerCitizen != d.FoodPerCitizen {
		t.Errorf("base decay named rot: %+v, %v", p, err)
	}
	// A built-in preset's name is that preset's: given to other numbers,
	// which reports would call "default #0e7f1fd6", it is refused with
	// its line; given to its own numbers, it is that preset.
	if _, err := ReadPreset(strings.NewReader("base: tribe\nname: default\n")); err == nil || !strings.Contains(err.Error(), "preset: line 2: name: default is a built-in preset's name, and these are not its numbers") {
		t.Errorf("tribe's numbers named default: %v", err)
	}
	if _, err := ReadPreset(strings.NewReader(`{"name": "crazy", "base": "crazy", "max_cycles": 7}`)); err == nil || !strings.Contains(err.Error(), "name: crazy is a built-in preset's name") {
		t.Errorf("crazy changed and named crazy: %v", err)
	}
	if p, err := ReadPreset(strings.NewReader("base: tribe\nname: tribe\n")); err != nil || p.Option() != "tribe" {
		t.Errorf("tribe's numbers named tribe: %+v, %v; want the tribe preset", p, err)
	}
	// The overrides are validated too.
	if _, err := ReadPreset(strings.NewReader("base: default\nattack_advantage: 0.5\n")); err == nil || !strings.Contains(err.Error(), "attack_advantage") {
		t.Errorf("base with a bad override: %v", err)
	}
}

func TestRulePresetFileErrors(t *testing.T) {
	// Every key is validated; an unknown key, or a value out of range, names
	// itself and its line; a missing key is named. A start without citizens
	// is refused: "A country with no citizens left has lost: it is dead."
	line := func(key, value string) string {
		lines := strings.Split(everyKey, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, key+":") {
				lines[i] = key + ": " + value
				return strings.Join(lines, "\n")
			}
		}
		t.Fatalf("no key %s", key)
		return ""
	}
	without := func(key string) string {
		var out []string
		for _, l := range strings.Split(everyKey, "\n") {
			if !strings.HasPrefix(l, key+":") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	cases := []struct {
		name, in string
		want     []string
	}{
		{"unknown key", everyKey + "gold_per_war: 3\n", []string{"gold_per_war", "line 21"}},
		// A typo is answered with the key meant, and every key is listed.
		{"misspelt key", "base: default\ngold_for_wr: 800\n", []string{"line 2: unknown key gold_for_wr; did you mean gold_for_war? The keys are name, base, start, steal, food_per_citizen,", "max_cycles"}},
		{"unknown key in start", strings.Replace(everyKey, "land: 100}", "land: 100, oil: 3}", 1), []string{"oil", "line 3", "the keys are gold, food, citizens, army, land"}},
		{"unknown key in steal", strings.Replace(everyKey, "  army: 0\n", "  navy: 0\n", 1), []string{"navy", "line 8", "the keys are gold, food, citizens, army, land"}},
		{"missing key", without("hunger_deaths"), []string{"missing hunger_deaths"}},
		{"missing keys", without("growth") + "\n", []string{"missing growth"}},
		{"missing start", without("start"), []string{"missing start"}},
		{"missing start.land", strings.Replace(everyKey, ", land: 100}", "}", 1), []string{"missing start.land"}},
		{"missing steal.gold", strings.Replace(everyKey, "  gold: 0.5\n", "", 1), []string{"missing steal.gold"}},
		{"empty", "", []string{"empty"}},
		{"two documents", everyKey + "---\nbase: tribe\n", []string{"more than one YAML document"}},
		{"quoted number", strings.Replace(everyKey, "gold: 700", `gold: "700"`, 1), []string{"the text \"700\"", "without quotes"}},
		{"tagged number", strings.Replace(everyKey, "gold: 700", `gold: !!str 700`, 1), []string{"the text \"700\""}},
		{"not a mapping", "- 1\n- 2\n", []string{"preset", "line 1: want a mapping of name, base, start"}},
		{"defend_advantage < 1", line("defend_advantage", "0.99"), []string{"line 17: defend_advantage: 0.99", "at least 1"}},
		{"attack_advantage < 1", line("attack_advantage", "0"), []string{"line 18: attack_advantage", "at least 1"}},
		{"negative start", strings.Replace(everyKey, "gold: 700", "gold: -1", 1), []string{"line 3: start.gold", "-1", "allowed 0 to"}},
		{"no citizens", strings.Replace(everyKey, "citizens: 900", "citizens: 0", 1), []string{"line 3: start.citizens: 0", "dead", "allowed 1 to 1000000000000"}},
		{"negative citizens", strings.Replace(everyKey, "citizens: 900", "citizens: -5", 1), []string{"line 3: start.citizens", "-5", "allowed 1 to"}},
		{"huge start", strings.Replace(everyKey, "gold: 700", "gold: 1000000000001", 1), []string{"start.gold", "out of range"}},
		{"negative steal", strings.Replace(everyKey, "  food: 1\n", "  food: -1\n", 1), []string{"line 6: steal.food", "negative"}},
		{"negative gold_for_war", line("gold_for_war", "-1"), []string{"line 16: gold_for_war", "-1"}},
		{"negative hunger_deaths", line("hunger_deaths", "-200"), []string{"line 19: hunger_deaths", "-200"}},
		{"negative food_per_soldier", line("food_per_soldier", "-1"), []string{"line 12: food_per_soldier", "negative"}},
		{"negative gold_per_soldier", line("gold_per_soldier", "-0.1"), []string{"line 13: gold_per_soldier", "negative"}},
		{"negative growth", line("growth", "-1.07"), []string{"line 14: growth", "negative"}},
		{"land_capacity 0", line("land_capacity", "0"), []string{"line 15: land_capacity", "above 0"}},
		{"land_capacity negative", line("land_capacity", "-10"), []string{"land_capacity", "above 0"}},
		{"max_cycles 0", line("max_cycles", "0"), []string{"line 20: max_cycles", "1 to 100000"}},
		{"max_cycles too many", line("max_cycles", "100001"), []string{"max_cycles", "1 to 100000"}},
		{"max_cycles not whole", line("max_cycles", "1.5"), []string{"line 20: max_cycles: want a whole number", "1.5"}},
		{"a ratio in words", line("growth", "lots"), []string{"line 14: growth: want a number", "lots"}},
		{"a ratio with an exponent", line("growth", "1e1"), []string{"line 14", "1e1"}},
		{"a ratio too precise", line("growth", "1.0000000001"), []string{"line 14", "9 digits"}},
		{"a count as a ratio", line("gold_for_war", "1500.5"), []string{"line 16", "whole number"}},
		{"a count in hex", line("gold_for_war", "0x10"), []string{"line 16", "whole number"}},
		{"a count as a string", line("hunger_deaths", `"200"`), []string{"line 19: hunger_deaths: want a whole number"}},
		// A whole number of more digits than a count holds is out of
		// range, and says what its key allows, not that it is not whole.
		{"a count of too many digits", line("gold_for_war", "99999999999999999999999"), []string{"line 16: gold_for_war: 99999999999999999999999 is out of range; allowed 0 to 1000000000000"}},
		{"max_cycles of too many digits", line("max_cycles", "99999999999999999999999"), []string{"line 20: max_cycles: 99999999999999999999999 is out of range; allowed 1 to 100000"}},
		{"a start of too many digits", strings.Replace(everyKey, "citizens: 900", "citizens: -99999999999999999999999", 1), []string{"line 3: start.citizens: -99999999999999999999999 is out of range; allowed 1 to 1000000000000"}},
		// A value that is not one names its key, in a flow mapping too.
		{"a word in steal", "base: default\nsteal: {gold: 1, food: x}\n", []string{"line 2: steal.food: want a number", `"x"`}},
		{"a number for start", "base: default\nstart: 5\n", []string{"line 2: start: want a mapping of gold, food, citizens, army, land"}},
		{"a list for base", "base: [default]\n", []string{"line 1: base: want a name"}},
		// A key with no value is not a key left out: the base's number
		// would stand in for it, silently.
		{"no value", "base: default\nmax_cycles:\n", []string{"line 2: max_cycles has no value"}},
		{"null value", "base: default\ngold_for_war: ~\n", []string{"line 2: gold_for_war has no value"}},
		{"no value in steal", "base: default\nsteal: {gold: }\n", []string{"line 2: steal.gold has no value"}},
		{"no value without base", strings.Replace(everyKey, "  gold: 0.5\n", "  gold:\n", 1), []string{"line 5: steal.gold has no value"}},
		{"unknown base", "base: nope\n", []string{"base", "nope", "tribe"}},
		{"a base's override out of range", "base: default\n\ndefend_advantage: 0.5\n", []string{"preset: line 3: defend_advantage: 0.5; advantages are at least 1"}},
		{"a base's start without citizens", "base: default\nstart: {citizens: 0}\n", []string{"preset: line 2: start.citizens: 0", "allowed 1 to"}},
		{"a base's start without citizens, in block style", "base: tribe\nstart:\n  gold: 5\n  citizens: 0\n", []string{"line 4: start.citizens"}},
		{"two documents are fine, bad YAML is not", "growth: [\n", []string{"preset"}},
	}
	for _, c := range cases {
		_, err := ReadPreset(strings.NewReader(c.in))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not mention %q", c.name, err, w)
			}
		}
	}
}

func TestRulePresetFileTooLarge(t *testing.T) {
	// "An unknown key, a missing one, or a value out of range ... is
	// refused with its name and line": a file past the limit is refused
	// whole, never read up to the limit, which would drop its last keys
	// or cut a number short, in silence.
	const limit = 1 << 20 // 1024 KiB
	padding := strings.Repeat("# "+strings.Repeat("x", 98)+"\n", limit/100)
	for _, tail := range []string{"max_cycles: 5\n", "max_cycles: 50\n"} {
		in := "base: default\n" + padding + tail
		if len(in) <= limit {
			t.Fatalf("the file is %d bytes; want more than %d", len(in), limit)
		}
		p, err := ReadPreset(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "larger than 1024 KiB") {
			t.Errorf("a file of %d bytes ending %q: %+v, %v; want it refused as too large", len(in), tail, p.MaxCycles, err)
		}
	}
	// At the limit it is read.
	in := "base: default\nmax_cycles: 5\n"
	in += strings.Repeat("#", limit-len(in)-1) + "\n"
	if p, err := ReadPreset(strings.NewReader(in)); err != nil || p.MaxCycles != 5 {
		t.Errorf("a file of %d bytes: %+v, %v; want it read", len(in), p.MaxCycles, err)
	}
}

func TestPresetJSONRoundTrip(t *testing.T) {
	// "`preset` is a preset's name or an object with every constant of the
	// table (keys as in the table: `gold_for_war`, `defend_advantage`,
	// `steal`: {gold, food, citizens, army, land}, …)."
	b, err := json.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"default","start":{"gold":600,"food":800,"citizens":800,"army":0,"land":150},` +
		`"steal":{"gold":0.5,"food":1,"citizens":0.1,"army":0,"land":0.025},` +
		`"food_per_citizen":0.5,"gold_per_citizen":0.25,"food_per_soldier":1,"gold_per_soldier":0.1,` +
		`"growth":1.07,"land_capacity":10,"gold_for_war":1600,"defend_advantage":2,"attack_advantage":2,` +
		`"hunger_deaths":200,"max_cycles":100}`
	if string(b) != want {
		t.Errorf("the default preset's JSON:\n got %s\nwant %s", b, want)
	}
	for _, name := range PresetNames() {
		p, _ := LookupPreset(name)
		if got, err := PresetOption(p.Option()); err != nil || got != p {
			t.Errorf("%s: option %q reads back as %+v, %v", name, p.Option(), got, err)
		}
		p.Name = "x"
		if got, err := PresetOption(p.Option()); err != nil || got != p {
			t.Errorf("%s renamed: option %q reads back as %+v, %v", name, p.Option(), got, err)
		}
	}
}

func TestPresetOptionRefusesAStartWithoutCitizens(t *testing.T) {
	// A preset given as JSON (the preset option, the world JSON's preset)
	// is checked as a file is, without a line to name.
	_, err := PresetOption(`{"base": "default", "start": {"citizens": 0}}`)
	var re *RangeError
	if !errors.As(err, &re) || re.Key != "start.citizens" || re.Line != 0 || !strings.Contains(err.Error(), "start.citizens: 0; a country with no citizens is dead") {
		t.Errorf("a start without citizens as the option: %v", err)
	}
	if _, err := PresetOption(`{"base": "mexican_standoff"}`); err != nil {
		t.Errorf("one citizen is enough: %v", err)
	}
}

func TestPresetJSONNamesItsKeys(t *testing.T) {
	// A preset given as JSON (the preset option, the world JSON's preset)
	// refuses a key whose value is null, as a preset file refuses a key
	// with no value, rather than play the base's number in silence; and
	// every value that is wrong is named with its key.
	for in, want := range map[string]string{
		`{"base": "default", "max_cycles": null}`:       "max_cycles is null; give a value, or leave the key out",
		`{"base": "default", "start": {"gold": null}}`:  "start.gold is null",
		`{"base": "default", "steal": null}`:            "steal is null",
		`{"base": null, "growth": 1.5}`:                 "base is null",
		`{"base": "default", "growth": "1.5"}`:          "growth: want a number, not a string",
		`{"base": "default", "steal": {"army": "0.5"}}`: "steal.army: want a number, not a string",
		`{"base": "default", "land_capacity": 1e3}`:     "land_capacity: 1e3: write the number without an exponent",
		`{"base": "default", "defend_advantage": [2]}`:  `defend_advantage: "[2]" is not a decimal number`,
		`{"base": "default", "gold_for_war": 1.5}`:      "gold_for_war: want a whole number",
		`{"base": "default", "start": {"food": "800"}}`: "start.food: want a whole number",
		// A key in another case is told as such, whatever its value.
		`{"base": "default", "Max_Cycles": null}`:      `field "Max_Cycles" is written "max_cycles"`,
		`{"base": "default", "start": {"GOLD": null}}`: `start: field "GOLD" is written "gold"`,
		`{"base": "default", "Growth": "1.5"}`:         `field "Growth" is written "growth"`,
	} {
		if _, err := PresetOption(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("option %s: %v; want an error with %q", in, err, want)
		}
		world := `{"preset": ` + in + `, "cycle": 1, "countries": [` +
			`{"gold": 1, "food": 1, "citizens": 1, "army": 0, "land": 1}, {"gold": 1, "food": 1, "citizens": 1, "army": 0, "land": 1}]}`
		var w World
		if err := engine.DecodeJSON([]byte(world), &w); err == nil || !strings.Contains(err.Error(), "preset: "+want) {
			t.Errorf("world with %s: %v; want an error with %q", in, err, "preset: "+want)
		}
	}
	if p, err := PresetOption(`{"base": "default", "growth": 1.5, "steal": {"gold": 0.25}, "name": "x"}`); err != nil || p.Growth.String() != "1.5" || p.Steal[Gold].String() != "0.25" {
		t.Errorf("a preset with values: %+v, %v", p, err)
	}
}

func TestViewsNameThePresetAlike(t *testing.T) {
	// The public view and a seat's view give the preset one shape, for a
	// built-in preset as for a custom one: "preset" its name, "numbers"
	// every constant; the public view leaves out a built-in preset's
	// numbers, which its name says (a report's history repeats the view
	// in every sample).
	for _, option := range []string{"tribe", `{"base": "default", "gold_for_war": 800}`} {
		m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b"}, Options: map[string]string{"preset": option}})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := PresetOption(option)
		for k, v := range []any{m.Public(), m.View(0)} {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var j struct {
				Preset  any
				Numbers Preset
			}
			if err := json.Unmarshal(b, &j); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if k == 0 && option == "tribe" {
				if j.Preset != want.Name || j.Numbers != (Preset{}) {
					t.Errorf("the public view of preset tribe says preset %#v, numbers %+v; want its name alone", j.Preset, j.Numbers)
				}
				continue
			}
			if j.Preset != want.Name || j.Numbers != want {
				t.Errorf("preset %s: the view %T says preset %#v, numbers %+v; want %q and its numbers", option, v, j.Preset, j.Numbers, want.Name)
			}
		}
	}
}
