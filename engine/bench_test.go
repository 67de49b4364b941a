package engine

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// benchRunner plays tally matches of six seats and 109 rounds (654
// decisions, as many as a game of AjveCiv) with the given players, through
// one reused runner and record. It reports the time per decision.
func benchRunner(b *testing.B, p Player[int, tallyView]) {
	setup := Setup{Players: []string{"a", "b", "c", "d", "e", "f"}, Options: map[string]string{"rounds": "109"}}
	seats := make([]Seat[int, tallyView], 6)
	for i := range seats {
		seats[i] = Seat[int, tallyView]{Name: setup.Players[i], Player: p, Deadline: time.Second}
	}
	var r Runner[int, tallyView]
	rec := NewRecord[int](tally{}.Info(), setup)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m, err := tally{}.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		rec.Reset(tally{}.Info(), setup)
		if err := r.Run(ctx, m, seats, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/654, "ns/decision")
}

// BenchmarkRunner is the runner's own cost with bounded players, played on
// the caller's goroutine: asking, applying and recording each decision.
func BenchmarkRunner(b *testing.B) { benchRunner(b, picker(2)) }

// BenchmarkRunnerWatched is the same with players the watchdog must watch:
// each match on a goroutine of its own, and one atomic compare-and-swap per
// decision.
func BenchmarkRunnerWatched(b *testing.B) {
	benchRunner(b, unbounded(func(*Request[int]) (int, error) { return 2, nil }))
}

// BenchmarkRecordWriteRead writes a record of 654 steps (a tally match of
// six seats and 109 rounds) and reads it back, digest of its lines
// included. It reports the time per line.
func BenchmarkRecordWriteRead(b *testing.B) {
	setup := Setup{Players: []string{"a", "b", "c", "d", "e", "f"}, Options: map[string]string{"rounds": "109"}}
	seats := make([]Seat[int, tallyView], 6)
	for i := range seats {
		seats[i] = Seat[int, tallyView]{Name: setup.Players[i], Player: picker(2), Deadline: time.Second}
	}
	m, err := tally{}.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	rec := NewRecord[int](tally{}.Info(), setup)
	var r Runner[int, tallyView]
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if _, err := rec.WriteTo(&buf); err != nil {
			b.Fatal(err)
		}
		if _, err := ReadRecord[int](&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rec.Steps)+2), "ns/line")
}
