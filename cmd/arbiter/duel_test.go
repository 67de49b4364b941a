package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// runBinary runs the arbiter binary to its end and returns its exit code
// and output.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(arbiterBinary(t), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// ptnmlRE finds the pentanomial counts a duel prints.
var ptnmlRE = regexp.MustCompile(`Ptnml\(0-2\):? \[(\d+), (\d+), (\d+), (\d+), (\d+)\]`)

// ptnml reads the last pentanomial counts in out.
func ptnml(t *testing.T, out string) sprt.Pentanomial {
	t.Helper()
	all := ptnmlRE.FindAllStringSubmatch(out, -1)
	if all == nil {
		t.Fatalf("no Ptnml(0-2) in:\n%s", out)
	}
	var p sprt.Pentanomial
	for i := range p {
		p[i], _ = strconv.Atoi(all[len(all)-1][i+1])
	}
	return p
}

func TestDuelStopsWhenSure(t *testing.T) {
	// "With --sprt it stops when the test accepts H0 or H1 (and says
	// which, in words a bot writer understands)"; "deterministic given the
	// seed (same seed → same games, same result, whatever --parallel)";
	// "a progress line in the engine testers' form, updated in place at a
	// terminal, lines of 80 columns at most per report otherwise".
	var first string
	for _, parallel := range []string{"1", "3"} {
		code, out, errOut := runBinary(t, "duel", "zombie", "sensible", "spreader", "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "--seed", "1", "--parallel", parallel)
		if code != 0 {
			t.Fatalf("--parallel %s: exit %d\n%s", parallel, code, errOut)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("--parallel %s prints another result:\n%s\nwith --parallel 1:\n%s", parallel, out, first)
		}
		p := ptnml(t, out)
		games := 2 * p.Pairs()
		test := sprt.DefaultTest
		llr := test.LLR(p)
		for _, want := range []string{
			"zombie duel ", ": sensible vs spreader, field sensible, sensible, sensible, sensible, sensible (7 seats), seed 1",
			fmt.Sprintf("Games %d (%d pairs): sensible won ", games, p.Pairs()),
			fmt.Sprintf("LLR: %.2f (-2.94, 2.94) [0, 5], normalized Elo", llr),
			fmt.Sprintf("H1 accepted after %d games: sensible is stronger than spreader. The difference is nearer +5 nElo (elo1) than +0 (elo0)", games),
		} {
			if !strings.Contains(words(out), want) { // as the words read, whatever the lines
				t.Errorf("the result lacks %q:\n%s", want, out)
			}
		}
		if test.Decide(llr) != sprt.AcceptH1 || test.Decide(test.LLR(sprt.Pentanomial{p[0], p[1], p[2], p[3], p[4]})) != sprt.AcceptH1 {
			t.Errorf("LLR %v of %v does not accept H1", llr, p)
		}
		// Three lines every 100 games, and three of the last figures, in
		// the engine testers' form: the test and the games, the estimates,
		// the pairs, each line beginning with the games so far and no
		// wider than 80 columns.
		var lines []string
		for _, l := range strings.Split(errOut, "\n") {
			if strings.HasPrefix(l, "Games ") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 3*(games/100+1) || !strings.HasPrefix(lines[len(lines)-1], fmt.Sprintf("Games %d: ", games)) {
			t.Fatalf("%d progress lines for %d games; want three every 100 and three of the last:\n%s", len(lines), games, errOut)
		}
		forms := []*regexp.Regexp{
			regexp.MustCompile(`^Games (\d+): LLR -?\d+\.\d\d \(-2\.94, 2\.94\) \[0, 5\]  W/L/D \d+/\d+/\d+$`),
			regexp.MustCompile(`^Games (\d+): Elo -?\d+\.\d ± \d+\.\d \(95%\)  nElo -?\d+\.\d ± \d+\.\d$`),
			regexp.MustCompile(`^Games (\d+): Ptnml\(0-2\) \[\d+, \d+, \d+, \d+, \d+\]$`),
		}
		for i, l := range lines {
			m := forms[i%3].FindStringSubmatch(l)
			if want := strconv.Itoa(min(100*(i/3+1), games)); m == nil || m[1] != want {
				t.Errorf("progress line %d: %q", i+1, l)
			}
			if n := wrap.Cells(l); n > 80 {
				t.Errorf("progress line %d is %d columns: %q", i+1, n, l)
			}
		}
	}
}

func TestDuelProgressLinesFit80Columns(t *testing.T) {
	// Off a terminal the progress goes to a log a line at a time: every
	// line no wider than 80 columns and beginning with the games so far,
	// whatever the counts (a million games, an LLR near its bound, every
	// pair even, faults), and no field cut or lost: the lines hold the
	// fields of the one line a terminal shows.
	normalized, logistic := sprt.DefaultTest, sprt.DefaultTest
	logistic.Model = sprt.Logistic
	logistic.Elo0, logistic.Elo1 = -1.5, 3.25
	for _, tc := range []struct {
		test   *sprt.Test
		p      sprt.Pentanomial
		faults [2]int
	}{
		{&normalized, sprt.Pentanomial{22, 140, 2217, 182, 42}, [2]int{}},
		{&normalized, sprt.Pentanomial{123456, 98765, 234567, 87654, 12345}, [2]int{123456, 7}},
		{&logistic, sprt.Pentanomial{9, 1, 3, 0, 0}, [2]int{0, 2}},
		{nil, sprt.Pentanomial{0, 0, 500000, 0, 0}, [2]int{}}, // every pair even
		{nil, sprt.Pentanomial{1, 22, 333, 4444, 55555}, [2]int{1, 1}},
		{&normalized, sprt.Pentanomial{0, 0, 0, 0, 1}, [2]int{}}, // every game won
	} {
		tally := tournament.Tally{Test: tc.test, Pentanomial: tc.p, Faults: tc.faults}
		tally.Trinomial = sprt.Trinomial{tc.p[4]*2 + tc.p[3], tc.p[0]*2 + tc.p[1], tc.p[1] + tc.p[2]*2 + tc.p[3]}
		if tc.test != nil {
			tally.LLR = tc.test.LLR(tc.p)
		}
		head := fmt.Sprintf("Games %d: ", 2*tc.p.Pairs())
		out := progressLines(&tally)
		var fields []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if n := wrap.Cells(l); n > 80 {
				t.Errorf("a line of %d columns: %q\n%s", n, l, out)
			}
			rest, ok := strings.CutPrefix(l, head)
			if !ok {
				t.Errorf("%q does not begin with %q\n%s", l, head, out)
			}
			fields = append(fields, strings.Split(rest, "  ")...)
		}
		want := strings.Split(strings.TrimPrefix(progressLine(&tally), head), "  ")
		slices.Sort(fields)
		slices.Sort(want)
		if !slices.Equal(fields, want) {
			t.Errorf("the lines hold\n%s\nwant the fields of\n%s", out, progressLine(&tally))
		}
	}
}

// TestDuelResultFits80Columns: the result of README's duel, thousands of
// games won, lost and drawn, fits a terminal of 80 columns, its numbers
// whole.
func TestDuelResultFits80Columns(t *testing.T) {
	code, out, errOut := runBinary(t, "duel", "zombie", "sensible", "cautious", "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("a line of the result is wider than 80 columns: %q", l)
		}
	}
	p := ptnml(t, out)
	want := fmt.Sprintf("Games %d (%d pairs): sensible won ", 2*p.Pairs(), p.Pairs())
	if !strings.Contains(words(out), want) {
		t.Errorf("the result lacks %q:\n%s", want, out)
	}
}

func TestDuelFixedGames(t *testing.T) {
	// "Without --sprt it plays --games (pairs×2) and reports Elo with its
	// error bar."
	code, out, errOut := runBinary(t, "duel", "territories", "greedy", "random", "--field", "none", "--games", "40", "--seed", "2", "--turns", "30")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, re := range []string{
		`territories duel [0-9a-f]{16}: greedy vs random, seed 2 \(board=sample\s+turns=30\)\n`,
		`Games 40 \(20 pairs\): greedy won \d+, lost \d+, drew \d+: \d+\.\d% of the points\n`,
		`Ptnml\(0-2\): \[\d+, \d+, \d+, \d+, \d+\]\n`,
		// Error bars are at 95%; a difference beyond measure has none.
		`Elo: (-?\d+\.\d ± \d+\.\d, nElo: -?\d+\.\d ± \d+\.\d \(95%\)|\+∞ \(every game won\), nElo: \+∞ \(every game won\)), LOS: \d+\.\d%\n`,
		`(greedy is stronger than random: at 95% the difference is above 0\.|Not yet known which is stronger)`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the result does not match %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "LLR") || strings.Count(errOut, "\nGames ") != 3 || !strings.Contains(errOut, "\nGames 40: W/L/D ") || !strings.Contains(errOut, "\nGames 40: Elo ") || strings.Contains(errOut, "LLR") {
		t.Errorf("a duel without --sprt has no LLR, and its progress ends with its 40 games:\n%s\n%s", out, errOut)
	}
	if p := ptnml(t, out); p.Pairs() != 20 {
		t.Errorf("%v: %d pairs; want 20", p, p.Pairs())
	}
	// --json says the same to a program.
	code, out, errOut = arbiter(t, "", "duel", "territories", "greedy", "random", "--field", "none", "--games", "40", "--seed", "2", "--turns", "30", "--json")
	var res struct {
		ID    string
		Duel  tournament.Duel
		State tournament.DuelState
		Elo   sprt.Estimate
		LOS   float64
		Says  string
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if res.ID != res.Duel.ID() || res.Duel.A != "greedy" || res.State.Pairs != 20 || res.State.Trinomial.Games() != 40 || res.Says == "" || res.Elo.Error <= 0 {
		t.Errorf("--json: %+v", res)
	}
}

// gateBot is an external player, playing the default moves, that stops
// answering in game number game, once: when the file marker does not
// exist yet, it makes it, and then waits for its input to close.
func gateBot(game int, marker string) string {
	return misbehave("gate", strconv.Itoa(game), marker)
}

// startGated starts arbiter with args, whose gate bot (gateBot) makes
// marker and stops answering at a game, and waits until it stands there
// and kept holds; it fails saying what otherwise. Only a hung machine
// takes two minutes: the limit tells a test that hangs from one that
// fails. The run is killed when the test ends; its standard error is the
// buffer returned.
func startGated(t *testing.T, args []string, marker string, kept func() bool, what string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(arbiterBinary(t), args...)
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	limit := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(marker); err == nil && kept() {
			return cmd, stderr
		}
		if time.Now().After(limit) {
			t.Fatalf("%s:\n%s", what, stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pairLines counts the pairs a duel file holds.
func pairLines(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte("\n{\"pair\":"))
}

func TestDuelStoppedGoesOn(t *testing.T) {
	// "An interrupted duel (Ctrl-C, kill -9) run again with the same --out
	// continues where it stopped, and arrives at the same decision as an
	// uninterrupted one": a real process is stopped in the middle of the
	// duel, in a game its field player never answers, which it cannot get
	// past (the start-up limit is an hour), so that it is stopped there
	// whatever the machine's speed.
	need(t, "python3")
	dir := t.TempDir()
	marker := filepath.Join(dir, "gate")
	duel := func(out string) []string {
		return []string{"duel", "territories", "greedy", "random", "--field", gateBot(7, marker), "--turns", "30",
			"--sprt", "elo0=0,elo1=100,alpha=0.1,beta=0.1", "--seed", "1", "--out", out, "--parallel", "2", "--startup", "1h",
			"--bot-logs", filepath.Join(dir, "logs")}
	}
	// The duel played through: the gate is open.
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	code, want, errOut := runBinary(t, duel(whole)...)
	if code != 0 || !strings.Contains(want, "H1 accepted after ") {
		t.Fatalf("exit %d\n%s\n%s", code, want, errOut)
	}
	wantFile, _ := os.ReadFile(whole)
	pairs := pairLines(whole)
	if pairs <= 4 {
		t.Fatalf("the duel decided after %d pairs; the test stops it at pair 4", pairs)
	}

	// stop starts the duel in out, waits until it stands at the gate (game
	// 7, pair 4) with pair 1 in its file, and sends it sig.
	stop := func(t *testing.T, out string, sig os.Signal) (int, string) {
		t.Helper()
		os.Remove(marker)
		cmd, stderr := startGated(t, duel(out), marker, func() bool { return pairLines(out) >= 1 }, "the duel did not reach pair 4 with pair 1 kept")
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		}
		if n := pairLines(out); n < 1 || n > 3 {
			t.Fatalf("the stopped duel kept %d pairs; want 1 to 3 (it stood at pair 4)", n)
		}
		return code, stderr.String()
	}

	t.Run("kill -9", func(t *testing.T) {
		out := filepath.Join(dir, "killed.jsonl")
		stop(t, out, syscall.SIGKILL)
		// A kill may cut a line short as it is written: such a line is
		// left out, and its pair played again.
		f, err := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"pair":99,"outcome":"W`)
		f.Close()
		code, got, errOut := runBinary(t, duel(out)...)
		if code != 0 || got != want {
			t.Fatalf("resumed: exit %d\n%s\nuninterrupted:\n%s\n%s", code, got, want, errOut)
		}
		for _, say := range []string{"its last line was cut short when the duel was stopped; that pair is played again", "pairs played before; going on from pair "} {
			if !strings.Contains(errOut, say) {
				t.Errorf("resumed: stderr lacks %q:\n%s", say, errOut)
			}
		}
		if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, wantFile) {
			t.Errorf("the duel killed and resumed is not the duel played through:\n%s\nwant:\n%s", gotFile, wantFile)
		}
	})

	t.Run("Ctrl-C", func(t *testing.T) {
		out := filepath.Join(dir, "interrupted.jsonl")
		code, errOut := stop(t, out, os.Interrupt)
		if code != exitInternal || !strings.Contains(errOut, "arbiter: interrupted after ") ||
			!strings.Contains(errOut, out+" holds its ") || !strings.Contains(errOut, "run the same command again to go on") {
			t.Fatalf("exit %d; want 3 and how to go on:\n%s", code, errOut)
		}
		data, _ := os.ReadFile(out)
		if !bytes.Contains(data, []byte(`"ended":"interrupted"},"digest":"`)) {
			t.Errorf("the file does not end with the duel's state:\n%s", data)
		}
		code, got, errOut := runBinary(t, duel(out)...)
		if code != 0 || got != want {
			t.Fatalf("resumed: exit %d\n%s\nuninterrupted:\n%s\n%s", code, got, want, errOut)
		}
		// The same pairs as the duel played through.
		read := func(path string) *tournament.DuelFile {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			df, err := tournament.ReadDuel(f, path)
			if err != nil {
				t.Fatal(err)
			}
			return df
		}
		if a, b := read(out), read(whole); a.Tally.State("") != b.Tally.State("") || *a.Last != *b.Last {
			t.Errorf("resumed: %+v, %+v\nplayed through: %+v, %+v", a.Tally, *a.Last, b.Tally, *b.Last)
		}
		// And the same file: the state the interrupted run wrote at its
		// end is replaced by the pairs that follow it (it stayed in the
		// middle of the file, which then differed from the duel played
		// through).
		if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, wantFile) {
			t.Errorf("the duel interrupted and resumed is not the duel played through:\n%s\nwant:\n%s", gotFile, wantFile)
		}
	})
}

func TestDuelRefusals(t *testing.T) {
	dir := t.TempDir()
	notDuel := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDuel, []byte("my notes\n"), 0o644)
	other := filepath.Join(dir, "other.jsonl")
	if code, _, errOut := arbiter(t, "", "duel", "zombie", "sensible", "random", "--games", "2", "--seed", "1", "--out", other); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"duel", "reaj", "steward"}, "arbiter duel reaj takes two players, A and B"},
		{[]string{"duel", "zombie", "sensible"}, "(e.g. arbiter duel zombie searcher.zombie searcher.human); got 1 argument"},
		{[]string{"duel", "zombie", "sensible", "sensible"}, "A and B are both sensible: a duel measures one player against another; give two different players"},
		{[]string{"duel", "chess", "a", "b"}, `unknown game "chess"; games: ajveciv, reaj, tncc, zombie, territories`},
		{[]string{"duel", "reaj", "fixed", "steward"}, "A: fixed stands for 6 players (conquer, exchange, expand, develop, consent, adapt); a duel is between two: name one of them"},
		{[]string{"duel", "reaj", "steward", "nobody"}, `B: unknown player "nobody"`},
		{[]string{"duel", "reaj", "steward", "repl"}, "B: repl is a person"},
		{[]string{"duel", "reaj", "steward", "adapt", "--games", "3"}, "--games 3: a duel plays pairs of games; give an even number from 2 to 10000000"},
		{[]string{"duel", "reaj", "steward", "adapt", "--parallel", "100000000"}, "--parallel 100000000: give the number of games to play at once, from 1 to 10000"},
		{[]string{"duel", "reaj", "steward", "adapt", "--sprt", "elo0=5,elo1=1"}, `--sprt "elo0=5,elo1=1": elo0=5, elo1=1: elo0 (H0) must be less than elo1 (H1)`},
		{[]string{"duel", "reaj", "steward", "adapt", "--sprt", "elo0=0,gamma=1"}, `unknown key "gamma"; the keys are elo0, elo1, alpha, beta`},
		{[]string{"duel", "reaj", "steward", "adapt", "--elo-model", "logistic"}, "--elo-model is the Elo of --sprt's bounds; give --sprt too"},
		{[]string{"duel", "reaj", "steward", "adapt", "--sprt", "elo1=5", "--elo-model", "bayes"}, `--elo-model: elo model "bayes"; want normalized or logistic`},
		{[]string{"duel", "territories", "greedy", "random", "--field", "greedy,greedy,greedy,greedy,greedy"}, "territories takes 2 to 6 seats; greedy, random and a field of 5 make 7"},
		{[]string{"duel", "zombie", "sensible", "random", "--field", "none"}, "zombie takes 3 to 64 seats; sensible, random and a field of 0 make 2"},
		{[]string{"duel", "reaj", "steward", "adapt", "--field", "fixed,,random"}, `--field "fixed,,random": name 2 of 3 is empty`},
		{[]string{"duel", "reaj", "steward", "adapt", "--field", "repl"}, "--field: repl is a person"},
		{[]string{"duel", "reaj", "steward", "adapt", "--turns", "0"}, "--turns 0: allowed 1 to"},
		{[]string{"duel", "reaj", "steward", "adapt", "--force"}, "--force replaces --out FILE; give --out too"},
		{[]string{"duel", "reaj", "steward", "adapt", "--out", dir}, "is a directory; give a file name"},
		{[]string{"duel", "reaj", "steward", "adapt", "--out", notDuel}, "the file exists and is not a duel this Arbiter can go on with"},
		{[]string{"duel", "zombie", "sensible", "cautious", "--seed", "1", "--out", other}, "it holds another duel (zombie duel "},
		{[]string{"duel", "zombie", "sensible", "random", "--seed", "1", "--out", other, "--sprt", "elo1=5"}, "it holds a duel of a fixed number of games, without --sprt; continue it without --sprt, or give another --out, or --force to replace it with this duel"},
		// Without --seed, the file's seed is taken to go on with it, but
		// --force draws another: the refusal describes this duel with its
		// seed to be drawn, not on the file's.
		{[]string{"duel", "zombie", "sensible", "cautious", "--out", other}, "not this one (zombie duel: sensible vs cautious, field sensible, sensible, sensible, sensible, sensible (7 seats) (antibodies=0 turns=5 viruses=0 zombies=1), its seed to be drawn); give another --out, the same game, players, field and options to continue it, or --force to replace it with this duel on a seed drawn at random (--force --seed N: on seed N)"},
		{[]string{"duel", "zombie", "sensible", "random", "--out", other, "--sprt", "elo1=5"}, "or --force to replace it with this duel on a seed drawn at random (--force --seed N: on seed N)"},
	} {
		code, out, errOut := arbiter(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.says) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", strings.Join(c.args, " "), code, out, errOut, c.says)
		}
	}
	// The file refused is left as it was.
	if data, _ := os.ReadFile(notDuel); string(data) != "my notes\n" {
		t.Errorf("a refused file was changed: %q", data)
	}
}

func TestDuelAlreadyDecided(t *testing.T) {
	// A duel whose file holds its decision plays no more: it says it again.
	out := filepath.Join(t.TempDir(), "duel.jsonl")
	args := []string{"duel", "zombie", "sensible", "spreader", "--sprt", "elo0=0,elo1=50,alpha=0.2,beta=0.2", "--seed", "4", "--out", out}
	code, first, errOut := arbiter(t, "", args...)
	if code != 0 || !strings.Contains(first, " accepted after ") {
		t.Fatalf("exit %d\n%s\n%s", code, first, errOut)
	}
	before, _ := os.ReadFile(out)
	code, again, errOut := arbiter(t, "", args...)
	if code != 0 || again != first || !strings.Contains(errOut, "pairs played before; nothing more to play") {
		t.Errorf("again: exit %d\n%s\n%s\nfirst:\n%s", code, again, errOut, first)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Errorf("the file changed when nothing was played")
	}
	// Without --seed, a duel that goes on takes the file's.
	code, again, errOut = arbiter(t, "", "duel", "zombie", "sensible", "spreader", "--sprt", "elo0=0,elo1=50,alpha=0.2,beta=0.2", "--out", out)
	if code != 0 || again != first {
		t.Errorf("without --seed: exit %d\n%s\n%s", code, again, errOut)
	}
	// A smaller --games than the file holds is told, not silently
	// passed over.
	code, _, errOut = arbiter(t, "", "duel", "zombie", "sensible", "spreader", "--seed", "7", "--games", "8", "--out", out+".8")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	code, _, errOut = arbiter(t, "", "duel", "zombie", "sensible", "spreader", "--seed", "7", "--games", "2", "--out", out+".8")
	if want := "4 pairs (8 games) played before, more than --games 2; the result counts them all"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("a smaller --games: exit %d\n%s\nwant %q", code, errOut, want)
	}
}

// cloneArgs copies a list of arguments.
func cloneArgs(args []string) []string { return append([]string(nil), args...) }

func TestTournamentUntilCertain(t *testing.T) {
	// "arbiter tournament --until-certain [--confidence 0.95]: stops the
	// tournament when the order of its standings is settled at that
	// confidence (every pair of neighbours in the standings significantly
	// ordered) and otherwise, when --games runs out, says which neighbours
	// are still uncertain."
	dir := t.TempDir()
	args := []string{"tournament", "ajveciv", "--players", "basic.conquer,basic.develop,basic.expand,random", "--seats", "4", "--games", "100", "--until-certain", "--seed", "1"}
	var first string
	for _, parallel := range []string{"1", "2"} {
		out := filepath.Join(dir, "results-"+parallel+".jsonl")
		training := filepath.Join(dir, "training-"+parallel+".jsonl")
		code, stdout, errOut := arbiter(t, "", append(cloneArgs(args), "--parallel", parallel, "--out", out, "--export-training", training)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if first == "" {
			first = stdout
		} else if stdout != first {
			t.Fatalf("--parallel %s stops elsewhere:\n%s\nwith 1:\n%s", parallel, stdout, first)
		}
		m := regexp.MustCompile(`The order is settled at 95% after (\d+) of 400 games: each player is ahead of the next with a probability of at least 95%\.`).FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("no settled order:\n%s", stdout)
		}
		played, _ := strconv.Atoi(m[1])
		if played >= 400 || !strings.Contains(stdout, fmt.Sprintf("Only %s of the 400 games were played", m[1])) {
			t.Errorf("settled after %d games:\n%s", played, stdout)
		}
		// The results file holds the games played, and reads.
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tournament.NewReader(f, out)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			n++
		}
		f.Close()
		if n != played {
			t.Errorf("%s holds %d games; %d were played", out, n, played)
		}
		// The training lines are those of the same games, the last one
		// (the game that settled the order) too.
		games := map[int]bool{}
		for _, d := range readTraining(t, training) {
			games[d.Game] = true
		}
		if len(games) != played || !games[played] {
			t.Errorf("%s holds the decisions of %d games (game %d: %v); %d were played", training, len(games), played, games[played], played)
		}
	}
	code, stdout, errOut := arbiter(t, "", "tournament", "zombie", "--players", "sensible,cautious,spreader,random", "--seats", "4", "--games", "5", "--until-certain", "--confidence", "0.99", "--seed", "1")
	if code != 0 || !strings.Contains(stdout, "The order is not settled at 99% after all 20 games; still uncertain:\n  ") ||
		!regexp.MustCompile(`\n  \w+ above \w+: \d+\.\d% sure\n`).MatchString(stdout) || !strings.Contains(stdout, "Play more games (--games) to settle them.") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, errOut)
	}
	// Two players that tie in every game (Reaj's expand and develop both
	// score nothing) are said to be level, not 50% sure of an order that
	// more games would settle.
	code, stdout, errOut = arbiter(t, "", "tournament", "reaj", "--players", "fixed,steward", "--games", "3", "--until-certain", "--seed", "1")
	if code != 0 || !strings.Contains(stdout, "\n  expand and develop: level, with the same rating so far\n") ||
		!strings.Contains(stdout, "Play more games (--games) to settle them; players that tie in every game are never parted.") {
		t.Errorf("level players: exit %d\n%s\n%s", code, stdout, errOut)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--confidence", "0.9"}, "--confidence is for --until-certain; give both"},
		{[]string{"--until-certain", "--confidence", "1"}, "--confidence 1: give a probability from 0.5 to 0.999999"},
		{[]string{"--until-certain", "--shard", "0/2", "--seed", "1", "--out", filepath.Join(dir, "s.jsonl")}, "--until-certain cannot stop a shard"},
	} {
		code, _, errOut := arbiter(t, "", append([]string{"tournament", "tncc", "--players", "nothing,turtle", "--seats", "2"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d %s; want 2 and %q", c.args, code, errOut, c.says)
		}
	}
}

func FuzzParseField(f *testing.F) {
	for _, s := range []string{"none", "fixed", "greedy,greedy,random", " a , b ", ",", "none,a", "exec:python3 bot.py", "a\x00b", strings.Repeat("a,", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := parseField(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "--field") {
				t.Fatalf("parseField(%q): %q; want one line about --field", s, err)
			}
			return
		}
		if names == nil {
			t.Fatalf("parseField(%q): nil without an error; none is an empty list", s)
		}
		for _, n := range names {
			if n == "" || n != strings.TrimSpace(n) || strings.Contains(n, ",") || n == "none" {
				t.Fatalf("parseField(%q) = %q: name %q", s, names, n)
			}
		}
		if len(names) > 64 {
			t.Fatalf("parseField(%q): %d names", s, len(names))
		}
		// The names read back as they were given.
		if len(names) > 0 {
			again, err := parseField(strings.Join(names, ","))
			if err != nil || strings.Join(again, ",") != strings.Join(names, ",") {
				t.Fatalf("parseField(%q) = %q; again %q, %v", s, names, again, err)
			}
		}
	})
}

func TestDuelProgressOnTerminal(t *testing.T) {
	// "A progress line ... updated in place on a terminal": written over
	// itself, cut to the terminal's width, and cleared at the end.
	c, _ := startConsoleCols(t, 80, "duel", "zombie", "sensible", "spreader", "--sprt", "elo0=0,elo1=5", "--seed", "1")
	seen := c.expect("H1 accepted after ")
	if regexp.MustCompile(`\nGames \d+:`).MatchString(seen) || !strings.Contains(seen, "\rGames 2: LLR ") {
		t.Errorf("the progress is not one line written over itself:\n%q", seen)
	}
	updates := regexp.MustCompile("\r(Games [^\r\x1b]*)\x1b\\[K").FindAllStringSubmatch(seen, -1)
	if len(updates) < 2 {
		t.Fatalf("%d updates of the progress line; want the first pair's and the last's:\n%q", len(updates), seen)
	}
	for _, u := range updates {
		if n := wrap.Cells(u[1]); n >= 80 {
			t.Errorf("a progress line of %d columns on a terminal of 80: %q", n, u[1])
		}
	}
	// The last update is the deciding pair's, cut at 79 columns.
	if last := updates[len(updates)-1][1]; !regexp.MustCompile(`^Games \d+: LLR 2\.9\d \(-2\.94, 2\.94\) \[0, 5\]  Elo [-0-9.]+ ± [0-9.]+ \(95%\)`).MatchString(last) {
		t.Errorf("the last update: %q", last)
	}
	if !strings.Contains(seen, "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end:\n%q", seen)
	}
}

func TestDuelHeadingFitsTerminal(t *testing.T) {
	// A newcomer's first duel at a terminal of 80 columns: the result was
	// wrapped to fit, but the duel's description above the progress, on
	// standard error, was one line of 240 columns (and the test's, of 96).
	// At a terminal both wrap; piped, each stays one line, as README shows.
	c, cmd := startConsoleCols(t, 80, "duel", "ajveciv", "basic2.develop-consent", "basic3.discover-expand-develop",
		"--turns", "5", "--seed", "1", "--sprt", "elo0=0,elo1=5", "--games", "4", "--parallel", "1")
	seen := c.expect("Games 4 (2 pairs)")
	head := seen[:strings.Index(seen, "\rGames ")]
	for _, l := range strings.Split(head, "\n") {
		if l = strings.TrimRight(l, "\r"); utf8.RuneCountInString(l) > 80 {
			t.Errorf("a line of %d columns at a terminal of 80: %q", utf8.RuneCountInString(l), l)
		}
	}
	for _, want := range []string{"ajveciv (original) duel ", " basic3.discover-expand-develop, field basic.conquer,", "SPRT elo0=0,elo1=5,alpha=0.05,beta=0.05, normalized Elo; until the test decides, 4 games at most"} {
		if !strings.Contains(words(head), want) {
			t.Errorf("the heading lacks %q:\n%s", want, head)
		}
	}
	c.expect("\n")
	for range c.out {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runBinary(t, "duel", "ajveciv", "basic2.develop-consent", "basic3.discover-expand-develop",
		"--turns", "5", "--seed", "1", "--sprt", "elo0=0,elo1=5", "--games", "4")
	if code != 0 || !strings.HasPrefix(errOut, "ajveciv (original) duel ") || !strings.Contains(errOut, " basic3.discover-expand-develop, field basic.conquer, ") ||
		!strings.Contains(errOut, "(inflections=true turns=5)\nSPRT elo0=0,elo1=5,alpha=0.05,beta=0.05, normalized Elo; until the test decides, 4 games at most\n") {
		t.Errorf("piped, exit %d, the heading is not two lines:\n%s", code, errOut)
	}
}

// TestEstimateBeyondMeasure: a duel one side won (or lost) outright has no
// finite estimate, and one of even pairs only no error bar; it says so
// rather than print the regularized counts' figure as if it were a
// measure.
func TestEstimateBeyondMeasure(t *testing.T) {
	for _, tt := range []struct {
		p    sprt.Pentanomial
		want string
	}{
		{sprt.Pentanomial{0, 0, 0, 0, 10}, "+∞ (every game won)"},
		{sprt.Pentanomial{7, 0, 0, 0, 0}, "-∞ (every game lost)"},
		{sprt.Pentanomial{0, 0, 10, 0, 0}, "0.0, unbounded yet (every pair even)"}, // not ± 3.4 from the counts' regularization
		{sprt.Pentanomial{0, 0, 0, 1, 10}, "± "},
		{sprt.Pentanomial{}, "± ∞"},
	} {
		if got := estimateText(tt.p, tt.p.Elo(sprt.Logistic, confidence)); !strings.Contains(got, tt.want) {
			t.Errorf("%v: %q; want %q", tt.p, got, tt.want)
		}
	}
	// The JSON says the same of its figures.
	for p, want := range map[sprt.Pentanomial]string{
		{0, 0, 0, 0, 10}: "every game won", {7, 0, 0, 0, 0}: "every game lost", {0, 0, 10, 0, 0}: "every pair even",
		{}: "no games", {0, 0, 0, 1, 10}: "", {1, 0, 9, 0, 0}: "",
	} {
		if got := unmeasured(p); got != want {
			t.Errorf("%v: unmeasured %q; want %q", p, got, want)
		}
	}
}

func TestPairsSavedSaysNothingOfEvenPairs(t *testing.T) {
	// Ten pairs each won once and lost once: no error bar but the
	// regularization's, and no saving to tell (it said "pairs need 624.6
	// times fewer games").
	even := sprt.Pentanomial{0, 0, 10, 0, 0}
	var w sprt.Trinomial
	w[sprt.Win], w[sprt.Loss] = 10, 10
	if got := pairsSaved(even, w, even.Elo(sprt.Logistic, confidence)); got != "" {
		t.Errorf("even pairs: %q; want nothing", got)
	}
}

func TestDuelFileHasOneRunAtATime(t *testing.T) {
	// A second run of a duel whose --out another run is writing is
	// refused, with or without --force, and leaves the file as it is; an
	// empty file (a run killed before it wrote its header) is written
	// anew, and a run killed before its first pair ends leaves the header,
	// which the same command goes on with. Before, two runs on one file
	// each went on from its last pair, and an empty file was refused as no
	// duel.
	need(t, "python3")
	dir := t.TempDir()
	marker := filepath.Join(dir, "gate")
	duel := func(gate int, out string, more ...string) []string {
		return append([]string{"duel", "territories", "greedy", "random", "--field", gateBot(gate, marker), "--turns", "30",
			"--sprt", "elo0=0,elo1=100,alpha=0.1,beta=0.1", "--seed", "1", "--out", out, "--parallel", "2", "--startup", "1h",
			"--bot-logs", filepath.Join(dir, "logs")}, more...)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The duels played through, the gate open, by the game of their gate.
	want, wantFile := map[int]string{}, map[int][]byte{}
	for _, gate := range []int{1, 7} {
		whole := filepath.Join(dir, "whole-"+strconv.Itoa(gate)+".jsonl")
		code, got, errOut := runBinary(t, duel(gate, whole)...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, got, errOut)
		}
		want[gate] = got
		wantFile[gate], _ = os.ReadFile(whole)
	}
	same := func(what string, gate int, out string) {
		t.Helper()
		want, wantFile := want[gate], wantFile[gate]
		code, got, errOut := runBinary(t, duel(gate, out)...)
		if code != 0 || got != want {
			t.Fatalf("%s: exit %d\n%s\n%s\nplayed through:\n%s", what, code, got, errOut, want)
		}
		if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, wantFile) {
			t.Errorf("%s: the file is not the duel played through:\n%s\nwant\n%s", what, gotFile, wantFile)
		}
	}
	// start starts the duel in out, and waits until it stands at the gate
	// with pairs pairs in its file. It plays one game at a time, so that
	// the gate's game is the gate-th played and every pair before it is
	// kept before the gate is reached (two at a time, the other worker
	// could still be playing one, or be held behind it).
	start := func(gate int, out string, pairs int) *exec.Cmd {
		t.Helper()
		os.Remove(marker)
		cmd, _ := startGated(t, duel(gate, out, "--parallel", "1"), marker, func() bool { return pairLines(out) >= pairs },
			fmt.Sprintf("the duel did not reach its gate with %d pairs kept", pairs))
		return cmd
	}

	// Game 7 (pair 4) never starts, so the run stops at three pairs kept.
	out := filepath.Join(dir, "two.jsonl")
	cmd := start(7, out, 3)
	before, _ := os.ReadFile(out)
	for _, more := range [][]string{nil, {"--force"}} {
		code, got, errOut := runBinary(t, duel(7, out, more...)...)
		if code != exitUsage || got != "" || !strings.Contains(errOut, "another run of arbiter is writing it") {
			t.Errorf("a second run %v: exit %d\n%s\n%s", more, code, got, errOut)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
			t.Errorf("the second run %v changed the file:\n%s\nwas\n%s", more, after, before)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	same("gone on after the first run was killed", 7, out)

	// Killed in its first game: the file holds the header, and goes on.
	early := filepath.Join(dir, "early.jsonl")
	cmd = start(1, early, 0)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	same("gone on after a kill in the first pair", 1, early)

	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	same("an empty file", 7, empty)
}

func TestDuelGoesOnOnlyUnderItsOwnConditions(t *testing.T) {
	// A duel file keeps the time limits and programs' bounds its games
	// were played under: the same command goes on with it; one with
	// another --deadline is refused, naming it, and leaves the file. A
	// duel of in-process players alone keeps none, as before.
	py, _, _ := starterFiles(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "duel.jsonl")
	run := func(a, deadline string) (int, string) {
		args := []string{"duel", "territories", a, "random", "--field", "none", "--games", "4", "--seed", "2", "--turns", "10", "--out", out}
		if deadline != "" {
			args = append(args, "--deadline", deadline)
		}
		code, _, errOut := arbiter(t, "", args...)
		return code, errOut
	}
	if code, errOut := run("exec:python3 "+py, "2s"); code != 0 {
		t.Fatalf("the first run: exit %d: %s", code, errOut)
	}
	before, _ := os.ReadFile(out)
	if !strings.Contains(string(before), `"conditions":{`) {
		t.Errorf("the header keeps no conditions:\n%.600s", before)
	}
	code, errOut := run("exec:python3 "+py, "500ms")
	if code != 2 || !strings.Contains(errOut, "its games were played with --deadline 2s, not 500ms") {
		t.Errorf("going on with another --deadline: exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Error("a refused run changed the file")
	}
	if code, errOut := run("exec:python3 "+py, "2s"); code != 0 {
		t.Errorf("the same command again: exit %d: %s", code, errOut)
	}
	out = filepath.Join(dir, "builtin.jsonl")
	if code, errOut := run("greedy", ""); code != 0 { // nothing times them
		t.Fatalf("a duel of built-in players: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(out); strings.Contains(string(b), "conditions") {
		t.Errorf("a duel of in-process players keeps conditions:\n%.600s", b)
	}
}
