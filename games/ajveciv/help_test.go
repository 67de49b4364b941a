package ajveciv

import (
	"strings"
	"testing"
)

func TestHelpExplainsOfferedValuesFirstThenTheOthers(t *testing.T) {
	// Help explains the three values offered, then the other three,
	// saying they are not offered this turn; every line fits 80 columns.
	_, setup := basicSeatsN(t, 3)
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0)
	help := v.Help()
	not := strings.Index(help, "Not offered this turn (each turn draws three of your six values):\n")
	if not < 0 {
		t.Fatalf("help does not say what is not offered:\n%s", help)
	}
	offered := v.Offered()
	for _, x := range AllValues {
		line := "  " + x.String() + strings.Repeat(" ", 10-len(x.String())) + valueEffects[x] + "\n"
		at := strings.Index(help, line)
		switch {
		case at < 0:
			t.Errorf("help does not explain %s:\n%s", x, help)
		case (at < not) != containsValue(offered, x):
			t.Errorf("%s (offered: %v) is on the wrong side of the offered ones:\n%s", x, containsValue(offered, x), help)
		}
	}
	for _, line := range strings.Split(help, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
}

func containsValue(vs []Value, x Value) bool {
	for _, v := range vs {
		if v == x {
			return true
		}
	}
	return false
}

func TestHelpAtAnInflection(t *testing.T) {
	// At an inflection the help says what choosing does, which values are
	// offered and which are not, in lines of 80 columns.
	_, setup := basicSeatsN(t, 3)
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	for !m.View(0).Inflection() {
		for _, r := range m.Pending() {
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
	}
	v := m.View(0)
	help := v.Help()
	var others []string
	for _, x := range AllValues {
		if !containsValue(v.Offered(), x) {
			others = append(others, x.String())
		}
	}
	for _, want := range []string{"the one you\nchoose rises by 2, the other two fall by 1", "Not offered at this inflection: " + strings.Join(others, ", ") + ".\n"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help at an inflection lacks %q:\n%s", want, help)
		}
	}
	for _, line := range strings.Split(help, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
}
