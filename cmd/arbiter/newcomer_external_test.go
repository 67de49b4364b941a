package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	src, err := os.ReadFile("../../starters/python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, name := range []string{"one", "two"} {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		path := filepath.Join(dir, name, "bot.py")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, "exec:python3 "+path)
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
