package territories

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
	"github.com/google/go-cmp/cmp"
)

var ctx = context.Background()

// sampleConfig is the sample game's configuration, changed by edit.
func sampleConfig(t testing.TB, edit func(*rules.Config)) *rules.Config {
	t.Helper()
	cfg, err := rules.ParseConfig(rules.SampleConfigYAML())
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(cfg)
	}
	if cfg.Seed == nil {
		cfg = cfg.WithSeed(3)
	}
	return cfg
}

// newGame creates a game in a temporary directory.
func newGame(t testing.TB, cfg *rules.Config, o Options) *Referee {
	t.Helper()
	if cfg == nil {
		cfg = sampleConfig(t, nil)
	}
	r, err := Create(ctx, filepath.Join(t.TempDir(), "game.db"), cfg, rules.SampleMap(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// act submits "player action" lines, each in its own transaction, and
// returns the acks; a line may be refused.
func act(t testing.TB, r *Referee, lines ...string) []Ack {
	t.Helper()
	var acks []Ack
	for _, l := range lines {
		player, text, _ := strings.Cut(l, " ")
		if player == "judge" {
			player = rules.Judge
		}
		a, err := rules.ParseAction(text)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		ack, err := r.Submit(ctx, Call{Player: player, Action: a})
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		acks = append(acks, ack)
	}
	return acks
}

// accept is act for lines that must be accepted.
func accept(t testing.TB, r *Referee, lines ...string) []Ack {
	t.Helper()
	acks := act(t, r, lines...)
	for i, a := range acks {
		if a.Refused != nil {
			t.Fatalf("%s: refused: %v", lines[i], a.Refused)
		}
	}
	return acks
}

func mustVerify(t testing.TB, r *Referee) {
	t.Helper()
	v, err := r.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() {
		t.Fatalf("the replay differs:\n%s", strings.Join(v.Problems, "\n"))
	}
}

var opening = []string{
	"alice join Pacifica CA", "bob join Deseret NV", "carol join Cascadia WA",
	"alice color red", "bob color green", "carol color blue",
	"alice raise CA", "alice raise CA", "bob move NV:1 UT", "carol move WA:2 OR",
}

func TestLogAndTables(t *testing.T) {
	// "One SQLite file per game: the append-only log of accepted actions
	// with their dice, plus nations and holdings tables that other programs
	// may read, updated in the same transaction as the log."
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	accept(t, r, "alice attack CA NV")
	nations, holdings, err := r.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantNations := Table{
		{"Cascadia", "carol", "#0000ff", "3", "NULL", "NULL"},
		{"Deseret", "bob", "#008000", "2", "NULL", "NULL"},
		{"Pacifica", "alice", "#ff0000", "1", "NULL", "NULL"},
	}
	if d := cmp.Diff(wantNations, nations); d != "" {
		t.Errorf("nations (-want +got):\n%s", d)
	}
	w, err := r.World(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The holdings table is the world's holdings.
	var fromWorld Table
	for i := range w.Config().Len() {
		if h := w.Holding(i); h.Nation >= 0 {
			fromWorld = append(fromWorld, []string{w.Config().Territory(i).ID, w.Nation(h.Nation).Name, fmt.Sprint(h.Armies)})
		}
	}
	slices.SortFunc(fromWorld, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	if d := cmp.Diff(fromWorld, holdings); d != "" {
		t.Errorf("holdings (-world +table):\n%s", d)
	}
	log, err := r.History(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 11 {
		t.Fatalf("%d actions in the log; want 11", len(log))
	}
	last := log[10]
	var o map[string]any
	json.Unmarshal(last.Outcome, &o)
	if last.Action != "attack CA NV" || len(last.Dice) != 1 || o["roll"] != float64(last.Dice[0]) {
		t.Errorf("the attack's log entry: %+v %s", last, last.Outcome)
	}
	if log[0].Action != "join Pacifica CA" || len(log[0].Dice) != 1 {
		t.Errorf("a join's colour draw is its dice: %+v", log[0])
	}
	mustVerify(t, r)
}

func TestRefusedChangesNothing(t *testing.T) {
	// "Every rejected action changes nothing and says exactly why".
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	before, _ := r.World(ctx)
	b1, _ := before.MarshalJSON()
	acks := act(t, r, "alice attack CA UT", "dave raise CA", "alice raise Nevda", "bob attack NV CA")
	for i, a := range acks[:3] {
		if !engine.IsRuleError(a.Refused) {
			t.Errorf("call %d: %v; want a refusal", i, a.Refused)
		}
	}
	if !strings.Contains(acks[2].Refused.Error(), "NV (Nevada)") {
		t.Errorf("the unknown territory's refusal names no close match: %v", acks[2].Refused)
	}
	after, _ := r.World(ctx)
	b2, _ := after.MarshalJSON()
	if acks[3].Refused != nil {
		t.Fatal(acks[3].Refused)
	}
	// Only the last call (accepted) moved the game on.
	if after.Seq() != before.Seq()+1 {
		t.Errorf("seq %d → %d; want one more", before.Seq(), after.Seq())
	}
	if string(b1) == string(b2) {
		t.Error("the accepted attack changed nothing")
	}
	mustVerify(t, r)
}

func TestRequestIDAnswersOnce(t *testing.T) {
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	call := Call{Player: "alice", Action: rules.AttackAction("CA", "NV"), Request: "chatbot-42"}
	first, err := r.Submit(ctx, call)
	if err != nil || first.Refused != nil {
		t.Fatal(err, first.Refused)
	}
	again, err := r.Submit(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Repeat || again.Outcome.Seq != first.Outcome.Seq || again.Outcome.Battle.Roll != first.Outcome.Battle.Roll {
		t.Errorf("the repeated request got %+v; want the first answer %+v", again, first)
	}
	w, _ := r.World(ctx)
	if w.Seq() != len(opening)+1 {
		t.Errorf("seq %d; the repeat was applied again", w.Seq())
	}
	mustVerify(t, r)
}

func TestRequestIDIsBoundToItsCall(t *testing.T) {
	// A request id names one call: the same player and action. The same
	// call again is answered, not applied; another call with the id (another
	// player's, or another action) is refused, and nothing is stored.
	r := newGame(t, nil, Options{})
	accept(t, r, "p8 join Pacifica CA", "p4 join Deseret NV")
	first, err := r.Submit(ctx, Call{Player: "p8", Action: rules.RaiseAction("CA"), Request: "r1"})
	if err != nil || first.Refused != nil || first.Conflict != nil {
		t.Fatal(err, first)
	}
	before, _ := r.World(ctx)
	for _, c := range []Call{
		{Player: "p4", Action: rules.MoveAction("NV", 1, "UT"), Request: "r1"}, // another player
		{Player: "p8", Action: rules.RaiseAction("OR"), Request: "r1"},         // another action
		{Player: "p8", Action: rules.MoveAction("CA", 1, "OR"), Request: "r1"},
		{Player: "p8", Action: rules.RaiseAction("Nowhere"), Request: "r1"},
		{Player: rules.Judge, Action: rules.EndTurnAction, Request: "r1"},
	} {
		ack, err := r.Submit(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if ack.Conflict == nil || ack.Repeat || ack.Refused != nil {
			t.Errorf("%s %v with p8's request id: %+v; want a conflict", c.Player, c.Action, ack)
			continue
		}
		want := `request "r1" is action 3, p8's "raise CA"; a request id names one call (one player, one action): give this call a new id`
		if ack.Conflict.Error() != want {
			t.Errorf("the conflict says %q; want %q", ack.Conflict, want)
		}
	}
	if after, _ := r.World(ctx); after.Seq() != before.Seq() {
		t.Errorf("a refused request id changed the game: seq %d → %d", before.Seq(), after.Seq())
	}
	// The same call, its territory named another way, is the same call.
	for _, ref := range []string{"CA", "ca", "California"} {
		again, err := r.Submit(ctx, Call{Player: "p8", Action: rules.RaiseAction(ref), Request: "r1"})
		if err != nil || !again.Repeat || again.Conflict != nil || again.Outcome.Seq != first.Outcome.Seq {
			t.Errorf("raise %s again: %+v, %v; want the first answer", ref, again, err)
		}
	}
	mustVerify(t, r)
}

func TestBatchIsOneTransaction(t *testing.T) {
	r := newGame(t, nil, Options{})
	var calls []Call
	for _, l := range opening {
		player, text, _ := strings.Cut(l, " ")
		a, _ := rules.ParseAction(text)
		calls = append(calls, Call{Player: player, Action: a})
	}
	calls = append(calls, Call{Player: "zed", Action: rules.RaiseAction("CA")})
	acks, err := r.SubmitBatch(ctx, calls)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range acks[:len(opening)] {
		if a.Refused != nil || a.Outcome.Seq != i+1 {
			t.Errorf("call %d: %+v", i, a)
		}
	}
	if acks[len(opening)].Refused == nil {
		t.Error("zed, who has no nation, raised an army")
	}
	mustVerify(t, r)
}

func TestGroupCommitFromGoroutines(t *testing.T) {
	// Calls from many goroutines are committed in groups; each is stored
	// exactly once, and the tables are the replay's.
	r := newGame(t, nil, Options{Synchronous: "NORMAL"})
	accept(t, r, "alice join Pacifica CA", "bob join Deseret UT")
	var wg sync.WaitGroup
	var mu sync.Mutex
	seqs := map[int]int{}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			player, from, to := "alice", "CA", "OR"
			if g%2 == 1 {
				player, from, to = "bob", "UT", "CO"
			}
			for i := range 25 {
				a := rules.MoveAction(from, 1, to)
				if i%2 == 1 {
					a = rules.MoveAction(to, 1, from)
				}
				ack, err := r.Submit(ctx, Call{Player: player, Action: a})
				if err != nil {
					t.Error(err)
					return
				}
				if ack.Refused == nil {
					mu.Lock()
					seqs[ack.Outcome.Seq]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	log, _ := r.History(ctx, 2)
	if len(log) != len(seqs) {
		t.Errorf("%d actions acknowledged, %d in the log", len(seqs), len(log))
	}
	for _, e := range log {
		if seqs[e.Seq] != 1 {
			t.Errorf("action %d acknowledged %d times", e.Seq, seqs[e.Seq])
		}
	}
	mustVerify(t, r)
}

func TestVerifyFindsTampering(t *testing.T) {
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	if _, err := r.db.Exec(`UPDATE holdings SET armies = 1 WHERE territory = 'CA'`); err != nil {
		t.Fatal(err)
	}
	v, err := r.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v.OK() || !strings.Contains(strings.Join(v.Problems, "\n"), "holdings: the file has CA | Pacifica | 1; the replay CA | Pacifica | 5") {
		t.Errorf("problems %q", v.Problems)
	}
	if _, err := r.db.Exec(`UPDATE actions SET dice = '[7]' WHERE seq = 1`); err != nil {
		t.Fatal(err)
	}
	v, _ = r.Verify(ctx)
	if !strings.Contains(strings.Join(v.Problems, "\n"), "action 1 (alice: join Pacifica CA): the log has dice [7]") {
		t.Errorf("problems %q", v.Problems)
	}
}

func TestEditedStateIsNamed(t *testing.T) {
	// The rules' state stored beside the log, edited by hand so that it
	// no longer reads, was refused as "territories state: dice: invalid
	// PCG encoding": no file, no cause, nothing to do about it. Now the
	// refusal names the file and the table, and how to check the file.
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	path := r.Path()
	r.Close()
	for _, edit := range []string{
		`UPDATE territories_states SET world = '{}'`,
		`UPDATE territories_states SET world = replace(world, '"armies":5', '"armies":-7')`,
		`UPDATE territories_states SET seq = seq + 1`,
	} {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(edit); err != nil {
			t.Fatal(err)
		}
		db.Close()
		r, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.World(ctx)
		r.Close()
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "the table territories_states was changed outside Arbiter, or damaged (arbiter territories replay compares") {
			t.Errorf("%s: %v; want the file, the table and the replay named", edit, err)
		}
		// Put the state back for the next edit.
		fresh := newGame(t, nil, Options{})
		accept(t, fresh, opening...)
		var world string
		var seq int64
		if err := fresh.read.QueryRow(`SELECT seq, world FROM territories_states`).Scan(&seq, &world); err != nil {
			t.Fatal(err)
		}
		db, _ = sql.Open("sqlite", path)
		if _, err := db.Exec(`UPDATE territories_states SET seq = $1, world = $2`, seq, world); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

func TestMapFilesNeverReplaceTheGame(t *testing.T) {
	// A game file named game.png drew its map, game.png beside it, over
	// itself: init answered "created" and the game was gone. A map file
	// that is the database, its -wal, -shm or -journal, by name or by a
	// link, or one file for both maps, is refused, and nothing is made.
	dir := t.TempDir()
	for _, c := range []struct {
		db       string
		svg, png string
		want     string
	}{
		{"game.png", "", "", "game.png is the game's database"},
		{"game.svg", "", "", "game.svg is the game's database"},
		{"g.db", "g.db-wal", "", "g.db-wal is the game's database"},
		{"g.db", "", "./g.db-journal", "g.db-journal is the game's database"},
		{"g.db", "x.out", "x.out", "output: svg and png are the same file"},
	} {
		cfg := sampleConfig(t, func(cfg *rules.Config) { cfg.Output.SVG, cfg.Output.PNG = c.svg, c.png })
		path := filepath.Join(dir, c.db)
		r, err := Create(ctx, path, cfg, rules.SampleMap(), Options{})
		if err == nil {
			r.Close()
		}
		if !errors.Is(err, ErrMapFiles) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, output {%q, %q}: %v; want %q", c.db, c.svg, c.png, err, c.want)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: a refused create left the file: %v", c.db, err)
		}
	}
	// A game named game.png with its PNG elsewhere is a game, and its map
	// is not drawn over it by name or by a link.
	cfg := sampleConfig(t, func(cfg *rules.Config) { cfg.Output.PNG = "other.png" })
	path := filepath.Join(dir, "game.png")
	r, err := Create(ctx, path, cfg, rules.SampleMap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	accept(t, r, "alice join Pacifica CA")
	if err := r.UpdateMap(ctx, true); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{path, link, filepath.Join(dir, ".", "game.png")} {
		if err := r.WriteMap(ctx, out); !errors.Is(err, ErrMapFiles) {
			t.Errorf("map into %s: %v; want it refused", out, err)
		}
	}
	if w, err := r.World(ctx); err != nil || w.Seq() != 1 {
		t.Errorf("the game after: %v", err)
	}
	mustVerify(t, r)
}

func TestTurnDurationEndsTheTurn(t *testing.T) {
	// "a turn ends when every nation has used its actions or after
	// turn_duration": the referee logs the judge's end-turn first.
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	cfg := sampleConfig(t, func(c *rules.Config) {
		c.TurnManagement, c.HoldingsPerAction, c.TurnDuration, c.MinNations = true, 3, rules.Duration(time.Hour), 0
	})
	r := newGame(t, cfg, Options{Now: func() time.Time { return now }})
	accept(t, r, "alice join Pacifica CA", "bob join Deseret NV", "alice raise CA")
	acks := act(t, r, "alice raise CA")
	if acks[0].Refused == nil || !strings.Contains(acks[0].Refused.Error(), "Deseret has used its") == strings.Contains(acks[0].Refused.Error(), "when Deseret") {
		t.Errorf("a second action in the turn: %v", acks[0].Refused)
	}
	now = now.Add(61 * time.Minute)
	acks = accept(t, r, "alice raise CA")
	if len(acks[0].Judged) != 1 || acks[0].Judged[0].Action != rules.EndTurn || acks[0].Outcome.Turn != 2 {
		t.Errorf("after turn_duration: %+v", acks[0])
	}
	log, _ := r.History(ctx, 0)
	if log[len(log)-2].Action != "end-turn" || log[len(log)-2].Player != "" {
		t.Errorf("the judge's end-turn is not logged: %+v", log[len(log)-2])
	}
	mustVerify(t, r)
}

func TestMapFiles(t *testing.T) {
	// "After every accepted action (or on request) the referee writes the
	// map SVG ... and a PNG rendered in-process".
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	svg, pngPath := r.MapFiles()
	if filepath.Base(svg) != "game.svg" || filepath.Base(pngPath) != "game.png" {
		t.Errorf("map files %s %s; want game.svg and game.png beside game.db", svg, pngPath)
	}
	if err := r.UpdateMap(ctx, false); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("the PNG does not decode: %v", err)
	}
	b, _ := os.ReadFile(svg)
	if !strings.Contains(string(b), `id="CA" fill="#ff0000"`) && !strings.Contains(string(b), `fill="#ff0000" id="CA"`) {
		t.Error("the SVG does not show CA in Pacifica's red")
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(svg))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	var drawn int
	r.db.QueryRow(`SELECT map_seq FROM territories_states`).Scan(&drawn)
	if drawn != len(opening) {
		t.Errorf("map_seq %d; want %d", drawn, len(opening))
	}
	out := filepath.Join(t.TempDir(), "now.png")
	if err := r.WriteMap(ctx, out); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMap(ctx, "map.gif"); err == nil {
		t.Error("a .gif map was accepted")
	}
}

func TestStaleMapIsRedrawn(t *testing.T) {
	// A process killed between its commit and its drawing leaves the map
	// behind the log, and maybe temporary files: the next UpdateMap
	// redraws the map and removes the temporary files no live process
	// owns, and leaves alone the one a live process is writing.
	r := newGame(t, nil, Options{})
	accept(t, r, opening...)
	if err := r.UpdateMap(ctx, false); err != nil {
		t.Fatal(err)
	}
	svg, _ := r.MapFiles()
	dir := filepath.Dir(svg)
	// The state the killed process leaves: the action committed, not drawn,
	// and its temporary files, whose locks died with it.
	accept(t, r, "alice attack CA NV")
	stale := []string{filepath.Join(dir, ".game.svg.4242.tmp"), filepath.Join(dir, ".game.png.4243.tmp")}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte("half a map"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A live process's temporary file, locked.
	live, err := lockedTemp(svg)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if seq, _ := r.MapSeq(ctx); seq != len(opening) {
		t.Fatalf("map_seq %d before the redraw", seq)
	}
	if err := r.UpdateMap(ctx, false); err != nil {
		t.Fatal(err)
	}
	if seq, _ := r.MapSeq(ctx); seq != len(opening)+1 {
		t.Errorf("map_seq %d after the redraw; want %d", seq, len(opening)+1)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s, left by a dead process, is still there", filepath.Base(p))
		}
	}
	if _, err := os.Stat(live.Name()); err != nil {
		t.Errorf("a live process's temporary file was removed: %v", err)
	}
	// A map file removed is drawn again, though map_seq is current.
	os.Remove(svg)
	if err := r.UpdateMap(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(svg); err != nil {
		t.Errorf("the removed SVG was not drawn again: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(ctx, filepath.Join(dir, "none.db"), Options{}); !errors.Is(err, ErrNoGame) {
		t.Errorf("a missing file: %v", err)
	}
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not a database ", 100)), 0o644)
	if _, err := Open(ctx, junk, Options{}); !errors.Is(err, ErrNoGame) {
		t.Errorf("a file of text: %v", err)
	}
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", other)
	db.Exec(`CREATE TABLE x (y)`)
	db.Close()
	if _, err := Open(ctx, other, Options{}); !errors.Is(err, ErrNoGame) {
		t.Errorf("another SQLite file: %v", err)
	}
	r := newGame(t, nil, Options{})
	if _, err := Create(ctx, r.Path(), sampleConfig(t, nil), rules.SampleMap(), Options{}); !errors.Is(err, ErrExists) {
		t.Errorf("creating over a game: %v", err)
	}
}

// foreignFiles makes files that are not games in dir: an empty file, a
// text file, another application's SQLite databases (rollback journal; WAL
// and in use, its -wal file waiting; WAL at rest; with an application id
// of its own) and a directory. It returns their paths and a func that
// closes the database in use.
func foreignFiles(t *testing.T, dir string) (paths []string, done func()) {
	t.Helper()
	write := func(name string, data []byte, mode os.FileMode) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	write("empty.db", nil, 0o640)
	write("notes.db", []byte(strings.Repeat("not a database ", 100)), 0o600)
	sqliteFile := func(name, pragmas string, keepOpen bool) *sql.DB {
		p := filepath.Join(dir, name)
		db, err := sql.Open("sqlite", p+pragmas)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		for _, q := range []string{`CREATE TABLE game (x)`, `CREATE TABLE state (y)`, `INSERT INTO game VALUES (1)`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		paths = append(paths, p)
		if !keepOpen {
			db.Close()
			return nil
		}
		return db
	}
	sqliteFile("rollback.db", "", false)
	sqliteFile("wal-at-rest.db", "?_pragma=journal_mode(WAL)", false)
	sqliteFile("other-id.db", "?_pragma=application_id(7)", false)
	inUse := sqliteFile("wal-in-use.db", "?_pragma=journal_mode(WAL)", true)
	if st, err := os.Stat(filepath.Join(dir, "wal-in-use.db-wal")); err != nil || st.Size() == 0 {
		t.Fatalf("the database in use has no WAL waiting: %v", err)
	}
	sub := filepath.Join(dir, "folder.db")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, sub)
	return paths, func() { inUse.Close() }
}

// snapshotDir returns every file in dir with its mode and bytes; of a
// -shm file (the shared-memory index of a WAL database in use, which every
// reader marks, as SQLite's readers do) only that it is there.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b := []byte("(directory)")
		if strings.HasSuffix(e.Name(), "-shm") {
			b = []byte("(shared memory)")
		} else if !st.IsDir() {
			if b, err = os.ReadFile(p); err != nil {
				t.Fatal(err)
			}
		}
		out[e.Name()] = fmt.Sprintf("%v %x", st.Mode(), b)
	}
	return out
}

func TestOpenLeavesOtherFilesAlone(t *testing.T) {
	// Opening a file that is not a game changes nothing: no WAL switch, no
	// database made of an empty file, no file made beside it; the file keeps
	// its exact bytes and mode. Open says why it is no game.
	dir := t.TempDir()
	paths, done := foreignFiles(t, dir)
	defer done()
	before := snapshotDir(t, dir)
	for _, p := range paths {
		r, err := Open(ctx, p, Options{})
		if err == nil {
			r.Close()
			t.Errorf("%s: opened as a game", filepath.Base(p))
			continue
		}
		if !errors.Is(err, ErrNoGame) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line of ErrNoGame", filepath.Base(p), err)
		}
		t.Logf("%s: %v", filepath.Base(p), err)
	}
	if diff := cmp.Diff(before, snapshotDir(t, dir)); diff != "" {
		t.Errorf("opening other files changed them (-before +after):\n%s", diff)
	}
}

func TestSQLiteErrorsAreExplained(t *testing.T) {
	// SQLite's bare words ("unable to open database file (14)", "disk I/O
	// error (1034)") become one line that names the file, what failed and,
	// where the file system tells, why.
	r := newGame(t, nil, Options{})
	path := r.Path()
	r.Close()
	if err := os.Mkdir(path+"-wal", 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, path, Options{})
	want := path + ": SQLite cannot open the database (SQLite code 14): " + path + "-wal is a directory, where SQLite keeps a file"
	var de *DBError
	if err == nil || err.Error() != want || !errors.As(err, &de) || de.Code != 14 {
		t.Errorf("a game whose -wal is a directory: %v\nwant %s", err, want)
	}
	for code, words := range map[int]string{
		1034: "the file system did not confirm a write to the disk (fsync failed); check the disk, that it has room, and that the file is on a local file system",
		778:  "writing the file failed; check the disk",
		4874: "growing the shared-memory file (-shm) beside it failed",
		13:   "the disk is full",
		8:    "the database is read-only here",
		11:   "the database file is damaged",
		14:   "SQLite cannot open the database",
	} {
		if got := codeText(code); !strings.HasPrefix(got, words) || strings.Contains(got, "\n") {
			t.Errorf("code %d: %q; want %q", code, got, words)
		}
	}
}

// olderFixture copies a game file of the layout before the live store
// (testdata) into a temporary directory, as game.db, and returns its path.
func olderFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "game.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// olderFixtures are the game files of the layout before, by schema
// version.
var olderFixtures = []string{"v3.db", "v3-v2.db", "v3-v1.db", "turns.db", "turns-v2.db", "turns-v1.db"}

// golden is what the code before the live store read of a fixture.
type golden struct {
	Nations  Table   `json:"nations"`
	Holdings Table   `json:"holdings"`
	World    string  `json:"world"`
	MapSeq   int     `json:"map_seq"`
	History  []Entry `json:"history"`
}

func readGolden(t *testing.T, fixture string) golden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", strings.TrimSuffix(fixture, ".db")+".golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// playsOn checks that an older game, opened, is now a store of live
// matches (its tables migrated, the file marked with the store's
// application id, the older tables gone), and plays on.
func playsOn(t *testing.T, r *Referee) {
	t.Helper()
	var v int64
	if err := r.db.QueryRow(`SELECT MAX(version_id) FROM territories_db_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("territories schema version %d (%v) after opening; want %d", v, err, SchemaVersion)
	}
	var id int64
	if err := r.db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil || id != applicationID {
		t.Errorf("application id %#x after opening (%v); want %#x", id, err, applicationID)
	}
	var left int
	r.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('game', 'state')`).Scan(&left)
	if left != 0 {
		t.Errorf("%d tables of the layout before are left", left)
	}
	accept(t, r, "erin join Pembina MT")
	call := Call{Player: "erin", Action: rules.RaiseAction("MT"), Request: "r1"}
	if _, err := r.Submit(ctx, call); err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Submit(ctx, call); !again.Repeat {
		t.Error("the converted file does not keep request ids")
	}
	if err := r.UpdateMap(ctx, false); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, r)
}

// headerID reads the application id in the file's own header.
func headerID(t *testing.T, path string) uint32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 100 {
		t.Fatalf("%s: %d bytes, %v", path, len(b), err)
	}
	return binary.BigEndian.Uint32(b[68:72])
}

func TestOlderLayouts(t *testing.T) {
	// A game file made by the referee before the live store, at any of its
	// schema versions, is converted when it is opened: its log becomes the
	// match's moves, and it reads as before (the tables, the rules' state,
	// the history with its times to the nanosecond, the map's action),
	// replays, and plays on.
	for _, name := range olderFixtures {
		t.Run(name, func(t *testing.T) {
			path := olderFixture(t, name)
			want := readGolden(t, name)
			r, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			nations, holdings, err := r.Tables(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.Nations, nations); d != "" {
				t.Errorf("nations (-before +after):\n%s", d)
			}
			if d := cmp.Diff(want.Holdings, holdings); d != "" {
				t.Errorf("holdings (-before +after):\n%s", d)
			}
			w, err := r.World(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := w.MarshalJSON(); string(b) != want.World {
				t.Errorf("the rules' state:\n%s\nwant\n%s", b, want.World)
			}
			if seq, err := r.MapSeq(ctx); err != nil || seq != want.MapSeq {
				t.Errorf("map_seq %d (%v); want %d", seq, err, want.MapSeq)
			}
			log, err := r.History(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(log)
			before, _ := json.Marshal(want.History)
			if string(got) != string(before) {
				t.Errorf("the history:\n%s\nwant\n%s", got, before)
			}
			moves, err := r.st.Moves(ctx, r.Match(), 0)
			if err != nil || len(moves) != len(log) {
				t.Fatalf("%d moves (%v) for %d actions", len(moves), err, len(log))
			}
			for i, mv := range moves {
				if mv.At.UnixMilli() != log[i].At.UnixMilli() || mv.Key != log[i].Request || mv.Actor != engine.Judge {
					t.Errorf("move %d: %+v for the action %+v", i+1, mv, log[i])
				}
			}
			mustVerify(t, r)
			playsOn(t, r)
			r.Close()
			if id := headerID(t, path); id != applicationID {
				t.Errorf("after closing, the file's header has application id %#x; want %#x", id, applicationID)
			}
		})
	}
}

func TestOlderLayoutConvertedOnce(t *testing.T) {
	// Processes that open an older game at the same time convert it once:
	// one converts it, in its transaction; the others find it converted.
	path := olderFixture(t, "v3-v1.db")
	var wg sync.WaitGroup
	refs := make([]*Referee, 6)
	errs := make([]error, 6)
	for i := range refs {
		wg.Go(func() { refs[i], errs[i] = Open(ctx, path, Options{}) })
	}
	wg.Wait()
	for i, r := range refs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		defer r.Close()
	}
	var matches int
	refs[0].db.QueryRow(`SELECT count(*) FROM matches`).Scan(&matches)
	if matches != 1 {
		t.Errorf("%d matches; want the one game", matches)
	}
	accept(t, refs[3], "erin join Pembina MT")
	mustVerify(t, refs[5])
}

func TestOlderLayoutRefusedUntouched(t *testing.T) {
	// An older game that cannot be converted (made under other rules, or
	// with a log whose numbers have a gap) is refused with the reason and
	// left exactly as it was: the conversion is one transaction.
	for _, c := range []struct{ edit, message string }{
		{`UPDATE game SET rules_version = 'territories-0'`, `the game was made under territories rules version "territories-0"`},
		{`DELETE FROM actions WHERE seq = 5`, "move 5 of the log is numbered 6"},
		{`UPDATE goose_db_version SET version_id = 4 WHERE version_id = 3`, "schema version 4, newer than this Arbiter's 3"},
	} {
		path := olderFixture(t, "v3.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(c.edit); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before := snapshotDir(t, filepath.Dir(path))
		if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), c.message) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", c.edit, err, c.message)
		}
		if d := cmp.Diff(before, snapshotDir(t, filepath.Dir(path))); d != "" {
			t.Errorf("%s: the refused conversion changed the file (-before +after):\n%s", c.edit, d)
		}
	}
}

func TestApplicationIDInTheWALOnly(t *testing.T) {
	// A converted game whose new application id waits in its WAL: the
	// file's own header still says what it was (ARBT, or no id at all).
	// A reader that holds the file's old state keeps SQLite from copying
	// the WAL into the file, and a copy of the three files taken then is
	// the state that a process killed before the checkpoint leaves.
	for _, name := range []string{"v3.db", "v3-v1.db"} {
		path := olderFixture(t, name)
		reader, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		hold, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := hold.QueryRow(`SELECT count(*) FROM actions`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		r, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		crashed := filepath.Join(t.TempDir(), "game.db")
		for _, ext := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(path + ext)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(crashed+ext, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		hold.Rollback()
		r.Close()
		if id := headerID(t, crashed); id == applicationID {
			t.Skipf("SQLite copied the WAL into the file already (header id %#x)", id)
		}
		again, err := Open(ctx, crashed, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		accept(t, again, "erin join Pembina MT")
		mustVerify(t, again)
		again.Close()
	}
}

func TestStoreFilesNotGames(t *testing.T) {
	// A database of arbiter serve (a store of live matches) is no game
	// file unless it holds one match of territories' referee made by
	// arbiter territories init: it is refused, and left as it was.
	dir := t.TempDir()
	empty := filepath.Join(dir, "serve.db")
	st, err := store.Open(ctx, empty, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	other := filepath.Join(dir, "zombie.db")
	st, err = store.Open(ctx, other, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, st); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a1", "b2"} {
		if err := st.Create(ctx, &store.Match{ID: id, Game: "zombie", Mode: "party", Config: []byte("{}")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	before := snapshotDir(t, dir)
	for path, message := range map[string]string{
		empty: "it is a database of live matches (arbiter serve's), with no game file's tables",
		other: "it is a database of live matches (arbiter serve's), holding several matches; a game file holds one",
	} {
		_, err := Open(ctx, path, Options{})
		if !errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), message) {
			t.Errorf("%s: %v; want %q", filepath.Base(path), err, message)
		}
	}
	if d := cmp.Diff(before, snapshotDir(t, dir)); d != "" {
		t.Errorf("opening them changed them (-before +after):\n%s", d)
	}
}

func TestNewFileCarriesApplicationID(t *testing.T) {
	// A new game's file says what it is in its own header from the start,
	// not only once SQLite copies its WAL into it.
	r := newGame(t, nil, Options{})
	if id := headerID(t, r.Path()); id != applicationID {
		t.Errorf("a new game's header has application id %#x; want %#x", id, applicationID)
	}
}

// BenchmarkSubmitBatch applies actions durably on disk (synchronous FULL),
// a hundred to a transaction: each is acknowledged after its commit.
func BenchmarkSubmitBatch(b *testing.B) {
	benchmarkSubmit(b, 100, Options{})
}

// BenchmarkSubmitOne applies one action per transaction, durably.
func BenchmarkSubmitOne(b *testing.B) {
	benchmarkSubmit(b, 1, Options{})
}

// BenchmarkSubmitOneNormal is one action per transaction with synchronous
// NORMAL: safe from a crash of the process, not of the machine.
func BenchmarkSubmitOneNormal(b *testing.B) {
	benchmarkSubmit(b, 1, Options{Synchronous: "NORMAL"})
}

func benchmarkSubmit(b *testing.B, batch int, o Options) {
	r := newGame(b, nil, o)
	accept(b, r, "alice join Pacifica CA", "bob join Deseret UT", "alice raise CA", "alice raise CA")
	there := []Call{{Player: "alice", Action: rules.MoveAction("CA", 2, "OR")}, {Player: "alice", Action: rules.MoveAction("OR", 0, "CA")}}
	calls := make([]Call, batch)
	for i := range calls {
		calls[i] = there[i%2]
	}
	n := 0
	for b.Loop() {
		acks, err := r.SubmitBatch(ctx, calls)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range acks {
			if a.Refused != nil {
				b.Fatal(a.Refused)
			}
		}
		n += batch
		if batch%2 == 1 {
			calls[0] = there[n%2]
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/action")
}

// BenchmarkFsync is what one durable action cannot go below: a write of a
// page and an fsync, in the directory the games of the other benchmarks
// live in (the same disk), without SQLite. The file keeps its size, as a
// WAL that SQLite reuses does.
func BenchmarkFsync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "fsync"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	if _, err := f.Write(page); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := f.WriteAt(page, 0); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fsyncs/s")
}

// BenchmarkSubmitParallel submits one action per call from many goroutines
// at once: the group commit stores them together, durably.
func BenchmarkSubmitParallel(b *testing.B) {
	r := newGame(b, nil, Options{})
	accept(b, r, "alice join Pacifica CA")
	b.SetParallelism(32)
	b.ResetTimer() // the game's creation is not an action
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			// Colours alternate, so that every call is accepted.
			c := rules.Color([]string{"#000001", "#000002"}[i%2])
			if _, err := r.Submit(ctx, Call{Player: "alice", Action: rules.ColorAction(c)}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}

func TestTwoRefereesOneFile(t *testing.T) {
	// Two referees on one file (two processes): each answers every call
	// on the game as the other left it, its refusals included, though it
	// keeps the state it committed last in memory.
	a := newGame(t, nil, Options{})
	b, err := Open(ctx, a.Path(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	accept(t, a, "alice join Pacifica CA")
	accept(t, b, "bob join Deseret NV")    // the game starts: two nations
	accept(t, a, "alice raise CA")         // refused on a's own last state
	accept(t, b, "carol join Cascadia WA") // b's last state is behind a's
	acks := act(t, a, "carol raise WA", "zed raise WA")
	if acks[0].Refused != nil || acks[1].Refused == nil {
		t.Errorf("on a's stale state: %v, %v", acks[0].Refused, acks[1].Refused)
	}
	accept(t, b, "bob raise NV")
	if acks := act(t, a, "bob raise NV"); acks[0].Refused != nil || acks[0].Outcome.Armies != 5 {
		t.Errorf("bob's raise after his own on the other referee: %+v", acks[0])
	}
	for _, r := range []*Referee{a, b} {
		w, _ := r.World(ctx)
		if w.Seq() != 7 {
			t.Errorf("the game is at action %d; want 7", w.Seq())
		}
	}
	mustVerify(t, b)
}

// A new game file has pages of 1 KiB (pageSize), which an action writes
// and syncs fewer bytes of; a game made before, converted, keeps its own.
func TestNewGameFileHasSmallPages(t *testing.T) {
	var size int64
	if err := newGame(t, nil, Options{}).db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil || size != pageSize {
		t.Errorf("a new game file's pages are of %d bytes (%v); want %d", size, err, pageSize)
	}
}

func TestActionsAreStoredInTheBoardsSpelling(t *testing.T) {
	// A territory is read by its id, name or alias in any case; the log
	// and the actions table keep the board's spelling, the id, so that a
	// game typed in lower case stores what one typed as the board spells
	// it does, and replays the same.
	typed := newGame(t, nil, Options{})
	accept(t, typed, "alice join Pacifica ca", "bob join Deseret nevada", "alice raise cali", "alice move ca:1 or", `bob attack nv "oregon"`)
	spelt := newGame(t, nil, Options{})
	accept(t, spelt, "alice join Pacifica CA", "bob join Deseret NV", "alice raise CA", "alice move CA:1 OR", "bob attack NV OR")
	logOf := func(r *Referee) (moves, actions []string) {
		t.Helper()
		mvs, err := r.st.Moves(ctx, r.id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range mvs {
			moves = append(moves, string(mv.Move))
		}
		h, err := r.History(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range h {
			actions = append(actions, e.Action)
		}
		return moves, actions
	}
	tm, ta := logOf(typed)
	sm, sa := logOf(spelt)
	if d := cmp.Diff(sm, tm); d != "" {
		t.Errorf("the log (-as spelt +as typed):\n%s", d)
	}
	if d := cmp.Diff(sa, ta); d != "" {
		t.Errorf("the actions table (-as spelt +as typed):\n%s", d)
	}
	mustVerify(t, typed)
}
