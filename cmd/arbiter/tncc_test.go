package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The CLI's TNCC: play and its reports, --preset and --config, step on the
// examples, tournaments, and the messages for bad input. (A person playing
// at a terminal is in tncc_process_test.go.)

// tnccConfig writes a preset file for --config and returns its path.
func tnccConfig(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "preset.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cheapWar is the default preset with war for 100 gold instead of 1600, in
// a game of at most 20 cycles.
const cheapWar = "base: default\ngold_for_war: 100\nmax_cycles: 20\n"

// tnccGame is a TNCC game in the JSON report.
type tnccGame struct {
	Seed    uint64
	Players []string
	Options map[string]string
	// Documents are the options given as documents: a custom preset.
	Documents map[string]json.RawMessage `json:"option_documents"`
	Faults    []json.RawMessage
	Result    struct {
		Scores  []int64
		Ranks   []int
		Winners []int
		Status  []string
		Reason  string
	}
	History []tnccWorld
	Events  []struct {
		Clock int
		Kind  string
		Text  string
		Seats []int
	}
}

// tnccWorld is the rules' world JSON.
type tnccWorld struct {
	Preset    json.RawMessage
	Cycle     int
	Countries []struct {
		Gold, Food, Citizens, Army, Land int64
		Dead                             bool
		Died                             int
	}
}

// tnccJSON plays with --report json and returns the games.
func tnccJSON(t *testing.T, args ...string) []tnccGame {
	t.Helper()
	code, out, errOut := arbiter(t, "", append([]string{"play", "tncc", "--report", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("play tncc %v: exit %d: %s", args, code, errOut)
	}
	var games []tnccGame
	if err := json.Unmarshal([]byte(out), &games); err != nil || len(games) == 0 {
		t.Fatalf("play tncc %v: %v:\n%s", args, err, out)
	}
	return games
}

var (
	warLine   = regexp.MustCompile(`^  cycle (\d+): country (\d+) attacked country (\d+): (\d+) against (\d+); (\d+) and (\d+) left; (.*)$`)
	deathLine = regexp.MustCompile(`^  cycle (\d+): country (\d+) died$`)
	boardLine = regexp.MustCompile(`^ +(\d+) +\S+ +(-?\d+) +(-?\d+) +(-?\d+) +(-?\d+) +(-?\d+)(  dead \(cycle (\d+)\))?$`)
	scoreLine = regexp.MustCompile(`^ +(\d+)  (\S+) +(\d+)  rank (\d+)  (.*)$`)
	lootPart  = regexp.MustCompile(`^(\d+) (gold|food|citizens|army|land)$`)
)

func tnccNum(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

func TestTNCCPlayReport(t *testing.T) {
	// The text report: the players, the world at the start and at the end,
	// the events (every war with what each side sent, the survivors, the
	// winner and the loot; every death), and the final scores with ranks
	// and the WINNER. The same seed gives the same bytes.
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"game 1: tncc, seed 1\n",
		"players: 1 nothing, 2 turtle, 3 war, 4 blitz\n",
		"options: preset=default\n",
		"at the start\n  country    gold food citizens army land\n   1 nothing  600  800      800    0  150\n",
		"\nat the end (cycle ", "\nevents\n", "\nended: ", "\nfinal scores (score: cycles survived)\n", "WINNER", "faults: none",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	_, again, _ := arbiter(t, "", "play", "tncc", "--seed", "1")
	if again != out {
		t.Errorf("the same seed gives another report:\n%s\n%s", out, again)
	}

	// Read the report back, section by section.
	section := ""
	var start, end [][]string // board rows
	var wars, deaths [][]string
	var scores [][]string
	// An event too long for a line goes on, indented, on the next: join
	// them again.
	unwrapped := strings.ReplaceAll(out, "\n    ", " ")
	for line := range strings.Lines(unwrapped) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "at the start", line == "events":
			section = line
			continue
		case strings.HasPrefix(line, "final scores"):
			section = "final scores"
			continue
		case strings.HasPrefix(line, "at the end"):
			section = "at the end"
			continue
		}
		switch section {
		case "at the start", "at the end":
			if m := boardLine.FindStringSubmatch(line); m != nil {
				if section == "at the start" {
					start = append(start, m)
				} else {
					end = append(end, m)
				}
			}
		case "events":
			if m := warLine.FindStringSubmatch(line); m != nil {
				wars = append(wars, m)
			} else if m := deathLine.FindStringSubmatch(line); m != nil {
				deaths = append(deaths, m)
			} else if strings.HasPrefix(line, "  cycle ") {
				t.Errorf("an event neither a war nor a death: %q", line)
			}
		case "final scores":
			if m := scoreLine.FindStringSubmatch(line); m != nil {
				scores = append(scores, m)
			}
		}
	}
	if len(start) != 4 || len(end) != 4 || len(scores) != 4 {
		t.Fatalf("%d countries at the start, %d at the end, %d scores; want 4 each:\n%s", len(start), len(end), len(scores), out)
	}
	for _, row := range start {
		if got := strings.Join(row[2:7], "/"); got != "600/800/800/0/150" || row[7] != "" {
			t.Errorf("country %s starts with %s; want the default preset's 600/800/800/0/150", row[1], got)
		}
	}
	if len(wars) == 0 || len(deaths) == 0 {
		t.Fatalf("%d wars and %d deaths in the events; the seed-1 game has both:\n%s", len(wars), len(deaths), out)
	}

	// Every war as everyone may read it, and consistent with the battle's
	// rules: only one side can have soldiers left; a winning attacker with
	// r survivors takes at most ⌊r × steal⌋ of each resource (the default
	// preset's steal: gold .5, food 1, citizens .1, army 0, land .025).
	cycle := 0
	for _, w := range wars {
		c, sent, defended, aLeft, dLeft, outcome := int(tnccNum(w[1])), tnccNum(w[4]), tnccNum(w[5]), tnccNum(w[6]), tnccNum(w[7]), w[8]
		if c < cycle {
			t.Errorf("events out of order: %q after cycle %d", w[0], cycle)
		}
		cycle = c
		if w[2] == w[3] || aLeft > sent || dLeft > defended || (aLeft > 0 && dLeft > 0) {
			t.Errorf("impossible battle: %q", w[0])
		}
		if defended == 0 && aLeft != sent {
			t.Errorf("an attack on no defenders loses soldiers: %q", w[0])
		}
		switch {
		case aLeft == 0 && dLeft == 0:
			if outcome != "a tie" {
				t.Errorf("nobody is left but the outcome is %q: %q", outcome, w[0])
			}
		case dLeft > 0:
			if outcome != "the defender won" {
				t.Errorf("only defenders are left but the outcome is %q: %q", outcome, w[0])
			}
		default:
			loot, ok := strings.CutPrefix(outcome, "the attacker won, and took ")
			if !ok {
				if outcome != "the attacker won, and took nothing" {
					t.Errorf("only attackers are left but the outcome is %q: %q", outcome, w[0])
				}
				continue
			}
			most := map[string]int64{"gold": aLeft / 2, "food": aLeft, "citizens": aLeft / 10, "army": 0, "land": aLeft / 40}
			for _, part := range strings.Split(loot, ", ") {
				m := lootPart.FindStringSubmatch(part)
				if m == nil {
					t.Errorf("loot %q: %q", part, w[0])
					continue
				}
				if n := tnccNum(m[1]); n <= 0 || n > most[m[2]] {
					t.Errorf("%d %s looted by %d survivors; at most ⌊r × steal⌋ = %d: %q", n, m[2], aLeft, most[m[2]], w[0])
				}
			}
		}
	}

	// The deaths in the events are the dead of the last board and of the
	// scores, in the same cycles; the one country left is the WINNER.
	died := map[string]string{}
	for _, d := range deaths {
		died[d[2]] = d[1]
	}
	for i, row := range end {
		country := fmt.Sprint(i + 1)
		if row[1] != country {
			t.Fatalf("board row %d is country %s", i+1, row[1])
		}
		score := scores[i]
		switch c, dead := died[country]; {
		case dead:
			if row[8] != c || row[4] != "0" {
				t.Errorf("country %s died in cycle %s, but the last board shows %q", country, c, row[0])
			}
			if score[5] != "DEAD (CYCLE "+c+")" {
				t.Errorf("country %s died in cycle %s, but its score line is %q", country, c, score[0])
			}
		default:
			if row[8] != "" || row[4] == "0" {
				t.Errorf("country %s lives, but the last board shows %q", country, row[0])
			}
			if score[5] != "WINNER" || score[4] != "1" {
				t.Errorf("country %s is the one left, but its score line is %q", country, score[0])
			}
		}
	}
	if len(died) != 3 {
		t.Errorf("%d deaths; the seed-1 game ends with one country left", len(died))
	}
	ranks := map[string]bool{}
	for _, s := range scores {
		ranks[s[4]] = true
	}
	if len(ranks) != 4 {
		t.Errorf("ranks %v: the countries died in different cycles, so the four ranks differ", ranks)
	}
}

func TestTNCCPresets(t *testing.T) {
	// Every preset plays and ends, with its own numbers.
	start := map[string][5]int64{
		"default": {600, 800, 800, 0, 150}, "tribe": {50, 400, 100, 10, 50}, "crazy": {6000, 8000, 10000, 0, 1500},
		"robot_army": {600, 800, 1000, 0, 200}, "mexican_standoff": {50000, 1500, 1, 1499, 150}, "decay": {600, 2000, 15000, 0, 1500},
	}
	maxCycles := map[string]int{"tribe": 200}
	for _, name := range []string{"default", "tribe", "crazy", "robot_army", "mexican_standoff", "decay"} {
		g := tnccJSON(t, "--seed", "1", "--preset", name)[0]
		if g.Options["preset"] != name || string(g.History[0].Preset) != `"`+name+`"` {
			t.Errorf("--preset %s: options %v, the first world's preset %s", name, g.Options, g.History[0].Preset)
		}
		for i, c := range g.History[0].Countries {
			if got := [5]int64{c.Gold, c.Food, c.Citizens, c.Army, c.Land}; got != start[name] {
				t.Errorf("--preset %s: country %d starts with %v; want %v", name, i+1, got, start[name])
			}
		}
		most := orDefault(maxCycles[name], 100)
		r := g.Result
		if len(r.Ranks) != 4 || len(r.Scores) != 4 {
			t.Errorf("--preset %s: the game has no result: %+v", name, r)
			continue
		}
		switch r.Reason {
		case "one country left":
			if len(r.Winners) != 1 {
				t.Errorf("--preset %s: one country left, winners %v", name, r.Winners)
			}
		case "every country is dead":
			if len(r.Winners) != 0 {
				t.Errorf("--preset %s: everyone is dead, winners %v", name, r.Winners)
			}
		case "max_cycles played":
		default:
			t.Errorf("--preset %s: the game ended because %q", name, r.Reason)
		}
		for _, s := range r.Scores {
			if s < 0 || s > int64(most) {
				t.Errorf("--preset %s: score %d; a country lives at most %d cycles", name, s, most)
			}
		}
		if last := g.History[len(g.History)-1]; last.Cycle > most+1 {
			t.Errorf("--preset %s: the game reached cycle %d; max_cycles is %d", name, last.Cycle, most)
		}
		code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--preset", name)
		if code != 0 || !strings.Contains(out, "options: preset="+name+"\n") || !strings.Contains(out, "final scores") {
			t.Errorf("--preset %s: exit %d %s\n%s", name, code, errOut, out)
		}
	}
}

// orDefault returns a if it is set, else b.
func orDefault(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func TestTNCCConfig(t *testing.T) {
	// "--config FILE.yaml": base: default and the keys to change. The game
	// plays with the file's numbers, and its record replays.
	dir := t.TempDir()
	cfg := tnccConfig(t, cheapWar)
	g := tnccJSON(t, "--seed", "1", "--config", cfg, "--record", dir)[0]

	var p struct {
		Name            string
		Start           map[string]int64
		GoldForWar      int64   `json:"gold_for_war"`
		MaxCycles       int     `json:"max_cycles"`
		DefendAdvantage float64 `json:"defend_advantage"`
		Growth          float64
	}
	if err := json.Unmarshal(g.Documents["preset"], &p); err != nil {
		t.Fatalf("the report's option_documents do not hold the file's preset: %v: %s", err, g.Documents["preset"])
	}
	// The report names the preset by its name and the digest of its
	// numbers, as a string, in the JSON as in the text.
	label := g.Options["preset"]
	if !regexp.MustCompile(`^custom \(default\) #[0-9a-f]{8}$`).MatchString(label) {
		t.Errorf("the JSON report's options.preset is %q; want the preset's name and digest", label)
	}
	if code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg); code != 0 || !strings.Contains(out, "options: preset="+label+"\n") {
		t.Errorf("the text report does not name the preset %s: exit %d %s\n%s", label, code, errOut, out)
	}
	if p.GoldForWar != 100 || p.MaxCycles != 20 || p.DefendAdvantage != 2 || p.Growth != 1.07 || p.Start["gold"] != 600 || p.Name != "custom (default)" {
		t.Errorf("the game's preset: %+v; want default's numbers with gold_for_war 100 and max_cycles 20", p)
	}
	// At most 20 cycles: nothing happens after cycle 20, and the countries
	// alive at the end lived through all 20.
	if g.Result.Reason != "max_cycles played" {
		t.Errorf("the game ended because %q; with these bots it lasts all 20 cycles", g.Result.Reason)
	}
	for i, s := range g.Result.Scores {
		if s > 20 || (slices.Contains(g.Result.Winners, i) && s != 20) {
			t.Errorf("country %d scores %d cycles; max_cycles is 20", i+1, s)
		}
	}
	for _, w := range g.History {
		if w.Cycle > 21 {
			t.Fatalf("the world reaches cycle %d; max_cycles is 20", w.Cycle)
		}
	}
	// War costs 100 gold, not 1600: a country of the default preset cannot
	// have 1600 gold before cycle 6, but these go to war in cycle 2.
	first := 0
	for _, e := range g.Events {
		if e.Clock > 20 {
			t.Errorf("an event in cycle %d: %s", e.Clock, e.Text)
		}
		if e.Kind == "war" && first == 0 {
			first = e.Clock
		}
	}
	if first == 0 || first > 3 {
		t.Errorf("the first war is in cycle %d; with war at 100 gold it comes in the first cycles", first)
	}

	// The record names the preset in full, and replays.
	path := filepath.Join(dir, "game-0001.jsonl")
	header := lines(t, path)[0]
	if !strings.Contains(header, `\"gold_for_war\":100`) || !strings.Contains(header, `\"max_cycles\":20`) {
		t.Errorf("the record's header does not hold the preset: %s", header)
	}
	code, out, errOut := arbiter(t, "", "replay", path)
	if code != 0 || !strings.Contains(out, "tncc, seed 1, 4 players") || !strings.Contains(out, "ok: the replay reaches the recorded result and final state (sha256:") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errOut)
	}

	// A whole preset, every key given, without base.
	full := tnccConfig(t, `name: small
start: {gold: 100, food: 100, citizens: 100, army: 0, land: 10}
steal: {gold: 1, food: 1, citizens: 0.5, army: 0, land: 0.1}
food_per_citizen: 1
gold_per_citizen: 0.5
food_per_soldier: 1
gold_per_soldier: 0.1
growth: 1.1
land_capacity: 10
gold_for_war: 50
defend_advantage: 1.5
attack_advantage: 1
hunger_deaths: 10
max_cycles: 5
`)
	g = tnccJSON(t, "--seed", "2", "--config", full)[0]
	if c := g.History[0].Countries[0]; c.Gold != 100 || c.Land != 10 || !strings.HasPrefix(g.Options["preset"], "small #") || !strings.Contains(string(g.Documents["preset"]), `"name": "small"`) {
		t.Errorf("a whole preset: the first country %+v, the preset %s, %s", c, g.Options["preset"], g.Documents["preset"])
	}
	if last := g.History[len(g.History)-1]; last.Cycle > 6 {
		t.Errorf("a whole preset of 5 cycles reaches cycle %d", last.Cycle)
	}
}

func TestTNCCPresetJSONNamedAsItsFile(t *testing.T) {
	// README: "A custom preset is named in reports by its name ... and a
	// digest of its numbers, the same for the same numbers whatever the
	// name". The same numbers given as --preset JSON and as a --config
	// file are one preset: one option value, one label, one game.
	file := tnccGameOf(t, "--config", tnccConfig(t, cheapWar))
	inline := tnccGameOf(t, "--preset", `{"base": "default", "gold_for_war": 100, "max_cycles": 20}`)
	if file.Options["preset"] != inline.Options["preset"] {
		t.Errorf("--config names the preset %q, --preset JSON %q; the same numbers", file.Options["preset"], inline.Options["preset"])
	}
	if !slices.Equal(file.Result.Scores, inline.Result.Scores) {
		t.Errorf("--config scores %v, --preset JSON %v; the same numbers", file.Result.Scores, inline.Result.Scores)
	}
	// Inline JSON is checked as the file is: a key given twice is refused.
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--preset", `{"base": "default", "max_cycles": 5, "max_cycles": 6}`)
	if code != 2 || out != "" || !strings.Contains(errOut, `"max_cycles" already defined`) {
		t.Errorf("--preset JSON with max_cycles twice: exit %d %q %q; want exit 2 naming the key", code, out, errOut)
	}
}

// tnccGameOf plays one game on seed 1 with args and returns it.
func tnccGameOf(t *testing.T, args ...string) tnccGame {
	t.Helper()
	return tnccJSON(t, append([]string{"--seed", "1"}, args...)...)[0]
}

func TestTNCCBadConfig(t *testing.T) {
	// A bad preset file, or a preset that is not one, exits 2 with one line
	// that names the problem.
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		msgs []string
	}{
		{"unknown key", []string{"--config", tnccConfig(t, "base: default\ngold_for_wat: 100\n")}, []string{"gold_for_wat", "line 2"}},
		{"unknown key in start", []string{"--config", tnccConfig(t, "base: default\nstart: {gold: 1, oil: 2}\n")}, []string{"oil"}},
		{"missing keys without base", []string{"--config", tnccConfig(t, "gold_for_war: 100\nmax_cycles: 20\n")}, []string{"missing start", "defend_advantage", "base: NAME"}},
		{"defend advantage 0.5", []string{"--config", tnccConfig(t, "base: default\ndefend_advantage: 0.5\n")}, []string{"line 2: defend_advantage: 0.5", "at least 1"}},
		{"no citizens at the start", []string{"--config", tnccConfig(t, "base: default\nstart: {citizens: 0}\n")}, []string{"line 2: start.citizens: 0", "dead before it plays", "allowed 1 to"}},
		{"attack advantage 0.5", []string{"--config", tnccConfig(t, "base: default\nattack_advantage: 0.5\n")}, []string{"attack_advantage: 0.5", "at least 1"}},
		{"capacity 0", []string{"--config", tnccConfig(t, "base: default\nland_capacity: 0\n")}, []string{"land_capacity", "above 0"}},
		{"negative start", []string{"--config", tnccConfig(t, "base: default\nstart: {gold: -5}\n")}, []string{"line 2: start.gold: -5"}},
		{"max_cycles 0", []string{"--config", tnccConfig(t, "base: default\nmax_cycles: 0\n")}, []string{"max_cycles: 0"}},
		{"a fraction for a count", []string{"--config", tnccConfig(t, "base: default\ngold_for_war: 1.5\n")}, []string{"whole number", "1.5"}},
		{"unknown base", []string{"--config", tnccConfig(t, "base: feudal\n")}, []string{`unknown preset "feudal"`, "tribe"}},
		{"empty file", []string{"--config", tnccConfig(t, "")}, []string{"empty"}},
		{"not YAML", []string{"--config", tnccConfig(t, "base: [\n")}, []string{"--config", "line 1"}},
		{"missing file", []string{"--config", filepath.Join(dir, "missing.yaml")}, []string{"--config", "no such file"}},
		{"a directory", []string{"--config", dir}, []string{"--config", "is a directory"}},
		{"both --preset and --config", []string{"--preset", "tribe", "--config", tnccConfig(t, cheapWar)}, []string{"give --preset or --config, not both"}},
		{"unknown preset", []string{"--preset", "feudal"}, []string{`unknown preset "feudal"`, "default, tribe, crazy, robot_army, mexican_standoff, decay"}},
		// A preset's name in another case, or with a dash for its
		// underscore, is offered the name it comes near.
		{"a preset in capitals", []string{"--preset", "Tribe"}, []string{`unknown preset "Tribe"; did you mean tribe? Presets: default, tribe,`}},
		{"a dash for an underscore", []string{"--preset", "robot-army"}, []string{`unknown preset "robot-army"; did you mean robot_army?`}},
		{"a base with a typo", []string{"--config", tnccConfig(t, "base: defualt\n")}, []string{`unknown preset "defualt"; did you mean default?`}},
		// A preset file given to --preset is pointed to --config.
		{"a file for --preset", []string{"--preset", filepath.Join(dir, "mine.yaml")}, []string{`unknown preset "`, "mine.yaml is a file: give it as --config " + filepath.Join(dir, "mine.yaml")}},
		// And a preset's name given to --config, where no such file is, to
		// --preset.
		{"a preset for --config", []string{"--config", "tribe"}, []string{"--config tribe: no such file or directory; tribe is a value of --preset: give it as --preset tribe"}},
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(cheapWar), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		args := append([]string{"play", "tncc", "--seed", "1"}, c.args...)
		code, out, errOut := arbiter(t, "", args...)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, output %q; want exit 2 and no output", c.name, code, out)
		}
		for _, msg := range c.msgs {
			if !strings.Contains(errOut, msg) {
				t.Errorf("%s: the message %q lacks %q", c.name, errOut, msg)
			}
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%s: the message is more than one line:\n%s", c.name, errOut)
		}
	}
	// The tournament reads the same flags.
	code, _, errOut := arbiter(t, "", "tournament", "tncc", "--players", "nothing,war", "--seed", "1",
		"--config", tnccConfig(t, "base: default\ndefend_advantage: 0.5\n"))
	if code != 2 || !strings.Contains(errOut, "defend_advantage: 0.5") {
		t.Errorf("tournament with a bad preset: exit %d: %s", code, errOut)
	}
}

func TestTNCCVerbose(t *testing.T) {
	// --verbose: a board for every cycle, not only the first and the last.
	cfg := tnccConfig(t, "base: default\ngold_for_war: 100\nmax_cycles: 6\n")
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg, "--verbose")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Each cycle: what every country did, then the board after the
	// cycle's production; the last cycle's at the end.
	for c := 1; c <= 6; c++ {
		head := fmt.Sprintf("\ncycle %d\n  - ", c)
		if c == 6 {
			head = "\nat the end (cycle 6)\n  - "
		}
		i := strings.Index(out, head)
		if i < 0 {
			t.Errorf("--verbose lacks what happened in cycle %d:\n%s", c, out)
			continue
		}
		block := out[i+len(head):]
		if end := strings.Index(block, "\n  country "); end < 0 || strings.Contains(block[:end], "\ncycle ") || !strings.Contains(block[:end], "waited") && !strings.Contains(block[:end], "recruited") && !strings.Contains(block[:end], "attacked") {
			t.Errorf("cycle %d: the actions and the board do not follow:\n%s", c, block)
		}
	}
	if strings.Contains(out, "(custom (default) preset)\n    country") || strings.Contains(out, "\ncycle 6\n") {
		t.Errorf("--verbose doubles a cycle's header, or shows the last cycle twice:\n%s", out)
	}
	if strings.Contains(out, "\ncycle 7\n") {
		t.Errorf("--verbose shows a cycle 7 of a 6-cycle game:\n%s", out)
	}
	_, brief, _ := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg)
	if strings.Contains(brief, "\ncycle 2\n") || len(brief) >= len(out) {
		t.Errorf("without --verbose the report shows every cycle too:\n%s", brief)
	}
	for _, want := range []string{"at the start", "at the end", "events", "final scores"} {
		if !strings.Contains(out, want) || !strings.Contains(brief, want) {
			t.Errorf("a report lacks %q", want)
		}
	}
}

func TestTNCCReportFiles(t *testing.T) {
	// --report FILE.html: a chart of each resource, the wars marked on them
	// (a dashed red line whose title names the war), and the events in a
	// table. --report json has the events too.
	dir := t.TempDir()
	cfg := tnccConfig(t, cheapWar)
	g := tnccJSON(t, "--seed", "1", "--config", cfg)[0]
	var wars, deaths int
	for _, e := range g.Events {
		switch e.Kind {
		case "war":
			wars++
			if len(e.Seats) != 2 || e.Seats[0] == e.Seats[1] || !strings.Contains(e.Text, "attacked") {
				t.Errorf("a war event: %+v", e)
			}
		case "death":
			deaths++
			if len(e.Seats) != 1 || e.Text != fmt.Sprintf("country %d died", e.Seats[0]+1) {
				t.Errorf("a death event: %+v", e)
			}
		}
	}
	if wars < 5 || deaths < 1 {
		t.Fatalf("%d wars and %d deaths in the JSON report's events; the game has many wars and a death", wars, deaths)
	}

	path := filepath.Join(dir, "r.html")
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg, "--report", path)
	if code != 0 || out != "" || !strings.Contains(errOut, "wrote the report to "+path) {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, r := range []string{"gold", "food", "citizens", "army", "land"} {
		if !strings.Contains(page, "<figcaption>"+r+"</figcaption>") {
			t.Errorf("the page has no chart of %s", r)
		}
	}
	if n := strings.Count(page, "<polyline"); n != 5*4 {
		t.Errorf("%d lines drawn; want one per country on each of the 5 charts", n)
	}
	marks := regexp.MustCompile(`<line [^>]*stroke="(?:#c00|#cc0000|#f00|#ff0000|red)"[^>]*stroke-dasharray="[^"]+"[^>]*><title>([^<]*)</title>`).FindAllStringSubmatch(page, -1)
	titles := map[string]int{}
	for _, m := range marks {
		titles[html.UnescapeString(m[1])]++
	}
	for _, e := range g.Events {
		title := fmt.Sprintf("cycle %d: %s: %s", e.Clock, e.Kind, e.Text)
		switch {
		case e.Kind == "war" && titles[title] == 0:
			t.Errorf("the war is not marked on the charts: %s", title)
		case e.Kind != "war" && titles[title] > 0:
			t.Errorf("a %s is marked on the charts: %s", e.Kind, title)
		}
		row := fmt.Sprintf(`<tr><td class="n">%d</td><td>%s</td></tr>`, e.Clock, html.EscapeString(e.Text))
		if !strings.Contains(page, row) {
			t.Errorf("the events table lacks %s", row)
		}
	}
	if len(marks) < wars {
		t.Errorf("%d dashed red lines for %d wars", len(marks), wars)
	}
	if !strings.Contains(page, "<th>cycle</th><th>event</th>") {
		t.Error("the page has no events table")
	}
	if strings.Contains(page, "<script src") || strings.Contains(page, "src=") {
		t.Error("the page loads something: it must be self-contained")
	}

	// The JSON report to a file is the one printed.
	jpath := filepath.Join(dir, "r.json")
	if code, _, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg, "--report", jpath); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, printed, _ := arbiter(t, "", "play", "tncc", "--seed", "1", "--config", cfg, "--report", "json")
	if b, _ := os.ReadFile(jpath); string(b) != printed || !strings.Contains(printed, `"events":`) {
		t.Error("the JSON report file differs from the printed report, or has no events")
	}
}

// The examples of the rules page, stepped.
func tnccStepExample(t *testing.T, stdin string, state, moves string) (int, string, string) {
	t.Helper()
	return arbiter(t, stdin, "step", "tncc", "--state", state, "--moves", moves)
}

func TestTNCCStep(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "tncc")
	world := filepath.Join(ex, "world.json")
	// world.json, default preset, cycle 1:
	//   country 1: gold 2000, food 800, citizens 700, army 100, land 150
	//   country 2: gold  600, food 800, citizens 760, army  40, land 150
	//   country 3: dead
	const (
		// war.json: country 1 attacks country 2 with 10, 0, 30; country 2
		// defends with 5, 5, 5. Country 1 pays 1600 gold: 400 left.
		// Wave one, defend_advantage 2, on each flank:
		//   left:  10 − ⌊2·5⌋ = 0 attackers, max(0, 5 − 10) = 0 defenders
		//   front:  0 attackers, 5 defenders
		//   right: 30 − ⌊2·5⌋ = 20 attackers, max(0, 5 − 30) = 0 defenders
		// Wave two, attack_advantage 2: A = 20, D = 5;
		//   attackers max(0, 20 − 5) = 15, defenders max(0, 5 − ⌊2·20⌋) = 0.
		// The attacker wins with r = 15 and takes ⌊15 × steal⌋: gold
		// ⌊7.5⌋ = 7, food 15, citizens ⌊1.5⌋ = 1, army 0, land ⌊0.375⌋ = 0.
		//   country 1: gold 400 + 7 = 407, food 815, citizens 701,
		//              army 100 − 40 + 15 = 75
		//   country 2: gold 593, food 785, citizens 759, army 40 − 15 = 25
		war = `{"preset":"default","cycle":1,"countries":[` +
			`{"gold":407,"food":815,"citizens":701,"army":75,"land":150},` +
			`{"gold":593,"food":785,"citizens":759,"army":25,"land":150},` +
			`{"gold":600,"food":800,"citizens":0,"army":0,"land":150,"dead":true}]}` + "\n"
		// trade.json: country 1 gives 100 gold for 200 food, accepted.
		trade = `{"preset":"default","cycle":1,"countries":[` +
			`{"gold":1900,"food":1000,"citizens":700,"army":100,"land":150},` +
			`{"gold":700,"food":600,"citizens":760,"army":40,"land":150},` +
			`{"gold":600,"food":800,"citizens":0,"army":0,"land":150,"dead":true}]}` + "\n"
		// production.json, for each living country:
		//   country 1: food 800 + ⌊.5·700⌋ = 1150, gold 2000 + ⌊.25·700⌋ =
		//     2175; citizens ⌊700 × 1.07⌋ = 749 (cap 150·10 − 100 = 1400);
		//     upkeep food − 100 = 1050, gold − ⌊100 × .1⌋ = 2165.
		//   country 2: food 800 + 380 = 1180, gold 600 + 190 = 790;
		//     citizens ⌊760 × 1.07⌋ = 813; food − 40 = 1140, gold − 4 = 786.
		//   country 3 is dead: skipped. The cycle is 2.
		production = `{"preset":"default","cycle":2,"countries":[` +
			`{"gold":2165,"food":1050,"citizens":749,"army":100,"land":150},` +
			`{"gold":786,"food":1140,"citizens":813,"army":40,"land":150},` +
			`{"gold":600,"food":800,"citizens":0,"army":0,"land":150,"dead":true}]}` + "\n"
	)
	for name, want := range map[string]string{"war": war, "trade": trade, "production": production} {
		code, out, errOut := tnccStepExample(t, "", world, filepath.Join(ex, name+".json"))
		if code != 0 || out != want {
			t.Errorf("%s.json: exit %d %s\ngot  %s\nwant %s", name, code, errOut, out, want)
		}
	}
	// The output is a world again: step it, from standard input.
	code, out, errOut := tnccStepExample(t, war, "-", filepath.Join(ex, "production.json"))
	if code != 0 || !strings.HasPrefix(out, `{"preset":"default","cycle":2,`) {
		t.Errorf("stepping the output: exit %d: %s%s", code, out, errOut)
	}
	// The moves from standard input.
	code, out, _ = tnccStepExample(t, `{"seat": 1, "action": {"type": "recruit", "n": 60}}`, world, "-")
	if code != 0 || !strings.Contains(out, `{"gold":600,"food":800,"citizens":700,"army":100,"land":150}`) {
		t.Errorf("recruit from standard input: exit %d: %s", code, out)
	}

	// Illegal actions and answers: exit 1, the rules' reason, no world.
	illegal := []struct{ moves, msg string }{
		{`{"seat": 0, "action": {"type": "recruit", "n": 701}}`, "you have 700 citizens"},
		{`{"seat": 0, "action": {"type": "recruit", "n": -101}}`, "you have 100 soldiers"},
		{`{"seat": 1, "action": {"type": "war", "target": 0, "flanks": [1, 1, 1]}, "answer": {"flanks": [0, 0, 0]}}`, "war costs 1600 gold; you have 600"},
		{`{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [100, 1, 0]}, "answer": {"flanks": [5, 5, 5]}}`, "the army has 100"},
		{`{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [10, 0, 30]}, "answer": {"flanks": [20, 20, 1]}}`, "defence: 20, 20 and 1 soldiers on the flanks, and the army has 40"},
		{`{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [10, 0, 30]}, "answer": {"accept": true}}`, `"flanks"`},
		{`{"seat": 0, "action": {"type": "war", "target": 2, "flanks": [1, 1, 1]}, "answer": {"flanks": [0, 0, 0]}}`, "country 3 is dead"},
		{`{"seat": 0, "action": {"type": "war", "target": 0, "flanks": [1, 1, 1]}, "answer": {"flanks": [0, 0, 0]}}`, "yourself"},
		{`{"seat": 0, "action": {"type": "trade", "with": 1, "give": "food", "give_n": 100, "take": "land", "take_n": 1}, "answer": {"accept": true}}`, "one side of a trade must be gold"},
		{`{"seat": 0, "action": {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 900}, "answer": {"accept": true}}`, "which holds 800"},
		{`{"seat": 0, "action": {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200}, "answer": {"flanks": [1, 1, 1]}}`, `{"accept": true}`},
		{`{"seat": 2, "action": {"type": "wait"}}`, "country 3 is dead"},
		{`{"seat": 7, "action": {"type": "wait"}}`, "there is no country 8; countries are 1 to 3 (seat 7: in moves, seats count from 0, so 0 to 2)"},
	}
	for _, c := range illegal {
		code, out, errOut := tnccStepExample(t, c.moves, world, "-")
		if code != 1 || out != "" || !strings.Contains(errOut, c.msg) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%s: exit %d, output %q, %q; want exit 1, no output and %q", c.moves, code, out, errOut, c.msg)
		}
	}

	// Malformed files: exit 2.
	state, _ := os.ReadFile(world)
	const wait = `{"seat": 0, "action": {"type": "wait"}}`
	malformed := []struct{ state, moves, msg string }{
		{string(state), `{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [10, 0, 30]}}`, "a war needs its answer"},
		{string(state), `{"seat": 0, "action": {"type": "trade", "with": 1, "give": "gold", "give_n": 1, "take": "food", "take_n": 1}}`, "a trade needs its answer"},
		{string(state), `{"seat": 0, "action": {"type": "wait"}, "answer": {"accept": true}}`, "takes no answer"},
		{string(state), `{"seat": 0, "action": {"type": "fly"}}`, `"fly"`},
		{string(state), `{"seat": 0}`, `{"production": true}`},
		{string(state), `{"production": true, "seat": 0}`, "with nothing else"},
		{string(state), `{"seat": 0, "action": {"type": "wait"}, "extra": 1}`, `unknown field "extra"`},
		{string(state), `{`, "--moves"},
		{`{`, wait, "--state"},
		{strings.Replace(string(state), `"default"`, `"feudal"`, 1), wait, `unknown preset "feudal"`},
		{strings.Replace(string(state), `"cycle": 1`, `"cycle": 0`, 1), wait, "cycle: 0"},
		{strings.Replace(string(state), `"cycle": 1`, `"cycel": 1`, 1), wait, `unknown field "cycel"`},
		{strings.Replace(string(state), `"gold": 2000, `, ``, 1), wait, "gold is missing"},
		{`{"preset": "default", "cycle": 1, "countries": [{"gold": 1, "food": 1, "citizens": 1, "army": 0, "land": 1}]}`, wait, "2 to 12"},
		{`{"preset": {"base": "default", "defend_advantage": 0.5}, "cycle": 1, "countries": []}`, wait, "advantages are at least 1"},
	}
	for _, c := range malformed {
		dir := t.TempDir()
		s, m := filepath.Join(dir, "s.json"), filepath.Join(dir, "m.json")
		os.WriteFile(s, []byte(c.state), 0o644)
		os.WriteFile(m, []byte(c.moves), 0o644)
		code, out, errOut := tnccStepExample(t, "", s, m)
		if code != 2 || out != "" || !strings.Contains(errOut, c.msg) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("state %.60s… moves %s: exit %d, output %q, %q; want exit 2 and %q", c.state, c.moves, code, out, errOut, c.msg)
		}
	}
	if code, _, errOut := tnccStepExample(t, "", filepath.Join(ex, "missing.json"), filepath.Join(ex, "war.json")); code != 2 || !strings.Contains(errOut, "no such file") {
		t.Errorf("a missing world file: exit %d: %s", code, errOut)
	}
}

func TestTNCCTournament(t *testing.T) {
	// Every group of 4 of the six bots, each group in every seat order the
	// default schedule gives: the seats are balanced, and general, the
	// search bot, comes first.
	for _, preset := range []string{"default", "tribe"} {
		out := filepath.Join(t.TempDir(), "results.jsonl")
		args := []string{"tournament", "tncc", "--players", "nothing,turtle,war,blitz,trader,general", "--seats", "4", "--seed", "1", "--preset", preset}
		code, standings, errOut := arbiter(t, "", append(args, "--out", out)...)
		if code != 0 {
			t.Fatalf("--preset %s: exit %d: %s", preset, code, errOut)
		}
		if !strings.Contains(standings, "tncc tournament ") || !strings.Contains(words(standings), "6 players, every group of 4 in every seat") ||
			!strings.Contains(standings, "preset="+preset) || !strings.Contains(words(standings), "seed 1, 60 games") || !strings.Contains(standings, tableHeader) {
			t.Errorf("--preset %s: the standings lack the tournament's description or the table:\n%s", preset, standings)
		}
		if p := firstRanked(t, standings); p != "general" {
			t.Errorf("--preset %s: first ranked %s; want general:\n%s", preset, p, standings)
		}
		// Seat positions balanced: each player sits in each seat equally often.
		seats := map[string][4]int{}
		games := lines(t, out)[1:]
		for _, line := range games {
			var g struct{ Seats []string }
			if err := json.Unmarshal([]byte(line), &g); err != nil || len(g.Seats) != 4 {
				t.Fatalf("%v: %s", err, line)
			}
			for i, p := range g.Seats {
				s := seats[p]
				s[i]++
				seats[p] = s
			}
		}
		if len(games) != 60 || len(seats) != 6 {
			t.Errorf("--preset %s: %d games of %d players; want 60 of 6", preset, len(games), len(seats))
		}
		for p, s := range seats {
			if s != [4]int{10, 10, 10, 10} {
				t.Errorf("--preset %s: %s sits in the seats %v times; want 10 in each", preset, p, s)
			}
		}
		_, again, _ := arbiter(t, "", args...)
		if again != standings {
			t.Errorf("--preset %s: the same tournament twice gives different standings", preset)
		}
	}
}

func TestTNCCBadPlayers(t *testing.T) {
	// Unknown players are named, with the list of TNCC's players.
	// A person is offered where one can play, not in a tournament.
	for _, args := range [][]string{
		{"play", "tncc", "--players", "nothing,bogus"},
		{"tournament", "tncc", "--players", "nothing,bogus"},
	} {
		code, out, errOut := arbiter(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, `unknown player "bogus"`) ||
			!strings.Contains(errOut, "nothing, turtle, war, blitz, trader, general") || strings.Contains(errOut, "repl") != (args[0] == "play") ||
			strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	code, _, errOut := arbiter(t, "", "play", "tncc", "--players", "war")
	if code != 2 || !strings.Contains(errOut, "tncc takes 2 to 12 players; 1 given") {
		t.Errorf("one player: exit %d, %q", code, errOut)
	}
	code, _, errOut = arbiter(t, "", "play", "tncc", "--players", strings.Repeat("war,", 12)+"war")
	if code != 2 || !strings.Contains(errOut, "tncc takes 2 to 12 players; 13 given") {
		t.Errorf("thirteen players: exit %d, %q", code, errOut)
	}
	// The games list names them, with the presets.
	code, out, _ := arbiter(t, "", "games")
	out = words(out)
	if code != 0 || !strings.Contains(out, "players: nothing, turtle, war, blitz, trader, general, marshal, random, mcts, mcts:level=easy, mcts:level=medium, mcts:level=hard, mcts:ms=<n>, mcts:playouts=<n>, repl") ||
		!strings.Contains(out, "presets: default, tribe, crazy, robot_army, mexican_standoff, decay") || !strings.Contains(out, "--config FILE") {
		t.Errorf("games: exit %d\n%s", code, out)
	}
}
