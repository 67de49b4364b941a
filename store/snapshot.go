package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// SnapshotEvery is how many moves apart the referee snapshots a match: a
// match is read again by restoring its latest snapshot and replaying at
// most this many moves of its log.
const SnapshotEvery = 256

// Snapshotter is implemented by live matches that give their full state
// (catalog's live matches: engine.Restorer's snapshot). A snapshot holds
// every secret of its match: the store keeps it, and never shows it.
type Snapshotter interface {
	Snapshot() ([]byte, error)
}

// Restorer is implemented by Rules that resume a stored match from one of
// its snapshots, as it stood after the snapshot's move.
type Restorer interface {
	Restore(ctx context.Context, m *Match, snapshot []byte) (Live, error)
}

// Snapshot is a match's state after one of its moves.
type Snapshot struct {
	Seq   int64
	State []byte
	// Opened is when each request open then was opened (Match.Opened).
	Opened map[int64]time.Time
}

// PutSnapshot keeps a snapshot of match id, and forgets those older than
// the one before it.
func (s *Store) PutSnapshot(ctx context.Context, id string, snap Snapshot) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return putSnapshot(ctx, tx, id, snap) })
}

// putSnapshot writes a snapshot of match id in tx.
func putSnapshot(ctx context.Context, tx *sql.Tx, id string, snap Snapshot) error {
	opened := make(map[string]int64, len(snap.Opened))
	for req, at := range snap.Opened {
		opened[strconv.FormatInt(req, 10)] = at.UnixMilli()
	}
	o, err := json.Marshal(opened)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO snapshots (match_id, seq, state, opened) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
		id, snap.Seq, string(snap.State), string(o)); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM snapshots WHERE match_id = $1 AND seq < $2`, id, snap.Seq-SnapshotEvery)
	return err
}

// LatestSnapshot returns the latest snapshot of match id taken at move
// atMost or before, or nil if there is none.
func (s *Store) LatestSnapshot(ctx context.Context, id string, atMost int64) (*Snapshot, error) {
	var snap Snapshot
	var state, opened string
	err := s.read.QueryRowContext(ctx, `SELECT seq, state, opened FROM snapshots WHERE match_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1`, id, atMost).
		Scan(&snap.Seq, &state, &opened)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var o map[string]int64
	if err := json.Unmarshal([]byte(opened), &o); err != nil {
		return nil, err
	}
	snap.State, snap.Opened = []byte(state), make(map[int64]time.Time, len(o))
	for req, at := range o {
		n, err := strconv.ParseInt(req, 10, 64)
		if err != nil {
			return nil, err
		}
		snap.Opened[n] = time.UnixMilli(at)
	}
	return &snap, nil
}

// resume makes the live match of row as it stood after move atMost or
// before: restored from its latest snapshot there when the rules can, and
// otherwise as it stood before its first move. It returns the move it
// stands after, with at.Opened as it stood then. A snapshot that cannot
// be restored is passed over: the log is the truth.
func (r *Referee) resume(ctx context.Context, row *Match, atMost int64, at *Match) (Live, int64, error) {
	if rs, ok := r.rules.(Restorer); ok && atMost > 0 {
		snap, err := r.store.LatestSnapshot(ctx, row.ID, atMost)
		if err != nil {
			return nil, 0, err
		}
		if snap != nil {
			if live, err := rs.Restore(ctx, row, snap.State); err == nil {
				at.Opened = snap.Opened
				return live, snap.Seq, nil
			}
		}
	}
	live, err := r.rules.Live(ctx, row)
	if err != nil {
		return nil, 0, err
	}
	at.Opened = nil
	NoteOpened(at, live, row.Created)
	return live, 0, nil
}

// snapshot keeps a snapshot of a held match after its move, every
// SnapshotEvery moves, without keeping the move's answer waiting: a
// snapshot that is not written is only a longer replay. On SQLite it goes
// to disk with the next group of moves, in their transaction: matches that
// reach a snapshot together cost no write of their own, which would keep
// the moves waiting behind them on the one connection that writes.
//
// A move that left its round open (a seat's answer while the others of a
// simultaneous round still owe theirs) is not snapshotted: the snapshot
// waits for the round's end, so that a match resumed from it knows which
// of the moves since were made without the others being told (see
// catalog.Live's Unresolved).
func (r *Referee) snapshot(h *held) {
	sn, ok := h.live.(Snapshotter)
	if h.row.Seq%SnapshotEvery == 0 {
		h.snapDue = true
	}
	if q, quiet := h.live.(interface{ Quiet() bool }); quiet && q.Quiet() {
		return
	}
	if !ok || !h.snapDue || h.row.Status != Running {
		return
	}
	h.snapDue = false
	state, err := sn.Snapshot()
	if err != nil {
		return
	}
	snap := Snapshot{Seq: h.row.Seq, State: state, Opened: make(map[int64]time.Time, len(h.row.Opened))}
	for req, at := range h.row.Opened {
		snap.Opened[req] = at
	}
	id := h.row.ID
	r.writes.Add(1)
	go func() {
		defer r.writes.Done()
		if r.store.postgres {
			_ = r.store.PutSnapshot(context.Background(), id, snap)
			return
		}
		_ = r.join(context.Background(), &pending{snap: &kept{match: id, snap: snap}, done: make(chan struct{})})
	}()
}

// kept is a snapshot of a match to write with a group of moves.
type kept struct {
	match string
	snap  Snapshot
}
