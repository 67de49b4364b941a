package tncc_test

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/tncc"
)

// Grudge is a bot. It keeps an army as large as the largest rival's, as far
// as its citizens can feed it, and goes to war only on a country that has
// attacked it, once it is the stronger. It never attacks a country that has
// offered it a trade, and accepts gifts but no other offer.
type Grudge struct{}

func (Grudge) Turn(v tncc.View) (tncc.Move, error) {
	me := v.Me()
	p := v.Preset()
	// Read the history: who attacked us, and who offered us trades.
	var grudge, friend [tncc.MaxCountries]bool
	for _, e := range v.History() {
		if b, ok := e.War(); ok && b.Defender == v.You() {
			grudge[b.Attacker] = true
		}
		if o, _, ok := e.Trade(); ok && o.With == v.You() {
			friend[o.From] = true
		}
	}
	army := me.Stock[tncc.Army]
	var largest int64
	for i := range v.Countries() {
		c := v.Country(i)
		if i == v.You() || c.Dead {
			continue
		}
		largest = max(largest, c.Stock[tncc.Army])
		// Revenge: on the first enemy we outnumber twice over, in thirds.
		if grudge[i] && !friend[i] && army > 2*c.Stock[tncc.Army] && me.Stock[tncc.Gold] >= v.GoldForWar() {
			return tncc.WarMove(i, tncc.Thirds(army)), nil
		}
	}
	// Arm to the largest rival army, while the citizens left make the food
	// the army eats.
	if n := largest - army; n > 0 {
		citizens := me.Stock[tncc.Citizens] - n
		if citizens > 0 && p.FoodPerCitizen.Floor(citizens) >= p.FoodPerSoldier.Floor(army+n) {
			return tncc.RecruitMove(n), nil
		}
	}
	return tncc.WaitMove, nil
}

func (Grudge) AnswerTrade(v tncc.View, o tncc.Offer) (bool, error) {
	return o.TakeN == 0, nil // a gift
}

func (Grudge) AnswerWar(v tncc.View, a tncc.Attack) (tncc.Flanks, error) {
	return tncc.Thirds(v.Me().Stock[tncc.Army]), nil
}

// A bot implements Turn, AnswerTrade and AnswerWar over a View; Player
// seats it beside the built-in bots (Bots), and the engine plays the
// match.
func Example() {
	names := []string{"grudge", "turtle", "war", "blitz"}
	seats := []engine.Seat[tncc.Move, tncc.View]{{Name: "grudge", Player: tncc.Player(Grudge{})}}
	for _, name := range names[1:] {
		bots, err := tncc.Bots(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		seats = append(seats, engine.Seat[tncc.Move, tncc.View]{Name: name, Player: bots[0].New()})
	}
	series := engine.Series[tncc.Move, tncc.View]{Ruleset: tncc.Game{}, Seed: 1}
	recs, err := series.Game(seats...).Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	res := recs[0].End.Result
	fmt.Println(res.Reason)
	for seat, name := range names {
		fmt.Printf("%-6s rank %d", name, res.Ranks[seat])
		if res.Status != nil && res.Status[seat] != "" {
			fmt.Printf(", %s", res.Status[seat])
		}
		fmt.Println()
	}
	// Output:
	// one country left
	// grudge rank 4, dead (cycle 31)
	// turtle rank 2, dead (cycle 39)
	// war    rank 3, dead (cycle 35)
	// blitz  rank 1
}

// View.World is a copy of the world for looking ahead with the rules: here,
// what recruiting 200 citizens would leave after the cycle's production,
// and what a war on country 2 with them all on one flank would do against
// its army in thirds.
func ExampleView_World() {
	m, err := tncc.Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"me", "them"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := m.View(0)
	w := v.World()
	w.Recruit(0, 200)
	w.Produce()
	fmt.Println("after a cycle:", w.Countries[0].Stock)
	w.Countries[0].Stock[tncc.Gold] = w.Preset.GoldForWar // as if it had saved up
	b := w.War(0, tncc.WarMove(1, tncc.Flanks{200, 0, 0}), tncc.Thirds(w.Countries[1].Stock[tncc.Army]))
	fmt.Println(b)
	fmt.Println("the match itself:", v.Me().Stock)
	// Output:
	// after a cycle: [730 900 642 200 150]
	// country 1 attacked country 2: 200 against 0; 200 and 0 left; the attacker won, and took 100 gold, 200 food, 20 citizens, 5 land
	// the match itself: [600 800 800 0 150]
}
