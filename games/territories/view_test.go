package territories

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestViewJoinByIDNameOrAlias(t *testing.T) {
	// "at the join prompt accept a territory's id, name or alias (CA is
	// refused today)"
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"repl", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0)
	for _, in := range []string{"CA", "ca", "California", "Cali", "join CA", "join Amber california", `join "Amber" Calif`} {
		a, err := v.Parse(in)
		if err != nil || a != JoinAction("Amber", "CA") {
			t.Errorf("Parse(%q) = %v, %v; want join Amber CA", in, a, err)
		}
	}
	if _, err := v.Parse("join Pacifica CA"); err == nil || !strings.Contains(err.Error(), "your nation is Amber") {
		t.Errorf("another nation's name: %v", err)
	}
	if _, err := v.Parse("Califronia"); err == nil || !strings.Contains(err.Error(), "CA (California)") {
		t.Errorf("a typo: %v; want the closest territories", err)
	}
	// Another action before the nation is founded is told as that.
	for _, in := range []string{"attack CA", "raise", "move CA OR", "pass"} {
		if _, err := v.Parse(in); err == nil || !strings.Contains(err.Error(), "Amber has not joined yet: name a free territory to found it on (WA") {
			t.Errorf("Parse(%q) at the join: %v; want it told to join first", in, err)
		}
	}
	if got := v.ChoiceName(JoinAction("Amber", "WA")); got != "WA" {
		t.Errorf("a join's choice is named %q; want its territory", got)
	}
}

func TestViewJoinTellsTheNationsNameIsGiven(t *testing.T) {
	// A seat's nation is named for it (Amber for the first): the join
	// prompt says so, and a join that names a nation of its own over a
	// mistyped territory (join Foo Califronia) is told the name is given,
	// and complained of for the territory alone, with its closest ones.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"repl", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0)
	board := strings.Join(strings.Fields(v.String()), " ")
	if want := "your nation is Amber (its name is given)"; !strings.Contains(board, want) || strings.Contains(board, "join Amber TERRITORY") {
		t.Errorf("the join prompt does not say the nation's name is given:\n%s", v.String())
	}
	_, err = v.Parse("join Foo Califronia")
	if err == nil || !strings.Contains(err.Error(), "your nation is Amber") || !strings.Contains(err.Error(), `unknown territory "Califronia"; the closest are CA (California)`) || strings.Contains(err.Error(), "Foo") {
		t.Errorf("join Foo Califronia: %v; want the name given and Califronia alone complained of", err)
	}
	// A territory of two words mistyped stays one territory.
	if _, err := v.Parse("join New Mexcio"); err == nil || !strings.Contains(err.Error(), `unknown territory "New Mexcio"; the closest are NM (New Mexico)`) {
		t.Errorf("join New Mexcio: %v", err)
	}
	// The nation's own name before a mistyped territory: the territory alone.
	if _, err := v.Parse("join Amber Califronia"); err == nil || !strings.Contains(err.Error(), `unknown territory "Califronia"`) {
		t.Errorf("join Amber Califronia: %v", err)
	}
}

func TestViewTellsWhatHappened(t *testing.T) {
	// "a person's armies vanish without a word (another nation's attack is
	// never shown). Show what happened since your last action (every action
	// and battle with its dice), your neighbours, and the map as text."
	sawAttack := false
	for seed := uint64(1); seed <= 10 && !sawAttack; seed++ {
		sawAttack = playAsPerson(t, seed)
	}
	if !sawAttack {
		t.Error("in ten games the person was never told of an attack on them, with its roll")
	}
}

// playAsPerson plays a game as a person who passes, against two random
// bots, checking every view the person is shown; it
// reports whether a view told of an attack on the person, with its roll.
func playAsPerson(t *testing.T, seed uint64) (sawAttack bool) {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: []string{"repl", "random", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	bots := []Bot{nil, Random(), Random()}
	for turns := 0; !m.Over() && turns < 1000; turns++ {
		r := m.Pending()[0]
		if r.Seat == 0 {
			text := m.View(0).String()
			for _, want := range []string{"Nations:", "seat 2 random", "Map:", "held by", "neighbours", "WA Washington"} {
				if r.Kind == ActionKind && !strings.Contains(text, want) {
					t.Fatalf("the view lacks %q:\n%s", want, text)
				}
			}
			if flat := strings.Join(strings.Fields(text), " "); strings.Contains(flat, "attacks Amber") && strings.Contains(flat, "roll ") {
				sawAttack = true
			}
			if r.Kind == ActionKind && !strings.Contains(text, "Since your last action:\n  seat 1 ") {
				t.Fatalf("the view does not begin with the person's own last action:\n%s", text)
			}
			for _, line := range strings.Split(text, "\n") {
				if n := len([]rune(line)); n > 80 {
					t.Fatalf("a line of %d columns:\n%s", n, line)
				}
			}
			a := r.Default
			if r.Kind == ActionKind {
				a = PassAction
			}
			if err := m.Apply(0, a); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var a Action
		if r.Kind == JoinKind {
			a, err = bots[r.Seat].Join(m.View(r.Seat))
		} else {
			a, err = bots[r.Seat].Act(m.View(r.Seat))
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(r.Seat, a); err != nil {
			t.Fatal(err)
		}
	}
	return sawAttack
}

func TestViewTellsAPersonTheirNationIsOut(t *testing.T) {
	// A person whose nation loses its last army is told at once, in which
	// turn and by whom (player.Knockout), while the others play on.
	for seed := uint64(1); seed <= 20; seed++ {
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: []string{"repl", "greedy", "greedy"}})
		if err != nil {
			t.Fatal(err)
		}
		for turns := 0; !m.Over() && turns < 1000; turns++ {
			out := m.View(0).Out()
			if k := m.View(0).Nation(); (k < 0 || m.w.nations[k].In()) != (out == "") {
				t.Fatalf("seed %d: Amber is nation %d, and its view says %q", seed, k, out)
			}
			if out != "" {
				o := m.recent[(m.told-1)%recentSize]
				want := fmt.Sprintf("Your nation Amber is out of the game in turn %d: %s took its last army, in %s", o.Turn, o.Nation, o.To)
				if out != want || o.Removed != "Amber" {
					t.Fatalf("seed %d: the view says %q; want %q", seed, out, want)
				}
				t.Log(out)
				return
			}
			r := m.Pending()[0]
			a := r.Default
			if r.Seat != 0 {
				if r.Kind == JoinKind {
					a, err = Greedy().Join(m.View(r.Seat))
				} else {
					a, err = Greedy().Act(m.View(r.Seat))
				}
				if err != nil {
					t.Fatal(err)
				}
			} else if r.Kind == ActionKind {
				a = PassAction
			}
			if err := m.Apply(r.Seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Error("in 20 games the person's nation was never put out")
}

func TestViewOffersTheClosestActionOfTheTurn(t *testing.T) {
	// A mistyped action is answered with the action it looks like, and
	// only the actions a seat may take on its turn: not a founding's join,
	// a colour, nor the judge's end-turn.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 5, Players: []string{"repl", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	for m.Pending()[0].Kind == JoinKind {
		r := m.Pending()[0]
		if err := m.Apply(r.Seat, r.Default); err != nil {
			t.Fatal(err)
		}
	}
	v := m.View(m.Pending()[0].Seat)
	for line, want := range map[string]string{
		"mvoe OR:1 WA": `unknown action "mvoe"; did you mean move OR:1 WA? Your actions now: raise TERRITORY, move FROM[:N] TO, attack FROM TO, or pass`,
		"atack WA OR":  `unknown action "atack"; did you mean attack WA OR?`,
		"psas":         `unknown action "psas"; did you mean pass?`,
		"fortify WA":   `unknown action "fortify"; your actions now: raise TERRITORY, move FROM[:N] TO, attack FROM TO, or pass`,
	} {
		_, err := v.Parse(line)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "end-turn") || strings.Contains(err.Error(), "join") {
			t.Errorf("Parse(%q): %v; want %s", line, err, want)
		}
	}
}

// TestViewHelpAtJoin: a person asked to join is told the army the board
// starts a nation with, its initial_armies, in lines of 80 columns.
func TestViewHelpAtJoin(t *testing.T) {
	c := *Sample()
	c.InitialArmies = 4
	for board, want := range map[string]string{"sample": "with 3 armies", string(c.JSON()): "with 4 armies"} {
		m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"repl", "greedy"}, Options: map[string]string{"board": board}})
		if err != nil {
			t.Fatal(err)
		}
		help := m.View(m.Pending()[0].Seat).Help()
		if !strings.Contains(help, want) {
			t.Errorf("the help at a join lacks %q:\n%s", want, help)
		}
		for _, line := range strings.Split(help, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("a line of %d columns: %q", n, line)
			}
		}
	}
}

// TestViewHelpSaysMaxArmies: a person's help at their turn gives the most
// armies a territory holds, the board's max_armies, which the board does
// not show.
func TestViewHelpSaysMaxArmies(t *testing.T) {
	c := *Sample()
	c.MaxArmies = 7
	for board, want := range map[string]string{"sample": "(at most 5 in one)", string(c.JSON()): "(at most 7 in one)"} {
		m, err := Game{}.NewMatch(engine.Setup{Seed: 5, Players: []string{"repl", "greedy"}, Options: map[string]string{"board": board}})
		if err != nil {
			t.Fatal(err)
		}
		for m.Pending()[0].Kind == JoinKind {
			r := m.Pending()[0]
			if err := m.Apply(r.Seat, r.Default); err != nil {
				t.Fatal(err)
			}
		}
		if help := m.View(m.Pending()[0].Seat).Help(); !strings.Contains(help, want) || strings.Contains(help, "max_armies") {
			t.Errorf("the help lacks %q:\n%s", want, help)
		}
	}
}

// vandal takes the first legal action, and when scrawl is set first writes
// into the configuration its view shows it, and into the configuration of
// the world its view shows it: every territory renamed, its first
// neighbour made up (by name and by number), a territory's armies capped
// at 1.
type vandal struct{ scrawl bool }

func (b vandal) first(v View) (Action, error) {
	if b.scrawl {
		for _, c := range []*Config{v.Config(), v.World().Config()} {
			for i := range c.Territories {
				c.Territories[i].ID, c.Territories[i].Name = "X", "X"
				c.Territories[i].Neighbors[0] = "nowhere"
				c.Neighbors(i)[0] = (i + 5) % c.Len()
			}
			c.MaxArmies = 1
		}
	}
	return v.Legal()[0], nil
}

func (b vandal) Join(v View) (Action, error) { return b.first(v) }
func (b vandal) Act(v View) (Action, error)  { return b.first(v) }

func TestConfigWrittenByABotChangesNothingElse(t *testing.T) {
	// A bot that writes into the configuration it is shown changes neither
	// the match's, nor the sample's that every match shares, nor what the
	// other seats are shown; the other seats play as they would have, and
	// the record replays.
	want := Sample().Territories[0]
	want.Neighbors = slices.Clone(want.Neighbors)
	adjacency := make([][]int, Sample().Len())
	for i := range adjacency {
		adjacency[i] = slices.Clone(Sample().Neighbors(i))
	}
	play := func(first Bot) *engine.Record[Action] {
		s := engine.Series[Action, View]{Ruleset: Game{}, Seed: 4}
		s.Options = map[string]string{"turns": "10"}
		s.Played = func(_ int, _ *engine.Record[Action], m engine.Match[Action, View]) error {
			if got := m.(*Match).World().Config().Territories[0]; !reflect.DeepEqual(got, want) {
				t.Errorf("the match's first territory at the end: %+v; want %+v", got, want)
			}
			for i := range adjacency {
				if got := m.(*Match).World().Config().Neighbors(i); !slices.Equal(got, adjacency[i]) {
					t.Errorf("the match's neighbours of territory %d at the end: %v; want %v", i, got, adjacency[i])
				}
			}
			if got := m.View(1).Config().Territories[0]; !reflect.DeepEqual(got, want) {
				t.Errorf("seat 2's first territory at the end: %+v; want %+v", got, want)
			}
			return nil
		}
		s.Game(engine.Seat[Action, View]{Name: "first", Player: Player(first)}, engine.Seat[Action, View]{Name: "general", Player: Player(General())})
		recs, err := s.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Replay[Action, View](Game{}, recs[0], nil); err != nil {
			t.Error(err)
		}
		return recs[0]
	}
	got, clean := play(vandal{scrawl: true}), play(vandal{})
	if s := Sample().Territories[0]; !reflect.DeepEqual(s, want) || Sample().MaxArmies != DefaultMaxArmies {
		t.Errorf("the sample's first territory: %+v, max armies %d; want %+v, %d", s, Sample().MaxArmies, want, DefaultMaxArmies)
	}
	if len(got.Steps) != len(clean.Steps) {
		t.Fatalf("%d moves beside the vandal, %d beside greedy alone; want the same game", len(got.Steps), len(clean.Steps))
	}
	for i := range got.Steps {
		if got.Steps[i] != clean.Steps[i] {
			t.Fatalf("move %d: %+v beside the vandal, %+v beside greedy alone; want the same game", i+1, got.Steps[i], clean.Steps[i])
		}
	}
}

func TestViewWorldIsRewrittenAtEveryCall(t *testing.T) {
	// "The copy is made into the same memory at every call ... a World
	// kept from an earlier call is the one returned now, reset to the
	// match's state ... To keep a world while trying actions on another,
	// Clone it."
	rec, _ := play(t, 2, map[string]string{"turns": "3"}, "greedy", "greedy")
	m, err := Game{}.NewMatch(rec.Header.Setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range rec.Steps[:2] {
		if err := m.Apply(st.Seat, st.Move); err != nil {
			t.Fatal(err)
		}
	}
	v := m.View(m.Pending()[0].Seat)
	first := v.World()
	kept := first.Clone()
	if _, err := first.Apply(v.Player(), v.Legal()[0]); err != nil {
		t.Fatal(err)
	}
	tried := first.Seq()
	second := v.World()
	if second != first || first.Seq() != kept.Seq() || tried != kept.Seq()+1 {
		t.Errorf("second call: same world %v, its sequence %d after %d tried; want the same world, reset to %d", second == first, first.Seq(), tried, kept.Seq())
	}
}
