package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/sqlitetest"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
)

func TestExampleClientsPlayASeat(t *testing.T) {
	// "A Python and a JavaScript example client in examples/ that play a
	// seat through the API." The server allows 10 moves a second here, so
	// that each client goes faster than it may: it must wait as it is told
	// and send again, not stall. A wrong secret stops it with the reason.
	ts := newServer(t, server.Config{Limits: server.Limits{Moves: 10, MoveBurst: 5}})
	for _, client := range exampleClients {
		t.Run(client[0], func(t *testing.T) {
			needInterpreter(t, client[0])
			for _, body := range []map[string]any{
				{"game": "tncc", "seats": []map[string]any{{"player": "person"}, {"player": "turtle"}, {"player": "war"}},
					"options": map[string]any{"preset": `{"base":"default","max_cycles":8}`}},
				{"game": "ajveciv", "seats": []map[string]any{{"player": "person"}, {"player": "random"}, {"player": "random"}},
					"options": map[string]any{"turns": 40}},
			} {
				c := ts.create(body)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				out, err := exec.CommandContext(ctx, client[0], client[1], ts.http.URL, c.ID, c.Seats[0].Secret).CombinedOutput()
				cancel()
				if err != nil || !strings.Contains(string(out), "the match is over") {
					t.Fatalf("%s: %v\n%s", body["game"], err, out)
				}
				if m := ts.state(c.ID, ""); m.Status != "over" {
					t.Errorf("%s: status %s", body["game"], m.Status)
				}
				// It says each move it makes: as many as the record has of
				// its seat (its society may die before the last turn).
				rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
				made := strings.Count(string(rec.body), `{"seat":0,`)
				if body["game"] == "ajveciv" && (made == 0 || strings.Count(string(out), "request ") != made || !strings.Contains(string(out), "(turn): ")) {
					t.Errorf("%s: the client does not say each of the %d moves it made:\n%s", body["game"], made, out)
				}
			}
			c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 5}})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, client[0], client[1], ts.http.URL, c.ID, "not-the-secret").CombinedOutput()
			if err == nil || ctx.Err() != nil || !strings.Contains(string(out), "401") {
				t.Errorf("a wrong secret: %v\n%s; want the client to stop with the server's 401", err, out)
			}
			// A server that is not there: the client says so and stops.
			out, err = exec.CommandContext(ctx, client[0], client[1], "http://127.0.0.1:1", c.ID, c.Seats[0].Secret).CombinedOutput()
			if err == nil || ctx.Err() != nil || !strings.Contains(string(out), "cannot reach http://127.0.0.1:1") {
				t.Errorf("no server: %v\n%s; want the client to stop, saying it cannot reach it", err, out)
			}
			// A choice of its own that the rules refuse: the client plays
			// the request's default instead, to the end of the match.
			src, err := os.ReadFile(client[1])
			if err != nil {
				t.Fatal(err)
			}
			illegal := strings.NewReplacer(`return choices[0] if choices else request["default"]`, `return "fly"`,
				`const choose = (request) => (request.choices && request.choices.length ? request.choices[0] : request.default);`, `const choose = () => "fly";`).Replace(string(src))
			if illegal == string(src) {
				t.Fatalf("%s: its choose is not where the test looks for it", client[1])
			}
			script := filepath.Join(t.TempDir(), filepath.Base(client[1]))
			if err := os.WriteFile(script, []byte(illegal), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err = exec.CommandContext(ctx, client[0], script, ts.http.URL, c.ID, c.Seats[0].Secret).CombinedOutput()
			if err != nil || !strings.Contains(string(out), `refused "fly"`) || !strings.Contains(string(out), "the match is over") {
				t.Errorf("a client whose moves are refused: %v\n%s; want it to play the defaults to the end", err, out)
			}
			if !onPostgres {
				playThroughAnOutage(t, client)
			}
		})
	}
}

// exampleClients are the example clients, each as the command that runs it.
var exampleClients = [][]string{{"python3", "../examples/clients/play.py"}, {"node", "../examples/clients/play.js"}}

// needInterpreter skips t when the program that runs a client is not
// installed (fails it in CI, which installs it).
func needInterpreter(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it", name)
		}
		t.Skipf("%s is not installed", name)
	}
}

func TestExampleClientsGiveUpWhenTheDatabaseStaysUnavailable(t *testing.T) {
	// The clients waited out a 503 unavailable for ever: a server whose
	// database stayed out of reach held them, silent, for as long. Each
	// sends its move again, with the same key, as told, at most 6 more
	// times (the server asks 2 s between them, 12 s in all, within the
	// clients' 30 s); then it says on standard error that it gives up,
	// and why, and exits 1, nothing of its move stored.
	if onPostgres {
		t.Skip("a test of SQLite: it runs in the SQLite pass")
	}
	for _, client := range exampleClients {
		t.Run(client[0], func(t *testing.T) {
			t.Parallel()
			needInterpreter(t, client[0])
			db := filepath.Join(t.TempDir(), "live.db")
			ts := startServerOpts(t, db, store.Options{BusyTimeout: 50 * time.Millisecond}, server.Config{}, (*httptest.Server).Start)
			c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "options": map[string]any{"turns": 3}})
			sqlitetest.HoldWriteLock(t, db)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var stdout, stderr strings.Builder
			cmd := exec.CommandContext(ctx, client[0], client[1], ts.http.URL, c.ID, c.Seats[0].Secret)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || ctx.Err() != nil {
				t.Fatalf("the client, its move answered 503 for as long as it tries: %v; want it to stop, exiting 1\n%s%s", err, stdout.String(), stderr.String())
			}
			const gaveUp = "giving up on the move for request 0: the server still asked to wait after 7 tries over 12s (unavailable: the server cannot reach its database"
			if !strings.Contains(stderr.String(), gaveUp) {
				t.Errorf("the client's standard error:\n%s\nwant it to say %q", stderr.String(), gaveUp)
			}
			if n := strings.Count(stderr.String(), "the server cannot reach its database for now; trying again in 2s"); n != 6 {
				t.Errorf("the client said %d times that it waits; want 6 (7 tries):\n%s", n, stderr.String())
			}
			if strings.Contains(stdout.String()+stderr.String(), c.Seats[0].Secret) {
				t.Errorf("the client showed its secret:\n%s%s", stdout.String(), stderr.String())
			}
			if n := movesOf(t, "sqlite", db, c.ID); n != 0 {
				t.Errorf("%d moves stored; want none", n)
			}
		})
	}
}

// playThroughAnOutage runs client on a match whose SQLite file another
// process locks: its move is answered 503 unavailable, with a wait, until
// the file is free (once the client says it waits), and the client waits
// as it is told and sends it again, to the end of the match.
func playThroughAnOutage(t *testing.T, client []string) {
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServerOpts(t, db, store.Options{BusyTimeout: 50 * time.Millisecond}, server.Config{}, (*httptest.Server).Start)
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 3}})
	release := sqlitetest.HoldWriteLock(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, client[0], client[1], ts.http.URL, c.ID, c.Seats[0].Secret)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	var out strings.Builder
	waiting := false
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if !waiting && strings.Contains(sc.Text(), "cannot reach its database for now; trying again in 2s") {
			waiting = true
			release()
		}
	}
	err := <-done
	if !waiting || err != nil || !strings.Contains(out.String(), "the match is over") {
		t.Errorf("a client whose move meets the database locked: %v\n%s; want it to say it waits, send the move again and play to the end", err, out.String())
	}
}
