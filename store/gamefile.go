package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// A game's own file (territories' game.db) is a store of one match whose
// host is the game's command line, not arbiter serve: the host identifies
// the file, opens it with OpenDB, applies several moves before it commits
// them with CommitBatch, and makes or converts the file in one transaction
// with ImportTx and MigrateTx.

// OpenDB returns the store in an SQLite file that its caller has opened
// and knows for a store (or a new one): write, limited to one connection,
// on which the caller may run transactions of its own (never while it
// calls the store), and read, which may be write. It brings the schema up
// to date and marks the file as Open does. Close closes both.
func OpenDB(ctx context.Context, path string, write, read *sql.DB, o Options) (*Store, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{db: write, read: read, target: path, now: o.Now}
	if err := s.migrate(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var id int64
	if err := write.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if id != applicationID { // marking it is a write: only when needed
		if _, err := write.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return s, nil
}

// ApplicationID is the SQLite application id of a store's file ("ARBL"),
// which a host that makes or converts a file writes first.
const ApplicationID = applicationID

// Batch is several moves of one match to commit together, as a host
// commits the moves it applied in a row (territories' apply --group).
type Batch struct {
	Match string
	// Moves are the moves, each Seq one more than the one before, the
	// first the match's seq plus one.
	Moves []Move
	// Status and Result are the match's after the last move.
	Status Status
	Result *engine.Result
	// Project, if not nil, writes a game's own tables in the moves'
	// transaction.
	Project func(ctx context.Context, tx *sql.Tx) error
}

// CommitBatch commits a batch in one transaction, all or none: the first
// refusal (ErrMoved: the match is not where the first move follows, or is
// over; ErrKeyTaken; a projection's error) or failure rolls every move
// back, and is returned. Every move gets the commit's time.
func (s *Store) CommitBatch(ctx context.Context, b *Batch) error {
	if len(b.Moves) == 0 {
		return nil
	}
	at := s.now()
	first, last := b.Moves[0].Seq, b.Moves[len(b.Moves)-1].Seq
	if last-first != int64(len(b.Moves)-1) {
		return fmt.Errorf("match %s: a batch of %d moves numbered %d to %d", b.Match, len(b.Moves), first, last)
	}
	result := ""
	if b.Result != nil {
		r, err := json.Marshal(b.Result)
		if err != nil {
			return err
		}
		result = string(r)
	}
	st, err := s.statements(ctx)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		st := st.in(ctx, tx)
		if err := st.moveOn(ctx, b.Match, first-1, last, b.Status, result, at); err != nil {
			return err
		}
		insert := st.insert
		for i := range b.Moves {
			mv := &b.Moves[i]
			mv.At = at
			if err := insertMove(ctx, insert, b.Match, mv); err != nil {
				return err
			}
		}
		if b.Project != nil {
			if err := b.Project(ctx, tx); err != nil {
				return projectionError{err}
			}
		}
		return nil
	})
}

// insertMove writes mv with insert (insertSQL).
func insertMove(ctx context.Context, insert *sql.Stmt, match string, mv *Move) error {
	fault := ""
	if mv.Fault != nil {
		b, err := json.Marshal(mv.Fault)
		if err != nil {
			return err
		}
		fault = string(b)
	}
	_, err := insert.ExecContext(ctx, match, mv.Seq, mv.Actor, mv.Request, string(mv.Move), fault, mv.Note, mv.At.UnixMilli(), mv.Key, mv.KeyHash)
	if err != nil && isUnique(err) {
		if mv.Key != "" {
			return fmt.Errorf("match %s: move %d: %w", match, mv.Seq, ErrKeyTaken)
		}
		return fmt.Errorf("match %s: move %d: %w", match, mv.Seq, ErrMoved)
	}
	return err
}

// ImportTx stores match m in tx with the moves of its log, numbered 1, 2,
// 3, ... and made before (a game converted from another layout; none for a
// new match): for a host that makes or converts its file in one
// transaction, after MigrateTx. The match's Seq is the number of moves,
// its Status Running unless given, and Created and Updated as given (now
// when zero). It writes the rows Create and Commit write.
func ImportTx(ctx context.Context, tx *sql.Tx, m *Match, moves []Move) error {
	setup, err := json.Marshal(m.Setup)
	if err != nil {
		return err
	}
	result := ""
	if m.Result != nil {
		b, err := json.Marshal(m.Result)
		if err != nil {
			return err
		}
		result = string(b)
	}
	if m.Status == "" {
		m.Status = Running
	}
	if m.Created.IsZero() {
		m.Created = time.Now()
	}
	if m.Updated.IsZero() {
		m.Updated = m.Created
	}
	m.Seq = int64(len(moves))
	_, err = tx.ExecContext(ctx, `INSERT INTO matches (id, game, variant, rules_version, mode, setup, config, listed, status, seq, result, created, updated, lease_owner, lease_until)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '', 0)`,
		m.ID, m.Game, m.Variant, m.RulesVersion, m.Mode, string(setup), string(m.Config), m.Listed, string(m.Status), m.Seq, result,
		m.Created.UnixMilli(), m.Updated.UnixMilli())
	if err != nil {
		if isUnique(err) {
			return ErrExists
		}
		return err
	}
	if len(moves) == 0 {
		return nil
	}
	insert, err := tx.PrepareContext(ctx, insertSQL)
	if err != nil {
		return err
	}
	defer insert.Close()
	for i := range moves {
		if moves[i].Seq != int64(i+1) {
			return fmt.Errorf("match %s: move %d of the log is numbered %d", m.ID, i+1, moves[i].Seq)
		}
		if err := insertMove(ctx, insert, m.ID, &moves[i]); err != nil {
			return err
		}
	}
	return nil
}
