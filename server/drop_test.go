package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// lookedAt is a server on a new SQLite file with two matches over that
// were looked at: a Reaj match of bots, and a territories referee match
// that a player joined, whose board was drawn, aborted by its judge.
type lookedAt struct {
	s    *Server
	call func(method, path, secret, body string) (int, []byte)
	made []string
}

func newLookedAt(t *testing.T) *lookedAt {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "live.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Config{Store: st, ArchiveDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(ctx) })
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	call := func(method, path, secret, body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		if secret != "" {
			req.Header.Set("Authorization", "Bearer "+secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	var made []string
	for _, body := range []string{
		`{"game": "reaj", "seats": [{"player": "adapt"}, {"player": "adapt"}], "options": {"turns": 2}}`,
		`{"game": "territories"}`,
	} {
		code, b := call("POST", "/api/v1/matches", "", body)
		var c struct {
			ID    string
			Judge struct{ Secret string }
		}
		if code != http.StatusCreated || json.Unmarshal(b, &c) != nil {
			t.Fatalf("creating %s: %d %s", body, code, b)
		}
		made = append(made, c.ID)
		if c.Judge.Secret != "" {
			call("GET", "/api/v1/matches/"+c.ID, c.Judge.Secret, "")
			if code, b := call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Judge.Secret, `{"move": {"player": "ann", "action": "join Pacifica CA"}}`); code != http.StatusOK {
				t.Fatalf("join: %d %s", code, b)
			}
			if code, b := call("GET", "/api/v1/matches/"+c.ID+"/board.png", "", ""); code != http.StatusOK {
				t.Fatalf("board.png: %d %s", code, b)
			}
			if code, b := call("POST", "/api/v1/matches/"+c.ID+"/abort", c.Judge.Secret, ""); code != http.StatusOK {
				t.Fatalf("abort: %d %s", code, b)
			}
		}
	}
	for _, id := range made {
		deadline := time.Now().Add(time.Minute)
		for {
			_, b := call("GET", "/api/v1/matches/"+id, "", "")
			var m struct{ Status string }
			json.Unmarshal(b, &m)
			if m.Status != "running" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("match %s still running after a minute", id)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return &lookedAt{s: s, call: call, made: made}
}

// kept names what the server keeps in memory of the matches made.
func (l *lookedAt) kept() []string {
	s := l.s
	var names []string
	for name, m := range map[string]*sync.Map{"secrets": &s.secrets, "configs": &s.configs, "results": &s.results, "boards": &s.boards, "drawings": &s.drawings, "views": &s.views} {
		m.Range(func(k, v any) bool {
			for _, id := range l.made {
				if k == id || name == "secrets" && v.(store.Secret).Match == id {
					names = append(names, name)
				}
			}
			return true
		})
	}
	for _, id := range s.ref.Held() {
		if slices.Contains(l.made, id) {
			names = append(names, "the match")
		}
	}
	sort.Strings(names)
	return names
}

func TestArchivingForgetsTheMatch(t *testing.T) {
	// A match archived leaves the server's memory as well as its store:
	// its secrets, configuration, result, map, drawn board and views, kept
	// while it was looked at.
	l := newLookedAt(t)
	if len(l.kept()) == 0 {
		t.Fatal("nothing kept in memory while the matches were looked at: the test looks at nothing")
	}
	l.s.archive(context.Background(), time.Now().Add(time.Hour))
	for _, id := range l.made {
		if code, _ := l.call("GET", "/api/v1/matches/"+id, "", ""); code != http.StatusNotFound {
			t.Errorf("match %s answers %d after its archiving; want 404", id, code)
		}
	}
	if k := l.kept(); len(k) > 0 {
		t.Errorf("after archiving, the server still keeps the matches' %v", k)
	}
}

func TestIdleMatchesOverAreForgotten(t *testing.T) {
	// A server that runs for months keeps in memory the matches under way
	// and those over that people still look at, not every match it ever
	// showed: a match over that nobody asked for between two sweeps is
	// forgotten, and read again, the same, when it is asked for.
	l := newLookedAt(t)
	before := map[string][]byte{}
	for _, id := range l.made {
		_, before[id] = l.call("GET", "/api/v1/matches/"+id, "", "")
	}
	code, b := l.call("POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt"}]}`)
	var running struct{ ID string }
	if code != http.StatusCreated || json.Unmarshal(b, &running) != nil {
		t.Fatalf("creating a match: %d %s", code, b)
	}
	l.call("GET", "/api/v1/matches/"+running.ID, "", "")
	l.s.forgetIdle()
	if len(l.kept()) == 0 {
		t.Error("matches looked at since the last sweep were forgotten")
	}
	l.s.forgetIdle()
	if k := l.kept(); len(k) > 0 {
		t.Errorf("after two sweeps with nobody asking, the server still keeps the matches' %v", k)
	}
	if !slices.Contains(l.s.ref.Held(), running.ID) {
		t.Error("the match under way was forgotten")
	}
	for _, id := range l.made {
		if _, after := l.call("GET", "/api/v1/matches/"+id, "", ""); !bytes.Equal(after, before[id]) {
			t.Errorf("match %s read again shows\n%s\nnot\n%s", id, after, before[id])
		}
	}
}

func TestSameMoveIgnoresSpacing(t *testing.T) {
	// The judge's own end-turn is the one time made due, however spaced:
	// it is played alone, not after the due one.
	due := json.RawMessage(`{"action":"end-turn"}`)
	for move, want := range map[string]bool{
		`{"action":"end-turn"}`:               true,
		`{ "action" : "end-turn" }`:           true,
		"{\n\"action\": \"end-turn\"\n}":      true,
		`{"action":"pass"}`:                   false,
		`{"player":"al","action":"end-turn"}`: false,
		`not json`:                            false,
	} {
		if got := sameMove(due, json.RawMessage(move)); got != want {
			t.Errorf("sameMove(%s, %s) = %v; want %v", due, move, got, want)
		}
	}
}

func TestNoMatchSaysHowLongMatchesAreKept(t *testing.T) {
	// A link to a match that is not here says it may have been archived,
	// after as long as this server keeps matches, in words.
	for keep, want := range map[time.Duration]string{
		0:                   "no such match here: check its link",
		30 * 24 * time.Hour: "untouched for 30 days, was archived",
		3 * time.Second:     "untouched for 3 seconds, was archived",
		2 * time.Hour:       "untouched for 2 hours",
	} {
		s := &Server{cfg: Config{Keep: keep}}
		if got := s.noMatch().Error(); !strings.Contains(got, want) {
			t.Errorf("--keep %v: %q; want it to say %q", keep, got, want)
		}
	}
}
