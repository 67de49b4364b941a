package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// noted is tally whose matches note every default they are told of.
type noted struct{ tally }

type notedMatch struct {
	*tallyMatch
	notes []string
}

func (g noted) New(s Setup) (Match[int, tallyView], error) {
	m, err := g.tally.New(s)
	if err != nil {
		return nil, err
	}
	return &notedMatch{tallyMatch: m.(*tallyMatch)}, nil
}

func (m *notedMatch) Defaulted(seat int, f Fault) {
	m.notes = append(m.notes, fmt.Sprintf("round %d seat %d %s %s", m.Round, seat, f.Kind, f.Detail))
}

// TestDefaulted: the runner tells a Defaulter of every default it applies
// for a fault, just before applying it, and a replay of its record tells
// the replayed match the same, in the same order.
func TestDefaulted(t *testing.T) {
	setup := Setup{Seed: 1, Players: []string{"illegal", "fine", "failing"}, Options: map[string]string{"rounds": "2"}}
	m, err := noted{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord[int](noted{}.Info(), setup)
	seats := []Seat[int, tallyView]{{Name: "illegal", Player: picker(0)}, {Name: "fine", Player: picker(2)},
		{Name: "failing", Player: unbounded(func(*Request[int]) (int, error) { return 0, errors.New("no idea") })}}
	var r Runner[int, tallyView]
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		t.Fatal(err)
	}
	played := m.(*notedMatch).notes
	want := []string{"round 0 seat 0 illegal 0 is not offered; pick 1, 2 or 3", "round 0 seat 2 error no idea",
		"round 1 seat 0 illegal 0 is not offered; pick 1, 2 or 3", "round 1 seat 2 error no idea"}
	if !slices.Equal(played, want) {
		t.Errorf("the runner told %q; want %q", played, want)
	}
	back, err := Replay[int, tallyView](noted{}, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.(*notedMatch).notes; !slices.Equal(got, played) {
		t.Errorf("the replay told %q; the runner %q", got, played)
	}
}
