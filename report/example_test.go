package report_test

import (
	"context"
	"fmt"
	"os"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/report"
)

// A long series is reported as it is played: each game goes to the writer
// and is forgotten, and the records are not kept.
func ExampleNewSummary() {
	s := ajveciv.NewSeries(ajveciv.Original(), 7)
	s.Options = map[string]string{"turns": "10"}
	for range 50 {
		s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), ajveciv.Priority(ajveciv.Develop), ajveciv.Random())...)
	}
	w := report.NewSummary(os.Stdout) // or NewText, NewJSON, NewHTML
	s.Forget = true
	s.Played = func(k int, rec *engine.Record[ajveciv.Value], _ engine.Match[ajveciv.Value, ajveciv.View]) error {
		g, err := report.BuildGame(s.Ruleset, rec, k+1)
		if err != nil {
			return err
		}
		return w.WriteGame(&g)
	}
	if _, err := s.Play(context.Background()); err != nil {
		fmt.Println(err)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// game: ajveciv (original)
	// options: turns=10
	// series: 50 games, 50 finished
	//   player         games   wins  win rate (95% CI)      mean score (95% CI)
	//   basic.conquer     50      5  10.0% (4.3–21.4)       47.4 ± 3.2
	//   basic.develop     50     42  84.0% (71.5–91.7)      82.8 ± 7.7
	//   random            50      3  6.0% (2.1–16.2)        46.8 ± 4.6
	//   (score: yield plus population)
	//   ended: turns (50)
}
