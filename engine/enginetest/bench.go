package enginetest

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// played is a move of a match's log.
type played[M any] struct {
	seat int
	move M
}

// BenchRestore measures how long resuming a match takes, two ways: from
// its snapshot (engine.Restorer), and by replaying its log. It plays a
// random match of rules from setup as CheckRestore does, until o.Steps
// moves are applied (refused ones are no part of a log) or the match is
// over, then runs three benchmarks on the match as it stands:
//
//	restore      Restore from the snapshot, as JSON
//	replay       New, then Apply every move of the log
//	replay-json  the same from the moves as JSON, as a store keeps them
//
// Each reports the moves of the log ("moves") and the snapshot's size
// ("snapshot-bytes").
func BenchRestore[M, V any](b *testing.B, rules engine.Ruleset[M, V], setup engine.Setup, o Options[M, V]) {
	rs, ok := rules.(engine.Restorer[M, V])
	if !ok {
		b.Fatalf("%T is not an engine.Restorer", rules)
	}
	m, err := rules.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5245_5354))
	var log []played[M]
	for tries := 0; len(log) < o.steps() && !m.Over() && tries < 100*o.steps(); tries++ {
		seat, mv, ok := o.move(r, m)
		if !ok {
			break
		}
		if m.Apply(seat, mv) == nil {
			log = append(log, played[M]{seat, mv})
		}
	}
	snap, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	logJSON := make([][]byte, len(log))
	for i, p := range log {
		if logJSON[i], err = json.Marshal(p.move); err != nil {
			b.Fatal(err)
		}
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(len(log)), "moves")
		b.ReportMetric(float64(len(snap)), "snapshot-bytes")
	}
	b.Run("restore", func(b *testing.B) {
		for b.Loop() {
			if _, err := rs.Restore(setup, snap); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("replay", func(b *testing.B) {
		for b.Loop() {
			x, err := rules.New(setup)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range log {
				if err := x.Apply(p.seat, p.move); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
	b.Run("replay-json", func(b *testing.B) {
		for b.Loop() {
			x, err := rules.New(setup)
			if err != nil {
				b.Fatal(err)
			}
			for i, p := range log {
				var mv M
				if err := json.Unmarshal(logJSON[i], &mv); err != nil {
					b.Fatal(err)
				}
				if err := x.Apply(p.seat, mv); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
}
