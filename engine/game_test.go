package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
)

// tally is a small simultaneous game for testing the engine: for a number of
// rounds every seat picks 1, 2 or 3 at once; a seat's score is the sum of its
// picks. A pick of 0 is never offered and is refused.
type tally struct{}

func (tally) Info() Info {
	return Info{
		Name: "tally", Variant: "plain", Version: "1", MinSeats: 1, MaxSeats: 8,
		Options: []Option{{Name: "rounds", Kind: IntOption, Default: "3", Min: 0, Max: 1000}},
	}
}

func (g tally) New(s Setup) (Match[int, tallyView], error) {
	if err := s.CheckSeats(g.Info()); err != nil {
		return nil, err
	}
	rounds, err := s.Int(g.Info(), "rounds")
	if err != nil {
		return nil, err
	}
	m := &tallyMatch{Rounds: rounds, Sums: make([]int64, s.Seats()), Picked: make([]int, s.Seats())}
	m.open()
	return m, nil
}

var tallyChoices = []int{1, 2, 3}

type tallyMatch struct {
	Rounds int     `json:"rounds"`
	Round  int     `json:"round"`
	Sums   []int64 `json:"sums"`
	Picked []int   `json:"picked"` // this round, 0 = not yet
	owed   int
	reqs   []Request[int]
}

type tallyView struct {
	You, Round int
	Sums       []int64
}

// open asks every seat for the next round's pick. The requests are kept
// from round to round, as a game's are: only their numbers change.
func (m *tallyMatch) open() {
	if len(m.reqs) != len(m.Sums) {
		m.reqs = m.reqs[:0]
		for s := range m.Sums {
			m.reqs = append(m.reqs, Request[int]{Seat: s, Kind: "pick", Choices: tallyChoices, Default: 1})
		}
	}
	for s := range m.Sums {
		m.Picked[s] = 0
		m.reqs[s].ID = int64(m.Round*len(m.Sums) + s)
	}
	m.owed = len(m.Sums)
}

func (m *tallyMatch) Pending() []Request[int] {
	if m.Over() {
		return nil
	}
	return m.reqs
}

func (m *tallyMatch) Apply(seat, pick int) error {
	if m.Over() {
		return Refuse("over", "the game is over")
	}
	if seat < 0 || seat >= len(m.Sums) || m.Picked[seat] != 0 {
		return Refuse("not-asked", "seat %d is not asked", seat)
	}
	if pick < 1 || pick > 3 {
		return Refuse("not-offered", "%d is not offered; pick 1, 2 or 3", pick)
	}
	m.Picked[seat] = pick
	if m.owed--; m.owed == 0 {
		for s, p := range m.Picked {
			m.Sums[s] += int64(p)
		}
		m.Round++
		m.open()
	}
	return nil
}

func (m *tallyMatch) View(seat int) tallyView {
	return tallyView{You: seat, Round: m.Round, Sums: m.Sums}
}
func (m *tallyMatch) Over() bool { return m.Round >= m.Rounds }
func (m *tallyMatch) Result() Result {
	r := Result{Scores: append([]int64(nil), m.Sums...), Winners: []int{}, Reason: "rounds"}
	r.Ranks = CompetitionRanks(len(m.Sums), func(i, j int) bool { return m.Sums[i] > m.Sums[j] })
	for s, rank := range r.Ranks {
		if rank == 1 {
			r.Winners = append(r.Winners, s)
		}
	}
	return r
}
func (m *tallyMatch) MarshalJSON() ([]byte, error) {
	type plain tallyMatch
	return json.Marshal((*plain)(m))
}

// Players for the tests.

// picker always picks the same number; bounded.
type picker int

func (p picker) Decide(context.Context, *Request[int], tallyView) (int, error) { return int(p), nil }
func (picker) Bounded() bool                                                   { return true }

// unbounded wraps a decision function as a player the watchdog watches.
type unbounded func(*Request[int]) (int, error)

func (f unbounded) Decide(_ context.Context, r *Request[int], _ tallyView) (int, error) { return f(r) }

// stuck blocks on its first decision until released, counting its calls.
type stuck struct {
	calls   atomic.Int32
	release chan struct{}
}

func (s *stuck) Decide(context.Context, *Request[int], tallyView) (int, error) {
	s.calls.Add(1)
	<-s.release
	return 3, nil
}

// starter fails or blocks in Start.
type starter struct {
	picker
	err   error
	block chan struct{}
	info  MatchInfo
}

func (s *starter) Start(_ context.Context, info MatchInfo) error {
	s.info = info
	if s.block != nil {
		<-s.block
	}
	return s.err
}

func (s *starter) Bounded() bool { return s.block == nil }

// selfTimed reports ErrDeadline, as an external program would.
type selfTimed struct{}

func (selfTimed) Decide(context.Context, *Request[int], tallyView) (int, error) {
	return 0, fmt.Errorf("no answer in 5ms: %w", ErrDeadline)
}
func (selfTimed) SelfTimed() {}

// play runs a tally match with the given players and options.
func play(ctx context.Context, rounds int, deadline time.Duration, players ...Player[int, tallyView]) (*Record[int], Match[int, tallyView], error) {
	setup := Setup{Seed: 1, Options: map[string]string{"rounds": strconv.Itoa(rounds)}}
	seats := make([]Seat[int, tallyView], len(players))
	for i, p := range players {
		name := fmt.Sprintf("p%d", i)
		setup.Players = append(setup.Players, name)
		seats[i] = Seat[int, tallyView]{Name: name, Player: p, Deadline: deadline, StartDeadline: 10 * deadline}
	}
	m, err := tally{}.New(setup)
	if err != nil {
		return nil, nil, err
	}
	rec := NewRecord[int](tally{}.Info(), setup)
	var r Runner[int, tallyView]
	err = r.Run(ctx, m, seats, rec)
	return rec, m, err
}

var errBoom = errors.New("boom")
