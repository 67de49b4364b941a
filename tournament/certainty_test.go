package tournament_test

import (
	"context"
	"math"
	"testing"

	"github.com/arbiter-games/arbiter/tournament"
)

func TestOrder(t *testing.T) {
	// "Every pair of neighbours in the standings significantly ordered":
	// the upper one's skill above the lower's with the confidence asked,
	// the ratings taken as normal beliefs.
	standings := []tournament.Standing{
		{Player: "a", Rating: tournament.Rating{Mu: 30, Sigma: 1}},
		{Player: "b", Rating: tournament.Rating{Mu: 27, Sigma: 1}},
		{Player: "c", Rating: tournament.Rating{Mu: 27, Sigma: 2}},
	}
	got := tournament.Order(standings)
	// Φ(3/√2) (scipy.stats.norm.cdf gives 0.9830525732376554) and Φ(0).
	want := []tournament.Neighbours{{Upper: "a", Lower: "b", Sure: 0.9830525732376554}, {Upper: "b", Lower: "c", Sure: 0.5}}
	if len(got) != len(want) {
		t.Fatalf("%d neighbours; want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Upper != want[i].Upper || got[i].Lower != want[i].Lower || math.Abs(got[i].Sure-want[i].Sure) > 1e-12 {
			t.Errorf("neighbours %d: %+v; want %+v", i, got[i], want[i])
		}
	}
	if u := tournament.Uncertain(got, 0.95); len(u) != 1 || u[0].Upper != "b" {
		t.Errorf("uncertain at 95%%: %+v; want b above c", u)
	}
	if u := tournament.Uncertain(got, 0.99); len(u) != 2 {
		t.Errorf("uncertain at 99%%: %+v; want both", u)
	}
	if tournament.Order(standings[:1]) != nil {
		t.Error("one player has no neighbours")
	}
}

func TestTableSettled(t *testing.T) {
	// The fixed players develop and expand play exactly alike: their order
	// is never settled, while the others' is.
	tour := reajTournament(t, 3, "100")
	table, err := tournament.NewTable(tour.Schedule, tour.Schedule.Len())
	if err != nil {
		t.Fatal(err)
	}
	if table.Settled(0.95) {
		t.Error("settled before any game")
	}
	tour.Played = table.Add
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if table.Settled(0.95) {
		t.Error("develop and expand play alike, yet the order is settled")
	}
	u := tournament.Uncertain(tournament.Order(table.Standings()), 0.95)
	if len(u) != 1 || u[0].Upper+u[0].Lower != "developexpand" || math.Abs(u[0].Sure-0.5) > 0.01 {
		t.Errorf("uncertain: %+v; want develop and expand, at 50%%", u)
	}
}
