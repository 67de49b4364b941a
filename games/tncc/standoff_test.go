package tncc

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

var (
	boundGames  = flag.Int("bound-games", 0, "TestSurvivalBound: the games to search (0: skip the test)")
	boundCycles = flag.Int("bound-cycles", 3, "TestSurvivalBound: the cycles a line of play must survive")
	boundPreset = flag.String("bound-preset", "mexican_standoff", "TestSurvivalBound: the preset")
	boundShow   = flag.Bool("bound-show", false, "TestSurvivalBound: show the line that lives, in each game that has one")
)

// TestSurvivalBound is a bound on what any player can do in the general's
// seat of the table of general, blitz, turtle and war, in the games that
// arbiter tournament tncc --players general,blitz,turtle,war --seats 4
// --seed 1 plays: game k on seed k, the lineup turned k−1 seats. For each
// game it searches every line of play of that seat, its decisions drawn
// from a family of some dozens of actions and answers (see oracleMoves),
// against the other bots themselves, which play the same on the same seed
// whatever the seat does until it changes what they see, and says whether
// any line keeps the country alive to the end of -bound-cycles cycles. A
// game no line survives is lost to any player of the family. Run it with
// go test -run TestSurvivalBound -bound-games 400 -v.
func TestSurvivalBound(t *testing.T) {
	if *boundGames == 0 {
		t.Skip("-bound-games is 0")
	}
	rs := rotations([]string{"general", "blitz", "turtle", "war"})
	var alive, games [4]int
	var lost []int
	runs := 0
	for k := 1; k <= *boundGames; k++ {
		r := rs[(k-1)%len(rs)]
		me := slices.Index(r, "general")
		o := oracle{t: t, names: r, me: me, seed: uint64(k), preset: *boundPreset, cycles: *boundCycles}
		games[me]++
		if line, ok := o.search(nil); ok {
			alive[me]++
			if *boundShow {
				o.show = true
				o.play(line)
				t.Logf("game %d, %v: %v", k, r, o.moves)
			}
		} else {
			lost = append(lost, k)
		}
		runs += o.runs
	}
	for s := range alive {
		t.Logf("seat %d: %d of %d games have a line that lives to the end of cycle %d", s+1, alive[s], games[s], *boundCycles)
	}
	n := alive[0] + alive[1] + alive[2] + alive[3]
	t.Logf("%s: at most %d of %d games (%.1f%%) can be won in the general's seat by any player of the family (%d lines played); lost whatever it does: games %v",
		*boundPreset, n, *boundGames, 100*float64(n)/float64(*boundGames), runs, lost)
}

// oracle searches the lines of play of seat me against the bots of names.
type oracle struct {
	t      *testing.T
	names  []string
	me     int
	seed   uint64
	preset string
	cycles int
	runs   int
	show   bool
	moves  []string // the seat's decisions in the last line played, when show
}

// search reports whether some line that starts with the decisions of
// script lives to the end of o.cycles.
func (o *oracle) search(script []int) ([]int, bool) {
	lives, options := o.play(script)
	switch {
	case lives:
		return script, true
	case options == 0:
		return nil, false
	}
	for k := range options {
		if line, ok := o.search(append(slices.Clip(script), k)); ok {
			return line, true
		}
	}
	return nil, false
}

// play plays the game with seat me's decisions taken from script, in
// order, until it runs out: then it returns the number of moves of the
// next decision. lives says that me is alive at the end of o.cycles; with
// options 0 and lives false, me died.
func (o *oracle) play(script []int) (lives bool, options int) {
	o.runs++
	ss, setup := seats(o.t, o.names...)
	setup.Seed = o.seed
	setup.Options = map[string]string{"preset": o.preset}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		o.t.Fatal(err)
	}
	ctx := context.Background()
	for i, s := range ss {
		if st, ok := s.Player.(engine.Starter); ok {
			if err := st.Start(ctx, engine.MatchInfo{Ruleset: "tncc", Players: setup.Players, Options: setup.Options, Seed: engine.SeatSeed(o.seed, i), Seat: i}); err != nil {
				o.t.Fatal(err)
			}
		}
	}
	next := 0
	var buf []Move
	for !m.Over() {
		w := m.World()
		if w.Countries[o.me].Dead {
			return false, 0
		}
		if w.Cycle > o.cycles {
			return true, 0
		}
		req := m.Pending()[0]
		var mv Move
		if req.Seat == o.me {
			buf = oracleMoves(m, buf[:0])
			if next == len(script) {
				return false, len(buf)
			}
			mv = buf[script[next]]
			next++
			if o.show {
				o.moves = append(o.moves, fmt.Sprintf("cycle %d: %v", w.Cycle, mv))
			}
		} else {
			mv, err = ss[req.Seat].Player.Decide(ctx, &req, m.View(req.Seat))
			if err != nil {
				mv = req.Default
			}
		}
		if m.Apply(req.Seat, mv) != nil {
			if err := m.Apply(req.Seat, req.Default); err != nil {
				o.t.Fatal(err)
			}
		}
	}
	return !m.World().Countries[o.me].Dead, 0
}

// oracleMoves is the family of decisions the bound searches. A turn: wait;
// send home an eighth, two eighths, ... or all of the army; and a war on
// each rival with half, three quarters or all of the army, in thirds, on
// one flank (each of the three) or in two flanks (each pair). An answer to
// a war: the army or an eighth, two eighths, ... of it in thirds; in
// thirds a half, three quarters and all of the soldiers sent (what holds
// them to a tie when they come in thirds, or on one flank); the army on
// one flank (each) or in two flanks (each pair). An offer: yes and no.
func oracleMoves(m *Match, buf []Move) []Move {
	req := m.Pending()[0]
	w := m.World()
	c := &w.Countries[req.Seat]
	army := c.Stock[Army]
	spread := func(f func(Flanks) Move, n int64) {
		half := n / 2
		buf = append(buf, f(Thirds(n)))
		for k := range 3 {
			buf = append(buf, f(rotate(Flanks{n, 0, 0}, k)))
		}
		for k := range 3 {
			buf = append(buf, f(rotate(Flanks{half, n - half, 0}, k)))
		}
	}
	switch req.Kind {
	case TradeAnswerKind:
		return append(buf, AcceptMove, DeclineMove)
	case WarAnswerKind:
		sent := m.action.Flanks.Total() // what the defender is told
		for k := range int64(8) {
			buf = append(buf, DefendMove(Thirds(army*k/8)))
		}
		for _, hold := range []int64{sent/2 + 1, sent - sent/4, sent} {
			if hold < army {
				buf = append(buf, DefendMove(Thirds(hold)))
			}
		}
		if army > 0 {
			spread(DefendMove, army)
		}
		return buf
	}
	buf = append(buf, WaitMove)
	for k := int64(1); k <= 8; k++ {
		if n := army * k / 8; n > 0 {
			buf = append(buf, RecruitMove(-n))
		}
	}
	if army > 0 && c.Stock[Gold] >= w.Preset.GoldForWar {
		for i := range w.Countries {
			if i == req.Seat || w.Countries[i].Dead {
				continue
			}
			for _, k := range []int64{2, 3, 4} {
				if n := army * k / 4; n > 0 {
					spread(func(f Flanks) Move { return WarMove(i, f) }, n)
				}
			}
		}
	}
	return buf
}
