package engine_test

import (
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestOptionDocument(t *testing.T) {
	// A document is named by its name and the digest of the rest: the same
	// numbers, in any order of keys, have one digest whatever their name;
	// other numbers have another.
	a := `{"name":"custom (default)","gold_for_war":800,"start":{"gold":600,"citizens":800}}`
	renamed := `{"start":{"citizens":800,"gold":600},"gold_for_war":800,"name":"mine"}`
	other := `{"name":"custom (default)","gold_for_war":900,"start":{"gold":600,"citizens":800}}`
	da, ok := engine.ReadOptionDocument(a)
	if !ok || da.Name != "custom (default)" || len(da.Digest) != 8 || string(da.JSON) != a {
		t.Fatalf("%s reads as %+v, %v", a, da, ok)
	}
	if dr, _ := engine.ReadOptionDocument(renamed); dr.Name != "mine" || dr.Digest != da.Digest {
		t.Errorf("the same numbers named mine: %+v; want the digest %s", dr, da.Digest)
	}
	if do, _ := engine.ReadOptionDocument(other); do.Digest == da.Digest {
		t.Errorf("other numbers have the same digest %s", do.Digest)
	}
	if d, ok := engine.ReadOptionDocument(`{"growth": 1.5}`); !ok || d.Name != "custom" {
		t.Errorf("a document without a name: %+v, %v", d, ok)
	}
	// Given in short, on a base (a TNCC preset over HTTP), it is named as
	// the game names it once read.
	if d, ok := engine.ReadOptionDocument(`{"base": "default", "max_cycles": 8}`); !ok || d.Name != "custom (default)" {
		t.Errorf("a document on a base: %+v, %v; want custom (default)", d, ok)
	}
	// A name is printed as a terminal shows it: an escape sequence written
	// into a preset's name does not turn the report red, nor a carriage
	// return write over its line.
	if d, _ := engine.ReadOptionDocument(`{"name": "\u001b[31mred\rx", "growth": 1.5}`); d.Name != "?[31mred?x" {
		t.Errorf("a name with control characters is named %q; want ?[31mred?x", d.Name)
	}
	if d, _ := engine.ReadOptionDocument(`{"base": "\u001b[2J", "growth": 1.5}`); d.Name != "custom (?[2J)" {
		t.Errorf("a base with control characters is named %q; want custom (?[2J)", d.Name)
	}
	for _, plain := range []string{"tribe", "", "100", "true", "{not json", `{"a":1} {"b":2}`, "[1]"} {
		if d, ok := engine.ReadOptionDocument(plain); ok {
			t.Errorf("%q reads as a document %+v", plain, d)
		}
		if got := engine.OptionLabel(plain); got != plain {
			t.Errorf("%q is labelled %q; want itself", plain, got)
		}
	}
}

func ExampleOptionLabel() {
	fmt.Println(engine.OptionLabel("tribe"))
	fmt.Println(engine.OptionLabel(`{"name":"custom (default)","gold_for_war":800,"max_cycles":60}`))
	fmt.Println(engine.OptionLabel(`{"max_cycles":60,"gold_for_war":800,"name":"short war"}`))
	// Output:
	// tribe
	// custom (default) #db909d30
	// short war #db909d30
}

func TestOptionRangeBySeats(t *testing.T) {
	// "SeatMax bounds an IntOption by the number of seats too": the range a
	// message gives is the one for the game's seats.
	zombies := engine.Option{Name: "zombies", Kind: engine.IntOption, Min: 1, Max: 62, SeatMax: func(seats int) int { return seats - 2 }, SeatWhy: "so that at least 2 humans play"}
	turns := engine.Option{Name: "turns", Kind: engine.IntOption, Min: 1, Max: 100}
	for _, c := range []struct {
		o       engine.Option
		seats   int
		lo, hi  int
		allowed string
	}{
		{zombies, 5, 1, 3, "allowed 1 to 3 with 5 seats, so that at least 2 humans play"},
		{zombies, 3, 1, 1, "allowed only 1 with 3 seats, so that at least 2 humans play"},
		{zombies, 0, 1, 62, "allowed 1 to 62"},  // seats not known yet
		{zombies, 2, 1, 62, "allowed 1 to 62"},  // too few seats: their own error
		{zombies, 64, 1, 62, "allowed 1 to 62"}, // the bound is Max
		{turns, 5, 1, 100, "allowed 1 to 100"},
	} {
		lo, hi, allowed := c.o.Range(c.seats)
		if lo != c.lo || hi != c.hi || allowed != c.allowed {
			t.Errorf("%s with %d seats: %d, %d, %q; want %d, %d, %q", c.o.Name, c.seats, lo, hi, allowed, c.lo, c.hi, c.allowed)
		}
	}
	info := engine.Info{Name: "z", MinSeats: 3, MaxSeats: 64, Options: []engine.Option{zombies}}
	setup := engine.Setup{Players: []string{"a", "b", "c", "d", "e"}, Options: map[string]string{"zombies": "4"}}
	if _, err := setup.Int(info, "zombies"); err == nil || err.Error() != "option zombies: 4 is out of range; allowed 1 to 3 with 5 seats, so that at least 2 humans play" {
		t.Errorf("4 zombies among 5 seats: %v", err)
	}
}

func TestTooFewSeatsCountsThePlayers(t *testing.T) {
	// A series of one seat is told "1 player", not "1 players".
	info := engine.Info{Name: "nim", MinSeats: 2, MaxSeats: 4}
	for _, c := range []struct {
		players int
		want    string
	}{
		{0, "nim: 0 players; the game takes 2 to 4"},
		{1, "nim: 1 player; the game takes 2 to 4"},
		{5, "nim: 5 players; the game takes 2 to 4"},
	} {
		err := engine.Setup{Players: make([]string, c.players)}.CheckSeats(info)
		if err == nil || err.Error() != c.want {
			t.Errorf("%d players: %v; want %q", c.players, err, c.want)
		}
	}
}
