package server_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// smallBuffers is a listener whose connections have small send buffers,
// so that a client that does not read fills them soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

func TestAClientThatDoesNotReadHoldsUpNoOne(t *testing.T) {
	// A move is answered by the goroutine that stored its group; a client
	// that sends moves and never reads their answers fills its
	// connection, and must not hold up the moves of everyone else: the
	// next groups go on, the others' moves are answered, and its
	// connection is closed once it has not taken an answer for
	// Limits.StreamWrite.
	cfg := server.Config{Limits: server.Limits{Moves: 1e9, MoveBurst: 1 << 30, Creates: 1e9, StreamWrite: 100 * time.Millisecond}}
	hs := startServerWith(t, newDatabase(t), cfg, func(hs *httptest.Server) {
		hs.Listener = smallBuffers{hs.Listener}
		hs.Start()
	}).http
	client := &http.Client{Timeout: 20 * time.Second}
	post := func(path, secret string, body any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", hs.URL+"/api/v1"+path, bytes.NewReader(b))
		if secret != "" {
			req.Header.Set("Authorization", "Bearer "+secret)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v (held up?)", path, err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	// Two territories matches, each run by its judge, alice in each.
	judges := map[string]string{}
	for range 2 {
		_, c := post("/matches", "", map[string]any{"game": "territories", "seats": []any{}})
		id, judge := c["id"].(string), c["judge"].(map[string]any)["secret"].(string)
		if code, out := post("/matches/"+id+"/moves", judge, map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}}); code != http.StatusOK {
			t.Fatalf("join: %d %v", code, out)
		}
		judges[id] = judge
	}
	var stalled, honest string
	for id := range judges {
		if stalled == "" {
			stalled = id
		} else {
			honest = id
		}
	}
	// The client that does not read: thousands of moves sent at once on
	// one connection, which reads next to nothing.
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	var pipeline bytes.Buffer
	for i := range 3000 {
		body := fmt.Sprintf(`{"move":{"player":"alice","action":"color #%06x"}}`, 0x100000+i)
		fmt.Fprintf(&pipeline, "POST /api/v1/matches/%s/moves HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			stalled, hs.Listener.Addr(), judges[stalled], len(body), body)
	}
	go conn.Write(pipeline.Bytes())
	seqOf := func(id string) float64 {
		resp, err := client.Get(hs.URL + "/api/v1/matches/" + id)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct{ Seq float64 }
		json.NewDecoder(resp.Body).Decode(&m)
		return m.Seq
	}
	// Meanwhile the other match's moves are answered, each in time, while
	// the match of the client that does not read stops: for 50 moves and
	// 2 s at least (twenty times the time its connection has to take an
	// answer), and within 5,000.
	last, since, still := seqOf(stalled), time.Now(), 0
	for i := 0; still < 50 || time.Since(since) < 2*time.Second; i++ {
		if i == 5000 {
			t.Fatalf("the client that does not read never filled its connection: its match at move %v", last)
		}
		code, out := post("/matches/"+honest+"/moves", judges[honest], map[string]any{"move": map[string]any{"player": "alice", "action": fmt.Sprintf("color #%06x", 0x200000+i)}})
		if code != http.StatusOK {
			t.Fatalf("move %d of the other match: %d %v", i, code, out)
		}
		if seq := seqOf(stalled); seq != last {
			last, since, still = seq, time.Now(), 0
		} else {
			still++
		}
	}
	// Its connection was closed: the answers it holds are fewer than its
	// moves.
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	got, _ := io.ReadAll(conn)
	if n := bytes.Count(got, []byte("HTTP/1.1 200")); n >= 3000 {
		t.Errorf("all %d moves were answered to a client that did not read; want its connection closed", n)
	}
	t.Logf("the match of the client that did not read stopped at move %v", last)
}

func TestMovesOverTLSAndHTTP2(t *testing.T) {
	// "TLS with --tls-cert/--tls-key": moves are answered over HTTPS, by
	// HTTP/1.1 (answered by the goroutine that stored them) and by HTTP/2
	// (answered by their handlers), and their events stream over both.
	hs := startServerWith(t, newDatabase(t), server.Config{}, func(hs *httptest.Server) {
		hs.EnableHTTP2 = true
		hs.StartTLS()
	}).http
	h2 := hs.Client()
	t1 := h2.Transport.(*http.Transport).Clone()
	t1.ForceAttemptHTTP2 = false
	t1.TLSClientConfig.NextProtos = nil
	t1.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	h1 := &http.Client{Transport: t1}
	for name, client := range map[string]*http.Client{"HTTP/1.1": h1, "HTTP/2.0": h2} {
		t.Run(name, func(t *testing.T) {
			call := func(method, path, secret string, body any) (*http.Response, map[string]any) {
				t.Helper()
				var r io.Reader
				if body != nil {
					b, _ := json.Marshal(body)
					r = bytes.NewReader(b)
				}
				req, _ := http.NewRequest(method, hs.URL+"/api/v1"+path, r)
				if secret != "" {
					req.Header.Set("Authorization", "Bearer "+secret)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if resp.Proto != name {
					t.Fatalf("%s %s went over %s", method, path, resp.Proto)
				}
				var out map[string]any
				json.NewDecoder(resp.Body).Decode(&out)
				return resp, out
			}
			_, c := call("POST", "/matches", "", map[string]any{"game": "reaj", "seats": []any{map[string]any{"player": "person"}, map[string]any{"player": "adapt"}}})
			id := c["id"].(string)
			secret := c["seats"].([]any)[0].(map[string]any)["secret"].(string)
			for turn := range 3 {
				// The bot's answer to the turn before comes when the
				// server's driver plays it: until then the person is
				// asked nothing.
				var reqs []any
				for wait := time.Now().Add(time.Minute); len(reqs) == 0; time.Sleep(5 * time.Millisecond) {
					if time.Now().After(wait) {
						t.Fatalf("turn %d: the person is asked nothing for a minute", turn)
					}
					_, m := call("GET", "/matches/"+id, secret, nil)
					reqs, _ = m["requests"].([]any)
				}
				q := reqs[0].(map[string]any)
				resp, out := call("POST", "/matches/"+id+"/moves", secret, map[string]any{"request": q["id"], "move": q["default"]})
				if resp.StatusCode != http.StatusOK || out["seq"] == nil {
					t.Fatalf("turn %d: %d %v", turn, resp.StatusCode, out)
				}
			}
			req, _ := http.NewRequest("GET", hs.URL+"/api/v1/matches/"+id+"/events?after=0", nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			buf := make([]byte, 4096)
			n, _ := io.ReadAtLeast(resp.Body, buf, 1)
			if !bytes.HasPrefix(buf[:n], []byte("id: ")) || !bytes.Contains(buf[:n], []byte("\nevent: move\n")) {
				t.Errorf("the stream over %s begins %q", name, buf[:n])
			}
		})
	}
}
