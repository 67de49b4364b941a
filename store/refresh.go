package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// A referee announces every move of the matches it holds exactly once and
// in order (Committed): the moves it commits itself, and those that other
// servers on the same database commit, which it reads when told (Refresh).
// When its state of a match must be read again (a move that another server
// committed first), the moves it had not announced are announced as the
// log is replayed.

// reload reads match id from the store into h, whose lock the caller
// holds, replaying its log. If h held the match before, the moves
// committed since its last announced one are announced, each with the
// match as it stood after it, and a change of the match's settings or
// status is told (Updated).
func (r *Referee) reload(ctx context.Context, id string, h *held) error {
	for {
		row, err := r.store.Match(ctx, id)
		if err != nil {
			return err
		}
		announced := int64(-1)
		before := h.row
		from := row.Seq // the replay starts at the latest snapshot
		if before != nil {
			announced = before.Seq
			from = min(from, announced) // and tells the moves after announced
		}
		live, start, err := r.resume(ctx, row, from, row)
		if err != nil {
			return err
		}
		moves, err := r.store.Moves(ctx, id, start)
		if err != nil {
			live.Close()
			return err
		}
		if int64(len(moves)) < row.Seq-start {
			live.Close()
			continue // the row was read before its last move: read both again
		}
		moves = moves[:row.Seq-start] // later moves are told later
		at := *row                    // shares row's Opened, which follows the replay
		at.Status, at.Result = Running, nil
		for _, mv := range moves {
			if err := Apply(live, mv.Actor, mv.Move, mv.Fault); err != nil {
				live.Close()
				return fmt.Errorf("match %s: move %d of its log does not replay: %w", id, mv.Seq, err)
			}
			NoteOpened(&at, live, mv.At)
			if before == nil || mv.Seq <= announced || r.Committed == nil {
				continue
			}
			at.Seq, at.Updated = mv.Seq, mv.At
			if mv.Seq == row.Seq && row.Status == Over {
				at.Status, at.Result = row.Status, row.Result
			}
			r.Committed(&at, live, mv)
		}
		h.row, h.live = row, live
		h.seq.Store(row.Seq)
		if before != nil && r.Updated != nil && otherwise(before, row) {
			r.Updated(row, live)
		}
		return nil
	}
}

// NoteOpened notes in m.Opened when the requests that live owes now were
// opened: at, for those it did not owe before; those it no longer owes are
// forgotten. A replay of a match's log calls it with the match's creation
// time, then after each move with the move's time.
func NoteOpened(m *Match, live Live, at time.Time) {
	if m.Opened == nil {
		m.Opened = map[int64]time.Time{}
	}
	pending := live.Pending()
	for id := range m.Opened {
		if !slices.ContainsFunc(pending, func(q engine.Request[json.RawMessage]) bool { return q.ID == id }) {
			delete(m.Opened, id)
		}
	}
	for _, q := range pending {
		if _, ok := m.Opened[q.ID]; !ok {
			m.Opened[q.ID] = at
		}
	}
}

// otherwise reports whether a match changed from before to after other
// than by its moves: its settings, or its end without a move (an abort).
func otherwise(before, after *Match) bool {
	if !bytes.Equal(before.Config, after.Config) || before.Listed != after.Listed {
		return true
	}
	return after.Status == Aborted && before.Status != Aborted
}

// Refresh brings match id, if the referee holds it, up to date with the
// store: it applies and announces (Committed) the moves that other servers
// on the same database committed since, and takes the match's settings and
// status as they are now, telling a change of them (Updated). A match
// removed from the store is forgotten.
func (r *Referee) Refresh(ctx context.Context, id string) error {
	r.mu.Lock()
	h := r.matches[id]
	r.mu.Unlock()
	if h == nil {
		return nil // not in memory: the next use reads it whole
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	r.mu.Lock()
	current := r.matches[id] == h
	r.mu.Unlock()
	if !current || h.row == nil {
		return nil
	}
	if h.live == nil {
		return r.reload(ctx, id, h)
	}
	if _, err := r.catchUp(ctx, id, h); err != nil && !errors.Is(err, ErrNoMatch) {
		return err
	}
	return nil
}

// catchUp brings match h, whose lock the caller holds and which it holds
// in memory, up to date with the store, as Refresh does; it reports
// whether the match moved or changed. A match removed from the store is
// forgotten (ErrNoMatch).
func (r *Referee) catchUp(ctx context.Context, id string, h *held) (bool, error) {
	row, err := r.store.Match(ctx, id)
	if errors.Is(err, ErrNoMatch) {
		r.forgetHeld(id, h)
		return false, err
	}
	if err != nil {
		return false, err
	}
	if row.Seq < h.row.Seq {
		return false, nil // read before a move this referee has made since
	}
	before := *h.row
	if row.Seq > h.row.Seq {
		moves, err := r.store.Moves(ctx, id, h.row.Seq)
		if err != nil {
			return false, err
		}
		for _, mv := range moves {
			if mv.Seq > row.Seq {
				break // committed after the row was read: told later
			}
			if err := Apply(h.live, mv.Actor, mv.Move, mv.Fault); err != nil {
				r.drop(id, h)
				return false, fmt.Errorf("match %s: move %d does not replay: %w", id, mv.Seq, err)
			}
			h.row.Seq, h.row.Updated = mv.Seq, mv.At
			h.seq.Store(mv.Seq)
			NoteOpened(h.row, h.live, mv.At)
			if mv.Seq == row.Seq && row.Status == Over {
				h.row.Status, h.row.Result = row.Status, row.Result
			}
			if r.Committed != nil {
				r.Committed(h.row, h.live, mv)
			}
		}
	}
	h.row.Config, h.row.Listed = row.Config, row.Listed
	if h.row.Seq == row.Seq {
		h.row.Status, h.row.Result, h.row.Updated = row.Status, row.Result, row.Updated
	}
	changed := otherwise(&before, h.row)
	if r.Updated != nil && changed {
		r.Updated(h.row, h.live)
	}
	return changed || h.row.Seq > before.Seq, nil
}

// forgetHeld drops h, match id's, from memory; the caller holds its lock.
func (r *Referee) forgetHeld(id string, h *held) {
	r.drop(id, h)
	r.mu.Lock()
	if r.matches[id] == h {
		delete(r.matches, id)
	}
	r.mu.Unlock()
}

// Knows reports whether the referee holds match id at move seq or later,
// or does not hold it at all: then a Refresh up to seq has nothing to do.
func (r *Referee) Knows(id string, seq int64) bool {
	r.mu.Lock()
	h := r.matches[id]
	r.mu.Unlock()
	return h == nil || h.seq.Load() >= seq
}

// Held returns the ids of the matches the referee holds in memory.
func (r *Referee) Held() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Collect(maps.Keys(r.matches))
}

// Reconfigure changes the host's settings of match id, under its lock:
// change is given the match and returns its new settings. They replace
// the stored ones only if those are still the ones change was given; if
// another server changed them meanwhile, the match is read again and
// change called again, so that no server's change is lost.
func (r *Referee) Reconfigure(ctx context.Context, id string, change func(m *Match) (json.RawMessage, error)) error {
	for attempt := 0; ; attempt++ {
		h, err := r.hold(ctx, id)
		if err != nil {
			return err
		}
		h.mu.Lock()
		if h.live == nil {
			h.mu.Unlock()
			continue // dropped meanwhile: read it again
		}
		config, err := change(h.row)
		if err == nil {
			err = r.store.SwapConfig(ctx, id, h.row.Config, config)
		}
		if err == nil {
			h.row.Config = config
		} else if errors.Is(err, ErrMoved) && attempt < maxAttempts {
			_, err = r.catchUp(ctx, id, h)
			if err == nil {
				h.mu.Unlock()
				continue
			}
		}
		h.mu.Unlock()
		return err
	}
}

// current brings match h, whose lock the caller holds, up to date with the
// store if another server has moved or changed it: one light read when it
// has not.
func (r *Referee) current(ctx context.Context, id string, h *held) error {
	seq, status, err := r.store.position(ctx, id)
	if err != nil {
		return err
	}
	if seq == h.row.Seq && status == h.row.Status {
		return nil
	}
	_, err = r.catchUp(ctx, id, h)
	return err
}
