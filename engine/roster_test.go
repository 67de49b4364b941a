package engine

import (
	"context"
	"strings"
	"testing"
)

type initBot struct{ seat int }

func (b *initBot) Init(info MatchInfo) error { b.seat = info.Seat; return nil }
func (*initBot) Bounded() bool               { return true }

func TestShell(t *testing.T) {
	b := &initBot{seat: -1}
	s := Shell{Bot: b}
	if err := s.Start(context.Background(), MatchInfo{Seat: 3}); err != nil || b.seat != 3 {
		t.Errorf("Start: %v, seat %d; want the bot's Init to run", err, b.seat)
	}
	if !s.Bounded() {
		t.Error("the shell of a bounded bot is not bounded")
	}
	plain := Shell{Bot: 42}
	if plain.Bounded() || plain.Start(context.Background(), MatchInfo{}) != nil {
		t.Error("a bot with neither Init nor Bounded")
	}
}

func TestRoster(t *testing.T) {
	r := Roster[int, int]{{Name: "a"}, {Name: "b"}}
	if got := r.Names(); strings.Join(got, ",") != "a,b" {
		t.Errorf("Names %q", got)
	}
	if es, err := r.Find("b", "Test"); err != nil || len(es) != 1 || es[0].Name != "b" {
		t.Errorf("Find(b) = %v, %v", es, err)
	}
	if _, err := r.Find("c", "Test"); err == nil || err.Error() != `unknown player "c"; Test players are a, b` {
		t.Errorf("Find(c): %v", err)
	}
	// A typo is offered the name it looks like: a letter off, two swapped.
	r = Roster[int, int]{{Name: "trader"}, {Name: "turtle"}}
	for typo, want := range map[string]string{"trder": "trader", "tutrle": "turtle", "Trader": "trader"} {
		if _, err := r.Find(typo, "Test"); err == nil || !strings.Contains(err.Error(), "did you mean "+want+"?") {
			t.Errorf("Find(%s): %v; want it to offer %s", typo, err, want)
		}
	}
	if _, err := r.Find("general", "Test"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("Find(general): %v; want no offer", err)
	}
}

// colour is an enumeration for the nullable JSON helpers: 0 is none.
type colour int

var colourNames = Names{"none", "red", "blue"}

func (c colour) MarshalText() ([]byte, error) { return []byte(colourNames[c]), nil }
func (c *colour) UnmarshalText(b []byte) error {
	i, err := colourNames.Parse(string(b), "colour")
	*c = colour(i)
	return err
}

func TestNullableJSON(t *testing.T) {
	for c, want := range map[colour]string{0: "null", 2: `"blue"`} {
		if b, err := MarshalNullable(c == 0, c); err != nil || string(b) != want {
			t.Errorf("%d: %s, %v; want %s", c, b, err, want)
		}
	}
	var c colour = 2
	if none, err := UnmarshalNullable([]byte("null"), "colour", &c); !none || err != nil || c != 2 {
		t.Errorf("null: %v, %v, %d", none, err, c)
	}
	if none, err := UnmarshalNullable([]byte(`"red"`), "colour", &c); none || err != nil || c != 1 {
		t.Errorf("red: %v, %v, %d", none, err, c)
	}
	if _, err := UnmarshalNullable([]byte(`7`), "colour", &c); err == nil || err.Error() != "want a colour name or null, got 7" {
		t.Errorf("7: %v", err)
	}
}

func TestTheSearchAIsNameSaysWhereItIsMade(t *testing.T) {
	// A Go program that asks a game's Bots for mcts, as the command line
	// names the search AI, is told that package mcts makes it.
	r := Roster[int, int]{{Name: "a"}, {Name: "b"}}
	for _, name := range []string{"mcts", "mcts:level=easy"} {
		_, err := r.Find(name, "TNCC")
		if err == nil || !strings.Contains(err.Error(), "package mcts makes it (mcts.Parse(\""+name+"\"), then mcts.New); TNCC players are a, b") {
			t.Errorf("Find(%q): %v; want it to say package mcts makes it", name, err)
		}
	}
	if _, err := r.Find("mctsx", "TNCC"); err == nil || strings.Contains(err.Error(), "package mcts") {
		t.Errorf("Find(mctsx): %v; want an unknown player, not the search AI", err)
	}
}
