package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// offers is a small sequential game with reactions, for testing the engine:
// seats take turns; on its turn a seat offers 1, 2 or 3 points to the next
// seat, which owes a Reply: accept (1), which moves the points, or decline
// (0). An unanswered offer is accepted.
type offers struct{}

func (offers) Info() Info {
	return Info{Name: "offers", Variant: "plain", Version: "1", MinSeats: 2, MaxSeats: 8}
}

func (offers) New(s Setup) (Match[int, int], error) {
	return &offersMatch{score: make([]int64, s.Seats()), turns: 2 * s.Seats()}, nil
}

type offersMatch struct {
	score    []int64
	turn     int // moves so far: a turn and its answer make two
	turns    int
	offer    int // the open offer, while an answer is owed
	req      [1]Request[int]
	answered int
}

func (m *offersMatch) mover() int { return m.turn / 2 % len(m.score) }

func (m *offersMatch) Pending() []Request[int] {
	if m.Over() {
		return nil
	}
	if m.turn%2 == 0 {
		m.req[0] = Request[int]{ID: int64(m.turn), Seat: m.mover(), Kind: "offer", Choices: []int{1, 2, 3}, Default: 1}
	} else {
		m.req[0] = Request[int]{ID: int64(m.turn), Seat: (m.mover() + 1) % len(m.score), Kind: "answer",
			Choices: []int{0, 1}, Default: 1, Class: Reply}
	}
	return m.req[:]
}

func (m *offersMatch) Apply(seat, mv int) error {
	req := m.req[0]
	if seat != req.Seat {
		return Refuse("not-asked", "seat %d is not asked", seat)
	}
	if m.turn%2 == 0 {
		if mv < 1 || mv > 3 {
			return Refuse("not-offered", "offer 1, 2 or 3")
		}
		m.offer = mv
	} else {
		if mv != 0 && mv != 1 {
			return Refuse("not-offered", "answer 0 or 1")
		}
		if mv == 1 {
			m.score[m.mover()] -= int64(m.offer)
			m.score[seat] += int64(m.offer)
		}
		m.answered++
	}
	m.turn++
	return nil
}

func (m *offersMatch) View(seat int) int { return m.offer }
func (m *offersMatch) Over() bool        { return m.turn >= 2*m.turns }
func (m *offersMatch) Result() Result {
	r := Result{Scores: append([]int64(nil), m.score...), Winners: []int{}}
	r.Ranks = CompetitionRanks(len(m.score), func(i, j int) bool { return m.score[i] > m.score[j] })
	return r
}

// sleeper answers kind "answer" with decline after answerDelay and kind
// "offer" with 3 after offerDelay; it notes the deadlines it is given.
type sleeper struct {
	offerDelay, answerDelay time.Duration
	deadlines               map[Kind]time.Duration
}

func (s *sleeper) Decide(_ context.Context, r *Request[int], _ int) (int, error) {
	s.deadlines[r.Kind] = r.Deadline
	if r.Kind == "answer" {
		time.Sleep(s.answerDelay)
		return 0, nil
	}
	time.Sleep(s.offerDelay)
	return 3, nil
}

func playOffers(t *testing.T, seats ...Seat[int, int]) *Record[int] {
	t.Helper()
	setup := Setup{Seed: 1}
	for _, s := range seats {
		setup.Players = append(setup.Players, s.Name)
	}
	m, err := offers{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord[int](offers{}.Info(), setup)
	var r Runner[int, int]
	if err := r.Run(context.Background(), m, seats, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestReplyDeadline(t *testing.T) {
	// "A turn can create a decision owed by another seat (answer this trade),
	// with its own deadline and default."
	slowAnswers := &sleeper{offerDelay: 0, answerDelay: 200 * time.Millisecond, deadlines: map[Kind]time.Duration{}}
	slowOffers := &sleeper{offerDelay: 60 * time.Millisecond, answerDelay: 0, deadlines: map[Kind]time.Duration{}}
	rec := playOffers(t,
		Seat[int, int]{Name: "slow-offers", Player: slowOffers, Deadline: time.Second, ReplyDeadline: 30 * time.Millisecond},
		Seat[int, int]{Name: "slow-answers", Player: slowAnswers, Deadline: time.Second, ReplyDeadline: 30 * time.Millisecond},
	)
	if got := slowOffers.deadlines; got["offer"] != time.Second || got["answer"] != 30*time.Millisecond {
		t.Errorf("deadlines told to the player: %v; want offer 1s, answer 30ms", got)
	}
	faults := rec.Faults()
	if len(faults) == 0 {
		t.Fatal("no faults; the slow answer overran its reply deadline")
	}
	// The slow offers (60ms) are within the ordinary deadline: never a fault.
	// The first slow answer (200ms) overruns its 30ms reply deadline: the
	// default (accept) is applied and the seat abandoned.
	first := faults[0]
	if first.Seat != 1 || first.Kind != FaultTimeout || !strings.Contains(first.Detail, "30ms") {
		t.Errorf("first fault %+v; want seat 1 timed out after 30ms", first)
	}
	for _, f := range faults {
		if f.Seat != 1 {
			t.Errorf("fault %+v: seat 0 answered its offers in time", f)
		}
	}
	// Seat 0 offers 3 twice to seat 1, which accepts by default: +6. Seat 0
	// declines both of seat 1's offers.
	if s := rec.End.Result.Scores; s[1] != 6 || s[0] != -6 {
		t.Errorf("scores %v; want [-6 6]", s)
	}
}

func TestReplyDeadlineDefaultsToDeadline(t *testing.T) {
	p := &sleeper{deadlines: map[Kind]time.Duration{}}
	q := &sleeper{deadlines: map[Kind]time.Duration{}}
	rec := playOffers(t,
		Seat[int, int]{Name: "a", Player: p, Deadline: 500 * time.Millisecond},
		Seat[int, int]{Name: "b", Player: q, Deadline: 500 * time.Millisecond},
	)
	if p.deadlines["answer"] != 500*time.Millisecond || p.deadlines["offer"] != 500*time.Millisecond {
		t.Errorf("deadlines %v; want 500ms for both kinds", p.deadlines)
	}
	if f := rec.Faults(); len(f) != 0 {
		t.Errorf("faults %+v; want none", f)
	}
}
