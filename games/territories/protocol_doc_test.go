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
