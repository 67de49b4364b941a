package engine

import (
	"context"
	"fmt"
	"maps"
)

// Series plays several matches of one ruleset one after another. Match k
// (from 0) is played with seed Seed+k.
//
// One player value may sit in several matches (see Game). When a call of an
// in-process player overruns its deadline, its match goes on without it and
// the call is left running (see the package documentation); while it runs,
// the player is not called again, nor for another seat of that match. Its
// seats in the later matches are played as abandoned from the start: the
// player is not started, and each of their moves is the request's default
// with an abandoned fault that says why ("its call from match 2 still
// runs"). Once the call has returned, the player plays again from the next
// match that starts, Start first, as in any match: a player that keeps
// memory should reset it there (Starter), since the call may have left it
// anywhere. Players are told apart with ==: the same pointer is one player
// wherever it sits, and so are players that embed a Shell around the same
// bot; a function (PlayerFunc), which cannot be compared, is not
// recognised. Equal values that refer to nothing (a player type of
// numbers and strings, not a pointer, or a pointer to a type of no size,
// which Go may give one address) are copies, each called on its own:
// they are not held back by one another's call. The seats Lineup makes with new players are not held back by
// another's call.
type Series[M, V any] struct {
	Ruleset Ruleset[M, V]
	Seed    uint64
	// Options are the ruleset's options, the same for every match.
	Options map[string]string
	// Timings records each decision's wall time.
	Timings bool
	// Played, if not nil, is called after each match with its record (sealed
	// when the match ended) and the match; an error stops the series.
	Played func(k int, rec *Record[M], m Match[M, V]) error
	// Forget drops each record once Played has seen it, so that a long
	// series holds one match at a time; Play then returns no records. The
	// record's memory is kept for the next match: Played must not keep
	// the record.
	Forget bool
	// Lineup, if not nil, makes the seats of match k (from 0) just before
	// it is played, for Matches more matches after those added with Game:
	// a long series then holds the seats of one match at a time.
	Lineup  func(k int) []Seat[M, V]
	Matches int
	// Unsealed leaves each record without the hash of its final state:
	// Played seals it (SealOnce) if it keeps it, and need not work the
	// hash out otherwise.
	Unsealed bool

	lineups [][]Seat[M, V]
}

// Game adds a match with these seats, one per player, and returns s so that
// calls chain. A player value may sit in several matches (they are played one
// at a time, and a player whose call from an earlier match still runs is not
// asked: see Series); one that keeps memory should implement Starter to
// reset it.
func (s *Series[M, V]) Game(seats ...Seat[M, V]) *Series[M, V] {
	s.lineups = append(s.lineups, seats)
	return s
}

// Len returns the number of matches to play: those added with Game, and
// Matches more when there is a Lineup.
func (s *Series[M, V]) Len() int {
	if s.Lineup != nil {
		return len(s.lineups) + s.Matches
	}
	return len(s.lineups)
}

// seats returns the seats of match k.
func (s *Series[M, V]) seats(k int) []Seat[M, V] {
	if k < len(s.lineups) {
		return s.lineups[k]
	}
	return s.Lineup(k)
}

// Play plays every match in order and returns their records. When ctx is
// cancelled, the match under way ends with an aborted line, Play returns the
// records so far (that one included) and an error wrapping ctx's error, and
// the remaining matches are not played.
func (s *Series[M, V]) Play(ctx context.Context) ([]*Record[M], error) {
	var runner Runner[M, V]
	runner.Timings = s.Timings
	info := s.Ruleset.Info()
	n := s.Len()
	recs := make([]*Record[M], 0, min(n, 1024))
	var kept *Record[M] // with Forget, the last record, whose memory the next match reuses
	for k := range n {
		seats := s.seats(k)
		if err := ctx.Err(); err != nil {
			return recs, fmt.Errorf("series interrupted before match %d: %w", k+1, context.Cause(ctx))
		}
		setup := Setup{Seed: s.Seed + uint64(k), Options: maps.Clone(s.Options), Players: make([]string, len(seats))}
		for i, seat := range seats {
			setup.Players[i] = seat.Name
		}
		m, err := s.Ruleset.New(setup)
		if err != nil {
			return recs, fmt.Errorf("match %d: %w", k+1, err)
		}
		rec := kept
		if rec == nil || !s.Forget {
			rec = NewRecord[M](info, setup)
		}
		rec.Reset(info, setup)
		runner.Game = k + 1
		if s.Forget {
			kept = rec
		} else {
			recs = append(recs, rec)
		}
		runErr := runner.Run(ctx, m, seats, rec)
		if !s.Unsealed {
			if err := SealOnce(rec, m); err != nil {
				return recs, fmt.Errorf("match %d: %w", k+1, err)
			}
		}
		if s.Played != nil {
			if err := s.Played(k, rec, m); err != nil {
				return recs, err
			}
		}
		if runErr != nil {
			return recs, fmt.Errorf("match %d: %w", k+1, runErr)
		}
	}
	return recs, nil
}

// SealOnce seals a record that ended with a result and has no hash yet
// (Record.Seal) with m, the match it records as play left it, if m has a
// snapshot (json.Marshaler); otherwise it does nothing.
func SealOnce[M, V any](rec *Record[M], m Match[M, V]) error {
	if rec.End == nil || rec.End.Result == nil || rec.End.Hash != "" {
		return nil
	}
	if _, ok := any(m).(interface{ MarshalJSON() ([]byte, error) }); !ok {
		return nil
	}
	return rec.Seal(m)
}
