package server

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func FuzzHostOf(f *testing.F) {
	// A Host header read for the check against DNS rebinding: never a
	// panic; a host it reads is in lower case, without a port, brackets
	// or a final dot, and reads again as itself.
	for _, h := range []string{"localhost", "LOCALHOST.:8080", "127.0.0.1:80", "[::1]:8080", "[::1]x", "::1", "evil.example", "a.localhost", "", ":", "[", "[]:1", "host:"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		host, ok := hostOf(header)
		if !ok {
			return
		}
		if host == "" || host != strings.ToLower(host) || strings.HasSuffix(host, ".") || strings.ContainsAny(host, "[]") {
			t.Fatalf("hostOf(%q) = %q", header, host)
		}
		if !strings.Contains(host, ":") {
			if again, ok := hostOf(host); !ok || again != host {
				t.Fatalf("hostOf(%q) = %q, and hostOf of that = %q, %v", header, host, again, ok)
			}
		}
	})
}

func FuzzCanonicalJSON(f *testing.F) {
	// A keyed request's body as its meaning is compared: never a panic;
	// the same meaning as the body (decoded, numbers as written), and its
	// own canonical form, so that a retry of it is the same request.
	for _, b := range []string{`{"move":"X"}`, `{ "move" : "X"}`, `{"b":1,"a":[1.0,2e3,"\u00e9"]}`, `null`, `not json`, `{"a":"\ud800"}`} {
		f.Add([]byte(b))
	}
	decode := func(b []byte) (any, error) {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		err := d.Decode(&v)
		return v, err
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c := canonicalJSON(body)
		if again := canonicalJSON(c); !bytes.Equal(again, c) {
			t.Fatalf("canonicalJSON(%q) = %q, whose own is %q", body, c, again)
		}
		want, err := decode(body)
		if err != nil {
			return
		}
		got, err := decode(c)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("canonicalJSON(%q) = %q, which reads as %v (%v); want %v", body, c, got, err, want)
		}
	})
}

func TestQuoteHeaderCutsBetweenCharacters(t *testing.T) {
	// A refusal quotes the header it refused (an Origin, a Host), cut to 64
	// characters: never inside one, which would show as \x escapes.
	long := strings.Repeat("é", 100)
	got := quoteHeader(long)
	if want := `"` + strings.Repeat("é", 64) + `"…`; got != want {
		t.Errorf("quoteHeader(100 × é) = %s; want %s", got, want)
	}
	if got := quoteHeader("a.example"); got != `"a.example"` {
		t.Errorf("quoteHeader(a.example) = %s", got)
	}
	if got := quoteHeader(""); got != "none" {
		t.Errorf(`quoteHeader("") = %s; want none`, got)
	}
}
