package territories

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
)

// Verdict is what a replay of the log found.
type Verdict struct {
	// Actions is the number of logged actions replayed.
	Actions int `json:"actions"`
	// Problems lists every difference between the file and the replay;
	// empty when they agree.
	Problems []string `json:"problems"`
}

// OK reports whether the replay rebuilt exactly the file's tables.
func (v Verdict) OK() bool { return len(v.Problems) == 0 }

// maxProblems bounds the differences a verdict lists.
const maxProblems = 20

// Verify replays the log (the match's moves), from the game's
// configuration and seed, into a fresh in-memory store through the same
// code that wrote it, and compares: each action's dice and answer with the
// actions table's, then the actions, nations and holdings tables and the
// rules' state, row by row.
func (r *Referee) Verify(ctx context.Context) (Verdict, error) {
	v, err := r.verify(ctx)
	return v, explain(r.path, err)
}

func (r *Referee) verify(ctx context.Context) (Verdict, error) {
	var v Verdict
	moves, err := r.st.Moves(ctx, r.id, 0)
	if err != nil {
		return v, err
	}
	log, err := r.History(ctx, 0)
	if err != nil {
		return v, err
	}
	told := make(map[int64]Entry, len(log))
	for _, e := range log {
		told[int64(e.Seq)] = e
	}
	v.Actions = len(moves)
	replay, err := r.fresh(ctx)
	if err != nil {
		return v, fmt.Errorf("replay: %w", err)
	}
	defer replay.Close()
	problem := func(format string, args ...any) {
		if len(v.Problems) < maxProblems {
			v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
		}
	}
	// Replay in transactions of a thousand actions.
	for start := 0; start < len(moves) && v.OK(); start += 1000 {
		err := replay.transact(ctx, func(b *batch) error {
			for _, mv := range moves[start:min(start+1000, len(moves))] {
				if !replayMove(ctx, b, mv, told, problem) {
					return nil
				}
			}
			return nil
		})
		if err != nil {
			return v, fmt.Errorf("replay: %w", err)
		}
	}
	if !v.OK() {
		return v, nil
	}
	for _, t := range tableQueries {
		have, err := dump(ctx, r.read, t.query, r.id)
		if err != nil {
			return v, err
		}
		want, err := dump(ctx, replay.read, t.query, r.id)
		if err != nil {
			return v, err
		}
		compare(t.name, have, want, problem)
	}
	return v, nil
}

// fresh returns the game as it was created, in a new in-memory store.
func (r *Referee) fresh(ctx context.Context) (*Referee, error) {
	m, err := r.st.Match(ctx, r.id)
	if err != nil {
		return nil, err
	}
	mem, err := openDB(":memory:", r.o)
	if err != nil {
		return nil, err
	}
	st, err := store.OpenDB(ctx, ":memory:", mem, mem, store.Options{Now: r.o.Now})
	if err != nil {
		mem.Close()
		return nil, err
	}
	err = Migrate(ctx, st)
	if err == nil {
		m.Status, m.Result = store.Running, nil
		err = inTx(ctx, mem, func(tx *sql.Tx) error {
			if err := store.ImportTx(ctx, tx, m, nil); err != nil {
				return err
			}
			return newGameRows(ctx, tx, m.ID, r.mapSVG, rules.NewWorld(r.cfg), "")
		})
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	return newReferee(":memory:", st, mem, mem, r.id, r.cfg, r.mapSVG, r.o)
}

// replayMove applies one move of the log in a replay and compares it with
// what the actions table says it drew and answered; false says the replay
// cannot go on.
func replayMove(ctx context.Context, b *batch, mv store.Move, told map[int64]Entry, problem func(string, ...any)) bool {
	var c struct{ Player, Action string }
	err := json.Unmarshal(mv.Move, &c)
	var a rules.Action
	if err == nil {
		a, err = rules.ParseAction(c.Action)
	}
	if err != nil {
		problem("action %d: %q does not parse: %v", mv.Seq, c.Action, err)
		return false
	}
	e, ok := told[mv.Seq]
	at := mv.At.UTC().Format(time.RFC3339Nano)
	if ok {
		at = e.At.UTC().Format(time.RFC3339Nano)
	}
	var ack Ack
	n := len(b.moves)
	if err := b.call(ctx, Call{Player: c.Player, Action: a, Request: mv.Key}, &ack, false); err != nil {
		problem("action %d (%s: %s) does not replay: %v", mv.Seq, c.Player, c.Action, err)
		return false
	}
	if ack.Refused != nil {
		problem("action %d (%s: %s) is refused on replay: %v", mv.Seq, c.Player, c.Action, ack.Refused)
		return false
	}
	if len(b.moves) > n {
		b.logged[len(b.logged)-1].at = at
	}
	if int64(ack.Outcome.Seq) != mv.Seq {
		problem("action %d replays as action %d", mv.Seq, ack.Outcome.Seq)
	}
	if !ok {
		return true // the tables' comparison tells the missing row
	}
	if !slices.Equal(ack.Outcome.Dice, e.Dice) {
		problem("action %d (%s: %s): the log has dice %v, the replay draws %v", mv.Seq, c.Player, c.Action, e.Dice, ack.Outcome.Dice)
	}
	if got, _ := json.Marshal(ack.Outcome); string(got) != string(e.Outcome) {
		problem("action %d (%s: %s): the log answered %s, the replay answers %s", mv.Seq, c.Player, c.Action, e.Outcome, got)
	}
	return true
}

// compare reports the rows where the file's table (have) and the replay's
// (want) differ.
func compare(table string, have, want Table, problem func(string, ...any)) {
	for i := range max(len(have), len(want)) {
		switch {
		case i >= len(have):
			problem("%s: the replay has a row the file lacks: %s", table, strings.Join(want[i], " | "))
		case i >= len(want):
			problem("%s: the file has a row the replay lacks: %s", table, strings.Join(have[i], " | "))
		case !slices.Equal(have[i], want[i]):
			problem("%s: the file has %s; the replay %s", table, strings.Join(have[i], " | "), strings.Join(want[i], " | "))
		}
	}
}
