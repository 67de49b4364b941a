package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Bots and bot writers: a lone --player meets the default players, and a
// program's standings and reports carry the name it gives itself.

func TestLonePlayerAndBotNames(t *testing.T) {
	need(t, "python3")
	// Two copies of the Python starter: both call themselves "python
	// starter"; the second is made unique.
	dir := t.TempDir()
	var specs []string
	for _, name := range []string{"one", "two"} {
		copy := filepath.Join(dir, name)
		if err := os.CopyFS(copy, os.DirFS("../../starters/python")); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, "exec:python3 "+filepath.Join(copy, "bot.py"))
	}
	code, out, errOut := arbiter(t, "", "play", "reaj", "--player", specs[0], "--player", specs[1], "--seed", "1", "--games", "2",
		"--report", "json", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var games []struct {
		Players []string
		Specs   []string
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		// "A lone --player joins the default players": Reaj's six, then
		// the two programs.
		if len(g.Players) != 8 || g.Players[0] != "conquer" || g.Players[6] != "python starter" || g.Players[7] != "python starter #2" {
			t.Errorf("players %q; want the six fixed players and the two starters by their names", g.Players)
		}
		if len(g.Specs) != 8 || g.Specs[6] != specs[0] || g.Specs[7] != specs[1] || g.Specs[0] != "" {
			t.Errorf("specs %q; want the programs' specs", g.Specs)
		}
	}
	code, out, _ = arbiter(t, "", "play", "reaj", "--player", specs[0], "--seed", "1", "--games", "2", "--report", "summary", "--bot-logs", t.TempDir())
	if code != 0 || !strings.Contains(out, "python starter ") || strings.Contains(out, "exec:") {
		t.Errorf("the standings do not name the program by its name:\n%s", out)
	}
	code, out, errOut = arbiter(t, "", "tournament", "reaj", "--players", "adapt,conquer", "--player", specs[0], "--seats", "3", "--bot-logs", t.TempDir())
	if code != 0 || !strings.Contains(out, "python starter ") || strings.Contains(out, "exec:") {
		t.Errorf("the tournament's standings do not name the program by its name: %s\n%s", errOut, out)
	}
}

func TestBoardsCallAProgramByItsName(t *testing.T) {
	// A TNCC board names the countries' players: a program that named
	// itself is called by that name there too, as in the header and the
	// scores, never by its command, at the start, the end and every cycle.
	need(t, "python3")
	bot, _ := filepath.Abs("../../starters/python/bot.py")
	code, out, errOut := arbiter(t, "", "play", "tncc", "--players", "turtle,war", "--player", "exec:python3 "+bot, "--seed", "1",
		"--report", "text", "--verbose", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "exec:") || strings.Count(out, "   3 python starter ") < 3 {
		t.Errorf("the boards do not call the program by its name:\n%.1500s", out)
	}
}

func TestBotLogsGoWithTheRecords(t *testing.T) {
	// "bot-logs/ appears in the working directory; put logs under the
	// record directory when there is one, and say where they went."
	need(t, "python3")
	bot, _ := filepath.Abs("../../starters/python/bot.py")
	records := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "reaj", "--player", "exec:python3 "+bot, "--seed", "1", "--report", "summary", "--record", records)
	logs := filepath.Join(records, "bot-logs")
	if code != 0 || !strings.Contains(errOut, "bot logs: each program's standard error is in "+logs) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(logs, "game-1-seat-7.log")); err != nil {
		t.Errorf("the program's log is not with the records: %v", err)
	}
	// Without records, a directory of their own, never the working one;
	// removed at the end when no program wrote anything there.
	_, statErr := os.Stat("bot-logs")
	code, _, errOut = arbiter(t, "", "play", "reaj", "--player", "exec:python3 "+bot, "--seed", "1", "--report", "summary")
	if code != 0 || strings.Contains(errOut, "bot logs:") {
		t.Errorf("exit %d, %s; want no bot logs of a program that wrote nothing", code, errOut)
	}
	talker := filepath.Join(t.TempDir(), "talker.sh")
	if err := os.WriteFile(talker, []byte("#!/bin/sh\necho thinking >&2\nexec python3 "+bot+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = arbiter(t, "", "play", "reaj", "--player", "exec:sh "+talker, "--seed", "1", "--report", "summary")
	_, after := os.Stat("bot-logs")
	if code != 0 || !strings.Contains(errOut, "bot logs: each program's standard error is in "+os.TempDir()) || (os.IsNotExist(statErr) && after == nil) {
		t.Errorf("exit %d, %s; bot-logs in the working directory: %v", code, errOut, after)
	}
	if i := strings.Index(errOut, os.TempDir()); i >= 0 {
		dir := strings.Fields(errOut[i:])[0]
		if _, err := os.Stat(filepath.Join(dir, "game-1-seat-7.log")); err != nil {
			t.Errorf("no log where the run said: %v", err)
		}
		os.RemoveAll(dir)
	}
}

// namedBot writes a program that names itself name in its ready and plays
// every request's default, and returns its spec.
func namedBot(t *testing.T, name string) string {
	t.Helper()
	need(t, "python3")
	path := filepath.Join(t.TempDir(), "named.py")
	src := `import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "name": ` + strconv.Quote(name) + `}), flush=True)
    elif m["type"] == "request":
        print(json.dumps({"type": "move", "id": m["id"], "move": m["default"]}), flush=True)
    elif m["type"] == "bye":
        break
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return "exec:python3 " + path
}

func TestAProgramNamedAsABuiltInPlayerStaysApart(t *testing.T) {
	// A program that calls itself basic.develop, beside the six basic AIs
	// that --players basic brings in: the series' standings counted its
	// games as the built-in basic.develop's (4 games of 2), and a
	// tournament's listed basic.develop twice.
	bot := namedBot(t, "basic.develop")
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--players", "basic", "--player", bot, "--turns", "3", "--seed", "1",
		"--games", "2", "--report", "summary-json", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum struct {
		Standings []struct {
			Player string
			Spec   string
			Games  int
		}
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range sum.Standings {
		if s.Games != 2 || seen[s.Player] {
			t.Errorf("%s (%s): %d games; want every player apart, in its 2 games:\n%s", s.Player, s.Spec, s.Games, out)
		}
		seen[s.Player] = true
	}
	if !seen["basic.develop #2"] {
		t.Errorf("the program is not basic.develop #2:\n%s", out)
	}
	code, out, errOut = arbiter(t, "", "tournament", "ajveciv", "--players", "basic", "--player", bot, "--turns", "3", "--seed", "1",
		"--seats", "7", "--bot-logs", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, " basic.develop  ") != 1 || !strings.Contains(out, " basic.develop #2 ") {
		t.Errorf("the tournament's standings do not tell the program from basic.develop:\n%s", out)
	}
}

func TestProgramsKeepTheirNamesWhenATournamentGoesOnOrMerges(t *testing.T) {
	// Standings call a program by the name it gave in its ready; a run
	// that went on from its --out file called a program that played none
	// of the games left by its command, and so did a merge of shards
	// (where no program runs): they printed other standings than the
	// tournament played through. The results file keeps the names.
	bots := []string{namedBot(t, "ay"), namedBot(t, "bee"), namedBot(t, "cee")}
	dir := t.TempDir()
	tour := func(out string, more ...string) []string {
		args := []string{"tournament", "reaj", "--turns", "5", "--seats", "2", "--seed", "9", "--out", filepath.Join(dir, out), "--bot-logs", dir}
		for _, b := range bots {
			args = append(args, "--player", b)
		}
		return append(args, more...)
	}
	code, whole, errOut := arbiter(t, "", tour("whole.jsonl")...)
	if code != 0 || !strings.Contains(whole, " ay ") || !strings.Contains(whole, " cee ") || strings.Contains(whole, "exec:") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, whole)
	}
	wholeFile, err := os.ReadFile(filepath.Join(dir, "whole.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Stopped after game 4 of 6: the games left, 5 and 6, are bee's and
	// cee's; ay plays none of them.
	lines := strings.SplitAfter(string(wholeFile), "\n")
	if err := os.WriteFile(filepath.Join(dir, "part.jsonl"), []byte(strings.Join(lines[:5], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"going on from game 5", "nothing more to play"} {
		code, out, errOut := arbiter(t, "", tour("part.jsonl")...)
		if code != 0 || !strings.Contains(errOut, run) {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if out != whole {
			t.Errorf("%s, the standings are\n%s\nwant those of the tournament played through:\n%s", run, out, whole)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "part.jsonl")); string(got) != string(wholeFile) {
		t.Errorf("the results file that went on is\n%s\nwant\n%s", got, wholeFile)
	}
	for i := range 2 {
		if code, _, errOut := arbiter(t, "", tour(fmt.Sprintf("s%d.jsonl", i), "--shard", fmt.Sprintf("%d/2", i))...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
	}
	code, out, errOut := arbiter(t, "", "tournament", "merge", filepath.Join(dir, "s1.jsonl"), filepath.Join(dir, "s0.jsonl"))
	if code != 0 || out != whole {
		t.Errorf("exit %d: %s\nthe shards merged make\n%s\nwant the single run's\n%s", code, errOut, out, whole)
	}
}

func TestADuelThatGoesOnCallsItsProgramsByTheirNames(t *testing.T) {
	// A duel run again over its decided --out file, with no pair left to
	// play, called A and B by their commands, where the duel played
	// through called them by the names they gave.
	a, b := namedBot(t, "ay"), namedBot(t, "bee")
	dir := t.TempDir()
	duel := []string{"duel", "reaj", a, b, "--field", "adapt", "--turns", "5", "--games", "4", "--seed", "1",
		"--out", filepath.Join(dir, "duel.jsonl"), "--bot-logs", dir}
	code, whole, errOut := arbiter(t, "", duel...)
	if code != 0 || !strings.Contains(whole, "(ay is exec:") || !strings.Contains(whole, "): ay won ") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, whole)
	}
	code, again, errOut := arbiter(t, "", duel...)
	if code != 0 || !strings.Contains(errOut, "nothing more to play") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if again != whole {
		t.Errorf("the duel run again says\n%s\nwant what it said played through:\n%s", again, whole)
	}
}
