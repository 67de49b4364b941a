package tncc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/internal/doctest"
)

func TestProtocolDocumentsATradeFromTheOfferersSide(t *testing.T) {
	// docs/protocol.md: "A trade is said from the offerer's side: give and
	// give_n are what the offerer hands over, take and take_n what it asks
	// in return. The offer above, accepted, moves 100 gold from the offerer
	// to seat 1 and 200 food from seat 1 to the offerer." The trade answer's
	// view has the offer "still from the offerer's side".
	const offer = `{"type":"trade","with":1,"give":"gold","give_n":100,"take":"food","take_n":200}`
	doctest.Says(t, "../../docs/protocol.md", "`"+offer+"`", "A trade is said from the offerer's side: `give` and `give_n` are what the offerer hands over, `take` and `take_n` what it asks in return. The offer above, accepted, moves 100 gold from the offerer to seat 1 and 200 food from seat 1 to the offerer.")
	var mv Move
	if err := json.Unmarshal([]byte(offer), &mv); err != nil {
		t.Fatal(err)
	}
	m := rulesMatch(t, 2, nil)
	a, b := m.world.Countries[0].Stock, m.world.Countries[1].Stock
	rulesPlay(t, m, 0, mv)
	view, _ := json.Marshal(m.View(1))
	if want := `"offer":{"from":0,"give":"gold","give_n":100,"take":"food","take_n":200}`; !strings.Contains(string(view), want) {
		t.Errorf("the trade answer's view lacks %s:\n%s", want, view)
	}
	rulesPlay(t, m, 1, AcceptMove)
	a2, b2 := m.world.Countries[0].Stock, m.world.Countries[1].Stock
	if a2[Gold] != a[Gold]-100 || b2[Gold] != b[Gold]+100 || a2[Food] != a[Food]+200 || b2[Food] != b[Food]-200 {
		t.Errorf("accepted: the offerer %v, seat 1 %v; before %v and %v", a2, b2, a, b)
	}
}
