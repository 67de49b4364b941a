package territories

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// pick returns one of the actions of the kind drawn among those legal
// (raise, move, attack, pass), so that attacks are not drowned in moves;
// pass is drawn rarely.
func pick(r *rand.Rand, legal []Action) Action {
	return pickOf(r, legal, []Kind{Attack, Attack, Move, Raise, Raise})
}

// pickCalm is pick with an attack drawn one time in five hundred: for
// games that last.
func pickCalm(r *rand.Rand, legal []Action) Action {
	if r.IntN(500) == 0 {
		return pickOf(r, legal, []Kind{Attack})
	}
	return pickOf(r, legal, []Kind{Move, Raise})
}

// pickOf returns an action of a kind drawn from kinds, or pass one time
// in eight.
func pickOf(r *rand.Rand, legal []Action, kinds []Kind) Action {
	if len(legal) == 0 {
		return PassAction
	}
	byKind := map[Kind][]Action{}
	for _, a := range legal {
		byKind[a.Kind] = append(byKind[a.Kind], a)
	}
	if r.IntN(8) == 0 {
		kinds = []Kind{Pass}
	}
	for range 8 {
		if as := byKind[kinds[r.IntN(len(kinds))]]; len(as) > 0 {
			return as[r.IntN(len(as))]
		}
	}
	return legal[r.IntN(len(legal))]
}

// seatMove is a random move of the seat asked: a free territory to join,
// a legal action drawn by pick; one time in ten something the rules
// refuse (an unknown territory, a colour, another seat's move).
func seatMove(r *rand.Rand, m engine.Match[Action, View]) (int, Action, bool) {
	return seatMoveOf(r, m, pick)
}

// seatMoveOf is seatMove with the actions drawn by pick.
func seatMoveOf(r *rand.Rand, m engine.Match[Action, View], pick func(*rand.Rand, []Action) Action) (int, Action, bool) {
	reqs := m.Pending()
	if len(reqs) == 0 {
		return 0, Action{}, false
	}
	q := reqs[0]
	seat, a := q.Seat, q.Default
	switch {
	case r.IntN(10) == 0:
		a = [...]Action{RaiseAction("Atlantis"), ColorAction("#123456"), JoinAction("Zed", "CA"), EndTurnAction}[r.IntN(4)]
		seat = [...]int{seat, seat + 1, engine.Judge}[r.IntN(3)]
	case q.Kind == JoinKind:
		a = q.Choices[r.IntN(len(q.Choices))]
	default:
		a = pick(r, m.View(seat).Legal())
	}
	return seat, a, true
}

// turnBoard is the sample map with turn management: an action for each
// holding.
func turnBoard() string {
	c := *Sample()
	c.TurnManagement, c.HoldingsPerAction = true, 1
	return string(c.JSON())
}

// TestRestore: at every step of random games, from 2 to 6 seats, on the
// sample map and on one with turn management of its own, a match restored
// from its snapshot is the original and plays on as it does: the dice,
// the seat asked and its request's id, the joins still owed, the
// chronicle, the end.
func TestRestore(t *testing.T) {
	boards := []string{"sample", turnBoard()}
	for b, board := range boards {
		for _, n := range []int{2, 4, 6} {
			for seed := range uint64(2) {
				setup := engine.Setup{Seed: seed, Players: make([]string, n), Options: map[string]string{"turns": "30", "board": board}}
				t.Run(fmt.Sprintf("board-%d/%d-seats/seed-%d", b, n, seed), func(t *testing.T) {
					enginetest.CheckRestore(t, Game{}, setup, enginetest.Options[Action, View]{Seed: seed, Steps: 250, Move: seatMove})
				})
			}
		}
	}
}

// callers are the players of the refereed games the tests play.
var callers = []string{"alice", "bob", "carol", "dave"}

// judgeCall is a random call of the judge's: a join of a player who has
// none on a free territory (sometimes a taken one), an action of a player
// in the game drawn by pick, the judge's end-turn, a colour; one call in
// ten the rules refuse.
func judgeCall(r *rand.Rand, m engine.Match[Call, Board]) (int, Call, bool) {
	return judgeCallOf(r, m, pick)
}

// judgeCallOf is judgeCall with the actions drawn by pick.
func judgeCallOf(r *rand.Rand, m engine.Match[Call, Board], pick func(*rand.Rand, []Action) Action) (int, Call, bool) {
	if m.Over() {
		return 0, Call{}, false
	}
	w := m.(*Refereed).World()
	who := callers[r.IntN(len(callers))]
	k := w.NationOf(who)
	var c Call
	switch {
	case r.IntN(10) == 0:
		c = [...]Call{{Player: who, Action: RaiseAction("Atlantis")}, {Action: RaiseAction("CA")}, {Player: "eve", Action: PassAction}}[r.IntN(3)]
	case k < 0:
		t := w.Config().Territories[r.IntN(w.Config().Len())].ID
		c = Call{Player: who, Action: JoinAction("N"+who, t)}
	case r.IntN(12) == 0 && w.Config().TurnManagement:
		c = Call{Action: EndTurnAction}
	case r.IntN(20) == 0:
		c = Call{Player: who, Action: ColorAction(Color(fmt.Sprintf("#%06x", r.IntN(1<<24))))}
	default:
		c = Call{Player: who, Action: pick(r, w.Legal(k))}
	}
	return engine.Judge, c, true
}

// TestRestoreReferee: the same of a refereed game, whose judge makes every
// call for named players, on the sample map (no turns) and with turns.
func TestRestoreReferee(t *testing.T) {
	for b, board := range []string{"sample", turnBoard()} {
		for seed := range uint64(3) {
			setup := engine.Setup{Seed: seed, Options: map[string]string{"board": board}}
			t.Run(fmt.Sprintf("board-%d/seed-%d", b, seed), func(t *testing.T) {
				enginetest.CheckRestore(t, Referee{}, setup, enginetest.Options[Call, Board]{Seed: seed, Steps: 300, Judge: true, Move: judgeCall})
			})
		}
	}
}

// TestRestoreRefusesAnotherGame: a snapshot is restored by its own rules
// only, under its own setup.
func TestRestoreRefusesAnotherGame(t *testing.T) {
	setup := engine.Setup{Players: make([]string, 3)}
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := m.MarshalJSON()
	if _, err := (Referee{}).Restore(engine.Setup{}, snap); err == nil || err.Error() != `territories (referee): the snapshot is of a "territories" match, not of territories (referee)` {
		t.Errorf("a seated game's snapshot restored as a refereed one: %v", err)
	}
	turns := setup
	turns.Options = map[string]string{"board": turnBoard()}
	if _, err := (Game{}).Restore(turns, snap); err == nil {
		t.Error("a snapshot on the sample map restored on another")
	}
	r, _ := Referee{}.New(engine.Setup{})
	ref, _ := r.(*Refereed).MarshalJSON()
	if _, err := (Game{}).Restore(setup, ref); err == nil {
		t.Error("a refereed game's snapshot restored as a seated one")
	}
}

// FuzzRestore: a damaged snapshot of a seated game is refused, or
// restores a match that plays on; never a panic.
func FuzzRestore(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: make([]string, 3), Options: map[string]string{"turns": "6"}}
	o := enginetest.Options[Action, View]{Seed: 1, Steps: 200, Move: seatMove}
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

// FuzzRestoreReferee: the same of a refereed game with turns.
func FuzzRestoreReferee(f *testing.F) {
	setup := engine.Setup{Seed: 7, Options: map[string]string{"board": turnBoard()}}
	o := enginetest.Options[Call, Board]{Seed: 1, Steps: 200, Judge: true, Move: judgeCall}
	snaps, err := enginetest.Snapshots(Referee{}, setup, o, 16)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range snaps {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.CheckDamaged(t, Referee{}, setup, data, o)
	})
}

// BenchmarkRestore: resuming a match of 6 seats after 700 moves, few of
// them attacks (the map is full, and the game over, soon after), from its
// snapshot or by replaying its moves.
func BenchmarkRestore(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 6), Options: map[string]string{"turns": "10000", "board": turnBoard()}}
	enginetest.BenchRestore(b, Game{}, setup, enginetest.Options[Action, View]{Seed: 1, Steps: 700,
		Move: func(r *rand.Rand, m engine.Match[Action, View]) (int, Action, bool) {
			return seatMoveOf(r, m, pickCalm)
		}})
}

// BenchmarkRestoreReferee: the same of a refereed game after 3,000 calls.
func BenchmarkRestoreReferee(b *testing.B) {
	setup := engine.Setup{Seed: 1, Options: map[string]string{"board": turnBoard()}}
	enginetest.BenchRestore(b, Referee{}, setup, enginetest.Options[Call, Board]{Seed: 1, Steps: 3000,
		Move: func(r *rand.Rand, m engine.Match[Call, Board]) (int, Call, bool) { return judgeCallOf(r, m, pickCalm) }})
}
