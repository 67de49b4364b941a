package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/engine"
)

// Decision is one line of training data: what a seat saw, what was asked,
// what it chose, and how its game ended.
type Decision struct {
	// Game numbers the game in its series or tournament, from 1.
	Game   int    `json:"game"`
	Seed   uint64 `json:"seed"`
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	// Kind is what was asked, in the game's words ("turn", "inflection").
	Kind string `json:"kind"`
	// Observation is the seat's view when it decided, in the game's JSON
	// shape: exactly what the player was given.
	Observation json.RawMessage `json:"observation"`
	// Choices lists the legal moves, when they were finite.
	Choices json.RawMessage `json:"choices,omitempty"`
	// Choice is the move applied. When Fault is set, the player's answer
	// was late, broken or illegal and Choice is the game's default.
	Choice json.RawMessage  `json:"choice"`
	Fault  engine.FaultKind `json:"fault,omitempty"`
	// Score, Rank and Won are the seat's final result.
	Score int64 `json:"score"`
	Rank  int   `json:"rank"`
	Won   bool  `json:"won"`
}

// WriteTraining writes one JSON line (a Decision) per decision of a finished
// match, in the order they were made, for people who train bots. It replays
// the record to show each decision's observation. A match that did not
// finish has no final score and writes nothing.
func WriteTraining[M, V any](w io.Writer, rs engine.Ruleset[M, V], rec *engine.Record[M], game int) error {
	if rec.End == nil || rec.End.Result == nil {
		return nil
	}
	res := adjudicated(rec)
	setup := rec.Header.Setup
	d := Decision{Game: game, Seed: setup.Seed}
	_, err := engine.ReplayWatched(rs, rec, engine.Watch[M, V]{Step: func(m engine.Match[M, V], req *engine.Request[M], st engine.Step[M]) error {
		if st.Seat < 0 || st.Seat >= len(res.Scores) || st.Seat >= len(setup.Players) {
			return nil // a move no seat made
		}
		if req == nil {
			return fmt.Errorf("seat %d owes no move", st.Seat)
		}
		if err := fill(&d, m, req, st); err != nil {
			return err
		}
		d.Player = setup.Players[st.Seat]
		d.Score, d.Rank, d.Won = res.Scores[st.Seat], rank(res, st.Seat), res.Won(st.Seat)
		line, err := json.Marshal(&d)
		if err != nil {
			return err
		}
		_, err = w.Write(append(line, '\n'))
		return err
	}})
	if err != nil {
		return fmt.Errorf("training lines: %w", err)
	}
	return nil
}

// fill sets what a decision saw and chose.
func fill[M, V any](d *Decision, m engine.Match[M, V], req *engine.Request[M], st engine.Step[M]) (err error) {
	d.Seat, d.Kind = st.Seat, string(req.Kind)
	if d.Observation, err = json.Marshal(m.View(st.Seat)); err != nil {
		return err
	}
	d.Choices = nil
	if req.Choices != nil {
		if d.Choices, err = json.Marshal(req.Choices); err != nil {
			return err
		}
	}
	if d.Choice, err = json.Marshal(st.Move); err != nil {
		return err
	}
	d.Fault = ""
	if st.Fault != nil {
		d.Fault = st.Fault.Kind
	}
	return nil
}

func rank(res *engine.Result, seat int) int {
	if seat < len(res.Ranks) {
		return res.Ranks[seat]
	}
	return 0
}
