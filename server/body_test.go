package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// A body that comes slower than the server allows (here: a part of it,
// then nothing) is answered 408 slow-body once BodyTime has passed, and
// its connection closed: slow bodies do not hold the server's
// connections for ever.
func TestSlowBodiesAreRefused(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{BodyTime: 300 * time.Millisecond}})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 2}})
	for _, call := range []struct{ path, secret, start string }{
		{"/api/v1/matches", "", `{"game": "reaj", "seats": [`},
		{"/api/v1/matches/" + c.ID + "/moves", c.Seats[0].Secret, `{"request": 0, `},
		{"/api/v1/replay", "", `{"ruleset": "reaj", `},
	} {
		t.Run(call.path, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.http.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			auth := ""
			if call.secret != "" {
				auth = "Authorization: Bearer " + call.secret + "\r\n"
			}
			// The headers promise 1000 bytes; a few come, then no more.
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n%s", call.path, ts.http.Listener.Addr(), auth, call.start)
			// The client waits far longer than the server's allowance: a
			// server that waits for the body never answers in time.
			conn.SetReadDeadline(time.Now().Add(60 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer to a stalled body: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			var e struct {
				Error struct{ Code, Message string }
			}
			json.Unmarshal(b, &e)
			if resp.StatusCode != http.StatusRequestTimeout || e.Error.Code != "slow-body" || !strings.Contains(e.Error.Message, "within 300ms") {
				t.Fatalf("a stalled body: %d %s", resp.StatusCode, b)
			}
		})
	}
	// A body sent at once is read as before, on a connection kept alive.
	if a := ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[0].Secret, nil); a.status != http.StatusOK {
		t.Fatalf("GET after: %d %s", a.status, a.body)
	}
}

// A body that never comes holds no connection, whether or not its call
// reads it: Go's server reads what a call left of a body before it
// answers, and waited for it without end, so that a GET (or a call
// refused before its body is read) whose headers promised a body that was
// never sent had no answer, and kept its connection and goroutine for as
// long as the client liked. It is answered once BodyTime has passed, and
// its connection closed.
func TestBodiesThatNeverComeHoldNoConnection(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{BodyTime: 300 * time.Millisecond}})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 2}})
	for _, call := range []struct {
		method, path, secret string
		status               int
	}{
		{"GET", "/api/v1/games", "", http.StatusOK},
		{"GET", "/api/v1/matches/" + c.ID, c.Seats[0].Secret, http.StatusOK},
		{"POST", "/api/v1/matches/" + c.ID + "/moves", "", http.StatusUnauthorized},
		{"POST", "/api/v1/matches/" + c.ID + "/abort", c.Seats[0].Secret, http.StatusForbidden},
		{"GET", "/no-such-page", "", http.StatusNotFound},
	} {
		t.Run(call.method+" "+call.path, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.http.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			auth := ""
			if call.secret != "" {
				auth = "Authorization: Bearer " + call.secret + "\r\n"
			}
			// The headers promise 100 bytes, and none come.
			fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100\r\n\r\n", call.method, call.path, ts.http.Listener.Addr(), auth)
			// The client waits far longer than the server's allowance.
			conn.SetReadDeadline(time.Now().Add(60 * time.Second))
			br := bufio.NewReader(conn)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer to a body that never came: %v", err)
			}
			io.Copy(io.Discard, resp.Body)
			if resp.StatusCode != call.status {
				t.Errorf("answered %d; want %d", resp.StatusCode, call.status)
			}
			if _, err := br.ReadByte(); err != io.EOF {
				t.Errorf("the connection is still open after the answer: %v", err)
			}
		})
	}
}
