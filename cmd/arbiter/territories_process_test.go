package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/games/territories"
	tstore "github.com/arbiter-games/arbiter/store/territories"
)

// These tests run the real arbiter binary, many at once, against one
// database file, and kill it in the middle of actions.

// initGame creates a game of the sample with the binary.
func initGame(tb testing.TB, bin, dir string) string {
	tb.Helper()
	db := filepath.Join(dir, "game.db")
	if out, err := exec.Command(bin, "territories", "init", "--config", sampleConfig, "--db", db).CombinedOutput(); err != nil {
		tb.Fatalf("init: %v: %s", err, out)
	}
	return db
}

// acked is an action a process acknowledged: its sequence number, player
// and outcome.
type acked struct {
	Seq    int    `json:"seq"`
	Player string `json:"player"`
	Action string `json:"action"`
}

// readAcks reads the JSON lines of arbiter territories --json apply: the
// accepted actions (refusals are {"error": ...}).
func readAcks(t *testing.T, out []byte) []acked {
	t.Helper()
	var acks []acked
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, []byte(`{"error"`)) {
			continue
		}
		var a acked
		if err := json.Unmarshal(line, &a); err != nil {
			// The last line of a killed process may be cut off: it was
			// never acknowledged.
			continue
		}
		acks = append(acks, a)
	}
	return acks
}

// checkSound fails the test unless the database file is sound (PRAGMA
// integrity_check).
func checkSound(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	r, err := tstore.Open(ctx, db, tstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if check, err := r.IntegrityCheck(ctx); err != nil || check != "ok" {
		t.Fatalf("PRAGMA integrity_check: %q, %v", check, err)
	}
}

// checkGame opens the game with the store and checks it: SQLite finds the
// file sound, the tables are exactly a replay of the log, the state is that
// of the last logged action, and every acknowledged action is in the log.
func checkGame(t *testing.T, db string, acks []acked) []tstore.Entry {
	t.Helper()
	ctx := context.Background()
	r, err := tstore.Open(ctx, db, tstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	check, err := r.IntegrityCheck(ctx)
	if err != nil || check != "ok" {
		t.Fatalf("PRAGMA integrity_check: %q, %v", check, err)
	}
	v, err := r.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() {
		t.Fatalf("the tables differ from a replay of the log:\n%s", strings.Join(v.Problems, "\n"))
	}
	log, err := r.History(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.World(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != w.Seq() || (len(log) > 0 && log[len(log)-1].Seq != w.Seq()) {
		t.Fatalf("the log has %d actions; the state is of action %d", len(log), w.Seq())
	}
	bySeq := map[int]tstore.Entry{}
	for i, e := range log {
		if e.Seq != i+1 {
			t.Fatalf("the log's action %d is numbered %d", i+1, e.Seq)
		}
		bySeq[e.Seq] = e
	}
	for _, a := range acks {
		e, ok := bySeq[a.Seq]
		var o acked
		json.Unmarshal(e.Outcome, &o)
		if !ok || e.Player != a.Player || o.Action != a.Action {
			t.Errorf("acknowledged action %d (%s %s) is not in the log: %+v", a.Seq, a.Player, a.Action, e)
		}
	}
	return log
}

func TestTerritoriesTenProcesses(t *testing.T) {
	// "ten referee processes (the real built arbiter binary) started at
	// once against one database, each performing actions: every accepted
	// action is in the log exactly once, the tables equal a replay of the
	// log, and no process fails with a database-locked error". And the
	// rules page: "Two referee processes acting on the same file at the
	// same moment are serialised by the database: no lost update, no
	// double move."
	bin := arbiterBinary(t)
	db := initGame(t, bin, t.TempDir())
	territories := []string{"WA", "OR", "CA", "NV", "ID", "MT", "WY", "UT", "CO", "AZ"}
	type result struct {
		out, errOut []byte
		code        int
	}
	results := make([]result, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for p := range 10 {
		player, home := fmt.Sprintf("p%d", p), territories[p]
		var script strings.Builder
		fmt.Fprintf(&script, "%s join Nation%d %s\n", player, p, home)
		rng := rand.New(rand.NewPCG(uint64(p), 9))
		for range 14 {
			// Raises, moves and attacks around home: many are refused
			// (someone is there, or not), all are serialised.
			n := territories[rng.IntN(len(territories))]
			switch rng.IntN(3) {
			case 0:
				fmt.Fprintf(&script, "%s raise %s\n", player, home)
			case 1:
				fmt.Fprintf(&script, "%s move %s:1 %s\n", player, home, n)
			default:
				fmt.Fprintf(&script, "%s attack %s %s\n", player, home, n)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "territories", "--db", db, "--json", "apply")
			cmd.Stdin = strings.NewReader(script.String())
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			<-start
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Error(err)
			}
			results[p] = result{out.Bytes(), errOut.Bytes(), code}
		}()
	}
	close(start)
	wg.Wait()
	var acks []acked
	seen := map[int]int{}
	for p, r := range results {
		if r.code != 0 && r.code != 1 {
			t.Errorf("process %d: exit %d: %s", p, r.code, r.errOut)
		}
		for _, bad := range []string{"locked", "busy", "internal"} {
			if bytes.Contains(r.errOut, []byte(bad)) {
				t.Errorf("process %d: %s", p, r.errOut)
			}
		}
		for _, a := range readAcks(t, r.out) {
			seen[a.Seq]++
			acks = append(acks, a)
		}
	}
	log := checkGame(t, db, acks)
	if len(log) != len(acks) {
		t.Errorf("%d actions acknowledged, %d in the log", len(acks), len(log))
	}
	for seq, n := range seen {
		if n != 1 {
			t.Errorf("action %d acknowledged %d times", seq, n)
		}
	}
	if len(acks) < 20 {
		t.Errorf("only %d actions accepted; the test wants a busy game", len(acks))
	}
	// Single calls too: ten processes at once, three rounds.
	for round := range 3 {
		var wg sync.WaitGroup
		codes := make([]int, 10)
		errs := make([][]byte, 10)
		for p := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, "territories", "--db", db, "--player", fmt.Sprintf("p%d", p), "raise", territories[p])
				var errOut bytes.Buffer
				cmd.Stderr = &errOut
				err := cmd.Run()
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					codes[p] = ee.ExitCode()
				}
				errs[p] = errOut.Bytes()
			}()
		}
		wg.Wait()
		for p := range 10 {
			if codes[p] > 1 || bytes.Contains(errs[p], []byte("locked")) {
				t.Errorf("round %d, process %d: exit %d: %s", round, p, codes[p], errs[p])
			}
		}
	}
	checkGame(t, db, acks)
	svg, png := strings.TrimSuffix(db, ".db")+".svg", strings.TrimSuffix(db, ".db")+".png"
	checkMapFile(t, svg)
	checkMapFile(t, png)
	// The map shows the last action: it is redrawn by the process that
	// committed it.
	r, err := tstore.Open(context.Background(), db, tstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, _ := r.World(context.Background())
	if seq, err := r.MapSeq(context.Background()); err != nil || seq != w.Seq() {
		t.Errorf("the map shows action %d; the game is at %d (%v)", seq, w.Seq(), err)
	}
}

func TestTerritoriesKill9(t *testing.T) {
	// "Kill -9 a referee in the middle of an action, many times: the
	// database is never corrupt (PRAGMA integrity_check) and never holds
	// half an action." Nor does a map file show half a picture, and no
	// acknowledged action is lost.
	bin := arbiterBinary(t)
	dir := t.TempDir()
	db := initGame(t, bin, dir)
	setup := exec.Command(bin, "territories", "--db", db, "apply")
	setup.Stdin = strings.NewReader("alice join Pacifica CA\nbob join Deseret UT\n")
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	// Moves there and back, raises and attacks: every one writes.
	var script strings.Builder
	for i := range 300 {
		switch i % 4 {
		case 0:
			script.WriteString("alice move CA:1 OR\n")
		case 1:
			script.WriteString("alice move OR CA\n")
		case 2:
			script.WriteString("bob move UT:1 CO\n")
		default:
			script.WriteString("bob move CO UT\n")
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	var acks []acked
	kills, rounds := 0, 16
	if full() {
		rounds = 200
	}
	lines := strings.SplitAfter(script.String(), "\n")
	for i := range rounds {
		cmd := exec.Command(bin, "territories", "--db", db, "--json", "apply")
		// The actions arrive a few at a time, as from another program,
		// until the kill, which finds the referee at work.
		feed, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			defer feed.Close()
			for k := 0; ; k++ {
				if _, err := io.WriteString(feed, lines[k%len(lines)]); err != nil {
					return // killed
				}
				if k%5 == 4 {
					time.Sleep(time.Millisecond)
				}
			}
		}()
		time.Sleep(time.Duration(20+rng.IntN(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			kills++
		}
		got := readAcks(t, out.Bytes())
		acks = append(acks, got...)
		// The whole check (a replay of the log) now and then, and at the
		// end; the file's soundness after every kill.
		if i%20 == 0 || i == rounds-1 {
			log := checkGame(t, db, acks)
			if i == 0 && len(got) == 0 {
				t.Logf("the first process acknowledged nothing before it was killed (log %d)", len(log))
			}
		} else {
			checkSound(t, db)
		}
		// A map file is whole or absent, never half written.
		for _, ext := range []string{".svg", ".png"} {
			p := strings.TrimSuffix(db, ".db") + ext
			if _, err := os.Stat(p); err == nil {
				checkMapFile(t, p)
			}
		}
	}
	if kills < rounds*3/4 {
		t.Errorf("only %d of %d processes were killed before they finished", kills, rounds)
	}
	if len(acks) < rounds {
		t.Errorf("only %d actions acknowledged across the kills", len(acks))
	}
	t.Logf("%d kills, %d actions acknowledged and kept", kills, len(acks))
}

var (
	benchBuild  sync.Once
	benchBinary string
	benchErr    error
)

// buildBench builds the binary for the benchmarks.
func buildBench(b *testing.B) string {
	benchBuild.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchBinary = filepath.Join(dir, "arbiter")
		if out, err := exec.Command("go", "build", "-o", benchBinary, ".").CombinedOutput(); err != nil {
			benchErr = errors.New(string(out))
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchBinary
}

// BenchmarkTerritoriesCLIAction runs the built binary for one action,
// with its map redrawn (SVG and PNG), as an application calls it.
func BenchmarkTerritoriesCLIAction(b *testing.B) {
	benchBinary := buildBench(b)
	db := initGame(b, benchBinary, b.TempDir())
	for _, l := range [][]string{{"alice", "join", "Pacifica", "CA"}, {"bob", "join", "Deseret", "UT"}} {
		if out, err := exec.Command(benchBinary, "territories", "--db", db, "--player", l[0], l[1], l[2], l[3]).CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	moves := [][]string{{"CA:1", "OR"}, {"OR", "CA"}}
	i := 0
	for b.Loop() {
		m := moves[i%2]
		i++
		if out, err := exec.Command(benchBinary, "territories", "--db", db, "--player", "alice", "move", m[0], m[1]).CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
}

// mapState returns the action the game is at and the one its map files
// show, and the temporary map files beside the database.
func mapState(t *testing.T, db string) (seq, drawn int, temps []string) {
	t.Helper()
	r, err := tstore.Open(context.Background(), db, tstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := r.World(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if drawn, err = r.MapSeq(context.Background()); err != nil {
		t.Fatal(err)
	}
	temps, _ = filepath.Glob(filepath.Join(filepath.Dir(db), ".*.tmp"))
	return w.Seq(), drawn, temps
}

// mustShowNow checks that the game's map files are current and whole: the
// SVG is what arbiter territories map --out draws now, and no temporary
// file is left.
func mustShowNow(t *testing.T, bin, db string) {
	t.Helper()
	seq, drawn, temps := mapState(t, db)
	if drawn != seq || len(temps) > 0 {
		t.Errorf("the map shows action %d of %d; temporary files left: %v", drawn, seq, temps)
	}
	now := filepath.Join(t.TempDir(), "now.svg")
	if out, err := exec.Command(bin, "territories", "--db", db, "map", "--out", now).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	want, _ := os.ReadFile(now)
	got, _ := os.ReadFile(strings.TrimSuffix(db, ".db") + ".svg")
	if !bytes.Equal(got, want) {
		t.Errorf("game.svg is not the game now")
	}
	checkMapFile(t, strings.TrimSuffix(db, ".db")+".png")
}

func TestTerritoriesMapAfterKill(t *testing.T) {
	// A process killed between its commit and its drawing leaves the map
	// behind the log and maybe temporary files; the retried request (the
	// same call, answered before) redraws the map and removes them.
	bin := arbiterBinary(t)
	db := initGame(t, bin, t.TempDir())
	setup := exec.Command(bin, "territories", "--db", db, "apply")
	setup.Stdin = strings.NewReader("alice join Pacifica CA\nbob join Deseret UT\n")
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	moves := [][]string{{"CA:1", "OR"}, {"OR", "CA"}}

	// The state exactly: the action committed with its request id, the map
	// not drawn, the temporary files of a process that is gone.
	r, err := tstore.Open(context.Background(), db, tstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	call := tstore.Call{Player: "alice", Action: territories.MoveAction("CA", 1, "OR"), Request: "exact"}
	if ack, err := r.Submit(context.Background(), call); err != nil || ack.Refused != nil {
		t.Fatal(err, ack.Refused)
	}
	r.Close()
	for _, name := range []string{".game.svg.1.tmp", ".game.png.2.tmp"} {
		os.WriteFile(filepath.Join(filepath.Dir(db), name), []byte("half a map"), 0o644)
	}
	if seq, drawn, temps := mapState(t, db); drawn == seq || len(temps) != 2 {
		t.Fatalf("the state is not the killed process's: map %d of %d, %v", drawn, seq, temps)
	}
	out, err := exec.Command(bin, "territories", "--db", db, "--player", "alice", "--request", "exact", "move", "CA:1", "OR").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "(answered before, request exact)") {
		t.Fatalf("the retry: %v %s", err, out)
	}
	mustShowNow(t, bin, db)

	// A real kill -9 of a real process, as soon as it has answered: most
	// often in the middle of its drawing.
	behind := 0
	for i := range 6 {
		m := moves[(i+1)%2]
		args := []string{"territories", "--db", db, "--player", "alice", "--request", fmt.Sprintf("kill-%d", i), "move", m[0], m[1]}
		cmd := exec.Command(bin, args...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		answer, err := bufio.NewReader(stdout).ReadString('\n')
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if err != nil || !strings.Contains(answer, "moves") {
			t.Fatalf("the answer before the kill: %q, %v", answer, err)
		}
		if seq, drawn, temps := mapState(t, db); drawn != seq || len(temps) > 0 {
			behind++
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil || !strings.Contains(string(out), "answered before") {
			t.Fatalf("the retry: %v %s", err, out)
		}
		mustShowNow(t, bin, db)
	}
	t.Logf("%d of 6 kills left the map behind the log", behind)
	checkGame(t, db, nil)
}

// BenchmarkTerritoriesCLIApply runs the built binary on a file of 2,000
// actions with --group 1000, as an application hands it a batch: each
// action parsed, stored durably (two transactions), answered with a line,
// and the map redrawn once at the end. ns/action is the whole run, the
// process's start and the map included, per action: compare it with the
// store's BenchmarkSubmitBatch.
func BenchmarkTerritoriesCLIApply(b *testing.B) {
	bin := buildBench(b)
	dir := b.TempDir()
	db := initGame(b, bin, dir)
	setup := exec.Command(bin, "territories", "--db", db, "apply")
	setup.Stdin = strings.NewReader("alice join Pacifica CA\nbob join Deseret UT\n")
	if out, err := setup.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	const lines = 2000
	file := filepath.Join(dir, "moves.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat("alice move CA:1 OR\nalice move OR CA\n", lines/2)), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(bin, "territories", "--db", db, "apply", file, "--group", "1000")
		var errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &errOut
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v %s", err, errOut.Bytes())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/action")
}

func TestServeOlderTerritoriesFile(t *testing.T) {
	// arbiter serve --db on a game file of arbiter territories made before
	// the live store converts it, and serves its game.
	bin := arbiterBinary(t)
	older, err := os.ReadFile("../../store/territories/testdata/v3.db")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "game.db")
	if err := os.WriteFile(db, older, 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, bin, db)
	defer s.kill()
	code, body, err := apiCall("GET", s.url+"/api/v1/matches", "", nil)
	var list struct {
		Matches []struct {
			ID, Game string
			Seq      int
		}
	}
	if err != nil || code != 200 || json.Unmarshal(body, &list) != nil || len(list.Matches) != 1 || list.Matches[0].Seq != 42 {
		t.Fatalf("the list: %d %s %v", code, body, err)
	}
	code, body, _ = apiCall("GET", s.url+"/api/v1/matches/"+list.Matches[0].ID, "", nil)
	if code != 200 || !bytes.Contains(body, []byte(`{"name":"Deseret","player":"bob","color":"#008000","territories":0,"armies":0,"out":36}`)) {
		t.Errorf("the match: %d %s", code, body)
	}
}

func TestServeDrawsAGameFileOnItsOwnMap(t *testing.T) {
	// arbiter serve --db on a game file of arbiter territories draws its
	// board on the map the file keeps (init read it from the disk of
	// whoever made the game; the board names it only by its path, which
	// the server never reads): map.svg, board.svg and board.png.
	bin := arbiterBinary(t)
	dir := t.TempDir()
	cfg, err := os.ReadFile(sampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(filepath.Dir(sampleConfig), "map.svg"))
	if err != nil {
		t.Fatal(err)
	}
	const mark = `data-drawn-by="this game's own map"`
	own := bytes.Replace(svg, []byte("<svg "), []byte("<svg "+mark+" "), 1)
	if bytes.Equal(own, svg) {
		t.Fatal("the sample map has no <svg element")
	}
	config, mapFile, db := filepath.Join(dir, "config.yaml"), filepath.Join(dir, "map.svg"), filepath.Join(dir, "game.db")
	if err := os.WriteFile(config, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mapFile, own, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "territories", "init", "--config", config, "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("init: %v: %s", err, out)
	}
	if out, err := exec.Command(bin, "territories", "--db", db, "--player", "alice", "join", "Pacifica", "CA").CombinedOutput(); err != nil {
		t.Fatalf("join: %v: %s", err, out)
	}
	os.Remove(mapFile) // the map is the file's, not the disk's
	s := startServe(t, bin, db)
	defer s.kill()
	code, body, err := apiCall("GET", s.url+"/api/v1/matches", "", nil)
	var list struct{ Matches []struct{ ID string } }
	if err != nil || code != 200 || json.Unmarshal(body, &list) != nil || len(list.Matches) != 1 {
		t.Fatalf("the list: %d %s %v", code, body, err)
	}
	base := s.url + "/api/v1/matches/" + list.Matches[0].ID
	code, body, _ = apiCall("GET", base+"/map.svg", "", nil)
	if code != 200 || !bytes.Contains(body, []byte(mark)) || !bytes.Contains(body, []byte(`<path id="CA" data-name="California" data-neighbors="OR NV AZ"`)) {
		t.Errorf("the map: %d %.300s", code, body)
	}
	code, body, _ = apiCall("GET", base+"/board.svg", "", nil)
	if code != 200 || !bytes.Contains(body, []byte(mark)) || !bytes.Contains(body, []byte("Pacifica")) {
		t.Errorf("the board: %d %.300s", code, body)
	}
	code, body, _ = apiCall("GET", base+"/board.png", "", nil)
	if _, err := png.Decode(bytes.NewReader(body)); code != 200 || err != nil {
		t.Errorf("the board as a PNG: %d %v", code, err)
	}
	// The replay viewer (the page's story of the match) draws it on the
	// same map.
	var viewer struct{ Map string }
	code, body, _ = apiCall("GET", base+"/replay?view=public", "", nil)
	if code != 200 || json.Unmarshal(body, &viewer) != nil || !strings.Contains(viewer.Map, mark) {
		t.Errorf("the replay viewer's map: %d %.300s", code, body)
	}
}
