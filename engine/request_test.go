package engine

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// boundedReq wraps a decision function as a bounded player.
type boundedReq func(*Request[int]) (int, error)

func (f boundedReq) Decide(_ context.Context, r *Request[int], _ tallyView) (int, error) { return f(r) }
func (boundedReq) Bounded() bool                                                         { return true }

func TestARequestWrittenByItsPlayerChangesNothing(t *testing.T) {
	// "The request is the player's own copy of the match's: writing into it
	// changes nothing of the match's" and "a player that returns an error,
	// panics, answers an illegal move or overruns req.Deadline gets the
	// request's default instead (as the match made it, whatever the player
	// wrote into its copy)", played bounded or watched, timed or not: the
	// record holds the match's default for the seat asked, it replays, the
	// match goes on to its end, and the next request the player is handed
	// is the match's as the match made it (tally keeps its requests from
	// round to round, as games do).
	writes := []struct {
		name  string
		write func(*Request[int])
	}{
		{"another legal default", func(r *Request[int]) { r.Default = 3 }},
		{"an illegal default", func(r *Request[int]) { r.Default = 0 }},
		{"another seat", func(r *Request[int]) { r.Seat = 0 }},
		{"everything", func(r *Request[int]) {
			r.ID, r.Seat, r.Kind, r.Choices, r.Default, r.Class, r.Deadline = -1, 0, "bogus", nil, 0, Reply, time.Hour
		}},
	}
	ways := []struct {
		name   string
		answer func() (int, error)
		kind   FaultKind
	}{
		{"error", func() (int, error) { return 0, errBoom }, FaultError},
		{"panic", func() (int, error) { panic("oops") }, FaultPanic},
		{"illegal move", func() (int, error) { return 0, nil }, FaultIllegal},
	}
	modes := []struct {
		name    string
		timings bool
		watched bool
		follow  bool
	}{
		{"bounded", false, false, false},
		{"bounded, timed", true, false, false},
		{"bounded, beside a follower", false, false, true},
		{"watched", false, true, false},
		{"watched, timed", true, true, false},
	}
	for _, mode := range modes {
		for _, w := range writes {
			for _, way := range ways {
				t.Run(fmt.Sprintf("%s/%s/%s", mode.name, w.name, way.name), func(t *testing.T) {
					var handed []string
					decide := func(r *Request[int]) (int, error) {
						if r.Seat != 1 || r.Default != 1 || r.Kind != "pick" || len(r.Choices) != 3 || r.Class != Ordinary || r.Deadline != time.Minute {
							handed = append(handed, fmt.Sprintf("%+v", *r))
						}
						w.write(r)
						return way.answer()
					}
					var p Player[int, tallyView] = boundedReq(decide)
					if mode.watched {
						p = unbounded(decide)
					}
					var first Player[int, tallyView] = picker(2)
					if mode.follow {
						first = &follower{picker: 2}
					}
					setup := Setup{Seed: 1, Players: []string{"p0", "p1"}, Options: map[string]string{"rounds": "3"}}
					m, err := tally{}.New(setup)
					if err != nil {
						t.Fatal(err)
					}
					rec := NewRecord[int](tally{}.Info(), setup)
					r := Runner[int, tallyView]{Timings: mode.timings}
					seats := []Seat[int, tallyView]{{Name: "p0", Player: first, Deadline: time.Minute}, {Name: "p1", Player: p, Deadline: time.Minute}}
					if err := r.Run(context.Background(), m, seats, rec); err != nil {
						t.Fatalf("the match ended with %v; want it played to its end", err)
					}
					if len(handed) > 0 {
						t.Errorf("the player was handed %v; want its own request each time, as the match made it", handed)
					}
					faults := rec.Faults()
					if len(faults) != 3 {
						t.Fatalf("faults %+v; want one per round", faults)
					}
					for _, f := range faults {
						if s := rec.Steps[f.Step]; s.Seat != 1 || s.Move != 1 || f.Kind != way.kind {
							t.Errorf("step %d: seat %d, move %d, fault %s; want seat 1's default 1 with fault %s", f.Step, s.Seat, s.Move, f.Kind, way.kind)
						}
					}
					if got := rec.End.Result.Scores; got[0] != 6 || got[1] != 3 {
						t.Errorf("scores %v; want [6 3]", got)
					}
					if _, err := Replay[int, tallyView](tally{}, rec, nil); err != nil {
						t.Errorf("replay: %v", err)
					}
				})
			}
		}
	}
}
