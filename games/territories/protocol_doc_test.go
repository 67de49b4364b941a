package territories

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/doctest"
)

func TestProtocolDocumentsASeatsPlayer(t *testing.T) {
	// docs/protocol.md: "A nation's player is the game's name for the
	// seat's player, "seat N" counted from 1, while the view's seat counts
	// from 0 like every seat of the protocol: seat 0's nation has "player":
	// "seat 1"."
	doctest.Says(t, "../../docs/protocol.md", "while the view's `seat` counts from 0 like every seat of the protocol: seat 0's nation has `\"player\": \"seat 1\"`")
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		r := m.Pending()[0]
		if r.Seat != seat {
			t.Fatalf("seat %d is asked; want seat %d", r.Seat, seat)
		}
		if err := m.Apply(seat, r.Choices[0]); err != nil {
			t.Fatal(err)
		}
	}
	var view struct {
		Seat   int    `json:"seat"`
		Nation string `json:"nation"`
		Board  struct {
			Nations []struct{ Name, Player string } `json:"nations"`
		} `json:"board"`
	}
	b, _ := json.Marshal(m.View(1))
	if err := json.Unmarshal(b, &view); err != nil {
		t.Fatal(err)
	}
	n := view.Board.Nations
	if view.Seat != 1 || len(n) != 2 || n[0].Player != "seat 1" || n[1].Player != "seat 2" || n[1].Name != view.Nation {
		t.Errorf("seat 1's view: seat %d, nation %s, nations %+v; want seat 1 and its nation's player \"seat 2\"", view.Seat, view.Nation, n)
	}

	// "Names in moves are read in any case ...: territories' actions
	// ("ATTACK ca nv")": an action in capitals on a territory in small
	// letters is played.
	r := m.Pending()[0]
	var held string
	for _, h := range newBoard(m.w).Holdings {
		if h.Nation == nationNames[r.Seat] {
			held = h.Territory
		}
	}
	var a Action
	if err := json.Unmarshal([]byte(`"RAISE `+strings.ToLower(held)+`"`), &a); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(r.Seat, a); err != nil {
		t.Errorf("%s: %v", a, err)
	}
}

func TestProtocolDocumentsTheTurnAndWhatHappened(t *testing.T) {
	// docs/protocol.md: each nation has "its actions in the turn:
	// allowed, used and passed. A nation in the game has allowed − used
	// actions left in the turn, none once it has passed"; one out of the
	// game has out and out_turn, one in it neither; last_action_seq is
	// "the number of the seat's own last action ..., 0 before its first";
	// since_last_action "the actions accepted from that one on, that one
	// included ..., oldest first, the latest 32 at most", each with seq,
	// action, player, turn.
	doctest.Says(t, "../../docs/protocol.md",
		"and its actions in the turn: `allowed`, `used` and `passed`. A nation in the game has `allowed` − `used` actions left in the turn, none once it has passed",
		"A nation out of the game has `out`, the number of the action that took its last army, and `out_turn`, the turn it went out in",
		"`last_action_seq`: the number of the seat's own last action (actions count from 1, joins included), 0 before its first",
		"`since_last_action`: the actions accepted from that one on, that one included (every action so far, before the seat's first), oldest first, the latest 32 at most",
		"the dice that roll the next battle are in no view")
	type nation struct {
		Name          string
		Out           *int
		OutTurn       *int `json:"out_turn"`
		Allowed, Used *int
		Passed        *bool
	}
	type view struct {
		Seat        int
		Kind        engine.Kind
		ActionsLeft int `json:"actions_left"`
		Board       struct {
			Turn    int
			Nations []nation
		}
		LastActionSeq   *int `json:"last_action_seq"`
		SinceLastAction []struct {
			Seq    int
			Action string
			Player string
			Turn   int
		} `json:"since_last_action"`
	}
	outs := 0
	for seed := range uint64(8) {
		players := []string{"greedy", "greedy", "greedy", "greedy", "greedy", "greedy"}
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: players, Options: map[string]string{"turns": "40"}})
		if err != nil {
			t.Fatal(err)
		}
		bot, last := Player(Greedy()), make([]int, len(players))
		for !m.Over() {
			r := m.Pending()[0]
			b, _ := json.Marshal(m.View(r.Seat))
			if strings.Contains(string(b), "dice") || strings.Contains(string(b), "seed") {
				t.Fatalf("a view tells the dice: %s", b)
			}
			var v view
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			w := m.World()
			for k, n := range v.Board.Nations {
				x := w.Nation(k)
				if n.Allowed == nil || n.Used == nil || n.Passed == nil || *n.Allowed != x.Allowed || *n.Used != x.Used || *n.Passed != x.Passed {
					t.Fatalf("seed %d: nation %s in the view %+v; in the match %+v", seed, n.Name, n, *x)
				}
				left := *n.Allowed - *n.Used
				if *n.Passed || !x.In() {
					left = 0
				}
				if left != x.ActionsLeft() || k == r.Seat && left != v.ActionsLeft {
					t.Fatalf("seed %d: nation %s: %d actions left by the view, %d in the match", seed, n.Name, left, x.ActionsLeft())
				}
				if x.In() != (n.Out == nil) || x.In() != (n.OutTurn == nil) {
					t.Fatalf("seed %d: nation %s, in the game %v, has out %v and out_turn %v", seed, n.Name, x.In(), n.Out, n.OutTurn)
				}
				if !x.In() {
					outs++
					if *n.Out != x.Out || *n.OutTurn != m.outTurn(k) || *n.OutTurn < 1 || *n.OutTurn > v.Board.Turn {
						t.Fatalf("seed %d: nation %s out at action %d in turn %d; the match says action %d in turn %d", seed, n.Name, *n.Out, *n.OutTurn, x.Out, m.outTurn(k))
					}
				}
			}
			told := w.Seq()
			if v.LastActionSeq == nil || *v.LastActionSeq != last[r.Seat] {
				t.Fatalf("seed %d: seat %d's last action is %d; the view says %v", seed, r.Seat+1, last[r.Seat], v.LastActionSeq)
			}
			from := max(last[r.Seat], 1)
			if told-from+1 > recentSize {
				from = told - recentSize + 1
			}
			if len(v.SinceLastAction) != told-from+1 {
				t.Fatalf("seed %d: %d actions since seat %d's last, action %d of %d", seed, len(v.SinceLastAction), r.Seat+1, last[r.Seat], told)
			}
			for i, o := range v.SinceLastAction {
				if o.Seq != from+i || o.Action == "" || o.Turn < 1 || o.Seq == last[r.Seat] && o.Player != seatPlayer(r.Seat) {
					t.Fatalf("seed %d: action %d since seat %d's last: %+v", seed, i+1, r.Seat+1, o)
				}
			}
			mv, err := bot.Decide(nil, &r, m.View(r.Seat))
			if err != nil || m.Apply(r.Seat, mv) != nil {
				if err := m.Apply(r.Seat, r.Default); err != nil {
					t.Fatal(err)
				}
			}
			last[r.Seat] = w.Seq()
		}
	}
	if outs == 0 {
		t.Error("no view of a nation out of the game: the games test nothing of out and out_turn")
	}
}
