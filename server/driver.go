package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
)

// A driver plays what a match owes that no caller will send: its bots'
// moves, the defaults of requests whose deadline has passed, and every
// move of a seat that resigned. One server drives a match: the one that
// holds its lease.

// driver drives one match.
type driver struct {
	s    *Server
	id   string
	wake chan struct{}
	quit chan struct{}
	done chan struct{}
	// still says, as of the driver's last look, that a move gives it
	// nothing to play: the match has no bot, no seat that resigned, and
	// no deadline for people. Its moves then do not wake it; what
	// changes that (a resignation, another server's change) does.
	still atomic.Bool
}

// drive starts driving match id, if this server can take its lease.
func (s *Server) drive(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || s.drivers[id] != nil {
		return
	}
	ok, err := s.cfg.Store.Lease(context.Background(), id, s.cfg.ID, s.now().Add(s.cfg.LeaseFor))
	if err != nil || !ok {
		return
	}
	d := &driver{s: s, id: id, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	s.drivers[id] = d
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer close(d.done)
		d.run()
	}()
}

// driverOf returns the driver of match id, if this server drives it.
func (s *Server) driverOf(id string) *driver {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drivers[id]
}

// stopDriving stops driving match id.
func (s *Server) stopDriving(id string) {
	s.mu.Lock()
	d := s.drivers[id]
	delete(s.drivers, id)
	s.mu.Unlock()
	if d != nil {
		d.stop()
		_ = s.cfg.Store.Release(context.Background(), id, s.cfg.ID)
	}
}

// poke wakes the driver of match id.
func (s *Server) poke(id string) {
	if d := s.driverOf(id); d != nil {
		d.poke()
	}
}

func (d *driver) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *driver) stop() {
	select {
	case <-d.quit:
	default:
		close(d.quit)
	}
	<-d.done
}

// moved wakes the driver after a committed move, under the match's lock,
// unless the move gives it nothing to play: the match still runs, and
// nothing in it is the driver's to play.
func (d *driver) moved(row *store.Match) {
	if d.still.Load() && row.Status == store.Running {
		return
	}
	d.poke()
}

// deadlineOf returns when request q of match row runs out of time, if it
// has a limit: its time runs from when it was opened (row.Opened), the
// same on every server and after a restart.
func deadlineOf(row *store.Match, q catalog.Request, bot bool, cfg matchConfig) *time.Time {
	limit := cfg.Time.limit(bot, q.Class == engine.Reply)
	opened, ok := row.Opened[q.ID]
	if limit <= 0 || !ok {
		return nil
	}
	t := opened.Add(limit)
	return &t
}

// act is what the driver plays for one request.
type act struct {
	req   catalog.Request
	move  json.RawMessage
	fault *engine.Fault
	// answer, if not nil, is a bot's decision still to make (without the
	// match's lock), within limit; then move and fault are its.
	answer catalog.Answer
	ctx    context.Context // the bot's time
	cancel context.CancelFunc
	// judge, if not nil, is a move of the judge's that time made due
	// (catalog.Timed), to submit as it is.
	judge *store.Submission
}

// decide makes the bots' decisions among acts, each seat's on its own
// goroutine: a slow bot does not keep the others waiting, nor the match.
func decide(acts []act) {
	var wg sync.WaitGroup
	for i := range acts {
		a := &acts[i]
		if a.answer == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer a.cancel()
			mv, err := a.answer(a.ctx)
			if err != nil {
				f := engine.FaultOf(err)
				if a.ctx.Err() != nil && f.Kind == engine.FaultError {
					f.Kind = engine.FaultTimeout
				}
				a.move, a.fault = a.req.Default, &f
				return
			}
			a.move = mv
		}()
	}
	wg.Wait()
}

func (d *driver) run() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-d.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		acts, next, running, err := d.look(ctx)
		if err != nil {
			if ctx.Err() == nil {
				d.s.log.Error("driving a match", "match", d.id, "error", err.Error())
			}
			return
		}
		if !running {
			d.s.mu.Lock()
			if d.s.drivers[d.id] == d {
				delete(d.s.drivers, d.id)
			}
			d.s.mu.Unlock()
			_ = d.s.cfg.Store.Release(context.Background(), d.id, d.s.cfg.ID)
			return
		}
		decide(acts)
		stuck := false
		for _, a := range acts {
			if a.judge != nil {
				// Made against the match as it was: another move since
				// (ErrMoved) may have done it, and the driver looks again.
				if _, err := d.s.ref.Submit(ctx, *a.judge); err != nil && !errors.Is(err, store.ErrMoved) && ctx.Err() == nil {
					d.s.log.Error("a judge's move that time made due", "match", d.id, "error", err.Error())
					stuck = true
				}
				continue
			}
			_, err := d.s.ref.Submit(ctx, store.Submission{Match: d.id, Actor: a.req.Seat, Request: a.req.ID, ExpectSeq: -1, Move: a.move, Fault: a.fault})
			var re *engine.RuleError
			switch {
			case err == nil, errors.Is(err, store.ErrStale):
			case errors.As(err, &re) && a.fault == nil:
				// A bot's illegal move: its default instead.
				_, err = d.s.ref.Submit(ctx, store.Submission{Match: d.id, Actor: a.req.Seat, Request: a.req.ID, ExpectSeq: -1, Move: a.req.Default,
					Fault: &engine.Fault{Kind: engine.FaultIllegal, Detail: re.Msg}})
				if err != nil && !errors.Is(err, store.ErrStale) && ctx.Err() == nil {
					d.s.log.Error("a default move", "match", d.id, "error", err.Error())
				}
			case ctx.Err() != nil:
				return
			default:
				d.s.log.Error("a driven move", "match", d.id, "error", err.Error())
			}
		}
		if len(acts) > 0 && !stuck {
			continue // look again at once: the moves may open more
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(time.Until(next), 0)
		}
		timer.Reset(wait)
		select {
		case <-d.wake:
		case <-timer.C:
		case <-d.quit:
			return
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// look decides, under the match's lock, what the driver plays now: the
// moves of bots (asked now), of resigned seats, and the defaults of
// requests whose time has run out. It returns when it must look again,
// and whether the match still runs.
func (d *driver) look(ctx context.Context) (acts []act, next time.Time, running bool, err error) {
	err = d.s.ref.With(ctx, d.id, func(row *store.Match, l store.Live) error {
		if row.Status != store.Running {
			return nil
		}
		running = true
		live := l.(catalog.Live)
		cfg := d.s.configOf(row)
		now := d.s.now()
		timed := false
		if t, ok := live.(catalog.Timed); ok && t.Timed() {
			// Every move may begin a turn, whose end is timed.
			timed = true
			sub, when, err := d.s.due(ctx, row, live, now, false)
			if err != nil {
				return err
			}
			if sub != nil {
				acts = append(acts, act{judge: sub})
			}
			next = when
		}
		d.still.Store(!timed && nothingToDrive(live, row, cfg))
		for _, q := range live.Pending() {
			bot := live.Bot(q.Seat)
			opened, ok := row.Opened[q.ID]
			if !ok {
				opened = row.Updated
			}
			limit := cfg.Time.limit(bot, q.Class == engine.Reply)
			switch {
			case slices.Contains(cfg.Resigned, q.Seat):
				acts = append(acts, act{req: q, move: q.Default, fault: &engine.Fault{Kind: engine.FaultAbandoned, Detail: "the seat resigned"}})
			case bot:
				acts = append(acts, d.ask(ctx, live, q, limit))
			case limit > 0:
				deadline := opened.Add(limit)
				if !now.Before(deadline) {
					acts = append(acts, act{req: q, move: q.Default, fault: &engine.Fault{Kind: engine.FaultTimeout, Detail: fmt.Sprintf("no move within %v", limit)}})
				} else if next.IsZero() || deadline.Before(next) {
					next = deadline
				}
			}
		}
		return nil
	})
	return acts, next, running, err
}

// due returns the judge's move that time has made due in match row by now
// (catalog.Timed: a territories referee's turn that its turn_duration
// ends), made against the match as it stands; or, when none is due yet,
// when one will be (zero for none). Without idle, a move due after an
// idle wait is not (catalog.Timed's Due).
func (s *Server) due(ctx context.Context, row *store.Match, live catalog.Live, now time.Time, idle bool) (*store.Submission, time.Time, error) {
	t, ok := live.(catalog.Timed)
	if !ok {
		return nil, time.Time{}, nil
	}
	since, wait, move, quiet, ok := t.Due()
	if !ok || quiet && !idle {
		return nil, time.Time{}, nil
	}
	at, err := s.cfg.Store.MoveAt(ctx, row.ID, since)
	if err != nil {
		return nil, time.Time{}, err
	}
	if when := at.Add(wait); now.Before(when) {
		return nil, when, nil
	}
	return &store.Submission{Match: row.ID, Actor: engine.Judge, Request: -1, ExpectSeq: row.Seq, Move: move,
		Note: fmt.Sprintf("turn_duration: %v since move %d", wait, since)}, time.Time{}, nil
}

// playDue plays the judge's move that time has made due in match id, if
// any, before move (the judge's) sent to it, as arbiter territories ends
// a turn whose turn_duration has passed before the call that comes after
// it: the driver plays it when the time comes, but a move may come first.
// A move that is the one due (the judge's own end-turn) is played alone:
// the turn it ends is the one whose time is up, not the one after it.
func (s *Server) playDue(ctx context.Context, id string, move json.RawMessage) error {
	var sub *store.Submission
	err := s.ref.With(ctx, id, func(row *store.Match, l store.Live) error {
		if row.Status != store.Running {
			return nil
		}
		var err error
		sub, _, err = s.due(ctx, row, l.(catalog.Live), s.now(), true)
		return err
	})
	if err != nil || sub == nil || sameMove(sub.Move, move) {
		return err
	}
	if _, err := s.ref.Submit(ctx, *sub); err != nil && !errors.Is(err, store.ErrMoved) && !errors.Is(err, store.ErrOver) {
		return err
	}
	return nil
}

// nothingToDrive reports whether no move of match row can give its driver
// anything to play: none of its seats is a bot, none resigned, and people
// have no deadline.
func nothingToDrive(live catalog.Live, row *store.Match, cfg matchConfig) bool {
	if len(cfg.Resigned) > 0 || cfg.Time.People > 0 {
		return false
	}
	for seat := range row.Setup.Players {
		if live.Bot(seat) {
			return false
		}
	}
	return true
}

// ask asks a bot for its move, within its time: what it needs of the
// match now, its decision later (decide).
func (d *driver) ask(ctx context.Context, live catalog.Live, q catalog.Request, limit time.Duration) act {
	ctx, cancel := context.WithTimeout(ctx, limit)
	return act{req: q, answer: live.Ask(ctx, q), ctx: ctx, cancel: cancel}
}

// sameMove reports whether two moves are the same JSON, spacing aside.
func sameMove(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
