package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/store/pgtest"
	_ "github.com/jackc/pgx/v5/stdlib" // to check the database itself
)

// These tests run `arbiter serve` processes on one PostgreSQL database (a
// throwaway cluster) and kill them with SIGKILL.

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// serveProc is one `arbiter serve` process.
type serveProc struct {
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:PORT
	mu   sync.Mutex
	logs bytes.Buffer // its standard error
	done chan struct{}
}

// startServePG starts `arbiter serve --db db` on a port of its own, and
// waits until it listens.
func startServePG(t *testing.T, db string, args ...string) *serveProc {
	t.Helper()
	all := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--keep", "0", "--moves-per-second", "100000"}, args...)
	return startServeCmd(t, exec.Command(arbiterBinary(t), all...))
}

// startServeCmd starts cmd, an `arbiter serve` on a port of its own, and
// waits until it listens.
func startServeCmd(t *testing.T, cmd *exec.Cmd) *serveProc {
	t.Helper()
	p := &serveProc{cmd: cmd, done: make(chan struct{})}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.logs.WriteString(line + "\n")
			p.mu.Unlock()
			if rest, ok := strings.CutPrefix(line, "arbiter serve: "); ok && strings.HasPrefix(rest, "http://") {
				addr, _, _ := strings.Cut(rest, ",")
				ready <- addr
			}
		}
		io.Copy(io.Discard, stderr)
		p.cmd.Wait()
	}()
	select {
	case p.url = <-ready:
	case <-p.done:
		t.Fatalf("arbiter serve ended before listening:\n%s", p.log())
	case <-time.After(2 * time.Minute):
		p.kill()
		t.Fatalf("arbiter serve did not listen within 2 minutes:\n%s", p.log())
	}
	t.Cleanup(p.kill)
	return p
}

// kill kills the process with SIGKILL and waits for it.
func (p *serveProc) kill() {
	p.cmd.Process.Kill()
	<-p.done
}

func (p *serveProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// httpClient bounds every call of these tests.
var httpClient = &http.Client{Timeout: time.Minute}

// apiCall sends a request to a server; err is a failure to get an answer
// at all (the server is dead).
func apiCallJSON(base, method, path, secret string, body any, header ...string) (status int, out map[string]any, raw []byte, err error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		return 0, nil, nil, err
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err = io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out, raw, nil
}

// liveMatch is a match made through the API.
type liveMatch struct {
	ID    string
	Seats []struct{ Secret string }
	Judge struct{ Secret string }
}

func createMatch(t *testing.T, base string, body map[string]any) liveMatch {
	t.Helper()
	status, _, raw, err := apiCallJSON(base, "POST", "/api/v1/matches", "", body)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("create: %d %v %s", status, err, raw)
	}
	var m liveMatch
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// openRequest is a request the match owes a seat, as GET shows it.
type openRequest struct {
	ID      int64
	Default json.RawMessage
}

// matchNow is GET /matches/{id} as a secret sees it.
func matchNow(base, id, secret string) (status string, seq int64, requests []openRequest, err error) {
	code, _, raw, err := apiCallJSON(base, "GET", "/api/v1/matches/"+id, secret, nil)
	if err != nil {
		return "", 0, nil, err
	}
	if code != http.StatusOK {
		return "", 0, nil, fmt.Errorf("GET match: %d %s", code, raw)
	}
	var m struct {
		Status   string
		Seq      int64
		Requests []openRequest
	}
	err = json.Unmarshal(raw, &m)
	return m.Status, m.Seq, m.Requests, err
}

func openDB(t *testing.T, u string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// checkReplays downloads a match's record as its judge and replays it.
func checkReplays(t *testing.T, base, game string, m liveMatch, seq int64) {
	t.Helper()
	code, _, rec, err := apiCallJSON(base, "GET", "/api/v1/matches/"+m.ID+"/record", m.Judge.Secret, nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("record of %s: %d %v %s", m.ID, code, err, rec)
	}
	g, _ := catalog.Find(game)
	got, err := g.Replay(rec)
	if err != nil || int64(got.Moves) != seq {
		t.Errorf("the record of %s does not replay: %+v %v", m.ID, got, err)
	}
}

func TestServePostgresTakeOverFromAKilledServer(t *testing.T) {
	// "Each match is driven (its bots, its deadlines) by the one server
	// holding its lease ... taken over when it lapses": two arbiter serve
	// processes on one database; the one that drives two matches is
	// killed (SIGKILL). The other takes them over once the lease lapses:
	// it plays the bot's moves, and the defaults of the deadlines that
	// passed while nobody drove the match, each once.
	cluster := pgtest.Shared(t)
	db := cluster.NewDatabase(t)
	const lease, limit = 5 * time.Second, 2 * time.Second
	a := startServePG(t, db, "--lease", lease.String())
	b := startServePG(t, db, "--lease", lease.String())
	timed := createMatch(t, a.url, map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}},
		"options": map[string]any{"turns": 2}, "judge": true, "time": map[string]any{"people_ms": limit.Milliseconds()}})
	botted := createMatch(t, a.url, map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}},
		"options": map[string]any{"turns": 3}, "judge": true})
	a.kill()
	killed := time.Now()

	check := openDB(t, db)
	var seq, leaseUntil, created int64
	err := check.QueryRow(`SELECT seq, lease_until, created FROM matches WHERE id = $1`, timed.ID).Scan(&seq, &leaseUntil, &created)
	if err != nil {
		t.Fatal(err)
	}
	if seq != 0 || leaseUntil < created+limit.Milliseconds() {
		t.Fatalf("the killed server played %d moves before it was killed %v after the match's creation; the test needs a slower deadline", seq, killed.Sub(time.UnixMilli(created)))
	}

	// The bot's match: its person plays through B; B must take over the
	// bot.
	for turn := 0; ; turn++ {
		var status string
		var reqs []openRequest
		waitUntil(t, "the bot's match to go on", func() bool {
			status, _, reqs, err = matchNow(b.url, botted.ID, botted.Seats[0].Secret)
			return err == nil && (len(reqs) > 0 || status != "running")
		})
		if status != "running" {
			if turn != 3 {
				t.Errorf("the bot's match ended after %d turns", turn)
			}
			break
		}
		code, _, raw, err := apiCallJSON(b.url, "POST", "/api/v1/matches/"+botted.ID+"/moves", botted.Seats[0].Secret, map[string]any{"request": reqs[0].ID, "move": reqs[0].Default})
		if err != nil || code != http.StatusOK {
			t.Fatalf("move: %d %v %s", code, err, raw)
		}
	}

	// The timed match: nobody moves; its deadlines pass while the dead
	// server holds it, and B plays their defaults once it takes over.
	waitUntil(t, "the timed match to end", func() bool {
		status, _, _, err := matchNow(b.url, timed.ID, "")
		return err == nil && status == "over"
	})
	rows, err := check.Query(`SELECT seq, actor, request, fault, at FROM moves WHERE match_id = $1 ORDER BY seq`, timed.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	answered := map[int64]int{}
	n := int64(0)
	for rows.Next() {
		var seq, actor, request, at int64
		var fault string
		if err := rows.Scan(&seq, &actor, &request, &fault, &at); err != nil {
			t.Fatal(err)
		}
		n++
		answered[request]++
		if seq != n || !strings.Contains(fault, `"timeout"`) {
			t.Errorf("move %d (the log's %d): fault %s; want every move a deadline's default", seq, n, fault)
		}
		if seq <= 2 && (at < leaseUntil || at < created+limit.Milliseconds()) {
			t.Errorf("move %d was played at %d, before the deadline (%d) had passed or the lease (%d) had lapsed", seq, at, created+limit.Milliseconds(), leaseUntil)
		}
	}
	if n != 4 {
		t.Errorf("%d moves; want the defaults of 2 turns of 2 seats", n)
	}
	for req, k := range answered {
		if k != 1 {
			t.Errorf("request %d answered %d times", req, k)
		}
	}
	checkReplays(t, b.url, "reaj", timed, n)
}

// waitUntil polls cond until it holds, for at most two minutes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after two minutes, still waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServePostgresPasswordNeverLogged(t *testing.T) {
	// "The password never appears in logs": the server names its database
	// without it, and so does its refusal of a wrong one.
	cluster := pgtest.Shared(t)
	u := cluster.NewDatabase(t)
	name := u[strings.LastIndex(u, "/")+1 : strings.Index(u, "?")]
	p := startServePG(t, cluster.PasswordURL(name))
	createMatch(t, p.url, map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}})
	p.kill()
	if logs := p.log(); strings.Contains(logs, cluster.Password) || !strings.Contains(logs, pgtest.Secretive+":xxxxx@") {
		t.Errorf("the server's log:\n%s", logs)
	}
	wrong := strings.Replace(cluster.PasswordURL(name), cluster.Password, "N0tThePassw0rd", 1)
	cmd := exec.Command(arbiterBinary(t), "serve", "--addr", "127.0.0.1:0", "--db", wrong)
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "N0tThePassw0rd") || !strings.Contains(string(out), "password") {
		t.Errorf("a wrong password: %v\n%s", err, out)
	}
}

func TestServePostgresKillOneOfTwo(t *testing.T) {
	// Crash safety with two servers: while people play through both,
	// one of them, drawn at random, is killed (SIGKILL) after a random
	// number of acknowledged moves, and started again; 10 times (50 with
	// ARBITER_FULL=1). After each restart every acknowledged move is in
	// the database exactly once, at the number it was acknowledged with.
	// At the end every match has ended (each resumed), each spectator's
	// stream, resumed with Last-Event-ID across the kills, got every move
	// once and in order, the same as a stream read afresh, and every
	// record replays.
	kills := 10
	if os.Getenv("ARBITER_FULL") != "" {
		kills = 50
	}
	cluster := pgtest.Shared(t)
	db := cluster.NewDatabase(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 12))
	seed := rng.Uint64()
	t.Logf("random draws from seed %d", seed)
	rng = rand.New(rand.NewPCG(seed, 12))

	procs := []*serveProc{startServePG(t, db, "--lease", "1s"), startServePG(t, db, "--lease", "1s")}
	var mu sync.Mutex // guards procs
	server := func(r *rand.Rand) string {
		mu.Lock()
		defer mu.Unlock()
		return procs[r.IntN(len(procs))].url
	}

	turns := 6 + 3*kills
	var matches []liveMatch
	var people []int // person seats of each match
	for i := 0; i < 6; i++ {
		seats := []map[string]any{{"player": "person"}, {"player": "person"}}
		n := 2
		if i%3 == 2 {
			seats[1] = map[string]any{"player": "adapt"} // driven by the lease's holder
			n = 1
		}
		matches = append(matches, createMatch(t, server(rng), map[string]any{"game": "reaj", "seats": seats, "options": map[string]any{"turns": turns}, "judge": true}))
		people = append(people, n)
	}

	// Acknowledged moves: Idempotency-Key → the number it was given.
	var ackMu sync.Mutex
	acked := map[string]int64{}
	ackCount := 0
	ackSignal := make(chan struct{}, 1)
	ack := func(key string, seq int64) {
		ackMu.Lock()
		if prev, ok := acked[key]; ok && prev != seq {
			t.Errorf("key %s acknowledged as move %d and as move %d", key, prev, seq)
		}
		acked[key] = seq
		ackCount++
		ackMu.Unlock()
		select {
		case ackSignal <- struct{}{}:
		default:
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var clients sync.WaitGroup
	for mi, m := range matches {
		for seat := 0; seat < people[mi]; seat++ {
			clients.Add(1)
			r := rand.New(rand.NewPCG(seed, uint64(100+mi*10+seat)))
			go func() {
				defer clients.Done()
				playUntilOver(ctx, t, m, seat, func() string { return server(r) }, ack)
			}()
		}
	}
	followers := make([]chan []sseEvent, len(matches))
	for mi, m := range matches {
		followers[mi] = make(chan []sseEvent, 1)
		r := rand.New(rand.NewPCG(seed, uint64(1000+mi)))
		go func() { followers[mi] <- followAcross(ctx, m.ID, func() string { return server(r) }) }()
	}
	allDone := make(chan struct{})
	go func() { clients.Wait(); close(allDone) }()

	check := openDB(t, db)
	for k := 0; k < kills; k++ {
		ackMu.Lock()
		start := ackCount
		ackMu.Unlock()
		want := 1 + rng.IntN(40)
	wait:
		for {
			ackMu.Lock()
			n := ackCount - start
			ackMu.Unlock()
			if n >= want {
				break
			}
			select {
			case <-ackSignal:
			case <-allDone:
				break wait
			case <-time.After(2 * time.Minute):
				t.Fatalf("kill %d: no move acknowledged for 2 minutes", k)
			}
		}
		victim := rng.IntN(2)
		mu.Lock()
		procs[victim].kill()
		mu.Unlock()
		restarted := startServePG(t, db, "--lease", "1s")
		mu.Lock()
		procs[victim] = restarted
		mu.Unlock()
		checkAcked(t, check, &ackMu, acked)
	}
	select {
	case <-allDone:
	case <-time.After(5 * time.Minute):
		t.Fatal("the matches did not end within 5 minutes of the last kill")
	}
	checkAcked(t, check, &ackMu, acked)
	var keyed int
	if err := check.QueryRow(`SELECT count(*) FROM moves WHERE idem_key <> ''`).Scan(&keyed); err != nil {
		t.Fatal(err)
	}
	if keyed != len(acked) {
		t.Errorf("%d people's moves in the database; %d acknowledged", keyed, len(acked))
	}
	for mi, m := range matches {
		status, seq, _, err := matchNow(server(rng), m.ID, "")
		if err != nil || status != "over" {
			t.Fatalf("match %s: %s %v", m.ID, status, err)
		}
		got := <-followers[mi]
		afresh := followAcross(ctx, m.ID, func() string { return server(rng) })
		// Every move a spectator may see, once, in order (a move that
		// leaves its round open is told only to its mover), the last
		// the match's last; the same across the kills as afresh.
		if len(got) != len(afresh) || len(afresh) == 0 || afresh[len(afresh)-1].id != strconv.FormatInt(seq, 10) {
			t.Errorf("match %s at move %d: its stream across the kills got %d events, afresh %d", m.ID, seq, len(got), len(afresh))
		}
		for i := range got {
			if i >= len(afresh) || got[i] != afresh[i] {
				t.Errorf("match %s: event %d of the stream across the kills is %s, not as afresh", m.ID, i+1, got[i].id)
				break
			}
		}
		checkReplays(t, server(rng), "reaj", m, seq)
	}
	t.Logf("%d kills, %d moves acknowledged", kills, len(acked))
}

// checkAcked checks that every move acknowledged so far is in the
// database once, in the round the number it was acknowledged with names:
// a seat's answer is numbered as its sender is told of the match, the
// round's start and itself, not the other seat's answer before it (the
// matches have two seats, answering once a round).
func checkAcked(t *testing.T, db *sql.DB, mu *sync.Mutex, acked map[string]int64) {
	t.Helper()
	// The acknowledgements first: each was committed before it was made,
	// so the database read after them holds them all.
	mu.Lock()
	snapshot := make(map[string]int64, len(acked))
	for k, v := range acked {
		snapshot[k] = v
	}
	mu.Unlock()
	rows, err := db.Query(`SELECT match_id, seq, idem_key FROM moves WHERE idem_key <> ''`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string][]int64{}
	for rows.Next() {
		var match, key string
		var seq int64
		if err := rows.Scan(&match, &seq, &key); err != nil {
			t.Fatal(err)
		}
		_, key, _ = strings.Cut(key, "/") // a key is kept as its sender's: "seat:0/KEY"
		stored[key] = append(stored[key], seq)
	}
	for key, seq := range snapshot {
		if s := stored[key]; len(s) != 1 || s[0] < seq || s[0] > seq+1 {
			t.Errorf("acknowledged move %s (move %d) is stored as %v", key, seq, s)
		}
	}
}

// playUntilOver plays a person's seat through whichever server is alive
// until the match ends: each decision's default, sent with an
// Idempotency-Key and sent again (through any server) until answered.
func playUntilOver(ctx context.Context, t *testing.T, m liveMatch, seat int, server func() string, ack func(string, int64)) {
	secret := m.Seats[seat].Secret
	for ctx.Err() == nil {
		status, _, reqs, err := matchNow(server(), m.ID, secret)
		if err != nil {
			continue // a server killed: another
		}
		if status != "running" {
			return
		}
		if len(reqs) == 0 {
			time.Sleep(time.Millisecond) // the other seat's turn
			continue
		}
		q := reqs[0]
		key := fmt.Sprintf("%s-%d-%d", m.ID, seat, q.ID)
		for ctx.Err() == nil {
			code, out, raw, err := apiCallJSON(server(), "POST", "/api/v1/matches/"+m.ID+"/moves", secret, map[string]any{"request": q.ID, "move": q.Default}, "Idempotency-Key", key)
			if err != nil || code >= 500 {
				continue // killed before it answered: the same move again
			}
			if code != http.StatusOK {
				t.Errorf("match %s seat %d: %d %s", m.ID, seat, code, raw)
				return
			}
			seq, _ := out["seq"].(float64)
			ack(key, int64(seq))
			break
		}
	}
}

// sseEvent is one event of a stream.
type sseEvent struct{ id, name, data string }

// followAcross follows match id's public stream from its start to its
// end, coming back with Last-Event-ID whenever the stream breaks (its
// server killed), and returns the moves' events.
func followAcross(ctx context.Context, id string, server func() string) []sseEvent {
	var got []sseEvent
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", server()+"/api/v1/matches/"+id+"/events", nil)
		last := "0"
		if len(got) > 0 {
			last = got[len(got)-1].id
		}
		req.Header.Set("Last-Event-ID", last)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			time.Sleep(time.Millisecond)
			continue
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<22)
		var ev sseEvent
		ended := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name == "move" {
					got = append(got, ev)
				}
				ended = ended || ev.name == "end"
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			}
		}
		resp.Body.Close()
		if ended {
			return got
		}
	}
	return got
}

func TestLoadOnPostgres(t *testing.T) {
	// arbiter load --db postgres://... starts its server on that
	// database: without --synchronous, SQLite's, which the server refuses
	// there, and without saying the URL, whose password it would print.
	cluster := pgtest.Shared(t)
	u := cluster.NewDatabase(t)
	name := u[strings.LastIndex(u, "/")+1 : strings.Index(u, "?")]
	cmd := exec.Command(arbiterBinary(t), "load", "--db", cluster.PasswordURL(name), "--matches", "2", "--seats", "2", "--duration", "1s", "--rate", "100")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "errors: 0\n") || !strings.Contains(string(out), "matches in the PostgreSQL database of --db") {
		t.Errorf("%v\n%s", err, out)
	}
	if strings.Contains(string(out), cluster.Password) {
		t.Errorf("the password was printed:\n%s", out)
	}
	code, _, errOut := arbiter(t, "", "load", "--db", u, "--synchronous", "NORMAL")
	if code != exitUsage || !strings.Contains(errOut, "--synchronous has no effect on a PostgreSQL database") {
		t.Errorf("--synchronous NORMAL: exit %d, %s", code, errOut)
	}
}
