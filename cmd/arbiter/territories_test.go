package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/internal/celltest"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	_ "modernc.org/sqlite"
)

// sampleConfig is the sample configuration that ships with Arbiter.
const sampleConfig = "../../examples/territories/config.yaml"

// newTerritories creates a game of the sample in a temporary directory and
// returns its database's path.
func newTerritories(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "game.db")
	code, out, errOut := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", db)
	if code != 0 || !strings.Contains(out, "created "+db+": 11 territories, seed 3; the map in") {
		t.Fatalf("init: exit %d, %q, %q", code, out, errOut)
	}
	return db
}

// tplay runs one territories call for player (none when "").
func tplay(t *testing.T, db, player string, args ...string) (int, string, string) {
	t.Helper()
	all := []string{"territories", "--db", db}
	if player != "" {
		all = append(all, "--player", player)
	}
	return arbiter(t, "", append(all, args...)...)
}

// mustPlay runs a call that must be accepted and returns its one line.
func mustPlay(t *testing.T, db, player string, args ...string) string {
	t.Helper()
	code, out, errOut := tplay(t, db, player, args...)
	if code != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("%s %v: exit %d, %q, %q; want one line", player, args, code, out, errOut)
	}
	return out
}

func TestTerritoriesWalkthrough(t *testing.T) {
	// The README's walkthrough: "three players join, set colours, raise,
	// move and attack until a nation is out ... Every call prints a
	// one-line human result, or with --json one JSON object (action,
	// player, outcome, the battle numbers, the nation removed)".
	db := newTerritories(t)
	if out := mustPlay(t, db, "alice", "join", "Pacifica", "CA"); out != "alice founds Pacifica at CA with 3 armies, colour #e6194b\n" {
		t.Errorf("join: %q", out)
	}
	mustPlay(t, db, "bob", "join", "Deseret", "Nevada")
	mustPlay(t, db, "carol", "join", "Cascadia", "wa")
	mustPlay(t, db, "alice", "color", "red")
	mustPlay(t, db, "bob", "color", "rgb(0, 128, 0)")
	mustPlay(t, db, "carol", "color", "#36c")
	mustPlay(t, db, "alice", "raise", "CA")
	mustPlay(t, db, "alice", "raise", "CA")
	mustPlay(t, db, "bob", "move", "NV:2", "UT")
	if out := mustPlay(t, db, "carol", "move", "WA:1", "OR"); out != "carol (Cascadia) moves 1 army from WA to OR\n" {
		t.Errorf("move: %q", out)
	}
	// Alice attacks NV until Deseret holds nothing there, raising again
	// when she must; then Deseret's last territory.
	var removed any
	for i := 0; i < 60 && removed == nil; i++ {
		code, out, _ := tplay(t, db, "alice", "attack", "CA", "NV", "--json")
		if code != 0 {
			// NV was emptied: move in, and attack Utah from there.
			if code != 1 || !strings.Contains(out, `"code":"empty-territory"`) {
				t.Fatalf("attack: exit %d, %s", code, out)
			}
			mustPlay(t, db, "alice", "move", "CA:1", "NV")
			for range 3 {
				tplay(t, db, "alice", "raise", "NV")
			}
			for j := 0; j < 60 && removed == nil; j++ {
				_, out, _ = tplay(t, db, "alice", "attack", "NV", "UT", "--json")
				removed = attackResult(t, out)["removed"]
				tplay(t, db, "alice", "raise", "NV")
			}
			break
		}
		r := attackResult(t, out)
		removed = r["removed"]
		if r["attackers"].(float64) < 5 {
			tplay(t, db, "alice", "raise", "CA")
		}
	}
	if removed != "Deseret" {
		t.Fatalf("no nation is out after the attacks: removed %v", removed)
	}
	code, _, errOut := tplay(t, db, "bob", "raise", "UT")
	if code != 1 || !strings.Contains(errOut, "bob's nation Deseret is out of the game") {
		t.Errorf("a nation out may not act: exit %d, %q", code, errOut)
	}
	code, out, _ := arbiter(t, "", "territories", "--db", db, "show")
	if code != 0 || !regexp.MustCompile(`Deseret +bob +#008000 +- +- +out of the game \(action \d+\)`).MatchString(out) {
		t.Errorf("show after the game: %s", out)
	}
}

// attackResult reads an attack's JSON answer and checks its fields.
func attackResult(t *testing.T, out string) map[string]any {
	t.Helper()
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("want one JSON object on one line: %q", out)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"action", "player", "from", "to", "attackers", "defenders", "roll", "threshold", "success", "attacker_losses", "defender_losses", "removed"} {
		if _, ok := r[k]; !ok {
			t.Errorf("the attack's JSON lacks %q: %s", k, out)
		}
	}
	return r
}

func TestTerritoriesExitCodes(t *testing.T) {
	// "A rejected action exits with a code distinct from an internal error
	// (1 vs 3; usage errors 2), and prints a message a player can act on".
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	for _, c := range []struct {
		code    int
		args    []string
		message string
	}{
		{1, []string{"--player", "alice", "raise", "CA"}, "refused: the game has not started: it starts when 2 nations have joined"},
		{1, []string{"--player", "alice", "raise", "Califronia"}, `refused: unknown territory "Califronia"; the closest are CA (California)`},
		{1, []string{"--player", "zed", "raise", "CA"}, "refused: zed has no nation; join first"},
		{1, []string{"--player", "bob", "join", "Other", "CA"}, "CA (California) is held by Pacifica with 3 armies"},
		{2, []string{"raise", "CA"}, "name the player who acts: --player NAME"},
		{2, []string{"--player", "alice", "move", "CA:0", "NV"}, "the number of armies to move, 1 to 1000"},
		{2, []string{"--player", "alice", "color", "reddish"}, `"reddish" is not a colour`},
		{2, []string{"--player", "alice", "attack", "CA"}, "attack takes where from and where to"},
		{2, []string{"--player", "alice", "end-turn"}, "give no --player"},
		{2, []string{"--player", "alice", "fly"}, `unknown command "fly"; the commands are init`},
		// A typo is told the command it looks like, the rest of the call kept.
		{2, []string{"--player", "alice", "atack", "OR", "ID"}, `unknown command "atack"; did you mean attack OR ID?`},
		{2, []string{"--player", "alice", "colour", "blue"}, `unknown command "colour"; did you mean color blue?`},
		{2, []string{"--bogus"}, "unknown flag: --bogus"},
	} {
		code, _, errOut := arbiter(t, "", append([]string{"territories", "--db", db}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.message) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, errOut, c.code, c.message)
		}
	}
	// No such game, and no --db: usage.
	code, _, errOut := arbiter(t, "", "territories", "--db", filepath.Join(t.TempDir(), "none.db"), "--player", "a", "raise", "CA")
	if code != 2 || !strings.Contains(errOut, "no game of territories: the file does not exist (create a game with arbiter territories init)") {
		t.Errorf("a missing game: exit %d, %q", code, errOut)
	}
	if code, _, errOut = arbiter(t, "", "territories", "show"); code != 2 || !strings.Contains(errOut, "--db FILE") {
		t.Errorf("no --db: exit %d, %q", code, errOut)
	}
	// A broken database is an internal failure, 3.
	sqldb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	sqldb.Exec(`UPDATE territories_states SET world = '{"broken": true}'`)
	sqldb.Close()
	if code, _, errOut = tplay(t, db, "alice", "raise", "CA"); code != 3 || !strings.Contains(errOut, "territories state") {
		t.Errorf("a broken state: exit %d, %q; want 3", code, errOut)
	}
}

func TestTerritoriesJSONErrors(t *testing.T) {
	// "A refused action prints {"error": {"code", "message"}}", and so
	// does every other error with --json: a program reads one object.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	for _, c := range []struct {
		code int
		args []string
		want string
	}{
		{1, []string{"--player", "alice", "attack", "CA", "UT"}, "not-neighbours"},
		{1, []string{"--player", "alice", "raise", "Nevda"}, "unknown-territory"},
		{2, []string{"--player", "alice", "raise"}, "usage"},
		{2, []string{"--player", "alice", "fly"}, "usage"},
		{2, []string{"--bogus"}, "usage"},
		{2, nil, "usage"},
	} {
		code, out, _ := arbiter(t, "", append([]string{"territories", "--db", db, "--json"}, c.args...)...)
		var e struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil || code != c.code || e.Error.Code != c.want || e.Error.Message == "" {
			t.Errorf("%v: exit %d, %s; want exit %d and code %s", c.args, code, out, c.code, c.want)
		}
	}
	// Other actions carry action, player and their own fields.
	code, out, _ := tplay(t, db, "alice", "move", "CA:2", "OR", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 0 || m["action"] != "move" || m["player"] != "alice" || m["from"] != "CA" || m["to"] != "OR" || m["armies"] != 2.0 {
		t.Errorf("move --json: %s", out)
	}
}

func TestTerritoriesRequestID(t *testing.T) {
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	first := mustPlay(t, db, "alice", "raise", "CA", "--request", "msg-1")
	again := mustPlay(t, db, "alice", "raise", "CA", "--request", "msg-1")
	if !strings.HasPrefix(again, strings.TrimSuffix(first, "\n")) || !strings.Contains(again, "answered before") {
		t.Errorf("the repeat: %q after %q", again, first)
	}
	_, out, _ := arbiter(t, "", "territories", "--db", db, "history", "--json")
	var log []map[string]any
	json.Unmarshal([]byte(out), &log)
	if len(log) != 3 {
		t.Errorf("%d actions in the log; want 3 (the repeat is not applied)", len(log))
	}
}

func TestTerritoriesShowHistoryMap(t *testing.T) {
	// "arbiter territories show --db game.db [--json]: nations, players,
	// colours, holdings; history: every accepted action with its dice; map
	// --out map.svg|map.png: the map."
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	mustPlay(t, db, "bob", "move", "NV:1", "UT")
	mustPlay(t, db, "alice", "color", "red")
	mustPlay(t, db, "alice", "attack", "CA", "NV")
	code, out, _ := arbiter(t, "", "territories", "--db", db, "show")
	for _, want := range []string{"11 territories, 2 nations, 5 actions", "NATION", "Pacifica  alice   #ff0000", "Deseret   bob     #800000", "unclaimed: WA, OR, "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = arbiter(t, "", "territories", "--db", db, "show", "--json")
	var shown shownGame
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 || shown.Actions != 5 || len(shown.Nations) != 2 || shown.Nations[0].Color != "#ff0000" || len(shown.Unclaimed) < 8 {
		t.Errorf("show --json: %v %s", err, out)
	}
	code, out, _ = arbiter(t, "", "territories", "--db", db, "history")
	if code != 0 || !strings.Contains(out, "attack CA NV") || !strings.Contains(out, "roll ") || !strings.Contains(out, "colour draw 0") {
		t.Errorf("history:\n%s", out)
	}
	code, out, _ = arbiter(t, "", "territories", "--db", db, "history", "--json")
	var log []struct {
		Seq     int
		Action  string
		Dice    []int
		Outcome map[string]any
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 0 || len(log) != 5 || log[4].Outcome["roll"] != float64(log[4].Dice[0]) {
		t.Errorf("history --json: %v %s", err, out)
	}
	dir := t.TempDir()
	for _, name := range []string{"now.svg", "now.png"} {
		p := filepath.Join(dir, name)
		if code, out, errOut := arbiter(t, "", "territories", "--db", db, "map", "--out", p); code != 0 || !strings.Contains(out, p) {
			t.Fatalf("map --out %s: %d %s %s", name, code, out, errOut)
		}
		checkMapFile(t, p)
	}
	if code, _, _ := arbiter(t, "", "territories", "--db", db, "map", "--out", "now.jpg"); code != 2 {
		t.Errorf("map --out now.jpg: exit %d; want 2", code)
	}
	// A directory that is not there is the file's name's fault, told in
	// its words, not a temporary file's.
	missing := filepath.Join(dir, "no such dir", "now.png")
	if code, _, errOut := arbiter(t, "", "territories", "--db", db, "map", "--out", missing); code != 2 || !strings.Contains(errOut, "the directory "+filepath.Dir(missing)+": no such file or directory") || strings.Contains(errOut, ".tmp") {
		t.Errorf("map --out into a directory that is not there: exit %d, %q; want 2, and the directory", code, errOut)
	}
	// The game's own map files follow every action.
	checkMapFile(t, strings.TrimSuffix(db, ".db")+".svg")
	checkMapFile(t, strings.TrimSuffix(db, ".db")+".png")
	svg, _ := os.ReadFile(strings.TrimSuffix(db, ".db") + ".svg")
	if !bytes.Contains(svg, []byte(`fill="#ff0000" id="CA"`)) {
		t.Error("game.svg does not show CA in Pacifica's red after the colour change")
	}
}

// checkMapFile checks that a map file is whole: an SVG that parses to its
// end, or a PNG that decodes.
func checkMapFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".png") {
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		return
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Errorf("%s: %v", path, err)
			}
			return
		}
	}
}

func TestTerritoriesReplay(t *testing.T) {
	// "arbiter replay of the log rebuilds exactly the same tables".
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	mustPlay(t, db, "alice", "attack", "CA", "NV")
	for _, args := range [][]string{{"territories", "--db", db, "replay"}, {"replay", db}} {
		code, out, errOut := arbiter(t, "", args...)
		if code != 0 || !strings.Contains(out, "ok: the replay of the log rebuilds exactly") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	code, out, _ := arbiter(t, "", "replay", db, "--json")
	if code != 0 || !strings.Contains(out, `"ok":true`) || !strings.Contains(out, `"actions":3`) {
		t.Errorf("replay --json: %d %s", code, out)
	}
	sqldb, _ := sql.Open("sqlite", db)
	sqldb.Exec(`UPDATE holdings SET armies = armies + 1 WHERE territory = 'CA'`)
	sqldb.Close()
	code, out, errOut := arbiter(t, "", "replay", db)
	if code != 1 || !strings.Contains(out, "holdings: the file has CA") || !strings.Contains(errOut, "differs") {
		t.Errorf("a tampered file: exit %d, %q %q", code, out, errOut)
	}
}

func TestTerritoriesApplyNamesLinesAndCountsBoth(t *testing.T) {
	// apply: "Exit code: 0 when every action was accepted, 1 when the rules
	// refused one or more (the others were applied), 2 when a line did not
	// parse." Each refusal names its line in the file, and the summary
	// counts both kinds.
	db := newTerritories(t)
	code, _, errOut := arbiter(t, "alice join Pacifica CA\nalice fly OR\nbob join Boreal CA\n\nbob fly\n", "territories", "--db", db, "apply")
	for _, want := range []string{
		`arbiter: refused: line 2: "alice fly OR": unknown action "fly"`,
		`arbiter: refused: line 3: bob join Boreal CA: CA (California) is held by Pacifica`,
		`arbiter: refused: line 5: "bob fly": unknown action "fly"`,
		"arbiter: 2 lines did not parse and the rules refused 1 of 4 actions; the others were applied",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("apply: %q; want %q", errOut, want)
		}
	}
	if code != 2 {
		t.Errorf("apply: exit %d; want 2, a line did not parse", code)
	}
}

func TestTerritoriesApplyByteOrderMark(t *testing.T) {
	// A file of actions saved by Notepad starts with a byte order mark:
	// its first player was "\ufeffalice", not a name, and the line was
	// refused. The mark is skipped at the start only.
	db := newTerritories(t)
	code, out, errOut := arbiter(t, "\ufeffalice join Pacifica CA\n\ufeffbob join Deseret NV\n", "territories", "--db", db, "apply")
	if !strings.HasPrefix(out, "alice founds Pacifica at CA") {
		t.Errorf("apply: %q; want alice's join accepted", out)
	}
	if code != 2 || !strings.Contains(errOut, `line 2: "\ufeffbob join Deseret NV"`) {
		t.Errorf("apply: exit %d, %q; want line 2 refused (a mark inside the file is a character like any other)", code, errOut)
	}
}

func TestTerritoriesApply(t *testing.T) {
	db := newTerritories(t)
	script := strings.Join([]string{
		"# a batch",
		"alice join Pacifica CA",
		"bob join Deseret NV",
		"",
		"alice raise CA",
		"bob raise XX",
		"alice move CA:1 OR",
	}, "\n")
	code, out, errOut := arbiter(t, script, "territories", "--db", db, "--json", "apply", "--group", "10")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 5 || !strings.Contains(lines[3], `"code":"unknown-territory"`) || !strings.Contains(lines[3], `"line":6`) || !strings.Contains(errOut, "refused 1 of 5") {
		t.Errorf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = arbiter(t, "alice fly away\nalice raise CA\n", "territories", "--db", db, "apply")
	if code != 2 || !strings.Contains(errOut, `unknown action "fly"`) {
		t.Errorf("a bad line: exit %d %q", code, errOut)
	}
	if strings.Contains(errOut, "double quotes") {
		t.Errorf("a misspelt action is told of names in quotes: %q", errOut)
	}
	_, out, _ = arbiter(t, "", "territories", "--db", db, "history", "--json")
	var log []map[string]any
	json.Unmarshal([]byte(out), &log)
	if len(log) != 5 {
		t.Errorf("%d actions logged; want 5", len(log))
	}
}

func TestTerritoriesApplyPlayersOfSeveralWords(t *testing.T) {
	// --player "Alice Smith" is a player; so is "Alice Smith" at the
	// start of an apply line, where the first word alone is the player.
	db := newTerritories(t)
	code, out, errOut := arbiter(t, "\"Alice Smith\" join Pacifica CA\n\"Bob 🦊\" join Deseret NV\n\"Alice Smith\" raise CA\n", "territories", "--db", db, "--json", "apply")
	if code != 0 || strings.Count(out, `"seq"`) != 3 || !strings.Contains(out, `"player":"Alice Smith"`) || !strings.Contains(out, `"player":"Bob 🦊"`) {
		t.Fatalf("apply with players in quotes: exit %d\n%s\n%s", code, out, errOut)
	}
	if out := mustPlay(t, db, "Alice Smith", "raise", "CA"); !strings.Contains(out, "CA, which now has 5 armies") {
		t.Errorf("the same player by --player: %q", out)
	}
	for line, want := range map[string]string{
		"Alice Smith raise CA\n":    `double quotes: "Alice Smith" raise CA`,
		"\"Alice Smith raise CA\n":  "a double quote that is not closed",
		"\"Alice Smith\"raise CA\n": "followed by a space and the action",
	} {
		code, _, errOut := arbiter(t, line, "territories", "--db", db, "apply")
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("apply %q: exit %d, %q; want exit 2 and %q", line, code, errOut, want)
		}
	}
}

func TestTerritoriesInitErrors(t *testing.T) {
	dir := t.TempDir()
	db := newTerritories(t)
	if code, _, errOut := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", db); code != 2 || !strings.Contains(errOut, "already exists") {
		t.Errorf("init over a game: %d %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("map: map.svg\nterritories:\n  - {id: A, name: Ay, neighbors: [B]}\n"), 0o644)
	if code, _, errOut := arbiter(t, "", "territories", "init", "--config", bad, "--db", filepath.Join(dir, "x.db")); code != 2 || !strings.Contains(errOut, `territories[0] (line 3) (A): neighbor "B" is not a territory`) {
		t.Errorf("a bad config: %d %q", code, errOut)
	}
	// No map (left out, or none): init draws one, so it needs it.
	for _, m := range []string{"", "map: none\n"} {
		os.WriteFile(bad, []byte(m+"territories:\n  - {id: A, name: Ay, neighbors: [B]}\n  - {id: B, name: Bee, neighbors: [A]}\n"), 0o644)
		if code, _, errOut := arbiter(t, "", "territories", "init", "--config", bad, "--db", filepath.Join(dir, "x.db")); code != 2 || !strings.Contains(errOut, "bad.yaml: map: none given; the referee draws the map after every action") {
			t.Errorf("a config with %q: %d %q; want map asked for", m, code, errOut)
		}
	}
	// A map that lacks a territory's path.
	cfg, _ := os.ReadFile(sampleConfig)
	os.WriteFile(filepath.Join(dir, "c.yaml"), cfg, 0o644)
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), bytes.Replace(svg, []byte(`id="UT"`), []byte(`id="Utah"`), 1), 0o644)
	if code, _, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, "c.yaml"), "--db", filepath.Join(dir, "y.db")); code != 2 || !strings.Contains(errOut, `missing a path with id "UT"`) {
		t.Errorf("a map without UT: %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "y.db")); err == nil {
		t.Error("a failed init left a database behind")
	}
	// --seed, and a random seed when there is none, printed.
	code, out, _ := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", filepath.Join(dir, "s.db"), "--seed", "99", "--json")
	if code != 0 || !strings.Contains(out, `"seed":99`) {
		t.Errorf("--seed: %d %s", code, out)
	}
}

func TestTerritoriesInitOfTheSample(t *testing.T) {
	// A game master with arbiter installed and no copy of
	// examples/territories had no configuration to give init, which said
	// only "--config FILE". --config sample makes the sample game, shipped
	// in the binary, its map drawn, with dice of its own (the file's seed
	// is for the README's game); without --config, init names it.
	dir := t.TempDir()
	db := filepath.Join(dir, "friday.db")
	code, out, errOut := arbiter(t, "", "territories", "init", "--config", "sample", "--db", db, "--json")
	var got struct {
		Seed        uint64
		Territories int
		SVG, PNG    string
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Territories != 11 || got.Seed == 3 {
		t.Fatalf("init --config sample: exit %d, %q, %q", code, out, errOut)
	}
	for _, f := range []string{got.SVG, got.PNG} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the map was not drawn: %v", err)
		}
	}
	if code, out, errOut := arbiter(t, "", "territories", "--db", db, "--player", "alice", "join", "Pacifica", "CA"); code != 0 || !strings.Contains(out, "alice founds Pacifica at CA") {
		t.Errorf("join in the sample game: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := arbiter(t, "", "territories", "init", "--db", filepath.Join(dir, "none.db")); code != 2 || !strings.Contains(errOut, "--config sample for the sample game") {
		t.Errorf("init without --config: exit %d, %q", code, errOut)
	}
}

func TestTerritoriesInitDrawsA64BitSeed(t *testing.T) {
	// Without a seed, init drew one below 2^32: every attack's answer
	// tells its roll, and from a few rolls a player could try all 2^32
	// seeds in a minute and know every roll to come. The seed is now
	// drawn as play's are, from all 64 bits; three inits all below 2^32
	// happen once in 2^96.
	dir := t.TempDir()
	cfg, err := os.ReadFile(sampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg = regexp.MustCompile(`(?m)^seed: .*$`).ReplaceAll(cfg, nil)
	if bytes.Contains(cfg, []byte("\nseed:")) {
		t.Fatal("the sample configuration still has its seed")
	}
	os.WriteFile(filepath.Join(dir, "c.yaml"), cfg, 0o644)
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	var seeds []uint64
	for i := range 3 {
		code, out, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, "c.yaml"), "--db", filepath.Join(dir, fmt.Sprintf("g%d.db", i)), "--json")
		var got struct{ Seed uint64 }
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("init: exit %d, %q, %q", code, out, errOut)
		}
		seeds = append(seeds, got.Seed)
	}
	if slices.Max(seeds) < 1<<32 {
		t.Errorf("seeds %v: all below 2^32; want them drawn from 64 bits", seeds)
	}
}

func TestTerritoriesInitNeverDrawsOverTheGame(t *testing.T) {
	// init --db game.png answered "created game.png ... the map in
	// game.svg and game.png" and had renamed the map over the game.
	dir := t.TempDir()
	db := filepath.Join(dir, "game.png")
	code, out, errOut := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", db)
	want := "arbiter: map files: " + db + " is the game's database " + db + " or its journal, which drawing the map would replace; draw the map into another file (the configuration's output: {png: ...} names it"
	if code != 2 || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("init --db game.png: exit %d, %q, %q; want exit 2 and %q", code, out, errOut, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused init left %v", entries)
	}
	other := newTerritories(t)
	code, _, errOut = tplay(t, other, "", "map", "--out", filepath.Join(dir, "x.svg"))
	if code != 0 {
		t.Errorf("map --out x.svg: exit %d, %q", code, errOut)
	}
}

func TestTerritoriesInitNeverDrawsOverItsSources(t *testing.T) {
	// init --db map.db beside map.svg drew every action's map over the
	// map the game was made from, and the next game made from it started
	// with the first one's colours on it.
	dir := t.TempDir()
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	cfg, _ := os.ReadFile(sampleConfig)
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	os.WriteFile(filepath.Join(dir, "config.yaml"), cfg, 0o644)
	os.WriteFile(filepath.Join(dir, "c2.yaml"), append(append([]byte{}, cfg...), "\noutput: {png: c2.yaml}\n"...), 0o644)
	for _, c := range []struct{ config, db, want string }{
		{"config.yaml", "map.db", "the map would be drawn into " + filepath.Join(dir, "map.svg") + ", the map the game is made from (" + filepath.Join(dir, "map.svg") + "), and replace it"},
		{"c2.yaml", "g.db", "the map would be drawn into " + filepath.Join(dir, "c2.yaml") + ", the configuration the game is made from"},
	} {
		code, out, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, c.config), "--db", filepath.Join(dir, c.db))
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "arbiter: "+c.want) {
			t.Errorf("init --config %s --db %s: exit %d, %q, %q; want exit 2 and %q", c.config, c.db, code, out, errOut, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, c.db)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a refused init made %s", c.db)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "map.svg")); !bytes.Equal(now, svg) {
		t.Error("the map was changed")
	}
}

func TestTerritoriesTurns(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := os.ReadFile(sampleConfig)
	cfg = bytes.Replace(cfg, []byte("# turn_management: true"), []byte("turn_management: true"), 1)
	os.WriteFile(filepath.Join(dir, "c.yaml"), cfg, 0o644)
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	db := filepath.Join(dir, "t.db")
	if code, _, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, "c.yaml"), "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	if out := mustPlay(t, db, "alice", "raise", "CA"); !strings.Contains(out, "(turn 1: 0 actions left)") {
		t.Errorf("raise: %q", out)
	}
	if code, _, errOut := tplay(t, db, "alice", "raise", "CA"); code != 1 || !strings.Contains(errOut, "Pacifica has used its 1 action in turn 1") {
		t.Errorf("a second action: %d %q", code, errOut)
	}
	if out := mustPlay(t, db, "", "end-turn"); !strings.Contains(out, "the judge ends turn 1; turn 2 begins") {
		t.Errorf("end-turn: %q", out)
	}
	code, out, _ := arbiter(t, "", "territories", "--db", db, "show")
	if code != 0 || !strings.Contains(out, "turn 2") || !strings.Contains(out, "ACTIONS LEFT") {
		t.Errorf("show: %s", out)
	}
}

func TestTerritoriesRefusalTellsTheTurnItEnded(t *testing.T) {
	// A call that comes after the turn's turn_duration ends the turn
	// first, as the judge, and that end is stored whether the call's own
	// action is accepted or refused: a refusal tells it too, or the
	// application never learns that a turn began.
	dir := t.TempDir()
	cfg, _ := os.ReadFile(sampleConfig)
	cfg = bytes.Replace(cfg, []byte("# turn_management: true"), []byte("turn_management: true"), 1)
	// Every call comes later than a nanosecond after the one before.
	cfg = bytes.Replace(cfg, []byte("# turn_duration: 24h"), []byte("turn_duration: 1ns"), 1)
	os.WriteFile(filepath.Join(dir, "c.yaml"), cfg, 0o644)
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	db := filepath.Join(dir, "t.db")
	if code, _, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, "c.yaml"), "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	code, out, errOut := tplay(t, db, "alice", "raise", "Califronia")
	if code != 1 || !strings.Contains(errOut, `unknown territory "Califronia"`) || !regexp.MustCompile(`^the judge ends turn \d+; turn \d+ begins\n$`).MatchString(out) {
		t.Errorf("a refusal after the turn's time: exit %d, %q, %q; want the turn's end told on standard output", code, out, errOut)
	}
	code, out, _ = tplay(t, db, "alice", "raise", "Califronia", "--json")
	var answer struct {
		Error  struct{ Code string }
		Judged []struct {
			Seq    int
			Action string
		}
	}
	if err := json.Unmarshal([]byte(out), &answer); code != 1 || err != nil || answer.Error.Code != "unknown-territory" || len(answer.Judged) != 1 || answer.Judged[0].Action != "end-turn" {
		t.Errorf("a refusal after the turn's time, in JSON: exit %d, %s; want its error and judged, the end-turn", code, out)
	}
	code, out, _ = arbiter(t, "alice raise Califronia\n", "territories", "--db", db, "apply", "--json")
	if code != 1 || !strings.Contains(out, `"judged":[{`) || !strings.Contains(out, `"line":1`) {
		t.Errorf("apply: a refused line after the turn's time: exit %d, %s; want its error and judged", code, out)
	}
	_, history, _ := arbiter(t, "", "territories", "--db", db, "history", "--json")
	var logged []struct{ Action string }
	json.Unmarshal([]byte(history), &logged)
	var actions []string
	for _, l := range logged {
		actions = append(actions, strings.Fields(l.Action)[0])
	}
	if got := strings.Join(actions, ","); got != "join,end-turn,join,end-turn,end-turn,end-turn" {
		t.Errorf("the log: %s; want each call after an end of turn (bob's join, the three refusals)", got)
	}
}

func TestPlayTerritories(t *testing.T) {
	// "arbiter play territories (seats join on the sample map; each turn a
	// seat may raise, move or attack as turn management allows), with a
	// random and a sensible greedy bot, so that tournaments run on it too".
	code, out, errOut := arbiter(t, "", "play", "territories", "--seed", "5")
	if code != 0 || !strings.Contains(out, "game 1: territories, seed 5") || !strings.Contains(out, "final scores") {
		t.Fatalf("play: exit %d\n%s\n%s", code, out, errOut)
	}
	dir := t.TempDir()
	code, _, errOut = arbiter(t, "", "play", "territories", "--players", "greedy,random,random,greedy", "--seed", "2", "--games", "3", "--record", dir)
	if code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = arbiter(t, "", "replay", filepath.Join(dir, "game-0002.jsonl"))
	if code != 0 || !strings.Contains(out, "ok: the replay reaches the recorded result and final state") {
		t.Errorf("replay of a played game: %d %s %s", code, out, errOut)
	}
	code, out, errOut = arbiter(t, "", "tournament", "territories", "--players", "greedy,random", "--seats", "2", "--games", "5", "--seed", "1")
	if code != 0 || !strings.Contains(out, "greedy") {
		t.Errorf("tournament: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = arbiter(t, "", "games")
	if code != 0 || !strings.Contains(out, "territories") {
		t.Errorf("games: %s", out)
	}
	code, out, _ = arbiter(t, "", "rules", "territories")
	if code != 0 || !strings.Contains(out, "x > (b - a)*2 + 10") {
		t.Errorf("rules: %s", out)
	}
	// A board of one's own, from a file.
	code, _, errOut = arbiter(t, "", "play", "territories", "--config", sampleConfig, "--turns", "5", "--seed", "1")
	if code != 0 {
		t.Errorf("--config: %s", errOut)
	}
	code, _, errOut = arbiter(t, "", "play", "territories", "--players", "greedy,greedy,greedy,greedy,greedy,greedy,greedy")
	if code != 2 || !strings.Contains(errOut, "takes 2 to 6 players") {
		t.Errorf("seven seats: %d %q", code, errOut)
	}
}

func TestStepTerritories(t *testing.T) {
	dir := t.TempDir()
	cfg := `{"map": "m.svg", "seed": 1, "territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}]}`
	state := filepath.Join(dir, "state.json")
	os.WriteFile(state, []byte(`{"config": `+cfg+`}`), 0o644)
	move := filepath.Join(dir, "move.json")
	os.WriteFile(move, []byte(`{"player": "alice", "action": "join Ayland A"}`), 0o644)
	code, out, errOut := arbiter(t, "", "step", "territories", "--state", state, "--moves", move)
	if code != 0 {
		t.Fatal(errOut)
	}
	var next struct {
		Config, State json.RawMessage
		Outcome       map[string]any
	}
	if err := json.Unmarshal([]byte(out), &next); err != nil || next.Outcome["nation"] != "Ayland" {
		t.Fatalf("%v: %s", err, out)
	}
	// The output is the next step's input.
	os.WriteFile(state, []byte(out), 0o644)
	os.WriteFile(move, []byte(`{"player": "alice", "action": "move A:1 B"}`), 0o644)
	if code, out, errOut = arbiter(t, "", "step", "territories", "--state", state, "--moves", move); code != 0 || !strings.Contains(out, `"from":"A"`) {
		t.Errorf("the second step: %d %s %s", code, out, errOut)
	}
	os.WriteFile(move, []byte(`{"player": "alice", "action": "attack A C"}`), 0o644)
	if code, _, errOut = arbiter(t, "", "step", "territories", "--state", state, "--moves", move); code != 1 || !strings.Contains(errOut, `unknown territory "C"`) {
		t.Errorf("a refused step: %d %s", code, errOut)
	}
}

// TestTerritoriesOnlyNewRows is a guard for the tables: after a game, the
// nations and holdings tables hold exactly the world's.
func TestTerritoriesTablesReadable(t *testing.T) {
	// "readable nations and holdings tables kept in the same transaction"
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	mustPlay(t, db, "bob", "move", "NV:1", "UT")
	sqldb, err := sql.Open("sqlite", db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sqldb.Close()
	rows, err := sqldb.QueryContext(context.Background(), `SELECT h.territory, h.nation, h.armies, n.player FROM holdings h JOIN nations n ON n.name = h.nation ORDER BY h.territory`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var terr, nation, player string
		var armies int
		rows.Scan(&terr, &nation, &armies, &player)
		got = append(got, terr+" "+nation+" "+player+" "+string(rune('0'+armies)))
	}
	rows.Close()
	if want := []string{"CA Pacifica alice 3", "NV Deseret bob 2", "UT Deseret bob 1"}; !slices.Equal(got, want) {
		t.Errorf("holdings: %v; want %v", got, want)
	}
}

func TestTerritoriesRequestIDBoundToCall(t *testing.T) {
	// A request id is bound to the player and the action: p4's move with
	// the id of p8's raise is refused as invalid input (2), and not
	// applied; p8's raise again is answered as before.
	db := newTerritories(t)
	mustPlay(t, db, "p8", "join", "Pacifica", "CA")
	mustPlay(t, db, "p4", "join", "Deseret", "NV")
	first := mustPlay(t, db, "p8", "raise", "CA", "--request", "r1")
	code, out, errOut := tplay(t, db, "p4", "move", "NV:1", "UT", "--request", "r1")
	want := `arbiter: --request: request "r1" is action 3, p8's "raise CA"; a request id names one call (one player, one action): give this call a new id` + "\n"
	if code != 2 || out != "" || errOut != want {
		t.Errorf("p4's move with p8's request id: exit %d, %q, %q; want exit 2 and %q", code, out, errOut, want)
	}
	code, out, _ = tplay(t, db, "p4", "move", "NV:1", "UT", "--request", "r1", "--json")
	if code != 2 || !strings.Contains(out, `{"error":{"code":"request-reused","message":"--request: request \"r1\" is action 3`) {
		t.Errorf("--json: exit %d, %s", code, out)
	}
	if again := mustPlay(t, db, "p8", "raise", "ca", "--request", "r1"); !strings.HasPrefix(again, strings.TrimSuffix(first, "\n")+" (answered before") {
		t.Errorf("p8's raise again: %q", again)
	}
	_, out, _ = arbiter(t, "", "territories", "--db", db, "show", "--json")
	if !strings.Contains(out, `"actions":3`) || !strings.Contains(out, `{"territory":"NV","name":"Nevada","nation":"Deseret","armies":3}`) {
		t.Errorf("after the refused move: %s", out)
	}
}

func TestTerritoriesInvalidInputExits2(t *testing.T) {
	// Usage and invalid input are 2 in every territories command: a bad
	// player name as a bad nation name, on the command line, in apply's
	// lines and in arbiter step.
	db := newTerritories(t)
	long := strings.Repeat("x", 70)
	for _, c := range []struct {
		args    []string
		message string
	}{
		{[]string{"--player", `a"b`, "join", "Pacifica", "CA"}, `--player: the player's name: "a\"b": a name may not contain a double quote or a backslash`},
		{[]string{"--player", long, "raise", "CA"}, `--player: the player's name: "` + long[:64] + `"…(70 bytes) is longer than 64 characters`},
		{[]string{"--player", "bob", "join", `b"b`, "CA"}, `join: the nation's name: "b\"b": a name may not contain a double quote or a backslash`},
		{[]string{"apply", "--group", "0"}, "--group 0: allowed 1 to 10000"},
	} {
		code, _, errOut := arbiter(t, "", append([]string{"territories", "--db", db}, c.args...)...)
		if code != 2 || errOut != "arbiter: "+c.message+"\n" {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errOut, c.message)
		}
	}
	code, _, errOut := arbiter(t, "a\"b join Pacifica CA\njudge raise CA\nalice end-turn\n", "territories", "--db", db, "apply")
	for _, want := range []string{
		`"a\"b join Pacifica CA": the player's name: "a\"b": a name may not contain a double quote`,
		`"judge raise CA": name the player who makes the raise; only end-turn is the judge's`,
		`"alice end-turn": end-turn is the judge's action, made with no player (not "alice")`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("apply: %q; want %q", errOut, want)
		}
	}
	if code != 2 || !strings.Contains(errOut, "3 lines did not parse") {
		t.Errorf("apply of bad players: exit %d, %q", code, errOut)
	}
	dir := t.TempDir()
	state, move := filepath.Join(dir, "state.json"), filepath.Join(dir, "move.json")
	os.WriteFile(state, []byte(`{"config": {"map": "m.svg", "territories": [{"id": "A", "name": "Ay", "neighbors": []}]}}`), 0o644)
	os.WriteFile(move, []byte(`{"player": "a\"b", "action": "join X A"}`), 0o644)
	if code, _, errOut := arbiter(t, "", "step", "territories", "--state", state, "--moves", move); code != 2 || !strings.Contains(errOut, `--moves: player: the player's name: "a\"b"`) {
		t.Errorf("step with a bad player: exit %d, %q", code, errOut)
	}
}

func TestTerritoriesQuotesLongInputShort(t *testing.T) {
	// An error quotes at most 64 characters of what it was given, and its
	// length: a 100 KB name is not printed back, as JSON or as a line.
	db := newTerritories(t)
	long := strings.Repeat("N", 100000)
	want := `"` + long[:64] + `"…(100000 bytes)`
	for _, c := range [][]string{
		{"--player", "carol", "join", long, "WA"},
		{"--player", long, "raise", "CA"},
		{"--player", "carol", "raise", long},
		{"--player", "carol", long},
	} {
		for _, asJSON := range []bool{false, true} {
			args := append([]string{"territories", "--db", db}, c...)
			if asJSON {
				args = append(args, "--json")
			}
			code, out, errOut := arbiter(t, "", args...)
			said := errOut
			if asJSON {
				var e struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal([]byte(out), &e); err != nil {
					t.Fatalf("not one JSON object: %v", err)
				}
				said = e.Error.Message
			}
			if code == 0 || !strings.Contains(said, want) || len(out)+len(errOut) > 1000 {
				t.Errorf("exit %d, %d bytes out and %d on standard error, saying %.200q; want the input quoted as %.80q…", code, len(out), len(errOut), said, want)
			}
		}
	}
}

func TestTerritoriesRequestIDIsOneTo200Bytes(t *testing.T) {
	// --request '' is refused, not ignored; an id is at most 200 bytes.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	for _, c := range []struct{ id, message string }{
		{"", "--request is empty; give the call an id of 1 to 200 bytes"},
		{strings.Repeat("r", 201), "--request is 201 bytes long; an id is 1 to 200 bytes"},
	} {
		code, _, errOut := tplay(t, db, "bob", "join", "Deseret", "NV", "--request", c.id)
		if code != 2 || !strings.HasPrefix(errOut, "arbiter: "+c.message) {
			t.Errorf("--request of %d bytes: exit %d, %q; want exit 2 and %q", len(c.id), code, errOut, c.message)
		}
	}
	mustPlay(t, db, "bob", "join", "Deseret", "NV", "--request", strings.Repeat("r", 200))
}

func TestTerritoriesPlayerOnlyOnActions(t *testing.T) {
	// show and history took --player and ignored it: show --player alice
	// showed every nation and history --player alice every player's
	// actions, as if they were alice's. Every command that is not one
	// action now refuses it, saying what it does instead, and changes
	// nothing.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	actions := filepath.Join(t.TempDir(), "actions.txt")
	if err := os.WriteFile(actions, []byte("alice raise CA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show"}, "show takes no --player: it shows every nation with its player"},
		{[]string{"show", "--json"}, "show takes no --player: it shows every nation with its player"},
		{[]string{"history"}, "history takes no --player: it lists every player's actions, each with its player"},
		{[]string{"history", "--json"}, "history takes no --player"},
		{[]string{"apply", actions}, "apply takes no --player: each line names its player first"},
		{[]string{"map", "--out", filepath.Join(t.TempDir(), "now.svg")}, "map takes no --player: only an action"},
		{[]string{"replay"}, "replay takes no --player: only an action"},
	} {
		code, out, errOut := tplay(t, db, "alice", c.args...)
		if said := errOut + out; code != 2 || !strings.Contains(said, c.want) {
			t.Errorf("%v --player alice: exit %d, %q; want exit 2 and %q", c.args, code, said, c.want)
		}
	}
	// The flag after the command is refused alike.
	if code, _, errOut := tplay(t, db, "", "history", "--player", "alice"); code != 2 || !strings.Contains(errOut, "history takes no --player") {
		t.Errorf("history --player alice: exit %d, %q; want exit 2", code, errOut)
	}
	fresh := filepath.Join(t.TempDir(), "new.db")
	code, _, errOut := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", fresh, "--player", "alice")
	if code != 2 || !strings.Contains(errOut, "init takes no --player") {
		t.Errorf("init --player: exit %d, %q; want exit 2", code, errOut)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("init --player refused, and yet %s: %v", fresh, err)
	}
	if got := mustPlay(t, db, "", "show", "--json"); !strings.Contains(got, `"actions":2,`) {
		t.Errorf("after the refusals the game is %s; want its two actions", got)
	}
}

func TestTerritoriesRequestOnlyOnActions(t *testing.T) {
	// --request makes an action safe to retry. apply took it and ignored
	// it, so an apply retried with the same id applied its lines again;
	// every command that is not one action now refuses it, and nothing
	// is applied.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	actions := filepath.Join(t.TempDir(), "actions.txt")
	if err := os.WriteFile(actions, []byte("alice raise CA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := tplay(t, db, "", "apply", actions, "--request", "batch-1")
	if want := "arbiter: apply takes no --request: its lines are applied again each time they are given"; code != 2 || !strings.HasPrefix(errOut, want) {
		t.Errorf("apply --request: exit %d, %q; want exit 2 and %q", code, errOut, want)
	}
	for _, args := range [][]string{{"show"}, {"history"}, {"map"}, {"replay"}, {"show", "--json"}} {
		code, out, errOut := tplay(t, db, "", append(args, "--request", "r1")...)
		said := errOut + out
		if code != 2 || !strings.Contains(said, args[0]+" takes no --request: only an action (join, color, move, raise, attack, pass, end-turn) has an id") {
			t.Errorf("%v --request: exit %d, %q; want exit 2 and that %s takes no --request", args, code, said, args[0])
		}
	}
	fresh := filepath.Join(t.TempDir(), "new.db")
	code, _, errOut = arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", fresh, "--request", "r1")
	if code != 2 || !strings.Contains(errOut, "init takes no --request") {
		t.Errorf("init --request: exit %d, %q; want exit 2", code, errOut)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("init --request refused, and yet %s: %v", fresh, err)
	}
	if got := mustPlay(t, db, "", "show", "--json"); !strings.Contains(got, `"actions":1,`) {
		t.Errorf("after the refusals the game is %s; want its one action", got)
	}
}

func TestTerritoriesErrorsAreOneLine(t *testing.T) {
	// Every error is one line that names the input and what is allowed:
	// no "unmarshal errors:" block, no Go type names, no bare SQLite codes,
	// no file names cut short.
	dir := t.TempDir()
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	sample, _ := os.ReadFile(sampleConfig)
	writeConfig := func(name, edit string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, append(append([]byte{}, sample...), edit...), 0o644)
		return p
	}
	// init names the map files whole.
	data := filepath.Join(dir, "data.db")
	code, out, errOut := arbiter(t, "", "territories", "init", "--config", writeConfig("c.yaml", ""), "--db", data)
	if want := "created " + data + ": 11 territories, seed 3; the map in " + filepath.Join(dir, "data.svg") + " and " + filepath.Join(dir, "data.png") + "\n"; code != 0 || out != want {
		t.Errorf("init: exit %d, %q, %q; want %q", code, out, errOut, want)
	}
	cases := []struct {
		code    int
		args    []string
		message string
	}{
		{2, []string{"territories", "init", "--config", writeConfig("two.yaml", "---\nmap: other.svg\n"), "--db", filepath.Join(dir, "two.db")},
			"config: more than one YAML document (a line ---); a configuration is one mapping"},
		{2, []string{"territories", "init", "--config", writeConfig("five.yaml", "colour: red\n"), "--db", filepath.Join(dir, "five.db")},
			`config: line 42: unknown key "colour"; the keys are map, output, territories, initial_armies, max_armies, seed, min_nations, turn_management, holdings_per_action, turn_duration`},
		{2, []string{"territories", "init", "--config", "/dev/zero", "--db", filepath.Join(dir, "zero.db")},
			"--config /dev/zero: config: larger than 1024 KiB; a configuration is at most that"},
		{2, []string{"territories", "init", "--config", filepath.Join(dir, "none.yaml"), "--db", filepath.Join(dir, "n.db")},
			"--config " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{2, []string{"territories", "--db", data, "apply", "/dev/zero"},
			"line 1 is longer than 4096 bytes; a line is PLAYER ACTION (the lines before it were applied)"},
		{2, []string{"territories", "--db", "/dev/null", "show"},
			"/dev/null: no game of territories: it is not a regular file (a game is an SQLite file made by arbiter territories init)"},
	}
	for _, c := range cases {
		code, _, errOut := arbiter(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.message) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit %d and one line with %q", c.args, code, errOut, c.code, c.message)
		}
	}
	// SQLite's failures say what failed and why.
	os.Mkdir(data+"-wal", 0o755)
	code, _, errOut = tplay(t, data, "alice", "join", "Pacifica", "CA")
	if want := "arbiter: " + data + ": SQLite cannot open the database (SQLite code 14): " + data + "-wal is a directory, where SQLite keeps a file\n"; code != 3 || errOut != want {
		t.Errorf("a -wal that is a directory: exit %d, %q; want %q", code, errOut, want)
	}
	// arbiter step reads the config's errors as one line, and output: none.
	state, move := filepath.Join(dir, "state.json"), filepath.Join(dir, "move.json")
	os.WriteFile(move, []byte(`{"player": "alice", "action": "join X A"}`), 0o644)
	const terr = `"territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}]`
	for _, c := range []struct{ config, message string }{
		{`{"map": "m.svg", "max_armies": [1], "initial_armies": "x", ` + terr + `}`, `--state: config: line 1: max_armies: want a whole number, have a list`},
		{`{"map": "m.svg", "output": "nowhere", ` + terr + `}`, `--state: config: line 1: output: want none (no map files) or {svg: FILE, png: FILE}, have "nowhere"`},
	} {
		os.WriteFile(state, []byte(`{"config": `+c.config+`}`), 0o644)
		code, _, errOut := arbiter(t, "", "step", "territories", "--state", state, "--moves", move)
		if code != 2 || errOut != "arbiter: "+c.message+"\n" {
			t.Errorf("step: exit %d, %q; want %q", code, errOut, c.message)
		}
	}
	os.WriteFile(state, []byte(`{"config": {"map": "m.svg", "output": "none", `+terr+`}}`), 0o644)
	if code, out, errOut := arbiter(t, "", "step", "territories", "--state", state, "--moves", move); code != 0 || !strings.Contains(out, `"output":{"svg":"none","png":"none"}`) {
		t.Errorf("step with output: none: exit %d, %s %s", code, out, errOut)
	}
}

func TestTerritoriesOutputNone(t *testing.T) {
	// "output: none: not drawn", as the README says.
	dir := t.TempDir()
	svg, _ := os.ReadFile("../../examples/territories/map.svg")
	os.WriteFile(filepath.Join(dir, "map.svg"), svg, 0o644)
	cfg, _ := os.ReadFile(sampleConfig)
	os.WriteFile(filepath.Join(dir, "c.yaml"), append(cfg, "output: none\n"...), 0o644)
	db := filepath.Join(dir, "game.db")
	code, out, errOut := arbiter(t, "", "territories", "init", "--config", filepath.Join(dir, "c.yaml"), "--db", db)
	if code != 0 || !strings.HasSuffix(out, "seed 3; no map files\n") {
		t.Fatalf("init: exit %d, %q, %q", code, out, errOut)
	}
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	for _, ext := range []string{".svg", ".png"} {
		if _, err := os.Stat(filepath.Join(dir, "game"+ext)); err == nil {
			t.Errorf("game%s drawn with output: none", ext)
		}
	}
	if code, _, errOut := arbiter(t, "", "territories", "--db", db, "map"); code != 2 || !strings.Contains(errOut, "draws no map files (output: none); give --out FILE") {
		t.Errorf("map: exit %d, %q", code, errOut)
	}
}

func TestTerritoriesLeavesOtherFilesAlone(t *testing.T) {
	// Every territories command tried on a file that is no game (an empty
	// file, another application's SQLite file, in rollback or WAL mode)
	// exits 2 with one line, and leaves the file with its exact bytes and
	// mode, and nothing beside it.
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o640); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.db", nil)
	foreign := []string{empty}
	for _, c := range []struct{ name, pragmas string }{{"rollback.db", ""}, {"wal.db", "?_pragma=journal_mode(WAL)"}} {
		p := filepath.Join(dir, c.name)
		db, err := sql.Open("sqlite", p+c.pragmas)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{`CREATE TABLE game (x)`, `INSERT INTO game VALUES (1)`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		foreign = append(foreign, p)
	}
	actions := write("actions.txt", []byte("alice join Pacifica CA\n"))
	snapshot := func() map[string]string {
		out := map[string]string{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			st, _ := os.Stat(p)
			b, _ := os.ReadFile(p)
			out[e.Name()] = fmt.Sprintf("%v %x", st.Mode(), b)
		}
		return out
	}
	before := snapshot()
	for _, db := range foreign {
		for _, args := range [][]string{
			{"--player", "alice", "join", "Pacifica", "CA"},
			{"--player", "alice", "color", "red"},
			{"--player", "alice", "move", "CA:1", "NV"},
			{"--player", "alice", "raise", "CA"},
			{"--player", "alice", "attack", "CA", "NV"},
			{"--player", "alice", "pass"},
			{"end-turn"},
			{"--player", "alice", "--request", "r1", "raise", "CA"},
			{"apply", actions},
			{"apply"},
			{"show"},
			{"history"},
			{"map"},
			{"map", "--out", filepath.Join(t.TempDir(), "now.png")},
			{"replay"},
		} {
			all := append([]string{"territories", "--db", db}, args...)
			code, out, errOut := arbiter(t, "alice raise CA\n", all...)
			if code != 2 || out != "" || !strings.Contains(errOut, db+": no game of territories: ") || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%v: exit %d, %q, %q; want exit 2 and one line", all, code, out, errOut)
			}
		}
		if code, _, errOut := arbiter(t, "", "replay", db); db != empty && (code != 2 || !strings.Contains(errOut, "no game of territories")) {
			t.Errorf("arbiter replay %s: exit %d, %q", db, code, errOut)
		}
		if code, _, errOut := arbiter(t, "", "territories", "init", "--config", sampleConfig, "--db", db); code != 2 || !strings.Contains(errOut, "already exists") {
			t.Errorf("init over %s: exit %d, %q", db, code, errOut)
		}
	}
	if after := snapshot(); !maps.Equal(before, after) {
		for name, b := range after {
			if before[name] != b {
				t.Errorf("%s changed (or appeared): %.80s", name, b)
			}
		}
		for name := range before {
			if _, ok := after[name]; !ok {
				t.Errorf("%s disappeared", name)
			}
		}
	}
}

func TestTerritoriesApplyGroups(t *testing.T) {
	// "A file of actions commits in groups of N": 2,000 lines with
	// --group 1000 are two transactions. Every action of a transaction
	// is logged with the transaction's time, so the log tells the groups.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "UT")
	file := filepath.Join(t.TempDir(), "moves.txt")
	os.WriteFile(file, []byte(strings.Repeat("alice move CA:1 OR\nalice move OR CA\n", 1000)), 0o644)
	code, out, errOut := arbiter(t, "", "territories", "--db", db, "apply", file, "--group", "1000")
	if code != 0 || strings.Count(out, "\n") != 2000 {
		t.Fatalf("apply: exit %d, %d lines, %q", code, strings.Count(out, "\n"), errOut)
	}
	_, out, _ = arbiter(t, "", "territories", "--db", db, "history", "--after", "2", "--json")
	var log []struct {
		At string `json:"at"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log) != 2000 {
		t.Fatalf("history: %d actions, %v", len(log), err)
	}
	groups := map[string]int{}
	for _, e := range log {
		groups[e.At]++
	}
	if len(groups) != 2 {
		t.Errorf("2,000 lines with --group 1000 made %d transactions; want 2", len(groups))
	}
	for at, n := range groups {
		if n != 1000 {
			t.Errorf("the transaction at %s stored %d actions; want 1000", at, n)
		}
	}
}

// olderRun is one command the referee before the live store ran on a game
// file of its layout, with what it printed (store/territories/testdata).
type olderRun struct {
	Args   []string `json:"args"`
	Exit   int      `json:"exit"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	File   string   `json:"file"`
}

func TestTerritoriesOlderFiles(t *testing.T) {
	// A game file made before the live store (schema versions 1 to 3, and
	// one whose tables were changed by hand) is converted when a command
	// first opens it; show, history, replay and map print byte for byte
	// what they printed before, with the same exit codes: on the first
	// command, and on every one after.
	const testdata = "../../store/territories/testdata/"
	fixtures, _ := filepath.Glob(testdata + "*.golden.json")
	if len(fixtures) < 7 {
		t.Fatalf("%d fixtures", len(fixtures))
	}
	for _, golden := range fixtures {
		name := strings.TrimSuffix(filepath.Base(golden), ".golden.json")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var g struct{ Runs []olderRun }
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			older, err := os.ReadFile(testdata + name + ".db")
			if err != nil {
				t.Fatal(err)
			}
			copyGame := func() string {
				p := filepath.Join(t.TempDir(), "game.db")
				if err := os.WriteFile(p, older, 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			// Each command on a file of its own, which it converts; then
			// every command, twice, on one file.
			for _, r := range g.Runs {
				checkOlderRun(t, copyGame(), r)
			}
			game := copyGame()
			for range 2 {
				for _, r := range g.Runs {
					checkOlderRun(t, game, r)
				}
			}
		})
	}
}

// checkOlderRun runs r's command on game and compares what it prints with
// what the referee before the live store printed.
func checkOlderRun(t *testing.T, game string, r olderRun) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "now.svg")
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = strings.NewReplacer("GAME", game, "MAP", out).Replace(a)
	}
	code, stdout, stderr := arbiter(t, "", args...)
	back := strings.NewReplacer(game, "GAME", out, "MAP")
	if code != r.Exit || back.Replace(stdout) != r.Stdout || back.Replace(stderr) != r.Stderr {
		t.Errorf("%v: exit %d\n%s%s\nwant exit %d\n%s%s", r.Args, code, back.Replace(stdout), back.Replace(stderr), r.Exit, r.Stdout, r.Stderr)
	}
	if r.File != "" {
		if b, err := os.ReadFile(out); err != nil || string(b) != r.File {
			t.Errorf("%v: the map drawn differs (%v)", r.Args, err)
		}
	}
}

func TestTerritoriesFileServed(t *testing.T) {
	// A game file of arbiter territories is a store of live matches:
	// arbiter serve opens it, lists its one match and shows it as the
	// referee left it, and the file goes on as a game file after.
	db := newTerritories(t)
	mustPlay(t, db, "alice", "join", "Pacifica", "CA")
	mustPlay(t, db, "bob", "join", "Deseret", "NV")
	mustPlay(t, db, "alice", "raise", "CA")
	_, before, _ := arbiter(t, "", "territories", "--db", db, "show")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, NoAccessLog: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	get := func(path string, v any) {
		t.Helper()
		resp, err := http.Get(web.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(v) != nil {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
	}
	var list struct {
		Matches []struct{ ID, Game, Status string }
	}
	get("/api/v1/matches", &list)
	if len(list.Matches) != 1 || list.Matches[0].Game != "territories" || list.Matches[0].Status != "running" {
		t.Fatalf("the list: %+v", list)
	}
	var m struct {
		Seq  int
		Mode string
		View struct {
			Nations []struct{ Name, Player string }
		}
	}
	get("/api/v1/matches/"+list.Matches[0].ID, &m)
	if m.Seq != 3 || m.Mode != "referee" || len(m.View.Nations) != 2 || m.View.Nations[1].Name != "Deseret" {
		t.Errorf("the match as served: %+v", m)
	}
	web.Close()
	srv.Shutdown(ctx)
	st.Close()
	mustPlay(t, db, "bob", "raise", "NV")
	if _, after, _ := arbiter(t, "", "territories", "--db", db, "show"); !strings.Contains(after, "4 actions") || !strings.Contains(after, "NV 4") || !strings.Contains(before, "NV 3") {
		t.Errorf("show after arbiter serve:\n%s\nbefore:\n%s", after, before)
	}
	if code, out, _ := arbiter(t, "", "territories", "--db", db, "replay"); code != 0 {
		t.Errorf("replay after arbiter serve: %s", out)
	}
}

func TestPlayWarnsOfAMapInParts(t *testing.T) {
	// The rules allow a territory with no neighbours; play warns that
	// nobody can reach it, before it plays.
	board := `{"territories":[{"id":"A","name":"Alpha","neighbors":["B"]},{"id":"B","name":"Beta","neighbors":["A"]},{"id":"C","name":"Gamma","neighbors":[]}]}`
	code, _, errOut := arbiter(t, "", "play", "territories", "--board", board, "--players", "greedy,random", "--seed", "1", "--turns", "3", "--report", "summary")
	if code != 0 || !strings.Contains(errOut, "arbiter: warning: --board: the map is in 2 parts that no move or attack crosses: C (no neighbours) cannot be reached") {
		t.Errorf("exit %d, %q; want a warning naming C", code, errOut)
	}
	code, _, errOut = arbiter(t, "", "play", "territories", "--players", "greedy,random", "--seed", "1", "--turns", "3", "--report", "summary")
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("the sample board: exit %d, %q", code, errOut)
	}
}

func TestPlayWarnsThatTheConfigSeedIsUnused(t *testing.T) {
	// README: seed "(else 64 random bits are picked and printed ...)" is
	// the dice of arbiter territories init; a game of play draws its dice
	// from --seed, so a configuration's seed changes nothing there and is
	// said to, rather than passed over in silence.
	dir := t.TempDir()
	board := "territories:\n  - {id: A, name: Alpha, neighbors: [B]}\n  - {id: B, name: Beta, neighbors: [A, C]}\n  - {id: C, name: Gamma, neighbors: [B]}\n"
	scores := map[string]string{}
	for _, seed := range []string{"", "seed: 5\n", "seed: 6\n"} {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, []byte(seed+board), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := arbiter(t, "", "play", "territories", "--config", path, "--players", "greedy,random", "--seed", "1", "--turns", "5", "--report", "summary-json")
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", seed, code, errOut)
		}
		// The standings, not the options, which name the file's seed.
		var summary struct{ Standings json.RawMessage }
		if err := json.Unmarshal([]byte(out), &summary); err != nil || len(summary.Standings) == 0 {
			t.Fatalf("%q: %v:\n%s", seed, err, out)
		}
		scores[seed] = string(summary.Standings)
		// The warning names the flag given, --config and its file, not
		// --board, which was not.
		warned := strings.Contains(errOut, "arbiter: warning: --config "+path+": seed ") && strings.Contains(errOut, "is not used: a match draws its dice from its own seed")
		if warned != (seed != "") || strings.Contains(errOut, "--board") {
			t.Errorf("config with %q: stderr %q; want a warning naming --config exactly when the file has a seed", seed, errOut)
		}
	}
	if scores["seed: 5\n"] != scores[""] || scores["seed: 6\n"] != scores[""] {
		t.Errorf("the configuration's seed changed the game; the warning says it does not")
	}
}

func TestTournamentAndDuelWarnOfAMapInParts(t *testing.T) {
	// As play does, a tournament and a duel warn before they play that
	// nobody can reach the territories cut off from the rest of the map.
	board := `{"territories":[{"id":"A","name":"Alpha","neighbors":["B"]},{"id":"B","name":"Beta","neighbors":["A"]},{"id":"C","name":"Gamma","neighbors":[]}]}`
	const warning = "arbiter: warning: --board: the map is in 2 parts that no move or attack crosses: C (no neighbours) cannot be reached"
	for _, args := range [][]string{
		{"tournament", "territories", "--board", board, "--players", "greedy,random", "--seed", "1", "--turns", "3"},
		{"duel", "territories", "greedy", "random", "--field", "none", "--board", board, "--seed", "1", "--turns", "3", "--games", "2"},
	} {
		code, _, errOut := arbiter(t, "", args...)
		if code != 0 || strings.Count(errOut, warning) != 1 {
			t.Errorf("%s: exit %d, %q; want one warning naming C", args[0], code, errOut)
		}
	}
}

func TestTerritoriesShowAndHistoryLineUpNamesInAnyScript(t *testing.T) {
	// Nations and players named in Japanese, with a combining accent and
	// with emoji: every column of show and history begins at its
	// heading's cell on every row, in the cells a terminal shows.
	db := newTerritories(t)
	mustPlay(t, db, "さくら", "join", "太郎の国", "CA")
	mustPlay(t, db, "jose\u0301", "join", "Jose\u0301land", "NV")
	mustPlay(t, db, "🎲", "join", "🎲🎲", "WA")
	mustPlay(t, db, "さくら", "raise", "CA")
	for _, args := range [][]string{{"show"}, {"history"}} {
		code, out, errOut := tplay(t, db, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "NATION") || strings.HasPrefix(l, "#") })
		if at < 0 {
			t.Fatalf("%v: no heading:\n%s", args, out)
		}
		head := lines[at]
		for _, word := range strings.Fields(head)[1:] {
			if word == "LEFT" { // ACTIONS LEFT
				continue
			}
			cell := celltest.Cell(head, strings.Index(head, word))
			for _, row := range lines[at+1:] {
				if strings.HasPrefix(row, "unclaimed: ") {
					continue
				}
				if !celltest.Begins(row, cell) {
					t.Errorf("%v: row %q: its %s does not begin at cell %d\n%s", args, row, word, cell, out)
				}
			}
		}
	}
}

func TestConfigGivenTheSampleBoardPointsToBoard(t *testing.T) {
	// --config sample, where no such file is, is the board's value given
	// to the file's flag: the message says which flag takes it.
	code, _, errOut := arbiter(t, "", "play", "territories", "--config", "sample", "--seed", "1")
	want := "--config sample: no such file or directory; sample is a value of --board: give it as --board sample"
	if code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, %q; want %d and %q", code, errOut, exitUsage, want)
	}
}
