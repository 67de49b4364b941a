package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/store"
)

// resume drives every match under way whose lease this server can take.
func (s *Server) resume(ctx context.Context) error {
	ids, err := s.cfg.Store.Unleased(ctx, s.cfg.ID)
	if err != nil {
		return fmt.Errorf("the matches under way: %w", err)
	}
	for _, id := range ids {
		s.drive(id)
	}
	return nil
}

// maintain keeps the server's leases, takes over the matches of servers
// that died, archives old matches and forgets idle limits, until ctx ends.
func (s *Server) maintain(ctx context.Context) {
	tick := time.NewTicker(max(s.cfg.LeaseFor/3, 100*time.Millisecond))
	defer tick.Stop()
	lastArchive, lastSweep := time.Time{}, s.now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := s.now()
		s.renew(ctx, now)
		if err := s.resume(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("resuming matches", "error", err.Error())
		}
		if s.cfg.Keep > 0 && now.Sub(lastArchive) > time.Minute {
			lastArchive = now
			s.archive(ctx, now.Add(-s.cfg.Keep))
		}
		if now.Sub(lastSweep) > idleSweep {
			lastSweep = now
			s.forgetIdle()
		}
		s.limiter.sweep(now.Add(-10 * time.Minute))
	}
}

// idleSweep is how often the server forgets the matches over that nobody
// looked at since the sweep before.
const idleSweep = 10 * time.Minute

// forgetIdle forgets the matches over that nobody asked for since it was
// called last (store.Referee.ForgetIdle), and what the server keeps of
// any match no longer in memory: a server that runs for months holds the
// matches under way and those that people look at, not every match it
// ever showed.
func (s *Server) forgetIdle() {
	if ids := s.ref.ForgetIdle(); len(ids) > 0 {
		s.log.Debug("matches over and idle forgotten in memory", "count", len(ids))
	}
	held := map[string]bool{}
	for _, id := range s.ref.Held() {
		held[id] = true
	}
	for _, m := range []*sync.Map{&s.configs, &s.results, &s.boards, &s.drawings, &s.views} {
		m.Range(func(k, _ any) bool {
			if !held[k.(string)] {
				m.Delete(k)
			}
			return true
		})
	}
	s.secrets.Range(func(k, v any) bool {
		if !held[v.(store.Secret).Match] {
			s.secrets.Delete(k)
		}
		return true
	})
}

// renew renews the leases of the matches this server drives, in one
// transaction; a match whose lease was lost is no longer driven here.
func (s *Server) renew(ctx context.Context, now time.Time) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.drivers))
	for id := range s.drivers {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	held, err := s.cfg.Store.Renew(ctx, s.cfg.ID, ids, now.Add(s.cfg.LeaseFor))
	if err != nil && ctx.Err() == nil {
		// None is known to be held: none is driven here until taken again.
		s.log.Error("renewing the leases of the matches driven here", "error", err.Error())
	}
	kept := make(map[string]bool, len(held))
	for _, id := range held {
		kept[id] = true
	}
	for _, id := range ids {
		if !kept[id] {
			s.stopDriving(id)
		}
	}
}

// archive writes the record of every match over and untouched since
// before into the archive directory, then removes it from the store.
func (s *Server) archive(ctx context.Context, before time.Time) {
	ids, err := s.cfg.Store.Untouched(ctx, before)
	if err != nil {
		s.log.Error("archiving", "error", err.Error())
		return
	}
	for _, id := range ids {
		err := s.archiveOne(ctx, id)
		// The match is over and leaves the store, here or by the server
		// that took its lease: what this server keeps of it goes too.
		s.drop(id)
		if err != nil {
			s.log.Error("archiving a match", "match", id, "error", err.Error())
			continue
		}
		s.log.Info("match archived", "match", id)
	}
}

// drop forgets what the server keeps in memory of a match: its secrets,
// its parsed configuration, its result, its map, its drawn board and its
// views.
// They are caches, made again from the store if the match is asked for.
func (s *Server) drop(id string) {
	s.forget(id)
	s.configs.Delete(id)
	s.results.Delete(id)
	s.boards.Delete(id)
	s.drawings.Delete(id)
	s.views.Delete(id)
}

func (s *Server) archiveOne(ctx context.Context, id string) error {
	// One server archives a match: the one that takes its lease.
	if ok, err := s.cfg.Store.Lease(ctx, id, s.cfg.ID, s.now().Add(s.cfg.LeaseFor)); err != nil || !ok {
		return err
	}
	dir := s.cfg.ArchiveDir
	if dir == "" {
		dir = "archive"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, id+".jsonl")
	tmp, err := os.CreateTemp(dir, "."+id+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = s.ref.With(ctx, id, func(row *store.Match, live store.Live) error {
		return s.writeRecord(ctx, tmp, row, live.(catalog.Live))
	})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	s.ref.Forget(id)
	return s.cfg.Store.Delete(ctx, id)
}

// accessLog logs every request: its method, path, status, size, time and
// the caller's address, never a secret (which travels in a header, or in a
// URL's fragment that never reaches the server).
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &loggedWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(lw, r)
		s.log.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", lw.status,
			"bytes", lw.bytes, "ms", time.Since(start).Milliseconds(), "client", s.clientAddr(r))
	})
}

// loggedWriter notes the status and size of an answer.
type loggedWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *loggedWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *loggedWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *loggedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
