package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// arbiter runs the command line in this process and returns its exit code
// and output.
func arbiter(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPlayDefault(t *testing.T) {
	// "arbiter play ajveciv — with no other flags — plays a full 100-turn
	// game among the six basic AIs and prints the text report."
	code, out, errOut := arbiter(t, "", "play", "ajveciv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"game 1: ajveciv (original), seed ",
		"players: 1 basic.conquer, 2 basic.exchange, 3 basic.discover, 4 basic.expand,\n  5 basic.develop, 6 basic.consent\n", // a seat's number stays with its player
		"options: inflections=true turns=100\n",
		"at the start", "at the end (turn 100)", "ended: turns\n", "final scores (score: yield plus population)", "WINNER",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestPlaySameSeedSameBytes(t *testing.T) {
	// "Reports, no wall-clock timings in them (the same seed gives the same
	// bytes)".
	_, a, _ := arbiter(t, "", "play", "ajveciv", "--seed", "77", "--games", "2", "--report", "json")
	_, b, _ := arbiter(t, "", "play", "ajveciv", "--seed", "77", "--games", "2", "--report", "json")
	if a != b || a == "" {
		t.Error("two plays with the same seed differ")
	}
}

func TestPlayRandomSeedIsPrinted(t *testing.T) {
	// "--seed (absent: a random seed, printed in the report)"
	_, out, _ := arbiter(t, "", "play", "ajveciv", "--turns", "3", "--report", "json")
	var games []struct{ Seed uint64 }
	if err := json.Unmarshal([]byte(out), &games); err != nil || len(games) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	code, again, _ := arbiter(t, "", "play", "ajveciv", "--turns", "3", "--report", "json", "--seed", jsonNumber(games[0].Seed))
	if code != 0 || again != out {
		t.Error("replaying with the printed seed does not give the same game")
	}
}

func jsonNumber(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func TestPlayJSONReport(t *testing.T) {
	// "--report json (a JSON array, one object per game: seed, players,
	// faults, result, and history: the initial world then the world after
	// every turn and inflection, in the seed's world shape)"
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "9", "--games", "3", "--report", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var games []struct {
		Seed    uint64
		Players []string
		Faults  []json.RawMessage
		Result  struct{ Scores []int64 }
		History []struct {
			Feels     [][]int
			Societies []struct {
				Nation struct{ Population, Yield int }
			}
			Yield *int
		}
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("%d games; want 3", len(games))
	}
	for k, g := range games {
		if g.Seed != 9+uint64(k) {
			t.Errorf("game %d seed %d; want %d (game k uses seed S+k)", k+1, g.Seed, 9+k)
		}
		if len(g.Players) != 6 || g.Faults == nil || len(g.Result.Scores) != 6 {
			t.Errorf("game %d: %d players, faults %v, scores %v", k+1, len(g.Players), g.Faults, g.Result.Scores)
		}
		if len(g.History) != 1+100+9 {
			t.Errorf("game %d: %d worlds in the history; want the start, 100 turns and 9 inflections", k+1, len(g.History))
		}
		if h := g.History[0]; h.Yield == nil || *h.Yield != 20 || len(h.Feels) != 6 || len(h.Societies) != 6 {
			t.Errorf("game %d's first world is not the starting world in the seed's shape: %+v", k+1, h)
		}
	}
}

func TestPlayReportFiles(t *testing.T) {
	// "--report FILE.json (the same to a file), and --report FILE.html: a
	// self-contained page (no network) with a chart per game of every
	// society's yield and population over the turns."
	dir := t.TempDir()
	for _, name := range []string{"r.json", "r.html", "r.txt"} {
		path := filepath.Join(dir, name)
		code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "1", "--games", "2", "--report", path)
		if code != 0 || out != "" || !strings.Contains(errOut, "wrote the report to "+path) {
			t.Fatalf("%s: exit %d, out %q, err %q", name, code, out, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".json":
			var v []any
			if json.Unmarshal(b, &v) != nil || len(v) != 2 {
				t.Errorf("r.json is not an array of two games")
			}
		case ".html":
			page := string(b)
			if !strings.Contains(page, "<figcaption>yield</figcaption>") || !strings.Contains(page, "<figcaption>population</figcaption>") {
				t.Error("the page lacks the yield and population charts")
			}
			if strings.Count(page, "<polyline") != 2*(6+6+1) {
				t.Errorf("%d lines drawn; want one per society per chart, and the world's yield, per game", strings.Count(page, "<polyline"))
			}
			if strings.Contains(page, "<script src") || strings.Contains(page, "<link") || strings.Contains(page, "src=") {
				t.Error("the page loads something: it must be self-contained")
			}
		case ".txt":
			if !strings.Contains(string(b), "series: 2 games") {
				t.Error("the text report lacks the series summary")
			}
		}
	}
}

func TestPlayOptions(t *testing.T) {
	// "Options: --seed, --turns, --no-inflections, --games N, --deadline"
	// (--deadline is for players that are timed: the planner is.)
	code, out, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "3", "--turns", "25", "--no-inflections", "--players", "planner,basic.expand", "--deadline", "1m", "--report", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var games []struct {
		Options map[string]string
		History []any
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil {
		t.Fatal(err)
	}
	if len(games[0].History) != 26 {
		t.Errorf("%d worlds; want the start and 25 turns, no inflections", len(games[0].History))
	}
	if games[0].Options["turns"] != "25" || games[0].Options["inflections"] != "false" {
		t.Errorf("options %v", games[0].Options)
	}
}

func TestPlayPlayerForms(t *testing.T) {
	// "--players in the seed's forms and the rules page's names"; "Also a
	// repeatable --player SPEC."
	cases := []struct {
		args  []string
		seats int
		first string
	}{
		{[]string{"--players", "basic"}, 6, "basic.conquer"},
		{[]string{"--players", "basic.discover,random"}, 2, "basic.discover"},
		{[]string{"--players", "basic2"}, 15, "basic2.conquer-exchange"},
		{[]string{"--players", "basic2.conquer-exchange,basic3.develop-consent-expand"}, 2, "basic2.conquer-exchange"},
		{[]string{"--players", "basic3"}, 20, "basic3.conquer-exchange-discover"},
		{[]string{"--players", "planner,basic.develop"}, 2, "planner"},
		{[]string{"--player", "random", "--player", "basic.consent", "--players", "basic.expand"}, 3, "basic.expand"},
	}
	for _, c := range cases {
		args := append([]string{"play", "ajveciv", "--seed", "2", "--turns", "3", "--report", "json"}, c.args...)
		code, out, errOut := arbiter(t, "", args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
			continue
		}
		var games []struct{ Players []string }
		if err := json.Unmarshal([]byte(out), &games); err != nil {
			t.Fatal(err)
		}
		if p := games[0].Players; len(p) != c.seats || p[0] != c.first {
			t.Errorf("%v: players %v; want %d seats starting with %s", c.args, p, c.seats, c.first)
		}
	}
}

func TestBadInput(t *testing.T) {
	// "Unknown game or player names, bad flags, an unreadable or malformed
	// world file ... each give one clear message naming the problem, with
	// the exit codes of design.md, never a panic."
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.jsonl")
	os.WriteFile(garbage, []byte("not a record\n"), 0o644)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"play", "chess"}, 2, `unknown game "chess"; games: ajveciv`},
		{[]string{"play"}, 2, "name a game"},
		{[]string{"play", "ajveciv", "--players", "basic,wizard"}, 2, `unknown player "wizard"`},
		{[]string{"play", "ajveciv", "--players", "basic.flee"}, 2, `unknown value "flee"`},
		{[]string{"play", "ajveciv", "--players", "basic2.conquer"}, 2, "basic2 takes 2 value(s)"},
		{[]string{"play", "ajveciv", "--players", "basic2.conquer-conquer"}, 2, "named twice"},
		{[]string{"play", "ajveciv", "--players", "random"}, 2, "takes 2 to 20 players; 1 given (random): name 1 more"},
		{[]string{"play", "ajveciv", "--players", "basic3,basic"}, 2, "takes 2 to 20 players; 26 given (basic3.conquer-exchange-discover, "},
		{[]string{"play", "ajveciv", "--players", "basic3,basic"}, 2, "): leave out 6"},
		{[]string{"play", "zombie", "--players", "sensible"}, 2, "zombie takes 3 to 64 players; 1 given (sensible): name 2 more"},
		{[]string{"play", "ajveciv", "--players", "basic,,random"}, 2, "is empty"},
		{[]string{"play", "ajveciv", "--player", "repl,basic"}, 2, `--player "repl,basic": --player takes one player (repeat it for more); give a list as --players repl,basic`},
		{[]string{"tournament", "reaj", "--player", "fixed, random"}, 2, `--player "fixed, random": --player takes one player (repeat it for more); give a list as --players fixed,random`},
		{[]string{"play", "ajveciv", "--turns", "0"}, 2, "--turns 0: allowed 1 to 100000"},
		{[]string{"play", "zombie", "--zombies", "0"}, 2, "--zombies 0: allowed 1 to 3 with 5 seats, so that at least 2 humans play"},
		{[]string{"play", "zombie", "--zombies", "4"}, 2, "--zombies 4: allowed 1 to 3 with 5 seats, so that at least 2 humans play"},
		{[]string{"play", "zombie", "--players", "sensible,cautious,random", "--zombies", "0"}, 2, "--zombies 0: allowed only 1 with 3 seats"},
		{[]string{"play", "ajveciv", "--turns", "many"}, 2, `--turns "many": give a whole number`},
		{[]string{"play", "ajveciv", "--games", "0"}, 2, "at least one game"},
		{[]string{"play", "ajveciv", "--seed", "-1"}, 2, `--seed "-1": give a whole number, 0 or more`},
		{[]string{"play", "ajveciv", "--deadline", "5"}, 2, `--deadline "5": give a duration such as 500ms, 2s or 1m30s`},
		{[]string{"play", "ajveciv", "--games", "99999999999999999999"}, 2, `--games "99999999999999999999": it is out of range`},
		{[]string{"play", "ajveciv", "--players", "basic.cnquer"}, 2, `unknown value "cnquer": did you mean conquer?`},
		{[]string{"play", "ajveciv", "--deadline", "-1s"}, 2, "positive duration"},
		{[]string{"play", "tncc", "--players", "REPL,blitz"}, 2, `unknown player "REPL": did you mean repl, a person at the terminal? TNCC players are nothing,`},
		{[]string{"play", "reaj", "--players", "rpel,fixed"}, 2, `unknown player "rpel": did you mean repl, a person at the terminal? Reaj players are`},
		{[]string{"play", "territories", "--players", "repl,MCTS"}, 2, `unknown player "MCTS": did you mean mcts, the search AI (mcts:ms=N, mcts:playouts=N, mcts:level=easy|medium|hard)? territories players are`},
		{[]string{"play", "ajveciv", "--report", "r.pdf"}, 2, "want text, json"},
		{[]string{"play", "ajveciv", "--report", "sumary"}, 2, `--report "sumary": did you mean summary? It takes text, json, summary`},
		{[]string{"play", "ajveciv", "--colour", "red"}, 2, "unknown flag"},
		{[]string{"teleport"}, 2, "unknown command"},
		{[]string{"rules", "chess"}, 2, "unknown game"},
		{[]string{"play", "tncc", "--config", "nofile.yaml"}, 2, `--config nofile.yaml: no such file`},
		{[]string{"rules", "ajvciv"}, 2, `unknown game "ajvciv"; did you mean ajveciv? Games: ajveciv, reaj`},
		{[]string{"rules"}, 2, "takes a game"},
		{[]string{"replay", filepath.Join(dir, "missing.jsonl")}, 2, "no such file"},
		{[]string{"replay", garbage}, 2, "record line 1"},
		{[]string{"step", "ajveciv"}, 2, "give both --state and --moves"},
		{[]string{"step", "zombie"}, 2, "zombie has no world JSON to step"},
	}
	for _, c := range cases {
		code, _, errOut := arbiter(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("arbiter %s: exit %d, %q; want exit %d and %q", strings.Join(c.args, " "), code, errOut, c.code, c.msg)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("arbiter %s: the message is more than one line:\n%s", strings.Join(c.args, " "), errOut)
		}
	}
}

func TestRecordAndReplay(t *testing.T) {
	// "--record DIR writes one file per game (game-0001.jsonl, …); arbiter
	// replay FILE re-runs it from its setup and moves and fails loudly if
	// the final-state hash or the result differs."
	dir := t.TempDir()
	code, _, errOut := arbiter(t, "", "play", "ajveciv", "--seed", "4", "--games", "2", "--record", dir, "--players", "basic,random,planner", "--turns", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"game-0001.jsonl", "game-0002.jsonl"} {
		path := filepath.Join(dir, name)
		code, out, errOut := arbiter(t, "", "replay", path)
		if code != 0 || !strings.Contains(out, "ok: the replay reaches the recorded result and final state (sha256:") {
			t.Fatalf("replay %s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "game-0001.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")

	tampered := func(name string, edit func([]string)) string {
		l := append([]string(nil), lines...)
		edit(l)
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o644)
		return path
	}
	// A result that differs.
	path := tampered("result.jsonl", func(l []string) {
		l[len(l)-1] = strings.Replace(l[len(l)-1], `"scores":[`, `"scores":[1`, 1)
	})
	if code, _, errOut := arbiter(t, "", "replay", path); code != 1 || !strings.Contains(errOut, "result differs") {
		t.Errorf("changed result: exit %d, %s", code, errOut)
	}
	// A hash that differs.
	path = tampered("hash.jsonl", func(l []string) {
		l[len(l)-1] = strings.Replace(l[len(l)-1], `"hash":"sha256:`, `"hash":"sha256:ff`, 1)
	})
	if code, _, errOut := arbiter(t, "", "replay", path); code != 1 || !strings.Contains(errOut, "final state differs") {
		t.Errorf("changed hash: exit %d, %s", code, errOut)
	}
	// A move dropped: the rest no longer fits.
	path = tampered("dropped.jsonl", func(l []string) { l[3] = l[4] })
	if code, _, errOut := arbiter(t, "", "replay", path); code != 1 {
		t.Errorf("dropped move: exit %d, %s", code, errOut)
	}
	// The JSON verdict, for programs.
	code, out, _ := arbiter(t, "", "replay", "--json", filepath.Join(dir, "game-0002.jsonl"))
	var v struct {
		OK      bool
		Ruleset string
		Seed    uint64
		Moves   int
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || !v.OK || v.Ruleset != "ajveciv" || v.Seed != 5 || v.Moves == 0 {
		t.Errorf("replay --json: exit %d, %s", code, out)
	}
}

func TestReplayChecks(t *testing.T) {
	// replay checks what it can and says what it cannot: an edited name,
	// fault, move or timing, or a dropped line, is refused at its line by
	// the digest of the lines; a record without the digest replays with a
	// note, and a fault whose move is not the default is refused at its
	// line.
	dir := t.TempDir()
	if code, _, errOut := arbiter(t, "", "play", "reaj", "--players", "conquer,steward", "--turns", "3", "--seed", "2", "--record", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := filepath.Join(dir, "game-0001.jsonl")
	code, out, errOut := arbiter(t, "", "replay", path)
	for _, want := range []string{
		"reaj, seed 2, 2 players, 6 moves, 0 faults\n",
		"ok: the replay reaches the recorded result and final state (sha256:",
		"ok: every move is legal; no step has a fault",
		"ok: the lines match their digest (sha256:",
		"not checked: who sat in each seat, and that each fault and timing really happened: the runner's word, kept as written by the digest",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("replay: exit %d; want it to say %q:\n%s%s", code, want, out, errOut)
		}
	}
	data, _ := os.ReadFile(path)
	text := string(data)
	// The record as Arbiter wrote it before it kept the digest.
	k := strings.LastIndex(text, `,"lines":"`)
	old := text[:k] + "}\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	edited := "record line 8: the record was edited: lines 1 to 7 do not match the digest of them in this end line"
	for _, c := range []struct {
		name, text, want string
	}{
		{"a name", strings.Replace(text, `"players":["conquer","steward"]`, `"players":["conquer","stewart"]`, 1), edited},
		{"a fault", strings.Replace(text, `{"seat":1,"move":"adapt"}`, `{"seat":1,"move":"adapt","fault":{"kind":"timeout"}}`, 1), edited},
		{"a timing", strings.Replace(text, `{"seat":1,"move":"adapt"}`, `{"seat":1,"move":"adapt","decision_us":900}`, 1), edited},
		{"a move", strings.Replace(text, `{"seat":1,"move":"expand"}`, `{"seat":1,"move":"adapt"}`, 1), edited},
		{"a line dropped", strings.Replace(text, `{"seat":0,"move":"conquer"}`+"\n", "", 1), "record line 7: the record was edited: lines 1 to 6"},
		{"an old record's fault", strings.Replace(old, `{"seat":0,"move":"conquer"}`, `{"seat":0,"move":"conquer","fault":{"kind":"timeout"}}`, 1),
			`replay: step 0 (record line 2): seat 0's move "conquer" has a fault (timeout), but a fault means the default move was applied, and the default is "adapt"`},
		{"an old record's move", strings.Replace(old, `{"seat":1,"move":"expand"}`, `{"seat":1,"move":"adapt"}`, 1), "replay: the result differs"},
	} {
		code, out, errOut := arbiter(t, "", "replay", write("edited.jsonl", c.text))
		if code != 1 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%s: exit %d, %s%s; want exit 1 and %q", c.name, code, out, errOut, c.want)
		}
	}
	// An old record replays, and says that its lines cannot be checked.
	code, out, errOut = arbiter(t, "", "replay", write("old.jsonl", old))
	if code != 0 || !strings.Contains(out, "not checked: the lines: the record has no digest of them") || strings.Contains(out, "ok: the lines") {
		t.Errorf("an old record: exit %d\n%s%s", code, out, errOut)
	}
	// A record cut before its end line has no digest to show an edit: a
	// renamed player, there, does not hold, unless --partial accepts a
	// record cut short (a match under way, a run killed), and then the
	// lines are noted as unchecked.
	cut := strings.Replace(text[:strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n")+1], `"players":["conquer","steward"]`, `"players":["conquer","stewart"]`, 1)
	code, out, errOut = arbiter(t, "", "replay", write("cut.jsonl", cut))
	if want := "the record stops after 6 moves, before its end line (a match under way, or a run that was killed): without the end line's digest, an edit of its lines cannot be seen; its moves replay, and --partial accepts it so"; code != 1 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("a record cut short: exit %d, %s%s; want exit 1 and %q", code, out, errOut, want)
	}
	code, out, errOut = arbiter(t, "", "replay", "--partial", filepath.Join(dir, "cut.jsonl"))
	if code != 0 || !strings.Contains(out, "ok: the moves replay; the record stops before the end") || !strings.Contains(out, "not checked: the lines") {
		t.Errorf("a record cut short, with --partial: exit %d\n%s%s", code, out, errOut)
	}
	// A run killed while it wrote a line leaves half of it: --partial
	// leaves it out, and checks the lines before it.
	half := cut + `{"seat":1,"mo`
	code, out, errOut = arbiter(t, "", "replay", "--partial", write("half.jsonl", half))
	if code != 0 || !strings.Contains(out, ", 6 moves, ") {
		t.Errorf("a record cut in a line, with --partial: exit %d\n%s%s", code, out, errOut)
	}
	// The JSON verdict says the same.
	code, out, _ = arbiter(t, "", "replay", "--json", path)
	var v struct {
		OK                 bool
		Lines              string
		Checked, Unchecked []string
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || !v.OK || !strings.HasPrefix(v.Lines, "sha256:") || len(v.Checked) != 3 || len(v.Unchecked) != 1 {
		t.Errorf("replay --json: exit %d, %s", code, out)
	}
}

func TestStep(t *testing.T) {
	// "arbiter step ajveciv --state world.json --moves moves.json [--seed N]
	// (seed default 0) prints the next world in the same JSON shape."
	ex := filepath.Join("..", "..", "examples", "ajveciv")
	code, out, errOut := arbiter(t, "", "step", "ajveciv", "--state", filepath.Join(ex, "world.json"), "--moves", filepath.Join(ex, "turn.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	const want = `{"feels":[[0,-5,1],[-4,0,1],[-1,0,0]],"societies":[` +
		`{"values":{"conquer":2,"exchange":3,"discover":2,"expand":2,"develop":2,"consent":2},"nation":{"population":3,"yield":1}},` +
		`{"values":{"conquer":5,"exchange":1,"discover":2,"expand":3,"develop":2,"consent":0},"nation":{"population":5,"yield":13}},` +
		`{"values":{"conquer":2,"exchange":2,"discover":2,"expand":2,"develop":2,"consent":2},"nation":{"population":0,"yield":1},"dead":true}],"yield":20}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	// The output is a world again: step it once more, from standard input.
	code, _, errOut = arbiter(t, out, "step", "ajveciv", "--state", "-", "--moves", filepath.Join(ex, "inflection.json"))
	if code != 0 {
		t.Errorf("stepping the output: exit %d: %s", code, errOut)
	}

	// "It rejects inconsistent input (a dead society with population, a
	// choice for a dead society, an inflection choice outside the three
	// highest)."
	world, _ := os.ReadFile(filepath.Join(ex, "world.json"))
	cases := []struct {
		state, moves string
		code         int
		msg          string
	}{
		{strings.Replace(string(world), `"population": 0, "yield": 1}, "dead": true`, `"population": 4, "yield": 1}, "dead": true`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, "societies[2] (society 3) is dead but has population 4"},
		{string(world), `{"kind":"turn","choices":["conquer","conquer","develop"]}`, 1, "choices[2] (society 3) is develop, but the society is dead: its choice must be null"},
		{string(world), `{"kind":"inflection","choices":["consent","conquer",null]}`, 1, "choices[0] (society 1) is consent, but at an inflection a society chooses among its three highest values: conquer, exchange or discover"},
		{string(world), `{"kind":"turn","choices":["conquer",null,null]}`, 1, "choices[1] (society 2) is null, but the society is alive and must choose a value"},
		// Too few or too many choices name --moves, as its other errors
		// do, and count in words that fit the number.
		{string(world), `{"kind":"turn","choices":["conquer","conquer"]}`, 2, "--moves: moves: 2 choices for 3 societies; give one per society, in their order (choices[0] is society 1)"},
		{string(world), `{"kind":"turn","choices":["conquer"]}`, 2, "--moves: moves: 1 choice for 3 societies;"},
		{string(world), `{"kind":"war","choices":[]}`, 2, `kind "war"`},
		{string(world), `{"kind":"turn","choices":["conquer","flee",null]}`, 2, `choices[1] (society 2): unknown value "flee"`},
		{`{"feels":[[0,0],[0]],"societies":[],"yield":1}`, `{"kind":"turn","choices":[]}`, 2, "0 societies"},
		{strings.Replace(string(world), `[-1, 0, 0]`, `[-1, 0]`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, "feels[2] (society 3's feelings) has 2 entries"},
		{strings.Replace(string(world), `"develop": 2, "consent": 0`, `"develop": 2, "bribe": 0`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, `societies[1] (society 2): values: unknown key "bribe"`},
		// A society's values that are not values name the society, as every
		// other error of the world does.
		{strings.Replace(string(world), `"conquer": 4, "exchange": 1`, `"exchange": 1`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, "societies[1] (society 2): values: conquer is missing"},
		{strings.Replace(string(world), `"conquer": 4, "exchange": 1`, `"conquer": 4.5, "exchange": 1`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, "societies[1] (society 2): values.conquer: want a whole number, got 4.5"},
		{strings.Replace(string(world), `"yield": 20`, `"yeild": 20`, 1), `{"kind":"turn","choices":["conquer","conquer",null]}`, 2, `unknown field "yeild"`},
		{"{", `{}`, 2, "--state"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		s, m := filepath.Join(dir, "s.json"), filepath.Join(dir, "m.json")
		os.WriteFile(s, []byte(c.state), 0o644)
		os.WriteFile(m, []byte(c.moves), 0o644)
		code, _, errOut := arbiter(t, "", "step", "ajveciv", "--state", s, "--moves", m)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("moves %s: exit %d, %q; want exit %d and %q", c.moves, code, errOut, c.code, c.msg)
		}
	}
	// A file that cannot be read is named, with why.
	code, _, errOut = arbiter(t, "", "step", "ajveciv", "--state", "no-such-world.json", "--moves", filepath.Join(ex, "turn.json"))
	if code != 2 || !strings.Contains(errOut, "--state no-such-world.json: no such file or directory") {
		t.Errorf("a missing --state: exit %d, %q", code, errOut)
	}
	code, _, errOut = arbiter(t, "", "step", "ajveciv", "--state", filepath.Join(ex, "world.json"), "--moves", "no-such-turn.json")
	if code != 2 || !strings.Contains(errOut, "--moves no-such-turn.json: no such file or directory") {
		t.Errorf("a missing --moves: exit %d, %q", code, errOut)
	}
	// Reaj's step says the same of a number of choices that does not fit.
	reajState := filepath.Join("..", "..", "examples", "reaj", "state.json")
	code, _, errOut = arbiter(t, `{"choices":["conquer"]}`, "step", "reaj", "--state", reajState, "--moves", "-")
	if want := "arbiter: --moves: moves: 1 choice for 4 societies; give one per society, null for a dead one\n"; code != 2 || errOut != want {
		t.Errorf("reaj, one choice for four societies: exit %d, %q; want exit 2, %q", code, errOut, want)
	}
}

func TestStepSeedOnlyWhereItDraws(t *testing.T) {
	// TNCC's step draws nothing, and territories' dice come from the
	// configuration's seed: --seed was taken by both and changed nothing.
	ex := filepath.Join("..", "..", "examples")
	for _, c := range []struct{ game, state, moves, why string }{
		{"tncc", "tncc/world.json", "tncc/war.json", "every number is exact"},
		{"territories", "territories/state.json", "territories/join.json", "the seed of the configuration in --state"},
	} {
		args := []string{"step", c.game, "--state", filepath.Join(ex, c.state), "--moves", filepath.Join(ex, c.moves)}
		if code, _, errOut := arbiter(t, "", args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.game, code, errOut)
		}
		code, out, errOut := arbiter(t, "", append(args, "--seed", "5")...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--seed has no effect on arbiter step "+c.game+": ") || !strings.Contains(errOut, c.why) {
			t.Errorf("%s --seed 5: exit %d, %q, %q; want 2 and why", c.game, code, out, errOut)
		}
	}
	// Those that draw take it.
	ex = filepath.Join(ex, "reaj")
	if code, _, errOut := arbiter(t, "", "step", "reaj", "--state", filepath.Join(ex, "state.json"), "--moves", filepath.Join(ex, "moves.json"), "--seed", "1"); code != 0 {
		t.Errorf("reaj --seed 1: exit %d: %s", code, errOut)
	}
}

func TestForceWithNothingToReplace(t *testing.T) {
	// --force replaces a command's files that exist: with none of them
	// given, it was taken and did nothing (duel's says so; play's,
	// tournament's, zombie script's and replay's now too).
	dir := t.TempDir()
	if code, _, errOut := arbiter(t, "", "play", "tncc", "--seed", "1", "--record", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	zombieDir := t.TempDir()
	if code, _, errOut := arbiter(t, "", "play", "zombie", "--seed", "1", "--record", zombieDir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"play", "tncc", "--seed", "1", "--force"}, "give --report FILE, --record DIR or --export-training FILE too"},
		{[]string{"play", "tncc", "--seed", "1", "--force", "--report", "json"}, "give --report FILE, --record DIR or --export-training FILE too"},
		{[]string{"tournament", "tncc", "--players", "war,blitz", "--force"}, "give one of them too"},
		{[]string{"zombie", "script", filepath.Join(zombieDir, "game-0001.jsonl"), "--force"}, "give --out too"},
		{[]string{"replay", filepath.Join(dir, "game-0001.jsonl"), "--force"}, "give --html -o PAGE.html too"},
		{[]string{"replay", filepath.Join(dir, "game-0001.jsonl"), "--force", "--html", "-o", "-"}, "give --html -o PAGE.html too"},
	} {
		code, out, errOut := arbiter(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--force replaces ") || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d, %.100q, %q; want 2 and %q", c.args, code, out, errOut, c.says)
		}
	}
	// With a file to replace, it goes.
	for _, args := range [][]string{
		{"play", "tncc", "--seed", "1", "--force", "--record", dir},
		{"play", "tncc", "--seed", "1", "--force", "--report", filepath.Join(dir, "r.json")},
		{"tournament", "tncc", "--players", "war,blitz", "--force", "--out", filepath.Join(dir, "t.jsonl")},
		{"zombie", "script", filepath.Join(zombieDir, "game-0001.jsonl"), "--force", "--out", filepath.Join(dir, "game.txt")},
		{"replay", filepath.Join(dir, "game-0001.jsonl"), "--force", "--html", "-o", filepath.Join(dir, "r.html")},
	} {
		if code, _, errOut := arbiter(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

func TestGamesAndRules(t *testing.T) {
	// "arbiter games lists the games; arbiter rules ajveciv prints the rules
	// as a player reads them. --help everywhere; shell completion."
	code, out, _ := arbiter(t, "", "games")
	if code != 0 || !strings.Contains(out, "ajveciv") || !strings.Contains(out, "2-20") {
		t.Errorf("games: %d\n%s", code, out)
	}
	code, out, _ = arbiter(t, "", "games", "--json")
	var list []struct{ Name string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || list[0].Name != "ajveciv" {
		t.Errorf("games --json: %d\n%s", code, out)
	}
	code, out, _ = arbiter(t, "", "rules", "ajveciv")
	if code != 0 || !strings.Contains(out, "INFLECTIONS") || !strings.Contains(out, "starvation") {
		t.Errorf("rules: %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--help"}, {"play", "--help"}, {"play", "ajveciv", "--help"}, {"replay", "--help"}, {"step", "--help"}, {"games", "--help"}, {"rules", "--help"}} {
		code, out, _ := arbiter(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	_, out, _ = arbiter(t, "", "play", "ajveciv", "--help")
	for _, flag := range []string{"--players", "--player", "--seed", "--turns", "--no-inflections", "--games", "--deadline", "--report", "--record"} {
		if !strings.Contains(out, flag) {
			t.Errorf("play ajveciv --help lacks %s", flag)
		}
	}
	code, out, _ = arbiter(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d", code)
	}
	code, out, _ = arbiter(t, "", "__complete", "rules", "")
	if code != 0 || !strings.Contains(out, "ajveciv") {
		t.Errorf("completing a game name: %d %s", code, out)
	}
}
