package ajveciv

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// The rules page sets the planner a bar: "in 200 seeded six-seat games
// against five different basic AIs each (rotating seats and opponents), it
// has the highest mean score and the most wins of all seven kinds."
// TestPlannerTable plays those games; print the table with
//
//	go test ./games/ajveciv -run TestPlannerTable -v
//
// and play fewer (or more) games while working on the planner with
// -table.games=N. The bar is judged on whatever was played.

// tableGames is the number of games TestPlannerTable plays.
var tableGames = flag.Int("table.games", 200, "games TestPlannerTable plays (the bar is set at 200)")

// tableLineup returns game g's lineup, six entrants in seat order. basics are
// the six basic AIs in the seed's order (Bots("basic")); planner is the
// entrant under test.
//
// Game g (from 0) leaves out basic kind g%6, seats the planner at seat
// (g/6)%6, and fills the other five seats, in seat order, with the remaining
// five basic kinds in their own order rotated by g%5: the k-th of those seats
// holds remaining[(k+g%5)%5].
func tableLineup(g int, basics []Entrant, planner Entrant) []Entrant {
	remaining := make([]Entrant, 0, len(basics)-1)
	for i, e := range basics {
		if i != g%len(basics) {
			remaining = append(remaining, e)
		}
	}
	lineup := make([]Entrant, 0, len(basics))
	at, k := (g/6)%6, 0
	for seat := range len(basics) {
		if seat == at {
			lineup = append(lineup, planner)
			continue
		}
		lineup = append(lineup, remaining[(k+g%5)%5])
		k++
	}
	return lineup
}

// tableSeed is game g's match seed.
func tableSeed(g int) uint64 { return uint64(1000 + g) }

// tableRow is one kind's line of the table.
type tableRow struct {
	Kind  string
	Games int
	Total int64 // sum of its scores
	Wins  int   // a shared win counts for every winner
}

// Mean returns the kind's mean score.
func (r tableRow) Mean() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.Total) / float64(r.Games)
}

// tableResult is the table, and how the planner spent its time.
type tableResult struct {
	Rows []tableRow // sorted by mean score, best first
	// Decisions, Slowest and Spent are the planner's decisions, its slowest
	// decision and its total time deciding, in wall time as the runner
	// records it (a decision that waited for the processor counts whole).
	Decisions int
	Slowest   time.Duration
	Spent     time.Duration
	Faults    []string // every fault of any seat, described
}

// row returns the row of kind, or nil.
func (t *tableResult) row(kind string) *tableRow {
	for i := range t.Rows {
		if t.Rows[i].Kind == kind {
			return &t.Rows[i]
		}
	}
	return nil
}

// String formats the table for people.
func (t *tableResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %6s %10s %6s\n", "kind", "games", "mean score", "wins")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "%-16s %6d %10.2f %6d\n", r.Kind, r.Games, r.Mean(), r.Wins)
	}
	if t.Decisions > 0 {
		fmt.Fprintf(&b, "planner: %d decisions, mean %v, slowest %v\n",
			t.Decisions, t.Spent/time.Duration(t.Decisions), t.Slowest)
	}
	return b.String()
}

// playTable plays games 0 to games-1 of the schedule (see tableLineup)
// through the real runner, as many at once as there are processors, and
// tallies them per kind. planner is the entrant under test; its name is its
// kind in the table.
func playTable(tb testing.TB, games int, planner Entrant) *tableResult {
	tb.Helper()
	basics, err := Bots("basic")
	if err != nil {
		tb.Fatal(err)
	}
	type outcome struct {
		lineup []Entrant
		result engine.Result
		steps  []engine.Step[Value]
		err    error
	}
	outcomes := make([]outcome, games)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var r engine.Runner[Value, View]
			r.Timings = true
			for g := range next {
				o := &outcomes[g]
				o.lineup = tableLineup(g, basics, planner)
				seats := make([]engine.Seat[Value, View], len(o.lineup))
				names := make([]string, len(o.lineup))
				for i, e := range o.lineup {
					// A minute: the table checks play, not the clock.
					seats[i] = engine.Seat[Value, View]{Name: e.Name, Player: e.New(), Deadline: time.Minute}
					names[i] = e.Name
				}
				setup := engine.Setup{Seed: tableSeed(g), Players: names}
				m, err := Original().New(setup)
				if err != nil {
					o.err = err
					continue
				}
				rec := engine.NewRecord[Value](Original().Info(), setup)
				if err := r.Run(context.Background(), m, seats, rec); err != nil {
					o.err = err
					continue
				}
				if rec.End == nil || rec.End.Result == nil {
					o.err = fmt.Errorf("game %d did not end", g)
					continue
				}
				o.result, o.steps = *rec.End.Result, rec.Steps
			}
		})
	}
	for g := range games {
		next <- g
	}
	close(next)
	wg.Wait()

	t := &tableResult{}
	rows := map[string]*tableRow{}
	for g, o := range outcomes {
		if o.err != nil {
			tb.Fatalf("game %d: %v", g, o.err)
		}
		for seat, e := range o.lineup {
			r := rows[e.Name]
			if r == nil {
				r = &tableRow{Kind: e.Name}
				rows[e.Name] = r
			}
			r.Games++
			r.Total += o.result.Scores[seat]
			if o.result.Won(seat) {
				r.Wins++
			}
		}
		for i, s := range o.steps {
			if s.Fault != nil {
				t.Faults = append(t.Faults, fmt.Sprintf("game %d, step %d, seat %d (%s): %s %s", g, i, s.Seat, o.lineup[s.Seat].Name, s.Fault.Kind, s.Fault.Detail))
			}
			if o.lineup[s.Seat].Name == planner.Name {
				d := time.Duration(s.Nanos)
				t.Decisions++
				t.Spent += d
				t.Slowest = max(t.Slowest, d)
			}
		}
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, *r)
	}
	slices.SortFunc(t.Rows, func(a, b tableRow) int {
		return cmp.Or(cmp.Compare(b.Mean(), a.Mean()), cmp.Compare(b.Wins, a.Wins), strings.Compare(a.Kind, b.Kind))
	})
	return t
}

// plannerEntrant returns the planner as Bots("planner") makes it.
func plannerEntrant(tb testing.TB) Entrant {
	tb.Helper()
	es, err := Bots("planner")
	if err != nil || len(es) != 1 {
		tb.Fatalf("Bots(planner) = %v, %v", es, err)
	}
	return es[0]
}

// TestPlannerTable checks the planner against the rules page's bar: of all
// seven kinds it has strictly the highest mean score and strictly the most
// wins.
func TestPlannerTable(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 200 full games")
	}
	start := time.Now()
	planner := plannerEntrant(t)
	table := playTable(t, *tableGames, planner)
	t.Logf("%d games in %v\n%v", *tableGames, time.Since(start).Round(time.Millisecond), table)
	for _, f := range table.Faults {
		t.Errorf("fault: %s", f)
	}
	p := table.row(planner.Name)
	if p == nil {
		t.Fatal("the planner played no game")
	}
	for _, r := range table.Rows {
		if r.Kind == planner.Name {
			continue
		}
		if r.Mean() >= p.Mean() {
			t.Errorf("%s has mean score %.2f; the planner has %.2f and must have the highest", r.Kind, r.Mean(), p.Mean())
		}
		if r.Wins >= p.Wins {
			t.Errorf("%s has %d wins; the planner has %d and must have the most", r.Kind, r.Wins, p.Wins)
		}
	}
}
