package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// need fails the test unless the interpreter is installed: CI installs
// python3 and node (.ci/run), so a missing one is a broken machine, not a
// reason to skip.
func need(t *testing.T, program string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		t.Fatalf("%s is not installed; the external player tests run real interpreters (.ci/run installs them)", program)
	}
	return path
}

// goStarter builds the Go starter bot once per test run.
var goStarter = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "arbiter-starter")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "starter")
	out, err := exec.Command("go", "build", "-o", bin, "../../starters/go").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func misbehave(mode string, args ...string) string {
	bot, _ := filepath.Abs("testdata/bots/misbehave.py")
	return "exec:python3 " + bot + " " + mode + " " + strings.Join(args, " ")
}

// faults reads the faults of a JSON report's first game.
func reportFaults(t *testing.T, out string) []struct {
	Seat   int
	Kind   string
	Detail string
} {
	t.Helper()
	var games []struct {
		Faults []struct {
			Seat   int
			Kind   string
			Detail string
		}
		Result *struct{ Scores []int64 }
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil || len(games) == 0 {
		t.Fatalf("not a JSON report: %v\n%.500s", err, out)
	}
	if games[0].Result == nil {
		t.Fatalf("the game did not end:\n%.500s", out)
	}
	return games[0].Faults
}

func TestStarterBotsPlayEveryGame(t *testing.T) {
	// "Starter bots, tested in CI with the real interpreters: each a complete
	// working bot for every game that exists."
	py, js, gobot := starterFiles(t)
	starters := []string{"exec:python3 " + py, "exec:node " + js, "exec:" + gobot}
	for _, game := range []struct{ name, bots string }{
		{"ajveciv", "basic.develop,basic.conquer"},
		{"reaj", "adapt,conquer"},
		{"tncc", "blitz,turtle"},
		{"zombie", "sensible,cautious"},
		{"territories", "greedy,random"},
	} {
		args := []string{"play", game.name, "--seed", "5", "--report", "json", "--bot-logs", t.TempDir(), "--players", game.bots}
		for _, s := range starters {
			args = append(args, "--player", s)
		}
		code, out, errOut := arbiter(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", game.name, code, errOut)
		}
		if f := reportFaults(t, out); len(f) != 0 {
			t.Errorf("%s: the starters committed faults: %+v", game.name, f)
		}
		// The same seed plays the same game: the starters' dice are seeded.
		_, again, _ := arbiter(t, "", args...)
		if again != out {
			t.Errorf("%s: two games with the same seed and starters differ", game.name)
		}
	}
}

func TestStarterInTournament(t *testing.T) {
	gobot, err := goStarter()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := arbiter(t, "", "tournament", "reaj", "--players", "adapt,conquer", "--player", "exec:"+gobot,
		"--seats", "3", "--games", "2", "--seed", "1", "--bot-logs", t.TempDir())
	if code != 0 || !strings.Contains(out, "go starter ") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
}

func TestStarterInDuel(t *testing.T) {
	// A duel names a program as a tournament does: by the name it gives
	// in its ready message, its spec beside it once.
	gobot, err := goStarter()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := arbiter(t, "", "duel", "reaj", "exec:"+gobot, "adapt", "--games", "2", "--seed", "1", "--bot-logs", t.TempDir())
	for _, want := range []string{"(go starter is exec:" + gobot + ")\n", "Games 2 (1 pair): go starter won "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d: %s\n%s\nwant %q", code, errOut, out, want)
		}
	}
}

func TestMisbehavingPrograms(t *testing.T) {
	// "Faults never stop a match and never hang the runner: a bot that never
	// answers, answers garbage, answers an illegal move, prints megabytes,
	// exits, crashes at start-up ... the default move is applied, the fault
	// is recorded (kind, seat, turn) in the match record and the report."
	need(t, "python3")
	cases := []struct {
		name, game, bot string
		extra           []string
		kind            string // every fault of the seat is of this kind
		detail          string // and the first one says this
		atMost          int    // faults, when the seat is given up (0: one per decision)
		count           int    // when set, exactly this many faults
	}{
		{"silent", "ajveciv", misbehave("silent"), []string{"--deadline", "30ms", "--bank", "50ms"}, "timeout", "no answer within its 30ms deadline and 50ms of bank left", 0, 0},
		{"no newline", "reaj", misbehave("nonewline"), []string{"--deadline", "30ms"}, "timeout", "no answer within its 30ms deadline and 0s of bank left; received 15 bytes but no end of line: each message ends with a newline", 0, 0},
		{"garbage", "ajveciv", misbehave("garbage"), nil, "garbage", "hello, I am a bot", 0, 0},
		{"not a move", "reaj", misbehave("notamove"), nil, "garbage", "not a move of this game", 0, 0},
		// One stray line costs one decision: the bot's answer after it,
		// to the request then given up, is passed over as late, and the
		// bot is in step again.
		{"a debug print", "ajveciv", misbehave("chatter"), nil, "garbage", `answered "starting!"; want {"type": "move", "id": 3, "move": ...} (a bot writes only the protocol's lines on its standard output; debug output goes to standard error)`, 0, 1},
		{"an answer twice", "reaj", misbehave("twice"), nil, "garbage", "answered request 1, which it was not asked or has answered; the request is 3", 0, 1},
		{"no id", "reaj", misbehave("noid"), nil, "garbage", "sent a move with no id; a move carries the id of the request it answers (1)", 0, 0},
		{"illegal", "tncc", misbehave("illegal", `'{"type":"recruit","n":999999}'`), nil, "illegal", "citizens", 0, 0},
		{"megabytes", "reaj", misbehave("huge"), nil, "garbage", "longer than", 0, 0},
		// A move of the wrong JSON shape is told in the game's words,
		// not Go's.
		{"a number for a text", "territories", misbehave("illegal", "42"), nil, "garbage", `answered move "42", which is not a move of this game: an action is its text as a JSON string, such as "raise CA", "move NV:2 UT", "attack CA NV" or "pass"; got a JSON number`, 0, 0},
		{"an object for a name", "reaj", misbehave("illegal", `'{"x":1}'`), nil, "garbage", `which is not a move of this game: want a value name, got {"x": 1}`, 0, 0},
		{"exits", "ajveciv", misbehave("exits"), nil, "crash", "exited with code 0", 0, 0},
		// Alive, but it will say nothing more: its seat is given up at
		// once, not after a deadline at every decision.
		{"closes its output", "reaj", misbehave("closes"), []string{"--deadline", "60s"}, "crash", "the program closed its output", 0, 0},
		{"exit code", "reaj", misbehave("code", "7"), nil, "crash", "exited with code 7", 0, 0},
		{"segfault", "reaj", misbehave("segv"), nil, "crash", "killed by signal SIGSEGV", 0, 0},
		{"exits at start", "reaj", misbehave("nostart"), nil, "start", "exited with code 3", 0, 0},
		{"says why at start", "reaj", misbehave("complains"), nil, "start", "exited with code 1 (its standard error ends: starting / go: go.mod file not found in current directory or any parent directory)", 0, 0},
		{"traceback", "reaj", misbehave("traceback"), nil, "crash", "KeyError: 'no_such_key')", 0, 0},
		// Its last words are shown, not obeyed, by the terminal that
		// shows the report.
		{"escapes in its last words", "reaj", misbehave("escapes"), nil, "crash", "exited with code 1 (its standard error ends: ?]0;title??[2J?[31mred?back?)", 0, 0},
		// A start-up limit of a second: the watchdog behind it stands at 3 s
		// (engine.Grace), room for a loaded machine to launch and end the
		// program, so that the fault is the player's own "start".
		{"never flushes", "reaj", misbehave("unflushed"), []string{"--startup", "1s"}, "start", "no ready within the start-up limit of 1s (--startup); nothing came on its standard output: it may be slow, may write its lines without flushing them (a program must flush each line it writes), or may wait for its standard input to end before it answers (it ends only after bye: a program reads one line at a time)", 0, 0},
		{"waits for its input to end", "reaj", misbehave("slurps"), []string{"--startup", "1s"}, "start", "or may wait for its standard input to end before it answers (it ends only after bye: a program reads one line at a time)", 0, 0},
		{"stops reading", "reaj", `exec:sh -c "echo '{\"type\":\"ready\"}'; exec sleep 600"`, []string{"--deadline", "20ms"}, "", "", 0, 0},
		{"forfeits on timeout", "reaj", misbehave("silent"), []string{"--deadline", "30ms", "--on-timeout", "forfeit"}, "timeout", "forfeits", 0, 0},
		{"strikes out", "reaj", misbehave("garbage"), []string{"--strikes", "2"}, "garbage", "strike 2 of 2", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first := map[string]string{"ajveciv": "basic.develop", "reaj": "adapt", "tncc": "turtle", "territories": "greedy"}[c.game]
			seat := 1
			if c.name == "stops reading" {
				first, seat = "fixed", 6 // six more seats: views that fill a pipe
			}
			records := t.TempDir()
			args := append([]string{"play", c.game, "--seed", "2", "--report", "json", "--bot-logs", t.TempDir(), "--record", records,
				"--players", first, "--player", c.bot}, c.extra...)
			switch {
			case c.name == "stops reading":
				// A whole game: enough requests to fill its input.
			case c.game != "tncc":
				args = append(args, "--turns", "5")
			default:
				cfg := filepath.Join(t.TempDir(), "short.yaml")
				os.WriteFile(cfg, []byte("base: default\nmax_cycles: 5\n"), 0o644)
				args = append(args, "--config", cfg)
			}
			start := time.Now()
			code, out, errOut := arbiter(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the game took %v", took)
			}
			fs := reportFaults(t, out)
			if len(fs) == 0 {
				t.Fatal("no fault recorded")
			}
			for _, f := range fs {
				if f.Seat != seat {
					t.Errorf("a fault of seat %d: %+v", f.Seat, f)
				}
				if c.kind != "" && f.Kind != c.kind && f.Kind != "abandoned" {
					t.Errorf("fault %+v; want kind %s", f, c.kind)
				}
				if c.kind != "" && f == fs[0] && f.Kind != c.kind {
					t.Errorf("first fault %+v; want kind %s: the fault says what happened", f, c.kind)
				}
			}
			if c.count > 0 && len(fs) != c.count {
				t.Errorf("%d faults %+v; want %d", len(fs), fs, c.count)
			}
			said := false
			for _, f := range fs {
				said = said || strings.Contains(f.Detail, c.detail)
			}
			if !said && c.detail != "" {
				t.Errorf("faults %+v; want one to say %q", fs, c.detail)
			}
			if c.name == "stops reading" {
				// It answers nothing: timeouts, then requests it cannot
				// be sent.
				kinds := map[string]int{}
				for _, f := range fs {
					kinds[f.Kind]++
				}
				if kinds["blocked"] == 0 || kinds["timeout"] == 0 || len(fs) != kinds["blocked"]+kinds["timeout"] {
					t.Errorf("faults %v; want timeouts, then writes blocked", kinds)
				}
			}
			switch c.name {
			case "forfeits on timeout", "exits", "exit code", "segfault", "strikes out", "exits at start", "never flushes", "says why at start", "traceback":
				last := fs[len(fs)-1]
				if last.Kind != "abandoned" {
					t.Errorf("last fault %+v; want the seat abandoned", last)
				}
			}
			// Every faulted step has its request's default move.
			if code, out, errOut := arbiter(t, "", "replay", filepath.Join(records, "game-0001.jsonl")); code != 0 || !strings.Contains(out, fmt.Sprintf("and each of the %d faulted steps has its request's default move", len(fs))) {
				t.Errorf("replay: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

func TestTimeBank(t *testing.T) {
	// "a per-decision deadline plus an optional time bank per seat
	// (--deadline 200ms --bank 5s)": a bot far later than its deadline at
	// every move plays its own moves while its bank lasts, and is told what
	// is left. The bot's lateness (300 ms against a 30 ms deadline) dwarfs
	// what a loaded machine adds, and the bank (2 s) runs out within the
	// game's eight turns however slow the machine is.
	need(t, "python3")
	logs := t.TempDir()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "8", "--seed", "4", "--report", "json", "--bot-logs", logs,
		"--players", "adapt", "--player", misbehave("late", "300"), "--deadline", "30ms", "--bank", "2s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 || len(fs) == 8 {
		t.Errorf("%d faults in 8 turns; want the first turns played from the bank and the rest timed out", len(fs))
	}
	log, err := os.ReadFile(filepath.Join(logs, "game-1-seat-2.log"))
	if err != nil {
		t.Fatal(err)
	}
	var banks []int
	for _, l := range strings.Split(string(log), "\n") {
		if n, ok := strings.CutPrefix(l, "bank_ms "); ok {
			v, _ := strconv.Atoi(n)
			banks = append(banks, v)
		}
	}
	if len(banks) < 3 || banks[0] != 2000 || banks[1] >= banks[0] {
		t.Errorf("the bank told to the bot: %v; want 2000, then less", banks)
	}
}

func TestChildrenAreKilled(t *testing.T) {
	// "Every process a bot starts is gone when its seat ends, whatever the
	// other seats do": a child, a child in a session of its own (setsid),
	// and a daemon made by a double fork.
	need(t, "python3")
	modes := []string{"children", "daemon"}
	if _, err := exec.LookPath("bwrap"); err == nil || os.Getenv("ARBITER_CI") != "" {
		modes = append(modes, "daemon in the sandbox")
	}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			marker := fmt.Sprintf("%d.%d", 300+os.Getpid()%100, time.Now().UnixNano()%1000000)
			fdsBefore := openFiles(t)
			args := []string{"play", "reaj", "--turns", "3", "--seed", "1", "--bot-logs", t.TempDir(), "--players", "adapt"}
			if bot, ok := strings.CutSuffix(mode, " in the sandbox"); ok {
				args = append(args, "--sandbox", "--player", misbehave(bot, marker))
			} else {
				args = append(args, "--player", misbehave(mode, marker))
			}
			code, _, errOut := arbiter(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if pids := sleepers(marker); len(pids) > 0 {
				t.Errorf("the bot's processes %v still run after the game", pids)
				for _, pid := range pids {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if after := openFiles(t); after > fdsBefore {
				t.Errorf("%d files open after the game, %d before: pipes or logs left open", after, fdsBefore)
			}
		})
	}
}

// sleepers returns the live processes running sleep with the marker.
func sleepers(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmd) == "sleep\x00"+marker+"\x00" && running(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// running reports whether pid is a live process (not gone, not a zombie).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func openFiles(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

func TestExternalBotSeesOnlyItsView(t *testing.T) {
	// "An external bot sees exactly its seat's view: never another seat's
	// hidden information (TNCC war flanks). Test it by a bot that records
	// everything it receives."
	need(t, "python3")
	dir := t.TempDir()
	recordFile := filepath.Join(dir, "received.jsonl")
	cfg := filepath.Join(dir, "war.yaml")
	os.WriteFile(cfg, []byte("base: default\ngold_for_war: 50\nmax_cycles: 15\n"), 0o644)
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "3", "--config", cfg, "--bot-logs", dir,
		"--players", "war,blitz", "--player", misbehave("record", recordFile))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(recordFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	attacks := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var m struct {
			Type string
			Seat *int
			Kind string
			View json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		if m.Type == "hello" && (m.Seat == nil || *m.Seat != 2) {
			t.Errorf("hello for seat %v; the bot holds seat 2", m.Seat)
		}
		if strings.Contains(string(m.View), "flanks") {
			t.Errorf("a view sent to the bot holds flanks: %s", m.View)
		}
		if m.Kind == "war answer" {
			attacks++
			if !strings.Contains(string(m.View), `"attack":{"from":`) {
				t.Errorf("a war answer's view lacks the attack: %s", m.View)
			}
		}
		var view struct{ You int }
		if m.Type == "request" && (json.Unmarshal(m.View, &view) != nil || view.You != 2) {
			t.Errorf("a request with another seat's view: %s", m.View)
		}
	}
	if attacks == 0 {
		t.Errorf("the bot was never attacked; the test saw no war:\n%s", out)
	}
}

// httpBot is a remote bot: it answers hello with ready and each request
// with its first choice or its default, after delay.
func httpBot(t *testing.T, delay time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			Type    string
			ID      int64
			Choices []json.RawMessage
			Default json.RawMessage
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch m.Type {
		case "hello":
			fmt.Fprint(w, `{"type":"ready"}`)
		case "request":
			time.Sleep(delay)
			move := m.Default
			if len(m.Choices) > 0 {
				move = m.Choices[0]
			}
			fmt.Fprintf(w, `{"type":"move","id":%d,"move":%s}`, m.ID, move)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRemoteHTTPBot(t *testing.T) {
	// "Remote bots over HTTP: --players http://127.0.0.1:8080/bot POSTs the
	// same messages; same deadlines and fault handling."
	// The prompt bot has a minute a decision: on a loaded machine a
	// second can pass between two of its answers.
	fast := httpBot(t, 0)
	code, out, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--report", "json",
		"--players", "blitz,turtle", "--player", fast.URL+"/bot", "--deadline", "1m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if f := reportFaults(t, out); len(f) != 0 {
		t.Errorf("faults of a prompt HTTP bot: %+v", f)
	}
	slow := httpBot(t, 100*time.Millisecond)
	code, out, errOut = arbiter(t, "", "play", "reaj", "--seed", "1", "--turns", "3", "--report", "json",
		"--players", "adapt", "--player", slow.URL, "--deadline", "20ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) != 3 || fs[0].Kind != "timeout" {
		t.Errorf("faults of a slow HTTP bot: %+v; want three timeouts", fs)
	}
}

func TestExternalSpecErrors(t *testing.T) {
	for _, args := range [][]string{
		{"play", "reaj", "--player", "exec:"},
		{"play", "reaj", "--on-timeout", "sometimes"},
		{"play", "reaj", "--bank", "-1s"},
		{"play", "reaj", "--strikes", "-1"},
	} {
		code, out, errOut := arbiter(t, "", args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "arbiter: ") {
			t.Errorf("%q: exit %d, %q, %q; want exit 2 and a message", args, code, out, errOut)
		}
	}
}

func TestRefusedProgramLeavesNoLogsDirectory(t *testing.T) {
	// A program refused before play leaves nothing behind: the directory
	// made for its logs goes with the run that does not happen.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, _, errOut := arbiter(t, "", "play", "ajveciv", "--players", "exec:/no/such/binary,basic", "--turns", "3")
	if code != 2 || !strings.Contains(errOut, "/no/such/binary: no such file or directory") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the refusal left %s in the temporary directory", left[0].Name())
	}
}

func TestAScriptThatCannotRunByItselfIsToldItsInterpreter(t *testing.T) {
	// exec:bots/mybot.js names a script that its interpreter runs: one
	// that is not executable is refused before play, and so is one that
	// is but has no #! line, which the system would run with /bin/sh (a
	// start fault full of the shell's syntax errors). Each is told the
	// command with its interpreter, and the #! line to begin it with.
	need(t, "node")
	bot := filepath.Join(t.TempDir(), "mybot.js")
	code := `const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'hello') console.log(JSON.stringify({ type: 'ready' }));
  if (m.type === 'request') console.log(JSON.stringify({ type: 'move', id: m.id, move: m.default }));
});
`
	if err := os.WriteFile(bot, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	play := func() (int, string) {
		code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--bot-logs", t.TempDir(), "--startup", "60s",
			"--players", "adapt", "--player", "exec:"+bot+" --fast")
		return code, errOut
	}
	want := "arbiter: exec:" + bot + " --fast: the program " + bot + ": is not executable: give its interpreter (exec:node " + bot + " --fast), or make it executable (chmod +x) with a #! line first (#!/usr/bin/env node)\n"
	if code, errOut := play(); code != 2 || errOut != want {
		t.Errorf("exit %d, %q; want exit 2 and %q", code, errOut, want)
	}
	if err := os.Chmod(bot, 0o755); err != nil {
		t.Fatal(err)
	}
	want = "arbiter: exec:" + bot + " --fast: the program " + bot + " has no #! line, so the system would run it with /bin/sh: give its interpreter (exec:node " + bot + " --fast), or begin it with a #! line (#!/usr/bin/env node)\n"
	if code, errOut := play(); code != 2 || errOut != want {
		t.Errorf("exit %d, %q; want exit 2 and %q", code, errOut, want)
	}
	if err := os.WriteFile(bot, []byte("#!/usr/bin/env node\n"+code), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, errOut := play(); code != 0 {
		t.Errorf("with its #! line: exit %d, %s", code, errOut)
	}
}

func TestExternalZombieSeesOnlyItsSheet(t *testing.T) {
	// "An external bot sees exactly its seat's view: never another seat's
	// hidden information (zombie identities)."
	need(t, "python3")
	dir := t.TempDir()
	recordFile := filepath.Join(dir, "received.jsonl")
	code, _, errOut := arbiter(t, "", "play", "zombie", "--seed", "6", "--bot-logs", dir,
		"--players", "sensible,sensible,spreader,cautious", "--player", misbehave("record", recordFile))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(recordFile)
	if err != nil {
		t.Fatal(err)
	}
	requests := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.Contains(line, "infected") {
			t.Errorf("the bot was told of an infection: %s", line)
		}
		var m struct {
			Type string
			View map[string]json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "request" {
			continue
		}
		requests++
		for key := range m.View {
			switch key {
			case "you", "name", "seats", "turn", "max_turns", "me", "messages", "announcements":
			default:
				t.Errorf("the view has %q, which is not the seat's own sheet: %s", key, m.View[key])
			}
		}
	}
	if requests == 0 {
		t.Fatal("the bot was asked nothing")
	}
}

func TestANodeBotsCrashSaysItsError(t *testing.T) {
	// node ends an uncaught error with its frames and its version: the
	// crash's fault says the error and the frame it was thrown in, not
	// the last frames deep in node.
	need(t, "node")
	bot, _ := filepath.Abs("testdata/bots/throws.js")
	code, out, errOut := arbiter(t, "", "play", "reaj", "--seed", "2", "--turns", "2", "--report", "json", "--bot-logs", t.TempDir(),
		"--players", "adapt", "--player", "exec:node "+bot, "--startup", "60s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 {
		t.Fatal("no fault recorded")
	}
	want := "the program exited with code 1 (its standard error ends: throw new TypeError('no move for request ' + msg.id); / TypeError: no move for request 1 / at "
	if fs[0].Kind != "crash" || !strings.Contains(fs[0].Detail, want) || !strings.Contains(fs[0].Detail, bot+":9:11))") {
		t.Errorf("fault %+v; want a crash that says %q, and the frame at %s:9:11", fs[0], want, bot)
	}
}

func TestTournamentSaysWhatFaultsAPlayerMade(t *testing.T) {
	// The standings count a bot's faults, and a line after them says what
	// they were: its crash, then the decisions its given-up seat missed.
	need(t, "python3")
	bot := misbehave("exits")
	code, out, errOut := arbiter(t, "", "tournament", "reaj", "--players", "adapt", "--player", bot,
		"--seats", "2", "--games", "2", "--seed", "1", "--turns", "3", "--bot-logs", t.TempDir(), "--keep-going")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Four games of three turns: a crash at each first turn, the two
	// turns after it abandoned.
	want := " Faults of " + strings.TrimSpace(bot) + ": 4 crash (the program exited with code 0), 8 abandoned (default moves once its seat was given up)"
	if !strings.HasSuffix(words(out), want) {
		t.Errorf("standings:\n%s\nwant them to end with%s", out, want)
	}
}

// shellBot writes a shell bot and returns its path: it runs the shell
// commands prelude, then answers hello at once with its ready (with the
// name name, if not ""), every request with the line answer (none, if
// ""), in which $id is the request's id (answer is in a shell's double
// quotes), and exits at bye.
func shellBot(t *testing.T, prelude, name, answer string) string {
	t.Helper()
	ready := `{"type":"ready"}`
	if name != "" {
		ready = `{"type":"ready","name":"` + name + `"}`
	}
	request := ""
	if answer != "" {
		request = `    *'"type":"request"'*) id=${line#*'"id":'}; id=${id%%,*}; echo "` + answer + `" ;;
`
	}
	script := prelude + `while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*) echo '` + ready + `' ;;
` + request + `    *'"type":"bye"'*) exit 0 ;;
  esac
done
`
	bot := filepath.Join(t.TempDir(), "bot.sh")
	if err := os.WriteFile(bot, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return bot
}

func TestANullMoveIsGarbageInEveryGame(t *testing.T) {
	// A bot that answers "move": null (a shell bot's unset variable) is
	// told the same in every game: garbage, "a move that is not a move of
	// the game" (docs/protocol.md), never a move the rules refuse, though
	// some games' types would read null as one (Reaj's and AjveCiv's value
	// none, a zombie plan of no touch, an empty territories action).
	docs := botDocs(t)
	for doc, claim := range map[string]string{
		"protocol.md": "in every game it is `garbage`, not `illegal`",
		"README.md":   "`\"move\": null` is no move of any game: `garbage` in every game, never `illegal`.",
	} {
		if !strings.Contains(docs[doc], claim) {
			t.Errorf("%s does not say %s", doc, claim)
		}
	}
	bot := shellBot(t, "", "", `{\"type\":\"move\",\"id\":$id,\"move\":null}`)
	cfg := filepath.Join(t.TempDir(), "short.yaml")
	if err := os.WriteFile(cfg, []byte("base: default\nmax_cycles: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		game, players string
		seat          int
		extra         []string
	}{
		{"ajveciv", "random", 1, []string{"--turns", "2"}},
		{"reaj", "random", 1, []string{"--turns", "2"}},
		{"tncc", "nothing", 1, []string{"--config", cfg}},
		{"territories", "greedy", 1, []string{"--turns", "2"}},
		{"zombie", "sensible,sensible", 2, []string{"--turns", "2"}},
	} {
		t.Run(c.game, func(t *testing.T) {
			args := append([]string{"play", c.game, "--seed", "1", "--report", "json", "--bot-logs", t.TempDir(),
				"--players", c.players, "--player", "exec:sh " + bot}, c.extra...)
			code, out, errOut := arbiter(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			fs := reportFaults(t, out)
			if len(fs) == 0 {
				t.Fatal("no fault recorded")
			}
			const want = `answered move null, which is not a move of this game: a move is the game's own JSON, as the request's "default" is: `
			for _, f := range fs {
				if f.Seat != c.seat || f.Kind != "garbage" || !strings.HasPrefix(f.Detail, want) {
					t.Errorf("fault %+v; want seat %d's garbage that says %q", f, c.seat, want)
				}
			}
		})
	}
}

func TestAFieldInAnotherCaseIsGarbage(t *testing.T) {
	// "Field names are read exactly as written, in their case": a bot
	// that writes "Type" is told so at its first answer, not accepted by
	// a referee more lenient than the documents.
	docs := botDocs(t)
	for doc, claim := range map[string]string{
		"protocol.md": "Field names are read exactly as written, in their case, though many JSON libraries would match them in any case: `{\"Type\": \"move\", ...}` is garbage",
		"README.md":   "Field names are read exactly as written, in their case: `{\"Type\": \"move\", ...}` is garbage",
	} {
		if !strings.Contains(docs[doc], claim) {
			t.Errorf("%s does not say %s", doc, claim)
		}
	}
	bot := shellBot(t, "", "", `{\"Type\":\"move\",\"id\":$id,\"move\":\"adapt\"}`)
	code, out, errOut := arbiter(t, "", "play", "reaj", "--seed", "1", "--turns", "2", "--report", "json", "--bot-logs", t.TempDir(),
		"--players", "random", "--player", "exec:sh "+bot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	const want = `, in which field "Type" is written "type": names of fields are read exactly as written, in their case; want {"type": "move", "id": `
	if len(fs) == 0 {
		t.Fatal("no fault recorded")
	}
	for _, f := range fs {
		if f.Seat != 1 || f.Kind != "garbage" || !strings.Contains(f.Detail, want) {
			t.Errorf("fault %+v; want seat 1's garbage that says %q", f, want)
		}
	}
}

func TestReplyDeadlineReachesTournamentsAndDuels(t *testing.T) {
	// --reply-deadline, "time for an answer owed to another seat's move",
	// holds in a tournament and a duel as in play: each program's hello
	// says it (reply_ms), where those commands took the flag and played
	// with --deadline instead.
	need(t, "python3")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "short.yaml")
	if err := os.WriteFile(cfg, []byte("base: default\nmax_cycles: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	received := filepath.Join(dir, "received.jsonl")
	bot := misbehave("record", received)
	timing := []string{"--seed", "3", "--config", cfg, "--deadline", "2s", "--reply-deadline", "77ms", "--bot-logs", dir}
	for _, args := range [][]string{
		append([]string{"tournament", "tncc", "--players", "war,blitz", "--player", bot, "--seats", "2"}, timing...),
		append([]string{"duel", "tncc", bot, "blitz", "--field", "war", "--games", "2"}, timing...),
	} {
		os.Remove(received)
		if code, _, errOut := arbiter(t, "", args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errOut)
		}
		b, err := os.ReadFile(received)
		if err != nil {
			t.Fatal(err)
		}
		hellos := 0
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var m struct {
				Type string
				Time struct {
					DecisionMS int64 `json:"decision_ms"`
					ReplyMS    int64 `json:"reply_ms"`
				}
			}
			if json.Unmarshal([]byte(line), &m) != nil || m.Type != "hello" {
				continue
			}
			hellos++
			if m.Time.DecisionMS != 2000 || m.Time.ReplyMS != 77 {
				t.Errorf("%s: a hello's time: %+v; want decisions of 2000 ms and replies of 77 ms", args[0], m.Time)
			}
		}
		if hellos == 0 {
			t.Errorf("%s: the program was told no hello:\n%.500s", args[0], b)
		}
	}
}

func TestDuelStrictCountsTheField(t *testing.T) {
	// --strict fails a run "if any player commits a fault": in a duel
	// the field's seats too, whose faults were not counted, so that a
	// duel with a field program that faulted in every game exited 0. The
	// result says them beside A's and B's, and a duel that goes on from
	// its file counts those of the pairs played before.
	need(t, "python3")
	dir := t.TempDir()
	out := filepath.Join(dir, "duel.jsonl")
	args := []string{"duel", "tncc", "war", "blitz", "--field", misbehave("chatter"), "--games", "2", "--seed", "1",
		"--bot-logs", dir, "--out", out, "--strict"}
	for _, run := range []string{"played", "gone on with"} {
		code, stdout, errOut := arbiter(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "--strict: the players committed 2 faults") || !strings.Contains(stdout, "Faults: war 0, blitz 0, the field 2") {
			t.Errorf("%s: exit %d, %q, %q; want 1 and the field's 2 faults", run, code, stdout, errOut)
		}
	}
	code, stdout, errOut := arbiter(t, "", append(args, "--json")...)
	var res struct {
		FieldFaults int `json:"field_faults"`
	}
	if code != 1 || json.Unmarshal([]byte(stdout), &res) != nil || res.FieldFaults != 2 {
		t.Errorf("--json: exit %d, %q, %q; want field_faults 2", code, stdout, errOut)
	}
}

func TestExternalPlayersFlagsNeedOne(t *testing.T) {
	// The time control of external players and what a program may do
	// were taken where no such player plays, and changed nothing: play
	// tncc --sandbox ran its built-in bots as ever, unsandboxed, without
	// a word. Each is refused, naming the players it is for.
	lineups := [][]string{
		{"play", "tncc", "--seed", "1"},
		{"play", "tncc", "--seed", "1", "--players", "war,blitz"},
		{"tournament", "tncc", "--seed", "1", "--players", "war,blitz"},
		{"duel", "tncc", "war", "blitz", "--seed", "1", "--games", "2"},
	}
	for _, lineup := range lineups {
		for _, flag := range [][]string{{"--bank", "1s"}, {"--startup", "1m"}, {"--on-timeout", "forfeit"}, {"--strikes", "2"}, {"--grace", "1ms"}} {
			code, out, errOut := arbiter(t, "", append(slices.Clone(lineup), flag...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, flag[0]+" has no effect without an external player") {
				t.Errorf("%v %v: exit %d, %.100q, %q; want 2", lineup, flag, code, out, errOut)
			}
		}
		for _, flag := range [][]string{{"--sandbox"}, {"--bot-env", "HOME"}, {"--bot-limits", "none"}, {"--bot-logs", t.TempDir()}, {"--bot-log-limit", "1MiB"}} {
			code, out, errOut := arbiter(t, "", append(slices.Clone(lineup), flag...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, flag[0]+" has no effect without a program among the players") {
				t.Errorf("%v %v: exit %d, %.100q, %q; want 2", lineup, flag, code, out, errOut)
			}
		}
	}
	// A bot behind a URL keeps time as a program does, and has no
	// process to limit.
	bot := httpBot(t, 0)
	web := []string{"play", "tncc", "--seed", "1", "--report", "summary", "--players", "war," + bot.URL, "--deadline", "1m"}
	if code, _, errOut := arbiter(t, "", append(web, "--bank", "1s", "--strikes", "2", "--grace", "1ms")...); code != 0 {
		t.Errorf("an HTTP bot's time control: exit %d, %s", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", append(web, "--bot-limits", "none")...); code != 2 || !strings.Contains(errOut, "--bot-limits has no effect without a program") {
		t.Errorf("an HTTP bot's --bot-limits: exit %d, %s; want 2", code, errOut)
	}
	// --sandbox=false asks nothing of anyone.
	if code, _, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--sandbox=false"); code != 0 {
		t.Errorf("--sandbox=false: exit %d, %s", code, errOut)
	}
}

func TestDeadlinesNeedAPlayerThatIsTimed(t *testing.T) {
	// --deadline and --reply-deadline were taken where every player is a
	// built-in AI that answers at once and reads no deadline: nothing
	// times such a match, and its games are the same whatever the limit.
	// Each is refused, naming the players and those it bounds.
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"play", "tncc", "--seed", "1"}, "every player (nothing, turtle, war, blitz) is a built-in AI that answers at once and reads no deadline, so nothing times its decisions; it bounds programs (exec:COMMAND), bots behind a URL, people (repl) and the search AI (mcts, whose thinking time it caps)"},
		{[]string{"play", "ajveciv", "--seed", "1", "--players", "basic,random"}, "every player (basic, random) is a built-in AI that answers at once and reads no deadline, so nothing times its decisions; it bounds programs (exec:COMMAND), bots behind a URL, people (repl), the search AI (mcts, whose thinking time it caps) and the AIs that take their time (planner, guide)"},
		{[]string{"tournament", "reaj", "--seed", "1", "--players", "steward,adapt"}, "every player (steward, adapt) is a built-in AI that answers at once and reads no deadline, so nothing times its decisions; it bounds programs (exec:COMMAND), bots behind a URL and the search AI (mcts, whose thinking time it caps)"},
		// The field, the game's default players, is seated too.
		{[]string{"duel", "reaj", "steward", "adapt", "--seed", "1", "--games", "2"}, "every player (steward, adapt, fixed) is a built-in AI"},
		{[]string{"duel", "zombie", "sensible", "random", "--field", "cautious,spreader", "--seed", "1", "--games", "2"}, "every player (sensible, random, cautious, spreader) is a built-in AI"},
	} {
		for _, flag := range []string{"--deadline", "--reply-deadline"} {
			code, out, errOut := arbiter(t, "", append(slices.Clone(c.args), flag, "1s")...)
			if code != 2 || out != "" || !strings.Contains(errOut, flag+" has no effect here: "+c.says) {
				t.Errorf("%v %s 1s: exit %d, %.100q, %q; want 2 and %q", c.args, flag, code, out, errOut, c.says)
			}
		}
	}
	// An AI that takes its time is watched, and the search AI thinks for
	// three quarters of its deadline: for them the flags are taken.
	for _, args := range [][]string{
		{"play", "ajveciv", "--seed", "1", "--turns", "3", "--players", "planner,basic.expand"},
		{"play", "tncc", "--seed", "1", "--players", "war,mcts:playouts=5"},
		{"duel", "reaj", "steward", "mcts:playouts=5", "--field", "adapt", "--turns", "3", "--seed", "1", "--games", "2"},
	} {
		if code, _, errOut := arbiter(t, "", append(slices.Clone(args), "--deadline", "1m", "--reply-deadline", "1m")...); code != 0 {
			t.Errorf("%v --deadline 1m --reply-deadline 1m: exit %d, %s", args, code, errOut)
		}
	}
}
