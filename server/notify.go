package server

import (
	"context"
	"sync"

	"github.com/arbiter-games/arbiter/store"
)

// Several servers on one PostgreSQL database serve the same matches. The
// store tells every server each change committed by any of them (LISTEN
// and NOTIFY); a server brings the matches it holds in memory up to date
// (the referee's Refresh), which feeds their event streams and wakes their
// drivers, and forgets the secrets that were issued again. Each match's
// refreshes run one at a time, apart from other matches', so that a match
// busy asking a bot does not hold up the others.

// refresher runs the refreshes of matches that other servers changed.
type refresher struct {
	mu    sync.Mutex
	busy  map[string]bool // a refresh of the match runs
	again map[string]bool // and another was asked for meanwhile
	wg    sync.WaitGroup
}

// listen starts listening to the store's changes, until ctx ends.
func (s *Server) listen(ctx context.Context) {
	if !s.cfg.Store.Postgres() {
		return
	}
	s.refresh = &refresher{busy: map[string]bool{}, again: map[string]bool{}}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.cfg.Store.Listen(ctx, func(c store.Change) { s.changed(ctx, c) }, func(err error) {
			s.log.Warn("listening to the database's changes: reconnecting", "error", err.Error())
		})
		s.refresh.wg.Wait()
	}()
}

// changed takes one change told by the store.
func (s *Server) changed(ctx context.Context, c store.Change) {
	switch c.Kind {
	case store.Resync:
		// Anything may have changed while nobody listened.
		s.secretsMu.Lock()
		s.secretsGen++
		s.secrets.Clear()
		s.secretsMu.Unlock()
		for _, id := range s.ref.Held() {
			s.refreshLater(ctx, id)
		}
		// A secret issued again meanwhile closes its streams here too.
		s.refresh.wg.Add(1)
		go func() {
			defer s.refresh.wg.Done()
			for _, id := range s.hub.matches() {
				s.revokeStreams(ctx, id)
			}
		}()
	case store.SecretsChanged:
		s.forget(c.Match)
		// Another server issued a secret again: the streams here opened
		// with the old one close.
		s.refresh.wg.Add(1)
		go func() {
			defer s.refresh.wg.Done()
			s.revokeStreams(ctx, c.Match)
		}()
	case store.Moved:
		if !s.ref.Knows(c.Match, c.Seq) {
			s.refreshLater(ctx, c.Match)
		}
	case store.Updated:
		s.forget(c.Match) // a removed match's secrets too
		s.refreshLater(ctx, c.Match)
	}
}

// refreshLater refreshes match id in a goroutine of its own, or once more
// after the refresh of it that runs now.
func (s *Server) refreshLater(ctx context.Context, id string) {
	f := s.refresh
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy[id] {
		f.again[id] = true
		return
	}
	f.busy[id] = true
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			if err := s.ref.Refresh(ctx, id); err != nil && ctx.Err() == nil {
				s.log.Error("reading a match changed by another server", "match", id, "error", err.Error())
			}
			f.mu.Lock()
			if !f.again[id] || ctx.Err() != nil {
				delete(f.busy, id)
				delete(f.again, id)
				f.mu.Unlock()
				return
			}
			delete(f.again, id)
			f.mu.Unlock()
		}
	}()
}

// updated is the referee's word that another server changed a match this
// server holds other than by a move: a seat resigned (its driver, if it is
// here, looks again), or the match was aborted (its streams are told, and
// its driver stops).
func (s *Server) updated(row *store.Match, _ store.Live) {
	s.poke(row.ID)
	if row.Status != store.Running {
		s.ended(row.ID)
	}
}
