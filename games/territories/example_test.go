package territories_test

import (
	"fmt"

	"github.com/arbiter-games/arbiter/games/territories"
)

// A game on the sample map, driven as the referee drives it: each call is a
// player and an action; each answer an outcome, or the rules' refusal.
func Example() {
	w := territories.NewWorld(territories.Sample())
	for _, call := range []struct{ player, action string }{
		{"alice", "join Pacifica CA"},
		{"bob", "join Deseret Nevada"},
		{"alice", "color red"},
		{"alice", "raise CA"},
		{"alice", "attack CA UT"},
		{"alice", "attack CA NV"},
	} {
		a, err := territories.ParseAction(call.action)
		if err != nil {
			fmt.Println("bad action:", err)
			continue
		}
		o, err := w.Apply(call.player, a)
		if err != nil {
			fmt.Println("refused:", err)
			continue
		}
		fmt.Println(o)
	}
	// Output:
	// alice founds Pacifica at CA with 3 armies, colour #e6194b
	// bob founds Deseret at NV with 3 armies, colour #800000
	// alice (Pacifica) takes the colour #ff0000
	// alice (Pacifica) raises an army in CA, which now has 4 armies
	// refused: CA (California) and UT (Utah) are not neighbours; CA borders OR, NV, AZ
	// alice (Pacifica) attacks Deseret in NV from CA: 4 against 3, roll 20 > 8: success; Deseret loses 3 armies and NV is unclaimed; Deseret is out of the game
}
