package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDecodeJSONTakesOneValue: a body is one JSON value of the shape asked
// for, space around it allowed; anything after it is refused, a stray
// bracket included, and unknown fields are named with the fields there
// are; an object where another value was wanted is told its fields too.
func TestDecodeJSONTakesOneValue(t *testing.T) {
	type seat struct {
		Player string `json:"player"`
		Name   string `json:"name,omitempty"`
		secret string
	}
	type body struct {
		Request int64  `json:"request"`
		Seats   []seat `json:"seats"`
		Seed    uint64 `json:"seed"`
		Skip    int    `json:"-"`
	}
	for _, in := range []string{`{"request":3}`, " {\"request\":3}\n", "{\"request\":3}\r\n\t "} {
		var b body
		if err := DecodeJSON([]byte(in), &b); err != nil || b.Request != 3 {
			t.Errorf("%q: %v, %+v", in, err, b)
		}
	}
	for in, want := range map[string]string{
		`{"request":3} {"request":4}`:              "trailing data",
		`{"request":3}}`:                           "trailing data",
		`{"request":3}]`:                           "trailing data",
		`{"request":3},`:                           "trailing data",
		`{"request":"3"}`:                          "want a whole number, got a JSON string",
		`{"request":3,"seed":-1}`:                  "seed: want a whole number, 0 or more, got a JSON number -1",
		`{"requests":3}`:                           `unknown field "requests"; the fields are request, seats, seed`,
		`{"seats":["person"]}`:                     `seats: want an object with the fields player, name, got a JSON string`,
		`{"seats":[{"player":"a"},{"plyer":"b"}]}`: `seats[1]: unknown field "plyer"; the fields are player, name`,
		``: "empty input",
	} {
		var b body
		err := DecodeJSON([]byte(in), &b)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", in, err, want)
		}
	}
}

// BenchmarkDecodeJSON decodes a move's body as the server gets it.
func BenchmarkDecodeJSON(b *testing.B) {
	data := []byte(`{"request":1234,"move":{"build":"farm"}}`)
	var v struct {
		Request int64           `json:"request"`
		Move    json.RawMessage `json:"move"`
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeJSON(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDecodeJSON: any input either decodes or is refused with an error
// worded for people (never encoding/json's "json:" prefix), and never
// panics, nested unknown fields and shapes included.
func FuzzDecodeJSON(f *testing.F) {
	type seat struct {
		Player string `json:"player"`
		Name   string `json:"name,omitempty"`
	}
	type body struct {
		Game    string            `json:"game"`
		Seats   []seat            `json:"seats"`
		Options map[string]seat   `json:"options"`
		Seed    uint64            `json:"seed"`
		Move    json.RawMessage   `json:"move"`
		Extra   map[string]string `json:"-"`
	}
	for _, s := range []string{`{"game":"reaj"}`, `{"seats":[{"player":"a"},{"plyer":"b"}]}`, `{"options":{"x":{"nam":1}}}`,
		`{"seed":-1}`, `{"move":{"any":1}}`, `[1]`, `"x"`, `{"Game":"a","GAME":"b"}`, ``, `{"seats":[[{"x":1}]]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b body
		if err := DecodeJSON(data, &b); err != nil && strings.HasPrefix(err.Error(), "json:") {
			t.Errorf("%q: %v: encoding/json's own words", data, err)
		}
	})
}
