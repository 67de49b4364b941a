package server_test

import (
	"net/http"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

func TestTurnOfIsTold(t *testing.T) {
	// "Whose turn is it?" In the games played one seat at a time, everyone
	// is told (turn_of); a TNCC country's turn lasts while the answer to its
	// offer is owed, which nobody else is told; the games whose seats
	// choose at once tell nobody who has chosen.
	ts := newServer(t, server.Config{})
	turnOf := func(id, secret string) any {
		t.Helper()
		a := ts.call("GET", "/api/v1/matches/"+id, secret, nil)
		if a.status != http.StatusOK {
			t.Fatalf("GET: %d %s", a.status, a.body)
		}
		v, ok := a.json["turn_of"]
		if !ok {
			return nil
		}
		return v
	}
	c := ts.create(map[string]any{"game": "tncc", "seats": people(3)})
	for _, secret := range []string{"", c.Seats[1].Secret, c.Seats[0].Secret} {
		if got := turnOf(c.ID, secret); got != float64(0) {
			t.Errorf("before the first action, turn_of is %v; want 0", got)
		}
	}
	m := ts.state(c.ID, c.Seats[0].Secret)
	a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": m.Requests[0].ID,
		"move": map[string]any{"type": "trade", "with": 1, "give": "gold", "give_n": 10, "take": "food", "take_n": 5}})
	if a.status != http.StatusOK {
		t.Fatalf("the offer: %d %s", a.status, a.body)
	}
	if owed := ts.state(c.ID, c.Seats[1].Secret).Requests; len(owed) != 1 || owed[0].Kind != "trade answer" {
		t.Fatalf("country 2 owes %+v; want the trade's answer", owed)
	}
	for _, secret := range []string{"", c.Seats[2].Secret, c.Seats[1].Secret} {
		if got := turnOf(c.ID, secret); got != float64(0) {
			t.Errorf("while country 2 owes its answer, turn_of is %v; want 0, country 1's turn", got)
		}
	}
	m = ts.state(c.ID, c.Seats[1].Secret)
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[1].Secret, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Choices[1]}); a.status != http.StatusOK {
		t.Fatalf("the answer: %d %s", a.status, a.body)
	}
	if got := turnOf(c.ID, ""); got != float64(1) {
		t.Errorf("after country 1's turn, turn_of is %v; want 1", got)
	}

	// Territories: the seat to join or act.
	tc := ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2)})
	if got := turnOf(tc.ID, ""); got != float64(0) {
		t.Errorf("territories: turn_of is %v; want 0", got)
	}
	// AjveCiv, Reaj, a zombie party: no turn_of, before and after a seat
	// has chosen.
	for _, game := range []map[string]any{
		{"game": "ajveciv", "seats": people(2)},
		{"game": "reaj", "seats": people(2)},
		{"game": "zombie", "mode": "party", "seats": people(3)},
	} {
		gc := ts.create(game)
		if got := turnOf(gc.ID, ""); got != nil {
			t.Errorf("%s: turn_of %v; want none", game["game"], got)
		}
		m := ts.state(gc.ID, gc.Seats[0].Secret)
		if a := ts.call("POST", "/api/v1/matches/"+gc.ID+"/moves", gc.Seats[0].Secret, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default}); a.status != http.StatusOK {
			t.Fatalf("%s: %d %s", game["game"], a.status, a.body)
		}
		for _, secret := range []string{"", gc.Seats[0].Secret, gc.Seats[1].Secret} {
			if got := turnOf(gc.ID, secret); got != nil {
				t.Errorf("%s, a seat having chosen: turn_of %v; want none", game["game"], got)
			}
		}
	}
}
