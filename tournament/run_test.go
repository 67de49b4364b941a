package tournament_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/google/go-cmp/cmp"
)

// reajEntrants returns the entrants of names, Reaj bots.
func reajEntrants(t testing.TB, names ...string) []reaj.Entrant {
	t.Helper()
	var out []reaj.Entrant
	for _, n := range names {
		es, err := reaj.Bots(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, es...)
	}
	return out
}

func names(es []reaj.Entrant) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// reajTournament is a Reaj tournament of the six fixed players and the
// steward, every six of them in every seat (42 games), repeat times over,
// with games of turns turns.
func reajTournament(t testing.TB, repeat int, turns string) *tournament.Tournament[reaj.Value, reaj.View] {
	t.Helper()
	es := reajEntrants(t, "fixed", "steward")
	s, err := tournament.NewSchedule(tournament.Params{
		Info: reaj.Game{}.Info(), Players: names(es), Seed: 1, Seats: 6, Repeat: repeat,
		Options: map[string]string{"turns": turns},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es}
}

// play runs tour and returns its results file and its standings text.
func play(t testing.TB, tour *tournament.Tournament[reaj.Value, reaj.View]) (results, standings string) {
	t.Helper()
	var out bytes.Buffer
	w, err := tournament.NewWriter(&out, tour.Schedule, tour.Shard, nil)
	if err != nil {
		t.Fatal(err)
	}
	table, err := tournament.NewTable(tour.Schedule, tour.Schedule.Len())
	if err != nil {
		t.Fatal(err)
	}
	tour.Played = func(g tournament.GameResult) error {
		if err := table.Add(g); err != nil {
			return err
		}
		return w.Write(g)
	}
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := table.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	return out.String(), text.String()
}

func TestRunIsTheSameOnAnyNumberOfCores(t *testing.T) {
	var want string
	for _, parallel := range []int{1, 2, 7} {
		tour := reajTournament(t, 2, "30")
		tour.Parallel = parallel
		got, _ := play(t, tour)
		if want == "" {
			want = got
			if n := strings.Count(got, "\n"); n != 1+84 {
				t.Fatalf("%d lines; want a header and 84 games", n)
			}
			continue
		}
		if got != want {
			t.Errorf("--parallel %d: the results differ from --parallel 1:\n%s", parallel, cmp.Diff(want, got))
		}
	}
}

func TestShardsMergeIntoTheSingleRunsStandings(t *testing.T) {
	_, want := play(t, reajTournament(t, 1, "40"))
	var files []*tournament.Reader
	for i := range 3 {
		tour := reajTournament(t, 1, "40")
		tour.Shard = tournament.Shard{Index: i, Count: 3}
		results, _ := play(t, tour)
		r, err := tournament.NewReader(strings.NewReader(results), fmt.Sprintf("shard-%d.jsonl", i))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, r)
	}
	// The order of the files does not matter.
	files[0], files[2] = files[2], files[0]
	table, err := tournament.Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	if err := table.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("merged standings differ from the single run's:\n%s", cmp.Diff(want, got.String()))
	}
}

func TestStewardTopsTheStandings(t *testing.T) {
	tour := reajTournament(t, 1, "100")
	table, err := tournament.NewTable(tour.Schedule, tour.Schedule.Len())
	if err != nil {
		t.Fatal(err)
	}
	tour.Played = table.Add
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := table.Standings()
	if st[0].Player != "steward" {
		var text strings.Builder
		table.WriteText(&text)
		t.Errorf("steward is not first:\n%s", text.String())
	}
	for _, s := range st {
		if s.Games != 36 {
			t.Errorf("%s played %d games; in every group of 6 of 7 in every seat, each plays 36", s.Player, s.Games)
		}
	}
}

// crasher panics on every decision.
type crasher struct{}

func (crasher) Turn(reaj.View) (reaj.Value, error) { panic("boom") }

func TestFaultsAreCountedPerSeat(t *testing.T) {
	es := reajEntrants(t, "conquer", "adapt")
	es = append(es, reaj.Entrant{Name: "crasher", New: func() engine.Player[reaj.Value, reaj.View] { return reaj.Player(crasher{}) }})
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 3, Repeat: 1,
		Options: map[string]string{"turns": "10"}})
	if err != nil {
		t.Fatal(err)
	}
	var results []tournament.GameResult
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es, KeepGoing: true,
		Played: func(g tournament.GameResult) error { results = append(results, g); return nil }}
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("%d games; every seat rotation of three players is 3", len(results))
	}
	for _, g := range results {
		for i, p := range g.Seats {
			want := 0
			if p == "crasher" {
				want = 10
			}
			if g.Faults[i] != want {
				t.Errorf("game %d: %s has %d faults; want %d", g.Game, p, g.Faults[i], want)
			}
		}
	}
}

func TestAPlayerAbsentFromItsFirstGameStops(t *testing.T) {
	// A player that never answers in the first game it sits in stops the
	// run once that game is reported, whatever the games played at once.
	es := reajEntrants(t, "conquer", "adapt", "steward")
	es = append(es, reaj.Entrant{Name: "crasher", New: func() engine.Player[reaj.Value, reaj.View] { return reaj.Player(crasher{}) }})
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 3, Repeat: 3, Seats: 2,
		Options: map[string]string{"turns": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	for g, lineup := range s.Games() {
		if first == 0 && slices.Contains(lineup, 3) {
			first = g + 1
		}
	}
	var results []tournament.GameResult
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es, Parallel: 4,
		Played: func(g tournament.GameResult) error { results = append(results, g); return nil }}
	n, err := tour.Run(context.Background())
	var absent *tournament.AbsentError
	if !errors.As(err, &absent) || absent.Player != "crasher" || absent.Game != first || absent.Fault.Kind != engine.FaultPanic {
		t.Fatalf("err = %v; want crasher absent from game %d", err, first)
	}
	if n != first || len(results) != first {
		t.Errorf("%d games reported, %d played; want the %d up to the crasher's first", n, len(results), first)
	}
}

func TestAPersonCannotSit(t *testing.T) {
	es := reajEntrants(t, "conquer", "adapt")
	es[1].Person = true
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es}
	if _, err := tour.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "person") {
		t.Errorf("err = %v; want one that says a person cannot sit", err)
	}
}

func TestStoppingReportsAnUnbrokenPrefix(t *testing.T) {
	tour := reajTournament(t, 20, "100")
	tour.Parallel = 2
	ctx, cancel := context.WithCancel(context.Background())
	var games []int
	tour.Played = func(g tournament.GameResult) error {
		games = append(games, g.Game)
		if len(games) == 100 {
			cancel()
		}
		return nil
	}
	n, err := tour.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	if n != len(games) || n < 100 || n >= tour.Schedule.Len() {
		t.Fatalf("n = %d, %d games reported", n, len(games))
	}
	for i, g := range games {
		if g != i+1 {
			t.Fatalf("game %d reported in place %d", g, i+1)
		}
	}
}

func TestAnErrorFromPlayedStops(t *testing.T) {
	tour := reajTournament(t, 5, "10")
	boom := errors.New("disk full")
	tour.Played = func(g tournament.GameResult) error {
		if g.Game == 7 {
			return boom
		}
		return nil
	}
	n, err := tour.Run(context.Background())
	if !errors.Is(err, boom) || n != 6 {
		t.Errorf("n, err = %d, %v; want 6, %v", n, err, boom)
	}
}

// stuck plays conquer, except that the first decision of its third game
// blocks until release is closed. It counts the calls made on it after
// that one, and the most calls in it at once.
type stuck struct {
	release       <-chan struct{}
	games         int
	blocked       atomic.Bool
	in, most      atomic.Int32
	callsAfter    atomic.Int32
	decisionsLeft int
}

func (s *stuck) Start(context.Context, engine.MatchInfo) error {
	if s.blocked.Load() {
		s.callsAfter.Add(1)
	}
	s.games++
	return nil
}

func (s *stuck) Decide(_ context.Context, req *engine.Request[reaj.Value], _ reaj.View) (reaj.Value, error) {
	n := s.in.Add(1)
	defer s.in.Add(-1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	if s.blocked.Load() {
		s.callsAfter.Add(1)
	} else if s.games == 3 {
		s.blocked.Store(true)
		<-s.release
	}
	return req.Default, nil
}

func TestAPlayerLeftStuckIsNeverAskedAgain(t *testing.T) {
	// A player whose call overran its deadline is abandoned, the call left
	// behind: the next games the worker plays seat a new player of the
	// entrant, never the one still stuck (which would be asked again
	// while its call still runs).
	release := make(chan struct{})
	defer close(release)
	var made []*stuck
	es := reajEntrants(t, "conquer")
	es = append(es, reaj.Entrant{Name: "stuck", New: func() engine.Player[reaj.Value, reaj.View] {
		s := &stuck{release: release}
		made = append(made, s)
		return s
	}})
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 1, Repeat: 3,
		Options: map[string]string{"turns": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	var faults []int
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es, Parallel: 1,
		// Long enough that no decision but the stuck one overruns it on
		// a loaded machine: it is waited for once.
		Deadline: time.Second,
		Played: func(g tournament.GameResult) error {
			faults = append(faults, g.Faults[slices.Index(g.Seats, "stuck")])
			return nil
		}}
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(faults) != 6 || faults[2] == 0 || faults[3] != 0 {
		t.Fatalf("the stuck player's faults game by game: %v; want some in the third game only", faults)
	}
	first := made[0]
	if !first.blocked.Load() || first.callsAfter.Load() != 0 || first.most.Load() != 1 {
		t.Errorf("the player left stuck: blocked %v, %d calls after, at most %d calls at once; want none after, one at once",
			first.blocked.Load(), first.callsAfter.Load(), first.most.Load())
	}
	if len(made) != 2 {
		t.Errorf("%d players made of the entrant; want 2, the second after the first was left stuck", len(made))
	}
}
