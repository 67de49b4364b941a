package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// What a bot writer is told when their program misbehaves in a duel or a
// tournament.

func TestDuelStopsWhenAProgramNeverPlays(t *testing.T) {
	// A program that never flushes its ready loses every game by its
	// start-up timeout: a duel of 1000 games stops after its first, names
	// the program and its fault with the hint, and gives no verdict. The
	// start-up limit of a second leaves the watchdog behind it 3 s
	// (engine.Grace): room for a loaded machine to launch and end the
	// program, so that the fault is the player's own "start".
	need(t, "python3")
	bot := misbehave("unflushed")
	out := filepath.Join(t.TempDir(), "duel.jsonl")
	code, stdout, errOut := arbiter(t, "", "duel", "reaj", bot, "adapt", "--field", "none", "--seed", "1", "--turns", "5",
		"--games", "40", "--startup", "1s", "--parallel", "2", "--out", out, "--bot-logs", t.TempDir())
	if code != exitRefused {
		t.Errorf("exit %d; want %d", code, exitRefused)
	}
	for _, want := range []string{strings.TrimPrefix(bot, "exec:"), "never answered in its first game (game 1", "(start)", "a program must flush each line it writes"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(stdout, "weaker") || strings.Contains(stdout, "Elo") {
		t.Errorf("a verdict about a program that never played:\n%s", stdout)
	}
	if data, _ := os.ReadFile(out); bytes.Contains(data, []byte(`{"pair":`)) {
		t.Errorf("the duel file holds pairs:\n%s", data)
	}
}

func TestTournamentStopsWhenAProgramNeverPlays(t *testing.T) {
	need(t, "python3")
	out := filepath.Join(t.TempDir(), "r.jsonl")
	code, stdout, errOut := arbiter(t, "", "tournament", "reaj", "--players", "adapt", "--player", misbehave("nostart"), "--seats", "2",
		"--games", "20", "--seed", "1", "--turns", "5", "--parallel", "2", "--out", out, "--bot-logs", t.TempDir())
	if code != exitRefused || !strings.Contains(errOut, "never answered in its first game (game 1") || !strings.Contains(errOut, "exited with code 3") {
		t.Errorf("exit %d; want %d and the program's fault\n%s", code, exitRefused, errOut)
	}
	if !strings.Contains(stdout, "Only 1 of the 40 games were played") {
		t.Errorf("standings:\n%s", stdout)
	}
	data, _ := os.ReadFile(out)
	if n := bytes.Count(data, []byte(`{"game":`)); n != 1 {
		t.Errorf("the results hold %d games; want the one played", n)
	}
}

func TestDuelProgressTellsFaults(t *testing.T) {
	tally := tournament.Tally{Faults: [2]int{3, 0}}
	tally.Pentanomial.Add(sprt.Loss, sprt.Loss)
	if line := progressLine(&tally); !strings.HasSuffix(line, "Faults A/B 3/0") {
		t.Errorf("progress %q; want the faults", line)
	}
	if lines := progressLines(&tally); !strings.HasSuffix(lines, "  Faults A/B 3/0\n") {
		t.Errorf("progress %q; want the faults", lines)
	}
	tally.Faults = [2]int{}
	if line := progressLine(&tally); strings.Contains(line, "Faults") {
		t.Errorf("progress %q; want no faults", line)
	}
	if lines := progressLines(&tally); strings.Contains(lines, "Faults") {
		t.Errorf("progress %q; want no faults", lines)
	}
}

func TestDuelSaysWhatFaultsAPlayerMade(t *testing.T) {
	// As a tournament's standings do: kind by kind, with what the first
	// of each said.
	need(t, "python3")
	bot := misbehave("exits")
	code, out, errOut := arbiter(t, "", "duel", "reaj", bot, "adapt", "--field", "none", "--games", "2", "--seed", "1", "--turns", "3",
		"--keep-going", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "Faults of " + strings.TrimSpace(bot) + ": 2 crash (the program exited with code 0), 4 abandoned (default moves once its seat was given up)"
	if !strings.Contains(words(out), want) { // as the words read, whatever the lines
		t.Errorf("result:\n%s\nwant it to hold%s", out, want)
	}
}

func TestDuelNamesAProgramByItsReadyName(t *testing.T) {
	// The verdict names a program as the lines above it do: by the name
	// it gave in its ready.
	need(t, "python3")
	bot, _ := filepath.Abs("../../starters/python/bot.py")
	code, out, errOut := arbiter(t, "", "duel", "reaj", "exec:python3 "+bot, "adapt", "--field", "none", "--games", "2", "--seed", "1", "--turns", "3",
		"--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if says := lines[len(lines)-1]; !strings.Contains(says, "python starter") || strings.Contains(says, "exec:") {
		t.Errorf("the verdict %q; want the program by its ready name\n%s", says, out)
	}
}

func TestBotFlagsHelp(t *testing.T) {
	// A duel's and a tournament's help list the external players, and
	// --strikes says which fault forfeits.
	for _, cmd := range [][]string{{"duel", "reaj", "--help"}, {"tournament", "reaj", "--help"}} {
		_, out, _ := arbiter(t, "", cmd...)
		out = words(out)
		for _, want := range []string{"exec:COMMAND", "http:// or https:// URL", "with 2, the second fault forfeits it"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the help does not say %q", strings.Join(cmd, " "), want)
			}
		}
	}
}

func TestAStopNamesAProgramAsTheStandingsDo(t *testing.T) {
	// A program that says ready, with a name, and then never answers: the
	// message that stops play gives the name it gave itself, which the
	// standings and the duel's lines use, beside its command.
	spec := "exec:sh " + shellBot(t, "", "Sleepy", "")
	for _, args := range [][]string{
		{"tournament", "reaj", "--players", "adapt", "--player", spec, "--seats", "2", "--games", "4", "--parallel", "1"},
		{"duel", "reaj", spec, "adapt", "--field", "none", "--games", "4", "--parallel", "1"},
	} {
		args = append(args, "--seed", "1", "--turns", "2", "--deadline", "50ms")
		code, _, errOut := arbiter(t, "", args...)
		want := "Sleepy (" + spec + ") never answered in its first game"
		if code != exitRefused || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d; want %d and %q:\n%s", args[0], code, exitRefused, want, errOut)
		}
	}
}
