package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/engine"
)

// Live is a live match as the referee drives it, its moves JSON; the
// catalog's live matches are ones.
type Live interface {
	// Pending returns the decisions owed now.
	Pending() []engine.Request[json.RawMessage]
	// Apply applies seat's move (engine.Judge's for the judge); an illegal
	// one is an *engine.RuleError and changes nothing.
	Apply(seat int, move json.RawMessage) error
	// Over reports whether the match has ended, and Result how.
	Over() bool
	Result() engine.Result
	// Close stops what the match runs (its bots).
	Close()
}

// Rules makes the live match of a stored match as it stood before its first
// move; an error says why it cannot (a game or rules version this Arbiter
// does not have).
type Rules interface {
	Live(ctx context.Context, m *Match) (Live, error)
}

// A MoveWriter is a Live that says how the log keeps a move it applied: as
// its game writes it, so that a move the game reads more loosely than it
// writes ("Conquer" for the value conquer, spaces between the fields of an
// object) goes into the log, the events and the record the one way.
type MoveWriter interface {
	// ApplyMove is Apply, and returns the move as the game writes it.
	ApplyMove(seat int, move json.RawMessage) (json.RawMessage, error)
}

// applyNew applies a new move to live, as Apply does, and returns it as the
// log keeps it (see MoveWriter).
func applyNew(live Live, actor int, move json.RawMessage, fault *engine.Fault) (json.RawMessage, error) {
	w, ok := live.(MoveWriter)
	if !ok {
		return move, Apply(live, actor, move, fault)
	}
	if fault != nil {
		if d, ok := live.(engine.Defaulter); ok {
			d.Defaulted(actor, *fault)
		}
	}
	return w.ApplyMove(actor, move)
}

// Apply applies a move of the log to live: for a default applied for a
// fault, the match is told why first (engine.Defaulter), as the record's
// replay tells it.
func Apply(live Live, actor int, move json.RawMessage, fault *engine.Fault) error {
	if fault != nil {
		if d, ok := live.(engine.Defaulter); ok {
			d.Defaulted(actor, *fault)
		}
	}
	return live.Apply(actor, move)
}

// Referee is the push driver of live matches: moves come from outside, one
// at a time per match, and each is validated by the match's rules,
// committed, and only then acknowledged. It keeps the matches it serves in
// memory, and commits the moves of many matches together (one transaction,
// one write to the disk, for all the moves that arrive while the last group
// commits). Its methods are safe for concurrent use.
type Referee struct {
	store *Store
	rules Rules
	// Committed, if not nil, is called after each move is committed, with
	// the match's lock held, the match after the move, and the move.
	Committed func(m *Match, live Live, mv Move)
	// Updated, if not nil, is called when the referee learns that a match
	// it holds was changed by another server other than by a move (its
	// settings; its end by an abort), with the match's lock held.
	Updated func(m *Match, live Live)
	// Project, if not nil, gives the projection of a move whose submission
	// brings none (a game's own tables, written in the move's transaction;
	// nil for nothing): m is the match before the move, live the match
	// after it, and mv the move, whose At is set when the projection runs.
	Project func(m *Match, live Live, mv *Move) func(ctx context.Context, tx *sql.Tx) error

	mu      sync.Mutex
	matches map[string]*held

	writes sync.WaitGroup // snapshots being written

	group sync.Mutex // the group commit: appends waiting, and whether one leads
	queue []*pending
	lead  bool
}

// held is a match in memory: its stored row as of the last move, and its
// live state after that move.
type held struct {
	mu   sync.Mutex
	row  *Match
	live Live
	// seq is the last move announced (row.Seq), read without the lock.
	seq atomic.Int64
	// used says the match was asked for since the last ForgetIdle.
	used atomic.Bool
	// snapDue says a snapshot is due (SnapshotEvery moves were made), at
	// the first move that does not leave its round open.
	snapDue bool
}

// pending is an append waiting for its group, or a snapshot.
type pending struct {
	a    *Append
	snap *kept
	err  error
	// stored is Submission.Stored; claimed says who calls it has been
	// decided (tell), and toldDone is closed once it has returned.
	stored   func(seq int64, answer json.RawMessage)
	told     int64           // the move's number as its sender may know it (Ack.Seq)
	answer   json.RawMessage // what the move did, for its sender (Answerer)
	claimed  atomic.Bool
	toldDone chan struct{}
	leads    bool          // woken to lead the next group, not committed yet
	done     chan struct{} // closed when committed, or when it is to lead
}

// NewReferee returns a referee over the store, whose matches' rules come
// from rules.
func NewReferee(s *Store, rules Rules) *Referee {
	return &Referee{store: s, rules: rules, matches: map[string]*held{}}
}

// Store returns the referee's store.
func (r *Referee) Store() *Store { return r.store }

// Submission is one move sent to a match.
type Submission struct {
	Match string
	// Actor is the seat that moves, or engine.Judge.
	Actor int
	// Request is the request the move answers, or -1 for a move that
	// answers none (the judge's, a move from outside).
	Request int64
	// ExpectSeq, when not -1, refuses the move (ErrMoved) if the match has
	// moved past it.
	ExpectSeq int64
	// Seen, if not nil, is the match's move as the sender may know it,
	// which ExpectSeq is held to: a seat is not told of the moves of
	// others that left their round open. Nil is the match's last move.
	Seen func(m *Match, live Live) int64
	// Told, if not nil, is the place of the log's move logged as the
	// sender may know it, which the answer tells (Ack.Seq): asked right
	// after the move, or of a repeat's first move as the match is now.
	// Nil is logged.
	Told func(m *Match, live Live, logged int64) int64
	Move json.RawMessage
	// Fault marks a default the host plays for a seat (a deadline passed).
	Fault *engine.Fault
	// Note is the judge's word on a correction.
	Note string
	// Key and KeyHash are the Idempotency-Key and the hash of the request
	// that carried it: a retry with the same key is answered with the
	// first answer, and a different request with it is ErrKeyTaken.
	Key, KeyHash string
	// KeyHashBefore, when not empty, is the request's hash as a host
	// before this one made it (another hash of the same request): a move
	// stored with the key under that host is this request too when its
	// hash is this one. Moves are stored with KeyHash.
	KeyHashBefore string
	// Project, if not nil, writes the game's own tables in the move's
	// transaction, given the match after the move.
	Project func(live Live) func(ctx context.Context, tx *sql.Tx) error
	// Stored, if not nil, is told the move's number as the sender may
	// know it (Ack.Seq), and what it did (Ack.Answer), once the move is
	// committed: by the goroutine that committed its group, right after
	// it (so that the sender is answered without waiting for Submit's
	// caller to be scheduled again), or by Submit's caller, woken first.
	// It is called once, never for a move that is not stored, and before
	// Submit returns and the match in memory moves on (its lock still
	// held, so no one sees the match without the move). The next group
	// does not wait for it.
	Stored func(seq int64, answer json.RawMessage)
}

// Ack is the answer to a submission once it is committed.
type Ack struct {
	// Seq is the move's number as its sender may know it (Submission's
	// Told): its place in the match's log, but for a seat's answer that
	// leaves its round open, which counts the round's start and the
	// sender's own answers in it, not the others' (so that the number
	// does not say how many have answered). A repeat's is its first
	// move's, as the match is now: once the round has resolved, its place
	// in the log.
	Seq int64
	// Repeat says the move was committed before, with the same
	// Idempotency-Key, and was not applied again.
	Repeat bool
	// Over says the move ended the match.
	Over bool
	// Answer is what the move did, as its game tells its sender (see
	// Answerer): a territories referee's action's outcome, an attack's
	// roll and losses. Nil for the games that tell nothing, and for a
	// repeat.
	Answer json.RawMessage
}

// An Answerer is a Live that tells the sender of the move it has just
// applied what the move did.
type Answerer interface {
	// Answer returns what the last move applied did, as JSON, or nil.
	Answer() json.RawMessage
}

// Refusals of Submit.
var (
	// ErrStale is the refusal of an answer to a request that is no
	// longer open (answered, or never asked).
	ErrStale = errors.New("the request is no longer open")
	// ErrOver is the refusal of a move to a match that has ended; Ended
	// says how.
	ErrOver = errors.New("the match is over")
)

// Ended is the refusal of a move or a change to a match that has ended
// with status: it is ErrOver, and says how the match ended.
func Ended(status Status) error {
	if status == Aborted {
		return fmt.Errorf("%w: its judge aborted it; it takes no more moves", ErrOver)
	}
	return fmt.Errorf("%w; it takes no more moves", ErrOver)
}

// Submit validates and commits one move, and answers once it is stored. A
// refusal changes nothing: *engine.RuleError (the rules), ErrStale,
// ErrMoved (ExpectSeq), ErrOver, ErrKeyTaken, ErrNoMatch, or the error of
// Rules for a match this Arbiter cannot play.
func (r *Referee) Submit(ctx context.Context, s Submission) (Ack, error) {
	for attempt := 0; ; attempt++ {
		if s.Key != "" {
			// Asked again at each attempt: a retry of the same move may
			// have been committed meanwhile, through another server.
			if mv, ok, err := r.store.MoveByKey(ctx, s.Match, s.Key); err != nil {
				return Ack{}, err
			} else if ok {
				if !s.sameRequest(mv.KeyHash) {
					return Ack{}, ErrKeyTaken
				}
				ack, err := r.repeat(ctx, s, mv.Seq)
				if errors.Is(err, errReload) && attempt < maxAttempts && ctx.Err() == nil {
					continue
				}
				return ack, err
			}
		}
		h, err := r.hold(ctx, s.Match)
		if err != nil {
			return Ack{}, err
		}
		ack, err := r.submit(ctx, h, s)
		if (errors.Is(err, errReload) || errors.Is(err, ErrKeyTaken) && s.Key != "") && attempt < maxAttempts && ctx.Err() == nil {
			// Another server moved first: the match is read again, and the
			// move made against its new state (or refused by it).
			continue
		}
		if errors.Is(err, errReload) {
			err = fmt.Errorf("%w: other moves to the match kept coming first; send it again", ErrMoved)
		}
		if err != nil && s.Key != "" {
			// A retry refused because its first sending committed
			// meanwhile (through another server, after the key was
			// looked for) gets the first answer.
			if mv, ok, kerr := r.store.MoveByKey(ctx, s.Match, s.Key); kerr == nil && ok && s.sameRequest(mv.KeyHash) {
				if ack, err := r.repeat(ctx, s, mv.Seq); err == nil {
					return ack, nil
				}
			}
		}
		return ack, err
	}
}

// sameRequest reports whether a move stored with s's Idempotency-Key and
// the hash stored came in the request s is: its hash, or the one a host
// before made of it (KeyHashBefore).
func (s Submission) sameRequest(stored string) bool {
	return stored == s.KeyHash || s.KeyHashBefore != "" && stored == s.KeyHashBefore
}

// repeat answers s, a retry of the match's move logged, committed before
// with the same Idempotency-Key: with its number as s's sender may know
// it now (Submission.Told), from the match as stored.
func (r *Referee) repeat(ctx context.Context, s Submission, logged int64) (Ack, error) {
	ack := Ack{Seq: logged, Repeat: true}
	if s.Told == nil {
		return ack, nil
	}
	h, err := r.hold(ctx, s.Match)
	if err != nil {
		return Ack{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live == nil { // dropped while this call waited
		return Ack{}, errReload
	}
	if r.store.postgres || h.row.Seq < logged {
		// Another server may have stored the move: the match is read
		// as stored.
		if err := r.current(ctx, s.Match, h); err != nil {
			return Ack{}, err
		}
	}
	ack.Seq = s.Told(h.row, h.live, logged)
	return ack, nil
}

// maxAttempts bounds how often Submit makes a move again after other
// servers' moves to the same match came first: each time, one of them
// commits, so it is reached only by a match that thousands of moves hit at
// once.
const maxAttempts = 1000

// errReload asks Submit to read the match again and retry.
var errReload = errors.New("the match moved elsewhere")

func (r *Referee) submit(ctx context.Context, h *held, s Submission) (Ack, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live == nil { // dropped while this call waited
		return Ack{}, errReload
	}
	if r.store.postgres {
		// Another server may have moved the match since this one last
		// heard of it: the move is made against the match as stored.
		if err := r.current(ctx, s.Match, h); err != nil {
			return Ack{}, err
		}
	}
	move, err := r.admit(h, s)
	if err != nil {
		return Ack{}, err
	}
	var answer json.RawMessage
	if an, ok := h.live.(Answerer); ok {
		answer = an.Answer()
	}
	mv := Move{Seq: h.row.Seq + 1, Actor: s.Actor, Request: s.Request, Move: move, Fault: s.Fault, Note: s.Note, Key: s.Key, KeyHash: s.KeyHash}
	a := &Append{Match: s.Match, Move: mv, Status: Running}
	if h.live.Over() {
		res := h.live.Result()
		a.Status, a.Result = Over, &res
	}
	if s.Project != nil {
		a.Project = s.Project(h.live)
	} else if r.Project != nil {
		a.Project = r.Project(h.row, h.live, &a.Move)
	}
	pend := &pending{a: a, answer: answer, told: mv.Seq, done: make(chan struct{})}
	if s.Told != nil {
		after := *h.row
		after.Seq, after.Status = mv.Seq, a.Status
		pend.told = s.Told(&after, h.live, mv.Seq)
	}
	if s.Stored != nil {
		pend.stored, pend.toldDone = s.Stored, make(chan struct{})
	}
	if err := r.join(ctx, pend); err != nil {
		// The match in memory has the move; the database has not.
		r.drop(s.Match, h)
		if errors.Is(err, ErrMoved) {
			return Ack{}, errReload
		}
		return Ack{}, err
	}
	h.row.Seq, h.row.Status, h.row.Result, h.row.Updated = a.Move.Seq, a.Status, a.Result, a.Move.At
	h.seq.Store(a.Move.Seq)
	NoteOpened(h.row, h.live, a.Move.At)
	r.snapshot(h)
	if r.Committed != nil {
		r.Committed(h.row, h.live, a.Move)
	}
	return Ack{Seq: pend.told, Over: a.Status == Over, Answer: answer}, nil
}

// admit checks s against match h and applies it to the match in memory,
// and returns the move as the log keeps it; a refusal changes nothing.
func (r *Referee) admit(h *held, s Submission) (json.RawMessage, error) {
	if h.row.Status != Running {
		return nil, Ended(h.row.Status)
	}
	if s.ExpectSeq >= 0 {
		seen := h.row.Seq
		if s.Seen != nil {
			seen = s.Seen(h.row, h.live)
		}
		if s.ExpectSeq != seen {
			return nil, fmt.Errorf("%w: it is at move %d, not %d", ErrMoved, seen, s.ExpectSeq)
		}
	}
	if s.Request >= 0 && !owes(h.live, s.Actor, s.Request) {
		return nil, staleError(h.live, s.Actor, s.Request)
	}
	move, err := applyNew(h.live, s.Actor, s.Move, s.Fault)
	if err != nil {
		if !engine.IsRuleError(err) {
			r.drop(s.Match, h)
		}
		return nil, err
	}
	return move, nil
}

// StaleError is the refusal of seat Seat's answer to request Request,
// which is not open to it: it is ErrStale (errors.Is), and says which
// requests the seat is owed now, Open, if any, and whose request Request
// was, where the match still knows.
type StaleError struct {
	Request int64
	Seat    int
	Open    []int64
	// Owner is the seat Request was asked of, when it is a request of
	// the round under way (see Asker), open or answered: Seat's own, then
	// answered already, or another seat's. -1 when the match does not
	// know (an earlier round, or never asked).
	Owner int
	// OwnerName is Owner's name in the match's record, when it has one
	// ("" for a person who gave none).
	OwnerName string
}

// Detail says what is open instead, for people: "request 12 is not open;
// this seat's open request now is 18", or whose request it is: "request 2
// is seat 2's (Ann), not this seat's; ...".
func (e *StaleError) Detail() string {
	var what string
	switch {
	case e.Owner >= 0 && e.Owner != e.Seat:
		whose := "seat " + strconv.Itoa(e.Owner)
		if e.OwnerName != "" {
			whose += " (" + e.OwnerName + ")"
		}
		what = fmt.Sprintf("request %d is %s's, not this seat's", e.Request, whose)
	case e.Owner >= 0:
		what = fmt.Sprintf("request %d, this seat's, is answered already", e.Request)
	default:
		what = fmt.Sprintf("request %d is not open", e.Request)
	}
	if len(e.Open) == 0 {
		return what + ", and this seat owes no decision now"
	}
	open := make([]string, len(e.Open))
	for i, id := range e.Open {
		open[i] = strconv.FormatInt(id, 10)
	}
	return fmt.Sprintf("%s; this seat's open request now is %s", what, strings.Join(open, ", "))
}

// Another reports whether the request is another seat's.
func (e *StaleError) Another() bool { return e.Owner >= 0 && e.Owner != e.Seat }

func (e *StaleError) Error() string { return ErrStale.Error() + ": " + e.Detail() }

// Unwrap makes a StaleError ErrStale.
func (e *StaleError) Unwrap() error { return ErrStale }

// An Asker is a Live that knows whose each request of the round under way
// is: of the requests opened together, those still open and those
// answered since. A seat is told whose a request of the round is whether
// it is still open or not, so that the refusal of another's tells nothing
// of whether that seat has answered yet (a seat of a simultaneous round
// does not see the others' answers).
type Asker interface {
	// Asked returns the seat that request id of the round under way was
	// asked of, and its player's name as the record keeps it ("" for a
	// person who gave none); false for any other id.
	Asked(id int64) (seat int, name string, ok bool)
}

// staleError is the StaleError of request id of seat in live.
func staleError(live Live, seat int, id int64) error {
	e := &StaleError{Request: id, Seat: seat, Owner: -1}
	for _, q := range live.Pending() {
		if q.Seat == seat {
			e.Open = append(e.Open, q.ID)
		}
	}
	if a, ok := live.(Asker); ok {
		if owner, name, ok := a.Asked(id); ok {
			e.Owner, e.OwnerName = owner, name
		}
	}
	return e
}

// owes reports whether live owes request id to seat.
func owes(live Live, seat int, id int64) bool {
	for _, q := range live.Pending() {
		if q.ID == id && q.Seat == seat {
			return true
		}
	}
	return false
}

// join commits p's append or snapshot in a group with whatever else is
// waiting. The first to arrive leads: it commits the group waiting, its
// own among them, and hands the lead to the first of those that arrived
// meanwhile, so that no move waits for more than the group before it.
// The leader then tells its own sender (Submission.Stored), and a
// goroutine the others, each unless its submitter, woken meanwhile, has
// told its own: the next group never waits for an answer, nor an answer
// for a slow one before it.
func (r *Referee) join(ctx context.Context, p *pending) error {
	r.group.Lock()
	r.queue = append(r.queue, p)
	if r.lead {
		r.group.Unlock()
		<-p.done
		if !p.leads {
			p.tell()
			if p.toldDone != nil && p.err == nil {
				<-p.toldDone // told by the leader, or just now
			}
			return p.err
		}
		r.group.Lock()
	}
	r.lead = true
	batch := r.queue
	r.queue = nil
	r.group.Unlock()
	appends := make([]*Append, 0, len(batch))
	var snaps []*kept
	for _, q := range batch {
		if q.a != nil {
			appends = append(appends, q.a)
		} else {
			snaps = append(snaps, q.snap)
		}
	}
	errs := r.store.commitKeeping(context.WithoutCancel(ctx), appends, snaps)
	i := 0
	for _, q := range batch {
		if q.a != nil {
			q.err = errs[i]
			i++
		}
	}
	r.group.Lock()
	r.lead = len(r.queue) > 0
	if r.lead {
		next := r.queue[0]
		next.leads = true
		close(next.done)
	}
	r.group.Unlock()
	p.tell()
	for _, q := range batch {
		if q != p {
			close(q.done)
		}
	}
	// The others are told by a goroutine of their own, so that a slow
	// answer holds up neither the leader's match (its lock is held) nor
	// the answers that the others' submitters give themselves.
	go func() {
		for _, q := range batch {
			if q != p {
				q.tell()
			}
		}
	}()
	return p.err
}

// tell gives a stored move's answer (Submission.Stored) once, from
// whichever goroutine comes first: the one that committed its group, or
// its submitter, woken.
func (q *pending) tell() {
	if q.stored == nil || q.err != nil {
		return
	}
	if q.claimed.CompareAndSwap(false, true) {
		q.stored(q.told, q.answer)
		close(q.toldDone)
	}
}

// hold returns match id in memory, reading it from the store and replaying
// its log when it is not.
func (r *Referee) hold(ctx context.Context, id string) (*held, error) {
	for {
		r.mu.Lock()
		h := r.matches[id]
		if h == nil {
			h = &held{}
			r.matches[id] = h
		}
		r.mu.Unlock()
		h.used.Store(true)
		h, err := r.load(ctx, id, h)
		if h != nil || err != nil {
			return h, err
		}
	}
}

// load reads match id into h if it is not in memory yet; it returns nil
// and no error when h was forgotten meanwhile (ForgetIdle), for hold to
// take the match's new place.
func (r *Referee) load(ctx context.Context, id string, h *held) (*held, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live != nil {
		return h, nil
	}
	r.mu.Lock()
	forgotten := r.matches[id] != h
	r.mu.Unlock()
	if forgotten {
		return nil, nil
	}
	if err := r.reload(ctx, id, h); err != nil {
		if h.row == nil || errors.Is(err, ErrNoMatch) {
			r.mu.Lock()
			if r.matches[id] == h {
				delete(r.matches, id)
			}
			r.mu.Unlock()
		}
		return nil, err
	}
	return h, nil
}

// drop forgets match id's state in memory, which no longer matches the
// store; the next use reads it again. What was last announced of it
// (Committed) stays, so that the moves committed since are announced when
// it is read again.
func (r *Referee) drop(id string, h *held) {
	if h.live != nil {
		h.live.Close()
		h.live = nil
	}
}

// With calls fn with match id, its stored row and live state, under the
// match's lock: fn must not keep them, nor submit to the match.
func (r *Referee) With(ctx context.Context, id string, fn func(m *Match, live Live) error) error {
	for {
		h, err := r.hold(ctx, id)
		if err != nil {
			return err
		}
		h.mu.Lock()
		if h.live != nil {
			defer h.mu.Unlock()
			return fn(h.row, h.live)
		}
		h.mu.Unlock() // dropped meanwhile: read it again
	}
}

// End ends match id (aborted by its judge), and forgets it in memory.
func (r *Referee) End(ctx context.Context, id string, status Status) error {
	h, err := r.hold(ctx, id)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := r.store.End(ctx, id, status, nil); err != nil {
		return err
	}
	if h.row != nil {
		h.row.Status = status
	}
	return nil
}

// Forget drops match id from memory, stopping its bots.
func (r *Referee) Forget(id string) {
	r.mu.Lock()
	h := r.matches[id]
	delete(r.matches, id)
	r.mu.Unlock()
	if h != nil {
		h.mu.Lock()
		if h.live != nil {
			h.live.Close()
			h.live = nil
		}
		h.mu.Unlock()
	}
}

// ForgetIdle drops from memory the matches over that nobody asked for
// since the call before, and returns their ids: called every few minutes,
// it keeps in memory the matches under way and those over that people
// still look at, however long a server runs. A match forgotten is read
// again from the store when it is asked for.
func (r *Referee) ForgetIdle() []string {
	r.mu.Lock()
	var idle []string
	for id, h := range r.matches {
		if !h.used.Swap(false) {
			idle = append(idle, id)
		}
	}
	r.mu.Unlock()
	var forgot []string
	for _, id := range idle {
		r.mu.Lock()
		h := r.matches[id]
		r.mu.Unlock()
		if h == nil {
			continue
		}
		h.mu.Lock()
		over := h.row != nil && h.row.Status != Running && !h.used.Load()
		if over {
			r.mu.Lock()
			if r.matches[id] == h {
				delete(r.matches, id)
				forgot = append(forgot, id)
			}
			r.mu.Unlock()
			if h.live != nil {
				h.live.Close()
				h.live = nil
			}
		}
		h.mu.Unlock()
	}
	return forgot
}

// Close stops every match in memory.
func (r *Referee) Close() {
	r.mu.Lock()
	ids := make([]string, 0, len(r.matches))
	for id := range r.matches {
		ids = append(ids, id)
	}
	r.mu.Unlock()
	for _, id := range ids {
		r.Forget(id)
	}
	r.writes.Wait()
}
