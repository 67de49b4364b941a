package territories_test

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
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

// Raider is a bot: it founds its nation on the first free territory, then
// attacks whenever the odds of a battle are at least two in three, and
// otherwise raises armies where it can.
type Raider struct{ legal []territories.Action }

func (r *Raider) Join(v territories.View) (territories.Action, error) {
	return v.Legal()[0], nil
}

func (r *Raider) Act(v territories.View) (territories.Action, error) {
	w, cfg := v.World(), v.Config()
	r.legal = v.AppendLegal(r.legal[:0]) // no allocation once grown
	raise := territories.PassAction
	for _, a := range r.legal {
		switch a.Kind {
		case territories.Attack:
			from, _ := cfg.Lookup(a.From)
			to, _ := cfg.Lookup(a.To)
			if territories.Chance(w.Holding(from).Armies, w.Holding(to).Armies) >= 2.0/3 {
				return a, nil
			}
		case territories.Raise:
			if raise.Kind != territories.Raise {
				raise = a
			}
		}
	}
	return raise, nil
}

// A bot implements Join and Act over a View; Player seats it beside the
// built-in bots (Bots), and the engine plays the match. The score is the
// territories held at the end.
func ExamplePlayer() {
	greedy, err := territories.Bots("greedy")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := engine.Series[territories.Action, territories.View]{Ruleset: territories.Game{}, Seed: 3}
	s.Options = map[string]string{"turns": "30"}
	s.Game(
		engine.Seat[territories.Action, territories.View]{Name: "raider", Player: territories.Player(&Raider{})},
		engine.Seat[territories.Action, territories.View]{Name: "greedy", Player: greedy[0].New()},
	)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	res := recs[0].End.Result
	fmt.Println(res.Reason)
	for seat, name := range recs[0].Header.Setup.Players {
		fmt.Printf("%-6s %d territories, rank %d\n", name, res.Scores[seat], res.Ranks[seat])
	}
	// Output:
	// one nation left
	// raider 0 territories, rank 2
	// greedy 2 territories, rank 1
}
