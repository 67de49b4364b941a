package ajveciv_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/report"
)

// Raider is an AI: it conquers whenever it can, and otherwise chooses the
// offered value it is most devoted to. At an inflection it strengthens
// conquer if it may.
type Raider struct{}

func (Raider) Turn(v ajveciv.View) (ajveciv.Value, error) {
	if v.Offers(ajveciv.Conquer) {
		return ajveciv.Conquer, nil
	}
	me := v.Me()
	best := v.Offered()[0]
	for _, o := range v.Offered() {
		if me.Values[o] > me.Values[best] {
			best = o
		}
	}
	return best, nil
}

func (r Raider) Inflection(v ajveciv.View) (ajveciv.Value, error) { return r.Turn(v) }

// Name names the AI's seat in reports and records.
func (Raider) Name() string { return "raider" }

// An AI implements Turn and Inflection over a View; Seats seats it beside
// the built-in AIs.
func Example_ai() {
	s := ajveciv.NewSeries(ajveciv.Original(), 7)
	s.Game(ajveciv.Seats(Raider{}, ajveciv.Priority(ajveciv.Discover), ajveciv.Priority(ajveciv.Develop))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	res := recs[0].End.Result
	for seat, name := range recs[0].Header.Setup.Players {
		fmt.Printf("%-14s won: %v\n", name, res.Won(seat))
	}
	// Output:
	// raider         won: false
	// basic.discover won: false
	// basic.develop  won: true
}

// Flood is a world: the original rules, but the waters rise and take one
// yield from the world every turn.
type Flood struct{ ajveciv.OriginalRules }

func (f Flood) Turn(w *ajveciv.World, choices []ajveciv.Value, rng *rand.Rand) error {
	if err := f.OriginalRules.Turn(w, choices, rng); err != nil {
		return err
	}
	w.Yield--
	return nil
}

// Init makes the world richer at the start, before the waters rise.
func (Flood) Init(w *ajveciv.World) error {
	w.Yield = 40
	return nil
}

// A world is a named variant of the rules: implement Turn and Inflection
// over the World (here by wrapping the original rules) and name it in a
// Game. Records say which world a match was played in.
func Example_world() {
	flood := ajveciv.Game{Variant: "flood", Rules: Flood{}}
	s := ajveciv.NewSeries(flood, 1)
	s.Options = map[string]string{"turns": "10", "inflections": "false"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Consent), ajveciv.Priority(ajveciv.Expand))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := report.Build(s.Ruleset, recs)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := rep.Games[0]
	start, end := g.History[0].(ajveciv.World), g.History[len(g.History)-1].(ajveciv.World)
	fmt.Println("world:", recs[0].Header.Variant)
	fmt.Println("yield at the start:", start.Yield)
	fmt.Println("yield at the end:", end.Yield)
	// Output:
	// world: flood
	// yield at the start: 40
	// yield at the end: 87
}

// Games chain into a series, each with its own players (the seed's
// civ.game(...).game(...).play()); game k plays with the series' seed + k.
func Example_series() {
	s := ajveciv.NewSeries(ajveciv.Original(), 100)
	s.Game(ajveciv.Seats(Raider{}, Raider{}, Raider{})...)
	s.Game(ajveciv.Seats(Raider{}, Raider{}, Raider{}, Raider{})...)
	s.Game(ajveciv.Seats(Raider{}, Raider{}, Raider{}, Raider{}, Raider{})...)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		fmt.Printf("seed %d: %d players, %d moves\n", r.Header.Setup.Seed, len(r.Header.Setup.Players), len(r.Steps))
	}
	// Output:
	// seed 100: 3 players, 256 moves
	// seed 101: 4 players, 370 moves
	// seed 102: 5 players, 349 moves
}

// A series' report goes to standard output, to a file, or to a function of
// your own: it is an ordinary value.
func Example_report() {
	s := ajveciv.NewSeries(ajveciv.Original(), 3)
	s.Options = map[string]string{"turns": "2"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Develop), ajveciv.Priority(ajveciv.Consent))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := report.Build(s.Ruleset, recs)
	if err != nil {
		fmt.Println(err)
		return
	}

	// To standard output, as text (or rep.WriteJSON for JSON).
	_ = rep.WriteText(os.Stdout)

	// To a file, as a page with charts.
	dir, err := os.MkdirTemp("", "ajveciv-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	f, err := os.Create(filepath.Join(dir, "report.html"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	if err := rep.WriteHTML(f); err != nil {
		fmt.Println(err)
	}

	// To a function of your own.
	summarise := func(r *report.Report) {
		for _, g := range r.Games {
			fmt.Printf("game %d: winners %v\n", g.Number, g.Result.Winners)
		}
	}
	summarise(rep)
	// Output:
	// game 1: ajveciv (original), seed 3
	// players: 1 basic.develop, 2 basic.consent
	// options: turns=2
	// at the start
	//   world yield 20
	//    # pop yield con exc dis exp dev cns
	//    1   3     3   2   2   2   2   2   2
	//    2   3     3   2   2   2   2   2   2
	//   con conquer, exc exchange, dis discover, exp expand, dev develop, cns consent
	//   how each society (row) feels toward each other (column):
	//   feel  1  2
	//      1  ·  0
	//      2  0  ·
	// at the end (turn 2)
	//   world yield 20
	//    # pop yield con exc dis exp dev cns
	//    1   3    17   3   2   2   2   3   2
	//    2   3     3   2   3   2   2   2   3
	//   con conquer, exc exchange, dis discover, exp expand, dev develop, cns consent
	//   how each society (row) feels toward each other (column):
	//   feel  1  2
	//      1  ·  4
	//      2 -6  ·
	// ended: turns
	// final scores (score: yield plus population)
	//    1  basic.develop        20  rank 1  WINNER
	//    2  basic.consent         6  rank 2
	// faults: none
	// game 1: winners [0]
}
