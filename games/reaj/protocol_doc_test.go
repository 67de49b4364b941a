package reaj

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/doctest"
)

func TestProtocolDocumentsTheDead(t *testing.T) {
	// docs/protocol.md: "A dead society's entry in societies has "dead":
	// true and "died", the turn it died in (from 1), and resources 0; a
	// living one has neither field. A dead society is not asked again: its
	// seat gets no more requests until the result."
	doctest.Says(t, "../../docs/protocol.md", "A dead society's entry in `societies` has `\"dead\": true` and `\"died\"`, the turn it died in (from 1), and resources 0; a living one has neither field")
	// Society 1 expands every turn, its upkeep growing, until neither its
	// resources nor the environment's cover it; the others conquer.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "100"}})
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; !m.state.Societies[0].Dead; turn++ {
		if m.Over() {
			t.Fatal("the game ended with society 1 alive")
		}
		for _, r := range m.Pending() {
			v := Conquer
			if r.Seat == 0 {
				v = Expand
			}
			if err := m.Apply(r.Seat, v); err != nil {
				t.Fatal(err)
			}
		}
		if m.state.Societies[0].Dead && m.state.Societies[0].Died != turn {
			t.Fatalf("society 1 died in turn %d; died says %d", turn, m.state.Societies[0].Died)
		}
	}
	died := m.state.Societies[0].Died
	var view struct {
		Societies []map[string]any `json:"societies"`
	}
	b, _ := json.Marshal(m.View(1))
	if err := json.Unmarshal(b, &view); err != nil {
		t.Fatal(err)
	}
	dead, living := view.Societies[0], view.Societies[1]
	if dead["dead"] != true || dead["died"] != float64(died) || dead["resources"] != float64(0) {
		t.Errorf("the dead society in the view: %v; want dead true, died %d, resources 0", dead, died)
	}
	if _, ok := living["dead"]; ok {
		t.Errorf("a living society has dead: %v", living)
	}
	if _, ok := living["died"]; ok {
		t.Errorf("a living society has died: %v", living)
	}
	if m.Over() {
		t.Fatal("the game ended with society 1's death")
	}
	for turns := 0; !m.Over(); turns++ {
		for _, r := range m.Pending() {
			if r.Seat == 0 {
				t.Fatalf("the dead society is asked, %d turns after its death", turns)
			}
			if err := m.Apply(r.Seat, Conquer); err != nil {
				t.Fatal(err)
			}
		}
	}
}
