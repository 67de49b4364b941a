package territories

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz targets: the readers never panic, every refusal says something, and
// what they accept reads back the same.
//
//	go test ./games/territories -run XXX -fuzz FuzzParseAction -fuzztime 20s
//	go test ./games/territories -run XXX -fuzz FuzzConfig -fuzztime 20s

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"join Pacifica CA", `join "New Spain" "New Mexico"`, "color red", "color rgb(1, 2, 3)",
		"color hsl(120 50% 50% / 0.5)", "move CA:2 NV", "move CA NV", `move "a:b":3 c`, "raise CA", "attack CA NV", "pass",
		"end-turn", "", `"`, "move :1 x", "color #abcd", "join x:1 y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty error", s)
			}
			return
		}
		back, err := ParseAction(a.String())
		if err != nil || back != a {
			t.Fatalf("%q parses as %+v, written %q, which reads back as %+v, %v", s, a, a.String(), back, err)
		}
		// Applying it to a game never panics; a refusal says why.
		w := NewWorld(Sample())
		w.Apply("alice", JoinAction("Pacifica", "CA"))
		w.Apply("bob", JoinAction("Deseret", "NV"))
		if _, err := w.Apply("alice", a); err != nil && err.Error() == "" {
			t.Fatalf("%q: refused without a reason", s)
		}
	})
}

func FuzzConfig(f *testing.F) {
	f.Add(string(sampleConfig))
	for _, s := range []string{
		"map: m.svg\nterritories: [{id: A, name: Ay, neighbors: []}]\n",
		`{"map": "m.svg", "territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}], "seed": 9}`,
		"map: m.svg\nturn_management: true\nturn_duration: 1h\nterritories: [{id: A, name: Ay, aliases: [x], neighbors: []}]\n",
		"map: [1]\n", "territories: 3\n", "- a\n- b\n", "{", "map: m.svg\nmax_armies: 99999999999999999999\n",
		"map: m.svg\nterritories: [{id: A, name: Ay, neighbors: [A]}]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig([]byte(s))
		if err != nil {
			msg := err.Error()
			if msg == "" || !strings.HasPrefix(msg, "config") || !utf8.ValidString(msg) && utf8.ValidString(s) {
				t.Fatalf("%q: error %q; want a message beginning with config:", s, msg)
			}
			return
		}
		// What is accepted is stored as JSON and reads back the same.
		back, err := ParseConfig(c.JSON())
		if err != nil {
			t.Fatalf("%q: the stored form %s does not read back: %v", s, c.JSON(), err)
		}
		if string(back.JSON()) != string(c.JSON()) {
			t.Fatalf("%q: %s reads back as %s", s, c.JSON(), back.JSON())
		}
		// Every territory is found by its id, name and aliases.
		for i, tr := range c.Territories {
			for _, ref := range append([]string{tr.ID, tr.Name}, tr.Aliases...) {
				if j, err := c.Lookup(ref); err != nil || j != i {
					t.Fatalf("%q: %q finds %d, %v; want %d", s, ref, j, err, i)
				}
			}
		}
	})
}

func FuzzParseColor(f *testing.F) {
	for _, s := range []string{"red", "#f00", "#ff000080", "rgb(255,0,0)", "rgba(1 2 3 / 50%)", "hsl(120, 100%, 50%)", "hsl(-1e9deg 1% 1%)", "RGB( 1 , 2 , 3 )"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseColor(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty error", s)
			}
			return
		}
		if len(c) != 7 || c[0] != '#' || strings.ToLower(string(c)) != string(c) {
			t.Fatalf("%q: %q is not #rrggbb", s, c)
		}
		if again, err := ParseColor(string(c)); err != nil || again != c {
			t.Fatalf("%q: %q reads back as %q, %v", s, c, again, err)
		}
	})
}

func FuzzLoadWorld(f *testing.F) {
	w := NewWorld(Sample())
	w.Apply("alice", JoinAction("Pacifica", "CA"))
	w.Apply("bob", JoinAction("Deseret", "NV"))
	b, _ := w.MarshalJSON()
	f.Add(string(b))
	f.Add(`{"seq":0,"dice":"AAAA","nations":[],"holdings":[]}`)
	f.Fuzz(func(t *testing.T, s string) {
		w, err := LoadWorld(Sample(), []byte(s))
		if err != nil {
			return
		}
		// A state that loads keeps the rules' invariants, and plays on.
		b, err := w.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			t.Fatalf("%q: writes bad JSON", s)
		}
		for k := range w.Nations() {
			for _, a := range w.Legal(k) {
				w.Clone().Apply(w.Nation(k).Player, a)
			}
		}
	})
}

// FuzzStepMove reads step moves as arbiter step does and applies what reads
// to a game: no input panics, and a refused action leaves the game as it
// was.
func FuzzStepMove(f *testing.F) {
	for _, s := range []string{`{"player": "alice", "action": "attack CA NV"}`, `{"action": "end-turn"}`,
		`{"player": "carol", "action": "join Cascadia WA"}`, `{"player": "alice"}`, `{}`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseStepMove([]byte(s))
		if err != nil {
			return
		}
		w := NewWorld(Sample())
		w.Apply("alice", JoinAction("Pacifica", "CA"))
		w.Apply("bob", JoinAction("Deseret", "NV"))
		before, _ := w.MarshalJSON()
		if _, err := Step(w, m); err != nil {
			if after, _ := w.MarshalJSON(); string(after) != string(before) {
				t.Fatalf("a refused step changed the game: %s", s)
			}
		}
	})
}

// FuzzParseStepState reads the state of arbiter step territories (its
// config and the world in it) from any input: it never panics, and a
// world it reads is written back as one it reads the same.
func FuzzParseStepState(f *testing.F) {
	w := NewWorld(Sample())
	w.Apply("alice", JoinAction("Pacifica", "CA"))
	cfg, _ := json.Marshal(Sample())
	state, _ := w.MarshalJSON()
	whole, _ := json.Marshal(StepState{Config: cfg, State: state})
	f.Add(string(whole))
	f.Add(`{"config": ` + string(cfg) + `}`)
	f.Add(`{"config": {}, "state": {}}`)
	f.Add(`{"state": {}}`)
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseStepState([]byte(s))
		if err != nil {
			return
		}
		out, err := w.MarshalJSON()
		if err != nil {
			t.Fatalf("a state read from %q does not write: %v", s, err)
		}
		again, err := LoadWorld(w.cfg, out)
		if err != nil {
			t.Fatalf("a state read from %q, written, does not read back: %v", s, err)
		}
		if back, _ := again.MarshalJSON(); string(back) != string(out) {
			t.Fatalf("a state read from %q reads back otherwise:\n%s\n%s", s, out, back)
		}
	})
}
