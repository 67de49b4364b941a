package player

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNamesGivenInReady(t *testing.T) {
	// A program keeps the first name it gives; names are unique over the
	// run; a built-in player's name is not given away; control characters
	// and long names are tidied, a long one cut between characters as a
	// reader sees them (grapheme clusters).
	n := NewNames("random", "exec:a.py")
	n.wish("exec:a.py", "starter")
	n.wish("exec:a.py", "another name")
	n.wish("exec:b.py", "starter")
	n.wish("exec:c.py", "random")
	n.wish("exec:d.py", "  a\x1b[31m  bot\n")
	n.wish("exec:e.py", strings.Repeat("x", 100))
	n.wish("exec:f.py", "  ")
	// The 40th character an e whose accent is the 41st: the e goes too.
	n.wish("exec:g.py", strings.Repeat("x", 39)+"e\u0301 and more")
	// The 40th character the woman of a woman astronaut: she goes whole.
	n.wish("exec:h.py", strings.Repeat("太", 39)+"👩\u200d🚀")
	// Names are made unique in the order they are first asked for, as a
	// report asks for them: seat by seat, whenever the programs said ready.
	want := [][2]string{{"exec:a.py", "starter"}, {"exec:b.py", "starter #2"}, {"exec:c.py", "random #2"}, {"exec:d.py", "a [31m bot"}, {"exec:e.py", strings.Repeat("x", 40)},
		{"exec:g.py", strings.Repeat("x", 39)}, {"exec:h.py", strings.Repeat("太", 39)}}
	for _, pw := range want {
		if got, ok := n.Of(pw[0]); !ok || got != pw[1] {
			t.Errorf("%s is named %q, %v; want %q", pw[0], got, ok, pw[1])
		}
	}
	if got, ok := n.Of("exec:f.py"); ok {
		t.Errorf("a blank name gave %q", got)
	}
	names, specs := n.Rename([]string{"random", "exec:b.py"})
	if !cmp.Equal(names, []string{"random", "starter #2"}) || !cmp.Equal(specs, []string{"", "exec:b.py"}) {
		t.Errorf("Rename: %q %q", names, specs)
	}
	if names, specs := n.Rename([]string{"random"}); specs != nil || names[0] != "random" {
		t.Errorf("Rename of built-ins: %q %q", names, specs)
	}
	var none *Names
	if _, ok := none.Of("exec:a.py"); ok {
		t.Error("no Names named a player")
	}
}
