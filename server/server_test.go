package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
)

// testServer is a real server over a real SQLite file, on loopback.
type testServer struct {
	t    *testing.T
	db   string
	st   *store.Store
	srv  *server.Server
	http *httptest.Server
	cfg  server.Config
}

// newServer starts a server on a new database (newDatabase).
func newServer(t *testing.T, cfg server.Config) *testServer {
	t.Helper()
	return startServer(t, newDatabase(t), cfg)
}

// startServer starts a server on database db: a file or a URL.
func startServer(t *testing.T, db string, cfg server.Config) *testServer {
	t.Helper()
	return startServerWith(t, db, cfg, (*httptest.Server).Start)
}

// startServerWith is startServer whose HTTP server is started by start,
// which may first set it up (its listener, HTTP/2) or start it with TLS.
func startServerWith(t *testing.T, db string, cfg server.Config, start func(*httptest.Server)) *testServer {
	t.Helper()
	return startServerOpts(t, db, store.Options{}, cfg, start)
}

// startServerOpts is startServerWith whose store is opened with o.
func startServerOpts(t *testing.T, db string, o store.Options, cfg server.Config, start func(*httptest.Server)) *testServer {
	t.Helper()
	o.Now = cfg.Now // one clock for both
	st, err := store.Open(context.Background(), db, o)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = st
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, db: db, st: st, srv: srv, cfg: cfg}
	ts.http = httptest.NewUnstartedServer(srv.Handler())
	start(ts.http)
	t.Cleanup(ts.stop)
	return ts
}

// stop shuts the server down and closes its database.
func (ts *testServer) stop() {
	if ts.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ts.srv.Shutdown(ctx)
	ts.http.Close()
	ts.st.Close()
	ts.srv = nil
}

// answer is a decoded JSON answer.
type answer struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

func (a answer) code() string {
	e, _ := a.json["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// call sends a request with a secret ("" for none) and a JSON body (nil for
// none).
func (ts *testServer) call(method, path, secret string, body any, header ...string) answer {
	ts.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			ts.t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, ts.http.URL+path, r)
	if err != nil {
		ts.t.Fatal(err)
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: b}
	json.Unmarshal(b, &a.json)
	return a
}

// created is a match just made.
type created struct {
	ID    string
	Seats []struct {
		Seat   int
		Player string
		Secret string
		URL    string
	}
	Judge *struct{ Secret, URL string }
}

func (ts *testServer) create(body map[string]any) created {
	ts.t.Helper()
	a := ts.call("POST", "/api/v1/matches", "", body)
	if a.status != http.StatusCreated {
		ts.t.Fatalf("create: %d %s", a.status, a.body)
	}
	var c created
	if err := json.Unmarshal(a.body, &c); err != nil {
		ts.t.Fatal(err)
	}
	return c
}

// matchState is GET /matches/{id}.
type matchState struct {
	Status   string
	Seq      int64
	View     json.RawMessage
	Requests []struct {
		ID      int64
		Seat    int
		Kind    string
		Choices []json.RawMessage
		Default json.RawMessage
	}
	Result *struct {
		Scores  []int64
		Winners []int
		Status  []string
	}
}

func (ts *testServer) state(id, secret string) matchState {
	ts.t.Helper()
	a := ts.call("GET", "/api/v1/matches/"+id, secret, nil)
	if a.status != http.StatusOK {
		ts.t.Fatalf("GET match: %d %s", a.status, a.body)
	}
	var m matchState
	if err := json.Unmarshal(a.body, &m); err != nil {
		ts.t.Fatal(err)
	}
	return m
}

// waitState polls the match as secret sees it until cond holds.
func (ts *testServer) waitState(id, secret string, cond func(matchState) bool) matchState {
	ts.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := ts.state(id, secret)
		if cond(m) {
			return m
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("waited 30 s; the match is %+v", m)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// playDefaults plays each person seat's default until the match is over.
func (ts *testServer) playDefaults(c created) matchState {
	ts.t.Helper()
	for {
		moved := false
		for _, seat := range c.Seats {
			if seat.Secret == "" {
				continue
			}
			m := ts.state(c.ID, seat.Secret)
			if m.Status != "running" {
				return m
			}
			for _, q := range m.Requests {
				a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", seat.Secret, map[string]any{"request": q.ID, "move": q.Default})
				if a.status != http.StatusOK && a.code() != "stale-request" && a.code() != "over" {
					ts.t.Fatalf("move: %d %s", a.status, a.body)
				}
				moved = true
			}
		}
		if !moved {
			m := ts.state(c.ID, "")
			if m.Status != "running" {
				return m
			}
			time.Sleep(2 * time.Millisecond) // bots to move
		}
	}
}

// event is one Server-Sent Event.
type event struct {
	id   string
	name string
	data string
}

// follow opens the event stream of a match for secret, from after (-1 for
// none), and sends its events on the channel until the stream ends.
func (ts *testServer) follow(ctx context.Context, id, secret string, after int64) <-chan event {
	ts.t.Helper()
	url := ts.http.URL + "/api/v1/matches/" + id + "/events"
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	if after >= 0 {
		req.Header.Set("Last-Event-ID", fmt.Sprint(after))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		ts.t.Fatalf("events: %d %s", resp.StatusCode, b)
	}
	out := make(chan event, 1024)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<22)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					out <- ev
				}
				ev = event{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			}
		}
	}()
	return out
}

// recorder keeps every byte one reader receives.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) add(b []byte) {
	r.mu.Lock()
	r.buf.Write(b)
	r.buf.WriteByte('\n')
	r.mu.Unlock()
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

func readFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if wal, werr := os.ReadFile(path + "-wal"); werr == nil {
		b = append(b, wal...)
	}
	return b, err
}
