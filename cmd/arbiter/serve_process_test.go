package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
)

// liveServer is a real arbiter serve process.
type liveServer struct {
	cmd  *exec.Cmd
	url  string
	errs bytes.Buffer
}

var listening = regexp.MustCompile(`arbiter serve: (http://[0-9.:]+),`)

// startServe starts arbiter serve on the database db, on a free port, and
// waits until it listens.
func startServe(t *testing.T, bin, db string, args ...string) *liveServer {
	t.Helper()
	s := &liveServer{}
	s.cmd = exec.Command(bin, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--log", "json"}, args...)...)
	pr, pw := io.Pipe()
	s.cmd.Stderr = pw
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case s.url = <-found:
	case <-time.After(60 * time.Second):
		s.cmd.Process.Kill()
		t.Fatal("arbiter serve did not say where it listens")
	}
	go s.cmd.Wait()
	return s
}

// kill stops the server at once, as a crash would.
func (s *liveServer) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	for s.cmd.ProcessState == nil {
		time.Sleep(time.Millisecond)
	}
}

// ack is a move the server acknowledged.
type ack struct {
	match   string
	seq     int64
	seat    int
	request int64
}

// apiCall sends one call; a connection error is err (the server may be
// down).
func apiCall(method, url, secret string, body any, header ...string) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, r)
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func TestServeSurvivesKill9(t *testing.T) {
	// "Crash safety: kill -9 the server 50 times at random instants while
	// clients send moves; after each restart every acknowledged move is
	// there exactly once, every match resumes, streams resume from
	// Last-Event-ID with nothing lost or repeated, and arbiter replay of
	// every record passes." 10 kills in the suite, 50 with ARBITER_FULL.
	bin := arbiterBinary(t)
	kills := 10
	if full() {
		kills = 50
	}
	db := filepath.Join(t.TempDir(), "live.db")
	srv := startServe(t, bin, db)
	defer func() { srv.kill() }()
	var mu sync.Mutex
	base := srv.url
	current := func() string { mu.Lock(); defer mu.Unlock(); return base }

	// Three matches: two of people only, one with a bot and a deadline
	// for its person (which the server plays when it passes).
	type match struct {
		id      string
		judge   string
		secrets []string
		seats   int
	}
	var matches []match
	for _, body := range []map[string]any{
		{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "options": map[string]any{"turns": 100000}, "judge": true},
		{"game": "ajveciv", "seats": []map[string]any{{"player": "person"}, {"player": "person"}, {"player": "person"}}, "options": map[string]any{"turns": 100000}, "judge": true},
		{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 100000}, "judge": true,
			"time": map[string]any{"people_ms": 30}},
	} {
		code, b, err := apiCall("POST", current()+"/api/v1/matches", "", body)
		if err != nil || code != 201 {
			t.Fatalf("create: %d %s %v", code, b, err)
		}
		var c struct {
			ID    string
			Seats []struct{ Secret string }
			Judge struct{ Secret string }
		}
		json.Unmarshal(b, &c)
		m := match{id: c.ID, judge: c.Judge.Secret, seats: len(c.Seats)}
		for _, s := range c.Seats {
			if s.Secret != "" {
				m.secrets = append(m.secrets, s.Secret)
			}
		}
		matches = append(matches, m)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var acks []ack
	var ackMu sync.Mutex
	// Players: each seat reads its requests and answers them, retrying
	// through crashes with an Idempotency-Key per request.
	for _, m := range matches[:2] {
		for seat, secret := range m.secrets {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					code, b, err := apiCall("GET", current()+"/api/v1/matches/"+m.id, secret, nil)
					if err != nil || code != 200 {
						time.Sleep(5 * time.Millisecond)
						continue
					}
					var st struct {
						Requests []struct {
							ID      int64
							Default json.RawMessage
						}
					}
					json.Unmarshal(b, &st)
					if len(st.Requests) == 0 {
						time.Sleep(time.Millisecond)
						continue
					}
					q := st.Requests[0]
					key := fmt.Sprintf("%s-%d-%d", m.id, seat, q.ID)
					for ctx.Err() == nil {
						code, b, err := apiCall("POST", current()+"/api/v1/matches/"+m.id+"/moves", secret,
							map[string]any{"request": q.ID, "move": q.Default}, "Idempotency-Key", key)
						if err != nil || code >= 500 {
							time.Sleep(5 * time.Millisecond)
							continue // the server is down: the same move again, with its key
						}
						if code == 200 {
							var a struct{ Seq int64 }
							json.Unmarshal(b, &a)
							ackMu.Lock()
							acks = append(acks, ack{match: m.id, seq: a.Seq, seat: seat, request: q.ID})
							ackMu.Unlock()
						}
						break
					}
				}
			}()
		}
	}
	// A follower per match: its stream resumed from Last-Event-ID after
	// every crash; it must see every move once, in order.
	seen := make([][]int64, len(matches))
	for k, m := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(-1)
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, "GET", current()+"/api/v1/matches/"+m.id+"/events", nil)
				if last >= 0 {
					req.Header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				sc := bufio.NewScanner(resp.Body)
				sc.Buffer(nil, 1<<22)
				for sc.Scan() {
					if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
						n, _ := strconv.ParseInt(id, 10, 64)
						ackMu.Lock()
						seen[k] = append(seen[k], n)
						ackMu.Unlock()
						last = n
					}
				}
				resp.Body.Close()
			}
		}()
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range kills {
		time.Sleep(time.Duration(30+rng.IntN(200)) * time.Millisecond)
		srv.kill()
		srv = startServe(t, bin, db)
		mu.Lock()
		base = srv.url
		mu.Unlock()
		if i == 0 {
			t.Logf("killed and restarted; the server is now at %s", srv.url)
		}
	}
	time.Sleep(300 * time.Millisecond) // moves after the last restart
	// Where each match is as its followers stop: the match with a
	// deadline plays on after them (the server plays the person's
	// defaults), and its log grows past what they were there to see.
	atStop := make([]int64, len(matches))
	for k, m := range matches {
		code, b, err := apiCall("GET", current()+"/api/v1/matches/"+m.id, m.judge, nil)
		var st struct{ Seq int64 }
		if err != nil || code != 200 || json.Unmarshal(b, &st) != nil {
			t.Fatalf("match %s before the followers stop: %d %s %v", m.id, code, b, err)
		}
		atStop[k] = st.Seq
	}
	// The followers catch up with it (a loaded machine may take its time
	// to resume their streams), and stop.
	for wait := time.Now().Add(30 * time.Second); time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
		ackMu.Lock()
		behind := false
		for k := range matches {
			behind = behind || len(seen[k]) == 0 || seen[k][len(seen[k])-1] < atStop[k]-2 // a round's answers untold
		}
		ackMu.Unlock()
		if !behind {
			break
		}
	}
	cancel()
	wg.Wait()
	if len(acks) < kills {
		t.Fatalf("only %d moves acknowledged across %d kills", len(acks), kills)
	}
	// Every acknowledged move is in the log once: a seat's answer in
	// the round its number names (each seat answers once a round, and its
	// number counts the round's start and itself, not the others' answers
	// before it, which it is not told of).
	for k, m := range matches {
		code, rec, err := apiCall("GET", srv.url+"/api/v1/matches/"+m.id+"/record", m.judge, nil)
		if err != nil || code != 200 {
			t.Fatalf("record: %d %v", code, err)
		}
		lines := bytes.Split(bytes.TrimSpace(rec), []byte("\n"))
		steps := lines[1:]
		if last := steps[len(steps)-1]; bytes.Contains(last, []byte(`"aborted"`)) || bytes.Contains(last, []byte(`"result"`)) {
			steps = steps[:len(steps)-1]
		}
		claimed := map[int64]bool{}
		for _, a := range acks {
			if a.match != m.id {
				continue
			}
			at := int64(-1)
			for p := a.seq; p >= 1 && p < a.seq+int64(m.seats) && p <= int64(len(steps)); p++ {
				var st struct{ Seat int }
				json.Unmarshal(steps[p-1], &st)
				if st.Seat == a.seat && !claimed[p] {
					at = p
					break
				}
			}
			if at < 0 {
				t.Errorf("match %s: seat %d's answer acknowledged as move %d is not in its round of the log of %d moves", m.id, a.seat, a.seq, len(steps))
				continue
			}
			claimed[at] = true
		}
		// The record replays (to the moves so far: the match runs on).
		g, _ := catalog.Find(map[int]string{0: "reaj", 1: "ajveciv", 2: "reaj"}[k])
		if _, err := g.Replay(rec); err != nil {
			t.Errorf("match %s: the record does not replay: %v", m.id, err)
		}
		// The stream, resumed across every crash, told each move once, in
		// order.
		ackMu.Lock()
		ids := append([]int64(nil), seen[k]...)
		ackMu.Unlock()
		// A spectator is told every move that changes what it sees: moves
		// that leave a simultaneous round open change nothing, and are not
		// told.
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] || ids[i] > ids[i-1]+3 { // at most 3 seats: 2 moves untold in a row
				t.Errorf("match %s: the stream told move %d after %d: lost or repeated", m.id, ids[i], ids[i-1])
				break
			}
		}
		if len(ids) == 0 || ids[len(ids)-1] < min(int64(len(steps)), atStop[k])-5 {
			t.Errorf("match %s: the stream told %d moves of %d (%d when its follower stopped)", m.id, len(ids), len(steps), atStop[k])
		}
	}
	// The deadline match goes on after the crashes: its person never
	// moves, and the server plays her defaults (waited for: a server
	// restarted on a loaded machine may take its time).
	var st struct{ Seq int64 }
	for wait := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		code, b, _ := apiCall("GET", srv.url+"/api/v1/matches/"+matches[2].id, "", nil)
		json.Unmarshal(b, &st)
		if code == 200 && st.Seq >= 4 {
			break
		}
		if time.Now().After(wait) {
			t.Errorf("the match with a deadline is at move %d a minute after the last restart; the server should have played on", st.Seq)
			break
		}
	}
	t.Logf("%d kills; %d moves acknowledged and kept", kills, len(acks))
}

func TestServeDrivesAtOnceAfterKill9(t *testing.T) {
	// "On restart every unfinished match resumes where it was, deadlines
	// included (a deadline that passed while the server was down gets its
	// default move at restart)": at restart, not once the killed server's
	// lease on the match lapses (15 s later: its bots and deadlines stood
	// still until then). The SQLite file is one server's at a time.
	bin := arbiterBinary(t)
	db := filepath.Join(t.TempDir(), "live.db")
	srv := startServe(t, bin, db)
	code, b, err := apiCall("POST", srv.url+"/api/v1/matches", "", map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}},
		"options": map[string]any{"turns": 5}, "time": map[string]any{"people_ms": 1000}})
	if err != nil || code != 201 {
		t.Fatalf("create: %d %s %v", code, b, err)
	}
	var c struct{ ID string }
	json.Unmarshal(b, &c)
	srv.kill() // within the person's second: the server holds the match's lease
	srv = startServe(t, bin, db)
	defer srv.kill()
	restarted := time.Now()
	for {
		var st struct{ Seq int64 }
		code, b, _ := apiCall("GET", srv.url+"/api/v1/matches/"+c.ID, "", nil)
		json.Unmarshal(b, &st)
		if code == 200 && st.Seq >= 2 {
			break // the person's default and the bot's move: the first turn
		}
		if time.Since(restarted) > 8*time.Second {
			t.Fatalf("the match is at move %d %v after the restart; want the person's default played once its second has passed", st.Seq, time.Since(restarted).Round(time.Second))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServeKeepsItsSQLiteFileToItself(t *testing.T) {
	// A second server on a file another serves would miss the first's
	// moves (SQLite tells no other process of them) and drive its bots
	// apart from it: it is refused, and the file is free again once the
	// first is gone, however it went.
	bin := arbiterBinary(t)
	db := filepath.Join(t.TempDir(), "live.db")
	first := startServe(t, bin, db)
	defer first.kill()
	out, err := exec.Command(bin, "serve", "--db", db, "--addr", "127.0.0.1:0").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("a second server on the file: %v\n%s", err, out)
	}
	want := "live.db is open in another arbiter serve: an SQLite file has one server (stop the other, or give another --db; several servers share a postgres:// database)"
	if !strings.Contains(string(out), want) {
		t.Errorf("a second server said:\n%s\nwant %q", out, want)
	}
	first.kill()
	second := startServe(t, bin, db)
	second.kill()
}

func TestServeMaxUploadsBoundsTheRecordsHeld(t *testing.T) {
	// --max-uploads sets what the records sent to be viewed (POST /replay)
	// may hold at once, in all: a record past it is refused as too large,
	// saying the bound.
	s := startServe(t, arbiterBinary(t), filepath.Join(t.TempDir(), "serve.db"), "--max-uploads", "2KiB")
	defer s.kill()
	record := `{"arbiter":"record"}` + "\n" + strings.Repeat(`{"pad":"`+strings.Repeat("x", 100)+`"}`+"\n", 40)
	req, err := http.NewRequest("POST", s.url+"/api/v1/replay", strings.NewReader(record))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 413 || !strings.Contains(string(body), "too-large") || !strings.Contains(string(body), "larger than 2048 bytes") {
		t.Errorf("a record of %d bytes past --max-uploads 2KiB: %d %s", len(record), res.StatusCode, body)
	}
}
