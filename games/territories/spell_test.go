package territories

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// A match reads a territory in any case and by its name or alias, and a
// seat's nation in any case; what it keeps, in its world and in the moves
// a host logs (Spell) or a person's answer (View.Parse), is the board's
// spelling: territories by their ids, the seat's nation as it is named.
func TestMatchKeepsTheBoardsSpelling(t *testing.T) {
	m, err := Game{}.NewMatch(engine.Setup{Players: []string{"a", "b"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	join, err := ParseAction("join amber cali")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Spell(0, join), JoinAction("Amber", "CA"); got != want {
		t.Errorf("Spell(join amber cali) = %v; want %v", got, want)
	}
	if err := m.Apply(0, join); err != nil {
		t.Fatal(err)
	}
	if got := m.World().Nation(0).Name; got != "Amber" {
		t.Errorf("seat 1 joined as %q; want its own nation's name, Amber", got)
	}
	if err := m.Apply(1, JoinAction("basalt", "nv")); err != nil {
		t.Fatal(err)
	}
	var v View
	for _, r := range m.Pending() {
		v = m.View(r.Seat)
	}
	own := "CA"
	if v.seat == 1 {
		own = "NV"
	}
	a, err := v.Parse("move " + strings.ToLower(own) + ":1 or")
	if err != nil || a != MoveAction(own, 1, "OR") {
		t.Errorf("Parse(move %s:1 or) = %v, %v; want move %s:1 OR", strings.ToLower(own), a, err, own)
	}
	// A territory that is none is left for the rules to refuse.
	if got, want := m.Spell(0, RaiseAction("Atlantis")), RaiseAction("Atlantis"); got != want {
		t.Errorf("Spell(raise Atlantis) = %v; want it as it was", got)
	}
	ref, err := Referee{}.New(engine.Setup{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := ref.(*Refereed).Spell(engine.Judge, Call{Player: "alice", Action: MoveAction("nevada", 2, "ut")})
	if want := (Call{Player: "alice", Action: MoveAction("NV", 2, "UT")}); c != want {
		t.Errorf("a referee's Spell = %+v; want %+v", c, want)
	}
}

// move CA 2 OR, the number of armies as a word of its own, is refused with
// the action it was meant for.
func TestMoveWithItsNumberApartSaysHowToWriteIt(t *testing.T) {
	for typed, meant := range map[string]string{
		"move ca 2 or":                "move CA:2 OR",
		"move New Mexico 3 arizona":   "move NM:3 AZ",
		"move az 1 New Mexico":        "move AZ:1 NM",
		`move "New Mexico" 2 Arizona`: "move NM:2 AZ",
	} {
		a, err := ParseAction(typed)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Sample().Resolve(a)
		if err == nil || !strings.Contains(err.Error(), "did you mean "+meant+"?") {
			t.Errorf("%s: %v; want it to suggest %s", typed, err, meant)
		}
	}
}
