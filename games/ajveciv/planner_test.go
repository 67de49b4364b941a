package ajveciv

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// playLineup plays one game of the entrants through the real runner and
// returns its record.
func playLineup(t *testing.T, seed uint64, options map[string]string, lineup []Entrant) *engine.Record[Value] {
	t.Helper()
	seats := make([]engine.Seat[Value, View], len(lineup))
	names := make([]string, len(lineup))
	for i, e := range lineup {
		// A minute: these tests check play, not the clock, and a loaded
		// machine must not turn a slow decision into a time fault.
		seats[i] = engine.Seat[Value, View]{Name: e.Name, Player: e.New(), Deadline: time.Minute}
		names[i] = e.Name
	}
	setup := engine.Setup{Seed: seed, Players: names, Options: options}
	m, err := Original().New(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecord[Value](Original().Info(), setup)
	var r engine.Runner[Value, View]
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		t.Fatal(err)
	}
	if rec.End == nil || rec.End.Result == nil {
		t.Fatal("the game did not end")
	}
	for _, f := range rec.Faults() {
		t.Errorf("step %d, seat %d (%s): %s %s", f.Step, f.Seat, names[f.Seat], f.Kind, f.Detail)
	}
	return rec
}

// plannerLineup is game g of the table's schedule.
func plannerLineup(t *testing.T, g int) []Entrant {
	t.Helper()
	basics, err := Bots("basic")
	if err != nil {
		t.Fatal(err)
	}
	return tableLineup(g, basics, plannerEntrant(t))
}

func TestPlannerDeterministic(t *testing.T) {
	// The planner draws only from its own dice, seeded from the match seed
	// and its seat: the same seed plays the same game.
	lineup := plannerLineup(t, 7)
	a := playLineup(t, tableSeed(7), nil, lineup)
	b := playLineup(t, tableSeed(7), nil, lineup)
	ja, _ := json.Marshal(a.Steps)
	jb, _ := json.Marshal(b.Steps)
	if !bytes.Equal(ja, jb) {
		t.Error("two games with the same seed went differently")
	}
}

func TestPlannerOptions(t *testing.T) {
	// Short games, and games without inflections, are planned for too.
	for _, options := range []map[string]string{
		{"turns": "3"},
		{"turns": "25", "inflections": "false"},
		{"turns": "11"},
	} {
		playLineup(t, 5, options, plannerLineup(t, 0))
	}
	// Two planners, face to face.
	p := plannerEntrant(t)
	playLineup(t, 6, nil, []Entrant{p, p})
}

func TestPlannerLeavesMatchAlone(t *testing.T) {
	// Planning reads the match and changes nothing in it: not the world,
	// not the offers, not the match's random source.
	m, err := Original().NewMatch(engine.Setup{Seed: 3, Players: make([]string, 6)})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlanner()
	if err := p.Init(engine.MatchInfo{Seed: engine.SeatSeed(3, 2), Seat: 2}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 40 && !m.Over(); round++ {
		before, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		v := m.View(2)
		var c Value
		if v.Inflection() {
			c, err = p.Inflection(v)
		} else {
			c, err = p.Turn(v)
		}
		if err != nil || !v.Offers(c) {
			t.Fatalf("round %d: the planner chose %v (%v) from %v", round, c, err, v.Offered())
		}
		after, _ := m.MarshalJSON()
		if !bytes.Equal(before, after) {
			t.Fatalf("round %d: planning changed the match", round)
		}
		for _, r := range append([]engine.Request[Value](nil), m.Pending()...) {
			mv := r.Default
			if r.Seat == 2 {
				mv = c
			}
			if err := m.Apply(r.Seat, mv); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkPlannerDecision measures one decision of the planner on the
// starting world of a six-seat game, where playouts are longest.
func BenchmarkPlannerDecision(b *testing.B) {
	m, err := Original().NewMatch(engine.Setup{Seed: 1, Players: make([]string, 6)})
	if err != nil {
		b.Fatal(err)
	}
	p := NewPlanner()
	p.Init(engine.MatchInfo{Seed: engine.SeatSeed(1, 0)})
	v := m.View(0)
	b.ReportAllocs()
	for b.Loop() {
		p.Turn(v)
	}
}

// BenchmarkGuideDecision measures one decision of the guide on the
// starting world of a six-seat game, where playouts are longest.
func BenchmarkGuideDecision(b *testing.B) {
	m, err := Original().NewMatch(engine.Setup{Seed: 1, Players: make([]string, 6)})
	if err != nil {
		b.Fatal(err)
	}
	g := NewGuide()
	g.Init(engine.MatchInfo{Seed: engine.SeatSeed(1, 0)})
	v := m.View(0)
	b.ReportAllocs()
	for b.Loop() {
		g.Turn(v)
	}
}
