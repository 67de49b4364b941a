package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The starter bots play every game with legal, sensible moves built from
// the view, in under 100 lines a game; HTTP bots are told their match.

func TestStartersBeatRandom(t *testing.T) {
	// "Each starter plays every game with legal, sensible moves built from
	// the view": against random, in 2-seat games with the seats swapped, a
	// starter wins more than random does, and commits no fault. (The zombie
	// game is dealt roles by chance; its starters are checked for faults.)
	py, js, gobot := starterFiles(t)
	for _, starter := range []string{"exec:python3 " + py, "exec:node " + js, "exec:" + gobot} {
		for _, game := range []string{"ajveciv", "reaj", "tncc", "territories"} {
			code, out, errOut := arbiter(t, "", "tournament", game, "--players", "random", "--player", starter,
				"--seats", "2", "--games", "5", "--seed", "1", "--json", "--bot-logs", t.TempDir())
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", game, starter, code, errOut)
			}
			var table struct {
				Standings []struct {
					Player       string
					Wins, Faults int
				}
			}
			if err := json.Unmarshal([]byte(out), &table); err != nil || len(table.Standings) != 2 {
				t.Fatalf("%s: %v\n%s", game, err, out)
			}
			wins := map[string]int{}
			for _, s := range table.Standings {
				wins[s.Player] = s.Wins
				if s.Faults != 0 {
					t.Errorf("%s %s: %d faults", game, s.Player, s.Faults)
				}
			}
			name := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(starter, "exec:"), "python3 "))[0]
			starterWins := 0
			for p, w := range wins {
				if p != "random" {
					starterWins = w
				}
			}
			if starterWins <= wins["random"] || starterWins < 8 {
				t.Errorf("%s, %s: the starter won %d of 10 games, random %d", game, filepath.Base(name), starterWins, wins["random"])
			}
		}
		code, out, errOut := arbiter(t, "", "play", "zombie", "--players", "random,random,random,random", "--player", starter,
			"--games", "10", "--seed", "1", "--report", "json", "--bot-logs", t.TempDir())
		var games []struct{ Faults []json.RawMessage }
		if code != 0 || json.Unmarshal([]byte(out), &games) != nil || len(games) != 10 {
			t.Fatalf("zombie %s: exit %d %s", starter, code, errOut)
		}
		for _, g := range games {
			if len(g.Faults) > 0 {
				t.Errorf("zombie %s: faults %s", starter, g.Faults)
			}
		}
	}
}

func TestStartersAreShort(t *testing.T) {
	// "in under 100 lines per game, so a bot writer sees how each game's
	// moves are made"
	for _, dir := range []string{"python", "js", "go"} {
		ext := map[string]string{"python": ".py", "js": ".js", "go": ".go"}[dir]
		for _, game := range []string{"ajveciv", "reaj", "tncc", "territories", "zombie"} {
			data, err := os.ReadFile(filepath.Join("../../starters", dir, game+ext))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "\n"); n >= 100 {
				t.Errorf("starters/%s/%s%s has %d lines", dir, game, ext, n)
			}
		}
	}
}

func TestHTTPBotsAreToldTheirMatch(t *testing.T) {
	// "requests carry no match id, so one URL cannot tell concurrent games
	// apart": every message names its match and seat; a match's messages
	// all carry its id, and no two matches share one.
	var mu sync.Mutex
	seen := map[string]map[string]bool{} // match id -> message types
	games := map[string]string{}         // match id -> the game's number in the hello
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			Type, Match string
			Seat        *int
			ID          int64
			Kind        string
			Default     json.RawMessage
		}
		json.Unmarshal(body, &m)
		mu.Lock()
		if m.Match == "" || m.Seat == nil {
			t.Errorf("a %s message without its match or seat: %s", m.Type, body)
		}
		if seen[m.Match] == nil {
			seen[m.Match] = map[string]bool{}
		}
		seen[m.Match][m.Type] = true
		mu.Unlock()
		switch m.Type {
		case "hello":
			var h struct{ Game string }
			json.Unmarshal(body, &h)
			mu.Lock()
			games[m.Match] = h.Game
			mu.Unlock()
			io.WriteString(w, `{"type":"ready"}`)
		case "request":
			json.NewEncoder(w).Encode(map[string]any{"type": "move", "id": m.ID, "move": m.Default})
		default:
			io.WriteString(w, `{}`)
		}
	}))
	defer srv.Close()
	code, _, errOut := arbiter(t, "", "tournament", "reaj", "--players", "adapt,conquer", "--player", srv.URL+"/bot",
		"--seats", "3", "--games", "2", "--parallel", "2", "--turns", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	mu.Lock()
	defer mu.Unlock()
	// Every game of the schedule (3 seatings, twice), two at a time: each
	// its own match id, told hello, requests, result and bye.
	if len(seen) != 6 {
		t.Errorf("%d match ids for the 6 games the bot played: %v", len(seen), seen)
	}
	for id, types := range seen {
		if !types["hello"] || !types["request"] || !types["result"] || !types["bye"] {
			t.Errorf("match %s: messages %v; want hello, request, result and bye, all with its id", id, types)
		}
	}
}

func TestExampleHTTPBot(t *testing.T) {
	// "Ship a runnable example HTTP bot (Python standard library)": it
	// plays two games at once for one URL, without a fault.
	need(t, "python3")
	cmd := exec.Command("python3", "../../starters/python/http_bot.py", "--port", "0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("the bot says %q, %v", line, err)
	}
	code, stdout, errOut := arbiter(t, "", "tournament", "zombie", "--players", "random,sensible", "--player", url,
		"--seats", "3", "--games", "2", "--parallel", "2", "--json")
	if code != 0 || !strings.Contains(stdout, `"player": "python http starter"`) || !strings.Contains(stdout, `"faults": 0`) || strings.Contains(stdout, `"faults": 1`) {
		t.Errorf("exit %d: %s\n%s", code, errOut, stdout)
	}
}

func TestStartersPlayTheDefaultsOfAGameTheyDoNotKnow(t *testing.T) {
	// A starter told of a game it has no code for (a game Arbiter has
	// added since) plays each request's default, and says so on its
	// standard error, rather than crash.
	py, js, gobot := starterFiles(t)
	in := `{"type": "hello", "match": "m", "protocol": 1, "game": "chess", "seat": 0, "players": ["a", "b"], "seed": 18446744073709551615}
{"type": "request", "id": 7, "kind": "turn", "default": "e4", "view": {}}
{"type": "bye"}
`
	for _, argv := range [][]string{{"python3", py}, {"node", js}, {gobot}} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = strings.NewReader(in)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || len(lines) != 2 || !strings.Contains(lines[1], `"id":7`) && !strings.Contains(lines[1], `"id": 7`) || !strings.Contains(lines[1], `"e4"`) {
			t.Errorf("%s: %v\n%s\n%s", filepath.Base(argv[len(argv)-1]), err, out, stderr.String())
		}
		if !strings.Contains(stderr.String(), "not a game this bot knows") {
			t.Errorf("%s says nothing of the game it does not know: %q", filepath.Base(argv[len(argv)-1]), stderr.String())
		}
	}
}

// starterFiles returns the starter bots: the Python and node scripts, and
// the Go starter, built. It skips without python3 or node, except in CI.
func starterFiles(t *testing.T) (py, js, gobot string) {
	t.Helper()
	need(t, "python3")
	need(t, "node")
	gobot, err := goStarter()
	if err != nil {
		t.Fatal(err)
	}
	py, _ = filepath.Abs("../../starters/python/bot.py")
	js, _ = filepath.Abs("../../starters/js/bot.js")
	return py, js, gobot
}
