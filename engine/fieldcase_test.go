package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestExactFieldNames(t *testing.T) {
	// encoding/json fills a field from a key in any case ("Type" for
	// "type"); Arbiter's formats name each field one way only, so that a
	// program that reads a lenient Arbiter works on a strict one.
	type seat struct {
		Player string `json:"player"`
		Name   string `json:"name,omitempty"`
	}
	type body struct {
		Game    string            `json:"game"`
		Seats   []seat            `json:"seats"`
		Options map[string]any    `json:"options"`
		Move    json.RawMessage   `json:"move"`
		ByName  map[string]seat   `json:"by_name"`
		Grid    [][]seat          `json:"grid"`
		Labels  map[string]string `json:"labels"`
	}
	for in, want := range map[string]string{
		`{"Game": "reaj"}`: `field "Game" is written "game": names of fields are read exactly as written, in their case`,
		`{"game": "reaj", "seats": [{"player": "a"}, {"Player": "b"}]}`: `seats[1]: field "Player" is written "player"`,
		`{"by_name": {"Ann": {"NAME": "x"}}}`:                           `by_name.Ann: field "NAME" is written "name"`,
		`{"grid": [[], [{"player": "a"}, {"plaYer": "b"}]]}`:            `grid[1][1]: field "plaYer" is written "player"`,
		`{"BY_NAME": {}}`:                     `field "BY_NAME" is written "by_name"`,
		`{"by_name": {"": {"NAME": "x"}}}`:    `by_name."": field "NAME" is written "name"`,
		`{"by_name": {"a.b": {"NAME": "x"}}}`: `by_name."a.b": field "NAME" is written "name"`,
		// The long s folds to s, as encoding/json folds it.
		"{\"\u017feats\": []}": "field \"\u017feats\" is written \"seats\"",
		`{"g\u0041me": "x"}`:   `field "gAme" is written "game"`,
		// After a number, true, false or null that ends its object
		// (the walker took the "}" for the value's and lost its place).
		`{"seats": [{"player": "a", "x": 1}, {"Player": "b"}]}`: `seats[1]: field "Player" is written "player"`,
		`{"grid": [[{"x": true}], [{"PLAYER": "b"}]]}`:          `grid[1][0]: field "PLAYER" is written "player"`,
		`{"seats": [{"player": "a", "x": null}], "Game": "g"}`:  `field "Game" is written "game"`,
	} {
		var b body
		if err := json.Unmarshal([]byte(in), &b); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		err := ExactFieldNames([]byte(in), &b)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v; want none", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v; want %q", in, err, want)
		}
	}
	// Keys as written, whatever else is around them, pass: map keys and
	// a raw move's are the game's, a key of no field is the caller's own,
	// and a key written with escapes is the key it spells.
	for _, in := range []string{
		`{"game": "reaj", "seats": [{"player": "a", "name": "b"}], "options": {"Turns": 3, "X": {"Y": 1}}, "move": {"Type": "wait"}}`,
		`{"game": "a\"Game\":", "debug": {"Game": 1}, "labels": {"Name": "x"}, "seats": []}`,
		`{"g\u0061me": "x", "se\u0061ts": [{"pl\u0061yer": "a"}]}`,
		` { "game" : "x" , "seats" : [ { "player" : "a" } , { } ] , "grid" : [ [ ] ] } `,
		`{"seats": null, "grid": [null, [null]], "by_name": null}`,
	} {
		var b body
		if err := json.Unmarshal([]byte(in), &b); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if err := ExactFieldNames([]byte(in), &b); err != nil {
			t.Errorf("%s: %v; want none", in, err)
		}
	}
	// DecodeJSON refuses them too, as it refuses unknown fields.
	var b body
	if err := DecodeJSON([]byte(`{"game": "reaj", "Seats": []}`), &b); err == nil || err.Error() != `field "Seats" is written "seats": names of fields are read exactly as written, in their case` {
		t.Errorf("DecodeJSON: %v", err)
	}
}

// BenchmarkExactFieldNames checks the names of the fields of a bot's move
// message, and nothing else (BenchmarkKeyFaults: both checks, as each
// decision's answer is checked).
func BenchmarkExactFieldNames(b *testing.B) {
	data := []byte(`{"type":"move","id":1234,"move":{"type":"war","target":1,"flanks":[10,0,30]}}`)
	var v struct {
		Type string          `json:"type"`
		ID   int64           `json:"id"`
		Move json.RawMessage `json:"move"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := ExactFieldNames(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
