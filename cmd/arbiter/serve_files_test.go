package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// underFileLimit is the command line of arbiter with args, run with an
// open-file limit of files (soft and hard).
func underFileLimit(t *testing.T, files int, args ...string) *exec.Cmd {
	return exec.Command("sh", append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, files), arbiterBinary(t)}, args...)...)
}

func TestServeFitsItsStreamsToTheOpenFileLimit(t *testing.T) {
	// --max-streams was 20000 whatever the process's open-file limit: on a
	// host whose limit is lower, streams used up the files first, and the
	// server could accept no connection nor open its SQLite files while
	// its limit on streams still let more in. Under a limit of 256 files,
	// it keeps 128 for the rest and holds 128 streams, says so at start,
	// refuses the 129th stream (503 too-many-streams) and still answers
	// other calls, a move included; a --max-streams above 128 is refused.
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	cmd := underFileLimit(t, 256, "serve", "--db", db, "--addr", "127.0.0.1:notaport", "--max-streams", "129") // refused before the address
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "--max-streams 129: this process may have 256 files open at once") ||
		!strings.Contains(string(out), "give 128 or fewer") {
		t.Errorf("--max-streams 129 under 256 files: exit %d, said %q; want 2, and the most it may be", code, out)
	}

	p := startServeCmd(t, underFileLimit(t, 256, "serve", "--db", db, "--addr", "127.0.0.1:0", "--keep", "0"))
	if !strings.Contains(p.log(), "at most 128 event streams at once (--max-streams), not 20000: this process may have 256 files open (ulimit -n) and keeps 128") {
		t.Errorf("the server did not say it holds fewer streams than by default:\n%s", p.log())
	}
	m := createMatch(t, p.url, map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	events := p.url + "/api/v1/matches/" + m.ID + "/events"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 16 streams from each of 8 loopback addresses (16 is the most for
	// one), and one more from a ninth.
	open := func(from int) (*http.Response, error) {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(from))}}
		c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, ResponseHeaderTimeout: time.Minute}}
		req, _ := http.NewRequestWithContext(ctx, "GET", events, nil)
		return c.Do(req)
	}
	for from := 2; from < 10; from++ {
		for i := range 16 {
			resp, err := open(from)
			if err != nil {
				t.Fatalf("stream %d from 127.0.0.%d: %v\n%s", i, from, err, p.log())
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("stream %d from 127.0.0.%d: %d %s", i, from, resp.StatusCode, b)
			}
		}
	}
	resp, err := open(10)
	if err != nil {
		t.Fatalf("the 129th stream: %v\n%s", err, p.log())
	}
	var b []byte
	if resp.StatusCode != http.StatusOK { // a stream's body does not end
		b, _ = io.ReadAll(resp.Body)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "too-many-streams") {
		t.Errorf("the 129th stream: %d %s; want 503 too-many-streams", resp.StatusCode, b)
	}
	status, state, raw, err := apiCallJSON(p.url, "GET", "/api/v1/matches/"+m.ID, m.Seats[0].Secret, nil)
	if err != nil || status != http.StatusOK {
		t.Fatalf("the match beside 128 streams: %d %s %v", status, raw, err)
	}
	q := state["requests"].([]any)[0].(map[string]any)
	status, _, raw, err = apiCallJSON(p.url, "POST", "/api/v1/matches/"+m.ID+"/moves", m.Seats[0].Secret, map[string]any{"request": q["id"], "move": "adapt"})
	if err != nil || status != http.StatusOK {
		t.Errorf("a move beside 128 streams: %d %s %v\n%s", status, raw, err, p.log())
	}
}
