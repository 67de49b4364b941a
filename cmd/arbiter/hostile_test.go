package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/games/zombie"
	"github.com/arbiter-games/arbiter/player"
	"golang.org/x/sys/unix"
)

// These tests play against bots written to attack the referee: bots that
// stop reading, crash, hog resources, leave processes behind, or try to
// learn what they may not know.

// stopsReading is a bot that says it is ready, then never reads again: it
// sleeps with the marker as its argument, so the test can find it.
func stopsReading(marker string) string {
	return `exec:sh -c "echo '{\"type\":\"ready\"}'; exec sleep ` + marker + `"`
}

// full reports whether the long forms of the soak, crash and load tests are
// wanted (ARBITER_FULL=1, as .ci/run sets it).
func full() bool { return os.Getenv("ARBITER_FULL") != "" }

func newMarker() string {
	return fmt.Sprintf("%d.%06d", 600+os.Getpid()%100, time.Now().UnixNano()%1000000)
}

func TestInterruptStopsPlayWithABotThatStopsReading(t *testing.T) {
	// "A bot that stops reading its stdin hangs Arbiter forever ... Ctrl-C
	// always stops play within a second and leaves complete records." Each
	// decision has an hour, so nothing but the interruption ends the game.
	bin := arbiterBinary(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"play", []string{"play", "ajveciv", "--players", "basic", "--seed", "1", "--deadline", "1h"}},
		{"tournament", []string{"tournament", "reaj", "--players", "adapt,conquer", "--seats", "3", "--seed", "1", "--deadline", "1h"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := newMarker()
			args := append(c.args, "--player", stopsReading(marker), "--bot-logs", filepath.Join(dir, "logs"))
			if c.name == "play" {
				args = append(args, "--record", filepath.Join(dir, "records"))
			} else {
				args = append(args, "--out", filepath.Join(dir, "results.jsonl"))
			}
			cmd := exec.Command(bin, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Wait until the bot runs, and its input is full: then press
			// Ctrl-C.
			waitFor(t, 30*time.Second, "the bot to start", func() bool { return len(sleepers(marker)) > 0 })
			time.Sleep(200 * time.Millisecond)
			start := time.Now()
			cmd.Process.Signal(os.Interrupt)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("still running 20 s after Ctrl-C:\n%s", stderr.String())
			}
			took := time.Since(start)
			t.Logf("stopped %v after Ctrl-C", took)
			if took > 5*time.Second {
				t.Errorf("stopped %v after Ctrl-C; want about a second at most", took)
			}
			if code := cmd.ProcessState.ExitCode(); code != exitInternal || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("exit %d: %s; want 3 and a word on the interruption", code, stderr.String())
			}
			waitFor(t, 10*time.Second, "the bot to be killed", func() bool { return len(sleepers(marker)) == 0 })
			if c.name == "play" {
				b, err := os.ReadFile(filepath.Join(dir, "records", "game-0001.jsonl"))
				if err != nil || !bytes.Contains(b, []byte(`{"aborted":"interrupted"`)) {
					t.Errorf("the record: %v\n%.300s", err, b)
				}
			} else if _, err := os.Stat(filepath.Join(dir, "results.jsonl")); err != nil {
				t.Errorf("the results file: %v", err)
			}
		})
	}
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTournamentWithABotThatStopsReading(t *testing.T) {
	// "... the same in tournament": every request it cannot be sent is a
	// fault, and the tournament completes.
	need(t, "python3")
	marker := newMarker()
	dir := t.TempDir()
	code, out, errOut := arbiter(t, "", "tournament", "reaj", "--players", "fixed", "--player", stopsReading(marker),
		"--rounds", "1", "--appearances", "1", "--seed", "3", "--deadline", "20ms", "--json", "--keep-going",
		"--bot-logs", dir, "--out", filepath.Join(dir, "results.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"faults"`) {
		t.Fatalf("standings: %s", out)
	}
	if pids := sleepers(marker); len(pids) > 0 {
		t.Errorf("the bot still runs: %v", pids)
	}
}

// receivedMessages reads what a recording bot appended, split into matches
// at each hello.
func receivedMessages(t *testing.T, path string) [][]map[string]json.RawMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games [][]map[string]json.RawMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		if string(m["type"]) == `"hello"` {
			games = append(games, nil)
		}
		if len(games) > 0 {
			games[len(games)-1] = append(games[len(games)-1], m)
		}
	}
	return games
}

// numbersIn returns every whole number in a JSON value, at any depth.
func numbersIn(raw json.RawMessage) []uint64 {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	var out []uint64
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case json.Number:
			if n, err := strconv.ParseUint(v.String(), 10, 64); err == nil {
				out = append(out, n)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys) // the same order in every match
			for _, k := range keys {
				walk(v[k])
			}
		}
	}
	walk(v)
	return out
}

// candidates are the numbers an attacker would try as seeds: every number
// in hello, and its neighbours, in an order that is the same in every
// match, so that one way of reading hello can be tried on many matches.
func candidates(hello map[string]json.RawMessage, spread uint64) []uint64 {
	raw, _ := json.Marshal(hello)
	var out []uint64
	for _, n := range numbersIn(raw) {
		for d := uint64(0); d <= spread; d++ {
			out = append(out, n+d, n-d)
		}
	}
	return out
}

// bigSeed is a seed as Arbiter draws one when none is given: 64 random
// bits. A small seed chosen by hand can be guessed by trying them all; the
// tests of what bots can learn play with seeds that cannot.
const bigSeed = 0x8e3b_51a2_c94f_0d77

func TestHelloTellsNoHiddenDraw(t *testing.T) {
	// "Bots never get anything from which a hidden draw can be recomputed
	// ... test it with the attacks that worked: recompute the zombie
	// identities and the blitz flanks from everything a bot receives, and
	// from the seed neighbours of every number in hello."
	need(t, "python3")
	t.Run("zombie identities", func(t *testing.T) {
		dir := t.TempDir()
		received := filepath.Join(dir, "received.jsonl")
		games := 10
		if full() {
			games = 60
		}
		const seats, zombies = 6, 2
		code, _, errOut := arbiter(t, "", "play", "zombie", "--seed", strconv.FormatUint(bigSeed, 10), "--games", strconv.Itoa(games), "--zombies", strconv.Itoa(zombies),
			"--players", "sensible,sensible,sensible,cautious,spreader", "--player", misbehave("record", received), "--bot-logs", dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		matches := receivedMessages(t, received)
		if len(matches) != games {
			t.Fatalf("%d hellos; want %d", len(matches), games)
		}
		// The attack: one way of reading hello (which number, which
		// neighbour) that predicts the identities of every game.
		hits := map[int]int{} // candidate index → games it predicts
		for g, msgs := range matches {
			hello := msgs[0]
			checkDisplayNames(t, hello)
			truth := zombie.DrawZombies(bigSeed+uint64(g), seats, zombies)
			for i, c := range candidates(hello, 1000) {
				if reflect.DeepEqual(zombie.DrawZombies(c, seats, zombies), truth) {
					hits[i]++
				}
			}
		}
		for i, n := range hits {
			if n == games {
				t.Errorf("candidate %d of hello predicts the zombies of all %d games", i, games)
			}
		}
	})
	t.Run("blitz flanks", func(t *testing.T) {
		dir := t.TempDir()
		received := filepath.Join(dir, "received.jsonl")
		cfg := filepath.Join(dir, "war.yaml")
		os.WriteFile(cfg, []byte("base: default\ngold_for_war: 50\nmax_cycles: 40\n"), 0o644)
		games := 6
		if full() {
			games = 30
		}
		code, _, errOut := arbiter(t, "", "play", "tncc", "--seed", strconv.FormatUint(bigSeed, 10), "--games", strconv.Itoa(games), "--config", cfg,
			"--players", "blitz,turtle", "--player", misbehave("record", received), "--bot-logs", dir, "--record", filepath.Join(dir, "records"))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		matches := receivedMessages(t, received)
		wars := 0
		for g, msgs := range matches {
			hello := msgs[0]
			checkDisplayNames(t, hello)
			rec := readTNCCRecord(t, filepath.Join(dir, "records", fmt.Sprintf("game-%04d.jsonl", g+1)))
			for _, s := range rec.Steps {
				if s.Seat == 0 && s.Move.Type == tncc.War {
					wars++
				}
			}
			// As the match's seed, or as blitz's own seed: no number of
			// hello, nor its neighbours, replays blitz's decisions.
			for _, c := range candidates(hello, 100) {
				for _, info := range []engine.MatchInfo{{Seat: 0, Seed: c}, {Seat: 0, Seed: engine.SeatSeed(c, 0)}} {
					if replaysBlitz(t, rec, info) {
						t.Fatalf("game %d: %d from hello predicts blitz's every move", g+1, c)
					}
				}
			}
			// The check itself works: the true seed predicts them.
			if !replaysBlitz(t, rec, engine.MatchInfo{Seat: 0, Seed: engine.SeatSeed(rec.Header.Setup.Seed, 0)}) {
				t.Fatalf("game %d: the true seed does not replay blitz: the attack is not what the test thinks", g+1)
			}
		}
		if wars == 0 {
			t.Fatal("blitz never went to war: the test saw no flanks")
		}
	})
}

// checkDisplayNames fails unless hello names the seats by display name
// only: no command line, no path.
func checkDisplayNames(t *testing.T, hello map[string]json.RawMessage) {
	t.Helper()
	var players []string
	json.Unmarshal(hello["players"], &players)
	for _, p := range players {
		if strings.Contains(p, "/") && !strings.HasPrefix(p, "http") || strings.Contains(p, " ") {
			t.Errorf("hello names a seat %q: more than a name", p)
		}
	}
}

func readTNCCRecord(t *testing.T, path string) *engine.Record[tncc.Move] {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := engine.ReadRecord[tncc.Move](f)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// replaysBlitz reports whether a blitz bot started with info makes every
// move the record's seat 0 (blitz) made.
func replaysBlitz(t *testing.T, rec *engine.Record[tncc.Move], info engine.MatchInfo) bool {
	p := tncc.Player(tncc.Blitz())
	ctx := context.Background()
	if err := p.(engine.Starter).Start(ctx, info); err != nil {
		t.Fatal(err)
	}
	_, err := engine.ReplayWatched(tncc.Game{}, rec, engine.Watch[tncc.Move, tncc.View]{
		Step: func(m engine.Match[tncc.Move, tncc.View], req *engine.Request[tncc.Move], s engine.Step[tncc.Move]) error {
			if s.Seat != 0 || req == nil {
				return nil
			}
			mv, err := p.Decide(ctx, req, m.View(0))
			if err != nil {
				return err
			}
			a, _ := json.Marshal(mv)
			b, _ := json.Marshal(s.Move)
			if !bytes.Equal(a, b) {
				return errMismatch
			}
			return nil
		},
	})
	return err == nil
}

var errMismatch = fmt.Errorf("another move")

func TestBotEnvironment(t *testing.T) {
	// "its environment is a short allow-list (PATH, HOME set to a private
	// temp directory, LANG, and what --bot-env adds); it runs in its own
	// temp directory, removed afterwards." And "Apply resource limits to
	// every bot process ... defaults documented, --bot-limits to change."
	need(t, "python3")
	t.Setenv("ARBITER_TEST_SECRET", "do not tell")
	t.Setenv("ARBITER_TEST_PASSED", "passed on")
	for _, c := range []struct {
		limits string
		want   map[string]uint64
	}{
		{"", map[string]uint64{"AS": 4 << 30, "CPU": 600, "NPROC": 256, "FSIZE": 1 << 30}},
		// none leaves a limit as Arbiter's own is.
		{"as=512MiB,cpu=90s,nproc=none", map[string]uint64{"AS": 512 << 20, "CPU": 90, "NPROC": ownLimit(t, unix.RLIMIT_NPROC), "FSIZE": 1 << 30}},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "env.json")
		args := []string{"play", "reaj", "--turns", "2", "--seed", "1", "--bot-logs", dir, "--players", "adapt",
			"--player", misbehave("env", out), "--bot-env", "EXTRA=1", "--bot-env", "ARBITER_TEST_PASSED"}
		if c.limits != "" {
			args = append(args, "--bot-limits", c.limits)
		}
		code, _, errOut := arbiter(t, "", args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var seen struct {
			Env    map[string]string
			Cwd    string
			Limits map[string]uint64
		}
		if err := json.Unmarshal(b, &seen); err != nil {
			t.Fatal(err)
		}
		for k := range seen.Env {
			switch {
			case k == "PATH", k == "HOME", k == "TMPDIR", k == "LANG", k == "EXTRA", k == "ARBITER_TEST_PASSED":
			case k == "PWD", k == "SHLVL", k == "_", k == "LC_CTYPE":
				// The init shell's own, and Python's.
			case strings.HasPrefix(k, "PYENV"), strings.HasPrefix(k, "_PYENV"):
				// Set by a python3 that is a version manager's shim.
			default:
				t.Errorf("the bot's environment has %s=%q", k, seen.Env[k])
			}
		}
		if seen.Env["EXTRA"] != "1" || seen.Env["ARBITER_TEST_PASSED"] != "passed on" {
			t.Errorf("--bot-env did not reach the bot: %v", seen.Env)
		}
		home := seen.Env["HOME"]
		if !strings.Contains(home, "arbiter-bot-") || seen.Cwd != home || seen.Env["TMPDIR"] != home {
			t.Errorf("HOME %q, TMPDIR %q, working directory %q; want one private directory", home, seen.Env["TMPDIR"], seen.Cwd)
		}
		if _, err := os.Stat(home); !os.IsNotExist(err) {
			t.Errorf("the bot's directory %s is left after the game: %v", home, err)
		}
		if !reflect.DeepEqual(seen.Limits, c.want) {
			t.Errorf("--bot-limits %q: the bot runs under %v; want %v", c.limits, seen.Limits, c.want)
		}
	}
}

func ownLimit(t *testing.T, resource int) uint64 {
	var l unix.Rlimit
	if err := unix.Getrlimit(resource, &l); err != nil {
		t.Fatal(err)
	}
	return uint64(l.Cur) // signed on FreeBSD
}

func TestLimitsBite(t *testing.T) {
	// A bot over a limit is stopped, and the fault says so; the game goes
	// on with its default moves.
	need(t, "python3")
	cases := []struct {
		name, bot, limits, detail string
	}{
		{"memory", misbehave("alloc", "1024"), "as=256MiB", "exited with code 1"},
		{"processor", misbehave("spin"), "cpu=1s", "SIGXCPU"},
		{"file size", misbehave("bigfile", "8"), "fsize=1MiB", "exited with code 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "3", "--seed", "1", "--report", "json",
				"--bot-logs", t.TempDir(), "--players", "adapt", "--player", c.bot, "--bot-limits", c.limits, "--deadline", "1m")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			fs := reportFaults(t, out)
			if len(fs) == 0 || fs[0].Kind != "crash" || !strings.Contains(fs[0].Detail, c.detail) {
				t.Errorf("faults %+v; want a crash that says %q", fs, c.detail)
			}
		})
	}
	if os.Getuid() != 0 {
		// Linux does not hold root to the process limit.
		t.Run("processes", func(t *testing.T) {
			code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "3", "--seed", "1", "--report", "json",
				"--bot-logs", t.TempDir(), "--players", "adapt", "--bot-limits", "nproc=3",
				"--player", `exec:sh -c "for i in 1 2 3 4 5 6; do sleep 60 & done; wait"`, "--startup", "30s")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if fs := reportFaults(t, out); len(fs) == 0 {
				t.Error("no fault")
			}
		})
	}
}

func TestSandbox(t *testing.T) {
	// "--sandbox runs each bot under Debian's bubblewrap ... with no
	// network, its own PID namespace and a read-only view of the file
	// system ... sandbox tests never skip in CI."
	need(t, "python3")
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatal("bubblewrap is not installed; .ci/run installs it")
		}
		t.Skip("bubblewrap (bwrap) is not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	logs := t.TempDir()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "3", "--seed", "1", "--report", "json", "--sandbox",
		"--bot-logs", logs, "--players", "adapt", "--player", misbehave("peek", "-", port))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if fs := reportFaults(t, out); len(fs) != 0 {
		t.Errorf("faults of a sandboxed bot: %+v", fs)
	}
	log, err := os.ReadFile(filepath.Join(logs, "game-1-seat-2.log"))
	if err != nil {
		t.Fatal(err)
	}
	var seen struct {
		Processes map[string]string
		Network   string
		Write     string
		Cwd       string
		Tmp       []string
	}
	for _, l := range strings.Split(string(log), "\n") {
		if strings.HasPrefix(l, "{") {
			if err := json.Unmarshal([]byte(l), &seen); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen.Processes == nil {
		t.Fatalf("the bot said nothing of what it saw:\n%s", log)
	}
	for pid, cmdline := range seen.Processes {
		if strings.Contains(cmdline, "--seed") || strings.Contains(cmdline, ".test") {
			t.Errorf("the bot sees process %s: %q", pid, cmdline)
		}
	}
	if len(seen.Processes) > 5 {
		t.Errorf("the bot sees %d processes: %v", len(seen.Processes), seen.Processes)
	}
	if seen.Network == "connected" {
		t.Error("the sandboxed bot reached the network")
	}
	if seen.Write == "wrote" {
		t.Error("the sandboxed bot wrote beside its own script")
	}
	if !strings.Contains(seen.Cwd, "arbiter-bot-") {
		t.Errorf("the bot runs in %s; want its own directory", seen.Cwd)
	}
	// In /tmp, only its own: its directory, its script's, the directory
	// of a python3 under /tmp on the PATH, and where the logs are hidden
	// (empty).
	own := map[string]bool{}
	for _, p := range []string{seen.Cwd, absBot(t), firstTmpOnPath(), logs} {
		own[strings.Split(strings.TrimPrefix(p, "/tmp/"), "/")[0]] = true
	}
	for _, name := range seen.Tmp {
		if !own[name] {
			t.Errorf("the sandboxed bot sees /tmp/%s, which is not its own", name)
		}
	}
	// Unsandboxed, the same bot reaches the network: the check above is real.
	code, out, errOut = arbiter(t, "", "play", "reaj", "--turns", "1", "--seed", "1", "--report", "json",
		"--bot-logs", logs, "--players", "adapt", "--player", misbehave("peek", "-", port))
	if code != 0 || !strings.Contains(mustRead(t, filepath.Join(logs, "game-1-seat-2.log")), `"network": "connected"`) {
		t.Errorf("without --sandbox the bot did not reach the network: exit %d %s", code, errOut)
	}
}

// needSandbox skips a test when bubblewrap is not installed, except in CI.
func needSandbox(t *testing.T) {
	t.Helper()
	need(t, "python3")
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatal("bubblewrap is not installed; .ci/run installs it")
		}
		t.Skip("bubblewrap (bwrap) is not installed")
	}
}

// spyBeside copies the misbehaving bot into a directory of its own, with
// a directory out beside it for the run's outputs: a sandboxed program
// sees its own directory, and so, but for the run hiding them, would see
// the outputs. It returns the spy's spec and out.
func spyBeside(t *testing.T) (spec, out string) {
	t.Helper()
	dir := t.TempDir()
	out = filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(bot, []byte(mustRead(t, absBot(t))), 0o755); err != nil {
		t.Fatal(err)
	}
	return "exec:python3 " + bot + " spy " + out, out
}

// spied reads what the spies of a run's logs read under their out
// directory, by match id.
func spied(t *testing.T, logs string) map[string]map[string]any {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(logs, "game-*.log"))
	seen := map[string]map[string]any{}
	for _, name := range names {
		for _, l := range strings.Split(mustRead(t, name), "\n") {
			var s struct {
				Match string
				Spied map[string]any
			}
			if strings.HasPrefix(l, "{") && json.Unmarshal([]byte(l), &s) == nil && s.Match != "" {
				seen[s.Match] = s.Spied
			}
		}
	}
	return seen
}

// readSomething names the files of which a spy read bytes.
func readSomething(spied map[string]any) []string {
	var read []string
	for name, n := range spied {
		if f, ok := n.(float64); ok && f > 0 {
			read = append(read, fmt.Sprintf("%s (%v bytes)", name, f))
		}
	}
	sort.Strings(read)
	return read
}

func TestSandboxHidesTheRunsOutputs(t *testing.T) {
	// "The run's outputs are hidden too, wherever they are (beside the
	// bot's own script as well): the --record directory is empty to it,
	// and the --out, --report and --export-training files (and a report's
	// temporary files as it is written) read as empty."
	needSandbox(t)
	spy, out := spyBeside(t)
	logs := t.TempDir()
	records := filepath.Join(out, "records")
	code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "1", "--games", "3", "--sandbox", "--bot-logs", logs,
		"--record", records, "--report", filepath.Join(out, "report.json"), "--export-training", filepath.Join(out, "training.jsonl"),
		"--startup", "60s", "--players", "adapt", "--player", spy)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	seen := spied(t, logs)
	if len(seen) != 3 {
		t.Fatalf("the spy told what it read in %d games, want 3: %v", len(seen), seen)
	}
	for match, files := range seen {
		if read := readSomething(files); len(read) > 0 {
			t.Errorf("in match %s the sandboxed bot read the run's outputs: %s", match, strings.Join(read, ", "))
		}
	}
	// The outputs are there all the same.
	for _, name := range []string{"records/game-0001.jsonl", "records/game-0002.jsonl", "report.json", "training.jsonl"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSandboxedProgramCannotFillTheDisk(t *testing.T) {
	// "its private directory the only place it can write: a file system in
	// memory of the file-size limit (fsize), which bounds all its files
	// together": a bot writing file after file, each under the limit, stops
	// at the limit (before, it could fill the disk, 1 GiB a file).
	needSandbox(t)
	logs := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--sandbox", "--bot-logs", logs,
		"--bot-limits", "fsize=4MiB", "--startup", "60s", "--deadline", "60s", "--players", "adapt", "--player", misbehave("fill", "12"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	log := mustRead(t, filepath.Join(logs, "game-1-seat-2.log"))
	said := regexp.MustCompile(`filled (\d+) MiB`).FindStringSubmatch(log)
	if said == nil {
		t.Fatalf("the bot did not say what it filled:\n%s", log)
	}
	if filled, _ := strconv.Atoi(said[1]); filled > 4 {
		t.Errorf("the bot filled %d MiB with fsize=4MiB; want at most 4:\n%s", filled, log)
	}
}

func TestSandboxedProgramWritesOnlyInItsDirectory(t *testing.T) {
	// "its private directory the only place it can write ... which bounds
	// all its files together": /tmp, /dev/shm and the run's hidden
	// outputs are read-only to a sandboxed bot. They were empty file
	// systems in memory it could write in without bound, file after file.
	needSandbox(t)
	records := t.TempDir()
	for _, dir := range []string{"/tmp", "/dev/shm", os.TempDir(), records} {
		logs := t.TempDir()
		code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--sandbox", "--bot-logs", logs,
			"--record", records, "--force", "--bot-limits", "fsize=4MiB", "--startup", "60s", "--deadline", "60s",
			"--players", "adapt", "--player", misbehave("fill", "12", dir))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, errOut)
		}
		log := mustRead(t, filepath.Join(logs, "game-1-seat-2.log"))
		if !strings.Contains(log, "filled 0 MiB") {
			t.Errorf("the bot wrote in %s:\n%s", dir, log)
		}
	}
}

func TestSandboxedProgramThatClosesItsOutput(t *testing.T) {
	// "crash: the program is gone after its ready: ... or closed its
	// output", under bubblewrap as without it.
	needSandbox(t)
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "3", "--seed", "1", "--report", "json", "--sandbox",
		"--deadline", "60s", "--bot-logs", t.TempDir(), "--players", "adapt", "--player", misbehave("closes"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 || fs[0].Kind != "crash" || !strings.Contains(fs[0].Detail, "the program closed its output") {
		t.Errorf("faults %+v; want first a crash: the program closed its output", fs)
	}
}

func TestSandboxedSeatsDoNotSeeEachOthersDirectories(t *testing.T) {
	// "an empty /tmp (and an empty $TMPDIR, where each bot's private
	// directory is made, when it is elsewhere)": a seat does not read the
	// files of another, wherever the system's temporary directory is.
	needSandbox(t)
	tmp, err := os.MkdirTemp("/var/tmp", "arbiter-test-")
	if err != nil {
		t.Skipf("a temporary directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp)
	logs := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "1", "--seed", "1", "--sandbox", "--bot-logs", logs,
		"--startup", "60s", "--players", "adapt", "--player", misbehave("neighbours"), "--player", misbehave("neighbours"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	told := 0
	for _, seat := range []string{"2", "3"} {
		for _, l := range strings.Split(mustRead(t, filepath.Join(logs, "game-1-seat-"+seat+".log")), "\n") {
			var s struct{ Neighbours *[]string }
			if json.Unmarshal([]byte(l), &s) == nil && s.Neighbours != nil {
				told++
				if len(*s.Neighbours) > 0 {
					t.Errorf("seat %s read another seat's files: %v", seat, *s.Neighbours)
				}
			}
		}
	}
	if told != 2 {
		t.Errorf("%d seats told what they read; want 2", told)
	}
}

func TestSandboxedBotReachesNoUnixSocket(t *testing.T) {
	// "no network, nor any Unix socket (the file system shows the
	// machine's ...: making one is refused, Permission denied, while a
	// pair of sockets of its own, socketpair ..., is allowed)". The socket
	// is beside the bot's own script, which the sandbox shows it.
	needSandbox(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "service.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	heard := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		heard <- line
	}()
	bot := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(bot, []byte(mustRead(t, absBot(t))), 0o755); err != nil {
		t.Fatal(err)
	}
	logs := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "reaj", "--turns", "1", "--seed", "1", "--sandbox", "--bot-logs", logs,
		"--startup", "60s", "--players", "adapt", "--player", "exec:python3 "+bot+" unix "+sock)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var seen struct{ Unix, Pair string }
	for _, l := range strings.Split(mustRead(t, filepath.Join(logs, "game-1-seat-2.log")), "\n") {
		if strings.HasPrefix(l, "{") {
			_ = json.Unmarshal([]byte(l), &seen)
		}
	}
	if seen.Unix == "" {
		t.Fatal("the bot did not tell what it could do")
	}
	if seen.Unix == "connected" {
		t.Error("the sandboxed bot connected to a Unix socket of the machine")
	}
	select {
	case line := <-heard:
		t.Errorf("the service heard the sandboxed bot: %q", line)
	default:
	}
	if !strings.Contains(seen.Unix, "Permission denied") {
		t.Errorf("the bot was told %q; want permission denied", seen.Unix)
	}
	if seen.Pair != "made" {
		t.Errorf("a pair of sockets of its own: %s; want it made", seen.Pair)
	}
}

func TestSandboxShowsABotItsOwnFilesInAHiddenDirectory(t *testing.T) {
	// "A bot whose own files are in such a directory is shown them, and
	// nothing else there: a directory of its own in it (bots/) whole, a
	// file right in it alone."
	needSandbox(t)
	dir := t.TempDir()
	for _, bot := range []string{filepath.Join(dir, "bots", "bot.py"), filepath.Join(dir, "bot.py")} {
		if err := os.MkdirAll(filepath.Dir(bot), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bot, []byte(mustRead(t, absBot(t))), 0o755); err != nil {
			t.Fatal(err)
		}
		logs := t.TempDir()
		code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "1", "--games", "2", "--sandbox", "--bot-logs", logs,
			"--record", dir, "--force", "--report", "json", "--startup", "60s", "--players", "adapt", "--player", "exec:python3 "+bot+" spy "+dir)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", bot, code, errOut)
		}
		if fs := reportFaults(t, out); len(fs) != 0 {
			t.Errorf("%s: the bot in the --record directory: %+v", bot, fs)
		}
		for match, files := range spied(t, logs) {
			for name := range files {
				if !strings.HasSuffix(bot, "/"+name) {
					t.Errorf("%s: in match %s the bot sees %s", bot, match, name)
				}
			}
			if len(files) == 0 {
				t.Errorf("%s: in match %s the bot does not see its own file", bot, match)
			}
		}
	}
}

func TestSandboxHidesTournamentAndDuelResults(t *testing.T) {
	// "... the --out ... files ... read as empty. They hold the seeds of
	// the games played before its own": a tournament's, and a duel's.
	needSandbox(t)
	spy, out := spyBeside(t)
	logs := t.TempDir()
	// 24 games: the results file is written as they end, and holds games
	// (and the first seed, in its header) before the last ones start.
	results := filepath.Join(out, "results.jsonl")
	code, _, errOut := arbiter(t, "", "tournament", "reaj", "--turns", "1", "--seats", "2", "--games", "12", "--parallel", "1",
		"--sandbox", "--bot-logs", logs, "--out", results, "--startup", "60s", "--players", "adapt", "--player", spy)
	if code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errOut)
	}
	seen := spied(t, logs)
	if len(seen) != 24 {
		t.Fatalf("the spy told what it read in %d games, want 24", len(seen))
	}
	for match, files := range seen {
		if read := readSomething(files); len(read) > 0 {
			t.Errorf("in tournament match %s the sandboxed bot read: %s", match, strings.Join(read, ", "))
		}
	}
	// A duel goes on from the pairs its file holds: the spy's games come
	// after them.
	spy, out = spyBeside(t)
	logs = t.TempDir()
	duel := filepath.Join(out, "duel.jsonl")
	args := []string{"duel", "reaj", "adapt", spy, "--turns", "1", "--field", "none", "--sandbox", "--bot-logs", logs,
		"--out", duel, "--startup", "60s", "--parallel", "1", "--seed", "3"}
	if code, _, errOut := arbiter(t, "", append(args, "--games", "2")...); code != 0 {
		t.Fatalf("duel: exit %d: %s", code, errOut)
	}
	if fi, err := os.Stat(duel); err != nil || fi.Size() == 0 {
		t.Fatalf("the duel's file: %v", err)
	}
	if code, _, errOut := arbiter(t, "", append(args, "--games", "4")...); code != 0 {
		t.Fatalf("duel, going on: exit %d: %s", code, errOut)
	}
	seen = spied(t, logs)
	for match, files := range seen {
		if read := readSomething(files); len(read) > 0 {
			t.Errorf("in duel match %s the sandboxed bot read: %s", match, strings.Join(read, ", "))
		}
	}
}

// firstTmpOnPath is the first directory of PATH under /tmp, where a test
// may put a slow-starting python3; the sandbox shows the program's own.
func firstTmpOnPath() string {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if strings.HasPrefix(d, "/tmp/") {
			return d
		}
	}
	return "/nowhere"
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSeatThatNeverAnsweredCannotWin(t *testing.T) {
	// "An HTTP bot that does not exist ... plays every move by default and
	// can be listed as a WINNER, exit 0. A seat that never once answered is
	// reported as such and cannot win; --strict makes any fault fail the
	// run (exit 1)."
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := "http://" + ln.Addr().String() + "/bot"
	ln.Close() // nothing listens there now
	// In AjveCiv against a develop-only basic, the default moves win:
	// the ghost seat would be the winner by the rules.
	args := []string{"play", "ajveciv", "--seed", "5", "--turns", "20", "--players", "basic.conquer", "--player", nobody}
	code, out, errOut := arbiter(t, "", append(args, "--report", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var games []struct {
		Result struct {
			Winners []int
			Status  []string
			Ranks   []int
		}
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil {
		t.Fatal(err)
	}
	r := games[0].Result
	if len(r.Status) != 2 || r.Status[1] != "absent" || len(r.Winners) != 1 || r.Winners[0] != 0 || r.Ranks[1] != 2 {
		t.Errorf("result %+v; want seat 1 absent, ranked last, seat 0 the winner", r)
	}
	code, out, _ = arbiter(t, "", args...)
	if code != 0 || !strings.Contains(out, "ABSENT") {
		t.Errorf("exit %d; the text report does not mark the seat absent:\n%s", code, out)
	}
	code, _, errOut = arbiter(t, "", append(args, "--strict")...)
	if code != exitRefused || !strings.Contains(errOut, "--strict") {
		t.Errorf("--strict: exit %d, %q; want 1 and why", code, errOut)
	}
	code, _, errOut = arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--players", "adapt,conquer", "--strict")
	if code != 0 {
		t.Errorf("--strict without faults: exit %d %s", code, errOut)
	}
}

func TestRedirectsToAnotherHostAreNotFollowed(t *testing.T) {
	// "Redirects to another host are not followed."
	hits := 0
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer other.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--report", "json",
		"--players", "adapt", "--player", redirector.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if hits != 0 {
		t.Errorf("the other host was asked %d times", hits)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 || !strings.Contains(fs[0].Detail, "redirect") {
		t.Errorf("faults %+v; want one that names the redirect", fs)
	}
}

func TestARemoteBotsHeadersAreBounded(t *testing.T) {
	// An HTTP bot's answer with a megabyte of headers is refused, as one
	// with a body over the line's limit is: Go's own bound on headers
	// (10 MB) let one answer cost tens of MB of memory.
	big := strings.Repeat("x", 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct{ Type string }
		_ = json.NewDecoder(r.Body).Decode(&m)
		if m.Type == "request" {
			w.Header().Set("X-Padding", big)
		}
		fmt.Fprint(w, `{"type":"ready"}`)
	}))
	defer srv.Close()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "1", "--seed", "1", "--report", "json",
		"--players", "adapt", "--player", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) != 1 || !strings.Contains(fs[0].Detail, "headers exceeded 65536 bytes") {
		t.Errorf("faults %+v; want one that says the headers exceeded 65536 bytes", fs)
	}
}

func TestARemoteBotsStatusIsShownNotObeyed(t *testing.T) {
	// A fault shows what a bot said, and the terminal that shows the
	// report does not obey it: an HTTP status's reason phrase with escape
	// sequences (clear the screen, set the window's title) and a carriage
	// return is shown with them as "?".
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct{ Type string }
		_ = json.NewDecoder(r.Body).Decode(&m)
		if m.Type == "hello" {
			fmt.Fprint(w, `{"type":"ready"}`)
			return
		}
		c, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		buf.WriteString("HTTP/1.1 500 \x1b]0;title\x07\x1b[2Jred\rback\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		buf.Flush()
	}))
	defer srv.Close()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--players", "adapt", "--player", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, ": 500 ?]0;title??[2Jred?back)") {
		t.Errorf("the report does not show the status with its control characters as ?:\n%s", out)
	}
	if strings.ContainsAny(out+errOut, "\x1b\x07\r") {
		t.Errorf("the output carries the bot's control characters: %q", out+errOut)
	}
}

func TestFaultsShowWhatABotSaidAndTheTerminalDoesNotObeyIt(t *testing.T) {
	// The rules' refusal of a move may quote it (a zombie plan's guard=),
	// and the record and the report keep it printable: escape sequences
	// and carriage returns as "?".
	need(t, "python3")
	bot := misbehave("illegal", `'"P2/p guard=\u001b[2J\u001b]0;title\u0007red\rback"'`)
	code, out, errOut := arbiter(t, "", "play", "zombie", "--turns", "2", "--seed", "1", "--report", "json",
		"--bot-logs", t.TempDir(), "--players", "sensible,sensible", "--player", bot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 {
		t.Fatal("no fault")
	}
	for _, f := range fs {
		if strings.ContainsAny(f.Detail, "\x1b\x07\r") {
			t.Errorf("a fault keeps the bot's control characters: %q", f.Detail)
		}
	}
	if want := "guard=?[2J?]0;title?red: want guard=p"; !strings.Contains(fs[0].Detail, want) {
		t.Errorf("fault %q; want it to show %q", fs[0].Detail, want)
	}
	code, out, errOut = arbiter(t, "", "play", "zombie", "--turns", "2", "--seed", "1",
		"--bot-logs", t.TempDir(), "--players", "sensible,sensible", "--player", bot)
	if code != 0 || strings.ContainsAny(out+errOut, "\x1b\x07\r") {
		t.Errorf("exit %d; the text report carries the bot's control characters: %q", code, out+errOut)
	}
}

func TestURLSecretsStayOut(t *testing.T) {
	// "hello.players carries every seat's full spec (URLs with
	// user:password and tokens, commands)": names keep no secret.
	bot := httpBot(t, 0)
	u := strings.Replace(bot.URL, "http://", "http://ann:hunter2@", 1) + "/bot?token=s3cret"
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "2", "--seed", "1", "--report", "json",
		"--players", "adapt", "--player", u)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out+errOut, "hunter2") || strings.Contains(out+errOut, "s3cret") {
		t.Errorf("a secret of the URL is in the report:\n%s", out)
	}
	if got := player.DisplayName(player.RecordName(u)); strings.Contains(got, "/bot") {
		t.Errorf("display name %q shows the URL's path", got)
	}
}

func TestBotLogsAreCappedPerSeatOverARun(t *testing.T) {
	// "Cap logs per seat across a whole run, keep draining when writing
	// fails, and say in the report what was cut."
	need(t, "python3")
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	code, _, errOut := arbiter(t, "", "tournament", "reaj", "--players", "adapt,conquer", "--player", misbehave("chatty", "64"),
		"--seats", "3", "--games", "2", "--seed", "1", "--turns", "20", "--bot-logs", logs, "--bot-log-limit", "256KiB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var total int64
	files, _ := filepath.Glob(filepath.Join(logs, "*.log"))
	for _, f := range files {
		fi, _ := os.Stat(f)
		total += fi.Size()
	}
	if len(files) < 6 || total > 256<<10+int64(len(files))*300 {
		t.Errorf("%d log files of %d bytes in all; want every game's, and 256 KiB in all with their headers", len(files), total)
	}
	if !strings.Contains(errOut, "bot logs: ") || !strings.Contains(errOut, "were not kept") {
		t.Errorf("nothing says what was cut:\n%s", errOut)
	}

	// A log that cannot be written (a full disk) never slows the bot.
	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o755)
	if err := os.Symlink("/dev/full", filepath.Join(full, "game-1-seat-2.log")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "20", "--seed", "1", "--report", "json", "--deadline", "5s",
		"--players", "adapt", "--player", misbehave("chatty", "256"), "--bot-logs", full)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if fs := reportFaults(t, out); len(fs) != 0 {
		t.Errorf("a bot whose log cannot be written: faults %+v", fs)
	}
	if !strings.Contains(errOut, "could not be written") {
		t.Errorf("nothing says the log could not be written:\n%s", errOut)
	}
}

func TestBotLogsMustBeADirectory(t *testing.T) {
	// "--bot-logs pointing at a file forfeits every external seat with exit
	// 0 ... refuse an unusable log path up front (exit 2)."
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	code, out, errOut := arbiter(t, "", "play", "reaj", "--players", "adapt", "--player", misbehave("silent"), "--bot-logs", file)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--bot-logs") {
		t.Errorf("exit %d, %q, %q; want 2 and a message naming --bot-logs", code, out, errOut)
	}
}

func TestBadBotFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--bot-limits", "as=lots"},
		{"--bot-limits", "cpu=1ms"},
		{"--bot-limits", "wings=2"},
		{"--bot-env", "=x"},
		{"--bot-env", "HOME=/root"},
		{"--bot-log-limit", "0"},
		{"--player", "exec:python3 bot.py | tee log"},
		{"--player", "exec:no-such-program-here"},
	} {
		full := append([]string{"play", "reaj", "--turns", "1", "--players", "adapt", "--report", "json"}, args...)
		if args[0] != "--player" {
			full = append(full, "--player", misbehave("silent"))
		}
		code, out, errOut := arbiter(t, "", full...)
		if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, %q, %q; want 2 and one line", args, code, out, errOut)
		}
	}
}

// Check that a bot killed with SIGKILL mid-game by a third party counts as
// a crash, and the game goes on.
func TestBotKilledMidGame(t *testing.T) {
	need(t, "python3")
	marker := newMarker()
	bot := `exec:sh -c "sleep ` + marker + ` & exec python3 ` + absBot(t) + ` late 50"`
	logs := t.TempDir()
	done := make(chan struct{})
	go func() {
		defer close(done)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			// Killed once it has been asked a move (its log tells each
			// request's bank), so that it dies mid-game, not starting.
			if pids := sleepers(marker); len(pids) > 0 && logHas(logs, "bank_ms") {
				// The sleeper's parent is the bot's shell turned python.
				if pp := parentPID(pids[0]); pp > 0 {
					syscall.Kill(pp, syscall.SIGKILL)
				}
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	code, out, errOut := arbiter(t, "", "play", "reaj", "--turns", "30", "--seed", "1", "--report", "json",
		"--bot-logs", logs, "--players", "adapt", "--player", bot, "--deadline", "5s")
	<-done
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := reportFaults(t, out)
	if len(fs) == 0 || fs[0].Kind != "crash" || !strings.Contains(fs[0].Detail, "SIGKILL") {
		t.Errorf("faults %+v; want a crash by SIGKILL", fs)
	}
}

// logHas reports whether a file under dir holds text.
func logHas(dir, text string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), text) {
				found = true
			}
		}
		return nil
	})
	return found
}

func absBot(t *testing.T) string {
	p, err := filepath.Abs("testdata/bots/misbehave.py")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func parentPID(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	pp, _ := strconv.Atoi(f[1])
	return pp
}

func TestOutputsAreNotOverwritten(t *testing.T) {
	// "--record DIR and --report FILE silently overwrite ... Refuse to
	// overwrite unless --force."
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	records := filepath.Join(dir, "records")
	play := []string{"play", "reaj", "--turns", "2", "--seed", "1", "--games", "2", "--report", report, "--record", records}
	if code, _, errOut := arbiter(t, "", play...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	before := mustRead(t, report)
	code, out, errOut := arbiter(t, "", append(play, "--seed", "9")...)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--report "+report+": the file exists; give --force") {
		t.Errorf("a second play: exit %d, %q", code, errOut)
	}
	if mustRead(t, report) != before {
		t.Error("the report was replaced")
	}
	os.Remove(report)
	code, _, errOut = arbiter(t, "", append(play, "--seed", "9")...)
	if code != exitUsage || !strings.Contains(errOut, "--record "+records+": game-0001.jsonl exists") {
		t.Errorf("records that exist: exit %d, %q", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", append(play, "--seed", "9", "--force")...); code != 0 {
		t.Errorf("--force: exit %d, %s", code, errOut)
	}
	if mustRead(t, report) == before {
		t.Error("--force did not replace the report")
	}
	// The tournament's files, and paths that cannot be written.
	out1 := filepath.Join(dir, "results.jsonl")
	tour := []string{"tournament", "reaj", "--players", "adapt,conquer", "--seed", "1", "--turns", "2", "--out", out1}
	if code, _, errOut := arbiter(t, "", tour...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The same tournament goes on with its file (here, nothing is left to
	// play); another is refused, the file left as it was.
	first := mustRead(t, out1)
	if code, _, errOut := arbiter(t, "", tour...); code != 0 || !strings.Contains(errOut, "nothing more to play") || mustRead(t, out1) != first {
		t.Errorf("the same tournament again: exit %d, %q", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", append(tour, "--seed", "2")...); code != exitUsage || !strings.Contains(errOut, "--out "+out1+": the file holds another tournament") || mustRead(t, out1) != first {
		t.Errorf("a second tournament: exit %d, %q", code, errOut)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"play", "reaj", "--report", "/nonexistent/x.json"}},
		{[]string{"play", "reaj", "--report", dir + ".json/"}},
		{[]string{"play", "reaj", "--record", report + "x", "--export-training", "/nonexistent/t.jsonl"}},
	} {
		code, out, errOut := arbiter(t, "", c.args...)
		if code != exitUsage || out != "" || strings.Contains(errOut, "/.") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want 2 and one line naming the path given", c.args, code, errOut)
		}
	}
}
