// Package store keeps live matches of every game durable: the matches, the
// hashes of the secrets that let people act in them, and each match's
// append-only log of moves, in SQLite (one file, the default) or
// PostgreSQL (for several servers on one database). Its Referee is the
// push driver over it: it validates a move with the match's rules, commits
// it (and any projection of the game's own) in one transaction, and only
// then acknowledges it.
//
// The store knows no particular game: a match's rules come from a Rules
// (the catalog's), and its moves and views are JSON.
package store

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/filelock"
	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // SQLite, in pure Go
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is a database of live matches. Its methods are safe for concurrent
// use.
type Store struct {
	db       *sql.DB // writes; SQLite keeps one connection for them
	read     *sql.DB // reads
	postgres bool
	held     *os.File // SQLite: the file, locked for this store alone
	target   string   // what Open was given, without a password
	url      string   // PostgreSQL's URL, password and all, for Listen
	now      func() time.Time

	prepare sync.Once // the statements of a move
	moves   moveStatements
	err     error
}

// Options tune a store.
type Options struct {
	// Synchronous is SQLite's synchronous setting: FULL (the default:
	// every commit is on the disk before its answer, through a power cut)
	// or NORMAL (commits survive a crash of the process, not of the
	// machine).
	Synchronous string
	// Now is the clock of the log's times; default time.Now.
	Now func() time.Time
	// BusyTimeout is how long an SQLite write waits for the file's lock
	// while another process holds it (the sqlite3 shell, a backup)
	// before it fails as the database being unavailable (Unavailable):
	// default 10 s.
	BusyTimeout time.Duration
}

// applicationID marks an SQLite file as a store of live matches ("ARBL").
const applicationID = 0x4152424c

// Open opens the store at target: a postgres:// or postgresql:// URL, or
// the path of an SQLite file, made when missing. An existing file that is
// not a store of live matches (another application's, or a territories
// game's) is refused and left as it is.
func Open(ctx context.Context, target string, o Options) (*Store, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Synchronous == "" {
		o.Synchronous = "FULL"
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 10 * time.Second
	}
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		return openPostgres(ctx, target, o)
	}
	return openSQLite(ctx, target, o)
}

// keywordConnString reports whether target is written as libpq's
// connection strings of keywords are (host=db.example dbname=arbiter
// password=...): a word of key=value whose key names a database or its
// login, whatever the other words are (a value in quotes may hold spaces:
// password='two words'). Taken for a file's path, it would be made into
// an SQLite file named with its password, and the password shown as the
// database served.
func keywordConnString(target string) bool {
	for _, w := range strings.Fields(target) {
		k, _, ok := strings.Cut(w, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(k) {
		case "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "service":
			return true
		}
	}
	return false
}

func openSQLite(ctx context.Context, path string, o Options) (*Store, error) {
	if keywordConnString(path) {
		// Not echoed: it may hold a password.
		return nil, errors.New("a PostgreSQL connection string of keywords (host=... dbname=...) is not taken; give it as a postgres:// URL (postgres://user:password@host:port/database), or an SQLite file's path")
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("--db %q: give a file path (without ? or #) or a postgres:// URL", path)
	}
	if err := checkFile(ctx, path); err != nil {
		return nil, err
	}
	held, err := hold(path, lockPath(path))
	if err != nil {
		return nil, err
	}
	pragmas := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(%s)&_pragma=foreign_keys(1)", max(1, o.BusyTimeout.Milliseconds()), o.Synchronous)
	db, err := sql.Open("sqlite", "file:"+path+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		held.Close()
		return nil, err
	}
	db.SetMaxOpenConns(1) // one writer: the group commit gathers the moves
	db.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite", "file:"+path+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		db.Close()
		held.Close()
		return nil, err
	}
	read.SetMaxOpenConns(4)
	s := &Store{db: db, read: read, held: held, target: path, now: o.Now}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The file is this store's alone (hold): a lease on one of its
	// matches is a process's that ended without letting it go (killed, or
	// crashed). Its matches are driven again at once, their bots and the
	// deadlines that passed meanwhile, rather than once the leases lapse.
	if _, err := db.ExecContext(ctx, `UPDATE matches SET lease_until = 0 WHERE lease_until <> 0`); err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// hold holds the SQLite file at path for one store, locking the file lock
// (lockPath: the SQLite file itself, made when missing, or a file beside
// it): a second server on the file would miss the moves the first commits
// (SQLite tells no other process of them), and drive its matches' bots and
// deadlines apart from it. The system releases the lock when the process
// ends, however it ends.
func hold(path, lock string) (*os.File, error) {
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("%s is open in another arbiter serve: an SQLite file has one server (stop the other, or give another --db; several servers share a postgres:// database)", path)
		}
		return nil, fmt.Errorf("%s: locking it: %w", path, err)
	}
	return f, nil
}

// lockBeside says that an SQLite file is held through a file beside it
// (filelock.MeetsSQLite); a variable for the tests.
var lockBeside = filelock.MeetsSQLite

// lockPath is the file whose lock holds the SQLite file at path: the file
// itself on Linux, whose flock(2) locks never meet SQLite's own (fcntl);
// elsewhere path + ".lock", which is left beside it.
func lockPath(path string) string {
	if lockBeside {
		return path + ".lock"
	}
	return path
}

// checkFile refuses a file that is not a store of live matches, without
// writing to it: an empty file or none is a new store.
func checkFile(ctx context.Context, path string) error {
	head, err := readHead(path)
	if err != nil || len(head) == 0 {
		return err
	}
	if len(head) < 100 || string(head[:16]) != "SQLite format 3\x00" {
		return fmt.Errorf("%s is not a database of live matches (not an SQLite file); give a new file, or the one arbiter serve made", path)
	}
	id := uint32(head[68])<<24 | uint32(head[69])<<16 | uint32(head[70])<<8 | uint32(head[71])
	if id != applicationID && id != 0 {
		return fmt.Errorf("%s is another application's SQLite database (application id %#x), not one of live matches; give a new file", path, id)
	}
	if id == 0 {
		// A database with no id: ours only if it has no tables at all.
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
		if err != nil {
			return err
		}
		defer db.Close()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name <> 'goose_db_version'`).Scan(&n); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		var ours int
		_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'matches'`).Scan(&ours)
		if n > 0 && ours == 0 {
			return fmt.Errorf("%s is another application's SQLite database, not one of live matches; give a new file", path)
		}
	}
	return nil
}

func openPostgres(ctx context.Context, u string, o Options) (*Store, error) {
	if _, err := url.Parse(u); err != nil || ambiguousUserinfo(u) {
		return nil, invalidURL(u)
	}
	db, err := sql.Open("pgx", u)
	if err != nil {
		return nil, redactErr(err, u)
	}
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(32)
	s := &Store{db: db, read: db, postgres: true, target: redactURL(u), url: u, now: o.Now}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", s.target, redactErr(err, u))
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", s.target, redactErr(err, u))
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	if s.postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, s.db, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	unlock, err := s.lockMigrations(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	defer unlock()
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	for _, st := range []*sql.Stmt{s.moves.advance, s.moves.finish, s.moves.insert} {
		if st != nil {
			st.Close()
		}
	}
	err := s.db.Close()
	if s.read != s.db {
		err = errors.Join(err, s.read.Close())
	}
	if s.held != nil {
		err = errors.Join(err, s.held.Close()) // and with it the lock
	}
	return err
}

// Postgres reports whether the store is in PostgreSQL.
func (s *Store) Postgres() bool { return s.postgres }

// Target is where the store is: its file, or its URL without a password.
func (s *Store) Target() string { return s.target }

// QueryRow runs a query of one row on the store's database: a read of a
// game's own tables (see Migrate), such as the map a territories game file
// keeps beside its match.
func (s *Store) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.read.QueryRowContext(ctx, query, args...)
}

// Status is where a match is.
type Status string

// Statuses.
const (
	Running Status = "running"
	Over    Status = "over"
	Aborted Status = "aborted"
)

// Match is a stored match.
type Match struct {
	ID           string
	Game         string
	Variant      string
	RulesVersion string
	Mode         string
	Setup        engine.Setup
	// Config is the host's settings as JSON: the store keeps them.
	Config  json.RawMessage
	Listed  bool
	Status  Status
	Seq     int64
	Result  *engine.Result
	Created time.Time
	Updated time.Time
	// Opened says, for a match the referee holds, when each request it
	// owes now was opened: at the move after which it was first owed, or
	// at the match's creation. Deadlines run from these times, the same
	// on every server, and after a restart.
	Opened map[int64]time.Time
}

// Role is what a secret lets its holder do.
type Role string

// Roles.
const (
	SeatRole   Role = "seat"
	JudgeRole  Role = "judge"
	PlayerRole Role = "player" // a named player (territories' referee)
)

// Secret is a stored secret: its hash and what it grants.
type Secret struct {
	Hash  string
	Match string
	Role  Role
	Seat  int // the seat, for SeatRole; -1 otherwise
	Name  string
}

// Move is one move of a match's log.
type Move struct {
	Seq     int64
	Actor   int   // the seat, or engine.Judge
	Request int64 // the request answered, or -1
	Move    json.RawMessage
	Fault   *engine.Fault
	// Note is the judge's word on a correction.
	Note    string
	At      time.Time
	Key     string // the Idempotency-Key it came with
	KeyHash string // the hash of the request it came in
}

// Errors of the store.
var (
	ErrNoMatch  = errors.New("no such match")
	ErrNoSecret = errors.New("no such secret")
	ErrExists   = errors.New("a match with this id exists")
)

// Create stores a new match and its secrets.
func (s *Store) Create(ctx context.Context, m *Match, secrets []Secret) error {
	setup, err := json.Marshal(m.Setup)
	if err != nil {
		return err
	}
	now := s.now()
	m.Created, m.Updated = now, now
	if m.Status == "" {
		m.Status = Running
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO matches (id, game, variant, rules_version, mode, setup, config, listed, status, seq, result, created, updated, lease_owner, lease_until)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, '', $10, $10, '', 0)`,
			m.ID, m.Game, m.Variant, m.RulesVersion, m.Mode, string(setup), string(m.Config), m.Listed, string(m.Status), now.UnixMilli())
		if err != nil {
			if isUnique(err) {
				return ErrExists
			}
			return err
		}
		for _, sec := range secrets {
			sec.Match = m.ID
			if err := insertSecret(ctx, tx, sec); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertSecret(ctx context.Context, tx *sql.Tx, sec Secret) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO secrets (hash, match_id, role, seat, name) VALUES ($1, $2, $3, $4, $5)`,
		sec.Hash, sec.Match, string(sec.Role), sec.Seat, sec.Name)
	return err
}

const matchColumns = `id, game, variant, rules_version, mode, setup, config, listed, status, seq, result, created, updated`

func scanMatch(row interface{ Scan(...any) error }) (*Match, error) {
	var m Match
	var setup, config, result, status string
	var created, updated int64
	if err := row.Scan(&m.ID, &m.Game, &m.Variant, &m.RulesVersion, &m.Mode, &setup, &config, &m.Listed, &status, &m.Seq, &result, &created, &updated); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNoMatch
		}
		return nil, err
	}
	if err := json.Unmarshal([]byte(setup), &m.Setup); err != nil {
		return nil, fmt.Errorf("match %s: its setup: %w", m.ID, err)
	}
	m.Config, m.Status = json.RawMessage(config), Status(status)
	if result != "" {
		m.Result = new(engine.Result)
		if err := json.Unmarshal([]byte(result), m.Result); err != nil {
			return nil, fmt.Errorf("match %s: its result: %w", m.ID, err)
		}
	}
	m.Created, m.Updated = time.UnixMilli(created), time.UnixMilli(updated)
	return &m, nil
}

// Match returns the stored match id.
func (s *Store) Match(ctx context.Context, id string) (*Match, error) {
	return scanMatch(s.read.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM matches WHERE id = $1`, id))
}

// List returns the listed matches created before before, the newest
// first: up to limit, and the others created in the same millisecond as
// the last of them. A page ends where a millisecond does, so that the
// next, asked for with before the last one's created (next_before), misses
// none: matches created together (in the same millisecond) would
// otherwise be cut at the page's end, and the rest never listed.
func (s *Store) List(ctx context.Context, before time.Time, limit int) ([]*Match, error) {
	out, err := s.matches(ctx, `SELECT `+matchColumns+` FROM matches WHERE listed AND created < $1 ORDER BY created DESC, id LIMIT $2`,
		before.UnixMilli(), limit)
	if err != nil || len(out) < limit || limit < 1 {
		return out, err
	}
	last := out[len(out)-1]
	rest, err := s.matches(ctx, `SELECT `+matchColumns+` FROM matches WHERE listed AND created = $1 AND id > $2 ORDER BY id`,
		last.Created.UnixMilli(), last.ID)
	return append(out, rest...), err
}

// matches returns the matches a query selects (matchColumns).
func (s *Store) matches(ctx context.Context, query string, args ...any) ([]*Match, error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// The queries of the matches by status, each answered from its partial
// index (migrations/00003_status_indexes.sql), which needs 'running'
// written as it is there.
const (
	runningSQL   = `SELECT id FROM matches WHERE status = 'running' ORDER BY created`
	untouchedSQL = `SELECT id FROM matches WHERE status <> 'running' AND updated < $1 ORDER BY updated`
)

// Running returns the ids of the matches under way, for a server that
// starts to resume.
func (s *Store) Running(ctx context.Context) ([]string, error) {
	return s.ids(ctx, runningSQL)
}

// Untouched returns the ids of the matches over (or aborted) and not
// changed since before, which may be archived.
func (s *Store) Untouched(ctx context.Context, before time.Time) ([]string, error) {
	return s.ids(ctx, untouchedSQL, before.UnixMilli())
}

func (s *Store) ids(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Moves returns the moves of match id after seq, in order.
func (s *Store) Moves(ctx context.Context, id string, after int64) ([]Move, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT seq, actor, request, move, fault, note, at, idem_key, idem_hash FROM moves WHERE match_id = $1 AND seq > $2 ORDER BY seq`, id, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Move
	for rows.Next() {
		mv, err := scanMove(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, mv)
	}
	return out, rows.Err()
}

// MoveAt returns when move seq of match id was committed.
func (s *Store) MoveAt(ctx context.Context, id string, seq int64) (time.Time, error) {
	var at int64
	err := s.read.QueryRowContext(ctx, `SELECT at FROM moves WHERE match_id = $1 AND seq = $2`, id, seq).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, fmt.Errorf("match %s has no move %d", id, seq)
	}
	return time.UnixMilli(at), err
}

// Absent says, for each of a match's seats, whether it was asked and never
// answered: every move of its a default, made for a fault (as
// engine.Record.Absent says of a record). The database works it out: the
// moves are not read.
func (s *Store) Absent(ctx context.Context, id string, seats int) ([]bool, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT actor, MIN(fault) FROM moves WHERE match_id = $1 AND actor >= 0 GROUP BY actor`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	absent := make([]bool, seats)
	for rows.Next() {
		var seat int
		var fault string
		if err := rows.Scan(&seat, &fault); err != nil {
			return nil, err
		}
		if seat < seats {
			absent[seat] = fault != "" // '' sorts first: one answer is enough
		}
	}
	return absent, rows.Err()
}

func scanMove(row interface{ Scan(...any) error }) (Move, error) {
	var mv Move
	var move, fault string
	var at int64
	if err := row.Scan(&mv.Seq, &mv.Actor, &mv.Request, &move, &fault, &mv.Note, &at, &mv.Key, &mv.KeyHash); err != nil {
		return Move{}, err
	}
	mv.Move, mv.At = json.RawMessage(move), time.UnixMilli(at)
	if fault != "" {
		mv.Fault = new(engine.Fault)
		if err := json.Unmarshal([]byte(fault), mv.Fault); err != nil {
			return Move{}, err
		}
	}
	return mv, nil
}

// MoveByKey returns the move of match id sent with Idempotency-Key key.
func (s *Store) MoveByKey(ctx context.Context, id, key string) (Move, bool, error) {
	mv, err := scanMove(s.read.QueryRowContext(ctx, `SELECT seq, actor, request, move, fault, note, at, idem_key, idem_hash FROM moves WHERE match_id = $1 AND idem_key = $2`, id, key))
	if errors.Is(err, sql.ErrNoRows) {
		return Move{}, false, nil
	}
	return mv, err == nil, err
}

// Secret returns the secret whose hash is hash.
func (s *Store) Secret(ctx context.Context, hash string) (Secret, error) {
	var sec Secret
	var role string
	err := s.read.QueryRowContext(ctx, `SELECT hash, match_id, role, seat, name FROM secrets WHERE hash = $1`, hash).Scan(&sec.Hash, &sec.Match, &role, &sec.Seat, &sec.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return Secret{}, ErrNoSecret
	}
	sec.Role = Role(role)
	return sec, err
}

// Reissue replaces the secret of a seat (or of the judge, seat -1, or of a
// named player) of match id with a new one: the old one stops working.
func (s *Store) Reissue(ctx context.Context, sec Secret) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM secrets WHERE match_id = $1 AND role = $2 AND seat = $3 AND name = $4`,
			sec.Match, string(sec.Role), sec.Seat, sec.Name); err != nil {
			return err
		}
		if err := insertSecret(ctx, tx, sec); err != nil {
			return err
		}
		return s.notify(ctx, tx, SecretsChanged, sec.Match, 0)
	})
}

// SwapConfig replaces the host's settings of match id, running, with
// config if they are old; ErrMoved if they are not (or the match is no
// longer running).
func (s *Store) SwapConfig(ctx context.Context, id string, old, config json.RawMessage) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := changedOne(tx.ExecContext(ctx, `UPDATE matches SET config = $1, updated = $2 WHERE id = $3 AND config = $4 AND status = $5`,
			string(config), s.now().UnixMilli(), id, string(old), string(Running))); err != nil {
			return err
		}
		return s.notify(ctx, tx, Updated, id, 0)
	})
}

// SetConfig replaces the host's settings of match id.
func (s *Store) SetConfig(ctx context.Context, id string, config json.RawMessage) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE matches SET config = $1, updated = $2 WHERE id = $3`, string(config), s.now().UnixMilli(), id); err != nil {
			return err
		}
		return s.notify(ctx, tx, Updated, id, 0)
	})
}

// End ends a match that is running: aborted by its judge, or over.
func (s *Store) End(ctx context.Context, id string, status Status, result *engine.Result) error {
	res := ""
	if result != nil {
		b, err := json.Marshal(result)
		if err != nil {
			return err
		}
		res = string(b)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `UPDATE matches SET status = $1, result = $2, updated = $3 WHERE id = $4 AND status = $5`,
			string(status), res, s.now().UnixMilli(), id, string(Running))
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return ErrNotRunning
		}
		return s.notify(ctx, tx, Updated, id, 0)
	})
}

// Delete removes a match and its log (after it is archived).
func (s *Store) Delete(ctx context.Context, id string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM snapshots WHERE match_id = $1`, `DELETE FROM moves WHERE match_id = $1`, `DELETE FROM secrets WHERE match_id = $1`, `DELETE FROM matches WHERE id = $1`} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		return s.notify(ctx, tx, Updated, id, 0)
	})
}

// Lease gives match id to owner until until, when nobody else holds it
// now; it reports whether owner holds it.
func (s *Store) Lease(ctx context.Context, id, owner string, until time.Time) (bool, error) {
	now := s.now().UnixMilli()
	r, err := s.db.ExecContext(ctx, `UPDATE matches SET lease_owner = $1, lease_until = $2 WHERE id = $3 AND (lease_owner = $1 OR lease_until < $4)`,
		owner, until.UnixMilli(), id, now)
	if err != nil {
		return false, err
	}
	n, err := r.RowsAffected()
	return n == 1, err
}

// renewChunk is how many leases one statement of Renew renews.
const renewChunk = 500

// Renew renews owner's leases on matches ids until until, all in one
// transaction (one write to the disk, however many matches), and returns
// those owner holds now: the others were taken by another server after
// their lease lapsed.
func (s *Store) Renew(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	var held []string
	now := s.now().UnixMilli()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		held = held[:0]
		for start := 0; start < len(ids); start += renewChunk {
			chunk := ids[start:min(start+renewChunk, len(ids))]
			var q strings.Builder
			q.WriteString(`UPDATE matches SET lease_owner = $1, lease_until = $2 WHERE (lease_owner = $1 OR lease_until < $3) AND id IN (`)
			args := []any{owner, until.UnixMilli(), now}
			for i, id := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				args = append(args, id)
				q.WriteString("$" + strconv.Itoa(len(args)))
			}
			q.WriteString(`) RETURNING id`)
			rows, err := tx.QueryContext(ctx, q.String(), args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return err
				}
				held = append(held, id)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return held, nil
}

// Release gives up owner's lease on match id.
func (s *Store) Release(ctx context.Context, id, owner string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE matches SET lease_until = 0 WHERE id = $1 AND lease_owner = $2`, id, owner)
	return err
}

// ErrNotRunning is the refusal of a change to a match that is over.
var ErrNotRunning = errors.New("the match is not running")

// tx runs fn in a transaction.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// isUnique reports whether err is a uniqueness violation, in either
// database.
func isUnique(err error) bool {
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505") || strings.Contains(s, "duplicate key")
}
