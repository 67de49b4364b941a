package ajveciv

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

var expList = flag.String("exp", "", "comma-separated variants to try in the planner's seat")

func TestExp(t *testing.T) {
	if *expList == "" {
		t.Skip()
	}
	for _, name := range strings.Split(*expList, ",") {
		var e Entrant
		if strings.HasPrefix(name, "p:") {
			var ro, h, sp, rm, m int
			var wb int64
			fmt.Sscanf(name, "p:%d:%d:%d:%d:%d:%d", &ro, &h, &sp, &rm, &wb, &m)
			e = Entrant{Name: name, New: func() engine.Player[Value, View] {
				p := NewPlanner()
				p.Rollouts, p.Horizon, p.selfPolicy, p.rivalModel, p.winBonus, p.margin = ro, h, sp, rm, wb, m == 1
				return Player(p)
			}}
		} else {
			es, err := Bots(name)
			if err != nil {
				t.Fatal(err)
			}
			e = es[0]
			e.Name = "X." + e.Name
		}
		start := time.Now()
		tab := playTable(t, *tableGames, e)
		r := tab.row(e.Name)
		rank := 0
		for i, x := range tab.Rows {
			if x.Kind == e.Name {
				rank = i
			}
		}
		dev := tab.row("basic.develop")
		second := tab.Rows[0]
		if rank == 0 {
			second = tab.Rows[1]
		}
		t.Logf("%-28s mean %7.1f wins %3d rank %d | develop %7.1f %3d | next %s %7.1f | %v/dec max %v, %v", name, r.Mean(), r.Wins, rank, dev.Mean(), dev.Wins, second.Kind, second.Mean(), tab.Spent/max(1, time.Duration(tab.Decisions)), tab.Slowest, time.Since(start).Round(time.Second/10))
		for _, f := range tab.Faults[:min(3, len(tab.Faults))] {
			t.Log(f)
		}
	}
}
