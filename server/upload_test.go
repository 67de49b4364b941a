package server_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

func TestRecordsSentToBeViewedAreReadWithinABoundOfTheirBytes(t *testing.T) {
	// Each address may have 8 replays under way, each reading a record
	// of up to 64 MiB: one address, or a few, could make the server
	// hold a gigabyte. The bytes of the records read and held at once,
	// in all, are bounded (Limits.UploadBytes, 1 MiB here): a record
	// that would pass the bound is refused 503 too-many-uploads, whose
	// message names the bound, with a Retry-After, while a small one is
	// still read, and it is read once the others have let theirs go. A
	// record holds the bytes that have come of it, not those its
	// Content-Length promises.
	ts := newServer(t, server.Config{Limits: server.Limits{UploadBytes: 1 << 20}})
	_, rec := shortMatchPlayed(ts)
	told := make(chan string, 16)
	ts.srv.OnUpload(func(what string) { told <- what })

	// A record of 700 KiB whose sender sends its first bytes and then
	// waits: it holds what has come (its first buffer), not its
	// Content-Length, which a sender of none of it could otherwise hold,
	// and refuse every other record for as long as the server waits.
	const size = 700 << 10
	big := append(append([]byte{}, rec.body...), bytes.Repeat([]byte("\n"), size-len(rec.body))...)
	conn, err := net.Dial("tcp", ts.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/replay HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n%s", ts.http.Listener.Addr(), size, big[:100])
	if what := <-told; what != "take" {
		t.Fatalf("told %q first; want take", what)
	}
	if a := ts.call("POST", "/api/v1/replay", "", big); a.status != http.StatusOK {
		t.Fatalf("a record of 700 KiB while another's sender has sent 100 bytes of its 700 KiB: %d %.300s; want it viewed", a.status, a.body)
	}
	for what := range told { // its bytes taken and let go
		if what == "release" {
			break
		}
	}
	// The first sends all of its record but 100 bytes: its buffer, grown
	// as they come (64, 128, 256, 512 KiB, then its Content-Length), is
	// held.
	conn.Write(big[100 : size-100])
	for range 4 {
		if what := <-told; what != "take" {
			t.Fatalf("told %q as the first record came; want take", what)
		}
	}

	// Another of 700 KiB, sent whole: the valid record, and blank lines.
	// (Expect: 100-continue: refused before it is read, it is not sent.)
	a := ts.call("POST", "/api/v1/replay", "", big, "Expect", "100-continue")
	e, _ := a.json["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if a.status != http.StatusServiceUnavailable || a.code() != "too-many-uploads" || a.header.Get("Retry-After") != "2" || e["retry_after_ms"] != 2000.0 ||
		!strings.Contains(msg, "at most 1 MiB of records sent to be viewed") || !strings.Contains(msg, "send this one (700 KiB) again in 2s") {
		t.Errorf("a record of 700 KiB while one of 700 KiB is read: %d Retry-After %q %s; want 503 too-many-uploads naming the bound, with Retry-After 2",
			a.status, a.header.Get("Retry-After"), a.body)
	}
	// The same sent in chunks (no Content-Length): its bytes are held as
	// they come, and refused as they pass the bound.
	req, _ := http.NewRequest("POST", ts.http.URL+"/api/v1/replay", io.MultiReader(bytes.NewReader(big)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "too-many-uploads") || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("a record of 700 KiB in chunks while one of 700 KiB is read: %d %s; want 503 too-many-uploads", resp.StatusCode, b)
	}
	for what := range told { // what it took, let go
		if what == "release" {
			break
		}
	}
	// A small record is read meanwhile.
	if a := ts.call("POST", "/api/v1/replay", "", rec.body); a.status != http.StatusOK {
		t.Errorf("a record of %d bytes while one of 700 KiB is read: %d %.300s; want it viewed", len(rec.body), a.status, a.body)
	}
	for what := range told { // its bytes taken and let go
		if what == "release" {
			break
		}
	}

	// The first sender goes away: its bytes are let go, and the other
	// record is read.
	conn.Close()
	for what := range told {
		if what == "release" {
			break
		}
	}
	if a := ts.call("POST", "/api/v1/replay", "", big); a.status != http.StatusOK {
		t.Errorf("the record of 700 KiB once the other is gone: %d %.300s; want it viewed", a.status, a.body)
	}
	// A record larger than the bound itself is too large, not to be sent again.
	if a := ts.call("POST", "/api/v1/replay", "", append(big, big...), "Expect", "100-continue"); a.status != http.StatusRequestEntityTooLarge || a.code() != "too-large" {
		t.Errorf("a record of 1.4 MiB: %d %.300s; want 413 too-large", a.status, a.body)
	}
}
