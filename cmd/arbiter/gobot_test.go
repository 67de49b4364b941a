package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildGoBot builds testdata/gobot, a built-in player of any game served
// as a program by player.Serve, into dir.
func buildGoBot(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "gobot")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/gobot").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// readRecord reads a record file's lines, with the players named as
// rename says in its header (the program's spec by the built-in player's
// name), and its end line without the digest of the lines above it (which
// the names change).
func readRecord(t *testing.T, path string, rename ...string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 0; i+1 < len(rename); i += 2 {
		from, _ := json.Marshal(rename[i])
		to, _ := json.Marshal(rename[i+1])
		lines[0] = strings.ReplaceAll(lines[0], string(from), string(to))
	}
	var end map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil {
		t.Fatalf("%s: the end line: %v", path, err)
	}
	delete(end, "lines")
	last, _ := json.Marshal(end)
	lines[len(lines)-1] = string(last)
	return lines
}

// TestGoBotAsAProgram: a bot written in Go with the game's packages, run as
// a program through player.Serve (exec:), plays every game as the same
// player does in process: the same seed gives the same record, byte for
// byte but for the player's name, and no fault; a series starts it afresh
// for every game.
func TestGoBotAsAProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildGoBot(t, t.TempDir())
	for _, c := range []struct {
		game, others, bot string
		args              []string
	}{
		{"ajveciv", "planner,random,basic.develop", "guide", []string{"--turns", "30", "--games", "2"}},
		{"ajveciv", "random,basic2", "mcts:playouts=30", []string{"--turns", "8"}},
		{"reaj", "random,develop,expand", "steward", []string{"--turns", "40", "--games", "2"}},
		{"tncc", "blitz,trader,war", "marshal", []string{"--games", "2"}},
		{"tncc", "general,random", "mcts:playouts=20", []string{"--preset", "tribe"}},
		{"territories", "greedy", "general", []string{"--turns", "15", "--games", "2"}},
		{"territories", "greedy,random", "greedy", []string{"--turns", "30"}},
		{"zombie", "sensible,cautious,random,spreader", "searcher", []string{"--antibodies", "1", "--viruses", "1", "--games", "2"}},
	} {
		t.Run(c.game+"/"+c.bot, func(t *testing.T) {
			spec := "exec:" + bin + " " + c.game + " " + c.bot
			inProcess, served := t.TempDir(), t.TempDir()
			args := append([]string{"play", c.game, "--seed", "7", "--report", "json", "--force"}, c.args...)
			code, _, errOut := arbiter(t, "", timed(t, append(args, "--players", c.others+","+c.bot, "--record", inProcess), "1m")...)
			if code != 0 {
				t.Fatalf("in process: exit %d: %s", code, errOut)
			}
			code, out, errOut := arbiter(t, "", append(args, "--players", c.others, "--player", spec, "--record", served, "--deadline", "1m")...)
			if code != 0 {
				t.Fatalf("as a program: exit %d: %s", code, errOut)
			}
			if f := reportFaults(t, out); len(f) > 0 {
				t.Fatalf("as a program: faults %+v", f)
			}
			files, _ := filepath.Glob(filepath.Join(inProcess, "game-*.jsonl"))
			if len(files) == 0 {
				t.Fatal("no record")
			}
			for _, f := range files {
				want := readRecord(t, f)
				got := readRecord(t, filepath.Join(served, filepath.Base(f)), spec, c.bot)
				if len(got) != len(want) {
					t.Fatalf("%s: %d lines as a program, %d in process", filepath.Base(f), len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s, line %d:\nas a program %.600s\n in process  %.600s", filepath.Base(f), i+1, got[i], want[i])
					}
				}
			}
			// The program says nothing on its standard error: no line it
			// could not read, no view, no failure of its player.
			logs, _ := filepath.Glob(filepath.Join(served, "bot-logs", "*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				for _, line := range strings.Split(string(bytes.TrimSpace(b)), "\n") {
					if line != "" && !strings.HasPrefix(line, "=== ") {
						t.Errorf("%s: %s", filepath.Base(l), b)
						break
					}
				}
			}
		})
	}
}

// TestGoBotRefusesAnotherGame: a Go bot built for one game, seated in
// another, fails to start with what it plays in its fault, and the game is
// played on with its seat's default moves.
func TestGoBotRefusesAnotherGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildGoBot(t, t.TempDir())
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--players", "blitz,turtle", "--player", "exec:"+bin+" ajveciv guide",
		"--report", "json", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f := reportFaults(t, out)
	if len(f) == 0 || f[0].Seat != 2 || f[0].Kind != "start" || !strings.Contains(f[0].Detail, `this program plays ajveciv, and Arbiter asks it to play \"tncc\"`) &&
		!strings.Contains(f[0].Detail, `this program plays ajveciv, and Arbiter asks it to play "tncc"`) {
		t.Errorf("faults %+v; want seat 2's start, saying it plays ajveciv", f)
	}
}

// buildProgram builds the command of testdata/name into dir.
func buildProgram(t *testing.T, dir, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/"+name).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestGoBotMistakes: a Go bot served by player.Serve that fails to decide
// (returns an error, panics, returns a move that cannot be written) has
// the default move played, as in process, and its fault in the report,
// in the player's words, with the stack of a panic in the seat's log; the
// game goes on, and --strict fails the run.
func TestGoBotMistakes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildProgram(t, t.TempDir(), "gomistake")
	for _, c := range []struct {
		mistake, detail string
		log             []string
	}{
		{"error", "no idea what to do", []string{"the player failed: no idea what to do; the default move is sent, and Arbiter records the fault"}},
		{"panic", "Decide panicked: the bot fell over", []string{"Decide panicked: the bot fell over\ngoroutine ", "main.bot.Decide"}},
		{"badmove", "its move cannot be written as JSON: ", []string{"its move cannot be written as JSON: "}},
	} {
		t.Run(c.mistake, func(t *testing.T) {
			logs := t.TempDir()
			code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "3", "--turns", "6", "--deadline", "1m", "--players", "random,basic.develop",
				"--player", "exec:"+bin+" "+c.mistake, "--report", "json", "--bot-logs", logs)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			faults := reportFaults(t, out)
			if len(faults) != 4 {
				t.Fatalf("faults %+v; want the bot's at turns 3 to 6", faults)
			}
			for _, f := range faults {
				if f.Seat != 2 || f.Kind != "error" || !strings.HasPrefix(f.Detail, c.detail) {
					t.Errorf("fault %+v; want seat 2's error, %q", f, c.detail)
				}
			}
			b, err := os.ReadFile(filepath.Join(logs, "game-1-seat-3.log"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.log {
				if !strings.Contains(string(b), w) {
					t.Errorf("the seat's log lacks %q:\n%s", w, b)
				}
			}
		})
	}
	code, _, _ := arbiter(t, "", "play", "ajveciv", "--seed", "3", "--turns", "4", "--deadline", "1m", "--players", "random",
		"--player", "exec:"+bin+" panic", "--report", "summary", "--bot-logs", t.TempDir(), "--strict")
	if code != 1 {
		t.Errorf("--strict: exit %d; want 1, the bot having faulted", code)
	}
}

// TestGoBotLate: a Go bot served by player.Serve whose Decide outlasts the
// request's deadline has a timeout in the report, and its log says how
// long Decide took, past which deadline, and what Arbiter does then; of
// the last, which may still run when the match ends, it may say instead
// that it still ran as the program ended. The deadline, 2s, leaves a
// loaded machine time to answer the first turns; the late Decide overruns
// it by construction (it sleeps past its context), whatever the load.
func TestGoBotLate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildProgram(t, t.TempDir(), "gomistake")
	logs := t.TempDir()
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "3", "--turns", "4", "--deadline", "2s", "--grace", "5ms", "--players", "random",
		"--player", "exec:"+bin+" late", "--report", "json", "--bot-logs", logs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	faults := reportFaults(t, out)
	if len(faults) != 2 || faults[0].Seat != 1 || faults[0].Kind != "timeout" || faults[1].Kind != "timeout" {
		t.Errorf("faults %+v; want seat 1's timeouts at turns 3 and 4", faults)
	}
	b, err := os.ReadFile(filepath.Join(logs, "game-1-seat-2.log"))
	if err != nil {
		t.Fatal(err)
	}
	const past = ", past the request's deadline of 2s (its context ended at 1.8s): Arbiter plays the default move and records a timeout"
	took, ended := strings.Count(string(b), ": Decide took "), strings.Count(string(b), ": Decide still ran as the program ended, ")
	if took < 1 || took+ended != 2 || strings.Count(string(b), past) != 2 {
		t.Errorf("the seat's log says how long Decide took %d times, that it still ran as the program ended %d times, and %q %d times; want two overruns, the first told with how long it took:\n%s",
			took, ended, past, strings.Count(string(b), past), b)
	}
}

// TestGoBotPrintsToStandardOutput: what a Go bot served by player.Serve
// prints on standard output, with fmt.Println or a logger made on
// os.Stdout before Serve ran, goes to the seat's log, and nothing of it
// into the protocol: the bot plays with no fault.
func TestGoBotPrintsToStandardOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildProgram(t, t.TempDir(), "gomistake")
	logs := t.TempDir()
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "3", "--turns", "4", "--deadline", "1m", "--players", "random",
		"--player", "exec:"+bin+" stdout", "--report", "json", "--bot-logs", logs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if f := reportFaults(t, out); len(f) > 0 {
		t.Errorf("faults %+v; want none", f)
	}
	b, err := os.ReadFile(filepath.Join(logs, "game-1-seat-2.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"\ndeciding request ", "\ngomistake: deciding request "} {
		if strings.Count(string(b), w) != 2 {
			t.Errorf("the seat's log has %q %d times; want twice, at turns 3 and 4:\n%s", w, strings.Count(string(b), w), b)
		}
	}
}

// TestGoBotAtATerminal: a Go bot served by player.Serve, run by hand at a
// terminal, says what it is and how to seat it, rather than wait in
// silence for a hello that nobody sends.
func TestGoBotAtATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	bin := buildProgram(t, t.TempDir(), "gomistake")
	c := attachConsole(t, exec.Command(bin, "error"), 300)
	c.expect("This is a bot of ajveciv, a program that Arbiter runs")
	c.expect("Seat it in a game: arbiter play ajveciv --player exec:" + bin)
}
