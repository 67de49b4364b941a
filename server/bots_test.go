package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// httpBot is a bot over HTTP: it is ready at hello, and answers each
// request as answer says.
func httpBot(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, req botRequest)) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req botRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch req.Type {
		case "hello":
			io.WriteString(w, `{"type":"ready","name":"tester"}`)
		case "request":
			answer(w, r, req)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// botRequest is the protocol's request, as a bot reads it.
type botRequest struct {
	Type    string
	ID      int64
	Default json.RawMessage
}

// moveOf answers req with move.
func moveOf(w http.ResponseWriter, req botRequest, move json.RawMessage) {
	b, _ := json.Marshal(map[string]any{"type": "move", "id": req.ID, "move": move})
	w.Write(b)
}

func TestHTTPBotTakesItsSeat(t *testing.T) {
	// "Built-in and HTTP bots take their seats inside the server": an HTTP
	// bot is asked each of its requests with its view, and its moves are
	// the match's.
	asked := 0
	bot := httpBot(t, func(w http.ResponseWriter, r *http.Request, req botRequest) {
		asked++
		moveOf(w, req, req.Default)
	})
	ts := newServer(t, server.Config{AllowPrivateBots: true})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": bot}},
		"options": map[string]any{"turns": 3}})
	m := ts.playDefaults(c)
	if m.Status != "over" {
		t.Fatalf("the match is %s; want over", m.Status)
	}
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
	if asked == 0 || bytes.Contains(rec.body, []byte(`"fault"`)) {
		t.Errorf("the bot was asked %d times; the record:\n%s", asked, rec.body)
	}
}

func TestAnHTTPBotThinksWithoutHoldingTheMatch(t *testing.T) {
	// "No bot can hang the referee": while an HTTP bot thinks, the match
	// is read and the people move; the bot's answer then counts.
	thinking := make(chan struct{}, 1)
	answer := make(chan struct{})
	bot := httpBot(t, func(w http.ResponseWriter, r *http.Request, req botRequest) {
		thinking <- struct{}{}
		select {
		case <-answer:
			moveOf(w, req, req.Default)
		case <-r.Context().Done():
		}
	})
	ts := newServer(t, server.Config{AllowPrivateBots: true})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": bot}},
		"options": map[string]any{"turns": 1}, "time": map[string]any{"decision_ms": 600_000}})
	<-thinking
	done := make(chan matchState)
	go func() {
		m := ts.state(c.ID, c.Seats[0].Secret)
		for _, q := range m.Requests {
			ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": q.ID, "move": q.Default})
		}
		done <- ts.state(c.ID, "")
	}()
	select {
	case m := <-done:
		if m.Status != "running" {
			t.Fatalf("the match is %s while its bot thinks", m.Status)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("reading the match and moving waited for the bot's decision")
	}
	close(answer)
	m := ts.waitState(c.ID, "", func(m matchState) bool { return m.Status != "running" })
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
	if m.Status != "over" || bytes.Contains(rec.body, []byte(`"fault"`)) {
		t.Errorf("the match is %s; its record:\n%s", m.Status, rec.body)
	}
}

func TestHTTPBotFaults(t *testing.T) {
	// A bot that answers nonsense or too late gets the default move, and
	// the record says why.
	for _, tc := range []struct {
		name, kind string
		answer     func(w http.ResponseWriter, r *http.Request, req botRequest)
	}{
		{"garbage", "garbage", func(w http.ResponseWriter, r *http.Request, req botRequest) { io.WriteString(w, "a move, I think") }},
		{"not-a-move", "garbage", func(w http.ResponseWriter, r *http.Request, req botRequest) {
			moveOf(w, req, json.RawMessage(`"no such value"`))
		}},
		{"late", "timeout", func(w http.ResponseWriter, r *http.Request, req botRequest) { <-r.Context().Done() }},
		{"error", "error", func(w http.ResponseWriter, r *http.Request, req botRequest) {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := httpBot(t, tc.answer)
			ts := newServer(t, server.Config{AllowPrivateBots: true})
			c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": bot}},
				"options": map[string]any{"turns": 1}, "time": map[string]any{"decision_ms": 200}})
			if m := ts.playDefaults(c); m.Status != "over" {
				t.Fatalf("the match is %s; want over", m.Status)
			}
			rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
			if !strings.Contains(string(rec.body), `"kind":"`+tc.kind+`"`) {
				t.Errorf("no %s fault in the record:\n%s", tc.kind, rec.body)
			}
		})
	}
}

func TestARefusedBotActionIsToldLiveAndAfterARestart(t *testing.T) {
	// A bot's action the rules refuse becomes its default, and the match
	// says why (TNCC's history: "its action was refused"), live and when
	// the match is read again from its log.
	bot := httpBot(t, func(w http.ResponseWriter, r *http.Request, req botRequest) {
		if bytes.Contains(req.Default, []byte(`"wait"`)) {
			moveOf(w, req, json.RawMessage(`{"type":"recruit","n":999999999}`))
			return
		}
		moveOf(w, req, req.Default)
	})
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServer(t, db, server.Config{AllowPrivateBots: true})
	c := ts.create(map[string]any{"game": "tncc", "seats": []map[string]any{{"player": "person"}, {"player": bot}},
		"options": map[string]any{"preset": "default"}})
	// The person waits until the history tells a refusal and it is
	// their turn: then nothing moves until they do.
	m := ts.waitState(c.ID, c.Seats[0].Secret, func(m matchState) bool {
		if len(m.Requests) == 0 {
			return false
		}
		if strings.Contains(string(m.View), `"refused"`) {
			return true
		}
		ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default})
		return false
	})
	before := m.View
	ts.stop()
	again := startServer(t, db, server.Config{AllowPrivateBots: true})
	if after := again.state(c.ID, c.Seats[0].Secret).View; !bytes.Equal(before, after) {
		t.Errorf("after a restart the view is\n%s\nwas\n%s", after, before)
	}
}
