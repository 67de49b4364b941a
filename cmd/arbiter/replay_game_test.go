package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// outGame is a game's line of a tournament's --out file, or one of a duel
// pair's games: its seed, its players in seat order and how it ended.
type outGame struct {
	Seed   uint64   `json:"seed"`
	Seats  []string `json:"seats"`
	Scores []int64  `json:"scores"`
	Ranks  []int    `json:"ranks"`
	Status []string `json:"status"`
}

// outGames reads the games of a tournament's or a duel's --out file.
func outGames(t *testing.T, path string) []outGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []outGame
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		var line struct {
			outGame
			Game  int             `json:"game"`
			Pair  int             `json:"pair"`
			Games json.RawMessage `json:"games"` // a duel's pair; a number in a tournament's header
		}
		if err := json.Unmarshal(s.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		switch {
		case line.Pair > 0:
			var pair []outGame
			if err := json.Unmarshal(line.Games, &pair); err != nil {
				t.Fatal(err)
			}
			games = append(games, pair...)
		case line.Game > 0:
			games = append(games, line.outGame)
		}
	}
	return games
}

// replays plays g again as docs/protocol.md and the README say, with
// arbiter play --seed SEED --players in the file's seat order (and the
// run's game options), keeping its record, and fails unless it ends as
// the file says.
func replays(t *testing.T, game string, options []string, g outGame) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"play", game, "--seed", strconv.FormatUint(g.Seed, 10), "--players", strings.Join(g.Seats, ","),
		"--record", dir, "--report", "json"}, options...)
	code, out, errOut := arbiter(t, "", args...)
	if code != 0 {
		t.Fatalf("arbiter %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	var report []struct {
		Result outGame `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report) != 1 {
		t.Fatalf("arbiter %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	got := report[0].Result
	if !reflect.DeepEqual(got.Scores, g.Scores) || !reflect.DeepEqual(got.Ranks, g.Ranks) || !reflect.DeepEqual(got.Status, g.Status) {
		t.Errorf("arbiter %s: scores %v, ranks %v, status %q; the --out file's game: scores %v, ranks %v, status %q",
			strings.Join(args, " "), got.Scores, got.Ranks, got.Status, g.Scores, g.Ranks, g.Status)
	}
	if _, err := os.Stat(filepath.Join(dir, "game-0001.jsonl")); err != nil {
		t.Errorf("no record: %v", err)
	}
}

// "To get the record of one game of a tournament or a duel, play it again:
// arbiter play GAME --seed SEED --players ... with the seed of its line and
// its players in the line's seat order, and the run's game options."
// Games with chance in them (AjveCiv's offers, the zombies' deal,
// territories' dice) and a random player, so that a wrong seed or seat
// order would show.
func TestPlayReplaysAGameOfATournamentOrADuel(t *testing.T) {
	for _, c := range []struct {
		name    string
		run     []string
		game    string
		options []string
	}{
		{"tournament", []string{"tournament", "ajveciv", "--players", "basic.develop,random,basic.conquer", "--seats", "2", "--seed", "7"}, "ajveciv", []string{"--turns", "20"}},
		{"tournament of groups", []string{"tournament", "zombie", "--players", "sensible,random,cautious,spreader", "--rounds", "4", "--appearances", "3", "--seed", "3"}, "zombie", nil},
		{"duel", []string{"duel", "zombie", "sensible", "random", "--games", "4", "--seed", "11"}, "zombie", nil},
		{"duel of two", []string{"duel", "territories", "greedy", "random", "--field", "none", "--games", "4", "--seed", "2"}, "territories", []string{"--turns", "30"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			args := append(append(c.run, "--out", out), c.options...)
			if code, _, errOut := arbiter(t, "", args...); code != 0 {
				t.Fatalf("arbiter %s: exit %d: %s", strings.Join(args, " "), code, errOut)
			}
			games := outGames(t, out)
			if len(games) < 3 {
				t.Fatalf("%d games in %s", len(games), out)
			}
			if c.run[0] == "duel" && reflect.DeepEqual(games[0].Seats, games[1].Seats) {
				t.Fatalf("a pair's games in the same seat order: %v", games[0].Seats)
			}
			for _, g := range games {
				replays(t, c.game, c.options, g)
			}
			if c.name == "tournament" {
				// The docs' example is this tournament's second game.
				if g := games[1]; g.Seed != 8 || strings.Join(g.Seats, ",") != "random,basic.develop" {
					t.Errorf("game 2: seed %d, seats %v", g.Seed, g.Seats)
				}
				for name, doc := range botDocs(t) {
					if !strings.Contains(doc, "arbiter play ajveciv --seed 8 --players random,basic.develop --turns 20 --record replay/") {
						t.Errorf("%s gives no example of a game played again", name)
					}
				}
			}
		})
	}
}
