package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/report"
)

// heapSampler is a standard output that forgets what is written, as a
// terminal or a pipe does, and measures the live heap at the first write
// and every so many after it (a collection at each of thousands of games is
// slow on a busy machine): what play keeps from game to game is live at
// every later write.
type heapSampler struct {
	base, peak int64
	every      int
	writes     int
	bytes      int
}

func (s *heapSampler) Write(p []byte) (int, error) {
	s.writes++
	s.bytes += len(p)
	if s.writes == 1 || s.writes%s.every == 0 {
		s.peak = max(s.peak, liveHeap()-s.base)
	}
	return len(p), nil
}

// liveHeap collects the garbage and returns the bytes of the heap's live
// objects.
func liveHeap() int64 {
	runtime.GC()
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	return int64(m[0].Value.Uint64())
}

// playPeak plays games games of two turns with the report on standard
// output and returns the most live heap seen at a write of the report, the
// number of writes and the bytes written.
func playPeak(t *testing.T, form string, games int) (int64, int, int) {
	t.Helper()
	s := &heapSampler{base: liveHeap(), every: max(1, games/100)}
	var errOut bytes.Buffer
	code := run(context.Background(), []string{"play", "ajveciv", "--seed", "1", "--turns", "2",
		"--games", fmt.Sprint(games), "--report", form}, strings.NewReader(""), s, &errOut)
	if code != 0 {
		t.Fatalf("%s, %d games: exit %d: %s", form, games, code, errOut.String())
	}
	return s.peak, s.writes, s.bytes
}

func TestPlayReportInConstantMemory(t *testing.T) {
	// "--report json holds every game in memory ... Reports stream game by
	// game in constant memory (a benchmark or test that measures peak
	// memory for 1 and 2,000 games)."
	if testing.Short() {
		t.Skip("plays 2,000 games per form")
	}
	const many = 2000
	// What a game's report and the series standings may add: far less
	// than the 2,000 games a report holding them would (3 KB each in the
	// text form, 5 KB in JSON).
	const allowance = 256 << 10
	// The report goes out through one buffer of 64 KB: it is written as
	// the games are played whenever the buffer fills, never held back.
	const buffer = 64 << 10
	// A game's own peak is what the play machinery holds whatever the
	// form, and a sample may miss it (one write of a short text report,
	// after a collection): the most any form's one game holds is the base.
	forms := []string{"text", "json", "summary"}
	ones := map[string]int64{}
	var one int64
	for _, form := range forms {
		ones[form], _, _ = playPeak(t, form, 1)
		one = max(one, ones[form])
	}
	for _, form := range forms {
		series, writes, bytes := playPeak(t, form, many)
		t.Logf("--report %-7s peak live heap: 1 game %4d KB, %d games %4d KB", form, ones[form]>>10, many, series>>10)
		if series > one+allowance {
			t.Errorf("--report %s: %d games take %d KB of heap at the peak, one game %d KB: the report grows with the series", form, many, series>>10, one>>10)
		}
		if form != "summary" && (writes < 2 || writes*buffer < bytes) {
			t.Errorf("--report %s: %d bytes in %d writes for %d games; want the games written as they are played, a buffer at a time", form, bytes, writes, many)
		}
	}
}

func TestPlaySummary(t *testing.T) {
	// "A long series also gets a summary-only form (--report summary)":
	// the standings only, no game.
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "4", "--turns", "5", "--games", "3", "--report", "summary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// It begins with what was played, named as the text report's games
	// name it, so that two summaries of two presets are told apart.
	_, text, _ := arbiter(t, "", "play", "ajveciv", "--seed", "4", "--turns", "5", "--games", "3")
	const played = "game: ajveciv (original)\noptions: inflections=true turns=5\n"
	// It ends with how the games ended, which the text report tells
	// game by game.
	standings, ok := strings.CutPrefix(out, played)
	standings, ended := strings.CutSuffix(standings, "  ended: turns (3)\n")
	if !ok || !ended || !strings.HasPrefix(standings, "series: 3 games, 3 finished\n") || !strings.HasSuffix(text, "\n"+standings) || strings.Contains(out, "game 1") {
		t.Errorf("the summary:\n%s\nwant what was played, then the text report's standings only, then how the games ended", out)
	}
	if !strings.HasPrefix(text, "game 1: ajveciv (original), seed 4\n") || !strings.Contains(text, "\noptions: inflections=true turns=5\n") {
		t.Errorf("the text report does not name the game as the summary does:\n%.300s", text)
	}
}

func TestVerboseGoesWithTheTextReport(t *testing.T) {
	// --verbose shows every turn's world in the text report; with another
	// form it was taken, and the report was the same bytes without it.
	dir := t.TempDir()
	for _, rep := range []string{"json", "summary", "summary-json", filepath.Join(dir, "r.html"), filepath.Join(dir, "r.json")} {
		code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "4", "--turns", "3", "--verbose", "--report", rep)
		if code != 2 || out != "" || !strings.Contains(errOut, "--verbose has no effect on --report "+rep) {
			t.Errorf("--report %s: exit %d, %.200q, %q; want 2 and --verbose refused", rep, code, out, errOut)
		}
	}
	for _, rep := range []string{"text", filepath.Join(dir, "r.txt")} {
		if code, _, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "4", "--turns", "3", "--verbose", "--report", rep); code != 0 {
			t.Errorf("--report %s: exit %d, %s", rep, code, errOut)
		}
	}
}

func TestPlaySummaryJSON(t *testing.T) {
	// --report summary-json: the standings as one JSON object a program
	// reads (report.Summary), with the numbers the summary prints; the
	// JSON report of the games stays an array.
	code, out, errOut := arbiter(t, "", "play", "reaj", "--seed", "1", "--turns", "5", "--games", "3", "--report", "summary-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s report.Summary
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	_, text, _ := arbiter(t, "", "play", "reaj", "--seed", "1", "--turns", "5", "--games", "3", "--report", "summary")
	if s.Games != 3 || s.Finished != 3 || len(s.Standings) == 0 {
		t.Fatalf("summary %+v", s)
	}
	if s.Ruleset != "reaj" || s.Options["turns"] != "5" || !strings.HasPrefix(text, "game: reaj\noptions: ") {
		t.Errorf("the summary says it played %q, options %v; the text:\n%.200s", s.Ruleset, s.Options, text)
	}
	wins := 0
	for _, st := range s.Standings {
		wins += st.Wins
		row := fmt.Sprintf("%5d  %5d  %.1f%% (%.1f–%.1f)", st.Games, st.Wins, 100*st.WinRate, 100*st.WinRateLow, 100*st.WinRateHigh)
		if st.Games != 3 || !strings.Contains(text, st.Player) || !strings.Contains(text, row) {
			t.Errorf("%+v is not in the summary (%q):\n%s", st, row, text)
		}
	}
	if wins < 3 {
		t.Errorf("%d wins in 3 games", wins)
	}
	_, games, _ := arbiter(t, "", "play", "reaj", "--seed", "1", "--turns", "5", "--games", "3", "--report", "json")
	if !strings.HasPrefix(games, "[") {
		t.Errorf("--report json is no longer an array:\n%.200s", games)
	}
}

func TestPlayReportFileIsWholeOrAbsent(t *testing.T) {
	// A report file appears complete when play ends, from a temporary
	// file beside it; a directory that does not exist is refused before
	// anything is played.
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if code, _, errOut := arbiter(t, "", "play", "ajveciv", "--turns", "2", "--games", "2", "--report", path); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "r.json" {
		t.Errorf("the directory holds %v; want the report only", entries)
	}
	missing := filepath.Join(dir, "no", "r.json")
	code, _, errOut := arbiter(t, "", "play", "ajveciv", "--turns", "2", "--report", missing)
	if code != exitUsage || !strings.Contains(errOut, "--report "+missing) {
		t.Errorf("a report in a missing directory: exit %d, %s", code, errOut)
	}
}

// lockedBuffer is a buffer that a process's output is copied into while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestInterruptEndsTheReport(t *testing.T) {
	// "Ctrl-C stops within a second": an interrupted series stops at once
	// and leaves a complete report of the games so far, on standard output
	// or in its file.
	bin := arbiterBinary(t)
	// A planner thinks at every decision, so that a game is often in
	// progress when the signal comes.
	play := []string{"play", "ajveciv", "--players", "planner,basic", "--turns", "5", "--seed", "1", "--games", "100000"}
	cases := []struct {
		form string
		// shown says whether the report shows a few games played.
		shown func(out, dir string) bool
		// check checks the report of the interrupted series.
		check func(t *testing.T, out, dir string)
	}{
		{"json", func(out, _ string) bool { return strings.Contains(out, `"game": 3,`) }, func(t *testing.T, out, _ string) {
			var games []struct {
				Game    int
				Aborted string
				Result  *json.RawMessage
			}
			if err := json.Unmarshal([]byte(out), &games); err != nil || len(games) < 3 {
				t.Fatalf("the report is not an array of the games so far (%v):\n%.2000s", err, out)
			}
			for k, g := range games {
				last := k == len(games)-1
				if g.Game != k+1 || (g.Result == nil && (!last || g.Aborted != "interrupted")) {
					t.Errorf("game %d of %d: %+v; want every game finished, the last maybe interrupted", k+1, len(games), g)
				}
			}
		}},
		{"text", func(out, _ string) bool { return strings.Contains(out, "\ngame 3: ") }, func(t *testing.T, out, _ string) {
			n := strings.Count(out, "players: ")
			if n < 3 || !strings.Contains(out, fmt.Sprintf("\nseries: %d games, ", n)) {
				t.Errorf("the text report of %d games lacks their standings:\n%s", n, out[max(0, len(out)-2000):])
			}
		}},
		{"r.html", func(_, dir string) bool {
			// The games wait in a spool beside the page, which leads with
			// the series' summary.
			tmp, _ := filepath.Glob(filepath.Join(dir, ".r.html.games.*"))
			if len(tmp) != 1 {
				return false
			}
			b, _ := os.ReadFile(tmp[0])
			return bytes.Contains(b, []byte("<h2>Game 3: "))
		}, func(t *testing.T, _, dir string) {
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			n := strings.Count(page, "<h2>Game ") + strings.Count(page, `<li id="game-`)
			if n < 3 || !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(page, "</script>\n</body>\n</html>\n") ||
				strings.Index(page, "<h2>Series: ") > strings.Index(page, `id="game-1"`) || !strings.Contains(page, fmt.Sprintf("<h2>Series: %d games, ", n)) {
				t.Errorf("the page of %d games is not complete:\n%s", n, page[max(0, len(page)-2000):])
			}
			if tmp, _ := filepath.Glob(filepath.Join(dir, ".r.html.*")); len(tmp) != 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.form, func(t *testing.T) {
			dir := t.TempDir()
			form := c.form
			if strings.Contains(form, ".") {
				form = filepath.Join(dir, form)
			}
			cmd := exec.Command(bin, append(play, "--report", form)...)
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() { cmd.Process.Kill() })
			waitForReport(t, func() bool { return c.shown(stdout.String(), dir) }, done, &stderr)

			sent := time.Now()
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			// "Within a second" here; the bound allows for a machine busy
			// with other work.
			const bound = 10 * time.Second
			var err error
			select {
			case err = <-done:
			case <-time.After(bound):
				t.Fatalf("still running %v after Ctrl-C", bound)
			}
			t.Logf("stopped %v after Ctrl-C", time.Since(sent).Round(time.Millisecond))
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitInternal || !strings.Contains(stderr.String(), "interrupted") {
				t.Fatalf("exit %v; want %d (interrupted)\n%s", err, exitInternal, stderr.String())
			}
			c.check(t, stdout.String(), dir)
		})
	}
}

// waitForReport polls until ready, failing if the process ends first or nothing
// is ready in a minute.
func waitForReport(t *testing.T, ready func() bool, done chan error, stderr fmt.Stringer) {
	t.Helper()
	giveUp := time.After(time.Minute)
	for !ready() {
		select {
		case err := <-done:
			t.Fatalf("the process ended (%v) before the report showed games:\n%s", err, stderr)
		case <-giveUp:
			t.Fatalf("the report shows no games after a minute:\n%s", stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
