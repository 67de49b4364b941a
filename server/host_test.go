package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// named sends a request to the server at base under another name: its
// Host header is host ("" leaves the URL's).
func named(t *testing.T, method, base, path, host, body string, header ...string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: b}
	json.Unmarshal(b, &a.json)
	return a
}

// A DNS-rebinding page: a web page whose name is made to lead to
// 127.0.0.1 once it is loaded sends its requests to the server on this
// machine as requests of its own site (its Origin is its Host), from this
// machine's address, which may create matches. They name the page's site
// in their Host: a server on a loopback address answers only requests that
// name this machine (localhost, a loopback address, any port) or
// --public-url's host, on every path, the pages' too; a 421 says what was
// named and how another name is allowed.
func TestARebindingPageReachesNothing(t *testing.T) {
	ts := newServer(t, server.Config{PublicURL: "https://arbiter.example/", Limits: server.Limits{Creates: 6000}})
	ts.srv.Pages(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "a page") }))
	port := ts.http.Listener.Addr().(*net.TCPAddr).Port
	rebound := "rebind.example:" + strconv.Itoa(port)
	machine, err := os.Hostname() // this machine's name, which it answers to
	if err != nil {
		t.Fatal(err)
	}
	create := `{"game": "reaj", "seats": [{"player": "adapt"}, {"player": "adapt"}]}`
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/v1/matches", create},
		{"GET", "/api/v1/matches", ""},
		{"GET", "/api/v1/games", ""},
		{"GET", "/", ""},
		{"GET", "/m/0123456789abcdef", ""},
		{"POST", "/qr", `{"text": "http://x/"}`},
	} {
		// What a browser sends for the page's fetch or form: same-origin,
		// as far as it knows.
		a := named(t, c.method, ts.http.URL, c.path, rebound, c.body,
			"Origin", "http://"+rebound, "Sec-Fetch-Site", "same-origin", "Content-Type", "text/plain")
		e, _ := a.json["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if a.status != http.StatusMisdirectedRequest || a.code() != "misdirected" || a.header.Get("Content-Type") != "application/json" ||
			!strings.Contains(msg, `"`+rebound+`"`) || !strings.Contains(msg, "localhost, 127.0.0.1 and [::1]") || machine != "localhost" && !strings.Contains(msg, "its name, "+strings.ToLower(machine)) ||
			!strings.Contains(msg, "arbiter.example (--public-url)") || !strings.Contains(msg, "--public-url http://NAME:PORT") ||
			!strings.Contains(msg, "open it as http://127.0.0.1:"+strconv.Itoa(port)+"/") {
			t.Errorf("%s %s named %s: %d %s %s; want 421 misdirected saying what was named, what is answered, and --public-url", c.method, c.path, rebound, a.status, a.header.Get("Content-Type"), a.body)
		}
	}
	var list struct{ Matches []any }
	if a := ts.call("GET", "/api/v1/matches", "", nil); json.Unmarshal(a.body, &list) != nil || len(list.Matches) != 0 {
		t.Fatalf("the rebinding page's creation made a match: %s", a.body)
	}
	// This machine's names, with any port: its host name too (which its
	// resolver may lead to a loopback address: 127.0.1.1 on Debian), and
	// the names under localhost, which browsers lead here without DNS;
	// and --public-url's host (a reverse proxy on this machine that sends
	// it on).
	for _, host := range []string{"", "127.0.0.1:" + strconv.Itoa(port), "localhost:" + strconv.Itoa(port), "LocalHost", "localhost.:80", "127.0.0.2:9",
		"[::1]:" + strconv.Itoa(port), "[::1]", "arbiter.example", "ARBITER.example:443", machine + ":" + strconv.Itoa(port), strings.ToUpper(machine),
		"arbiter.localhost:" + strconv.Itoa(port)} {
		if a := named(t, "POST", ts.http.URL, "/api/v1/matches", host, create); a.status != http.StatusCreated {
			t.Errorf("created under the name %q: %d %s; want 201", host, a.status, a.body)
		}
		if a := named(t, "GET", ts.http.URL, "/", host, ""); a.status != http.StatusOK || string(a.body) != "a page" {
			t.Errorf("the home page under the name %q: %d %s; want it", host, a.status, a.body)
		}
	}
	for _, host := range []string{"localhost.rebind.example", "127.0.0.1.rebind.example:" + strconv.Itoa(port), "arbiter.example.rebind.example",
		machine + ".rebind.example", "localhostx:" + strconv.Itoa(port), "x-localhost",
		"::1", "[::1", "[::1]x", "0.0.0.0:" + strconv.Itoa(port), "192.0.2.2:" + strconv.Itoa(port)} {
		if a := named(t, "GET", ts.http.URL, "/api/v1/games", host, ""); a.status != http.StatusMisdirectedRequest {
			t.Errorf("the games under the name %q: %d %s; want 421", host, a.status, a.body)
		}
	}
	// A misdirected request is answered at once, its body neither read
	// nor waited for: the connection closes.
	stalled, err := net.Dial("tcp", ts.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	fmt.Fprintf(stalled, "POST /api/v1/matches HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n{\"game\": ", rebound)
	stalled.SetReadDeadline(time.Now().Add(5 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(stalled), nil); err != nil || resp.StatusCode != http.StatusMisdirectedRequest || !resp.Close {
		t.Errorf("a misdirected request whose body stalls: %v %v; want 421 at once, the connection closed", resp, err)
	}
	// HTTP/1.0 without a Host: not a browser's page.
	conn, err := net.Dial("tcp", ts.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /api/v1/games HTTP/1.0\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HTTP/1.0 without a Host: %v %v; want 200", resp, err)
	}
}

// A server that listens on every interface (a party on the LAN) answers
// the phones under whatever name they reached it by, and the requests
// that come to it at a loopback address under this machine's names only:
// a rebinding page may lead a browser of this machine to 127.0.0.1 as
// well as to a loopback-only server.
func TestAServerOnEveryInterfaceGuardsItsLoopback(t *testing.T) {
	lan := lanAddress(t)
	ts := startServerWith(t, newDatabase(t), server.Config{}, func(h *httptest.Server) {
		ln, err := net.Listen("tcp", "0.0.0.0:0")
		if err != nil {
			t.Fatal(err)
		}
		h.Listener.Close()
		h.Listener = ln
		h.Start()
	})
	port := strconv.Itoa(ts.http.Listener.Addr().(*net.TCPAddr).Port)
	loop, phone := "http://127.0.0.1:"+port, "http://"+net.JoinHostPort(lan, port)
	if a := named(t, "GET", phone, "/api/v1/games", "party.example:"+port, ""); a.status != http.StatusOK {
		t.Errorf("a phone on the LAN under another name: %d %s; want 200", a.status, a.body)
	}
	if a := named(t, "GET", loop, "/api/v1/games", "party.example:"+port, ""); a.status != http.StatusMisdirectedRequest || !strings.Contains(string(a.body), "(127.0.0.1)") {
		t.Errorf("this machine's loopback under another name: %d %s; want 421", a.status, a.body)
	}
	if a := named(t, "GET", loop, "/api/v1/games", "", ""); a.status != http.StatusOK {
		t.Errorf("this machine's loopback as 127.0.0.1: %d %s; want 200", a.status, a.body)
	}
}

// lanAddress is an IPv4 address of this machine on a network, not a
// loopback one; the test is skipped on a machine without one.
func lanAddress(t *testing.T) string {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no address on a network besides its loopback")
	return ""
}
