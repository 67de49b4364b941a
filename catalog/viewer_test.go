package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
)

// record plays one match of game among players and returns its record.
func record(t testing.TB, game string, players []string, options map[string]string) []byte {
	t.Helper()
	g, err := catalog.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = g.Series(context.Background(), catalog.SeriesOptions{Players: players, Seed: 11400714819323198485, Games: 1, Options: options,
		Played: func(p catalog.Played) error { return p.WriteRecord(&b) }})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rebuild makes every view of a viewpoint again from its frames, as the
// viewer does: the keyframe at or before each step, then the changes.
func rebuild(t *testing.T, f *catalog.Frames) []any {
	t.Helper()
	var out []any
	var cur any
	for i, d := range f.Deltas {
		if i%f.Every == 0 {
			cur = decode(t, f.Keys[i/f.Every])
		} else {
			var ops [][]json.RawMessage
			if err := json.Unmarshal(d, &ops); err != nil {
				t.Fatal(err)
			}
			for _, op := range ops {
				cur = apply(t, cur, op)
			}
		}
		b, _ := json.Marshal(cur)
		out = append(out, decode(t, b))
	}
	return out
}

func decode(t *testing.T, b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// apply applies one change to a view.
func apply(t *testing.T, root any, op []json.RawMessage) any {
	var kind string
	var path []any
	json.Unmarshal(op[0], &kind)
	json.Unmarshal(op[1], &path)
	if len(path) == 0 {
		if kind != "s" {
			t.Fatalf("change %s of the root", kind)
		}
		return decode(t, op[2])
	}
	parent := root
	for _, k := range path[:len(path)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[k.(string)]
		case []any:
			parent = p[int(k.(float64))]
		}
	}
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		switch kind {
		case "s":
			p[last.(string)] = decode(t, op[2])
		case "d":
			delete(p, last.(string))
		case "t":
			var n int
			json.Unmarshal(op[2], &n)
			p[last.(string)] = p[last.(string)].([]any)[:n]
		case "p":
			var n int
			json.Unmarshal(op[2], &n)
			p[last.(string)] = append([]any(nil), p[last.(string)].([]any)[n:]...)
		}
	case []any:
		i := int(last.(float64))
		switch kind {
		case "s":
			v := decode(t, op[2])
			if i == len(p) {
				p = append(p, v)
				return setAt(t, root, path[:len(path)-1], p)
			}
			p[i] = v
		case "t":
			var n int
			json.Unmarshal(op[2], &n)
			return setAt(t, root, path, p[i].([]any)[:n])
		case "p":
			var n int
			json.Unmarshal(op[2], &n)
			return setAt(t, root, path, append([]any(nil), p[i].([]any)[n:]...))
		}
	}
	return root
}

// setAt puts v at path in root.
func setAt(t *testing.T, root any, path []any, v any) any {
	if len(path) == 0 {
		return v
	}
	parent := root
	for _, k := range path[:len(path)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[k.(string)]
		case []any:
			parent = p[int(k.(float64))]
		}
	}
	switch p := parent.(type) {
	case map[string]any:
		p[path[len(path)-1].(string)] = v
	case []any:
		p[int(path[len(path)-1].(float64))] = v
	}
	return root
}

// viewsOf replays a record with a live match and returns, for every move,
// each viewpoint's view: what the viewer must show.
func viewsOf(t *testing.T, game, mode string, rec []byte) (map[string][]any, map[string][]int) {
	t.Helper()
	r, err := engine.ReadRecord[json.RawMessage](bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.Find(game)
	live, err := g.(catalog.LiveGame).NewLive(context.Background(), catalog.LiveSetup{Setup: r.Header.Setup, Mode: mode, Quiet: true})
	if err != nil {
		// Names of bots the live match does not know: people instead.
		setup := r.Header.Setup
		setup.Players = make([]string, len(setup.Players))
		for i := range setup.Players {
			setup.Players[i] = catalog.Person
		}
		if live, err = g.(catalog.LiveGame).NewLive(context.Background(), catalog.LiveSetup{Setup: setup, Mode: mode, Quiet: true}); err != nil {
			t.Fatal(err)
		}
	}
	views := map[string][]any{}
	seqs := map[string][]int{}
	add := func(seq int, seen func(string) bool) {
		ids := []string{"judge", "public"}
		for s := range live.Seats() {
			ids = append(ids, fmt.Sprintf("seat:%d", s))
		}
		for _, id := range ids {
			if !seen(id) {
				continue
			}
			var v json.RawMessage
			switch {
			case id == "judge":
				v = live.View(engine.Judge)
			case id == "public":
				v = live.Public()
			default:
				var s int
				fmt.Sscanf(id, "seat:%d", &s)
				v = live.View(s)
			}
			views[id] = append(views[id], decode(t, v))
			seqs[id] = append(seqs[id], seq)
		}
	}
	add(0, func(string) bool { return true })
	for i, st := range r.Steps {
		before := len(live.Pending())
		if err := live.Apply(st.Seat, st.Move); err != nil {
			t.Fatal(err)
		}
		after := len(live.Pending())
		quiet := st.Seat != engine.Judge && after > 0 && after == before-1
		add(i+1, func(id string) bool { return !quiet || id == "judge" || id == fmt.Sprintf("seat:%d", st.Seat) })
	}
	return views, seqs
}

func TestViewerShowsWhatEachViewpointSaw(t *testing.T) {
	// "Views computed in Go by replaying the record, per move or
	// keyframe+deltas": the frames rebuild, at every step, exactly the
	// view the viewpoint had then; a seat sees neither another's moves
	// nor the moves that left a round open (a zombie plan, a TNCC war's
	// flanks, a choice made at once), except in territories, whose every
	// action, its roll and losses included, is public.
	games := []struct {
		game, mode string
		players    []string
		options    map[string]string
	}{
		{"ajveciv", "", []string{"basic.conquer", "random", "basic.develop"}, map[string]string{"turns": "25"}},
		{"reaj", "", []string{"steward", "random", "adapt"}, map[string]string{"turns": "30"}},
		{"tncc", "", []string{"trader", "war", "blitz"}, map[string]string{"max_cycles": "20", "preset": `{"base":"default","gold_for_war":300,"max_cycles":20}`}},
		{"zombie", "party", []string{"sensible", "random", "spreader", "cautious", "sensible"}, map[string]string{"turns": "4", "antibodies": "1", "viruses": "1"}},
		{"territories", "seats", []string{"greedy", "random", "greedy"}, map[string]string{"turns": "12"}},
	}
	for _, g := range games {
		t.Run(g.game, func(t *testing.T) {
			opts := g.options
			if g.game == "tncc" {
				opts = map[string]string{"preset": g.options["preset"]}
			}
			rec := record(t, g.game, g.players, opts)
			v, err := catalog.ReplayViewer(rec, catalog.ViewerOptions{Every: 7})
			if err != nil {
				t.Fatal(err)
			}
			if v.Game != g.game || v.Mode != g.mode {
				t.Errorf("game %q mode %q; want %q %q", v.Game, v.Mode, g.game, g.mode)
			}
			want, seqs := viewsOf(t, g.game, g.mode, rec)
			public := g.game == "territories" // the only game whose moves are public
			battles := map[string]int{}
			if len(v.Views) != 2+len(v.Players) {
				t.Fatalf("%d viewpoints; want the judge, the public and %d seats", len(v.Views), len(v.Players))
			}
			for _, vv := range v.Views {
				got := rebuild(t, vv.Frames)
				if len(got) != len(want[vv.ID]) || len(vv.Steps) != len(got) {
					t.Fatalf("%s: %d frames, %d steps; want %d", vv.ID, len(got), len(vv.Steps), len(want[vv.ID]))
				}
				for i := range got {
					if vv.Steps[i].Seq != seqs[vv.ID][i] {
						t.Fatalf("%s: step %d is move %d; want %d", vv.ID, i, vv.Steps[i].Seq, seqs[vv.ID][i])
					}
					if !reflect.DeepEqual(got[i], want[vv.ID][i]) {
						t.Fatalf("%s: the view at move %d differs:\n got %v\nwant %v", vv.ID, vv.Steps[i].Seq, got[i], want[vv.ID][i])
					}
					st := vv.Steps[i]
					switch {
					case public && st.Seat != nil && (st.Move == nil || st.Told == nil || st.Told.Text == "" || len(st.Told.Outcome) == 0):
						// Territories' actions are public: every
						// viewpoint sees each, and what it did.
						t.Fatalf("%s does not see public move %d of seat %d: move %s, told %+v", vv.ID, st.Seq, *st.Seat, st.Move, st.Told)
					case public:
					case st.Told != nil:
						t.Fatalf("%s is told what move %d did: %+v", vv.ID, st.Seq, st.Told)
					case vv.ID != "judge" && st.Move != nil && (st.Seat == nil || vv.ID != fmt.Sprintf("seat:%d", *st.Seat)):
						t.Fatalf("%s sees move %d of seat %v: %s", vv.ID, st.Seq, st.Seat, st.Move)
					}
					if st.Told != nil && strings.Contains(string(st.Told.Outcome), `"roll"`) {
						battles[vv.ID]++
					}
				}
			}
			if public {
				// Every viewpoint is told each battle's roll and losses,
				// as the terminal tells every seat since its last action.
				for _, vv := range v.Views {
					if battles[vv.ID] == 0 || battles[vv.ID] != battles["judge"] {
						t.Errorf("%s is told of %d battles; the judge of %d", vv.ID, battles[vv.ID], battles["judge"])
					}
				}
			}
			if v.Measures == nil || len(v.Measures.Points) < 2 {
				t.Errorf("measures %+v; want a point per %s", v.Measures, v.Clock)
			}
			b, _ := json.Marshal(v)
			if seed := fmt.Sprint(engineSeed(t, rec)); strings.Contains(string(b), seed) {
				t.Errorf("the viewer holds the match's seed %s", seed)
			}
		})
	}
}

func engineSeed(t *testing.T, rec []byte) uint64 {
	h, err := engine.ReadHeader(bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	return h.Setup.Seed
}

func TestViewpoints(t *testing.T) {
	for _, s := range []string{"judge", "public", "seat:0", "seat:12"} {
		v, err := catalog.ParseViewpoint(s)
		if err != nil || v.String() != s {
			t.Errorf("%q: %v, %v", s, v, err)
		}
	}
	for _, s := range []string{"", "seat:-1", "everyone", "seat:x"} {
		if _, err := catalog.ParseViewpoint(s); !catalog.IsInvalid(err) {
			t.Errorf("%q: %v; want invalid input", s, err)
		}
	}
}
