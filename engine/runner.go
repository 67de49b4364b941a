package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Seat is a player in a match, with its time control.
type Seat[M, V any] struct {
	// Name is how reports and records call the seat, e.g. "basic.conquer".
	Name   string
	Player Player[M, V]
	// Deadline bounds each decision; zero means no limit.
	Deadline time.Duration
	// ReplyDeadline bounds each answer the seat owes to another seat's move
	// (requests of class Reply: a trade answer, a defence); zero means
	// Deadline.
	ReplyDeadline time.Duration
	// StartDeadline bounds Start and Finish; zero means ten times Deadline,
	// and at least MinStartDeadline (none when Deadline is zero).
	StartDeadline time.Duration
	// Bank is a time bank the seat may draw on when a decision overruns
	// its deadline, for the whole match. Players that keep their own time
	// (SelfTimed) spend it; the watchdog allows for it.
	Bank time.Duration
}

// TimeControl is a seat's time limits, as its player is told them.
type TimeControl struct {
	Deadline      time.Duration // each decision
	ReplyDeadline time.Duration // each answer owed to another seat's move
	StartDeadline time.Duration // Start and Finish
	Bank          time.Duration // for the whole match, on top of the deadlines
}

// TimeControl returns the seat's time limits, with the defaults filled in.
func (s Seat[M, V]) TimeControl() TimeControl {
	t := TimeControl{Deadline: s.Deadline, ReplyDeadline: s.ReplyDeadline, StartDeadline: s.StartDeadline, Bank: s.Bank}
	if t.ReplyDeadline == 0 {
		t.ReplyDeadline = t.Deadline
	}
	if t.StartDeadline == 0 && t.Deadline > 0 {
		t.StartDeadline = max(10*t.Deadline, MinStartDeadline)
	}
	return t
}

// MinStartDeadline is the least time a player is given to start when its
// start-up deadline is not set: starting a program (an interpreter on a
// loaded machine, say) takes what it takes, however short the decisions.
const MinStartDeadline = 10 * time.Second

// Runner drives matches whose decisions are made by players: it asks every
// pending request, enforces deadlines, applies the moves and keeps the record.
// A Runner keeps its memory from one match to the next, so a series or a
// benchmark that reuses one allocates nothing per turn. It also keeps the
// calls it left running, stuck past their deadline: a player with such a
// call is not asked in its later matches until the call returns (see
// Series). A Runner runs one match at a time; its zero value is ready to
// use.
//
// Each request is asked, applied and recorded in turn: simultaneous requests
// change nothing visible until the last of them is applied, so every player
// still decides from the same state. When every player is Bounded, the match
// is played on the calling goroutine and nothing watches it. Otherwise it is
// played on a goroutine of its own under the watchdog (see the package
// documentation), at the cost of two atomic operations per decision.
type Runner[M, V any] struct {
	// Timings records each decision's wall time in the record. It reads the
	// clock twice per decision, so it is off by default.
	Timings bool
	// Game is the match's number in its series or tournament, from 1, as
	// players are told it (MatchInfo.Game); zero means 1.
	Game int

	phase atomic.Uint64 // see the phase word in watchdog.go
	last  chan error    // the owner's last word on a watched match

	// Set by Run; read-only while the match is played.
	ctx         context.Context
	done        <-chan struct{} // ctx.Done(), looked at between rounds; nil when ctx is never done
	match       Match[M, V]
	seats       []Seat[M, V]
	rec         *Record[M]
	watched     bool               // some player could block
	following   bool               // some player is a Follower
	deadlines   [][2]time.Duration // per seat and DeadlineClass, as told to the player
	limits      [][2]time.Duration // per seat and DeadlineClass: the watchdog's limit for a decision
	startLimits []time.Duration    // per seat: the watchdog's limit for Start and Finish
	shortest    time.Duration

	// Owner state: touched only by whoever owns the match (see watchdog.go).
	stage     stage
	reqs      []Request[M] // the round being asked: the match's own slice
	at        int          // the request (or, in a ceremony, the seat) being asked
	deciding  int          // in roundBounded, the request a player is deciding; -1 when none
	serial    uint64
	asked     *Request[M]    // the copy of the request a player is given (see copyRequest)
	callee    []Player[M, V] // per seat: the player to ask, nil once abandoned
	speller   MoveSpeller[M] // the match's, when its moves have spellings; nil when not
	abandoned []string       // per seat: why it is no longer asked
	owed      []Fault        // per seat: a fault not yet recorded (a failed start), for its next step
	result    Result

	// Watchdog state: touched only by the watchdog, under its lock.
	seen   uint64
	seenAt time.Time

	// The calls left running, from match to match, under their own lock:
	// the goroutines of those calls note their return there.
	strays strays
}

// stage is where a match's play is: players starting, rounds, players
// finishing.
type stage uint8

const (
	starting stage = iota
	playing
	finishing
)

// errStopped ends play when the match's context is cancelled.
var errStopped = errors.New("stopped")

// Run plays m to its end with one seat per player and appends every applied
// move to rec, whose header must describe the match. When it returns, it has
// closed every player that is an io.Closer. It returns nil when the
// match ended, an error wrapping the context's error when ctx was cancelled
// first (the record then ends with an aborted line), and any other error when
// the match itself failed (a rule refused a default move, or nothing was
// pending before the end).
func (r *Runner[M, V]) Run(ctx context.Context, m Match[M, V], seats []Seat[M, V], rec *Record[M]) error {
	if n := rec.Header.Setup.Seats(); n != len(seats) {
		return fmt.Errorf("engine: %d seats for a setup of %d players", len(seats), n)
	}
	if len(seats) > MaxSeats {
		return fmt.Errorf("engine: %d seats; the runner takes at most %d", len(seats), MaxSeats)
	}
	r.watched, r.following = false, false
	for i, s := range seats {
		if s.Player == nil {
			return fmt.Errorf("engine: seat %d (%s) has no player", i, s.Name)
		}
		if _, ok := s.Player.(Follower[V]); ok {
			r.following = true
		}
		if b, ok := s.Player.(Bounded); !ok || !b.Bounded() {
			r.watched = true
		}
	}
	r.ctx, r.done, r.match, r.seats, r.rec = ctx, ctx.Done(), m, seats, rec
	r.speller, _ = m.(MoveSpeller[M])
	r.stage, r.reqs, r.at, r.deciding, r.result = starting, nil, 0, -1, Result{}
	r.setLimits()
	if r.asked == nil {
		r.asked = new(Request[M])
	}
	r.callee = resize(r.callee, len(seats))
	r.abandoned = resize(r.abandoned, len(seats))
	r.owed = resize(r.owed, len(seats))
	for i, s := range seats {
		r.callee[i], r.abandoned[i], r.owed[i] = s.Player, "", Fault{}
	}
	r.benchStrays()
	defer func() { r.ctx, r.done, r.match, r.seats, r.rec, r.reqs, r.speller = nil, nil, nil, nil, nil, nil, nil }()
	defer closePlayers(seats)

	if !r.watched {
		end, err, _ := r.play()
		return r.close(end, err)
	}
	if r.last == nil {
		r.last = make(chan error, 1)
	}
	r.phase.Store(phaseWord(r.serial, 0, 0, stateRunning))
	dog.add(r)
	defer dog.remove(r)
	go r.playWatched()
	select {
	case err := <-r.last:
		return err
	case <-ctx.Done():
		return r.interrupt()
	}
}

func (r *Runner[M, V]) setLimits() {
	n := len(r.seats)
	r.deadlines = resize(r.deadlines, n)
	r.limits = resize(r.limits, n)
	r.startLimits = resize(r.startLimits, n)
	r.shortest = 0
	for i, s := range r.seats {
		tc := s.TimeControl()
		reply, start := tc.ReplyDeadline, tc.StartDeadline
		_, selfTimed := s.Player.(SelfTimed)
		watch := func(d time.Duration) time.Duration {
			if selfTimed && d > 0 {
				// The player keeps its own time; the watchdog only stands
				// behind it, allowing for the bank.
				d = 2*(d+s.Bank) + Grace
			}
			if d > 0 && (r.shortest == 0 || d < r.shortest) {
				r.shortest = d
			}
			return d
		}
		r.deadlines[i] = [2]time.Duration{Ordinary: s.Deadline, Reply: reply}
		r.limits[i] = [2]time.Duration{Ordinary: watch(s.Deadline), Reply: watch(reply)}
		r.startLimits[i] = watch(start)
	}
}

// playWatched is play on a goroutine of its own, handing the outcome to Run.
func (r *Runner[M, V]) playWatched() {
	end, err, lost := r.play()
	if lost {
		return
	}
	err = r.close(end, err)
	r.phase.Store(phaseWord(r.serial, 0, 0, stateDone))
	r.last <- err
}

// play runs the match from where it stands while this goroutine owns it:
// the players' Start, the rounds, the players' Finish. In a watched match,
// lost reports that the match was taken over while a player was thinking;
// this goroutine must then touch nothing more.
func (r *Runner[M, V]) play() (end *End, err error, lost bool) {
	defer func() {
		if x := recover(); x != nil {
			end, err, lost = nil, fmt.Errorf("engine: %s rules panicked after %d moves: %v", r.rec.Header.Ruleset, len(r.rec.Steps), x), false
		}
	}()
	m := r.match
	for {
		switch r.stage {
		case starting:
			if r.ceremonies(startCalls) {
				return nil, nil, true
			}
			r.stage, r.at = playing, 0
		case playing:
			if r.at >= len(r.reqs) {
				if m.Over() {
					r.result = m.Result()
					r.follow(true)
					r.stage, r.at = finishing, 0
					continue
				}
				r.follow(false)
				if r.done != nil {
					select {
					case <-r.done:
						return &End{Aborted: abortReason(r.ctx)}, nil, false
					default:
					}
				}
				r.reqs, r.at = m.Pending(), 0
				if len(r.reqs) == 0 {
					return nil, fmt.Errorf("engine: %s match is not over but owes no decision after %d moves", r.rec.Header.Ruleset, len(r.rec.Steps)), false
				}
			}
			round := r.round
			if !r.watched && !r.Timings && !r.following {
				round = r.roundBounded
			}
			switch err := round(); err {
			case nil:
			case errLost:
				return nil, nil, true
			case errStopped:
				return &End{Aborted: abortReason(r.ctx)}, nil, false
			default:
				return nil, err, false
			}
		case finishing:
			if r.ceremonies(finishCalls) {
				return nil, nil, true
			}
			return ended(r.result), nil, false
		}
	}
}

// follow gives every Follower still playing its seat's view, between rounds
// or, when over, at the match's end.
func (r *Runner[M, V]) follow(over bool) {
	if !r.following {
		return
	}
	for seat, p := range r.callee {
		if f, ok := p.(Follower[V]); ok {
			followOnce(f, r.match.View(seat), over)
		}
	}
}

// followOnce calls f, ignoring its panic.
func followOnce[V any](f Follower[V], view V, over bool) {
	defer func() { _ = recover() }()
	f.Follow(view, over)
}

// Aborter is implemented by the cause of a match's cancelled context
// (context.Cause) that says why play stopped, such as a person's input
// that ended: its AbortReason is what the record's end says. Without one
// the record says "interrupted".
type Aborter interface {
	AbortReason() string
}

// abortReason says why play of ctx stopped, for the record's end.
func abortReason(ctx context.Context) string {
	var a Aborter
	if errors.As(context.Cause(ctx), &a) {
		return a.AbortReason()
	}
	return "interrupted"
}

// errLost ends a round whose match was taken over.
var errLost = errors.New("taken over")

// round asks, applies and records the round's requests from r.at on. It
// returns errLost when the match was taken over during a call, errStopped
// when play was interrupted during one, and the error of a rule that refused
// a default move.
//
// This is the hottest loop in Arbiter: it handles the usual case (a player
// that answers a legal move) with as little as it can, and hands everything
// else to functions of their own. After a call, until it has claimed the
// match back, it reads nothing but its own locals: the match may be another
// goroutine's by then, and the runner another match's. A call that finds
// its match taken over notes only that it has returned (strays.returned).
func (r *Runner[M, V]) round() (err error) {
	reqs, watched := r.reqs, r.watched
	var (
		word   uint64 // the phase word during the call, when watched
		asking bool   // a player is deciding: a panic now is the player's
	)
	defer func() {
		if !asking {
			return // a panic in the rules, for play to report
		}
		x := recover()
		if watched && !r.phase.CompareAndSwap(word, running(word)) {
			r.strays.returned(wordSerial(word))
			err = errLost
			return
		}
		i := r.at
		err = r.record(&reqs[i], reqs[i].Default, Fault{Kind: FaultPanic, Detail: fmt.Sprint(x)}, 0)
		r.at = i + 1
	}()
	for r.at < len(reqs) {
		i := r.at
		req := &reqs[i]
		seat := req.Seat
		if uint(seat) >= uint(len(r.callee)) {
			return fmt.Errorf("engine: the match asks seat %d; it has seats 0 to %d", seat, len(r.seats)-1)
		}
		p := r.callee[seat]
		if p == nil || r.Timings {
			if err := r.slowStep(req, p); err != nil {
				return err
			}
			r.at = i + 1
			continue
		}
		// The player is given a copy of the request (see copyRequest).
		ctx, view, asked := r.ctx, r.match.View(seat), r.asked
		copyRequest(asked, req, r.deadlines[seat][req.Class&1])
		if watched {
			word = r.enter(seat, callBit(req.Class))
		}
		asking = true
		mv, err := p.Decide(ctx, asked, view)
		asking = false
		if watched && !r.phase.CompareAndSwap(word, running(word)) {
			r.strays.returned(wordSerial(word))
			return errLost
		}
		if err == nil && r.speller != nil {
			mv = r.speller.Spell(seat, mv) // a move from outside, as the record keeps it
		}
		if err != nil {
			if err := r.answer(req, mv, err, 0); err != nil {
				return err
			}
		} else if err := r.match.Apply(seat, mv); err != nil {
			if err := r.refused(req, err); err != nil {
				return err
			}
		} else {
			r.rec.Steps = append(r.rec.Steps, Step[M]{Seat: seat, Move: mv})
		}
		r.at = i + 1
	}
	return nil
}

// roundBounded is round for a match that nothing watches and whose
// decisions are not timed: every player is Bounded, and the match is played
// on Run's goroutine. It keeps what it reads on every decision in locals,
// so that they stay in registers between the calls. When nothing can
// interrupt the match (its context is never done), it goes on to the next
// rounds itself, until the match is over: a game of one request a round
// spends no call per round.
func (r *Runner[M, V]) roundBounded() (err error) {
	defer func() {
		i := r.deciding
		if i < 0 {
			return // the round's end, or a panic in the rules for play to report
		}
		r.deciding = -1
		x := recover()
		req := &r.reqs[i]
		err = r.record(req, req.Default, Fault{Kind: FaultPanic, Detail: fmt.Sprint(x)}, 0)
		r.at = i + 1
	}()
	m, ctx, rec, asked := r.match, r.ctx, r.rec, r.asked
	callee := r.callee
	deadlines := r.deadlines[:len(callee)]
	for reqs, i := r.reqs, r.at; ; i++ {
		if i >= len(reqs) {
			r.at = len(reqs)
			if r.done != nil || m.Over() {
				return nil // play looks at the context, or ends the match
			}
			if reqs = m.Pending(); len(reqs) == 0 {
				return nil // play says the match owes nothing
			}
			r.reqs, r.at, i = reqs, 0, 0
		}
		req := &reqs[i]
		seat := req.Seat
		if uint(seat) >= uint(len(callee)) {
			r.at = i
			return fmt.Errorf("engine: the match asks seat %d; it has seats 0 to %d", seat, len(r.seats)-1)
		}
		p := callee[seat]
		if p == nil {
			r.at = i
			if err := r.slowStep(req, p); err != nil {
				return err
			}
			continue
		}
		copyRequest(asked, req, deadlines[seat][req.Class&1])
		view := m.View(seat)
		r.deciding = i
		mv, err := p.Decide(ctx, asked, view)
		r.deciding = -1
		if err == nil {
			if err = m.Apply(seat, mv); err == nil {
				rec.add(seat, mv)
				continue
			}
			r.at = i
			err = r.refused(req, err)
		} else {
			r.at = i
			err = r.answer(req, mv, err, 0)
		}
		if err != nil {
			return err
		}
	}
}

// slowStep asks, applies and records one request the careful way: for an
// abandoned seat, or with its decision time when timings are wanted. It
// returns errLost when the match was taken over during the call.
func (r *Runner[M, V]) slowStep(req *Request[M], p Player[M, V]) (err error) {
	seat := req.Seat
	if p == nil {
		f := Fault{Kind: FaultAbandoned, Detail: r.abandoned[seat]}
		if r.owed[seat].Kind != "" {
			f, r.owed[seat] = r.owed[seat], Fault{}
		}
		return r.record(req, req.Default, f, 0)
	}
	ctx, view, asked, watched := r.ctx, r.match.View(seat), r.asked, r.watched
	copyRequest(asked, req, r.deadlines[seat][req.Class&1])
	var word uint64
	t0 := time.Now()
	if watched {
		word = r.enter(seat, callBit(req.Class))
	}
	mv, err := ask(ctx, p, asked, view)
	if watched && !r.phase.CompareAndSwap(word, running(word)) {
		r.strays.returned(wordSerial(word))
		return errLost
	}
	return r.answer(req, mv, err, max(1, time.Since(t0).Nanoseconds()))
}

// copyRequest copies src to dst field by field, which is much cheaper than
// copying the struct whole (a runtime call with write barriers), with the
// seat's deadline for it: the request a player is asked. A player is
// given such a copy, never the match's own request: what it writes into it
// changes neither the move recorded when it fails (the match's default, for
// the match's seat) nor the match's requests, which a game may keep from
// round to round; and a player that overruns is left holding its copy,
// which nobody writes once the match is taken over.
func copyRequest[M any](dst, src *Request[M], deadline time.Duration) {
	dst.ID, dst.Seat, dst.Kind, dst.Choices = src.ID, src.Seat, src.Kind, src.Choices
	dst.Default, dst.Class, dst.Deadline = src.Default, src.Class, deadline
}

// ask calls p.Decide, turning a panic into an error.
func ask[M, V any](ctx context.Context, p Player[M, V], req *Request[M], view V) (mv M, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = panicError{x}
		}
	}()
	return p.Decide(ctx, req, view)
}

// panicError is a player's panic, as an answer.
type panicError struct{ value any }

func (e panicError) Error() string { return fmt.Sprint(e.value) }

// answer records a player's answer: the default for an answer that is an
// error (unless the error is the match's own context ending, which stops
// play), with ns, the decision's time in nanoseconds (0: not timed).
func (r *Runner[M, V]) answer(req *Request[M], mv M, err error, ns int64) error {
	if err != nil {
		if _, ok := err.(panicError); !ok && r.ctx.Err() != nil {
			return errStopped
		}
		if errors.Is(err, ErrForfeit) {
			r.abandon(req.Seat, "it forfeited: "+err.Error())
		}
		return r.record(req, req.Default, faultOf(err), ns)
	}
	return r.record(req, mv, Fault{}, ns)
}

// refused handles a move the rules refused: a rule error is the player's
// fault, and the default is applied instead; anything else is the match's.
func (r *Runner[M, V]) refused(req *Request[M], err error) error {
	if !IsRuleError(err) {
		return fmt.Errorf("engine: applying seat %d's move: %w", req.Seat, err)
	}
	return r.record(req, req.Default, Fault{Kind: FaultIllegal, Detail: err.Error()}, 0)
}

// record applies seat's move for req and appends it to the record. A move
// the rules refuse is replaced by the request's default and recorded as a
// fault. req is read before the move is applied.
func (r *Runner[M, V]) record(req *Request[M], mv M, f Fault, ns int64) error {
	seat, def := req.Seat, req.Default
	if f.Kind == "" && r.speller != nil {
		mv = r.speller.Spell(seat, mv) // a player's own move, as the record keeps it
	}
	if f.Kind != "" {
		f.Detail = Printable(f.Detail)
		defaulted(r.match, seat, f)
	}
	if err := r.match.Apply(seat, mv); err != nil {
		if !IsRuleError(err) {
			return fmt.Errorf("engine: applying seat %d's move: %w", seat, err)
		}
		if f.Kind != "" {
			return fmt.Errorf("engine: the rules refused seat %d's default move: %w", seat, err)
		}
		f, mv = Fault{Kind: FaultIllegal, Detail: Printable(err.Error())}, def
		defaulted(r.match, seat, f)
		if err := r.match.Apply(seat, mv); err != nil {
			return fmt.Errorf("engine: the rules refused seat %d's default move: %w", seat, err)
		}
	}
	step := Step[M]{Seat: seat, Move: mv, Nanos: ns}
	if f.Kind != "" {
		fault := f
		step.Fault = &fault
	}
	r.rec.Steps = append(r.rec.Steps, step)
	return nil
}

// ceremonies calls, from seat r.at on, every Starter's Start or every
// Finisher's Finish. A Start that fails or overruns abandons its seat. It
// reports whether the match was taken over during a call. A player with no
// such method is passed over without a word: its seat's seed is not even
// worked out.
func (r *Runner[M, V]) ceremonies(kind callKind) (lost bool) {
	for ; r.at < len(r.seats); r.at++ {
		seat := r.at
		p := r.callee[seat]
		if p == nil || !hasCeremony(kind, p) {
			continue
		}
		var info MatchInfo
		if kind == startCalls {
			info = r.matchInfo(seat)
		}
		ctx, res, watched := r.ctx, r.result, r.watched
		var word uint64
		if watched {
			word = r.enter(seat, ceremonyBit)
		}
		err := ceremony(ctx, kind, p, info, res)
		if watched && !r.phase.CompareAndSwap(word, running(word)) {
			r.strays.returned(wordSerial(word))
			return true
		}
		if err != nil {
			f := faultOf(err)
			r.failedStart(seat, f.Kind, "it failed to start: "+f.Detail)
		}
	}
	return false
}

// matchInfo is what the player of seat is told when the match starts.
func (r *Runner[M, V]) matchInfo(seat int) MatchInfo {
	h := &r.rec.Header
	return MatchInfo{Ruleset: h.Ruleset, Variant: h.Variant, RulesVersion: h.RulesVersion, Game: max(r.Game, 1), Seat: seat,
		Players: h.Setup.Players, Options: h.Setup.Options, Seed: SeatSeed(h.Setup.Seed, seat), Time: r.seats[seat].TimeControl()}
}

// hasCeremony reports whether p has a call of this kind: Start or Finish.
func hasCeremony[M, V any](kind callKind, p Player[M, V]) bool {
	if kind == startCalls {
		_, ok := p.(Starter)
		return ok
	}
	_, ok := p.(Finisher)
	return ok
}

// callKind says which ceremony a call is.
type callKind uint8

const (
	startCalls callKind = iota
	finishCalls
)

// ceremony makes one Start or Finish call, turning a panic into an error.
// It touches nothing of the runner's: the match may be taken over meanwhile.
func ceremony[M, V any](ctx context.Context, kind callKind, p Player[M, V], info MatchInfo, res Result) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic: %v", x)
		}
	}()
	switch kind {
	case startCalls:
		if s, ok := p.(Starter); ok {
			return s.Start(ctx, info)
		}
	case finishCalls:
		if f, ok := p.(Finisher); ok {
			f.Finish(ctx, res)
		}
	}
	return nil
}

// FaultOf says what fault a player's error is: its PlayerError kind, a
// timeout for ErrDeadline, a panic, or else an error.
func FaultOf(err error) Fault { return faultOf(err) }

func faultOf(err error) Fault {
	var pe panicError
	if errors.As(err, &pe) {
		return Fault{Kind: FaultPanic, Detail: pe.Error()}
	}
	var e *PlayerError
	switch {
	case errors.As(err, &e):
		return Fault{Kind: e.Kind, Detail: err.Error()}
	case errors.Is(err, ErrDeadline):
		return Fault{Kind: FaultTimeout, Detail: err.Error()}
	}
	return Fault{Kind: FaultError, Detail: err.Error()}
}

// failedStart abandons a seat whose player did not start, and owes its
// first step the fault: what went wrong (a crash, a timeout), or FaultStart.
func (r *Runner[M, V]) failedStart(seat int, kind FaultKind, why string) {
	if kind == FaultError {
		kind = FaultStart
	}
	r.abandon(seat, why)
	r.owed[seat] = Fault{Kind: kind, Detail: why}
}

func (r *Runner[M, V]) abandon(seat int, why string) {
	if r.callee[seat] != nil {
		r.callee[seat], r.abandoned[seat] = nil, why
	}
}

// enter publishes that a player of seat is being called, and returns the
// word that says so: the watchdog may take the match over while it stands.
// After the call, swapping the word for running(word) claims the match back;
// if the swap fails, the match was taken over, and nothing may be touched.
// call is 0, ceremonyBit or replyBit.
func (r *Runner[M, V]) enter(seat int, call uint64) uint64 {
	r.serial++
	w := phaseWord(r.serial, seat, call, stateDeciding)
	r.phase.Store(w)
	return w
}

// running is the word of a match its owner is playing, after the call that
// deciding names.
func running(deciding uint64) uint64 {
	return phaseWord(wordSerial(deciding), 0, 0, stateRunning)
}

// close records the end of the match and returns Run's error.
func (r *Runner[M, V]) close(end *End, err error) error {
	if end != nil {
		r.rec.End = end
		if end.Aborted != "" {
			err = r.interrupted()
		}
	}
	return err
}

func (r *Runner[M, V]) interrupted() error {
	return fmt.Errorf("match interrupted after %d moves: %w", len(r.rec.Steps), context.Cause(r.ctx))
}

// interrupt ends a watched match early because Run's context was cancelled.
// The owner stops at the next round; a player that is thinking is left
// behind.
func (r *Runner[M, V]) interrupt() error {
	for {
		p := r.phase.Load()
		if wordState(p) == stateDeciding && r.phase.CompareAndSwap(p, phaseWord(wordSerial(p), 0, 0, stateDone)) {
			r.leave(p)
			if r.stage == finishing {
				r.rec.End = ended(r.result)
				return nil
			}
			r.rec.End = &End{Aborted: abortReason(r.ctx)}
			return r.interrupted()
		}
		select {
		case err := <-r.last:
			return err
		case <-time.After(time.Millisecond):
		}
	}
}

// check is the watchdog's look at the match; see watched.
func (r *Runner[M, V]) check(now time.Time) {
	p := r.phase.Load()
	if wordState(p) != stateDeciding {
		r.seen = 0
		return
	}
	if p != r.seen {
		r.seen, r.seenAt = p, now
		return
	}
	seat := wordSeat(p)
	limit := r.limits[seat][Ordinary]
	switch {
	case p&ceremonyBit != 0:
		limit = r.startLimits[seat]
	case p&replyBit != 0:
		limit = r.limits[seat][Reply]
	}
	if limit == 0 || now.Sub(r.seenAt) < limit {
		return
	}
	if !r.phase.CompareAndSwap(p, running(p)) {
		return
	}
	go r.takeOver(p, limit)
}

func (r *Runner[M, V]) shortestLimit() time.Duration { return r.shortest }

// takeOver carries the match on after a player overran its deadline on the
// call that p names: that call gets the default, the seat is abandoned, and
// this goroutine plays on, leaving the stuck call to the old one.
func (r *Runner[M, V]) takeOver(p uint64, limit time.Duration) {
	seat := wordSeat(p)
	if r.leave(p) {
		r.benchSharers(seat)
	}
	var err error
	if p&ceremonyBit != 0 {
		call := "Start"
		if r.stage == finishing {
			call = "Finish"
		}
		why := fmt.Sprintf("it did not return from %s within %v", call, limit)
		if r.stage == finishing {
			r.abandon(seat, why)
		} else {
			r.failedStart(seat, FaultTimeout, why)
		}
		r.at++
	} else {
		i := r.at
		req := &r.reqs[i]
		r.abandon(seat, fmt.Sprintf("it overran its deadline of %v at move %d", limit, len(r.rec.Steps)+1))
		err = r.record(req, req.Default, Fault{Kind: FaultTimeout, Detail: fmt.Sprintf("no answer within %v; the seat is abandoned", limit)}, limit.Nanoseconds())
		r.at = i + 1
	}
	if err != nil {
		err = r.close(nil, err)
		r.phase.Store(phaseWord(r.serial, 0, 0, stateDone))
		r.last <- err
		return
	}
	r.playWatched()
}

// leave notes, once the match is taken over, that the call p names is
// left running: its player is called no more, by this runner, until the
// call returns (see strays). It reports whether the call still runs.
func (r *Runner[M, V]) leave(p uint64) (running bool) {
	seat := wordSeat(p)
	r.asked = new(Request[M]) // the old one stays with the call
	return r.strays.left(wordSerial(p), r.seats[seat].Player, r.Game)
}

// benchSharers abandons every other seat of the match whose player is the
// player of seat, whose call was just left running.
func (r *Runner[M, V]) benchSharers(seat int) {
	stuck := r.seats[seat].Player
	for other, s := range r.seats {
		if other != seat && r.callee[other] != nil && samePlayer(s.Player, stuck) {
			r.abandon(other, fmt.Sprintf("its call for seat %d still runs", seat))
		}
	}
}

// benchStrays abandons, before the match starts, every seat whose player
// has a call this runner left running in an earlier match: the seat is
// played as abandoned from the start, its player never started.
func (r *Runner[M, V]) benchStrays() {
	r.strays.mu.Lock()
	defer r.strays.mu.Unlock()
	if len(r.strays.calls) == 0 {
		return
	}
	for seat, s := range r.seats {
		if c, ok := r.strays.of(s.Player); ok {
			r.abandon(seat, c.why())
		}
	}
}

// closePlayers closes every player that is an io.Closer (an external
// program, say) once its match is over, however it ended.
func closePlayers[M, V any](seats []Seat[M, V]) {
	for _, s := range seats {
		if c, ok := s.Player.(io.Closer); ok {
			_ = c.Close()
		}
	}
}

// callBit is the phase word's mark of a decision of class c.
func callBit(c DeadlineClass) uint64 {
	if c == Reply {
		return replyBit
	}
	return 0
}

// resize returns s with length n, reusing its memory when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// ended returns a record's end with its own copy of res.
func ended(res Result) *End { return &End{Result: &res} }
