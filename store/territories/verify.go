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

// Verify replays the log, from the game's configuration and seed, into a
// fresh in-memory database through the same code that wrote it, and
// compares: each action's dice and answer, then the actions, nations and
// holdings tables and the rules' state, row by row.
func (r *Referee) Verify(ctx context.Context) (Verdict, error) {
	v, err := r.verify(ctx)
	return v, explain(r.path, err)
}

func (r *Referee) verify(ctx context.Context) (Verdict, error) {
	var v Verdict
	log, err := r.History(ctx, 0)
	if err != nil {
		return v, err
	}
	v.Actions = len(log)
	mem, err := openDB(":memory:", r.o)
	if err != nil {
		return v, err
	}
	defer mem.Close()
	var created time.Time
	var stamp string
	if err := r.db.QueryRowContext(ctx, `SELECT created FROM game WHERE id = 1`).Scan(&stamp); err == nil {
		created, _ = time.Parse(time.RFC3339Nano, stamp)
	}
	if err := initSchema(ctx, mem, r.cfg, r.mapSVG, created); err != nil {
		return v, fmt.Errorf("replay: %w", err)
	}
	replay, err := newReferee(":memory:", mem, r.cfg, r.mapSVG, r.o)
	if err != nil {
		return v, err
	}
	problem := func(format string, args ...any) {
		if len(v.Problems) < maxProblems {
			v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
		}
	}
	// Replay in transactions of a thousand actions.
	for start := 0; start < len(log) && v.OK(); start += 1000 {
		batch := log[start:min(start+1000, len(log))]
		err := replay.transact(ctx, func(tx *sql.Tx, w *rules.World, st *txState) error {
			for _, e := range batch {
				a, err := rules.ParseAction(e.Action)
				if err != nil {
					problem("action %d: %q does not parse: %v", e.Seq, e.Action, err)
					return nil
				}
				st.at = e.At.UTC().Format(time.RFC3339Nano)
				var ack Ack
				if err := replay.apply(ctx, tx, w, st, Call{Player: e.Player, Action: a, Request: e.Request}, &ack, false); err != nil {
					return err
				}
				if ack.Refused != nil {
					problem("action %d (%s: %s) is refused on replay: %v", e.Seq, e.Player, e.Action, ack.Refused)
					return nil
				}
				if ack.Outcome.Seq != e.Seq {
					problem("action %d replays as action %d", e.Seq, ack.Outcome.Seq)
				}
				if !slices.Equal(ack.Outcome.Dice, e.Dice) {
					problem("action %d (%s: %s): the log has dice %v, the replay draws %v", e.Seq, e.Player, e.Action, e.Dice, ack.Outcome.Dice)
				}
				if got, _ := json.Marshal(ack.Outcome); string(got) != string(e.Outcome) {
					problem("action %d (%s: %s): the log answered %s, the replay answers %s", e.Seq, e.Player, e.Action, e.Outcome, got)
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
	for _, t := range []struct{ name, query string }{
		{"actions", `SELECT seq, player, action, dice, outcome, at, request FROM actions ORDER BY seq`},
		{"nations", `SELECT name, player, color, joined, out, actions_left FROM nations ORDER BY name`},
		{"holdings", `SELECT territory, nation, armies FROM holdings ORDER BY territory`},
		{"state", `SELECT seq, world FROM state`},
	} {
		have, err := dump(ctx, r.db, t.query)
		if err != nil {
			return v, err
		}
		want, err := dump(ctx, mem, t.query)
		if err != nil {
			return v, err
		}
		compare(t.name, have, want, problem)
	}
	return v, nil
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
