package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestLoadPlaysManyMatchesOverHTTP(t *testing.T) {
	// "A load command, loopback only, bounded in time": matches of person
	// seats, each a client following its own event stream, every move
	// durable before its answer; it reports moves a second, latencies and
	// memory, and no error. The suite plays a small load; ARBITER_FULL=1
	// the issue's: 1,000 matches of 4 seats at 5,000 moves a second.
	bin := arbiterBinary(t)
	args := []string{"load", "--matches", "20", "--seats", "4", "--duration", "2s", "--rate", "200"}
	if full() {
		args = []string{"load", "--matches", "1000", "--seats", "4", "--duration", "20s", "--rate", "5000"}
	}
	cmd := exec.Command(bin, args...)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s%s", args, err, out.String(), errs.String())
	}
	t.Logf("%s", out.String())
	m := regexp.MustCompile(`moves acknowledged: (\d+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no moves reported:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n == 0 {
		t.Errorf("no move acknowledged:\n%s", out.String())
	}
	for _, want := range []string{"errors: 0\n", "move latency: p50 ", "server: peak resident memory "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestLoadOnlyOnThisMachine(t *testing.T) {
	bin := arbiterBinary(t)
	for _, url := range []string{"http://192.0.2.1:8080", "ftp://127.0.0.1", "127.0.0.1:8080"} {
		cmd := exec.Command(bin, "load", "--url", url, "--duration", "1s")
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != exitUsage || !strings.Contains(string(out), "--url") {
			t.Errorf("load --url %s: exit %d, %s; want %d naming --url", url, code, out, exitUsage)
		}
	}
}

func TestLoadRefusesWhatItWouldNotUse(t *testing.T) {
	// --db, --synchronous and --serve-flags set up the server load
	// starts: with --url, a server already running, they were taken and
	// ignored. --turns is refused for a game without turns (TNCC), which
	// every load of it sent, and the server refused every match.
	for _, flag := range [][]string{{"--db", filepath.Join(t.TempDir(), "x.db")}, {"--synchronous", "NORMAL"}, {"--serve-flags", "--max-body 10"}} {
		code, _, errOut := arbiter(t, "", append([]string{"load", "--url", "http://127.0.0.1:9", "--duration", "1s"}, flag...)...)
		if code != exitUsage || !strings.Contains(errOut, flag[0]+" has no effect with --url") {
			t.Errorf("--url with %s: exit %d, %s; want %d", flag[0], code, errOut, exitUsage)
		}
	}
	bin := arbiterBinary(t)
	cmd := exec.Command(bin, "load", "--game", "tncc", "--turns", "10", "--duration", "1s")
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitUsage || !strings.Contains(string(out), "--turns has no effect on --game tncc") {
		t.Errorf("--game tncc --turns 10: exit %d, %s; want %d", code, out, exitUsage)
	}
	// Flags the server it starts refuses are said at once, as the
	// server's: load waited 30 s for a server that had ended, and said
	// only that it did not start.
	cmd = exec.Command(bin, "load", "--serve-flags", "--no-such-flag", "--duration", "1s")
	out, _ = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitUsage || !strings.Contains(string(out), "the server did not start: arbiter: unknown flag: --no-such-flag") {
		t.Errorf("--serve-flags --no-such-flag: exit %d, %s; want %d and the server's words", code, out, exitUsage)
	}
	// Without --turns, a load of TNCC plays.
	cmd = exec.Command(bin, "load", "--game", "tncc", "--matches", "2", "--seats", "2", "--duration", "1s", "--rate", "100")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "errors: 0\n") {
		t.Errorf("--game tncc: %v\n%s", err, out)
	}
}
