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
		"attack CA NV UT":     "got 3 words",
		"move CA:0 NV":        "the number of armies to move, 1 to 1000",
		"move CA:x NV":        "the number of armies to move",
		"move CA:-1 NV":       "the number of armies to move",
		"move :2 NV":          "name the territory before the colon",
		"move new mexico AZ":  "got 3 words after move (put a name of several words in double quotes, or give a territory by its id)",
		"raise New Mexico":    "got 2 words after raise (put a name of several words in double quotes",
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
