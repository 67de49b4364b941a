package engine

import (
	"context"
	"errors"
	"fmt"
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
	// StartDeadline bounds Start and Finish; zero means ten times Deadline.
	StartDeadline time.Duration
}

// Runner drives matches whose decisions are made by players: it asks every
// pending request, enforces deadlines, applies the moves and keeps the record.
// A Runner keeps its memory from one match to the next, so a series or a
// benchmark that reuses one allocates nothing per turn. A Runner runs one
// match at a time; its zero value is ready to use.
//
// When every player is Bounded, the match is played on the calling goroutine
// and nothing watches it. Otherwise it is played on a goroutine of its own
// under the watchdog (see the package documentation), and each decision costs
// one atomic compare-and-swap more.
type Runner[M, V any] struct {
	// Timings records each decision's wall time in the record. It reads the
	// clock twice per decision, so it is off by default.
	Timings bool

	phase atomic.Uint64 // see the phase word in watchdog.go
	done  chan error    // the owner's last word on a watched match

	// Set by Run; read-only while the match is played.
	ctx         context.Context
	match       Match[M, V]
	seats       []Seat[M, V]
	rec         *Record[M]
	watched     bool            // some player could block
	deadlines   []time.Duration // per seat, as told to the player
	limits      []time.Duration // per seat: the watchdog's limit for a decision
	startLimits []time.Duration // per seat: the watchdog's limit for Start and Finish
	shortest    time.Duration

	// Owner state: touched only by whoever owns the match (see watchdog.go).
	cur       *batch[M, V]
	serial    uint64
	callee    []Player[M, V] // per seat: the player to ask, nil once abandoned
	abandoned []string       // per seat: why it is no longer asked
	result    Result
	at        int  // inline: the request being asked
	asking    bool // inline: a player is deciding

	// Watchdog state: touched only by the watchdog, under its lock.
	seen   uint64
	seenAt time.Time
}

// batchKind says what a batch of calls is for.
type batchKind uint8

const (
	startCalls  batchKind = iota // Start for every Starter
	moveCalls                    // Decide for every pending request
	finishCalls                  // Finish for every Finisher
)

var callNames = [...]string{startCalls: "Start", moveCalls: "Decide", finishCalls: "Finish"}

// batch is one round of calls. While its calls are made (the deciding phase)
// the goroutine making them reads only the batch's fixed parts and writes only
// the answers it has not yet committed, so that a watchdog that takes a
// watched match over can copy the batch safely and carry on with a new one.
type batch[M, V any] struct {
	kind    batchKind
	ctx     context.Context
	timings bool

	// Fixed while deciding.
	reqs    []Request[M]
	views   []V
	players []Player[M, V] // nil for a seat that is no longer asked
	absent  []string       // why a nil player is not asked
	words   []uint64       // watched: the phase word during call i; words[len(reqs)] ends the batch
	base    uint64         // watched: the serial of words[0]
	infos   []MatchInfo    // start calls: what each player is told
	result  Result         // finish calls: how the match ended

	// Answers, written by the deciding goroutine at index i before it commits i.
	moves  []M
	faults []Fault
	micros []int64

	// pos is the next call to make.
	pos int
}

// Run plays m to its end with one seat per player and appends every applied
// move to rec, whose header must describe the match. It returns nil when the
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
	r.watched = false
	for i, s := range seats {
		if s.Player == nil {
			return fmt.Errorf("engine: seat %d (%s) has no player", i, s.Name)
		}
		if b, ok := s.Player.(Bounded); !ok || !b.Bounded() {
			r.watched = true
		}
	}
	r.ctx, r.match, r.seats, r.rec = ctx, m, seats, rec
	r.result = Result{}
	r.setLimits()
	r.callee = resize(r.callee, len(seats))
	r.abandoned = resize(r.abandoned, len(seats))
	for i, s := range seats {
		r.callee[i], r.abandoned[i] = s.Player, ""
	}
	if r.cur == nil {
		r.cur = &batch[M, V]{}
	}
	defer func() { r.ctx, r.match, r.seats, r.rec = nil, nil, nil, nil }()

	if !r.watched {
		end, err := r.playInline()
		return r.close(end, err)
	}
	r.fillCeremony(r.cur, startCalls)
	if r.done == nil {
		r.done = make(chan error, 1)
	}
	dog.add(r)
	defer dog.remove(r)
	go r.playWatched()
	select {
	case err := <-r.done:
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
		limit, start := s.Deadline, s.StartDeadline
		if start == 0 {
			start = 10 * limit
		}
		if _, ok := s.Player.(SelfTimed); ok {
			// The player keeps its own time; the watchdog only stands behind it.
			if limit > 0 {
				limit = 2*limit + Grace
			}
			if start > 0 {
				start = 2*start + Grace
			}
		}
		r.deadlines[i], r.limits[i], r.startLimits[i] = s.Deadline, limit, start
		if limit > 0 && (r.shortest == 0 || limit < r.shortest) {
			r.shortest = limit
		}
	}
}

// play runs the match while this goroutine owns it: make the calls of the
// current batch, then apply them and prepare the next batch, until the match
// ends. In a watched match, lost reports that the match was taken over while
// a player was thinking; this goroutine must then touch nothing more.
func (r *Runner[M, V]) play() (end *End, err error, lost bool) {
	for {
		b := r.cur
		if b.pos < len(b.reqs) {
			if r.watched {
				r.phase.Store(b.words[b.pos])
			}
			for b.pos < len(b.reqs) {
				if b.calls(&r.phase, r.watched) {
					return nil, nil, true
				}
			}
		}
		end, err := r.safeAdvance()
		if end != nil || err != nil {
			return end, err, false
		}
	}
}

// playInline plays a match whose players are all Bounded, on the calling
// goroutine: nothing can be stuck, so nothing is watched and nothing copied.
// Each request is asked, applied and recorded in turn: simultaneous requests
// change nothing visible until the last of them is applied, so every player
// still decides from the same state.
func (r *Runner[M, V]) playInline() (end *End, err error) {
	defer func() {
		if x := recover(); x != nil {
			end, err = nil, fmt.Errorf("engine: %s rules panicked after %d moves: %v", r.rec.Header.Ruleset, len(r.rec.Steps), x)
		}
	}()
	r.ceremonyInline(startCalls)
	m := r.match
	for !m.Over() {
		select {
		case <-r.ctx.Done():
			return &End{Aborted: "interrupted"}, nil
		default:
		}
		reqs := m.Pending()
		if len(reqs) == 0 {
			return nil, fmt.Errorf("engine: %s match is not over but owes no decision after %d moves", r.rec.Header.Ruleset, len(r.rec.Steps))
		}
		for i := 0; i < len(reqs); {
			if i, err = r.roundInline(reqs, i); err != nil {
				return nil, err
			}
		}
	}
	r.result = m.Result()
	r.ceremonyInline(finishCalls)
	return ended(r.result), nil
}

// roundInline asks, applies and records reqs[from:] in turn, and returns the
// index to go on from: the end, or the request after one whose player
// panicked (the panic is then that request's fault). A panic anywhere else is
// the rules' and goes on up.
//
// This is the hottest loop in Arbiter: it handles the usual case (a player
// that answers a legal move) with as little live state as it can, and hands
// everything else to slowStep.
func (r *Runner[M, V]) roundInline(reqs []Request[M], from int) (next int, err error) {
	defer func() {
		if r.asking {
			r.asking = false
			i := r.at
			next, err = i+1, r.record(&reqs[i], reqs[i].Default, Fault{Kind: FaultPanic, Detail: fmt.Sprint(recover())}, 0)
		}
	}()
	for i := from; i < len(reqs); i++ {
		r.at = i
		req := &reqs[i]
		seat := req.Seat
		if r.Timings || uint(seat) >= uint(len(r.callee)) || r.callee[seat] == nil {
			if err := r.slowStep(req); err != nil {
				return i, err
			}
			continue
		}
		req.Deadline = r.deadlines[seat]
		r.asking = true
		mv, err := r.callee[seat].Decide(r.ctx, req, r.match.View(seat))
		r.asking = false
		if err != nil {
			if err := r.record(req, req.Default, faultOf(err), 0); err != nil {
				return i, err
			}
			continue
		}
		if err := r.match.Apply(seat, mv); err != nil {
			if err := r.refused(req, err); err != nil {
				return i, err
			}
			continue
		}
		r.rec.Steps = append(r.rec.Steps, Step[M]{Seat: seat, Move: mv})
	}
	return len(reqs), nil
}

// slowStep asks, applies and records one request the careful way: an
// unknown seat, an abandoned seat, or timings wanted.
func (r *Runner[M, V]) slowStep(req *Request[M]) error {
	seat := req.Seat
	if uint(seat) >= uint(len(r.seats)) {
		return fmt.Errorf("engine: the match asks seat %d; it has seats 0 to %d", seat, len(r.seats)-1)
	}
	if r.callee[seat] == nil {
		return r.record(req, req.Default, Fault{Kind: FaultAbandoned, Detail: r.abandoned[seat]}, 0)
	}
	t0 := time.Now()
	req.Deadline = r.deadlines[seat]
	r.asking = true
	mv, err := r.callee[seat].Decide(r.ctx, req, r.match.View(seat))
	r.asking = false
	us := time.Since(t0).Microseconds()
	if err != nil {
		return r.record(req, req.Default, faultOf(err), us)
	}
	return r.record(req, mv, Fault{}, us)
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
func (r *Runner[M, V]) record(req *Request[M], mv M, f Fault, us int64) error {
	seat, def := req.Seat, req.Default
	if err := r.match.Apply(seat, mv); err != nil {
		if !IsRuleError(err) {
			return fmt.Errorf("engine: applying seat %d's move: %w", seat, err)
		}
		if f.Kind != "" {
			return fmt.Errorf("engine: the rules refused seat %d's default move: %w", seat, err)
		}
		f, mv = Fault{Kind: FaultIllegal, Detail: err.Error()}, def
		if err := r.match.Apply(seat, mv); err != nil {
			return fmt.Errorf("engine: the rules refused seat %d's default move: %w", seat, err)
		}
	}
	step := Step[M]{Seat: seat, Move: mv, Micros: us}
	if f.Kind != "" {
		fault := f
		step.Fault = &fault
	}
	r.rec.Steps = append(r.rec.Steps, step)
	return nil
}

// ceremonyInline calls every Starter's Start, or every Finisher's Finish.
func (r *Runner[M, V]) ceremonyInline(kind batchKind) {
	for seat, s := range r.seats {
		if r.callee[seat] != nil {
			if err := r.ceremony(kind, s.Player, seat); err != nil {
				r.abandon(seat, "it failed to start: "+err.Error())
			}
		}
	}
}

// ceremony makes one Start or Finish call, turning a panic into an error.
func (r *Runner[M, V]) ceremony(kind batchKind, p Player[M, V], seat int) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic: %v", x)
		}
	}()
	switch kind {
	case startCalls:
		if s, ok := p.(Starter); ok {
			return s.Start(r.ctx, r.matchInfo(seat))
		}
	case finishCalls:
		if f, ok := p.(Finisher); ok {
			f.Finish(r.ctx, r.result)
		}
	}
	return nil
}

func (r *Runner[M, V]) matchInfo(seat int) MatchInfo {
	h := r.rec.Header
	return MatchInfo{Ruleset: h.Ruleset, Variant: h.Variant, RulesVersion: h.RulesVersion, Setup: h.Setup, Seat: seat}
}

// playWatched is play on a goroutine of its own, handing the outcome to Run.
func (r *Runner[M, V]) playWatched() {
	end, err, lost := r.play()
	if lost {
		return
	}
	err = r.close(end, err)
	r.phase.Store(phaseWord(r.serial, 0, false, stateDone))
	r.done <- err
}

// calls makes the batch's calls from b.pos on, publishing each in the phase
// word when guard is set. It returns when the batch is done or a player has
// panicked (the panic is then that call's fault and the caller calls again),
// or with lost set when the match was taken over during a call.
func (b *batch[M, V]) calls(phase *atomic.Uint64, guard bool) (lost bool) {
	i := b.pos
	defer func() {
		x := recover()
		if x == nil {
			return
		}
		b.faults[i] = Fault{Kind: FaultPanic, Detail: fmt.Sprint(x)}
		if b.kind == moveCalls {
			b.moves[i] = b.reqs[i].Default
		}
		b.pos = i + 1
		lost = guard && !phase.CompareAndSwap(b.words[i], b.words[i+1])
	}()
	var t0 time.Time
	for ; i < len(b.reqs); i++ {
		if b.timings {
			t0 = time.Now()
		}
		p := b.players[i]
		switch {
		case p == nil:
			b.faults[i] = Fault{Kind: FaultAbandoned, Detail: b.absent[i]}
			if b.kind == moveCalls {
				b.moves[i] = b.reqs[i].Default
			}
		case b.kind == moveCalls:
			mv, err := p.Decide(b.ctx, &b.reqs[i], b.views[i])
			if err != nil {
				b.faults[i] = faultOf(err)
				mv = b.reqs[i].Default
			}
			b.moves[i] = mv
		case b.kind == startCalls:
			if err := p.(Starter).Start(b.ctx, b.infos[i]); err != nil {
				b.faults[i] = Fault{Kind: FaultStart, Detail: err.Error()}
			}
		default:
			p.(Finisher).Finish(b.ctx, b.result)
		}
		if b.timings {
			b.micros[i] = time.Since(t0).Microseconds()
		}
		if guard && !phase.CompareAndSwap(b.words[i], b.words[i+1]) {
			return true
		}
	}
	b.pos = i
	return false
}

func faultOf(err error) Fault {
	if errors.Is(err, ErrDeadline) {
		return Fault{Kind: FaultTimeout, Detail: err.Error()}
	}
	return Fault{Kind: FaultError, Detail: err.Error()}
}

// safeAdvance is advance with a panic in the rules turned into an error: a
// bug in a ruleset ends its match, not the program.
func (r *Runner[M, V]) safeAdvance() (end *End, err error) {
	defer func() {
		if x := recover(); x != nil {
			end, err = nil, fmt.Errorf("engine: %s rules panicked after %d moves: %v", r.rec.Header.Ruleset, len(r.rec.Steps), x)
		}
	}()
	return r.advance()
}

// advance is called by the owner when the current batch's calls are made: it
// applies them and prepares the next batch. It returns the record's end when
// the match is over or was interrupted.
func (r *Runner[M, V]) advance() (*End, error) {
	b := r.cur
	switch b.kind {
	case startCalls:
		for i := range b.reqs {
			if f := b.faults[i]; f.Kind != "" {
				r.abandon(b.reqs[i].Seat, "it failed to start: "+f.Detail)
			}
		}
	case moveCalls:
		select {
		case <-r.ctx.Done():
			// Interrupted while the round was decided: the round is dropped,
			// so the record holds only moves the players made in peace.
			return &End{Aborted: "interrupted"}, nil
		default:
		}
		if err := r.apply(b); err != nil {
			return nil, err
		}
	case finishCalls:
		return ended(b.result), nil
	}
	if r.match.Over() {
		r.result = r.match.Result()
		r.fillCeremony(b, finishCalls)
		if len(b.reqs) == 0 {
			return ended(r.result), nil
		}
		return nil, nil
	}
	select {
	case <-r.ctx.Done():
		return &End{Aborted: "interrupted"}, nil
	default:
	}
	reqs := r.match.Pending()
	if len(reqs) == 0 {
		return nil, fmt.Errorf("engine: %s match is not over but owes no decision after %d moves", r.rec.Header.Ruleset, len(r.rec.Steps))
	}
	return nil, r.fillMoves(b, reqs)
}

func (r *Runner[M, V]) abandon(seat int, why string) {
	if r.callee[seat] != nil {
		r.callee[seat], r.abandoned[seat] = nil, why
	}
}

// apply applies a watched round's moves in request order and records them.
func (r *Runner[M, V]) apply(b *batch[M, V]) error {
	for i := range b.reqs {
		var us int64
		if b.timings {
			us = b.micros[i]
		}
		if err := r.record(&b.reqs[i], b.moves[i], b.faults[i], us); err != nil {
			return err
		}
	}
	return nil
}

// fillMoves makes b the batch of pending requests.
func (r *Runner[M, V]) fillMoves(b *batch[M, V], reqs []Request[M]) error {
	b.reqs = append(b.reqs[:0], reqs...)
	r.size(b, moveCalls)
	for i := range b.reqs {
		req := &b.reqs[i]
		s := req.Seat
		if uint(s) >= uint(len(r.seats)) {
			return fmt.Errorf("engine: the match asks seat %d; it has seats 0 to %d", s, len(r.seats)-1)
		}
		req.Deadline = r.deadlines[s]
		b.views[i] = r.match.View(s)
		r.seatCall(b, i, s, false)
	}
	return nil
}

// fillCeremony makes b the batch of Start or Finish calls.
func (r *Runner[M, V]) fillCeremony(b *batch[M, V], kind batchKind) {
	b.reqs = b.reqs[:0]
	for s, seat := range r.seats {
		var ok bool
		if kind == startCalls {
			_, ok = seat.Player.(Starter)
		} else {
			_, ok = seat.Player.(Finisher)
		}
		if ok {
			b.reqs = append(b.reqs, Request[M]{Seat: s})
		}
	}
	r.size(b, kind)
	b.result = r.result
	b.infos = resize(b.infos, len(b.reqs))
	h := r.rec.Header
	for i := range b.reqs {
		seat := b.reqs[i].Seat
		b.infos[i] = MatchInfo{Ruleset: h.Ruleset, Variant: h.Variant, RulesVersion: h.RulesVersion, Setup: h.Setup, Seat: seat}
		r.seatCall(b, i, seat, true)
	}
}

// size prepares b's per-call slices for len(b.reqs) calls.
func (r *Runner[M, V]) size(b *batch[M, V], kind batchKind) {
	n := len(b.reqs)
	b.kind, b.ctx, b.timings, b.pos = kind, r.ctx, r.Timings, 0
	b.views = resize(b.views, n)
	b.players = resize(b.players, n)
	b.absent = resize(b.absent, n)
	b.moves = resize(b.moves, n)
	b.faults = resize(b.faults, n)
	clear(b.faults)
	if r.Timings {
		b.micros = resize(b.micros, n)
	}
	if r.watched {
		b.words = resize(b.words, n+1)
		b.base = r.serial + 1
		r.serial += uint64(n) + 1
		b.words[n] = phaseWord(b.base+uint64(n), 0, false, stateRunning)
	}
}

// seatCall sets up call i of b for seat.
func (r *Runner[M, V]) seatCall(b *batch[M, V], i, seat int, ceremony bool) {
	p := r.callee[seat]
	b.players[i] = p
	if p == nil {
		b.absent[i] = r.abandoned[seat]
	}
	if r.watched {
		b.words[i] = phaseWord(b.base+uint64(i), seat, ceremony, stateDeciding)
	}
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
		if wordState(p) == stateDeciding && r.phase.CompareAndSwap(p, phaseWord(wordSerial(p), 0, false, stateDone)) {
			if r.cur.kind == finishCalls {
				r.rec.End = ended(r.cur.result)
				return nil
			}
			r.rec.End = &End{Aborted: "interrupted"}
			return r.interrupted()
		}
		select {
		case err := <-r.done:
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
	limit := r.limits[seat]
	if p&ceremonyBit != 0 {
		limit = r.startLimits[seat]
	}
	if limit == 0 || now.Sub(r.seenAt) < limit {
		return
	}
	if !r.phase.CompareAndSwap(p, phaseWord(wordSerial(p), 0, false, stateRunning)) {
		return
	}
	r.takeOver(p, limit)
}

func (r *Runner[M, V]) shortestLimit() time.Duration { return r.shortest }

// takeOver carries the match on after a player overran its deadline on the
// call that p names: that call gets the default, the seat is abandoned, and a
// new goroutine continues with a copy of the batch, leaving the stuck call to
// the old one.
func (r *Runner[M, V]) takeOver(p uint64, limit time.Duration) {
	old := r.cur
	i := int(wordSerial(p) - old.base)
	n := len(old.reqs)
	seat := old.reqs[i].Seat
	b := &batch[M, V]{
		kind: old.kind, ctx: old.ctx, timings: old.timings, base: old.base,
		result: old.result, infos: old.infos,
		reqs:    append([]Request[M](nil), old.reqs...),
		views:   append([]V(nil), old.views...),
		players: append([]Player[M, V](nil), old.players...),
		absent:  append([]string(nil), old.absent...),
		words:   append([]uint64(nil), old.words...),
		moves:   append(append([]M(nil), old.moves[:i]...), make([]M, n-i)...),
		faults:  append(append([]Fault(nil), old.faults[:i]...), make([]Fault, n-i)...),
		pos:     i + 1,
	}
	if old.timings {
		b.micros = append(append([]int64(nil), old.micros[:i]...), make([]int64, n-i)...)
		b.micros[i] = limit.Microseconds()
	}
	b.faults[i] = Fault{Kind: FaultTimeout, Detail: fmt.Sprintf("no return from %s within %v; the seat is abandoned", callNames[old.kind], limit)}
	if old.kind == moveCalls {
		b.moves[i] = b.reqs[i].Default
	}
	if old.kind == moveCalls {
		r.abandon(seat, fmt.Sprintf("it overran its deadline of %v at move %d", limit, len(r.rec.Steps)+i+1))
	} else {
		r.abandon(seat, fmt.Sprintf("it did not return from %s within %v", callNames[old.kind], limit))
	}
	for j := i + 1; j < n; j++ {
		if b.reqs[j].Seat == seat {
			b.players[j], b.absent[j] = nil, r.abandoned[seat]
		}
	}
	r.cur = b
	go r.playWatched()
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
