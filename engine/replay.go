package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ReplayError says where a record and the rules part ways.
type ReplayError struct {
	// Step is the index of the step the rules refused, or -1 when the moves
	// replayed but the end differs.
	Step int
	Msg  string
}

// Error says where the replay parted from the record: the step, and its
// line in the record as WriteTo writes it (the header is line 1).
func (e *ReplayError) Error() string {
	if e.Step < 0 {
		return "replay: " + e.Msg
	}
	return fmt.Sprintf("replay: step %d (record line %d): %s", e.Step, e.Step+2, e.Msg)
}

// Replay re-runs rec from its setup with rs. Every recorded move must apply,
// and a step with a fault must have its request's default move (a fault is
// why the runner applied the default); when the record has an end with a
// result, the match must be over with the same result, and the final state
// must have the recorded hash. A record that was interrupted or cut off
// replays its moves only.
//
// What the rules cannot tell is not checked here: who played each seat,
// whether a fault's timeout or crash really happened, a decision's time.
// The digest of the record's lines (End.Lines, checked by ReadRecord) shows
// whether they were changed after the record was written.
//
// round, if not nil, is called with the match before the first move and
// after every round: every group of moves that answered one call to Pending.
// Reports use it to sample a match's history.
func Replay[M, V any](rs Ruleset[M, V], rec *Record[M], round func(Match[M, V])) (Match[M, V], error) {
	return ReplayWatched(rs, rec, Watch[M, V]{Round: round})
}

// Watch is what a replay tells as it goes.
type Watch[M, V any] struct {
	// Round is called with the match before the first move and after every
	// round, as Replay's round is.
	Round func(Match[M, V])
	// Step is called before each recorded step is applied, with the request
	// it answers (nil if the round has none for its seat): what the seat saw
	// and was offered when it decided. An error stops the replay.
	Step func(m Match[M, V], req *Request[M], s Step[M]) error
}

// ReplayWatched is Replay with every round and step told to w.
func ReplayWatched[M, V any](rs Ruleset[M, V], rec *Record[M], w Watch[M, V]) (Match[M, V], error) {
	round := w.Round
	info := rs.Info()
	h := rec.Header
	if h.Ruleset != info.Name || h.Variant != info.Variant {
		return nil, fmt.Errorf("replay: the record is a %s match; these rules are %s", nameVariant(h.Ruleset, h.Variant), nameVariant(info.Name, info.Variant))
	}
	if h.RulesVersion != info.Version {
		return nil, fmt.Errorf("replay: the record was played under %s rules version %q; this Arbiter has version %q", h.Ruleset, h.RulesVersion, info.Version)
	}
	m, err := rs.New(h.Setup)
	if err != nil {
		return nil, fmt.Errorf("replay: the record's setup: %w", err)
	}
	if round != nil {
		round(m)
	}
	steps := rec.Steps
	for i := 0; i < len(steps); {
		if s := steps[i]; s.Seat == Judge {
			// A judge's move answers no request: a round of its own.
			if w.Step != nil {
				if err := w.Step(m, nil, s); err != nil {
					return nil, fmt.Errorf("replay: step %d: %w", i, err)
				}
			}
			if err := m.Apply(Judge, s.Move); err != nil {
				return nil, &ReplayError{Step: i, Msg: fmt.Sprintf("the judge's move %s was refused: %v", moveText(s.Move), err)}
			}
			i++
			if round != nil {
				round(m)
			}
			continue
		}
		reqs := m.Pending()
		n := len(reqs)
		if n == 0 {
			return nil, &ReplayError{Step: i, Msg: fmt.Sprintf("the match owes no move, but the record has %d more", len(steps)-i)}
		}
		for k := 0; k < n && i < len(steps) && steps[i].Seat != Judge; k, i = k+1, i+1 {
			s := steps[i]
			req := requestOf(reqs, k, s.Seat)
			if s.Fault != nil && req != nil {
				if err := defaultApplied(req, s); err != nil {
					return nil, &ReplayError{Step: i, Msg: err.Error()}
				}
			}
			if w.Step != nil {
				if err := w.Step(m, req, s); err != nil {
					return nil, fmt.Errorf("replay: step %d: %w", i, err)
				}
			}
			if s.Fault != nil {
				defaulted(m, s.Seat, *s.Fault)
			}
			if err := m.Apply(s.Seat, s.Move); err != nil {
				return nil, &ReplayError{Step: i, Msg: fmt.Sprintf("seat %d's move %s was refused: %v", s.Seat, moveText(s.Move), err)}
			}
		}
		if round != nil {
			round(m)
		}
	}
	if rec.End == nil || rec.End.Result == nil {
		return m, nil
	}
	if !m.Over() {
		return nil, &ReplayError{Step: -1, Msg: fmt.Sprintf("the record ends with a result, but after its %d moves the match is not over", len(steps))}
	}
	got, err := json.Marshal(m.Result())
	if err != nil {
		return nil, err
	}
	want, err := json.Marshal(rec.End.Result)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(got, want) {
		return nil, &ReplayError{Step: -1, Msg: fmt.Sprintf("the result differs: recorded %s, replayed %s", want, got)}
	}
	if rec.End.Hash != "" {
		hash, err := StateHash(m)
		if err != nil {
			return nil, err
		}
		if hash != rec.End.Hash {
			return nil, &ReplayError{Step: -1, Msg: fmt.Sprintf("the final state differs: recorded %s, replayed %s", rec.End.Hash, hash)}
		}
	}
	return m, nil
}

// defaultApplied checks that a step with a fault has its request's default
// move, as the runner applies it.
func defaultApplied[M any](req *Request[M], s Step[M]) error {
	move, def := moveText(s.Move), moveText(req.Default)
	if move != def {
		return fmt.Errorf("seat %d's move %s has a fault (%s), but a fault means the default move was applied, and the default is %s", s.Seat, move, s.Fault.Kind, def)
	}
	return nil
}

// requestOf finds seat's request among a round's, at k when the record
// keeps the round's order.
func requestOf[M any](reqs []Request[M], k, seat int) *Request[M] {
	if reqs[k].Seat == seat {
		return &reqs[k]
	}
	for j := range reqs {
		if reqs[j].Seat == seat {
			return &reqs[j]
		}
	}
	return nil
}

func nameVariant(name, variant string) string {
	if variant == "" {
		return name
	}
	return name + " (" + variant + ")"
}

func moveText(m any) string {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Sprint(m)
	}
	return string(b)
}
