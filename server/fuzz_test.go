package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
)

// fuzzServer is one server for a fuzz target: its handler is called in
// process, with a match and its secrets made once.
type fuzzServer struct {
	h              http.Handler
	url            string
	id, seat, judg string
}

// fuzzTarget starts a server for one fuzz target, over a database in its
// temporary directory.
func fuzzTarget(f *testing.F) fuzzServer {
	var fuzzSrv fuzzServer
	func() {
		st, err := store.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"), store.Options{Synchronous: "NORMAL"})
		if err != nil {
			f.Fatal(err)
		}
		srv, err := server.New(server.Config{Store: st, Limits: server.Limits{Moves: 1e9, MoveBurst: 1 << 30, Creates: 1e9}})
		if err != nil {
			f.Fatal(err)
		}
		ts := &testServer{t: &testing.T{}, st: st, srv: srv}
		ts.http = httptest.NewServer(srv.Handler())
		a := ts.call("POST", "/api/v1/matches", "", `{"game":"tncc","seats":[{"player":"person"},{"player":"person"}],"judge":true}`)
		c := struct {
			ID    string
			Seats []struct{ Secret string }
			Judge struct{ Secret string }
		}{}
		if err := jsonUnmarshal(a.body, &c); err != nil || len(c.Seats) == 0 {
			f.Fatalf("create: %d %s", a.status, a.body)
		}
		fuzzSrv = fuzzServer{h: srv.Handler(), url: ts.http.URL, id: c.ID, seat: c.Seats[0].Secret, judg: c.Judge.Secret}
		f.Cleanup(ts.stop)
	}()
	return fuzzSrv
}

// serve sends one request to the handler and checks the answer is never a
// 500 nor a panic.
func (fs fuzzServer) serve(t *testing.T, method, path, secret, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:1234"
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	fs.h.ServeHTTP(w, req)
	if w.Code >= 500 {
		t.Errorf("%s %s %q: %d %s", method, path, body, w.Code, w.Body.String())
	}
	return w
}

func FuzzMoveBody(f *testing.F) {
	for _, s := range []string{`{"request":1,"move":{"type":"wait"}}`, `{"move":{"type":"war","target":1,"flanks":[1,2,3]}}`,
		`{"request":-1}`, `{"move":null}`, `{`, `[]`, `{"request":1e99,"move":1}`, `{"expect_seq":-5,"move":"x"}`} {
		f.Add(s, true)
	}
	fs := fuzzTarget(f)
	f.Fuzz(func(t *testing.T, body string, asJudge bool) {
		secret := fs.seat
		if asJudge {
			secret = fs.judg
		}
		w := fs.serve(t, "POST", "/api/v1/matches/"+fs.id+"/moves", secret, body, "Idempotency-Key", body[:min(len(body), 20)])
		if w.Code != 200 && !strings.Contains(w.Body.String(), `"error":{"code"`) {
			t.Errorf("a refusal that is not JSON: %d %s", w.Code, w.Body.String())
		}
	})
}

func FuzzCreateBody(f *testing.F) {
	for _, s := range []string{`{"game":"reaj","seats":[{"player":"person"},{"player":"adapt"}]}`,
		`{"game":"tncc","seats":[{"player":"person"},{"player":"general"}],"options":{"preset":"tribe"},"time":{"people_ms":5}}`,
		`{"game":"zombie","mode":"judge","seats":[{"player":"person","name":"Ann"},{"player":"person"},{"player":"person"}]}`,
		`{"game":"territories","seats":[]}`, `{"game":"ajveciv","seats":[{"player":"http://10.0.0.1/bot"},{"player":"person"}]}`, `{}`, `null`} {
		f.Add(s)
	}
	fs := fuzzTarget(f)
	f.Fuzz(func(t *testing.T, body string) {
		w := fs.serve(t, "POST", "/api/v1/matches", "", body)
		if w.Code != 201 && !strings.Contains(w.Body.String(), `"error":{"code"`) {
			t.Errorf("a refusal that is not JSON: %d %s", w.Code, w.Body.String())
		}
	})
}

func FuzzResume(f *testing.F) {
	for _, s := range []string{"0", "1", "-1", "x", "99999999999999999999", "", " 1"} {
		f.Add(s)
	}
	fs := fuzzTarget(f)
	f.Fuzz(func(t *testing.T, after string) {
		if strings.ContainsAny(after, "\r\n\x00") {
			return // not a header value
		}
		// A real request: an accepted resumption streams, and is closed
		// once its status is known.
		req, _ := http.NewRequest("GET", fs.url+"/api/v1/matches/"+fs.id+"/events", nil)
		req.Header.Set("Last-Event-ID", after)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // not a header value Go sends
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("Last-Event-ID %q: %d", after, resp.StatusCode)
		}
	})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
