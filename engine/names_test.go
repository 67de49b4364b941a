package engine

import (
	"encoding/json"
	"fmt"
	"os"
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
		`{"requests":3}`:                           `unknown field "requests"; did you mean request? The fields are request, seats, seed`,
		`{"wanted":3}`:                             `unknown field "wanted"; the fields are request, seats, seed`,
		`{"seats":["person"]}`:                     `seats: want an object with the fields player, name, got a JSON string`,
		`{"seats":[{"player":"a"},{"plyer":"b"}]}`: `seats[1]: unknown field "plyer"; did you mean player? The fields are player, name`,
		``:                      "empty input",
		"\ufeff{\"request\":3}": "the JSON begins with a byte order mark (U+FEFF), which JSON does not take; write it without one (UTF-8 without BOM)",
	} {
		var b body
		err := DecodeJSON([]byte(in), &b)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", in, err, want)
		}
	}
}

// TestDecodeJSONRefusesDuplicateKeys: a key given twice in one object, at
// any depth, in a map or in a value kept raw, is refused, named with the
// path to its object (and its lines, in a document of more than one line),
// where encoding/json alone would keep the last value in silence. The same
// key in two objects is no duplicate, in objects of many keys neither.
func TestDecodeJSONRefusesDuplicateKeys(t *testing.T) {
	type seat struct {
		Player string `json:"player"`
	}
	type body struct {
		Request int64           `json:"request"`
		Seats   []seat          `json:"seats"`
		Options map[string]int  `json:"options"`
		Move    json.RawMessage `json:"move"`
	}
	var many, manyTwice strings.Builder
	for i := range 40 {
		fmt.Fprintf(&many, `"k%d":%d,`, i, i)
	}
	manyTwice.WriteString(many.String() + `"k3":1,`)
	keys30 := strings.Join(strings.SplitAfterN(many.String(), ",", 31)[:30], "")
	nested := `{"move":{` + keys30 + `"a":{` + keys30 + `"b":{` + keys30 + `"k5":0}}}}`
	for in, want := range map[string]string{
		`{"request":3,"request":4}`:                              `the top level: key "request" is given twice; give each key once`,
		`{"seats":[{"player":"a"},{"player":"b","player":"c"}]}`: `seats[1]: key "player" is given twice`,
		`{"options":{"x":1,"y":2,"x":3}}`:                        `options: key "x" is given twice`,
		`{"move":{"build":"farm","build":"mine"}}`:               `move: key "build" is given twice`,
		`{"move":[[{}],[{"a":{"b":1,"b":2}}]]}`:                  `move[1][0].a: key "b" is given twice`,
		`{"request":3,"requ\u0065st":4}`:                         `the top level: key "request" is given twice`,
		"{\n \"request\": 3,\n \"request\": 4\n}":                `the top level: key "request" is given twice (lines 2 and 3)`,
		"{\"options\": {\"x\": 1, \"x\": 2}\n}":                  `options: key "x" is given twice (line 1)`,
		`{"options":{` + manyTwice.String() + `"z":0}}`:          `options: key "k3" is given twice`,
		nested:                     `move.a.b: key "k5" is given twice`,
		`{"request":3,"request":4`: `the top level: key "request" is given twice`,
		// Keys that would not read as steps of a path are quoted.
		`{"move":{"a":{"":{"d":0,"d":1}}}}`: `move.a."": key "d" is given twice`,
		`{"move":{"a.b":[{"d":0,"d":1}]}}`:  `move."a.b"[0]: key "d" is given twice`,
		`{"move":{"[1]":{"d":0,"d":1}}}`:    `move."[1]": key "d" is given twice`,
		// Bytes that are not UTF-8 are U+FFFD to encoding/json, as the
		// escapes of lone surrogates are: one key.
		"{\"options\":{\"\xff\":1,\"\xfe\":2}}":              "options: key \"\ufffd\" is given twice",
		"{\"options\":{\"\xff\":1,\"\\ud800\":2}}":           "options: key \"\ufffd\" is given twice",
		`{"request":3,"seats":[{"player":"a"}},"request":4}`: "not valid JSON",
	} {
		var b body
		err := DecodeJSON([]byte(in), &b)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", in, err, want)
		}
	}
	for _, in := range []string{
		`{"seats":[{"player":"a"},{"player":"b"}],"move":{"request":1,"seats":2}}`,
		`{"options":{` + many.String() + `"z":0}}`,
		`{"move":{"a":{"x":1},"b":{"x":1},"x":{"a":1}}}`,
		`{"options":{"x":1,"X":2,"x ":3}}`,
		strings.Replace(nested, `"k5":0`, `"k50":0`, 1),
	} {
		var b body
		if err := DecodeJSON([]byte(in), &b); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// BenchmarkDecodeJSON decodes a move's body as the server gets it.
func BenchmarkDecodeJSON(b *testing.B) {
	data := []byte(`{"request":1234,"move":{"build":"farm"}}`)
	var v struct {
		Request   *int64          `json:"request"`
		Move      json.RawMessage `json:"move"`
		ExpectSeq *int64          `json:"expect_seq"`
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeJSON(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeJSONWorld decodes a world file, AjveCiv's example world
// of three societies, into the shape AjveCiv reads it as.
func BenchmarkDecodeJSONWorld(b *testing.B) {
	data, err := os.ReadFile("../examples/ajveciv/world.json")
	if err != nil {
		b.Fatal(err)
	}
	type nation struct {
		Population *int `json:"population"`
		Yield      *int `json:"yield"`
	}
	type society struct {
		Values json.RawMessage `json:"values"`
		Nation *nation         `json:"nation"`
		Dead   *bool           `json:"dead"`
	}
	type world struct {
		Feels     *[][]int   `json:"feels"`
		Societies *[]society `json:"societies"`
		Yield     *int       `json:"yield"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var w world
		if err := DecodeJSON(data, &w); err != nil {
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
		`{"seed":-1}`, `{"move":{"any":1}}`, `{"game":"a","game":"b"}`, `{"move":{"x":[{"a":1,"a\u0000":2,"a":3}]}}`, `[1]`, `"x"`, `{"Game":"a","GAME":"b"}`, ``, `{"seats":[[{"x":1}]]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b body
		if err := DecodeJSON(data, &b); err != nil && strings.HasPrefix(err.Error(), "json:") {
			t.Errorf("%q: %v: encoding/json's own words", data, err)
		}
	})
}

func TestJSONKind(t *testing.T) {
	// A refusal names what came instead of what was wanted, by the value's
	// first byte after spaces.
	for in, want := range map[string]string{
		`{"a": 1}`: "object", ` [1]`: "array", `"x"`: "string", `true`: "bool", "\nfalse": "bool",
		`null`: "null", `-1`: "number", `12`: "number", ``: "", "  \t": "",
	} {
		if got := JSONKind([]byte(in)); got != want {
			t.Errorf("JSONKind(%q) = %q; want %q", in, got, want)
		}
	}
}
