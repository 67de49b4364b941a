package territories

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	for in, want := range map[string]Action{
		"join Pacifica CA":              JoinAction("Pacifica", "CA"),
		`join "New Spain" "New Mexico"`: JoinAction("New Spain", "New Mexico"),
		"JOIN Pacifica ca":              JoinAction("Pacifica", "ca"),
		"color red":                     ColorAction("#ff0000"),
		"colour rgb(0, 128, 0)":         ColorAction("#008000"),
		"move CA:2 NV":                  MoveAction("CA", 2, "NV"),
		"move CA NV":                    MoveAction("CA", 0, "NV"),
		`move "New Mexico":1 AZ`:        MoveAction("New Mexico", 1, "AZ"),
		"raise CA":                      RaiseAction("CA"),
		"  attack   CA   NV  ":          AttackAction("CA", "NV"),
		"pass":                          PassAction,
		"end-turn":                      EndTurnAction,
	} {
		got, err := ParseAction(in)
		if err != nil || got != want {
			t.Errorf("ParseAction(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		back, err := ParseAction(got.String())
		if err != nil || back != got {
			t.Errorf("%q writes as %q, which reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for in, want := range map[string]string{
		"":                    "empty action",
		"fly CA NV":           `unknown action "fly"; the actions are join NATION TERRITORY`,
		"attak CA NV":         `unknown action "attak"; did you mean attack CA NV? The actions are join NATION TERRITORY`,
		"Rasie CA":            `unknown action "Rasie"; did you mean raise CA?`,
		`jion "New Spain" CA`: `unknown action "jion"; did you mean join? The actions are`,
		"attack CA":           "attack takes where from and where to",
		"move CA:0 NV":        "the number of armies to move, 1 to 1000",
		"move CA:x NV":        "the number of armies to move",
		"move CA:-1 NV":       "the number of armies to move",
		"move :2 NV":          "name the territory before the colon",
		"join Pacifica":       "join takes a nation's name and a territory: join NATION TERRITORY; got 1 word after join",
		`join "Pacifica CA`:   "a double quote is not closed",
		`join "" CA`:          "an argument is empty",
		"color":               "color takes a colour",
		"color mauvish":       `"mauvish" is not a colour`,
		"raise":               "raise takes a territory",
		"pass now":            "pass takes nothing",
		"join " + strings.Repeat("x", 100) + " CA": "longer than 64",
		strings.Repeat("x", 600):                   "at most 512",
	} {
		_, err := ParseAction(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAction(%q): %v; want an error with %q", in, err, want)
		}
	}
}

func TestNamesOfSeveralWordsWithoutQuotes(t *testing.T) {
	// A chat's players type names as they say them: raise New Mexico,
	// with no quotes. Where the map splits the words into the action's
	// names one way only, that is the action; otherwise the refusal says
	// how the words read, and to quote.
	c := Sample()
	for in, want := range map[string]Action{
		"raise New Mexico":              RaiseAction("NM"),
		"raise new mexico":              RaiseAction("NM"),
		"move New Mexico:2 Arizona":     MoveAction("NM", 2, "AZ"),
		"move AZ:1 New Mexico":          MoveAction("AZ", 1, "NM"),
		"move Arizona New Mexico":       MoveAction("AZ", 0, "NM"),
		"attack New Mexico Colorado":    AttackAction("NM", "CO"),
		"join New Spain New Mexico":     JoinAction("New Spain", "NM"),
		`join "New Spain" New Mexico`:   JoinAction("New Spain", "NM"),
		"join Pacifica 🌊 California":    JoinAction("Pacifica 🌊", "CA"),
		"join The Golden State Calif":   JoinAction("The Golden State", "CA"),
		"JOIN A B C D E F G H I J Utah": JoinAction("A B C D E F G H I J", "UT"),
	} {
		a, err := ParseAction(in)
		if err != nil {
			t.Errorf("ParseAction(%q): %v", in, err)
			continue
		}
		if back, err := ParseAction(a.String()); err != nil || back != a {
			t.Errorf("%q writes as %q, which reads back as %+v, %v", in, a.String(), back, err)
		}
		got, err := c.Resolve(a)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, words := range map[string][]string{
		"raise New Mexcio":                           {"unknown territory", `"New Mexcio"`, "NM (New Mexico)"},
		"attack New Mexico New Mexcio":               {"not two territories", `"New Mexcio"`, "NM (New Mexico)", "double quotes"},
		"move New Mexcio:2 Arizona":                  {"not two territories", `"New Mexcio"`, "NM (New Mexico)"},
		"move AZ:2 Foo bar":                          {`"Foo bar"`, "move FROM[:N] TO"},
		"join New Spain Nowhere":                     {"no territory is named by its last words", `"Nowhere"`, "join NATION TERRITORY", "double quotes"},
		"join " + strings.Repeat("word ", 20) + "CA": {"the nation's name", "longer than 64 characters"},
	} {
		a, err := ParseAction(in)
		if err != nil {
			t.Errorf("ParseAction(%q): %v", in, err)
			continue
		}
		_, err = c.Resolve(a)
		wantRefused(t, in, err, words...)
	}
	// Two ways to read the words: refused, with both.
	amb, err := ParseConfig([]byte(`territories:
  - {id: N, name: North, neighbors: [NB, BS, S]}
  - {id: NB, name: North Bay, neighbors: [N, BS, S]}
  - {id: BS, name: Bay Shore, neighbors: [N, NB, S]}
  - {id: S, name: Shore, neighbors: [N, NB, BS]}
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := ParseAction("attack North Bay Shore")
	_, err = amb.Resolve(a)
	wantRefused(t, "attack North Bay Shore", err, `reads as attack North "Bay Shore" or as attack "North Bay" Shore`, "double quotes")
	// The rules read them too, as the referee's store and the seats'
	// game apply them.
	w := NewWorld(c)
	for _, line := range []string{"ann join New Spain New Mexico", "bob join Deseret Nevada", "ann raise New Mexico"} {
		player, action, _ := strings.Cut(line, " ")
		a, _ := ParseAction(action)
		if _, err := w.Apply(player, a); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	nm, _ := c.Lookup("NM")
	if h := w.Holding(nm); h.Armies != 4 {
		t.Errorf("New Mexico has %d armies after a join and a raise; want 4", h.Armies)
	}
}

func TestActionJSON(t *testing.T) {
	a := MoveAction("CA", 2, "NV")
	b, err := json.Marshal(a)
	if err != nil || string(b) != `"move CA:2 NV"` {
		t.Fatalf("%s, %v", b, err)
	}
	var back Action
	if err := json.Unmarshal(b, &back); err != nil || back != a {
		t.Errorf("%+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`"move CA:0 NV"`), &back); err == nil {
		t.Error("a bad action in JSON is accepted")
	}
}

func TestSampleFilesShip(t *testing.T) {
	// "A sample map and configuration ship with the project so that a
	// newcomer can play a full game from the README." The embedded copies
	// are the files in examples/territories.
	for name, embedded := range map[string][]byte{"config.yaml": sampleConfig, "map.svg": sampleMap} {
		b, err := os.ReadFile("../../examples/territories/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(embedded) {
			t.Errorf("examples/territories/%s differs from games/territories/sample/%s", name, name)
		}
	}
	c := Sample()
	if c.Len() != 11 || c.Map != "map.svg" || c.SeedValue() != 3 || c.MinNations != 2 {
		t.Errorf("the sample: %d territories, map %s, seed %d, min_nations %d", c.Len(), c.Map, c.SeedValue(), c.MinNations)
	}
}

func TestClosest(t *testing.T) {
	c := Sample()
	for ref, want := range map[string]string{"Nevda": "NV", "calif": "CA", "Mont": "MT", "new mex": "NM", "UTT": "UT", "wyomin": "WY"} {
		got := c.Closest(ref, 3)
		if len(got) == 0 || c.Territory(got[0]).ID != want {
			var ids []string
			for _, i := range got {
				ids = append(ids, c.Territory(i).ID)
			}
			t.Errorf("Closest(%q) = %v; want %s first", ref, ids, want)
		}
	}
}
