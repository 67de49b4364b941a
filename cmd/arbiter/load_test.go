package main

import (
	"os/exec"
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
