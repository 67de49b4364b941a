package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/arbiter-games/arbiter/tournament"
)

// tableHeader starts the header row of a standings table.
const tableHeader = "\n#  player"

// words is text as its words read, whatever its lines: a description
// wraps at 80 columns.
func words(text string) string { return strings.Join(strings.Fields(text), " ") }

// firstRanked returns the player on the standings table's first row.
func firstRanked(t *testing.T, out string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "1" {
			return f[1]
		}
	}
	t.Fatalf("no standings table:\n%s", out)
	return ""
}

func TestTournamentStandings(t *testing.T) {
	args := []string{"tournament", "reaj", "--players", "fixed,steward", "--seats", "6", "--games", "2", "--seed", "1"}
	code, out, errOut := arbiter(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "reaj tournament ") || !strings.Contains(words(out), "7 players, every group of 6 in every seat, 2 times over") ||
		!strings.Contains(words(out), "seed 1, 84 games") || !strings.Contains(out, tableHeader) {
		t.Errorf("the standings lack the tournament's description or the table:\n%s", out)
	}
	if p := firstRanked(t, out); p != "steward" {
		t.Errorf("first ranked %s; want steward:\n%s", p, out)
	}
	if _, table, _ := strings.Cut(out, "\n\n"); strings.Count(table, "\n") != 2+7 {
		t.Errorf("%d lines after the description and a blank line; want the header's two and 7 players:\n%s", strings.Count(table, "\n"), out)
	}
	_, again, _ := arbiter(t, "", args...)
	if again != out {
		t.Errorf("the same tournament twice gives different standings:\n%s\n%s", out, again)
	}
}

// standings is a tournament's --json output.
type standings struct {
	ID       string
	Schedule struct {
		Ruleset             string
		Kind                string
		Rounds, Appearances int
		Players             []string
		Seed                uint64
	}
	Games, Played int
	Standings     []struct {
		Player      string
		Games, Wins int
		MeanScore   float64 `json:"mean_score"`
		MeanRank    float64 `json:"mean_rank"`
		Faults      int
		Rating      struct{ Mu, Sigma float64 }
		Ordinal     float64
	}
}

func TestTournamentGroups(t *testing.T) {
	// Six basic AIs, each appearing twice over four games of three.
	args := []string{"tournament", "ajveciv", "--players", "basic", "--rounds", "4", "--appearances", "2", "--seed", "1"}
	code, out, errOut := arbiter(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(words(out), "6 players each appearing 2 times over 4 rounds of shuffled groups") || !strings.Contains(out, "4 games") ||
		!strings.Contains(out, tableHeader) {
		t.Errorf("text standings:\n%s", out)
	}

	code, out, errOut = arbiter(t, "", append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var s standings
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("--json: %v:\n%s", err, out)
	}
	sc := s.Schedule
	if s.ID == "" || sc.Ruleset != "ajveciv" || sc.Kind != "groups" || sc.Rounds != 4 || sc.Appearances != 2 || sc.Seed != 1 ||
		len(sc.Players) != 6 || s.Games != 4 || s.Played != 4 {
		t.Errorf("--json: the tournament is %+v, %d games, %d played", s.Schedule, s.Games, s.Played)
	}
	if len(s.Standings) != 6 {
		t.Fatalf("--json: %d standings; want 6", len(s.Standings))
	}
	wins := 0
	for i, r := range s.Standings {
		if r.Games != 2 {
			t.Errorf("%s played %d games; want 2 appearances", r.Player, r.Games)
		}
		if r.MeanRank < 1 || r.MeanRank > 3 || r.Rating.Sigma <= 0 {
			t.Errorf("%s: mean rank %v, rating %+v", r.Player, r.MeanRank, r.Rating)
		}
		if i > 0 && r.Ordinal > s.Standings[i-1].Ordinal {
			t.Errorf("standings not sorted by μ − 3σ: %s (%v) after %s (%v)", r.Player, r.Ordinal, s.Standings[i-1].Player, s.Standings[i-1].Ordinal)
		}
		wins += r.Wins
	}
	if wins < 4 {
		t.Errorf("%d wins over 4 games", wins)
	}

	// One appearance is said in the singular ("each appearing 1 times").
	code, out, errOut = arbiter(t, "", "tournament", "ajveciv", "--players", "basic", "--rounds", "1", "--appearances", "1", "--seed", "1")
	if code != 0 || !strings.Contains(words(out), "6 players each appearing 1 time over 1 round of shuffled groups") {
		t.Errorf("one appearance over one round: exit %d\n%s%s", code, out, errOut)
	}
}

// lines reads a file's lines.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestTournamentOutAndShards(t *testing.T) {
	dir := t.TempDir()
	base := []string{"tournament", "reaj", "--players", "fixed,steward", "--seats", "6", "--seed", "1"}
	all := filepath.Join(dir, "all.jsonl")
	code, whole, errOut := arbiter(t, "", append(base, "--out", all)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, wholeJSON, _ := arbiter(t, "", append(base, "--json")...)
	if !strings.Contains(whole, tableHeader) || !json.Valid([]byte(wholeJSON)) {
		t.Fatalf("the single run's standings:\n%s\n%s", whole, wholeJSON)
	}

	// One header line, then one line per game, in schedule order.
	l := lines(t, all)
	if len(l) != 1+42 {
		t.Fatalf("%s has %d lines; want a header and 42 games", all, len(l))
	}
	var h struct {
		Format string
		ID     string
		Games  int
		Shard  string
	}
	if err := json.Unmarshal([]byte(l[0]), &h); err != nil || h.Format != "arbiter-tournament" || h.ID == "" || h.Games != 42 || h.Shard != "0/1" {
		t.Errorf("header %v: %s", err, l[0])
	}
	for k, line := range l[1:] {
		var g struct {
			Game   int
			Seed   uint64
			Seats  []string
			Scores []int64
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil || g.Game != k+1 || g.Seed != uint64(1+k) || len(g.Seats) != 6 || len(g.Scores) != 6 {
			t.Errorf("line %d: %v: %s", k+2, err, line)
		}
	}
	// The whole run's file merges into its own standings.
	if _, out, _ := arbiter(t, "", "tournament", "merge", all); out != whole {
		t.Errorf("merging the whole run's file:\n%s\nwant\n%s", out, whole)
	}

	// Three shards, merged, print exactly the single run's standings.
	var files []string
	for i, shard := range []string{"0/3", "1/3", "2/3"} {
		f := filepath.Join(dir, "shard"+string(rune('0'+i))+".jsonl")
		code, out, errOut := arbiter(t, "", append(base, "--shard", shard, "--out", f)...)
		if code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", shard, code, errOut)
		}
		if strings.Contains(out, tableHeader) || !strings.Contains(out, "shard "+shard+": played its 14 games") {
			t.Errorf("--shard %s printed:\n%s", shard, out)
		}
		if n := len(lines(t, f)); n != 1+14 {
			t.Errorf("shard %s's file has %d lines; want a header and 14 games", shard, n)
		}
		files = append(files, f)
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}} {
		args := []string{"tournament", "merge"}
		for _, i := range order {
			args = append(args, files[i])
		}
		code, out, errOut := arbiter(t, "", args...)
		if code != 0 {
			t.Fatalf("merge %v: exit %d: %s", order, code, errOut)
		}
		if out != whole {
			t.Errorf("merge %v:\n%s\nwant the single run's\n%s", order, out, whole)
		}
		if _, out, _ := arbiter(t, "", append(args, "--json")...); out != wholeJSON {
			t.Errorf("merge %v --json:\n%s\nwant the single run's\n%s", order, out, wholeJSON)
		}
	}
}

func TestTournamentShardRefusesJSON(t *testing.T) {
	// A shard has no standings: with --json it printed its text lines,
	// as without it. The whole run in one shard (0/1) prints them.
	dir := t.TempDir()
	base := []string{"tournament", "tncc", "--players", "war,blitz,general", "--seed", "1", "--json"}
	out := filepath.Join(dir, "shard0.jsonl")
	code, stdout, errOut := arbiter(t, "", append(base, "--shard", "0/2", "--out", out)...)
	if code != 2 || stdout != "" || !strings.Contains(errOut, "--json has no effect on a shard (--shard 0/2)") || !strings.Contains(errOut, "merge --json") {
		t.Errorf("--shard 0/2 --json: exit %d, %q, %q; want 2 and merge --json named", code, stdout, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	code, stdout, errOut = arbiter(t, "", append(base, "--shard", "0/1", "--out", filepath.Join(dir, "all.jsonl"))...)
	if code != 0 || !json.Valid([]byte(stdout)) {
		t.Errorf("--shard 0/1 --json: exit %d, %q, %q; want the standings as JSON", code, stdout, errOut)
	}
}

func TestTournamentBadInput(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	// A small tournament of 6 games in three shards, and a shard of the
	// same tournament with another seed.
	base := []string{"tournament", "reaj", "--players", "steward,conquer,adapt", "--seats", "2"}
	for i, shard := range []string{"0/3", "1/3", "2/3"} {
		if code, _, errOut := arbiter(t, "", append(base, "--seed", "1", "--shard", shard, "--out", path("s"+string(rune('0'+i))))...); code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", shard, code, errOut)
		}
	}
	if code, _, errOut := arbiter(t, "", append(base, "--seed", "2", "--shard", "1/3", "--out", path("seed2"))...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	os.WriteFile(path("garbage"), []byte("not a results file\n"), 0o644)
	os.WriteFile(path("empty"), nil, 0o644)
	s0, _ := os.ReadFile(path("s0"))
	os.WriteFile(path("cut"), s0[:len(s0)-20], 0o644)

	cases := []struct {
		args []string
		msg  string
		// multiline: the message may run over more lines (see below).
		multiline bool
	}{
		{append(base, "--seed", "1", "--shard", "3/2", "--out", path("x")), `--shard "3/2": with 2 shards the shard number must be from 0 to 1`, false},
		{append(base, "--seed", "1", "--shard", "0/0", "--out", path("x")), `--shard "0/0": the number of shards must be a whole number`, false},
		{append(base, "--seed", "1", "--shard", "1", "--out", path("x")), `--shard "1": want i/N`, false},
		{append(base, "--shard", "0/3", "--out", path("x")), "--shard 0/3 needs --seed", false},
		{append(base, "--seed", "1", "--shard", "0/3"), "--shard 0/3 needs --out FILE", false},
		{[]string{"tournament", "reaj", "--players", "steward,wizard"}, `unknown player "wizard"`, false},
		// A person cannot sit in a tournament: an unknown name is not told
		// of repl (it was).
		{[]string{"tournament", "reaj", "--players", "steward,wizard"}, `mcts:level=easy|medium|hard); or exec:COMMAND, a program of yours`, false},
		{[]string{"tournament", "reaj", "--players", "steward", "--parallel", "-2"}, `--parallel -2: give the number of games to play at once, from 1 to 10000 (0, the default: one per core)`, false},
		// Each game at once has a window of games of its own: a hundred
		// million, over ten million games, made one of 6.4 billion, and
		// the machine ran out of memory.
		{[]string{"tournament", "reaj", "--players", "steward,adapt", "--parallel", "100000000"}, `--parallel 100000000: give the number of games to play at once, from 1 to 10000`, false},
		{[]string{"tournament", "reaj"}, "name the tournament's players with --players a,b,c (fixed, conquer", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--rounds", "3"}, "give --rounds and --appearances together", false},
		{[]string{"tournament", "reaj", "--players", "adapt,conquer,steward", "--appearances", "5", "--rounds", "10"},
			"tournament: 15 seats (3 players × 5 appearances) do not divide evenly over 10 rounds: they would make games of 2 and 1 seats; give --rounds 5 (games of 3 seats), or --appearances 10 (games of 3 seats)", false},
		// Whole games, each of the same seats: one game of 3 and nine of
		// 2 were played before.
		{[]string{"tournament", "reaj", "--players", "steward,adapt,conquer", "--rounds", "10", "--appearances", "7", "--seed", "1", "--out", path("uneven")},
			"tournament: 21 seats (3 players × 7 appearances) do not divide evenly over 10 rounds: they would make games of 3 and 2 seats; give --rounds 7 (games of 3 seats), or --appearances 10 (games of 3 seats)", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--appearances", "3"}, "give --rounds and --appearances together", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--rounds", "3", "--appearances", "1", "--seats", "2"}, "--seats is for the every-group schedule", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--games", "0"}, "--games 0", false},
		// Counts past any tournament, whose products overflowed: the
		// schedule was dealt until the machine ran out of memory, or its
		// refusal searched for fitting rounds for ever, deaf to Ctrl-C.
		{[]string{"tournament", "reaj", "--players", "steward,adapt", "--seats", "2", "--games", "4611686018427387904"},
			"tournament: --games 4611686018427387904; a tournament holds at most 10000000 games", false},
		{[]string{"tournament", "reaj", "--players", "steward,adapt,conquer", "--rounds", "1000000000000", "--appearances", "1000000000000"},
			"tournament: --rounds 1000000000000; a tournament holds at most 10000000 games", false},
		{[]string{"tournament", "reaj", "--players", "steward,adapt,conquer", "--rounds", "4611686018427387904", "--appearances", "2"},
			"tournament: --rounds 4611686018427387904; a tournament holds at most 10000000 games", false},
		// Zeros given were taken as not given: all the players in every
		// game, the every-group schedule; and one player was told about
		// seats it never gave.
		{[]string{"tournament", "reaj", "--players", "fixed", "--seats", "0"}, "--seats 0: reaj takes 2 to 16 seats a game (without --seats: all the players, up to 16)", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--rounds", "0", "--appearances", "0"}, "--rounds 0 --appearances 0: give both, each at least 1", false},
		{[]string{"tournament", "reaj", "--players", "fixed", "--rounds", "4", "--appearances", "0"}, "--rounds 4 --appearances 0: give both, each at least 1", false},
		// A player written once but also named by a name that stands for
		// several was said to be named twice, nothing more.
		{[]string{"tournament", "reaj", "--players", "fixed,adapt"}, `tournament: player "adapt" is named twice, by fixed (which includes it) and by adapt`, false},
		{[]string{"tournament", "ajveciv", "--players", "basic,basic.develop"}, `player "basic.develop" is named twice, by basic (which includes it) and by basic.develop`, false},
		{[]string{"tournament", "reaj", "--players", "fixed,steward,fixed"}, `tournament: player "fixed" is named twice`, false},
		{[]string{"tournament", "reaj", "--players", "steward"}, `tournament: 1 player (steward); reaj takes 2 to 16 seats a game: give at least 2 players`, false},
		{[]string{"tournament", "chess"}, `unknown game "chess"`, false},
		{[]string{"tournament"}, "name a game", false},
		{[]string{"tournament", "merge"}, "give the results files to merge", false},
		{[]string{"tournament", "merge", path("missing")}, "no such file", false},
		{[]string{"tournament", "merge", path("garbage")}, "garbage:1: not a tournament results file", false},
		{[]string{"tournament", "merge", path("empty")}, "empty: empty", false},
		{[]string{"tournament", "merge", dir}, "is a directory", false},
		{[]string{"tournament", "merge", path("cut"), path("s1"), path("s2")}, "cut:3: the line is cut short", false},
		// Merge prints both tournaments' descriptions, one per line, under
		// its first line, which names the problem.
		{[]string{"tournament", "merge", path("s0"), path("seed2"), path("s2")}, "hold different tournaments", true},
		{[]string{"tournament", "merge", path("s0"), path("s2")}, "no file holds shard 1/3", false},
		{[]string{"tournament", "merge", path("s0"), path("s1"), path("s1"), path("s2")}, "is in both", false},
		{[]string{"tournament", "merge", path("s2"), path("s0"), path("s1"), path("s0")}, "is in both", false},
	}
	for _, c := range cases {
		code, out, errOut := arbiter(t, "", c.args...)
		cmd := strings.Join(c.args, " ")
		if code != 2 || !strings.Contains(errOut, c.msg) {
			t.Errorf("arbiter %s: exit %d, %q; want exit 2 and %q", cmd, code, errOut, c.msg)
		}
		first, _, _ := strings.Cut(errOut, "\n")
		if !strings.HasPrefix(first, "arbiter: ") || (!c.multiline && strings.TrimSpace(errOut) != first) {
			t.Errorf("arbiter %s: want one line of message:\n%s", cmd, errOut)
		}
		if c.multiline && !strings.Contains(first, c.msg) {
			t.Errorf("arbiter %s: the first line does not name the problem:\n%s", cmd, errOut)
		}
		if out != "" {
			t.Errorf("arbiter %s printed on standard output:\n%s", cmd, out)
		}
	}
	if _, err := os.Stat(path("uneven")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused tournament left its --out file: %v", err)
	}
}

func TestTournamentMergeRefusesEditedFiles(t *testing.T) {
	// "Merge refuses ... edited files, each with a message naming the file
	// and line": each field of a game's line edited in a shard's file, one
	// at a time, and lines removed, repeated or moved.
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"tournament", "reaj", "--players", "steward,conquer,adapt", "--seats", "2", "--seed", "1", "--turns", "30"}
	for i, shard := range []string{"0/2", "1/2"} {
		if code, _, errOut := arbiter(t, "", append(base, "--shard", shard, "--out", path(fmt.Sprintf("s%d.jsonl", i)))...); code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", shard, code, errOut)
		}
	}
	_, whole, _ := arbiter(t, "", base...)
	if code, out, errOut := arbiter(t, "", "tournament", "merge", path("s0.jsonl"), path("s1.jsonl")); code != 0 || out != whole {
		t.Fatalf("the unedited shards: exit %d, %s%s\nwant\n%s", code, out, errOut, whole)
	}
	good := lines(t, path("s1.jsonl")) // games 2, 4 and 6 on lines 2 to 4
	var game4 tournament.GameResult
	if err := json.Unmarshal([]byte(good[2]), &game4); err != nil {
		t.Fatal(err)
	}
	// edit changes line 3 (game 4) in place, and leaves its digest.
	edit := func(change func(*tournament.GameResult)) []string {
		l := slices.Clone(good)
		body, digest, _ := strings.Cut(l[2], `,"digest":`)
		var g tournament.GameResult
		if err := json.Unmarshal([]byte(body+"}"), &g); err != nil {
			t.Fatal(err)
		}
		change(&g)
		b, _ := json.Marshal(g)
		l[2] = string(b[:len(b)-1]) + `,"digest":` + digest
		return l
	}
	edited := "s1.jsonl:3: game 4: the digest does not follow from this line and the ones before it: the line was edited"
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"a score", edit(func(g *tournament.GameResult) { g.Scores[1] += 1000 }), edited},
		{"the ranks", edit(func(g *tournament.GameResult) { g.Ranks[0], g.Ranks[1] = g.Ranks[1], g.Ranks[0] }), edited},
		{"the winner", edit(func(g *tournament.GameResult) { g.Winners = []int{1 - g.Winners[0]} }), edited},
		{"a fault count", edit(func(g *tournament.GameResult) { g.Faults[0] = 7 }), edited},
		{"a status", edit(func(g *tournament.GameResult) { g.Status = []string{"dead", ""} }), edited},
		{"the seats", edit(func(g *tournament.GameResult) { g.Seats[0], g.Seats[1] = g.Seats[1], g.Seats[0] }),
			fmt.Sprintf("s1.jsonl:3: game 4: seat 0: %q; the schedule seats %q there", game4.Seats[1], game4.Seats[0])},
		{"the seed", edit(func(g *tournament.GameResult) { g.Seed = 40 }), "s1.jsonl:3: game 4: seed 40; the schedule gives it seed 4"},
		{"the game", edit(func(g *tournament.GameResult) { g.Game = 3 }), "s1.jsonl:3: game 3: is not in shard 1/2"},
		{"a line removed", slices.Delete(slices.Clone(good), 2, 3), "s1.jsonl:3: game 6: the digest does not follow"},
		{"a line twice", slices.Insert(slices.Clone(good), 2, good[2]), "s1.jsonl:4: game 4: comes after game 4"},
		{"two lines swapped", append(good[:2:2], good[3], good[2]), "s1.jsonl:3: game 6: the digest does not follow"},
		{"the header", append([]string{strings.Replace(good[0], `"shard":"1/2"`, `"shard": "1/2"`, 1)}, good[1:]...),
			"s1.jsonl:2: game 2: the digest does not follow"},
	} {
		os.WriteFile(path("s1.jsonl"), []byte(strings.Join(c.lines, "\n")+"\n"), 0o644)
		code, out, errOut := arbiter(t, "", "tournament", "merge", path("s0.jsonl"), path("s1.jsonl"))
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%s: exit %d, %q; want exit 2 and one line saying %q", c.name, code, errOut, c.want)
		}
		if out != "" {
			t.Errorf("%s: printed standings:\n%s", c.name, out)
		}
	}
}

func TestTournamentPerson(t *testing.T) {
	for _, args := range [][]string{
		{"tournament", "reaj", "--players", "steward,repl"},
		{"tournament", "ajveciv", "--players", "basic", "--player", "repl", "--rounds", "7", "--appearances", "1"},
	} {
		code, out, errOut := arbiter(t, "", args...)
		if code != 2 || !strings.Contains(errOut, "repl is a person; a tournament plays its games at once, among bots only") || out != "" {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errOut)
		}
	}
}

// decision is a training line.
type decision struct {
	Game        int
	Seed        uint64
	Seat        int
	Player      string
	Kind        string
	Observation struct{ Turn int }
	Choice      string
	Score       int64
	Rank        int
	Won         bool
}

// readTraining reads a training file, checking that every line is a JSON
// object with every field.
func readTraining(t *testing.T, path string) []decision {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []decision
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &fields); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		for _, k := range []string{"game", "seed", "seat", "player", "kind", "observation", "choices", "choice", "score", "rank", "won"} {
			if _, ok := fields[k]; !ok {
				t.Fatalf("%s:%d lacks %q: %s", path, n, k, sc.Text())
			}
		}
		var d decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s is empty", path)
	}
	return out
}

// result is how a game ended, in a report or a results file.
type result struct {
	Game    int
	Seed    uint64
	Players []string
	Scores  []int64
	Ranks   []int
	Winners []int
	Status  []string
}

// checkTraining checks a game's training lines against its result: each
// line's player and final result are its seat's, and each seat decided once
// a turn, turn after turn, all 100 turns unless it died.
func checkTraining(t *testing.T, ds []decision, r result) {
	t.Helper()
	turns := make([]int, len(r.Players))
	for _, d := range ds {
		if d.Seed != r.Seed || d.Seat < 0 || d.Seat >= len(r.Players) {
			t.Fatalf("game %d: a line of seed %d, seat %d", r.Game, d.Seed, d.Seat)
		}
		s := d.Seat
		if d.Player != r.Players[s] || d.Score != r.Scores[s] || d.Rank != r.Ranks[s] || d.Won != slices.Contains(r.Winners, s) {
			t.Errorf("game %d seat %d: %s, score %d, rank %d, won %v; the result has %s, %d, %d, winners %v",
				r.Game, s, d.Player, d.Score, d.Rank, d.Won, r.Players[s], r.Scores[s], r.Ranks[s], r.Winners)
		}
		if d.Kind != "turn" || d.Choice == "" {
			t.Errorf("game %d seat %d: kind %q, choice %q", r.Game, s, d.Kind, d.Choice)
		}
		turns[s]++
		if d.Observation.Turn != turns[s] {
			t.Errorf("game %d seat %d: decision %d saw turn %d", r.Game, s, turns[s], d.Observation.Turn)
		}
	}
	for s, n := range turns {
		dead := r.Status != nil && r.Status[s] == "dead"
		if n > 100 || (!dead && n != 100) || n == 0 {
			t.Errorf("game %d seat %d (dead %v): %d decisions over 100 turns", r.Game, s, dead, n)
		}
	}
}

func TestPlayExportTraining(t *testing.T) {
	dir := t.TempDir()
	training := filepath.Join(dir, "training.jsonl")
	code, out, errOut := arbiter(t, "", "play", "reaj", "--seed", "3", "--games", "2", "--report", "json", "--record", dir, "--export-training", training)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var games []struct {
		Seed    uint64
		Players []string
		Result  struct {
			Scores  []int64
			Ranks   []int
			Winners []int
			Status  []string
		}
	}
	if err := json.Unmarshal([]byte(out), &games); err != nil || len(games) != 2 {
		t.Fatalf("%v: %d games", err, len(games))
	}
	ds := readTraining(t, training)
	byGame := map[int][]decision{}
	for _, d := range ds {
		byGame[d.Game] = append(byGame[d.Game], d)
	}
	if len(byGame) != 2 {
		t.Errorf("training lines of %d games; want 2", len(byGame))
	}
	for k, g := range games {
		r := g.Result
		checkTraining(t, byGame[k+1], result{Game: k + 1, Seed: g.Seed, Players: g.Players, Scores: r.Scores, Ranks: r.Ranks, Winners: r.Winners, Status: r.Status})
		// One line per move of the record: every line after the header but
		// the last, the result.
		rec := lines(t, filepath.Join(dir, "game-000"+string(rune('1'+k))+".jsonl"))
		if moves := len(rec) - 2; len(byGame[k+1]) != moves {
			t.Errorf("game %d: %d training lines for %d recorded decisions", k+1, len(byGame[k+1]), moves)
		}
	}
}

func TestTournamentExportTraining(t *testing.T) {
	dir := t.TempDir()
	results, training := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "training.jsonl")
	args := []string{"tournament", "reaj", "--players", "steward,conquer,adapt,develop", "--seats", "3", "--seed", "5", "--out", results, "--export-training", training}
	code, _, errOut := arbiter(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ds := readTraining(t, training)
	byGame := map[int][]decision{}
	for _, d := range ds {
		byGame[d.Game] = append(byGame[d.Game], d)
	}
	games := lines(t, results)[1:]
	if len(games) == 0 || len(byGame) != len(games) {
		t.Errorf("training lines of %d games; the results file has %d", len(byGame), len(games))
	}
	for _, line := range games {
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		var seats struct{ Seats []string }
		json.Unmarshal([]byte(line), &seats)
		r.Players = seats.Seats
		checkTraining(t, byGame[r.Game], r)
	}

	// The lines come in schedule order, however many games are played at
	// once.
	serial := filepath.Join(dir, "serial.jsonl")
	args[len(args)-1] = serial
	if code, _, errOut := arbiter(t, "", append(args, "--parallel", "1", "--force")...); code != 0 {
		t.Fatalf("--parallel 1: exit %d: %s", code, errOut)
	}
	a, _ := os.ReadFile(training)
	b, _ := os.ReadFile(serial)
	if string(a) != string(b) {
		t.Error("--parallel 1 writes other training lines")
	}
}

// The README's tournaments of shuffled groups make whole games: its example
// is accepted, and its uneven split is refused with the words it quotes.
func TestReadmeGroupsSplitEvenly(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	examples := 0
	for line := range strings.Lines(readme) {
		args := strings.Fields(line)
		if len(args) < 2 || args[0] != "arbiter" || args[1] != "tournament" || !slices.Contains(args, "--rounds") {
			continue
		}
		examples++
		rounds := args[slices.Index(args, "--rounds")+1]
		if i := slices.Index(args, "--out"); i >= 0 {
			args = slices.Delete(args, i, i+2)
		}
		// Play its first game only: shard 0 of as many as the rounds.
		args = append(args[1:], "--seed", "1", "--shard", "0/"+rounds, "--out", filepath.Join(t.TempDir(), "r.jsonl"))
		if code, _, errOut := arbiter(t, "", args...); code != 0 {
			t.Errorf("the README's %s: exit %d: %s", strings.TrimSpace(line), code, errOut)
		}
	}
	if examples == 0 {
		t.Error("no tournament of --rounds in the README")
	}
	_, _, errOut := arbiter(t, "", "tournament", "reaj", "--players", "steward,adapt,conquer", "--rounds", "10", "--appearances", "7")
	quote := `give --rounds 7 (games of 3 seats), or --appearances 10 (games of 3 seats)`
	if !strings.Contains(errOut, quote) {
		t.Errorf("--rounds 10 --appearances 7 says %q; want %q", errOut, quote)
	}
	if !strings.Contains(strings.Join(strings.Fields(readme), " "), `is told "`+quote+`"`) {
		t.Errorf("the README does not quote %q", quote)
	}
}

func TestTournamentGoesOnWithoutItsSeed(t *testing.T) {
	// "The same command run again goes on from there": a tournament
	// whose seed was drawn at random goes on with the seed its --out
	// holds, where the same command drew another and refused the file as
	// another tournament's.
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	cmd := []string{"tournament", "tncc", "--players", "war,blitz,general", "--games", "2", "--parallel", "1", "--out", out}
	code, want, errOut := arbiter(t, "", cmd...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantFile, _ := os.ReadFile(out)
	lines := bytes.SplitAfter(wantFile, []byte("\n"))
	if err := os.WriteFile(out, bytes.Join(lines[:3], nil), 0o644); err != nil { // stopped after game 2
		t.Fatal(err)
	}
	code, got, errOut := arbiter(t, "", cmd...)
	if code != 0 || got != want || !strings.Contains(errOut, out+": 2 games played before; going on from game 3 of 6") {
		t.Fatalf("exit %d\n%s\n%s\nwant the standings played through:\n%s", code, got, errOut, want)
	}
	if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, wantFile) {
		t.Errorf("the file gone on with is not the tournament's played through:\n%s\nwant\n%s", gotFile, wantFile)
	}
	// --force starts again, with a seed of its own.
	if code, _, errOut := arbiter(t, "", append(cmd, "--force")...); code != 0 || strings.Contains(errOut, "played before") {
		t.Errorf("--force: exit %d, %s; want a tournament started again", code, errOut)
	}
}

func TestTournamentRefusesAnotherOnesOutNamingItsPlayers(t *testing.T) {
	// A run without --seed takes the seed of the tournament --out holds:
	// when the file is another tournament's, of other players as many,
	// both descriptions read the same but for their ids, and the refusal
	// names the players that make them differ.
	out := filepath.Join(t.TempDir(), "out.jsonl")
	if code, _, errOut := arbiter(t, "", "tournament", "tncc", "--players", "war,blitz", "--games", "1", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut := arbiter(t, "", "tournament", "tncc", "--players", "war,general", "--games", "1", "--out", out)
	if want := "the file holds another tournament"; code != 2 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "its players are war, blitz, and this one's war, general") {
		t.Errorf("exit %d, %s; want 2, another tournament's file, its players and this one's named", code, errOut)
	}
}

func TestTournamentRefusalOfAnotherOnesOutSaysWhatForcePlays(t *testing.T) {
	// A run without --seed goes on with the seed of the tournament --out
	// holds, but --force starts it again on a seed drawn at random: the
	// refusal describes the tournament --force would play, not one on
	// the file's seed, and says how --seed sets it.
	out := filepath.Join(t.TempDir(), "out.jsonl")
	if code, _, errOut := arbiter(t, "", "tournament", "tncc", "--players", "war,blitz", "--games", "1", "--seed", "7", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	other := []string{"tournament", "tncc", "--players", "war,general", "--games", "1", "--out", out}
	code, _, errOut := arbiter(t, "", other...)
	_, this, _ := strings.Cut(errOut, "; this one is ")
	if code != exitUsage || !strings.Contains(errOut, "the file holds another tournament (tncc tournament ") ||
		strings.Contains(this, "seed 7") || !strings.Contains(this, "its seed to be drawn") ||
		!strings.Contains(errOut, "--force to replace it with this tournament on a seed drawn at random (--force --seed N: on seed N)") {
		t.Fatalf("exit %d, %s; want 2, this tournament described without the file's seed 7, and what --force and --seed play", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", append(other, "--force")...); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errOut)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := tournament.NewReader(f, out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Schedule.Seed == 7 {
		t.Errorf("--force played on the file's seed 7, where the refusal said a seed drawn at random")
	}
}

func TestTournamentGoesOn(t *testing.T) {
	// A tournament whose --out holds some of its games, as a run stopped
	// by Ctrl-C or killed leaves it, goes on from the game after them when
	// the same command is run again: it ends with the file and the
	// standings of the tournament played through, whatever --parallel.
	dir := t.TempDir()
	base := []string{"tournament", "reaj", "--players", "fixed,steward", "--seats", "6", "--seed", "1", "--parallel", "2"}
	whole := filepath.Join(dir, "whole.jsonl")
	code, want, errOut := arbiter(t, "", append(base, "--out", whole)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantFile, _ := os.ReadFile(whole)
	lines := bytes.SplitAfter(wantFile, []byte("\n"))

	for _, c := range []struct {
		name string
		kept []byte // the file as the stopped run left it
		says string
	}{
		{"stopped after game 6", bytes.Join(lines[:7], nil), "6 games played before; going on from game 7 of 42"},
		// A kill may cut the line it was writing: that game is played again.
		{"cut in game 10", append(bytes.Join(lines[:10], nil), lines[10][:40]...), "9 games played before; going on from game 10 of 42"},
		// Its last line whole but for the newline.
		{"no newline", bytes.Join(lines[:5], nil)[:len(bytes.Join(lines[:5], nil))-1], "4 games played before; going on from game 5 of 42"},
		{"only the header", lines[0], "0 games played before; going on from game 1 of 42"},
		{"played through", wantFile, "its 42 games were played before; nothing more to play"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			os.WriteFile(out, c.kept, 0o644)
			code, got, errOut := arbiter(t, "", append(base, "--out", out, "--parallel", "1")...)
			if code != 0 || got != want || !strings.Contains(errOut, out+": "+c.says) {
				t.Fatalf("exit %d\n%s\n%s\nwant the standings played through:\n%s\nand %q", code, got, errOut, want, c.says)
			}
			if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, wantFile) {
				t.Errorf("the file gone on with is not the tournament's played through:\n%s\nwant\n%s", gotFile, wantFile)
			}
		})
	}

	// A file of another tournament, of another shard, or edited is refused
	// and left as it was; so is --export-training, which would lack the
	// games played before.
	edited := bytes.Join(lines[:8], nil)
	edited = bytes.Replace(edited, []byte(`"scores":[`), []byte(`"scores":[1`), 1)
	for _, c := range []struct {
		name string
		file []byte
		args []string
		says string
	}{
		{"another seed", wantFile, []string{"--seed", "2"}, "the file holds another tournament (reaj tournament "},
		{"another shard", wantFile, []string{"--shard", "1/2"}, "the file holds shard 0/1 of this tournament, not 1/2"},
		{"edited", edited, nil, "the digest does not follow from this line"},
		{"not results", []byte("my notes\n"), nil, "the file exists and holds no results this Arbiter can go on with"},
		{"training", bytes.Join(lines[:3], nil), []string{"--export-training", filepath.Join(dir, "t.jsonl")}, "--export-training cannot go on with --out "},
		// A run --until-certain stops where the order settles; a file
		// with games past that point was written without it.
		{"until certain", wantFile, []string{"--until-certain", "--confidence", "0.5"}, "where --until-certain settles the order (a run without --until-certain wrote it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			os.WriteFile(out, c.file, 0o644)
			code, got, errOut := arbiter(t, "", append(append(base, "--out", out), c.args...)...)
			if code != exitUsage || got != "" || !strings.Contains(errOut, c.says) || !strings.Contains(errOut, "--force") {
				t.Errorf("exit %d\n%s\n%s\nwant exit 2 and %q, naming --force", code, got, errOut, c.says)
			}
			if after, _ := os.ReadFile(out); !bytes.Equal(after, c.file) {
				t.Errorf("the refused file was changed")
			}
		})
	}
}

func TestTournamentKilledGoesOn(t *testing.T) {
	// A tournament killed (kill -9) in the middle goes on where its file
	// stops when run again, and ends with the file and the standings of the
	// tournament played through: the file is brought up to date as games
	// end, and a line cut short is played again. The run is stopped in a
	// game whose bot never answers, which it cannot get past (the start-up
	// limit is an hour), whatever the machine's speed.
	g := newGatedTournament(t, "steward,conquer", 9, 3, 2)
	out := filepath.Join(t.TempDir(), "killed.jsonl")
	cmd := g.start(t, out, 1)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if n := gamesIn(out); n < 1 || n > 8 {
		t.Fatalf("the killed tournament kept %d games; want 1 to 8 (it stood at game 9)", n)
	}
	g.goesOn(t, out, "games played before; going on from game ")
}

// gatedTournament is a Reaj tournament in which players and a gate bot
// (gateBot) that stops answering in game gate, while its marker is
// missing, play games rounds on parallel cores; want and wantFile are what
// the tournament played through (the gate open) printed and wrote.
type gatedTournament struct {
	marker   string
	args     func(out string, more ...string) []string
	want     string
	wantFile []byte
}

func newGatedTournament(t *testing.T, players string, gate, games, parallel int) gatedTournament {
	t.Helper()
	need(t, "python3")
	dir := t.TempDir()
	g := gatedTournament{marker: filepath.Join(dir, "gate")}
	g.args = func(out string, more ...string) []string {
		return append([]string{"tournament", "reaj", "--players", players + "," + gateBot(gate, g.marker), "--seats", "2", "--games", strconv.Itoa(games),
			"--seed", "1", "--out", out, "--parallel", strconv.Itoa(parallel), "--startup", "1h", "--bot-logs", filepath.Join(dir, "logs")}, more...)
	}
	if err := os.WriteFile(g.marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	code, want, errOut := runBinary(t, g.args(whole)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, want, errOut)
	}
	g.want = want
	g.wantFile, _ = os.ReadFile(whole)
	return g
}

// start starts the tournament in out with its gate closed, and waits
// until it stands there with at least games games in out.
func (g gatedTournament) start(t *testing.T, out string, games int) *exec.Cmd {
	t.Helper()
	os.Remove(g.marker)
	cmd, _ := startGated(t, g.args(out), g.marker, func() bool { return gamesIn(out) >= games },
		fmt.Sprintf("the tournament did not reach its gate with %d games kept", games))
	return cmd
}

// goesOn runs the tournament again in out, and checks that it ends with
// the standings and the file of the tournament played through, its
// standard error saying says.
func (g gatedTournament) goesOn(t *testing.T, out, says string) {
	t.Helper()
	code, got, errOut := runBinary(t, g.args(out)...)
	if code != 0 || got != g.want || !strings.Contains(errOut, says) {
		t.Fatalf("gone on: exit %d\n%s\n%s\nplayed through:\n%s\nwant it to say %q", code, got, errOut, g.want, says)
	}
	if gotFile, _ := os.ReadFile(out); !bytes.Equal(gotFile, g.wantFile) {
		t.Errorf("the tournament gone on with is not the tournament played through:\n%s\nwant\n%s", gotFile, g.wantFile)
	}
}

// gamesIn counts the games a results file holds.
func gamesIn(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte("\n{\"game\":"))
}

func TestTournamentKilledBeforeItsFirstGameGoesOn(t *testing.T) {
	// A tournament killed (kill -9) before its first game ends leaves a
	// file the same command goes on with (it left an empty file, which
	// the next run refused as holding no results).
	g := newGatedTournament(t, "steward", 1, 1, 1)
	dir := t.TempDir()
	out := filepath.Join(dir, "killed.jsonl")
	cmd := g.start(t, out, 0)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	g.goesOn(t, out, "0 games played before; going on from game 1")

	// An empty file holds nothing to keep: it is written as a new one.
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g.goesOn(t, empty, "")
}

func TestTournamentFileHasOneRunAtATime(t *testing.T) {
	// A second run of a tournament whose --out another run is writing is
	// refused, with or without --force, and leaves the file as it is;
	// the first goes on with it when run again (both went on from the same
	// game, and the file ended with games twice over and digests that
	// do not follow).
	g := newGatedTournament(t, "steward,conquer", 9, 3, 2)
	dir := t.TempDir()
	for _, first := range []string{"a new file", "a file gone on with"} {
		out := filepath.Join(dir, strings.ReplaceAll(first, " ", "-")+".jsonl")
		if first == "a file gone on with" {
			// A run that goes on holds the file as one that starts it.
			lines := bytes.SplitAfter(g.wantFile, []byte("\n"))
			if err := os.WriteFile(out, bytes.Join(lines[:2], nil), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := g.start(t, out, 1)
		before, _ := os.ReadFile(out)
		for _, more := range [][]string{nil, {"--force"}} {
			code, got, errOut := runBinary(t, g.args(out, more...)...)
			if code != exitUsage || got != "" || !strings.Contains(errOut, "another run of arbiter is writing it") {
				t.Errorf("%s: a second run %v: exit %d\n%s\n%s", first, more, code, got, errOut)
			}
			// The first run may still write the games it was playing
			// when it reached its gate: the file stays the start of
			// the file of a run played through.
			if after, _ := os.ReadFile(out); !bytes.HasPrefix(after, before) || !bytes.HasPrefix(g.wantFile, after) {
				t.Errorf("%s: the second run %v changed the file:\n%s\nwas\n%s", first, more, after, before)
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		g.goesOn(t, out, "")
	}
	// A device is no file of results to hold: --out /dev/null --force
	// plays as before.
	if code, got, errOut := runBinary(t, "tournament", "reaj", "--players", "steward,conquer", "--seats", "2", "--games", "3", "--seed", "1", "--out", os.DevNull, "--force"); code != 0 || got == "" {
		t.Errorf("--out %s --force: exit %d\n%s\n%s", os.DevNull, code, got, errOut)
	}
}

func TestJSONOutputsHaveTheFieldsTheReadmeLists(t *testing.T) {
	// "Tournaments and duels as JSON" lists what a program reads; fields
	// are only ever added. Each object's keys here are those it lists
	// (those marked ? where these runs have them).
	dir := t.TempDir()
	keys := func(what string, raw json.RawMessage, want ...string) {
		t.Helper()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v in %s", what, err, raw)
		}
		var got []string
		for k := range m {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has the keys %q; want %q", what, got, want)
		}
	}
	field := func(raw json.RawMessage, path ...string) json.RawMessage {
		t.Helper()
		for _, k := range path {
			var m map[string]json.RawMessage
			var a []json.RawMessage
			if json.Unmarshal(raw, &m) == nil {
				raw = m[k]
			} else if err := json.Unmarshal(raw, &a); err == nil {
				i, _ := strconv.Atoi(k)
				raw = a[i]
			} else {
				t.Fatalf("%s: %v", k, err)
			}
		}
		return raw
	}
	lines := func(path string) []json.RawMessage {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []json.RawMessage
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			out = append(out, json.RawMessage(l))
		}
		return out
	}

	results := filepath.Join(dir, "results.jsonl")
	code, out, errOut := arbiter(t, "", "tournament", "reaj", "--players", "steward,adapt,conquer", "--seats", "2", "--turns", "5", "--seed", "1",
		"--json", "--out", results)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	standings := json.RawMessage(out)
	schedule := []string{"ruleset", "options", "players", "kind", "seats", "repeat", "seed"}
	keys("the standings", standings, "id", "schedule", "games", "played", "standings")
	keys("the standings' schedule", field(standings, "schedule"), schedule...)
	keys("a standing", field(standings, "standings", "0"), "player", "games", "wins", "mean_score", "mean_rank", "faults", "rating", "ordinal")
	keys("a rating", field(standings, "standings", "0", "rating"), "mu", "sigma")
	file := lines(results)
	keys("a results file's header", file[0], "format", "version", "id", "schedule", "games", "shard")
	keys("a results file's schedule", field(file[0], "schedule"), schedule...)
	keys("a game's line", file[1], "game", "seed", "seats", "scores", "ranks", "winners", "faults", "digest")

	duelFile := filepath.Join(dir, "duel.jsonl")
	code, out, errOut = arbiter(t, "", "duel", "zombie", "sensible", "cautious", "--sprt", "elo0=0,elo1=5", "--seed", "1", "--json", "--out", duelFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	duel := json.RawMessage(out)
	state := []string{"pairs", "pentanomial", "trinomial", "faults", "llr", "verdict", "ended"}
	keys("the duel's result", duel, "id", "duel", "test", "state", "elo", "nelo", "los", "bounds", "says")
	keys("the duel", field(duel, "duel"), "ruleset", "rules_version", "options", "a", "b", "field", "seed")
	keys("the test", field(duel, "test"), "elo0", "elo1", "alpha", "beta", "model")
	keys("the state", field(duel, "state"), state...)
	keys("the Elo", field(duel, "elo"), "elo", "error")
	keys("the normalized Elo", field(duel, "nelo"), "elo", "error")
	file = lines(duelFile)
	keys("a duel file's header", file[0], "format", "version", "id", "duel", "test")
	keys("a pair's line", file[1], "pair", "outcome", "games", "digest")
	keys("a pair's game", field(file[1], "games", "0"), "game", "seed", "seats", "scores", "ranks", "winners", "faults", "status")
	keys("a state line", file[len(file)-1], "state", "digest")
	keys("a state line's state", field(file[len(file)-1], "state"), state...)
}

func TestTournamentGoesOnOnlyUnderItsOwnConditions(t *testing.T) {
	// A results file keeps the time limits and programs' bounds its games
	// were played under: the same command goes on with it, and so does one
	// that gives the deadlines the seats had (--reply-deadline and
	// --startup as their defaults made them), but one with another
	// --deadline (or --bot-limits...) is refused, naming the flags, and
	// leaves the file as it is. Where no program plays, the header holds
	// none (the files of TestRecordsUnchanged).
	py, _, _ := starterFiles(t)
	out := filepath.Join(t.TempDir(), "results.jsonl")
	run := func(extra ...string) (int, string) {
		args := append([]string{"tournament", "reaj", "--players", "steward", "--player", "exec:python3 " + py, "--seats", "2", "--seed", "1", "--turns", "5", "--out", out}, extra...)
		code, _, errOut := arbiter(t, "", args...)
		return code, errOut
	}
	if code, errOut := run("--deadline", "2s"); code != 0 {
		t.Fatalf("the first run: exit %d: %s", code, errOut)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(string(before), "\n", 2)[0]
	for _, want := range []string{`"conditions":{"bank":"0s","bot-limits":"as=4GiB,cpu=10m0s,nproc=256,fsize=1GiB","deadline":"2s"`, `"reply-deadline":"2s"`, `"startup":"20s"`} {
		if !strings.Contains(header, want) {
			t.Errorf("the header keeps no %s:\n%.600s", want, header)
		}
	}
	code, errOut := run("--deadline", "500ms")
	if code != 2 || !strings.Contains(errOut, "its games were played with --deadline 2s, not 500ms, --reply-deadline 2s, not 500ms, --startup 20s, not 10s as given now; go on with the same flags") {
		t.Errorf("going on with another --deadline: exit %d: %s", code, errOut)
	}
	code, errOut = run("--deadline", "2s", "--bot-limits", "cpu=1m")
	if code != 2 || !strings.Contains(errOut, "--bot-limits as=4GiB,cpu=10m0s,nproc=256,fsize=1GiB, not as=4GiB,cpu=1m0s,nproc=256,fsize=1GiB") {
		t.Errorf("going on with other --bot-limits: exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Error("a refused run changed the file")
	}
	if code, errOut := run("--deadline", "2s", "--reply-deadline", "2s", "--startup", "20s"); code != 0 {
		t.Errorf("the deadlines the defaults gave, given: exit %d: %s", code, errOut)
	}
	if code, errOut := run("--deadline", "2s"); code != 0 {
		t.Errorf("the same command again: exit %d: %s", code, errOut)
	}
}
