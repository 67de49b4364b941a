package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestRunBounded(t *testing.T) {
	rec, m, err := play(context.Background(), 4, time.Second, picker(3), picker(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 8 {
		t.Fatalf("%d steps; want 8", len(rec.Steps))
	}
	for i, s := range rec.Steps {
		if s.Seat != i%2 || s.Fault != nil {
			t.Errorf("step %d: %+v", i, s)
		}
	}
	if rec.End == nil || rec.End.Result == nil || !m.Over() {
		t.Fatal("the record has no result")
	}
	if got := rec.End.Result.Scores; got[0] != 12 || got[1] != 4 {
		t.Errorf("scores %v; want [12 4]", got)
	}
}

func TestRunFaults(t *testing.T) {
	// "A bot that panics, passes its deadline, or answers a value it was not
	// offered gets the first offered choice; the fault is counted in the
	// report and written in the record; the match goes on and completes."
	cases := []struct {
		name    string
		player  Player[int, tallyView]
		kind    FaultKind
		detail  string
		forfeit error
	}{
		{"panic", unbounded(func(*Request[int]) (int, error) { panic("oops") }), FaultPanic, "oops", nil},
		{"panic bounded", boundedFunc(func() (int, error) { panic("oops") }), FaultPanic, "oops", nil},
		{"error", unbounded(func(*Request[int]) (int, error) { return 0, errBoom }), FaultError, "boom", nil},
		{"illegal", unbounded(func(*Request[int]) (int, error) { return 7, nil }), FaultIllegal, "7 is not offered", nil},
		{"illegal bounded", picker(0), FaultIllegal, "0 is not offered", nil},
		{"self-timed", selfTimed{}, FaultTimeout, "no answer in 5ms", nil},
		// "Record what happened (crash with the signal or exit code, garbage,
		// illegal, timeout, write blocked)": a player names its fault.
		{"crash", unbounded(func(*Request[int]) (int, error) {
			return 0, Faulted(FaultCrash, fmt.Errorf("killed by signal SIGSEGV: %w", ErrForfeit))
		}), FaultCrash, "SIGSEGV", ErrForfeit},
		{"garbage", unbounded(func(*Request[int]) (int, error) { return 0, Faulted(FaultGarbage, errBoom) }), FaultGarbage, "boom", nil},
		{"blocked", unbounded(func(*Request[int]) (int, error) { return 0, Faulted(FaultBlocked, ErrDeadline) }), FaultBlocked, "deadline", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _, err := play(context.Background(), 2, time.Second, picker(2), c.player)
			if err != nil {
				t.Fatal(err)
			}
			if rec.End == nil || rec.End.Result == nil {
				t.Fatal("the match did not complete")
			}
			faults := rec.Faults()
			if len(faults) != 2 {
				t.Fatalf("faults %+v; want one per round", faults)
			}
			for i, f := range faults {
				if i > 0 && errors.Is(c.forfeit, ErrForfeit) {
					// A forfeited seat is abandoned after its fault.
					if f.Kind != FaultAbandoned {
						t.Errorf("fault %+v after a forfeit; want the seat abandoned", f)
					}
					continue
				}
				if f.Seat != 1 || f.Kind != c.kind || !strings.Contains(f.Detail, c.detail) {
					t.Errorf("fault %+v; want seat 1 %s with %q", f, c.kind, c.detail)
				}
				if mv := rec.Steps[f.Step].Move; mv != 1 {
					t.Errorf("faulty step's move %d; want the default 1", mv)
				}
			}
			// Replay checks it too.
			if _, err := Replay[int, tallyView](tally{}, rec, nil); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}

type boundedFunc func() (int, error)

func (f boundedFunc) Decide(context.Context, *Request[int], tallyView) (int, error) { return f() }
func (boundedFunc) Bounded() bool                                                   { return true }

func TestRunAbandonsStuckPlayer(t *testing.T) {
	// "A Go bot stuck past its deadline is abandoned (never called again; its
	// seat gets default moves from then on)."
	s := &stuck{release: make(chan struct{})}
	defer close(s.release)
	start := time.Now()
	rec, _, err := play(context.Background(), 5, 30*time.Millisecond, picker(2), s, picker(3))
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the match took %v", took)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("the stuck player was called %d times; want once", n)
	}
	faults := rec.Faults()
	if len(faults) != 5 {
		t.Fatalf("faults %+v; want one per round", faults)
	}
	if faults[0].Kind != FaultTimeout || !strings.Contains(faults[0].Detail, "abandoned") {
		t.Errorf("first fault %+v; want a timeout that abandons the seat", faults[0])
	}
	for _, f := range faults[1:] {
		if f.Kind != FaultAbandoned || f.Seat != 1 {
			t.Errorf("later fault %+v; want abandoned", f)
		}
	}
	if got := rec.End.Result.Scores; got[0] != 10 || got[1] != 5 || got[2] != 15 {
		t.Errorf("scores %v; want [10 5 15]", got)
	}
	if _, err := Replay[int, tallyView](tally{}, rec, nil); err != nil {
		t.Errorf("replay: %v", err)
	}
}

func TestRunStartFaults(t *testing.T) {
	failing := &starter{picker: 3, err: errBoom}
	rec, _, err := play(context.Background(), 2, time.Second, failing, picker(2))
	if err != nil {
		t.Fatal(err)
	}
	if failing.info.Ruleset != "tally" || failing.info.Seat != 0 || failing.info.Seed != SeatSeed(1, 0) {
		t.Errorf("Start was told %+v", failing.info)
	}
	// The first step of a seat that did not start says why (a start fault),
	// the later ones that the seat is abandoned.
	for i, f := range rec.Faults() {
		want := FaultAbandoned
		if i == 0 {
			want = FaultStart
		}
		if f.Seat != 0 || f.Kind != want || !strings.Contains(f.Detail, "failed to start: boom") {
			t.Errorf("fault %+v; want kind %s", f, want)
		}
	}
	if len(rec.Faults()) != 2 {
		t.Errorf("faults %+v; want two", rec.Faults())
	}

	blocked := &starter{picker: 3, block: make(chan struct{})}
	defer close(blocked.block)
	rec, _, err = play(context.Background(), 2, 5*time.Millisecond, blocked, picker(2))
	if err != nil {
		t.Fatal(err)
	}
	if f := rec.Faults(); len(f) != 2 || f[0].Kind != FaultTimeout || f[1].Kind != FaultAbandoned || !strings.Contains(f[0].Detail, "Start") {
		t.Errorf("faults %+v; want the seat abandoned after Start overran", f)
	}
}

func TestRunInterrupted(t *testing.T) {
	// "A record is complete even when play is interrupted (Ctrl-C): the
	// moves so far and an aborted line."
	s := &stuck{release: make(chan struct{})}
	defer close(s.release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	rec, _, err := play(ctx, 5, 0, picker(2), s) // no deadline: only the interruption ends it
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v; want context.Canceled", err)
	}
	if rec.End == nil || rec.End.Aborted != "interrupted" || rec.End.Result != nil {
		t.Fatalf("end %+v; want aborted", rec.End)
	}
	if len(rec.Steps) != 1 || rec.Steps[0].Seat != 0 {
		t.Errorf("steps %+v; want the one move made before the stuck player", rec.Steps)
	}

	// A bounded match checks between rounds.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	rec, _, err = play(ctx, 5, 0, picker(2), picker(3))
	if !errors.Is(err, context.Canceled) || rec.End == nil || rec.End.Aborted == "" {
		t.Fatalf("error %v, end %+v", err, rec.End)
	}
}

// ranOut is a cause of stopping that names itself.
type ranOut struct{}

func (ranOut) Error() string       { return "ran out" }
func (ranOut) AbortReason() string { return "the person's input ended" }

func TestRunInterruptedForAReason(t *testing.T) {
	// A record says why play stopped when the cause of its context's end
	// says it (Aborter), watched or bounded; otherwise "interrupted".
	s := &stuck{release: make(chan struct{})}
	defer close(s.release)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel(ranOut{}) }()
	rec, _, err := play(ctx, 5, 0, picker(2), s)
	if err == nil || rec.End == nil || rec.End.Aborted != "the person's input ended" {
		t.Fatalf("error %v, end %+v; want the cause's reason", err, rec.End)
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(ranOut{})
	if rec, _, _ := play(ctx, 5, 0, picker(2), picker(3)); rec.End == nil || rec.End.Aborted != "the person's input ended" {
		t.Fatalf("bounded: end %+v; want the cause's reason", rec.End)
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(errors.New("no reason given"))
	if rec, _, _ := play(ctx, 5, 0, picker(2), picker(3)); rec.End == nil || rec.End.Aborted != "interrupted" {
		t.Fatalf("a cause without a reason: end %+v; want interrupted", rec.End)
	}
}

func TestRunnerReuseAllocations(t *testing.T) {
	// A reused runner and record allocate per match, never per turn.
	setup := Setup{Players: []string{"a", "b"}, Options: map[string]string{"rounds": "10"}}
	seats := []Seat[int, tallyView]{{Name: "a", Player: picker(1)}, {Name: "b", Player: picker(2)}}
	var r Runner[int, tallyView]
	rec := NewRecord[int](tally{}.Info(), setup)
	run := func(rounds string) float64 {
		setup.Options["rounds"] = rounds
		return testing.AllocsPerRun(50, func() {
			m, _ := tally{}.New(setup)
			rec.Reset(tally{}.Info(), setup)
			if err := r.Run(context.Background(), m, seats, rec); err != nil {
				t.Fatal(err)
			}
		})
	}
	run("300") // grow the record once
	short, long := run("10"), run("300")
	if long != short {
		t.Errorf("%v allocations for 10 rounds, %v for 300: the runner allocates per turn", short, long)
	}
}

func TestRunRejectsBadSeats(t *testing.T) {
	setup := Setup{Players: []string{"a", "b"}}
	m, _ := tally{}.New(setup)
	var r Runner[int, tallyView]
	rec := NewRecord[int](tally{}.Info(), setup)
	if err := r.Run(context.Background(), m, []Seat[int, tallyView]{{Player: picker(1)}}, rec); err == nil {
		t.Error("one seat for two players accepted")
	}
	if err := r.Run(context.Background(), m, []Seat[int, tallyView]{{Player: picker(1)}, {}}, rec); err == nil {
		t.Error("a seat without a player accepted")
	}
}

func TestRunnerReuseKeepsRecordsApart(t *testing.T) {
	// A runner reused for a second match must not change the first's record.
	var r Runner[int, tallyView]
	recs := make([]*Record[int], 2)
	for k, pick := range []picker{1, 3} {
		setup := Setup{Players: []string{"a"}, Options: map[string]string{"rounds": "2"}}
		m, _ := tally{}.New(setup)
		recs[k] = NewRecord[int](tally{}.Info(), setup)
		if err := r.Run(context.Background(), m, []Seat[int, tallyView]{{Player: pick}}, recs[k]); err != nil {
			t.Fatal(err)
		}
	}
	if got := recs[0].End.Result.Scores[0]; got != 2 {
		t.Errorf("the first record's score became %d after the second match; want 2", got)
	}
}

func TestSeriesForget(t *testing.T) {
	// A long series can hand each record over and keep none.
	s := &Series[int, tallyView]{Ruleset: tally{}, Seed: 10, Options: map[string]string{"rounds": "2"}, Forget: true}
	for range 3 {
		s.Game(Seat[int, tallyView]{Name: "a", Player: picker(1)}, Seat[int, tallyView]{Name: "b", Player: picker(3)})
	}
	var seeds []uint64
	s.Played = func(k int, rec *Record[int], m Match[int, tallyView]) error {
		if rec.End == nil || rec.End.Hash == "" || !m.Over() {
			t.Errorf("game %d: record %+v", k, rec.End)
		}
		seeds = append(seeds, rec.Header.Setup.Seed)
		return nil
	}
	recs, err := s.Play(context.Background())
	if err != nil || len(recs) != 0 {
		t.Fatalf("%d records, %v; want none kept", len(recs), err)
	}
	if len(seeds) != 3 || seeds[0] != 10 || seeds[2] != 12 {
		t.Errorf("seeds %v; want 10, 11, 12", seeds)
	}
}

func TestStartDeadlineHasAFloor(t *testing.T) {
	// "A test must not depend on how fast an interpreter starts": start-up
	// has its own allowance, never less than MinStartDeadline unless set.
	cases := []struct {
		seat Seat[int, tallyView]
		want time.Duration
	}{
		{Seat[int, tallyView]{Deadline: 20 * time.Millisecond}, MinStartDeadline},
		{Seat[int, tallyView]{Deadline: 5 * time.Second}, 50 * time.Second},
		{Seat[int, tallyView]{Deadline: 20 * time.Millisecond, StartDeadline: time.Second}, time.Second},
		{Seat[int, tallyView]{}, 0},
	}
	for _, c := range cases {
		if got := c.seat.TimeControl().StartDeadline; got != c.want {
			t.Errorf("deadline %v, start %v: start-up deadline %v; want %v", c.seat.Deadline, c.seat.StartDeadline, got, c.want)
		}
	}
}

// follower picks 2 and notes the rounds it was shown between decisions.
type follower struct {
	picker
	rounds   []int
	over     int
	finished bool
}

func (f *follower) Follow(v tallyView, over bool) {
	if over {
		f.over++
		if f.finished {
			f.over = -100 // Follow came after Finish
		}
		return
	}
	f.rounds = append(f.rounds, v.Round)
}

func (f *follower) Finish(context.Context, Result) { f.finished = true }

func TestRunTellsFollowersEveryRound(t *testing.T) {
	// A follower (a person at a terminal) is shown its seat's view before
	// every round, and once at the end before Finish, even though it is
	// bounded and its rivals too.
	f := &follower{picker: 2}
	if _, _, err := play(context.Background(), 3, time.Second, picker(1), f); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(f.rounds) != "[0 1 2]" || f.over != 1 || !f.finished {
		t.Errorf("followed rounds %v, over %d times, finished %v; want [0 1 2], once, true", f.rounds, f.over, f.finished)
	}
}
