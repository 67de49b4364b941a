package tncc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// randomMove is a random move of the country asked, legal or not: a wait,
// a recruit, a trade or a war with amounts up to what it holds (now and
// then more), and answers of every kind; one move in sixteen is another
// country's.
func randomMove(r *rand.Rand, m engine.Match[Move, View]) (int, Move, bool) {
	reqs := m.Pending()
	if len(reqs) == 0 {
		return 0, Move{}, false
	}
	q := reqs[0]
	v := m.View(q.Seat)
	me := v.Me()
	upTo := func(n int64) int64 {
		if r.IntN(12) == 0 {
			return n + 1 + r.Int64N(5)
		}
		return r.Int64N(max(n, 0) + 1)
	}
	flanks := func() Flanks {
		army := upTo(me.Stock[Army])
		a := r.Int64N(army + 1)
		b := r.Int64N(army - a + 1)
		return Flanks{a, b, army - a - b}
	}
	other := func() int {
		return (q.Seat + 1 + r.IntN(v.Countries()-1)) % v.Countries()
	}
	var mv Move
	switch q.Kind {
	case TradeAnswerKind:
		mv = [...]Move{AcceptMove, DeclineMove, AcceptMove, WaitMove}[r.IntN(4)]
	case WarAnswerKind:
		mv = DefendMove(flanks())
	default:
		switch r.IntN(6) {
		case 0:
			mv = WaitMove
		case 1:
			mv = RecruitMove(upTo(me.Stock[Citizens]) - r.Int64N(me.Stock[Army]+1))
		case 2, 3:
			give, take := Resource(r.IntN(NumResources)), Gold
			if r.IntN(2) == 0 {
				give, take = take, give
			}
			mv = TradeMove(other(), give, upTo(me.Stock[give]/2), take, upTo(50))
		default:
			mv = WarMove(other(), flanks())
		}
	}
	seat := q.Seat
	if r.IntN(16) == 0 {
		seat = other()
	}
	return seat, mv, true
}

// TestRestore: at every step of random games, on every preset and from 2
// to 12 countries, a match restored from its snapshot is the original,
// and plays on as it does: the history, the deaths, the refused actions,
// a trade or a war waiting for its answer (with the attacker's flanks).
func TestRestore(t *testing.T) {
	presets := append(PresetNames(), `{"base": "tribe", "max_cycles": 6}`, `{"base": "default", "max_cycles": 3, "gold_for_war": 10}`)
	for i, preset := range presets {
		for _, n := range []int{2, 5, 12} {
			setup := engine.Setup{Seed: uint64(i), Players: make([]string, n), Options: map[string]string{"preset": preset}}
			t.Run(fmt.Sprintf("%d/%d-countries", i, n), func(t *testing.T) {
				steps := 300
				if n > 5 {
					steps = 150 // twelve countries' views at every step of every match kept
				}
				enginetest.CheckRestore(t, Game{}, setup, enginetest.Options[Move, View]{Seed: uint64(10*i + n), Steps: steps, Move: randomMove})
			})
		}
	}
}

// TestRestoreRefusesAnotherGame: a snapshot is restored only under its
// own preset and seats, and only by TNCC.
func TestRestoreRefusesAnotherGame(t *testing.T) {
	setup := engine.Setup{Players: make([]string, 3)}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := m.MarshalJSON()
	tribe := setup
	tribe.Options = map[string]string{"preset": "tribe"}
	if _, err := (Game{}).Restore(tribe, snap); err == nil {
		t.Error("a snapshot of a game on the default preset restored on tribe")
	}
	if _, err := (Game{}).Restore(setup, []byte(`{"game": "zombie", "phase": "in_progress"}`)); err == nil || err.Error() != `tncc: the snapshot is of a "zombie" match, not of tncc` {
		t.Errorf("a zombie snapshot: %v", err)
	}
}

// FuzzRestore: a damaged snapshot is refused, or restores a match that
// plays on; never a panic.
func FuzzRestore(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: make([]string, 4), Options: map[string]string{"preset": `{"base": "tribe", "max_cycles": 8}`}}
	o := enginetest.Options[Move, View]{Seed: 1, Steps: 200, Move: randomMove}
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

// BenchmarkRestore: resuming a match of 8 countries on the default preset
// after 3,000 moves, from its snapshot or by replaying its moves. The
// countries trade, wait and now and then go to war, so that they live.
func BenchmarkRestore(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 8), Options: map[string]string{"preset": `{"base": "default", "max_cycles": 1000}`}}
	calm := func(r *rand.Rand, m engine.Match[Move, View]) (int, Move, bool) {
		reqs := m.Pending()
		if len(reqs) == 0 {
			return 0, Move{}, false
		}
		q := reqs[0]
		switch n := m.View(q.Seat).Countries(); {
		case q.Kind != TurnKind || r.IntN(40) == 0:
			return randomMove(r, m)
		case r.IntN(2) == 0:
			return q.Seat, TradeMove((q.Seat+1+r.IntN(n-1))%n, Gold, r.Int64N(10), Food, 1+r.Int64N(10)), true
		}
		return q.Seat, WaitMove, true
	}
	enginetest.BenchRestore(b, Game{}, setup, enginetest.Options[Move, View]{Seed: 1, Steps: 3000, Move: calm})
}

// TestIntRows: the history's table reads back what it writes, and refuses
// what is not an array of arrays of whole numbers as JSON writes them.
func TestIntRows(t *testing.T) {
	rows := intRows{{1, -2, 30}, {}, {9_223_372_036_854_775_807}}
	b, _ := rows.MarshalJSON()
	var back intRows
	if err := back.UnmarshalJSON(b); err != nil || fmt.Sprint(back) != fmt.Sprint(rows) {
		t.Errorf("%s read back as %v, %v", b, back, err)
	}
	if err := back.UnmarshalJSON([]byte(" [ [ 1 , 2 ] , [3] ] ")); err != nil || fmt.Sprint(back) != "[[1 2] [3]]" {
		t.Errorf("spaces: %v, %v", back, err)
	}
	for _, bad := range []string{``, `[`, `[[1,]]`, `[[01]]`, `[[1.5]]`, `[[1]]x`, `[[-]]`, `[1]`, `[[1][2]]`, `[[9223372036854775808]]`, `{}`, `[[1e3]]`} {
		if err := back.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: read as %v", bad, back)
		}
	}
}
