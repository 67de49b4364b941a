package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Several servers on one PostgreSQL database serve the same matches. Every
// change to a match is announced to all of them with a notification sent in
// the change's own transaction (so it is delivered if and only if the
// change commits): a move, a change of its settings or status, a change of
// its secrets. Each server listens (Listen) and brings what it holds in
// memory up to date.

// channel is the notification channel of the store's changes.
const channel = "arbiter_live"

// ChangeKind is what changed in a match.
type ChangeKind byte

// Kinds of change.
const (
	// Moved: a move was committed; Change.Seq is its number.
	Moved ChangeKind = 'm'
	// Updated: the match's settings or status changed (a resignation,
	// an abort), or it was removed.
	Updated ChangeKind = 'u'
	// SecretsChanged: a secret of the match was issued again: the old
	// one no longer works.
	SecretsChanged ChangeKind = 's'
	// Resync: the listener (re)connected, and changes made while it was
	// not connected were not told: everything held in memory may be
	// stale.
	Resync ChangeKind = 'r'
)

// Change is a change to a match committed by some server (this one
// included).
type Change struct {
	Kind  ChangeKind
	Match string
	Seq   int64
}

// notify announces a change in transaction tx, on PostgreSQL; SQLite has
// one server per file, and nobody to tell.
func (s *Store) notify(ctx context.Context, tx *sql.Tx, kind ChangeKind, id string, seq int64) error {
	if !s.postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, string(kind)+" "+strconv.FormatInt(seq, 10)+" "+id)
	return err
}

// parseChange reads a notification's payload: "KIND SEQ MATCH".
func parseChange(payload string) (Change, bool) {
	kind, rest, ok := strings.Cut(payload, " ")
	if !ok || len(kind) != 1 {
		return Change{}, false
	}
	seq, id, ok := strings.Cut(rest, " ")
	if !ok {
		return Change{}, false
	}
	n, err := strconv.ParseInt(seq, 10, 64)
	if err != nil {
		return Change{}, false
	}
	return Change{Kind: ChangeKind(kind[0]), Match: id, Seq: n}, true
}

// Listen calls fn with every change committed to the store's matches, by
// any server, until ctx ends; lost, if not nil, hears why the connection
// was lost (it is made again at once, then after growing pauses up to 5
// s). Each time the listener connects, before any change, fn is called
// with a Resync change: the changes committed while it was not connected
// were not told. Changes are told in the order they committed. On SQLite,
// Listen returns at once: one server serves a file.
func (s *Store) Listen(ctx context.Context, fn func(Change), lost func(error)) {
	if !s.postgres {
		return
	}
	pause := 50 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listen(ctx, fn)
		if ctx.Err() != nil {
			return
		}
		if lost != nil {
			lost(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// listen listens on one connection until it fails or ctx ends.
func (s *Store) listen(ctx context.Context, fn func(Change)) error {
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return redactErr(err, s.url)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return redactErr(err, s.url)
	}
	fn(Change{Kind: Resync})
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return redactErr(err, s.url)
		}
		if c, ok := parseChange(n.Payload); ok {
			fn(c)
		}
	}
}

// migrationLock is the advisory lock that serialises the migrations of
// servers starting together on one database ("ARBL" and "live").
const migrationLock int64 = 0x4152424c_6c697665

// lockMigrations takes the database's migration lock, so that two servers
// starting at once on a new database do not both make its tables; the
// function returned lets it go.
func (s *Store) lockMigrations(ctx context.Context) (func(), error) {
	if !s.postgres {
		return func() {}, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		conn.Close()
		return nil, err
	}
	return func() {
		conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
		conn.Close()
	}, nil
}

// redactURL is a database URL without its password, wherever the URL
// carries it (user:password@, or ?password=).
func redactURL(u string) string {
	if ambiguousUserinfo(u) {
		// Everything up to the last @ may be the password: keep the user
		// and what follows that @ only.
		scheme, rest, _ := strings.Cut(u, "://")
		user := rest[:strings.IndexAny(rest+":", ":/?#@")]
		// What follows that @ may be the rest of a query that carries a
		// password (?user=ann@server&password=...): it is cut at its
		// first ?, #, & or =.
		tail := rest[strings.LastIndexByte(rest, '@')+1:]
		if i := strings.IndexAny(tail, "?#&="); i >= 0 {
			tail = tail[:i] + "?…"
		}
		return scheme + "://" + user + ":xxxxx@" + tail
	}
	parsed, err := url.Parse(u)
	if err != nil {
		// Not a URL that parses: keep its scheme, and no more.
		if scheme, _, ok := strings.Cut(u, "://"); ok {
			return scheme + "://(an invalid URL)"
		}
		return "(an invalid URL)"
	}
	if _, has := parsed.User.Password(); has {
		parsed.User = url.UserPassword(parsed.User.Username(), "xxxxx")
	}
	q := parsed.Query()
	for k := range q {
		if strings.EqualFold(k, "password") {
			q.Set(k, "xxxxx")
			parsed.RawQuery = q.Encode()
		}
	}
	return parsed.String()
}

// redactErr is err with the password of URL u, if it shows, replaced.
func redactErr(err error, u string) error {
	if err == nil {
		return nil
	}
	pw := passwordOf(u)
	if pw == "" {
		return err
	}
	msg := err.Error()
	forms := []string{pw}
	if plain, perr := url.PathUnescape(pw); perr == nil && plain != pw {
		forms = append(forms, plain)
	}
	changed := false
	for _, f := range forms {
		if strings.Contains(msg, f) {
			msg, changed = strings.ReplaceAll(msg, f, "xxxxx"), true
		}
	}
	if !changed {
		return err
	}
	return errors.New(msg)
}

// ambiguousUserinfo reports whether URL u has an @ past its authority
// (after a /, ? or # that follows the ://): a password written with /, ?
// or # unescaped, which a URL parser reads as the host, path and query,
// and which would then show, in part, wherever the URL or a driver's
// error about it is told. Such a URL is refused, and redacted as though
// everything before its last @ were the user and password.
func ambiguousUserinfo(u string) bool {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return false
	}
	end := strings.IndexAny(rest, "/?#")
	return end >= 0 && strings.LastIndexByte(rest, '@') > end
}

// passwordOf is the password a database URL carries, if any, as it is
// written in the URL: read by hand, so that a URL that does not parse
// gives it too.
func passwordOf(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
			return pw
		}
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, kv := range strings.Split(query, "&") {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, "password") && v != "" {
				return v
			}
		}
	}
	return ""
}

// isConflict reports whether err is PostgreSQL's refusal of a transaction
// that met another (a deadlock, or a serialisation failure): it changed
// nothing, and may be tried again.
func isConflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// invalidURL is the refusal of a postgres:// target that is not a URL.
func invalidURL(u string) error {
	if ambiguousUserinfo(u) {
		return fmt.Errorf("%s is not taken: it has an @ after the / ? or # that ends its host, a password with /, ? or # written as it is, or an @ in its path or query (?user=name@server); write each such character with %%XX escapes (/ %%2F, ? %%3F, # %%23, @ %%40): postgres://user:password@host:port/database", redactURL(u))
	}
	return fmt.Errorf("%s is not a valid URL; give postgres://user:password@host:port/database (a password with /, @, : or ? in it written with %%XX escapes)", redactURL(u))
}

// appendMove stores a move on PostgreSQL in one statement: the match's row
// moves on only from the move before, and only if no move of the match has
// the move's Idempotency-Key; the move is inserted only if the row moved
// on; it is announced only if inserted. Two servers' moves to one match
// wait for the row's lock, and the second finds the row moved: no unique
// index is ever hit, and so no statement fails half done.
const appendMove = `WITH up AS (
	UPDATE matches SET seq = $1, status = $2, result = $3, updated = $4
	WHERE id = $5 AND seq = $1 - 1 AND status = 'running'
		AND NOT EXISTS (SELECT 1 FROM moves WHERE match_id = $5 AND idem_key = $6 AND $6 <> '')
	RETURNING id
), ins AS (
	INSERT INTO moves (match_id, seq, actor, request, move, fault, note, at, idem_key, idem_hash)
	SELECT id, $1, $7, $8, $9, $10, $11, $4, $6, $12 FROM up
	RETURNING seq
)
SELECT count(*) FROM (SELECT pg_notify($13, $14) FROM ins) AS told`

// commitPipelined commits a group of moves without projections on
// PostgreSQL: one statement per move (appendMove), all sent at once in
// one transaction, so that a group costs three round trips to the
// database, not one or more per move. A move whose match has moved on, or
// has a move with the same Idempotency-Key, is ErrMoved in errs (the
// referee tells which, reading that move); an error of the database fails
// the whole group.
func (s *Store) commitPipelined(ctx context.Context, batch []*Append, order []int, at time.Time, errs []error) error {
	b := &pgx.Batch{}
	for _, i := range order {
		a := batch[i]
		a.Move.At = at
		fault, result, err := a.encode()
		if err != nil {
			return err
		}
		m := a.Move
		b.Queue(appendMove, m.Seq, string(a.Status), result, m.At.UnixMilli(), a.Match, m.Key,
			m.Actor, m.Request, string(m.Move), fault, m.Note, m.KeyHash, channel, string(Moved)+" "+strconv.FormatInt(m.Seq, 10)+" "+a.Match)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		pc := driverConn.(*stdlib.Conn).Conn()
		tx, err := pc.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) // nothing once committed
		results := tx.SendBatch(ctx, b)
		for _, i := range order {
			var n int
			if err := results.QueryRow().Scan(&n); err != nil {
				results.Close()
				return err
			}
			errs[i] = nil
			if n != 1 {
				errs[i] = ErrMoved
			}
		}
		if err := results.Close(); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// Unleased returns the ids of the matches under way that owner may drive:
// those whose lease has lapsed (their server gone) or is owner's, so that
// a server looking for matches to drive does not ask for every lease.
func (s *Store) Unleased(ctx context.Context, owner string) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM matches WHERE status = 'running' AND (lease_until < $1 OR lease_owner = $2) ORDER BY created`,
		s.now().UnixMilli(), owner)
}

// position returns where match id is in the store: its last move's number
// and its status.
func (s *Store) position(ctx context.Context, id string) (int64, Status, error) {
	var seq int64
	var status string
	err := s.read.QueryRowContext(ctx, `SELECT seq, status FROM matches WHERE id = $1`, id).Scan(&seq, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", ErrNoMatch
	}
	return seq, Status(status), err
}
