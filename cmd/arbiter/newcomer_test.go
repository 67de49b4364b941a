package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/spf13/cobra"
)

// The rules and the docs, as a player reads them: every rules text stands
// on its own and points at nothing the user does not have.

// elsewhere matches references to pages a user does not have: the seeds,
// the rules pages behind them, their numbered rules and sections.
var elsewhere = regexp.MustCompile(`(?i)seed 00\d|rules page|rules/\w+\.md|\bR\d+\b|R1–R40|section \d|the seed's|as settled`)

func TestRulesStandOnTheirOwn(t *testing.T) {
	for _, name := range catalog.Names() {
		code, out, errOut := arbiter(t, "", "rules", name)
		if code != 0 {
			t.Fatalf("rules %s: exit %d %s", name, code, errOut)
		}
		if m := elsewhere.FindString(out); m != "" {
			t.Errorf("arbiter rules %s points elsewhere: %q", name, m)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("arbiter rules %s: a line of %d columns: %q", name, n, line)
			}
		}
	}
	for _, doc := range []string{"../../README.md", "../../docs/protocol.md", "../../starters/README.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if m := elsewhere.FindString(string(data)); m != "" {
			t.Errorf("%s points at a page the user does not have: %q", doc, m)
		}
	}
	// The zombie judge's script and output are in its rules.
	_, out, _ := arbiter(t, "", "rules", "zombie")
	for _, want := range []string{"THE JUDGE'S SCRIPT", "WHAT THE JUDGE SAYS", "ERROR line N CODE", "FINAL status=", "E_DEADLOCK"} {
		if !strings.Contains(out, want) {
			t.Errorf("arbiter rules zombie lacks %q", want)
		}
	}
}

func TestTNCCPresetNumbers(t *testing.T) {
	// "arbiter rules tncc prints every preset's numbers; arbiter games
	// --json gives every game's options, presets and players for programs."
	_, rules, _ := arbiter(t, "", "rules", "tncc")
	code, out, errOut := arbiter(t, "", "games", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var games []struct {
		Name, Score, Clock string
		Players            []string
		DefaultPlayers     string `json:"default_players"`
		Options            []struct{ Name, Flag, Kind, Default string }
		Presets            []struct {
			Name   string
			Values map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil {
		t.Fatal(err)
	}
	if len(games) != len(catalog.Names()) {
		t.Fatalf("%d games", len(games))
	}
	for _, g := range games {
		if g.Score == "" || len(g.Players) == 0 || g.DefaultPlayers == "" || len(g.Options) == 0 || g.Options[0].Flag == "" {
			t.Errorf("%s: %+v", g.Name, g)
		}
		if g.Name != "tncc" {
			continue
		}
		if len(g.Presets) != 6 {
			t.Fatalf("tncc presets: %+v", g.Presets)
		}
		// Every number of every preset is in the rules' table, in its
		// preset's column, on its key's row.
		table := rules[strings.Index(rules, "\n  start.gold"):]
		for i, p := range g.Presets {
			block := table
			if i >= 3 {
				block = table[strings.Index(table, "\n\n")+2:]
			}
			for _, key := range []string{"start.gold", "steal.land", "food_per_citizen", "growth", "land_capacity", "gold_for_war", "defend_advantage", "attack_advantage", "hunger_deaths", "max_cycles"} {
				row := block[strings.Index(block, "  "+key+" "):]
				row = row[:strings.Index(row, "\n")]
				cells := strings.Fields(row)[1:]
				want := lookup(p.Values, key)
				if got := cells[i%3]; got != want {
					t.Errorf("preset %s, %s: the rules' table says %s; its JSON %s", p.Name, key, got, want)
				}
			}
		}
	}
}

// lookup returns a preset's value at key ("steal.land"), as JSON writes it.
func lookup(values map[string]any, key string) string {
	var v any = values
	for _, k := range strings.Split(key, ".") {
		v = v.(map[string]any)[k]
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHelpSaysWhatIsTrue(t *testing.T) {
	// --seed: game 1 plays with the seed itself; a boolean option on by
	// default reads as a sentence; step --help names every game it steps;
	// --version gives the module's version and the rules' versions.
	_, help, _ := arbiter(t, "", "play", "ajveciv", "--help")
	help = words(help)
	for _, want := range []string{"game k (from 1) plays with seed+k-1", "--no-inflections turn off: an inflection after every tenth turn (on without this flag)"} {
		if !strings.Contains(help, want) {
			t.Errorf("play ajveciv --help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "no an ") {
		t.Errorf("play ajveciv --help: %s", help)
	}
	_, help, _ = arbiter(t, "", "step", "--help")
	for _, want := range []string{"territories: --state is {config, state}", "examples/territories/state.json", "zombie has no step"} {
		if !strings.Contains(help, want) {
			t.Errorf("step --help lacks %q:\n%s", want, help)
		}
	}
	// The example step of the help runs.
	if code, out, errOut := arbiter(t, "", "step", "territories", "--state", "../../examples/territories/state.json", "--moves", "../../examples/territories/join.json"); code != 0 || !strings.Contains(out, `"territory":"CA"`) {
		t.Errorf("the help's example step: exit %d %s %s", code, out, errOut)
	}
	code, out, _ := arbiter(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "arbiter ") || !strings.Contains(out, "protocol 1") {
		t.Errorf("--version: exit %d %q", code, out)
	}
	for _, name := range catalog.Names() {
		if !strings.Contains(out, name+" 1") {
			t.Errorf("--version lacks the rules version of %s: %q", name, out)
		}
	}
}

func TestTimingsTimeEveryDecision(t *testing.T) {
	// "--timings records nothing for the built-in bots (1 timed move of
	// ~140 in a TNCC game)": every decision of every seat is timed.
	dir := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--timings", "--record", dir, "--report", "summary")
	if code != 0 {
		t.Fatal(errOut)
	}
	data, err := os.ReadFile(dir + "/game-0001.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	steps, timed := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var step struct {
			Seat  *int
			Nanos int64 `json:"decision_ns"`
		}
		if json.Unmarshal([]byte(line), &step) == nil && step.Seat != nil {
			steps++
			if step.Nanos > 0 {
				timed++
			}
		}
	}
	if steps < 100 || timed != steps {
		t.Errorf("%d of %d decisions timed; want every one", timed, steps)
	}
	if code, out, errOut := arbiter(t, "", "replay", dir+"/game-0001.jsonl"); code != 0 {
		t.Errorf("a timed record does not replay: %s %s", out, errOut)
	}
}

func TestTimingsWithoutRecordsIsRefused(t *testing.T) {
	// The times are written in the records alone: without --record,
	// --timings was taken and nothing held them (the report and the
	// training lines are the same bytes with it or without).
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--timings", "--report", "json")
	if code != 2 || out != "" || !strings.Contains(errOut, "--timings has no effect without --record") {
		t.Errorf("exit %d, %.200q, %q; want 2 and --record named", code, out, errOut)
	}
}

func TestHelpFitsEightyColumns(t *testing.T) {
	// Every --help is read at a terminal of 80 columns: a flag's usage
	// carries on under its column, a command's description under its
	// own, prose under its indentation. A command to copy stays whole.
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		code, out, errOut := arbiter(t, "", append(slices.Clone(path), "--help")...)
		if code != 0 {
			t.Fatalf("%v --help: exit %d %s", path, code, errOut)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 && !strings.HasPrefix(line, "  arbiter ") {
				t.Errorf("arbiter %s --help: a line of %d columns: %q", strings.Join(path, " "), n, line)
			}
		}
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(newRoot(), nil)
	// The flags' usages carry on under their column.
	_, out, _ := arbiter(t, "", "play", "tncc", "--help")
	if !strings.Contains(out, "      --bank duration             a time bank per seat for the whole game, drawn\n                                  on when a decision overruns --deadline\n") {
		t.Errorf("play tncc --help:\n%s", out)
	}
}

func TestHelpProseHasNoShortLinesWithin(t *testing.T) {
	// A help text that names a game's title or default players (the
	// duel's: "sensible,sensible,sensible,sensible,sensible") was broken by
	// hand around a shorter name, and left a line of two or three words
	// in the middle of its paragraph ("from pair to pair"). Prose is filled:
	// no line of a paragraph stops short where the next line's first word
	// would have fitted.
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		_, out, _ := arbiter(t, "", append(slices.Clone(path), "--help")...)
		lines := strings.Split(out, "\n")
		for i := 0; i+1 < len(lines); i++ {
			line, next := lines[i], lines[i+1]
			if line == "" || next == "" || strings.HasPrefix(line, " ") || strings.HasPrefix(next, " ") || strings.HasSuffix(line, ":") || strings.HasSuffix(line, ".") {
				continue // not prose running on
			}
			first, _, _ := strings.Cut(next, " ")
			if n := utf8.RuneCountInString(line); n < 40 && n+1+utf8.RuneCountInString(first) <= helpWidth {
				t.Errorf("arbiter %s --help: a line stops short in its paragraph: %q, then %q", strings.Join(path, " "), line, next)
			}
		}
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(newRoot(), nil)
}

func TestGamesOfOneGame(t *testing.T) {
	// "arbiter games zombie", to see one game's players and options, was
	// refused (it took no arguments). With games named it lists those
	// alone, as text and as JSON; a name that is no game's is refused with
	// the nearest.
	code, out, errOut := arbiter(t, "", "games", "zombie")
	if code != 0 || !strings.Contains(out, "\nzombie\n  players: sensible,") || strings.Contains(out, "ajveciv") || strings.Contains(out, "tncc") {
		t.Errorf("games zombie: exit %d, %s%s", code, out, errOut)
	}
	code, out, _ = arbiter(t, "", "games", "--json", "tncc", "reaj")
	var list []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 || list[0].Name != "reaj" || list[1].Name != "tncc" {
		t.Errorf("games --json tncc reaj: exit %d, %v: %s", code, err, out)
	}
	code, out, errOut = arbiter(t, "", "games", "zombi")
	if code != exitUsage || out != "" || !strings.Contains(errOut, `unknown game "zombi"; did you mean zombie?`) {
		t.Errorf("games zombi: exit %d, %q %q", code, out, errOut)
	}
}

func TestGamesFitEightyColumns(t *testing.T) {
	// arbiter games is read at a terminal of 80 columns: a title carries
	// on under its column, a list of players under its first name.
	code, out, _ := arbiter(t, "", "games")
	if code != 0 {
		t.Fatalf("games: exit %d", code)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("arbiter games: a line of %d columns: %q", n, line)
		}
	}
	for _, want := range []string{
		"ajveciv      2-20   AjveCiv: guide an engineered people as they settle an alien\n                    world\n",
		"  players: basic, basic.<value>, basic2, basic2.<value>-<value>, basic3,\n           basic3.<value>-<value>-<value>,",
		// A name is quoted, as --help quotes it: not "(default default)".
		`  option --preset (default "default"): the numbers of the game:`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("arbiter games lacks %q:\n%s", want, out)
		}
	}
}

func TestAGameMissingIsListed(t *testing.T) {
	// Every command that takes a game names the games when none is given,
	// as arbiter play does.
	games := strings.Join(catalog.Names(), ", ")
	for _, args := range [][]string{{"rules"}, {"step"}, {"play"}, {"tournament"}, {"duel"}, {"rules", "reaj", "tncc"}} {
		code, _, errOut := arbiter(t, "", args...)
		if code != 2 || !strings.Contains(errOut, games) {
			t.Errorf("arbiter %s: exit %d %q; want exit 2 and the games: %s", strings.Join(args, " "), code, errOut, games)
		}
	}
}

func TestUnknownFlagSaysWhereItBelongs(t *testing.T) {
	// A designer gives one game's option to another, or a flag to the
	// wrong command, or mistypes one: the error says which commands take
	// it, or the flag meant.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "reaj", "--preset", "tribe"}, "unknown flag: --preset; --preset is a flag of arbiter play tncc, arbiter duel tncc or arbiter tournament tncc (arbiter play reaj --help lists its flags)"},
		{[]string{"play", "tncc", "--seats", "3"}, "--seats is a flag of arbiter tournament GAME or arbiter load"},
		{[]string{"--seed", "3"}, "--seed is a flag of arbiter ai, arbiter duel GAME, arbiter play GAME,"},
		{[]string{"play", "ajveciv", "--sed", "3"}, "unknown flag: --sed; did you mean --seed?"},
		{[]string{"play", "ajveciv", "--colour", "red"}, "unknown flag: --colour; arbiter play ajveciv --help lists its flags"},
		// Another tool's name of a flag, its words around this one's.
		{[]string{"duel", "reaj", "adapt", "steward", "--max-games", "100"}, "unknown flag: --max-games; did you mean --games? (arbiter duel reaj --help lists its flags)"},
		// A mistyped game makes every flag of the game unknown: the game is
		// what was wrong, and the error says so, as it does with no flags.
		{[]string{"play", "tnc", "--seed", "1"}, `unknown game "tnc"; did you mean tncc?`},
		{[]string{"tournament", "TNCC", "--players", "war,blitz", "--preset", "tribe"}, `unknown game "TNCC"; did you mean tncc?`},
		{[]string{"duel", "reajj", "adapt", "steward", "--seed", "1"}, `unknown game "reajj"; did you mean reaj?`},
	} {
		code, _, errOut := arbiter(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("arbiter %s: exit %d %q; want exit 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

func TestReadmeNamesTheGoItNeeds(t *testing.T) {
	// "You need Go X or later": the version go.mod requires, which an
	// older Go would have to download before it builds anything.
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "You need Go " + string(m[1]) + " or later"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q, the go line of go.mod", want)
	}
}

func TestEmptyOptionsAreRefused(t *testing.T) {
	// As --players "" is: --preset "" (a script's unset variable) is
	// refused, rather than played as the default and reported as
	// "options: preset=", an option of no name.
	for _, args := range [][]string{
		{"play", "tncc", "--preset", ""},
		{"play", "tncc", "--preset", " "},
		{"tournament", "tncc", "--players", "war,blitz", "--preset", ""},
		{"play", "territories", "--board", ""},
	} {
		code, out, errOut := arbiter(t, "", append(args, "--seed", "1")...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--"+args[len(args)-2][2:]+" is empty; want ") {
			t.Errorf("%q: exit %d, %q, %q; want exit 2 naming the empty flag", args, code, out, errOut)
		}
	}
}

func TestEmptyPlayersAreRefused(t *testing.T) {
	// --players "" (a script's unset variable) is refused as --players " "
	// is, rather than played as the default players.
	for _, list := range []string{"", " "} {
		code, out, errOut := arbiter(t, "", "play", "reaj", "--players", list, "--turns", "1", "--seed", "1")
		if code != 2 || out != "" || !strings.Contains(errOut, "--players") {
			t.Errorf("--players %q: exit %d, %q, %q; want exit 2, nothing played", list, code, out, errOut)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	// "arbiter version", as other tools take it, says what --version says.
	_, want, _ := arbiter(t, "", "--version")
	code, out, errOut := arbiter(t, "", "version")
	if code != 0 || out != want {
		t.Errorf("arbiter version: exit %d, %q %q; want %q", code, out, errOut, want)
	}
}

func TestOptionErrorsNameTheirFlag(t *testing.T) {
	// A value a game refuses is named by the flag that gave it, as every
	// other flag's is: "--preset "tribble": ...", not "option preset: ...".
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "tncc", "--preset", "tribble"}, `arbiter: --preset "tribble": unknown preset "tribble"; presets: default, tribe,`},
		{[]string{"tournament", "tncc", "--players", "blitz,war", "--preset", "tribble"}, `arbiter: --preset "tribble": unknown preset`},
		{[]string{"duel", "tncc", "blitz", "war", "--preset", "tribble"}, `arbiter: --preset "tribble": unknown preset`},
		{[]string{"play", "territories", "--board", "nope"}, `arbiter: --board "nope": config: line 1:`},
	} {
		code, _, errOut := arbiter(t, "", c.args...)
		if code != 2 || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("arbiter %s: exit %d %q; want exit 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

func TestMissingConfigSaysHowToWriteOne(t *testing.T) {
	// The README's start and TNCC's section give --config my-preset.yaml,
	// a file the reader has yet to write, and arbiter answered only "no
	// such file or directory". It now says what the file holds and where
	// the rules tell how.
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "tncc", "--players", "marshal,blitz,turtle,war", "--seats", "4", "--config", dir + "/my-preset.yaml", "--seed", "1"},
			"as arbiter rules tncc tells: --config takes a preset of your own in YAML: every key of the rules' table, or base: NAME"},
		{[]string{"play", "territories", "--config", dir + "/mine.yaml"}, "as arbiter rules territories tells: --config takes a configuration of your own"},
	} {
		code, _, errOut := arbiter(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, "no such file or directory; write one first, "+c.want) {
			t.Errorf("arbiter %s: exit %d %q; want exit 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

func TestSummaryCountsHowTheGamesEnded(t *testing.T) {
	// A designer trying --zombies 2 wanted to know which side it favours,
	// and the summary gave only each player's wins: with sensible in every
	// seat, one line for both sides. The summary now counts the games by
	// how they ended, the reason up to its colon ("zombies win: every
	// player is a zombie"), in text and in JSON; the counts add up to the
	// finished games.
	args := []string{"play", "zombie", "--zombies", "2", "--games", "40", "--seed", "1"}
	code, out, errOut := arbiter(t, "", append(args, "--report", "summary-json")...)
	var summary struct {
		Finished int
		Endings  []struct {
			Reason string
			Games  int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &summary) != nil {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	sum, text := 0, "  ended: "
	for i, e := range summary.Endings {
		if e.Reason != "humans win" && e.Reason != "zombies win" {
			t.Errorf("an ending %q; want each side's win", e.Reason)
		}
		sum += e.Games
		if i > 0 {
			text += ", "
		}
		text += fmt.Sprintf("%s (%d)", e.Reason, e.Games)
	}
	if sum != summary.Finished || summary.Finished != 40 || len(summary.Endings) != 2 {
		t.Errorf("endings %+v of %d finished games; want both sides' counts adding up to 40", summary.Endings, summary.Finished)
	}
	_, out, _ = arbiter(t, "", append(args, "--report", "summary")...)
	if !strings.Contains(out, "\n"+text+"\n") {
		t.Errorf("the text summary lacks %q:\n%s", text, out)
	}
}

func TestSummarySaysThatEachSeatCounts(t *testing.T) {
	// Territories' default players are greedy, greedy and random: a
	// summary of one game gives greedy 2 games, and --help and the README
	// say why, where a newcomer read 2 games of a series of 1 as a fault.
	code, out, errOut := arbiter(t, "", "play", "territories", "--seed", "1", "--turns", "3", "--report", "summary-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var summary struct {
		Games     int
		Standings []struct {
			Player string
			Games  int
		}
	}
	if err := json.Unmarshal([]byte(out), &summary); err != nil || summary.Games != 1 || len(summary.Standings) == 0 || summary.Standings[0].Player != "greedy" || summary.Standings[0].Games != 2 {
		t.Fatalf("%v: %s; want greedy with 2 games of a series of 1", err, out)
	}
	_, help, _ := arbiter(t, "", "play", "--help")
	if !strings.Contains(words(help), "games (a player in two seats of a game counts two)") {
		t.Errorf("play --help does not say that each seat counts:\n%s", help)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "a player in two seats of one game counts two") {
		t.Error("the README does not say that each seat counts")
	}
}
