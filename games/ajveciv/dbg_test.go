package ajveciv

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

func TestDbg(t *testing.T) {
	if *expList == "" {
		t.Skip()
	}
	basics, _ := Bots("basic")
	pl := plannerEntrant(t)
	for g := 0; g < 6; g++ {
		lineup := tableLineup(g, basics, pl)
		seats := make([]engine.Seat[Value, View], 6)
		names := make([]string, 6)
		for i, e := range lineup {
			seats[i] = engine.Seat[Value, View]{Name: e.Name, Player: e.New(), Deadline: time.Second}
			names[i] = e.Name
		}
		setup := engine.Setup{Seed: tableSeed(g), Players: names}
		m, _ := Original().New(setup)
		rec := engine.NewRecord[Value](Original().Info(), setup)
		var r engine.Runner[Value, View]
		r.Run(context.Background(), m, seats, rec)
		mm := m.(*Match)
		t.Logf("game %d %v\n%v", g, names, mm.World())
		var seq []byte
		for _, s := range rec.Steps {
			if names[s.Seat] == "planner" {
				seq = append(seq, "CXDEVS"[s.Move])
			}
		}
		t.Logf("%s", seq)
	}
}
