package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// hung is a player whose first Start or first Decide, as hangIn says,
// blocks until release is closed; its other calls return at once, Decide
// with 3. It notes its calls in order, and the most calls in it at once.
type hung struct {
	hangIn  string // "Start" or "Decide"
	release chan struct{}
	entered chan struct{} // closed when the call that blocks has begun

	mu    sync.Mutex
	calls []string
	in    int
	most  int
}

func newHung(hangIn string) *hung {
	return &hung{hangIn: hangIn, release: make(chan struct{}), entered: make(chan struct{})}
}

// call notes a call of name and, if it is the first of hangIn, blocks.
func (h *hung) call(name string) {
	h.mu.Lock()
	h.calls = append(h.calls, name)
	h.in++
	h.most = max(h.most, h.in)
	first := name == h.hangIn && h.count(name) == 1
	h.mu.Unlock()
	if first {
		close(h.entered)
		<-h.release
	}
	h.mu.Lock()
	h.in--
	h.mu.Unlock()
}

func (h *hung) count(name string) int {
	n := 0
	for _, c := range h.calls {
		if c == name {
			n++
		}
	}
	return n
}

func (h *hung) Start(context.Context, MatchInfo) error { h.call("Start"); return nil }

func (h *hung) Decide(context.Context, *Request[int], tallyView) (int, error) {
	h.call("Decide")
	return 3, nil
}

// seen returns the calls so far and the most at once.
func (h *hung) seen() ([]string, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...), h.most
}

// hungBot is a bot that blocks as hung does, in a player of its game's
// kind: a new player embedding a Shell around the same bot for every
// match, as a game's Player(bot) makes.
type hungBot struct{ *hung }

type shellPlayer struct {
	Shell
	bot hungBot
}

func (p *shellPlayer) Decide(ctx context.Context, req *Request[int], v tallyView) (int, error) {
	return p.bot.Decide(ctx, req, v)
}

func (b hungBot) Init(MatchInfo) error { b.call("Start"); return nil }

// seatFaults returns the faults of seat in rec.
func seatFaults(rec *Record[int], seat int) []Fault {
	var fs []Fault
	for _, s := range rec.Steps {
		if s.Seat == seat && s.Fault != nil {
			fs = append(fs, *s.Fault)
		}
	}
	return fs
}

func TestSeriesNeverCallsAPlayerWhoseCallStillRuns(t *testing.T) {
	// "While it runs, the player is not called again ... Its seats in the
	// later matches are played as abandoned from the start: the player is
	// not started, and each of their moves is the request's default with
	// an abandoned fault that says why ("its call from match 2 still
	// runs")." The player value sits in every match, as Game allows; "so
	// are players that embed a Shell around the same bot". The stuck call
	// is never released while the series plays.
	for _, c := range []struct {
		name   string
		hangIn string
		shell  bool
		first  FaultKind // seat 1's first fault in match 1
	}{
		{"stuck in Decide", "Decide", false, FaultTimeout},
		{"stuck in Start", "Start", false, FaultTimeout},
		{"a new shell around a stuck bot", "Decide", true, FaultTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHung(c.hangIn)
			defer close(h.release)
			s := &Series[int, tallyView]{Ruleset: tally{}, Seed: 1, Options: map[string]string{"rounds": "3"}}
			for range 3 {
				var p Player[int, tallyView] = h
				if c.shell {
					p = &shellPlayer{Shell{Bot: hungBot{h}}, hungBot{h}}
				}
				// Only the call that hangs has a short deadline: no other
				// may overrun its own, however loaded the machine.
				hung := Seat[int, tallyView]{Name: "hung", Player: p, Deadline: 5 * time.Millisecond, StartDeadline: time.Minute}
				if c.hangIn == "Start" {
					hung.Deadline, hung.StartDeadline = time.Minute, 5*time.Millisecond
				}
				s.Game(Seat[int, tallyView]{Name: "steady", Player: picker(2), Deadline: time.Minute}, hung)
			}
			recs, err := s.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := "[Start Decide]" // match 1's, the Decide hanging
			if c.hangIn == "Start" {
				want = "[Start]"
			}
			if calls, most := h.seen(); fmt.Sprint(calls) != want || most != 1 {
				t.Errorf("the hung player's calls %v, at most %d at once; want %s, match 1's", calls, most, want)
			}
			for k, rec := range recs {
				if len(seatFaults(rec, 0)) != 0 {
					t.Errorf("match %d: the steady seat has faults %+v", k+1, seatFaults(rec, 0))
				}
				fs := seatFaults(rec, 1)
				if len(fs) != 3 {
					t.Fatalf("match %d: seat 1's faults %+v; want one per round", k+1, fs)
				}
				for i, f := range fs {
					switch {
					case k == 0 && i == 0:
						if f.Kind != c.first {
							t.Errorf("match 1: seat 1's first fault %+v; want %s", f, c.first)
						}
					case k == 0:
						if f.Kind != FaultAbandoned || strings.Contains(f.Detail, "still runs") {
							t.Errorf("match 1: seat 1's fault %+v; want it abandoned for overrunning", f)
						}
					default:
						if f.Kind != FaultAbandoned || f.Detail != "its call from match 1 still runs" {
							t.Errorf("match %d: seat 1's fault %+v; want abandoned: its call from match 1 still runs", k+1, f)
						}
					}
				}
				if _, err := Replay[int, tallyView](tally{}, rec, nil); err != nil {
					t.Errorf("match %d: replay: %v", k+1, err)
				}
			}
		})
	}
}

func TestSeriesLineupPlayersAreNotHeldBackByAnotherStuckCall(t *testing.T) {
	// "The seats Lineup makes with new players are not held back by
	// another's call": each match's new player is asked as any other,
	// though the one before it is still stuck.
	var made []*hung
	s := &Series[int, tallyView]{Ruleset: tally{}, Seed: 1, Options: map[string]string{"rounds": "2"}, Matches: 3}
	s.Lineup = func(int) []Seat[int, tallyView] {
		h := newHung("Decide")
		made = append(made, h)
		return []Seat[int, tallyView]{{Name: "steady", Player: picker(2), Deadline: time.Minute},
			{Name: "hung", Player: h, Deadline: 5 * time.Millisecond}}
	}
	defer func() {
		for _, h := range made {
			close(h.release)
		}
	}()
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for k, rec := range recs {
		if calls, _ := made[k].seen(); len(calls) != 2 {
			t.Errorf("match %d: its player's calls %v; want its Start and the Decide that hung", k+1, calls)
		}
		if fs := seatFaults(rec, 1); len(fs) != 2 || fs[0].Kind != FaultTimeout || strings.Contains(fs[1].Detail, "still runs") {
			t.Errorf("match %d: seat 1's faults %+v; want a timeout, then abandoned for it", k+1, fs)
		}
	}
}

// running counts the calls left running that have not returned.
func (s *strays) running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if c.player != nil {
			n++
		}
	}
	return n
}

// waitReturned waits until every call r left running has returned and r
// knows it.
func waitReturned(t *testing.T, r *Runner[int, tallyView]) {
	t.Helper()
	for end := time.Now().Add(time.Minute); r.strays.running() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the call left running never returned")
		}
	}
}

func TestAPlayerWhoseStuckCallReturnedPlaysAgainStartingFirst(t *testing.T) {
	// "Once the call has returned, the player plays again from the next
	// match that starts, Start first, as in any match": a runner that
	// plays several matches asks it again once its stuck call is over,
	// never before.
	r := &Runner[int, tallyView]{}
	h := newHung("Decide")
	run := func(game int, deadline time.Duration) *Record[int] {
		t.Helper()
		setup := Setup{Seed: uint64(game), Players: []string{"steady", "hung"}, Options: map[string]string{"rounds": "2"}}
		m, err := tally{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		rec := NewRecord[int](tally{}.Info(), setup)
		r.Game = game
		seats := []Seat[int, tallyView]{{Name: "steady", Player: picker(2), Deadline: time.Minute}, {Name: "hung", Player: h, Deadline: deadline}}
		if err := r.Run(context.Background(), m, seats, rec); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	run(1, 5*time.Millisecond)
	if fs := seatFaults(run(2, time.Minute), 1); len(fs) != 2 || fs[0].Detail != "its call from match 1 still runs" {
		t.Errorf("match 2, the call still running: seat 1's faults %+v; want abandoned", fs)
	}
	close(h.release)
	waitReturned(t, r)
	if fs := seatFaults(run(3, time.Minute), 1); len(fs) != 0 {
		t.Errorf("match 3, the call returned: seat 1's faults %+v; want none", fs)
	}
	calls, most := h.seen()
	if got := strings.Join(calls, " "); got != "Start Decide Start Decide Decide" || most != 1 {
		t.Errorf("the player's calls %q, at most %d at once; want match 1's Start and stuck Decide, then match 3's Start and two decisions", got, most)
	}
}

func TestAnInterruptedCallIsLeftRunningToo(t *testing.T) {
	// A call left behind when play is interrupted is not followed by
	// another either: "a runner that plays more matches ... plays the
	// player's seats in them as abandoned from the start".
	r := &Runner[int, tallyView]{}
	h := newHung("Decide")
	defer close(h.release)
	for game := 1; game <= 2; game++ {
		setup := Setup{Seed: 1, Players: []string{"steady", "hung"}, Options: map[string]string{"rounds": "2"}}
		m, _ := tally{}.New(setup)
		rec := NewRecord[int](tally{}.Info(), setup)
		ctx, cancel := context.WithCancel(context.Background())
		if game == 1 {
			go func() { <-h.entered; cancel() }()
		}
		r.Game = game
		err := r.Run(ctx, m, []Seat[int, tallyView]{{Name: "steady", Player: picker(2)}, {Name: "hung", Player: h}}, rec)
		cancel()
		if game == 1 {
			if err == nil {
				t.Fatal("match 1 was not interrupted")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if fs := seatFaults(rec, 1); len(fs) != 2 || fs[0].Detail != "its call from match 1 still runs" {
			t.Errorf("match 2: seat 1's faults %+v; want abandoned: its call from match 1 still runs", fs)
		}
	}
	if calls, _ := h.seen(); fmt.Sprint(calls) != "[Start Decide]" {
		t.Errorf("the player's calls %v; want match 1's only", calls)
	}
}

func TestSeriesNeverOverlapsCallsWhateverTheirTiming(t *testing.T) {
	// Whenever the stuck call returns (here while the second match is
	// played, or later), the player's calls never overlap, and the first
	// after it is a Start: "once the call has returned, the player plays
	// again from the next match that starts, Start first".
	h := newHung("Decide")
	s := &Series[int, tallyView]{Ruleset: tally{}, Seed: 1, Options: map[string]string{"rounds": "3"}}
	for range 6 {
		s.Game(Seat[int, tallyView]{Name: "steady", Player: picker(2), Deadline: time.Minute},
			Seat[int, tallyView]{Name: "hung", Player: h, Deadline: 5 * time.Millisecond})
	}
	s.Played = func(k int, _ *Record[int], _ Match[int, tallyView]) error {
		if k == 0 {
			close(h.release)
		}
		return nil
	}
	if _, err := s.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	calls, most := h.seen()
	if most != 1 || len(calls) < 2 || calls[0] != "Start" || calls[1] != "Decide" || len(calls) > 2 && calls[2] != "Start" {
		t.Errorf("the player's calls %v, at most %d at once; want no two at once, and a Start after the stuck Decide", calls, most)
	}
}

func TestAPlayerInTwoSeatsIsNotAskedForOneWhileStuckInTheOther(t *testing.T) {
	// "While a stuck call runs, its player is called no more, since a
	// player's calls never overlap: any other seat it sits in is abandoned
	// too".
	h := newHung("Decide")
	defer close(h.release)
	setup := Setup{Seed: 1, Players: []string{"hung", "hung too", "steady"}, Options: map[string]string{"rounds": "3"}}
	m, _ := tally{}.New(setup)
	rec := NewRecord[int](tally{}.Info(), setup)
	var r Runner[int, tallyView]
	seats := []Seat[int, tallyView]{{Name: "hung", Player: h, Deadline: 5 * time.Millisecond},
		{Name: "hung too", Player: h, Deadline: time.Minute}, {Name: "steady", Player: picker(2), Deadline: time.Minute}}
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		t.Fatal(err)
	}
	if calls, most := h.seen(); fmt.Sprint(calls) != "[Start Start Decide]" || most != 1 {
		t.Errorf("the player's calls %v, at most %d at once; want its two Starts and the Decide that hung", calls, most)
	}
	if fs := seatFaults(rec, 0); len(fs) != 3 || fs[0].Kind != FaultTimeout {
		t.Errorf("seat 0's faults %+v; want a timeout, then abandoned", fs)
	}
	fs := seatFaults(rec, 1)
	if len(fs) != 3 {
		t.Fatalf("seat 1's faults %+v; want one per round", fs)
	}
	for _, f := range fs {
		if f.Kind != FaultAbandoned || f.Detail != "its call for seat 0 still runs" {
			t.Errorf("seat 1's fault %+v; want abandoned: its call for seat 0 still runs", f)
		}
	}
	if len(seatFaults(rec, 2)) != 0 {
		t.Errorf("seat 2's faults %+v; want none", seatFaults(rec, 2))
	}
}

// seatGate holds back the decisions that a gated player makes for seat 0
// until it is closed. It is a variable, not a field, so that gated
// refers to nothing: its equal values are copies.
var seatGate chan struct{}

// gated is a player of no memory, a value: its decision for seat 0 waits
// for seatGate, its others return 3 at once.
type gated struct{ depth int }

func (gated) Decide(_ context.Context, req *Request[int], _ tallyView) (int, error) {
	if req.Seat == 0 {
		<-seatGate
	}
	return 3, nil
}

func TestEqualValuePlayersAreNotHeldBackByOneAnothersCall(t *testing.T) {
	// "Equal values that refer to nothing ... are copies, each called on
	// its own: they are not held back by one another's call." Two seats
	// given the same value of a player type that is not a pointer, or two
	// pointers to values of no size, which Go may give one address: seat
	// 0's call overruns, and seat 1 plays on, as it does in the next
	// match, where both seats play again.
	seatGate = make(chan struct{})
	defer close(seatGate)
	for _, c := range []struct {
		name string
		a, b Player[int, tallyView]
	}{
		{"one value", gated{depth: 2}, gated{depth: 2}},
		{"pointers to values of no size", &noSize{}, &noSize{}},
	} {
		s := &Series[int, tallyView]{Ruleset: tally{}, Seed: 1, Options: map[string]string{"rounds": "2"}}
		for range 2 {
			s.Game(Seat[int, tallyView]{Name: "gated", Player: c.a, Deadline: 5 * time.Millisecond},
				Seat[int, tallyView]{Name: "gated too", Player: c.b, Deadline: time.Minute})
		}
		recs, err := s.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for k, rec := range recs {
			if fs := seatFaults(rec, 1); len(fs) != 0 {
				t.Errorf("%s: match %d: seat 1's faults %+v; want none: its player is a copy of seat 0's", c.name, k+1, fs)
			}
		}
		if fs := seatFaults(recs[1], 0); len(fs) != 2 || fs[0].Kind != FaultTimeout {
			t.Errorf("%s: match 2: seat 0's faults %+v; want its first call to overrun, as match 1's did", c.name, fs)
		}
	}
}

// noSize is a player type of no size: Go may give two of its pointers
// one address, though they are two players. It plays as gated does.
type noSize struct{}

func (*noSize) Decide(ctx context.Context, req *Request[int], v tallyView) (int, error) {
	return gated{}.Decide(ctx, req, v)
}

func TestSamePlayerIsOnePlayerNotEqualCopies(t *testing.T) {
	h, other := newHung("Decide"), newHung("Decide")
	type memo struct {
		depth int
		seen  *[]int
	}
	seen := new([]int)
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"the same pointer", h, h, true},
		{"two pointers", h, other, false},
		{"equal numbers", picker(2), picker(2), false},
		{"pointers to values of no size", &noSize{}, &noSize{}, false},
		{"equal structs of numbers", gated{2}, gated{2}, false},
		{"structs sharing a pointer", memo{1, seen}, memo{1, seen}, true},
		{"structs of two pointers", memo{1, seen}, memo{1, new([]int)}, false},
		{"shells around the same bot", &shellPlayer{Shell{Bot: hungBot{h}}, hungBot{h}}, &shellPlayer{Shell{Bot: hungBot{h}}, hungBot{h}}, true},
		{"a shell around the player", &shellPlayer{Shell{Bot: h}, hungBot{h}}, h, true},
		{"shells around equal copies", &shellPlayer{Shell{Bot: gated{2}}, hungBot{h}}, &shellPlayer{Shell{Bot: gated{2}}, hungBot{other}}, false},
		{"functions", unbounded(nil), unbounded(nil), false},
	} {
		if got := samePlayer(c.a, c.b); got != c.want {
			t.Errorf("%s: samePlayer %v; want %v", c.name, got, c.want)
		}
	}
}
