package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/web"
)

func TestPagesAreServedPlainAndSafe(t *testing.T) {
	// Every page and file comes from the binary, with headers that keep a
	// seat's secret at home: no Referer, scripts and connections from this
	// origin only; files gzipped for the browsers that take them.
	ts := httptest.NewServer(web.Handler())
	defer ts.Close()
	get := func(path string, gz bool) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for _, p := range []string{"/", "/m/0123abcd", "/replay"} {
		resp, body := get(p, false)
		if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "<!doctype html>") {
			t.Errorf("%s: %d %.80s", p, resp.StatusCode, body)
		}
		if resp.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("%s: headers %v", p, resp.Header)
		}
		// Nothing from elsewhere.
		if m := regexp.MustCompile(`(src|href)="https?://`).FindString(string(body)); m != "" {
			t.Errorf("%s refers elsewhere: %s", p, m)
		}
	}
	resp, body := get("/assets/js/match.js", true)
	if resp.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("a script: %v", resp.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if js, _ := io.ReadAll(zr); !bytes.Contains(js, []byte("follow(")) {
		t.Error("the gzipped script is not the script")
	}
	req, _ := http.NewRequest("GET", ts.URL+"/assets/js/match.js", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	if r, _ := http.DefaultClient.Do(req); r.StatusCode != http.StatusNotModified {
		t.Errorf("a file the browser has: %d; want 304", r.StatusCode)
	}
	// The pages' icon, where browsers ask for it by themselves too.
	for _, p := range []string{"/favicon.ico", "/assets/favicon.svg"} {
		if resp, body := get(p, false); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(body, []byte("<svg")) {
			t.Errorf("%s: %d %s %.40s; want the icon in SVG", p, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	for _, p := range []string{"/assets/index.html", "/assets/nothing.js", "/nowhere"} {
		if resp, _ := get(p, false); resp.StatusCode != 404 {
			t.Errorf("%s: %d; want 404", p, resp.StatusCode)
		}
	}
}

func TestQRCodes(t *testing.T) {
	// A link's QR code, drawn in SVG: sent in a body, never an address.
	ts := httptest.NewServer(web.Handler())
	defer ts.Close()
	link := "http://192.168.1.20:8080/m/9d26a00787af9908#s=f0jF5rzfSBnRN228dbYWWw"
	resp, err := http.Post(ts.URL+"/qr", "application/json", strings.NewReader(`{"text": "`+link+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	// Version 5 (37 modules) at level M holds a link of this length; with
	// the quiet zone the picture is 45 modules wide.
	if !bytes.Contains(b, []byte(`viewBox="0 0 45 45"`)) {
		t.Errorf("the code's size: %.120s", b)
	}
	svg, err := web.QRSVG(link)
	if err != nil || !bytes.Equal(svg, b) {
		t.Errorf("QRSVG differs from /qr: %v", err)
	}
	// "Text" is not "text", though encoding/json would read it so.
	for _, body := range []string{``, `{}`, `{"text": ""}`, `{"text": "` + strings.Repeat("x", 1025) + `"}`, `not json`, `{"Text": "` + link + `"}`} {
		resp, err := http.Post(ts.URL+"/qr", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("%.20q: %d; want 400", body, resp.StatusCode)
		}
	}
	// A key given twice is refused and named, not read as its last value.
	resp, err = http.Post(ts.URL+"/qr", "application/json", strings.NewReader(`{"text": "http://a.example/", "text": "`+link+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	var e struct{ Error struct{ Message string } }
	if resp.StatusCode != 400 || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error.Message, `key "text" is given twice`) {
		t.Errorf("a key twice: %d %s; want 400 naming the key", resp.StatusCode, b)
	}
}

// POST /qr is fetched by the pages as they call the API (links.js), and
// refuses as the API does: {"error": {"code", "message"}}, JSON, with the
// API's statuses, through the whole server (its pages and API, an SQLite
// file) as through the pages alone. It answered in plain text.
func TestQRRefusalsAreTheAPIs(t *testing.T) {
	s := newSite(t)
	link := "http://192.168.1.20:8080/m/9d26a00787af9908#s=f0jF5rzfSBnRN228dbYWWw"
	for _, c := range []struct {
		method, body string
		status       int
		code, says   string
	}{
		{"POST", ``, 400, "bad-json", `{"text": "..."}`},
		{"POST", `not json`, 400, "bad-json", `{"text": "..."}`},
		{"POST", `{"Text": "` + link + `"}`, 400, "bad-json", `"Text" is written "text"`},
		{"POST", `{"text": "a", "text": "b"}`, 400, "bad-json", `key "text" is given twice`},
		{"POST", `{}`, 400, "invalid", "a link of 1 to 1024 bytes"},
		{"POST", `{"text": "` + strings.Repeat("x", 1025) + `"}`, 400, "invalid", `"text" has 1025 bytes`},
		{"POST", `{"text": "` + strings.Repeat("x", 5000) + `"}`, 413, "too-large", "over 4096 bytes"},
		{"GET", ``, 405, "method-not-allowed", "POST"},
		{"PUT", `{"text": "a"}`, 405, "method-not-allowed", "POST"},
	} {
		req, _ := http.NewRequest(c.method, s.URL()+"/qr", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct {
			Error struct{ Code, Message string }
		}
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(b, &e) != nil ||
			e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.says) {
			t.Errorf("%s /qr %.30q: %d %s %s; want %d, JSON, %s saying %q", c.method, c.body, resp.StatusCode, resp.Header.Get("Content-Type"), b, c.status, c.code, c.says)
		}
		if c.status == 405 && resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s /qr: Allow %q; want POST", c.method, resp.Header.Get("Allow"))
		}
	}
	resp, err := http.Post(s.URL()+"/qr", "application/json", strings.NewReader(`{"text": "`+link+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("a link's code: %d %.80s", resp.StatusCode, b)
	}
}

func TestPagesLoadWithNoFailedRequest(t *testing.T) {
	// Every page loads with no request failed or refused: its icon
	// included, which browsers ask for by themselves.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 2}, "judge": true})
	for name, url := range map[string]string{"home": s.URL() + "/", "seat": c.Seats[0].URL, "judge": c.Judge.URL, "spectator": c.Watch, "replay": s.URL() + "/replay?match=" + c.ID} {
		tb := b.open(name, url, 390, 844)
		tb.until("the page", "document.body.dataset.ready && document.readyState === 'complete'")
		tb.until("its icon", `document.querySelector("link[rel=icon]")`)
		time.Sleep(500 * time.Millisecond) // the icon, asked for after the page
		if f := tb.failures(); len(f) > 0 {
			t.Errorf("%s: failed requests: %v", name, f)
		}
		tb.noErrors()
	}
}
