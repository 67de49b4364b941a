package territories

import (
	"cmp"
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
	"github.com/arbiter-games/arbiter/store"
)

// Referee is a game of territories in its database. Its methods are safe
// for concurrent use; other processes may use the same file at the same
// time.
type Referee struct {
	path     string
	st       *store.Store
	db, read *sql.DB // the store's writer (one connection) and readers
	id       string  // the match
	cfg      *rules.Config
	mapSVG   []byte
	o        Options

	mapState

	mu      sync.Mutex                // one transaction at a time in this process
	world   *rules.World              // the state after the last commit seen here, nil when unknown
	started time.Time                 // when world's turn began; zero when unknown
	stmts   [statementCount]*sql.Stmt // the projection's, on db
	seqStmt *sql.Stmt                 // where the match is, on read

	group sync.Mutex // the group commit: calls waiting, and whether one leads
	queue []*waiter
	lead  bool
}

func newReferee(path string, st *store.Store, db, read *sql.DB, id string, cfg *rules.Config, svg []byte, o Options) (*Referee, error) {
	r := &Referee{path: path, st: st, db: db, read: read, id: id, cfg: cfg, mapSVG: svg, o: o}
	for i, q := range statementSQL {
		s, err := db.Prepare(q)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r.stmts[i] = s
	}
	s, err := read.Prepare(`SELECT seq, status FROM matches WHERE id = $1`)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.seqStmt = s
	return r, nil
}

// Close closes the database.
func (r *Referee) Close() error { return r.st.Close() }

// Path returns the database file's path.
func (r *Referee) Path() string { return r.path }

// Config returns the game's configuration.
func (r *Referee) Config() *rules.Config { return r.cfg }

// MapSVG returns the map the game was created with.
func (r *Referee) MapSVG() []byte { return r.mapSVG }

// Match returns the id of the game's match in the store.
func (r *Referee) Match() string { return r.id }

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

// SubmitBatch applies calls in order and commits them in one transaction:
// every accepted call is stored, with its dice, before any is
// acknowledged. A refused call changes nothing and does not stop the
// others. An error is an internal failure, and nothing was stored.
func (r *Referee) SubmitBatch(ctx context.Context, calls []Call) ([]Ack, error) {
	acks := make([]Ack, len(calls))
	err := r.transact(ctx, func(b *batch) error {
		for i, c := range calls {
			acks[i] = Ack{}
			if err := b.call(ctx, c, &acks[i], true); err != nil {
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

// transact applies a batch of actions (fn) to the game as it stands, and
// commits them with the projection of the log in one transaction. When
// the database is busy, or another process has moved the log on, it reads
// the game again and starts over, until Options.Patience runs out.
func (r *Referee) transact(ctx context.Context, fn func(*batch) error) error {
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
// busy timeout each attempt waits) or the log moved on by another process,
// with a growing, jittered pause, until o.Patience runs out.
func retryBusy(ctx context.Context, o Options, path string, fn func() error) error {
	deadline := time.Now().Add(o.Patience)
	pause := time.Millisecond
	for {
		err := fn()
		if err == nil || !retryable(err) {
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

// retryable reports whether an attempt may succeed again: the database was
// busy, or another process committed first.
func retryable(err error) bool {
	return busy(err) || errors.Is(err, store.ErrMoved) || errors.Is(err, store.ErrKeyTaken)
}

// attempt applies fn's actions to the game as it stands and commits them.
// The state this process committed last is taken to be current without
// reading the database: the commit refuses the moves (store.ErrMoved) if
// another process has moved the log on, or ended the match, meanwhile, and
// transact reads the game again.
func (r *Referee) attempt(ctx context.Context, fn func(*batch) error) error {
	w, started := r.world, r.started
	cached := w != nil
	if !cached {
		var err error
		if w, started, err = r.current(ctx, true); err != nil {
			return err
		}
	}
	now := r.o.Now().UTC()
	if started.IsZero() {
		started = now
	}
	b := &batch{r: r, w: w, now: now, started: started, keys: map[string]int{}}
	if err := fn(b); err != nil {
		return err
	}
	if len(b.moves) == 0 {
		// Every call refused or answered before: nothing changed, if the
		// refusals were the current game's.
		if cached {
			if now, _, err := r.current(ctx, true); err != nil || now != w {
				return cmp.Or(err, store.ErrMoved)
			}
		}
		return nil
	}
	if err := r.st.CommitBatch(ctx, &store.Batch{Match: r.id, Moves: b.moves, Status: store.Running, Project: b.project}); err != nil {
		return err
	}
	r.world, r.started = w, b.started
	return nil
}

// editedState ends the refusal of a stored state that does not read or
// fit the log: what only a change from outside Arbiter makes.
const editedState = "the table territories_states was changed outside Arbiter, or damaged (arbiter territories replay compares the file with its log of actions)"

// current returns the game as the last commit left it, and when its turn
// began: the state this process committed last, or the one stored (and
// the moves after it, if it is behind the log). forMoves refuses a match
// that arbiter serve has ended.
func (r *Referee) current(ctx context.Context, forMoves bool) (*rules.World, time.Time, error) {
	var seq int64
	var status string
	if err := r.seqStmt.QueryRowContext(ctx, r.id).Scan(&seq, &status); err != nil {
		return nil, time.Time{}, fmt.Errorf("reading the game: %w", err)
	}
	if forMoves && status != string(store.Running) {
		return nil, time.Time{}, engine.Refuse("game-over", "the game is %s (arbiter serve ended its match); it takes no more actions", status)
	}
	if r.world != nil && int64(r.world.Seq()) == seq {
		return r.world, r.started, nil
	}
	var stateSeq int64
	var world, started string
	err := r.read.QueryRowContext(ctx, `SELECT m.seq, g.seq, g.world, g.turn_started FROM matches m JOIN territories_states g ON g.match_id = m.id WHERE m.id = $1`, r.id).
		Scan(&seq, &stateSeq, &world, &started)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("reading the game's state: %w", err)
	}
	w, err := rules.LoadWorld(r.cfg, []byte(world))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w; %s", r.path, err, editedState)
	}
	if int64(w.Seq()) != stateSeq || stateSeq > seq {
		return nil, time.Time{}, fmt.Errorf("%s: the stored state is of action %d, its row says %d and the log has %d; %s", r.path, w.Seq(), stateSeq, seq, editedState)
	}
	if stateSeq < seq {
		if err := r.catchUp(ctx, w, stateSeq); err != nil {
			return nil, time.Time{}, err
		}
	}
	var t time.Time
	if started != "" {
		t, _ = time.Parse(time.RFC3339Nano, started)
	}
	r.world, r.started = w, t
	return w, t, nil
}

// catchUp applies to w the moves of the log after action seq.
func (r *Referee) catchUp(ctx context.Context, w *rules.World, seq int64) error {
	moves, err := r.st.Moves(ctx, r.id, seq)
	if err != nil {
		return err
	}
	for _, mv := range moves {
		var c rules.Call
		err := json.Unmarshal(mv.Move, &c)
		if err == nil {
			var a rules.Action
			if a, err = r.cfg.Resolve(c.Action); err == nil {
				_, err = w.Apply(c.Player, a)
			}
		}
		if err != nil {
			return fmt.Errorf("move %d of the log does not replay: %w", mv.Seq, err)
		}
	}
	return nil
}

// batch is the actions of one transaction: applied to the world in
// memory, committed together.
type batch struct {
	r       *Referee
	w       *rules.World
	now     time.Time
	started time.Time // when the turn began, after the batch's actions
	moves   []store.Move
	logged  []logged       // by move
	keys    map[string]int // request id → index in moves
}

// call applies one call. auto lets turn_duration end a turn first (a
// replay applies exactly the logged actions instead).
func (b *batch) call(ctx context.Context, c Call, ack *Ack, auto bool) error {
	if c.Request != "" {
		done, err := b.repeat(ctx, c, ack)
		if done || err != nil {
			return err
		}
	}
	cfg := b.r.cfg
	if auto && cfg.TurnManagement && cfg.TurnDuration > 0 && b.w.InGame() > 0 &&
		!b.now.Before(b.started.Add(time.Duration(cfg.TurnDuration))) {
		o, err := b.w.Apply(rules.Judge, rules.EndTurnAction)
		if err != nil {
			return fmt.Errorf("ending a turn after turn_duration: %w", err)
		}
		b.add(rules.Judge, rules.EndTurnAction, o, "", "")
		b.started = b.now
		ack.Judged = append(ack.Judged, o)
	}
	a, err := cfg.Resolve(c.Action)
	if err == nil {
		ack.Outcome, err = b.w.Apply(c.Player, a)
	}
	if err != nil {
		if engine.IsRuleError(err) {
			ack.Refused = err
			return nil
		}
		return err
	}
	if ack.Outcome.TurnEnded {
		b.started = b.now
	}
	b.add(c.Player, a, ack.Outcome, c.Request, "")
	return nil
}

// add appends an accepted action to the batch's moves; at, when set, is
// the time the actions table keeps (a replay's).
func (b *batch) add(player string, a rules.Action, o rules.Outcome, request, at string) {
	move := callJSON(player, a.String())
	mv := store.Move{Seq: int64(o.Seq), Actor: engine.Judge, Request: -1, Move: move, Key: request}
	if request != "" {
		mv.KeyHash = keyHash(move)
		b.keys[request] = len(b.moves)
	}
	b.moves = append(b.moves, mv)
	b.logged = append(b.logged, logged{player: player, action: a.String(), outcome: o, at: at})
}

// repeat looks the call's request id up, in the batch and in the log: the
// same call is answered with its first answer, another call with the id
// is refused; done says the call is answered either way.
func (b *batch) repeat(ctx context.Context, c Call, ack *Ack) (done bool, err error) {
	var seq int
	var player, action string
	var out sql.NullString
	if i, ok := b.keys[c.Request]; ok {
		l := b.logged[i]
		seq, player, action = l.outcome.Seq, l.player, l.action
		first, _ := json.Marshal(l.outcome)
		out = sql.NullString{String: string(first), Valid: true}
	} else {
		seq, player, action, out, err = b.r.logEntry(ctx, c.Request)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return false, nil
		case err != nil:
			return false, err
		}
	}
	a, err := b.r.cfg.Resolve(c.Action)
	if err != nil || player != c.Player || a.String() != action {
		ack.Conflict = &RequestConflict{Request: c.Request, Seq: seq, Player: player, Action: action}
		return true, nil
	}
	if !out.Valid {
		return false, fmt.Errorf("request %q: action %d has no answer in the actions table", c.Request, seq)
	}
	ack.Repeat = true
	return true, json.Unmarshal([]byte(out.String), &ack.Outcome)
}

// logEntry returns the logged call that has request id key: its seq,
// player and action, and the answer it was given.
func (r *Referee) logEntry(ctx context.Context, key string) (seq int, player, action string, outcome sql.NullString, err error) {
	var move string
	var p, a sql.NullString
	err = r.read.QueryRowContext(ctx, `SELECT m.seq, m.move, a.player, a.action, a.outcome FROM moves m LEFT JOIN actions a ON a.match_id = m.match_id AND a.seq = m.seq WHERE m.match_id = $1 AND m.idem_key = $2`,
		r.id, key).Scan(&seq, &move, &p, &a, &outcome)
	if err != nil {
		return 0, "", "", outcome, err
	}
	if p.Valid && a.Valid {
		return seq, p.String, a.String, outcome, nil
	}
	var c struct{ Player, Action string }
	json.Unmarshal([]byte(move), &c)
	return seq, c.Player, c.Action, outcome, nil
}

// project writes the projection of the batch's moves, in their
// transaction: the actions, the nations and holdings they changed, and
// the rules' state after them.
func (b *batch) project(ctx context.Context, tx *sql.Tx) error {
	w := &writer{ctx: ctx, tx: tx, match: b.r.id, prepared: &b.r.stmts}
	for i, mv := range b.moves {
		if err := w.action(mv.Seq, b.logged[i], mv.At); err != nil {
			return err
		}
	}
	if err := w.rows(changed(b.w)); err != nil {
		return err
	}
	snap, err := b.w.MarshalJSON()
	if err != nil {
		return err
	}
	return w.exec(saveGame, b.w.Seq(), string(snap), b.started.UTC().Format(time.RFC3339Nano), b.r.id)
}
