package territories

import (
	"context"
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

// lowercase answers as its player does, typed in lower case ("join amber
// ca", "move ca:2 or"), as a program may send it. It is not
// engine.Bounded: the runner takes it for a player from outside.
type lowercase struct{ engine.Player[Action, View] }

func (l lowercase) Decide(ctx context.Context, req *engine.Request[Action], v View) (Action, error) {
	a, err := l.Player.Decide(ctx, req, v)
	if err != nil {
		return a, err
	}
	return ParseAction(strings.ToLower(a.String()))
}

// Start seeds its player as the match seeds it.
func (l lowercase) Start(ctx context.Context, info engine.MatchInfo) error {
	if s, ok := l.Player.(engine.Starter); ok {
		return s.Start(ctx, info)
	}
	return nil
}

// The match runner keeps a move of a player it does not take for a
// built-in one (a program, a person) in the board's spelling, as arbiter
// serve does (engine.MoveSpeller): a game whose players typed their moves
// in lower case has the record of the game they typed as the board spells
// it, its moves timed or not.
func TestRunnerKeepsTheBoardsSpelling(t *testing.T) {
	want, _ := play(t, 5, nil, "greedy", "random", "greedy")
	for _, timed := range []bool{false, true} {
		ss, setup := seats(t, "greedy", "random", "greedy")
		for i := range ss {
			ss[i].Player = lowercase{ss[i].Player}
		}
		setup.Seed = 5
		m, err := Game{}.NewMatch(setup)
		if err != nil {
			t.Fatal(err)
		}
		rec := engine.NewRecord[Action](info, setup)
		runner := engine.Runner[Action, View]{Timings: timed}
		if err := runner.Run(context.Background(), m, ss, rec); err != nil {
			t.Fatal(err)
		}
		if len(rec.Steps) != len(want.Steps) {
			t.Fatalf("timed %v: %d moves; want %d", timed, len(rec.Steps), len(want.Steps))
		}
		for i, s := range rec.Steps {
			if s.Move.String() != want.Steps[i].Move.String() || s.Fault != nil {
				t.Fatalf("timed %v: move %d recorded as %q (fault %v); want %q", timed, i+1, s.Move, s.Fault, want.Steps[i].Move)
			}
		}
	}
}
