package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// Append is a move to commit, with what it makes of its match.
type Append struct {
	Match string
	// Move is the move; its Seq must be the match's seq plus one.
	Move Move
	// Status and Result are the match's after the move.
	Status Status
	Result *engine.Result
	// Project, if not nil, writes a game's own tables (a projection of
	// its state, for SQL readers) in the move's transaction.
	Project func(ctx context.Context, tx *sql.Tx) error
}

// ErrMoved is the refusal of a move whose match has moved on since its
// state was read: another server or process committed a move first.
var ErrMoved = errors.New("the match has moved on")

// ErrKeyTaken is the refusal of a move whose Idempotency-Key another move
// of the match has.
var ErrKeyTaken = errors.New("the idempotency key is another move's")

// Commit commits the appends in one transaction, each as if alone: one that
// cannot commit (ErrMoved, ErrKeyTaken, a projection's error) changes
// nothing, and the others commit. It returns one error per append, nil for
// those committed. A failed transaction fails them all. On PostgreSQL, a
// group without projections is sent whole at once, and a move whose
// Idempotency-Key another move has is ErrMoved too.
func (s *Store) Commit(ctx context.Context, batch []*Append) []error {
	return s.commitKeeping(ctx, batch, nil)
}

// commitKeeping is Commit, writing snapshots in the same transaction on
// SQLite (PostgreSQL's are written apart): a snapshot that cannot be
// written is passed over, and fails no move.
func (s *Store) commitKeeping(ctx context.Context, batch []*Append, snaps []*kept) []error {
	errs := make([]error, len(batch))
	at := time.UnixMilli(s.now().UnixMilli()) // as stored: the same in memory and on disk
	// The matches' rows are locked in the order of their ids, so that two
	// servers committing groups on one PostgreSQL database never wait for
	// each other in a circle.
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return batch[order[a]].Match < batch[order[b]].Match })
	if _, err := s.statements(ctx); err != nil { // before the transaction takes the connection
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	pipelined := s.postgres
	for _, a := range batch {
		pipelined = pipelined && a.Project == nil
	}
	var err error
	for attempt := 0; ; attempt++ {
		if pipelined {
			// PostgreSQL: the whole group sent at once.
			err = s.commitPipelined(ctx, batch, order, at, errs)
			if err == nil || !isConflict(err) || attempt == 3 {
				break
			}
			continue
		}
		// Each move as if alone: at first all of them at once, the
		// usual case; when one cannot commit, the group again, each
		// move within a savepoint of its own.
		err = s.tx(ctx, func(tx *sql.Tx) error { return s.appendAll(ctx, tx, batch, order, at, errs, snaps, false) })
		if errors.Is(err, errRefused) {
			err = s.tx(ctx, func(tx *sql.Tx) error { return s.appendAll(ctx, tx, batch, order, at, errs, snaps, true) })
		}
		if err == nil || !isConflict(err) || attempt == 3 {
			break
		}
		// PostgreSQL undid the group for meeting another transaction:
		// nothing of it is stored, and it is tried again whole.
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

// errRefused undoes a group in which a move could not commit, to commit
// the others.
var errRefused = errors.New("a move of the group cannot commit")

// appendAll appends the group's moves in order, noting each one's error in
// errs. Unless alone (each move within a savepoint), a move that cannot
// commit undoes the whole group (errRefused).
func (s *Store) appendAll(ctx context.Context, tx *sql.Tx, batch []*Append, order []int, at time.Time, errs []error, snaps []*kept, alone bool) error {
	if err := keep(ctx, tx, snaps); err != nil {
		return err
	}
	st, err := s.statements(ctx)
	if err != nil {
		return err
	}
	st = st.in(ctx, tx)
	for _, i := range order {
		a := batch[i]
		a.Move.At = at
		if alone {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("SAVEPOINT m%d", i)); err != nil {
				return err
			}
		}
		errs[i] = s.append(ctx, tx, st, a)
		refused := errs[i] != nil && (errors.Is(errs[i], ErrMoved) || errors.Is(errs[i], ErrKeyTaken) || isProjection(errs[i]))
		if errs[i] != nil && !refused {
			return errs[i] // the database itself failed
		}
		if !alone {
			if refused {
				return errRefused
			}
			continue
		}
		end := fmt.Sprintf("RELEASE SAVEPOINT m%d", i)
		if refused {
			end = fmt.Sprintf("ROLLBACK TO SAVEPOINT m%d", i)
		}
		if _, err := tx.ExecContext(ctx, end); err != nil {
			return err
		}
	}
	return nil
}

// keep writes snapshots in tx, each within a savepoint: one that cannot be
// written is passed over (the log is the truth; a snapshot only shortens
// its replay).
func keep(ctx context.Context, tx *sql.Tx, snaps []*kept) error {
	for i, k := range snaps {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SAVEPOINT s%d", i)); err != nil {
			return err
		}
		end := fmt.Sprintf("RELEASE SAVEPOINT s%d", i)
		if putSnapshot(ctx, tx, k.match, k.snap) != nil {
			end = fmt.Sprintf("ROLLBACK TO SAVEPOINT s%d", i)
		}
		if _, err := tx.ExecContext(ctx, end); err != nil {
			return err
		}
	}
	return nil
}

// The statements of a move, prepared once. A move that leaves its match
// running does not set the status, so that SQLite writes no index of the
// matches (see migrations/00003_status_indexes.sql); a move that ends it
// sets the status and the result.
const (
	advanceSQL = `UPDATE matches SET seq = $1, updated = $2 WHERE id = $3 AND seq = $4 AND status = 'running'`
	finishSQL  = `UPDATE matches SET seq = $1, status = $2, result = $3, updated = $4 WHERE id = $5 AND seq = $6 AND status = 'running'`
	insertSQL  = `INSERT INTO moves (match_id, seq, actor, request, move, fault, note, at, idem_key, idem_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`
)

// moveStatements are the statements of a move, prepared on the database.
type moveStatements struct{ advance, finish, insert *sql.Stmt }

// statements returns the prepared statements of a move. It prepares them
// on its first call, which must not be within a transaction: SQLite's
// writes have one connection.
func (s *Store) statements(ctx context.Context) (moveStatements, error) {
	s.prepare.Do(func() {
		for _, p := range []struct {
			st  **sql.Stmt
			sql string
		}{{&s.moves.advance, advanceSQL}, {&s.moves.finish, finishSQL}, {&s.moves.insert, insertSQL}} {
			if *p.st, s.err = s.db.PrepareContext(ctx, p.sql); s.err != nil {
				return
			}
		}
	})
	return s.moves, s.err
}

// in returns the statements bound to tx, made once for all the moves of a
// transaction.
func (st moveStatements) in(ctx context.Context, tx *sql.Tx) moveStatements {
	return moveStatements{advance: tx.StmtContext(ctx, st.advance), finish: tx.StmtContext(ctx, st.finish), insert: tx.StmtContext(ctx, st.insert)}
}

// moveOn advances match from move after to move seq, with st bound to a
// transaction (in): running still, or ended with status and result (JSON).
// It returns ErrMoved when the match is not at move after, or no longer
// running.
func (st moveStatements) moveOn(ctx context.Context, match string, after, seq int64, status Status, result string, at time.Time) error {
	if status == Running && result == "" {
		return changedOne(st.advance.ExecContext(ctx, seq, at.UnixMilli(), match, after))
	}
	return changedOne(st.finish.ExecContext(ctx, seq, string(status), result, at.UnixMilli(), match, after))
}

// changedOne is the error of an UPDATE of a match (r, err): ErrMoved when
// it changed no row, the match not being as the statement expected.
func changedOne(r sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := r.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrMoved
	}
	return nil
}

// projectionError is a projection's refusal of a move.
type projectionError struct{ err error }

func (e projectionError) Error() string { return e.err.Error() }
func (e projectionError) Unwrap() error { return e.err }

func isProjection(err error) bool {
	var pe projectionError
	return errors.As(err, &pe)
}

// encode returns the move's fault and the match's result as stored: JSON,
// or "" for none.
func (a *Append) encode() (fault, result string, err error) {
	if a.Move.Fault != nil {
		b, err := json.Marshal(a.Move.Fault)
		if err != nil {
			return "", "", err
		}
		fault = string(b)
	}
	if a.Result != nil {
		b, err := json.Marshal(a.Result)
		if err != nil {
			return "", "", err
		}
		result = string(b)
	}
	return fault, result, nil
}

// append writes a in tx, with st bound to it (moveStatements.in).
func (s *Store) append(ctx context.Context, tx *sql.Tx, st moveStatements, a *Append) error {
	fault, result, err := a.encode()
	if err != nil {
		return err
	}
	if err := st.moveOn(ctx, a.Match, a.Move.Seq-1, a.Move.Seq, a.Status, result, a.Move.At); err != nil {
		return err
	}
	_, err = st.insert.ExecContext(ctx,
		a.Match, a.Move.Seq, a.Move.Actor, a.Move.Request, string(a.Move.Move), fault, a.Move.Note, a.Move.At.UnixMilli(), a.Move.Key, a.Move.KeyHash)
	if err != nil {
		if isUnique(err) {
			if a.Move.Key != "" {
				return ErrKeyTaken
			}
			return ErrMoved
		}
		return err
	}
	if a.Project != nil {
		if err := a.Project(ctx, tx); err != nil {
			return projectionError{err}
		}
	}
	return s.notify(ctx, tx, Moved, a.Match, a.Move.Seq)
}

// readHead reads the first 100 bytes of a file: none when it does not
// exist or is empty.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; give the path of a database file", path)
	}
	buf := make([]byte, 100)
	n, _ := f.Read(buf)
	return buf[:n], nil
}
