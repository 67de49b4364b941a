package zombie

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
)

func TestSeatNames(t *testing.T) {
	// A seat goes by the name its person was given; a program, a seat left
	// unnamed, or a name of another seat's roster form, by P1, P2, …; two
	// seats of one name by the name and their roster's.
	for _, c := range []struct{ players, want []string }{
		{[]string{"Ann", "Bob", "Cat"}, []string{"Ann", "Bob", "Cat"}},
		{[]string{"", "person", "repl", "sensible"}, []string{"P1", "P2", "P3", "P4"}},
		{[]string{"exec:./bot", "http://bots.example/z", "searcher.human", "P1"}, []string{"P1", "P2", "P3", "P4"}},
		{[]string{"Sam", "Ann", "sam"}, []string{"Sam (P1)", "Ann", "sam (P3)"}},
		{[]string{"Zoë Lee", "P2", "Cat"}, []string{"Zoë Lee", "P2", "Cat"}},
	} {
		if got := seatNames(c.players); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q; want %q", c.players, got, c.want)
		}
	}
}

// namedMatch is a match of five seats: Ann, Bob, Cat, and two left
// unnamed (a person and a bot).
func namedMatch(t *testing.T) *Match {
	t.Helper()
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"Ann", "Bob", "Cat", "person", "sensible"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRefusalsNameSeatsBothWays(t *testing.T) {
	// A refusal names a seat as a plan's JSON does (from 0) and as its text
	// does (P1, …), and by its player's name where it has one.
	m := namedMatch(t)
	for _, c := range []struct {
		seat int
		plan Plan
		why  string
	}{
		{0, Plan{Touch: []Contact{{With: 9}}}, "there is no seat 9 (P10); the seats are 0 to 4 (P1 to P5: Ann, Bob, Cat, P4, P5)"},
		{0, Plan{Touch: []Contact{{With: 0}}}, "Ann (seat 0, P1) cannot touch themself; touch another seat"},
		{0, Plan{Touch: []Contact{{With: 3}, {With: 3}}}, "P4 (seat 3) is named twice"},
		{0, Plan{Touch: []Contact{{With: 1, Modifier: Modifier{Precaution: true, Viruses: 1}}}}, "with Bob (seat 1, P2)"},
	} {
		err := m.Apply(c.seat, c.plan)
		var re *engine.RuleError
		if !errors.As(err, &re) || !strings.Contains(re.Msg, c.why) {
			t.Errorf("seat %d plans %q: %v; want a refusal saying %q", c.seat, c.plan, err, c.why)
		}
	}
	if err := m.Apply(0, Plan{Touch: []Contact{{With: 1}}}); err != nil {
		t.Fatal(err)
	}
	var re *engine.RuleError
	if err := m.Apply(0, Plan{Touch: []Contact{{With: 1}}}); !errors.As(err, &re) || !strings.Contains(re.Msg, "Ann (seat 0, P1) has already planned turn 1") {
		t.Errorf("a second plan: %v", err)
	}
}

func TestViewsGoByNames(t *testing.T) {
	// A seat's view names it as its person was named, and its lines name
	// the players so; it holds no other seat's sheet. The judge's roster
	// and script keep P1, P2, …
	m := namedMatch(t)
	for seat, want := range []string{"Ann", "Bob", "Cat", "P4", "P5"} {
		v := m.View(seat)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var j struct{ Name string }
		json.Unmarshal(b, &j)
		if j.Name != want {
			t.Errorf("seat %d's view is named %q; want %q", seat, j.Name, want)
		}
		lines := strings.Join(v.Lines(), "\n")
		if !strings.Contains(lines, "PRIVATE "+want+" ") {
			t.Errorf("seat %d's lines:\n%s\nwant its PRIVATE line under %s", seat, lines, want)
		}
		for other, name := range []string{"Ann", "Bob", "Cat", "P4", "P5"} {
			if other != seat && (strings.Contains(string(b), name) || strings.Contains(lines, name)) {
				t.Errorf("seat %d's view names %s: %s\n%s", seat, name, b, lines)
			}
		}
	}
	if !strings.Contains(m.View(0).String(), "You are Ann (P1), one of 5 players") {
		t.Errorf("Ann's terminal:\n%s", m.View(0))
	}
	script := strings.Join(script(m.cmds), "\n")
	if strings.Contains(script, "Ann") || !strings.Contains(script, "P1") {
		t.Errorf("the script:\n%s\nwant the roster's names", script)
	}
}

func TestPublicResultGoesByNames(t *testing.T) {
	// GAME OVER, as the public reads it, names the players as they were
	// named; the record's result keeps the roster's names.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"Ann", "Bob", "Cat", "Dan", "Eve"}, Options: map[string]string{"turns": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	for s := range 5 {
		if err := m.Apply(s, Plan{Touch: []Contact{{With: (s + 1) % 5}}}); err != nil {
			t.Fatal(err)
		}
	}
	if !m.Over() {
		t.Fatal("the game is not over after its one turn")
	}
	var judged string
	t0 := m.judge.Transcript()
	for i := range t0.Events {
		if t0.Events[i].Kind == Ended {
			judged = t0.Line(&t0.Events[i])
		}
	}
	want := judged
	for i, name := range []string{"Ann", "Bob", "Cat", "Dan", "Eve"} {
		want = strings.ReplaceAll(want, "="+SeatName(i), "="+name)
		want = strings.ReplaceAll(want, ":"+SeatName(i)+":", ":"+name+":")
	}
	if got := m.Public().(Public).Result; got != want || got == judged {
		t.Errorf("the public's GAME OVER: %q; want %q (the judge's: %q)", got, want, judged)
	}
}

func TestPersonsRefusalsNamePlayersFromOne(t *testing.T) {
	// README: "pages, reports and the terminal count them [seats] from 1
	// for people". A person at the terminal writes plans in P1, P2, …, so
	// the terminal's check (View.Check) names players so, never by a seat
	// from 0; Apply, which a plan's JSON reaches, keeps both.
	for _, c := range []struct {
		players []string
		seat    int
		plan    Plan
		want    string
	}{
		{nil, 4, Plan{Touch: []Contact{{With: 8}}}, "there is no P9; the players are P1 to P5"},
		{nil, 4, Plan{Touch: []Contact{{With: 4}}}, "you (P5) cannot touch yourself; touch another player"},
		{nil, 4, Plan{Touch: []Contact{{With: 1}, {With: 1}}}, "P2 is named twice; a pair interacts at most once a turn"},
		{nil, 4, Plan{Touch: []Contact{{With: 1, Modifier: Modifier{Precaution: true, Viruses: 1}}}}, "with P2:"},
		{[]string{"Ann", "Bob", "Cat", "person", "sensible"}, 3, Plan{Touch: []Contact{{With: 8}}}, "there is no P9; the players are P1 to P5 (Ann, Bob, Cat, P4, P5)"},
		{[]string{"Ann", "Bob", "Cat", "person", "sensible"}, 3, Plan{Touch: []Contact{{With: 0}, {With: 0}}}, "Ann (P1) is named twice"},
	} {
		players := c.players
		if players == nil {
			players = []string{"sensible", "cautious", "spreader", "random", "repl"}
		}
		m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: players})
		if err != nil {
			t.Fatal(err)
		}
		err = m.View(c.seat).Check(c.plan)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "seat") {
			t.Errorf("P%d plans %q at the terminal: %v; want a refusal saying %q, with no seat number", c.seat+1, c.plan, err, c.want)
		}
	}
}

func TestViewKeepsEachSeatWithItsPlayer(t *testing.T) {
	// The terminal's list of players breaks between players, never between
	// a seat and its player ("P7" at a line's end, "random" on the next),
	// in lines of 80 columns.
	players := make([]string, 64)
	for i := range players {
		players[i] = "random"
	}
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: players, Options: map[string]string{"zombies": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(0)
	board := v.String()
	list := board[strings.Index(board, "Players: "):strings.Index(board, "What you have been told")]
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		if regexp.MustCompile(`P\d+$`).MatchString(line) || utf8.RuneCountInString(line) > 80 || strings.Contains(line, "\u00a0") {
			t.Errorf("a line of the players: %q\n%s", line, list)
		}
	}
	if !strings.Contains(list, "P64 ") {
		t.Errorf("the list lacks P64:\n%s", list)
	}
}
