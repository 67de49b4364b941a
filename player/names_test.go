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
	n.Wish("exec:a.py", "starter")
	n.Wish("exec:a.py", "another name")
	n.Wish("exec:b.py", "starter")
	n.Wish("exec:c.py", "random")
	n.Wish("exec:d.py", "  a\x1b[31m  bot\n")
	n.Wish("exec:e.py", strings.Repeat("x", 100))
	n.Wish("exec:f.py", "  ")
	// The 40th character an e whose accent is the 41st: the e goes too.
	n.Wish("exec:g.py", strings.Repeat("x", 39)+"e\u0301 and more")
	// The 40th character the woman of a woman astronaut: she goes whole.
	n.Wish("exec:h.py", strings.Repeat("太", 39)+"👩\u200d🚀")
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

func TestNamesAreWhatAReaderSees(t *testing.T) {
	// A name is made unique so that a program that gives another's, a
	// built-in player's among them, stays apart from it: what a reader
	// does not see is no part of it, lest "adapt" and "adapt" with a
	// zero-width space be two names that a table shows alike, or a name
	// of invisible characters show as none. An emoji of several
	// characters joined stays whole.
	n := NewNames("adapt")
	for _, c := range []struct{ wish, want string }{
		{"adapt\u200b", "adapt #2"},       // a zero-width space
		{"\u202eadapt", "adapt #3"},       // a right-to-left override
		{"ad\u200dapt\ufe0f", "adapt #4"}, // a joiner between letters, a variation selector after one
		{"\ufeffadapt\u00ad", "adapt #5"}, // a byte order mark, a soft hyphen
		{"adapt\u3164\u2800", "adapt #6"}, // a Hangul filler, a blank braille pattern
		{"\u0301adapt", "adapt #7"},       // an accent on nothing
		{"👩\u200d🚀 and 🏳\ufe0f\u200d🌈 bot", "👩\u200d🚀 and 🏳\ufe0f\u200d🌈 bot"},
		{"Jos\u00e9 and Jose\u0301", "Jos\u00e9 and Jose\u0301"},
		{"\u200b\ufeff\u00ad\u2060", ""},
		{"\u0301\u0302 \u0303", ""},
	} {
		player := "exec:" + c.wish
		n.Wish(player, c.wish)
		got, ok := n.Of(player)
		if c.want == "" {
			if ok {
				t.Errorf("%+q is named %+q; want no name", c.wish, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%+q is named %+q, %v; want %+q", c.wish, got, ok, c.want)
		}
	}
}

func TestNamesThatLookAlikeStayApart(t *testing.T) {
	// A program cannot pass for a built-in player, or for another program,
	// by a name that only looks like its own: Cyrillic letters for Latin
	// ones, fullwidth or styled letters, another case, rn for m. Such a
	// name is given a number, as the same name would be.
	n := NewNames("greedy", "random")
	for _, w := range [][2]string{
		{"exec:a", "gr\u0435\u0435dy"},                     // Cyrillic e's
		{"exec:b", "\uff27\uff32\uff25\uff25\uff24\uff39"}, // fullwidth GREEDY
		{"exec:c", "Random"},
		{"exec:d", "bot"},
		{"exec:e", "b\u043et"}, // a Cyrillic o
		{"exec:f", "rnover"},
		{"exec:g", "mover"},
		{"exec:h", "planner"}, // like nothing taken: kept as it is
	} {
		n.Wish(w[0], w[1])
	}
	for _, pw := range [][2]string{
		{"exec:a", "gr\u0435\u0435dy #2"},
		{"exec:b", "\uff27\uff32\uff25\uff25\uff24\uff39 #3"}, // "greedy #2" is a's
		{"exec:c", "Random #2"},
		{"exec:d", "bot"}, {"exec:e", "b\u043et #2"}, {"exec:f", "rnover"}, {"exec:g", "mover #2"}, {"exec:h", "planner"},
	} {
		if got, ok := n.Of(pw[0]); !ok || got != pw[1] {
			t.Errorf("%s is named %q, %v; want %q", pw[0], got, ok, pw[1])
		}
	}
}
