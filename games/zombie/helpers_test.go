package zombie

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// judged runs a script made of lines and returns its transcript.
func judged(t testing.TB, lines ...string) *Transcript {
	t.Helper()
	tr, err := Run([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// cast is S1's roster: three humans, two zombies.
const cast = "HUMAN Ann\nHUMAN Bob\nHUMAN Cat\nZOMBIE Zed\nZOMBIE Zoe"

// richCast is cast with 3 antibodies a human: the infected outlive a turn.
const richCast = "HUMAN Ann 3\nHUMAN Bob 3\nHUMAN Cat 3\nZOMBIE Zed\nZOMBIE Zoe"

// output returns the judge's text output.
func output(t testing.TB, tr *Transcript) string {
	t.Helper()
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// privately returns what player name may see, as text.
func privately(t testing.TB, tr *Transcript, name string) string {
	t.Helper()
	i, ok := tr.Lookup(name)
	if !ok {
		t.Fatalf("no player %s", name)
	}
	var b bytes.Buffer
	if err := tr.WritePrivate(&b, i); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// player returns the final state of name.
func player(t testing.TB, tr *Transcript, name string) Player {
	t.Helper()
	i, ok := tr.Lookup(name)
	if !ok {
		t.Fatalf("no player %s", name)
	}
	return tr.Players[i]
}

// is checks a player's true state and counts.
func is(t testing.TB, what string, p Player, s State, a, v int64) {
	t.Helper()
	if p.State != s || p.Antibodies != a || p.Viruses != v {
		t.Errorf("%s: %s is %s with a=%d v=%d; want %s with a=%d v=%d", what, p.Name, p.State, p.Antibodies, p.Viruses, s, a, v)
	}
}

// refusals returns the ERROR lines as "line CODE".
func refusals(tr *Transcript) []string {
	var out []string
	for _, e := range tr.Events {
		if e.Kind == Refused {
			out = append(out, fmt.Sprintf("%d %s", e.Line, e.Code))
		}
	}
	return out
}

// wantRefusals checks the ERROR lines, as "line CODE", in order.
func wantRefusals(t testing.TB, tr *Transcript, want ...string) {
	t.Helper()
	got := refusals(tr)
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("ERROR lines %q; want %q", got, want)
	}
}

// outputLines returns the judge's output lines of one kind (by prefix).
func outputLines(t testing.TB, tr *Transcript, prefix string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(output(t, tr), "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// meet sets x and y up in a game (with fillers to make a valid roster),
// with the states and counts given, lets them interact with sides mx and
// my ("", "/p", "/v2"), and returns them after, with the refusal if any.
// It reaches into the judge to make states such as infected directly.
func meet(t testing.TB, x, y Player, mx, my string) (Player, Player, error) {
	t.Helper()
	j := NewJudge()
	for _, p := range []Player{x, y, {Name: "Filler1"}, {Name: "Filler2"}, {Name: "Filler3", State: Zombie}} {
		c := HumanCommand(p.Name)
		if p.State == Zombie {
			c = ZombieCommand(p.Name)
		}
		if err := j.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Do(StartCommand(99, 0, 0)); err != nil {
		t.Fatal(err)
	}
	for i, p := range []Player{x, y} {
		j.players[i].Player = p
	}
	c, _ := ParseLine("INTERACT " + x.Name + mx + " " + y.Name + my)
	err := j.Do(c)
	return j.Player(0), j.Player(1), err
}

// H, I and Z make players for meet.
func H(name string, a int64) Player { return Player{Name: name, State: Human, Antibodies: a} }
func I(name string, a int64) Player { return Player{Name: name, State: Infected, Antibodies: a} }
func Z(name string, v int64) Player { return Player{Name: name, State: Zombie, Viruses: v} }

// randomScript writes a script of about n lines that a game master might
// record, mistakes included: a roster, GAME_START, then interactions with
// modifiers, cures, END_TURNs and NEXT_TURNs, and now and then a line that
// is wrong in some way. The same rng gives the same script.
func randomScript(rng *rand.Rand, n int) string {
	var b strings.Builder
	players := 3 + rng.IntN(8)
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("P%d", i+1)
	}
	zombies := 1 + rng.IntN(players-2)
	for i, name := range names {
		kind := "HUMAN"
		if i < zombies {
			kind = "ZOMBIE"
		}
		if rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "%s %s %d\n", kind, name, rng.IntN(4))
		} else {
			fmt.Fprintf(&b, "%s %s\n", kind, name)
		}
	}
	fmt.Fprintf(&b, "GAME_START %d antibodies=%d viruses=%d\n", 1+rng.IntN(8), rng.IntN(4), rng.IntN(4))
	name := func() string {
		if rng.IntN(40) == 0 {
			return "Nobody"
		}
		s := names[rng.IntN(players)]
		if rng.IntN(5) == 0 {
			s = strings.ToLower(s)
		}
		return s
	}
	side := func() string {
		switch rng.IntN(6) {
		case 0:
			return name() + "/p"
		case 1:
			return name() + fmt.Sprintf("/v%d", 1+rng.IntN(3))
		}
		return name()
	}
	for range n {
		switch r := rng.IntN(100); {
		case r < 55:
			fmt.Fprintf(&b, "%s %s %s\n", []string{"INTERACT", "i", "t", "TOUCH"}[rng.IntN(4)], side(), side())
		case r < 63:
			fmt.Fprintf(&b, "%s %s\n", []string{"CURE", "a", "ANTIDOTE", "c"}[rng.IntN(4)], name())
		case r < 78:
			fmt.Fprintf(&b, "%s %s\n", []string{"END_TURN", "e", "END"}[rng.IntN(3)], name())
		case r < 92:
			b.WriteString([]string{"NEXT_TURN", "nt", "nr", "NEXT_ROUND"}[rng.IntN(4)] + "\n")
		case r < 94:
			b.WriteString("# a comment\n")
		case r < 95:
			b.WriteString("\n")
		case r < 96:
			b.WriteString("FLY " + name() + "\n")
		case r < 97:
			b.WriteString("HUMAN Late\n")
		case r < 98:
			b.WriteString("i " + name() + "/x " + name() + "\n")
		default:
			b.WriteString("i " + name() + "\n")
		}
	}
	return b.String()
}

// checkInvariants checks R5 on every player: a zombie has a = 0, H and I
// have v = 0, no count is negative.
func checkInvariants(t testing.TB, what string, players []Player) {
	t.Helper()
	for _, p := range players {
		switch {
		case p.Antibodies < 0 || p.Viruses < 0:
			t.Fatalf("%s: %s has a negative count: %+v", what, p.Name, p)
		case p.State == Zombie && p.Antibodies != 0:
			t.Fatalf("%s: zombie %s has %d antibodies", what, p.Name, p.Antibodies)
		case p.State != Zombie && p.Viruses != 0:
			t.Fatalf("%s: %s (%s) has %d viruses", what, p.Name, p.State, p.Viruses)
		case p.State > Zombie:
			t.Fatalf("%s: %s has no state: %d", what, p.Name, p.State)
		}
	}
}
