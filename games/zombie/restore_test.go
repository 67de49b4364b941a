package zombie

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// randomPlan is a random plan of a seat asked, as the Random bot draws
// them; one time in eight one the rules refuse (a seat touching itself,
// viruses of a human, a plan of a seat that has planned).
func randomPlan(r *rand.Rand, m engine.Match[Plan, View]) (int, Plan, bool) {
	reqs := m.Pending()
	if len(reqs) == 0 {
		return 0, Plan{}, false
	}
	seat := reqs[r.IntN(len(reqs))].Seat
	p, _ := (&Random{rng: r}).Plan(m.View(seat))
	if r.IntN(8) == 0 {
		switch r.IntN(3) {
		case 0:
			p.Touch = append(p.Touch, Contact{With: seat})
		case 1:
			p.Touch[0].Viruses = 1
		default:
			seat = (seat + 1) % m.View(seat).Seats()
		}
	}
	return seat, p, true
}

// TestRestore: at every step of random games, from 3 to 12 seats, with
// one zombie or several, counts and turns of every size, a match restored
// from its snapshot is the original and plays on as it does: the
// identities, the plans made this turn, the order of the seats drawn last
// and the generator, the script and what it told everyone.
func TestRestore(t *testing.T) {
	cases := []map[string]string{
		{"zombies": "1", "turns": "5"},
		{"zombies": "2", "turns": "12", "antibodies": "3", "viruses": "4"}, // 1 zombie of 3 seats
		{"zombies": "1", "turns": "30", "antibodies": "1", "viruses": "2"},
		{"zombies": "1", "turns": "6", "antibodies": "30", "viruses": "1"}, // to max_turns
	}
	for i, opts := range cases {
		for _, n := range []int{3, 6, 12} {
			for seed := range uint64(2) {
				setup := engine.Setup{Seed: seed + 10*uint64(i), Players: make([]string, n), Options: opts}
				if n == 3 {
					setup.Options = map[string]string{}
					for k, v := range opts {
						setup.Options[k] = v
					}
					setup.Options["zombies"] = "1"
				}
				t.Run(fmt.Sprintf("%d/%d-seats/seed-%d", i, n, setup.Seed), func(t *testing.T) {
					enginetest.CheckRestore(t, Game{}, setup, enginetest.Options[Plan, View]{Seed: seed, Steps: 250, Move: randomPlan})
				})
			}
		}
	}
}

// scriptLine is a random line of a judge's script for m: the roster (a
// zombie first, then humans, some with counts of their own) and
// GAME_START while the roster is written; then interactions with and
// without modifiers, cures, ends of turns and NEXT_TURN, many of which the
// judge refuses, and now and then a line that is no command.
func scriptLine(r *rand.Rand, m engine.Match[Line, Sheet]) (int, Line, bool) {
	g := m.(*Judged)
	j := g.judge
	names := g.names
	name := func() string { return names[r.IntN(len(names))] }
	side := func() string {
		return name() + [...]string{"", "", "/p", "/v1", "/v2"}[r.IntN(5)]
	}
	var l string
	switch {
	case j.Phase() == Over:
		return 0, "", false
	case r.IntN(20) == 0:
		l = [...]string{"HELLO", "INTERACT", "CURE Nobody", "GAME_START 0"}[r.IntN(4)]
	case j.Phase() == Setup && j.Players() < len(names):
		op := "HUMAN"
		if j.Players() == 0 {
			op = "ZOMBIE"
		}
		l = op + " " + strings.ToLower(names[j.Players()])
		if r.IntN(3) == 0 {
			l += fmt.Sprintf(" %d", r.IntN(3))
		}
	case j.Phase() == Setup:
		l = fmt.Sprintf("GAME_START %d antibodies=2 viruses=3", 3+r.IntN(4))
	default:
		switch r.IntN(10) {
		case 0:
			l = "CURE " + name()
		case 1, 2:
			l = "END_TURN " + name()
		case 3:
			l = "NEXT_TURN"
		default:
			l = "INTERACT " + side() + " " + side()
			// Mostly a pair that may meet, so that turns end.
			for range 10 {
				x, y := r.IntN(j.Players()), r.IntN(j.Players())
				if x != y && !j.Ended(x) && !j.Ended(y) && !j.Met(x, y) {
					l = "INTERACT " + j.Player(x).Name + " " + j.Player(y).Name
					break
				}
			}
		}
	}
	return engine.Judge, Line(l), true
}

// TestRestoreJudging: the same of a game run by its judge, line by line.
func TestRestoreJudging(t *testing.T) {
	for _, names := range [][]string{{"Ann", "Bob", "Cat"}, {"Ann", "Bob", "Cat", "Dan", "Eve", "Zed"}, {"person", "person", "person", "person"}} {
		for seed := range uint64(3) {
			setup := engine.Setup{Seed: seed, Players: names}
			t.Run(fmt.Sprintf("%d-seats/seed-%d", len(names), seed), func(t *testing.T) {
				enginetest.CheckRestore(t, Judging{}, setup, enginetest.Options[Line, Sheet]{Seed: seed, Steps: 300, Judge: true, Move: scriptLine})
			})
		}
	}
}

// TestRestoreRefusesAnotherGame: a snapshot is restored by its own rules
// only, under its own setup.
func TestRestoreRefusesAnotherGame(t *testing.T) {
	setup := engine.Setup{Seed: 3, Players: make([]string, 5)}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := m.MarshalJSON()
	if _, err := (Judging{}).Restore(setup, snap); err == nil || err.Error() != `zombie (judge): the snapshot is of a "zombie" match, not of zombie (judge)` {
		t.Errorf("a party's snapshot restored as a judge's game: %v", err)
	}
	for _, other := range []engine.Setup{
		{Seed: 4, Players: make([]string, 5)}, // other zombies drawn
		{Seed: 3, Players: make([]string, 5), Options: map[string]string{"antibodies": "2"}},
		{Seed: 3, Players: make([]string, 5), Options: map[string]string{"turns": "6"}},
	} {
		if _, err := (Game{}).Restore(other, snap); err == nil {
			t.Errorf("a snapshot restored under another setup: %v", other)
		}
	}
}

// FuzzRestore: a damaged snapshot of a party is refused, or restores a
// match that plays on; never a panic.
func FuzzRestore(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: make([]string, 5), Options: map[string]string{"zombies": "2", "antibodies": "2", "viruses": "3"}}
	o := enginetest.Options[Plan, View]{Seed: 1, Steps: 200, Move: randomPlan}
	snaps, err := enginetest.Snapshots(Game{}, setup, o, 16)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range snaps {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.CheckDamaged(t, Game{}, setup, data, o)
	})
}

// FuzzRestoreJudging: the same of a game run by its judge.
func FuzzRestoreJudging(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: []string{"Ann", "Bob", "Cat", "Dan"}}
	o := enginetest.Options[Line, Sheet]{Seed: 1, Steps: 200, Judge: true, Move: scriptLine}
	snaps, err := enginetest.Snapshots(Judging{}, setup, o, 16)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range snaps {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.CheckDamaged(t, Judging{}, setup, data, o)
	})
}

// BenchmarkRestore: resuming a party of 12 after 3,000 plans (or at its
// end), from its snapshot or by replaying its moves.
func BenchmarkRestore(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 12), Options: map[string]string{"turns": "1000", "antibodies": "1000", "viruses": "1"}}
	enginetest.BenchRestore(b, Game{}, setup, enginetest.Options[Plan, View]{Seed: 1, Steps: 3000, Move: randomPlan})
}

// BenchmarkRestoreJudging: the same of a judge's game of 1000 turns after
// 3,000 lines.
func BenchmarkRestoreJudging(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Zed"}}
	long := func(r *rand.Rand, m engine.Match[Line, Sheet]) (int, Line, bool) {
		seat, l, ok := scriptLine(r, m)
		if strings.HasPrefix(string(l), "GAME_START") {
			l = "GAME_START 1000 antibodies=1000 viruses=1"
		}
		return seat, l, ok
	}
	enginetest.BenchRestore(b, Judging{}, setup, enginetest.Options[Line, Sheet]{Seed: 1, Steps: 3000, Move: long})
}
