package territories

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	rules "github.com/arbiter-games/arbiter/games/territories"
)

// Referee is a game of territories in its database. Its methods are safe
// for concurrent use; other processes may use the same file at the same
// time.
type Referee struct {
	path   string
	db     *sql.DB
	cfg    *rules.Config
	mapSVG []byte
	o      Options

	mapState

	mu    sync.Mutex   // one transaction at a time in this process
	world *rules.World // the state after the last transaction here, nil when unknown
	stmts statements

	group sync.Mutex // the group commit: calls waiting, and whether one leads
	queue []*waiter
	lead  bool
}

// statements are the writes of a transaction, prepared once.
type statements struct {
	readState, insertAction, upsertNation, upsertHolding, deleteHolding, saveState, findRequest *sql.Stmt
}

func newReferee(path string, db *sql.DB, cfg *rules.Config, svg []byte, o Options) (*Referee, error) {
	r := &Referee{path: path, db: db, cfg: cfg, mapSVG: svg, o: o}
	for _, s := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&r.stmts.readState, `SELECT seq, world, turn_started FROM state WHERE id = 1`},
		{&r.stmts.insertAction, `INSERT INTO actions (seq, player, action, dice, outcome, at, request) VALUES (?, ?, ?, ?, ?, ?, ?)`},
		{&r.stmts.upsertNation, `INSERT INTO nations (name, player, color, joined, out, actions_left) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET color = excluded.color, out = excluded.out, actions_left = excluded.actions_left`},
		{&r.stmts.upsertHolding, `INSERT INTO holdings (territory, nation, armies) VALUES (?, ?, ?)
			ON CONFLICT (territory) DO UPDATE SET nation = excluded.nation, armies = excluded.armies`},
		{&r.stmts.deleteHolding, `DELETE FROM holdings WHERE territory = ?`},
		{&r.stmts.saveState, `UPDATE state SET seq = ?, world = ?, turn_started = ? WHERE id = 1`},
		{&r.stmts.findRequest, `SELECT seq, player, action, outcome FROM actions WHERE request = ?`},
	} {
		st, err := db.Prepare(s.sql)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		*s.dst = st
	}
	return r, nil
}

// Close closes the database.
func (r *Referee) Close() error { return r.db.Close() }

// Path returns the database file's path.
func (r *Referee) Path() string { return r.path }

// Config returns the game's configuration.
func (r *Referee) Config() *rules.Config { return r.cfg }

// MapSVG returns the map the game was created with.
func (r *Referee) MapSVG() []byte { return r.mapSVG }

// Call is one action a player asks for.
type Call struct {
	Player string
	Action rules.Action
	// Request, if not empty, is the caller's id for this call: the same
	// call (the same player and action) with an id already in the log is
	// answered with the first answer, and not applied again, so that a
	// caller may retry safely. An id names one call: another call with it
	// is refused (Ack.Conflict).
	Request string
}

// RequestConflict is the refusal of a call whose request id the log holds
// for another call: another player's, or another action.
type RequestConflict struct {
	Request string
	// Seq, Player and Action are the logged call that has the id.
	Seq            int
	Player, Action string
}

// Error says which call has the id.
func (e *RequestConflict) Error() string {
	who := e.Player
	if who == rules.Judge {
		who = "the judge"
	}
	return fmt.Sprintf("request %q is action %d, %s's %q; a request id names one call (one player, one action): give this call a new id", e.Request, e.Seq, who, e.Action)
}

// Ack is the answer to one call, given once it is stored: its outcome, or
// the rules' refusal.
type Ack struct {
	Outcome rules.Outcome
	// Refused is the rules' refusal (a *engine.RuleError); nothing was
	// stored for this call.
	Refused error
	// Repeat says the call, with its request id, was in the log already:
	// Outcome is the first answer.
	Repeat bool
	// Conflict is the refusal of a call whose request id the log holds for
	// another call; nothing was stored for this call.
	Conflict *RequestConflict
	// Judged are the judge's actions applied before this call: the end of
	// a turn whose turn_duration had passed.
	Judged []rules.Outcome
}

// Submit applies one call and stores it before it returns. Calls from
// several goroutines are committed together in groups: one transaction, one
// write to the disk, for all the calls that arrived while the previous
// group was committing. An error is an internal failure (the database),
// and the call may or may not have been stored; a refusal is in the Ack.
func (r *Referee) Submit(ctx context.Context, c Call) (Ack, error) {
	w := &waiter{call: c, done: make(chan struct{})}
	r.group.Lock()
	r.queue = append(r.queue, w)
	if r.lead {
		r.group.Unlock()
		select {
		case <-w.done:
			return w.ack, w.err
		case <-ctx.Done():
			return Ack{}, context.Cause(ctx)
		}
	}
	r.lead = true
	r.group.Unlock()
	for {
		r.group.Lock()
		batch := r.queue
		r.queue = nil
		if len(batch) == 0 {
			r.lead = false
			r.group.Unlock()
			break
		}
		r.group.Unlock()
		calls := make([]Call, len(batch))
		for i, b := range batch {
			calls[i] = b.call
		}
		acks, err := r.SubmitBatch(context.WithoutCancel(ctx), calls)
		for i, b := range batch {
			if err != nil {
				b.err = err
			} else {
				b.ack = acks[i]
			}
			close(b.done)
		}
	}
	return w.ack, w.err
}

type waiter struct {
	call Call
	ack  Ack
	err  error
	done chan struct{}
}

// SubmitBatch applies calls in order in one transaction and commits it:
// every accepted call is stored, with its dice, before any is
// acknowledged. A refused call changes nothing and does not stop the
// others. An error is an internal failure, and nothing was stored.
func (r *Referee) SubmitBatch(ctx context.Context, calls []Call) ([]Ack, error) {
	var acks []Ack
	err := r.transact(ctx, func(tx *sql.Tx, w *rules.World, st *txState) error {
		acks = make([]Ack, len(calls))
		for i, c := range calls {
			if err := r.apply(ctx, tx, w, st, c, &acks[i], true); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, explain(r.path, err)
	}
	return acks, nil
}

// txState is the state row as a transaction found it and leaves it.
type txState struct {
	seq         int
	turnStarted time.Time
	now         time.Time
	at          string // now, as the log writes it
}

// transact runs fn in an immediate transaction on the current state of the
// game, then writes the rows the actions changed and the state, and
// commits. A busy database is retried until Options.Patience runs out.
func (r *Referee) transact(ctx context.Context, fn func(*sql.Tx, *rules.World, *txState) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return retryBusy(ctx, r.o, r.path, func() error {
		err := r.attempt(ctx, fn)
		if err != nil {
			r.world = nil // it may hold changes that were not committed
		}
		return err
	})
}

// retryBusy runs fn again while it finds the database busy (beyond the
// busy timeout each attempt waits), with a growing, jittered pause, until
// o.Patience runs out.
func retryBusy(ctx context.Context, o Options, path string, fn func() error) error {
	deadline := time.Now().Add(o.Patience)
	pause := time.Millisecond
	for {
		err := fn()
		if err == nil || !busy(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: the database stayed busy for %v: %w", path, o.Patience, err)
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(pause/2 + rand.N(pause)):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func (r *Referee) attempt(ctx context.Context, fn func(*sql.Tx, *rules.World, *txState) error) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var st txState
	var world, started sql.NullString
	if err := tx.StmtContext(ctx, r.stmts.readState).QueryRowContext(ctx).Scan(&st.seq, &world, &started); err != nil {
		return fmt.Errorf("reading the game's state: %w", err)
	}
	w := r.world
	if w == nil || w.Seq() != st.seq {
		if w, err = rules.LoadWorld(r.cfg, []byte(world.String)); err != nil {
			return err
		}
		if w.Seq() != st.seq {
			return fmt.Errorf("the stored state is of action %d, the state row says %d", w.Seq(), st.seq)
		}
	}
	st.now = r.o.Now().UTC()
	st.at = st.now.Format(time.RFC3339Nano)
	st.turnStarted = st.now
	if started.Valid {
		if t, err := time.Parse(time.RFC3339Nano, started.String); err == nil {
			st.turnStarted = t
		}
	}
	before := w.Seq()
	if err := fn(tx, w, &st); err != nil {
		return err
	}
	if w.Seq() != before {
		if err := r.writeTables(ctx, tx, w, &st); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	r.world = w
	return nil
}

// apply applies one call within a transaction. auto lets turn_duration end
// a turn first (a replay applies exactly the logged actions instead).
func (r *Referee) apply(ctx context.Context, tx *sql.Tx, w *rules.World, st *txState, c Call, ack *Ack, auto bool) error {
	if c.Request != "" {
		done, err := r.repeat(ctx, tx, c, ack)
		if done || err != nil {
			return err
		}
	}
	if auto && r.cfg.TurnManagement && r.cfg.TurnDuration > 0 && w.InGame() > 0 &&
		!st.now.Before(st.turnStarted.Add(time.Duration(r.cfg.TurnDuration))) {
		o, err := w.Apply(rules.Judge, rules.EndTurnAction)
		if err != nil {
			return fmt.Errorf("ending a turn after turn_duration: %w", err)
		}
		if err := r.log(ctx, tx, rules.EndTurnAction, o, st.at, ""); err != nil {
			return err
		}
		st.turnStarted = st.now
		ack.Judged = append(ack.Judged, o)
	}
	a, err := r.cfg.Resolve(c.Action)
	if err == nil {
		ack.Outcome, err = w.Apply(c.Player, a)
	}
	if err != nil {
		if engine.IsRuleError(err) {
			ack.Refused = err
			return nil
		}
		return err
	}
	if ack.Outcome.TurnEnded {
		st.turnStarted = st.now
	}
	return r.log(ctx, tx, a, ack.Outcome, st.at, c.Request)
}

// repeat looks the call's request id up in the log: the same call is
// answered with its first answer, another call with the id is refused; done
// says the call is answered either way.
func (r *Referee) repeat(ctx context.Context, tx *sql.Tx, c Call, ack *Ack) (done bool, err error) {
	var seq int
	var player, action, out string
	err = tx.StmtContext(ctx, r.stmts.findRequest).QueryRowContext(ctx, c.Request).Scan(&seq, &player, &action, &out)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	a, err := r.cfg.Resolve(c.Action)
	if err != nil || player != c.Player || a.String() != action {
		ack.Conflict = &RequestConflict{Request: c.Request, Seq: seq, Player: player, Action: action}
		return true, nil
	}
	ack.Repeat = true
	return true, json.Unmarshal([]byte(out), &ack.Outcome)
}

// log appends an accepted action to the log.
func (r *Referee) log(ctx context.Context, tx *sql.Tx, a rules.Action, o rules.Outcome, at, request string) error {
	dice, err := json.Marshal(append([]int{}, o.Dice...))
	if err != nil {
		return err
	}
	out, err := json.Marshal(o)
	if err != nil {
		return err
	}
	var req any
	if request != "" {
		req = request
	}
	_, err = tx.StmtContext(ctx, r.stmts.insertAction).ExecContext(ctx, o.Seq, o.Player, a.String(), string(dice), string(out), at, req)
	return err
}

// writeTables writes the nations and holdings the transaction's actions
// changed, and the state.
func (r *Referee) writeTables(ctx context.Context, tx *sql.Tx, w *rules.World, st *txState) error {
	nations, territories := w.Dirty()
	up := tx.StmtContext(ctx, r.stmts.upsertNation)
	for _, k := range nations {
		n := w.Nation(k)
		var out, left any
		if n.Out != 0 {
			out = n.Out
		}
		if r.cfg.TurnManagement {
			left = n.ActionsLeft()
		}
		if _, err := up.ExecContext(ctx, n.Name, n.Player, string(n.Color), n.Joined, out, left); err != nil {
			return fmt.Errorf("writing nation %s: %w", n.Name, err)
		}
	}
	hold, drop := tx.StmtContext(ctx, r.stmts.upsertHolding), tx.StmtContext(ctx, r.stmts.deleteHolding)
	for _, i := range territories {
		id := r.cfg.Territory(i).ID
		h := w.Holding(i)
		var err error
		if h.Nation < 0 {
			_, err = drop.ExecContext(ctx, id)
		} else {
			_, err = hold.ExecContext(ctx, id, w.Nation(h.Nation).Name, h.Armies)
		}
		if err != nil {
			return fmt.Errorf("writing the holding of %s: %w", id, err)
		}
	}
	snap, err := w.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = tx.StmtContext(ctx, r.stmts.saveState).ExecContext(ctx, w.Seq(), string(snap), st.turnStarted.UTC().Format(time.RFC3339Nano))
	return err
}
