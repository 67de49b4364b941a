// Package territories keeps games of territories in the live store: a
// game file of arbiter territories (one match, in mode referee, in an
// SQLite file), and the tables of territories that any store (arbiter
// serve's, SQLite or PostgreSQL) keeps for SQL readers.
//
// A [Referee] is the game file's referee, which other applications drive
// one action at a time: it validates each action with the rules
// (games/territories) and, in one transaction, appends it to the match's
// move log (the store's moves table) and writes the projection of the log
// that other programs read: the actions with their dice and answers, the
// nations and holdings, and the rules' state after the last action, so
// that the next call resumes without replaying the log. Only then does it
// answer. Two processes acting on the same file at the same time are
// serialised by the database (an immediate transaction per call, with a
// busy timeout and a bounded retry; a process that finds the log moved on
// reads it again): no lost update, no double move.
// [Referee.SubmitBatch] takes many actions in one transaction, and
// [Referee.Submit] from many goroutines commits them in groups, so that
// durability costs one commit per group, not per action.
//
// The territories tables are versioned with goose migrations embedded in
// the binary (migrations/), beside the store's own. A game file of the
// layout before the live store (schema versions 1 to 3) is converted in
// place, in one transaction, when it is opened. [Referee.Verify] replays
// the log into a fresh in-memory store and compares every table.
//
// [Migrate] and [Moved] are the projection for every other store: the
// catalog has arbiter serve's referee write the same tables for each
// move of its territories matches.
package territories

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
	"modernc.org/sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// SchemaVersion is the newest migration of the territories tables: the
// schema this code writes.
const SchemaVersion = 1

// versionTable records the migrations of the territories tables.
const versionTable = "territories_db_version"

// applicationID marks an SQLite file as a store of live matches ("ARBL"):
// a game file of arbiter territories is one.
const applicationID = store.ApplicationID

// The match of a game file.
const (
	gameName = "territories"
	modeName = "referee"
)

// ErrNoGame is returned by Open for a path that holds no game of
// territories: no file, or a file of something else.
var ErrNoGame = errors.New("no game of territories")

// ErrExists is returned by Create for a path that already holds a file.
var ErrExists = errors.New("the file already exists")

// Options tune how a Referee uses its database.
type Options struct {
	// BusyTimeout is how long one attempt waits for another process's
	// transaction; default 5 s.
	BusyTimeout time.Duration
	// Patience bounds the retries of a transaction that finds the
	// database busy, or the log moved on; default 60 s.
	Patience time.Duration
	// Synchronous is SQLite's synchronous setting: "FULL" (the default:
	// every commit reaches the disk before the answer, through a power
	// cut) or "NORMAL" (commits survive a crash of the process, not of
	// the machine).
	Synchronous string
	// Now is the clock for the log's times and turn_duration; default
	// time.Now.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	if o.Patience <= 0 {
		o.Patience = 60 * time.Second
	}
	if o.Synchronous == "" {
		o.Synchronous = "FULL"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// pageSize is the size of a new game file's pages. An action rewrites a
// few rows of small tables (its move and action, a holding, the match's
// row and state), each on a page of its own, and every page it changes is
// written to the WAL and synced: pages of 1 KiB rather than SQLite's 4 KiB
// write and sync a quarter of the bytes. BenchmarkSubmitOne: 175 µs an
// action against 194 µs; with synchronous NORMAL, 61 µs against 79 µs.
// A file made before keeps its pages.
const pageSize = 1024

// dsn is the data source name of a database file: the busy timeout first,
// so that every later pragma waits for the lock; WAL, so that readers do
// not block the writer; immediate transactions, so that a writer takes
// the lock when it begins rather than failing when it first writes.
func dsn(path string, o Options) string {
	return fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(%s)&_pragma=foreign_keys(1)&_txlock=immediate",
		path, o.BusyTimeout.Milliseconds(), o.Synchronous)
}

// openDB opens the database's writer: one connection, which this process
// uses for one transaction at a time and which keeps its statements and
// pages warm.
func openDB(path string, o Options) (*sql.DB, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("database path %q: a path may not contain ? or #", path)
	}
	if path == "" {
		return nil, errors.New("no database path given")
	}
	db, err := sql.Open("sqlite", dsn(path, o))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// openReader opens the database's readers, which never write.
func openReader(path string, o Options) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path, o)+"&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	return db, nil
}

// openStore opens the store in the file at path, which is a store's.
func openStore(ctx context.Context, path string, o Options) (*store.Store, *sql.DB, *sql.DB, error) {
	db, err := openDB(path, o)
	if err != nil {
		return nil, nil, nil, err
	}
	read, err := openReader(path, o)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	var st *store.Store
	err = retryBusy(ctx, o, path, func() error {
		var err error
		st, err = store.OpenDB(ctx, path, db, read, store.Options{Now: o.Now})
		if err == nil {
			err = migrateTables(ctx, st, read)
		}
		return err
	})
	if err != nil {
		db.Close()
		read.Close()
		return nil, nil, nil, err
	}
	return st, db, read, nil
}

// tableMigrations returns the migrations of the territories tables.
func tableMigrations() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	return sub
}

// Migrate brings the territories tables of st up to date: those that
// Moved writes for arbiter serve's territories matches.
func Migrate(ctx context.Context, st *store.Store) error {
	return st.Migrate(ctx, tableMigrations(), versionTable)
}

// migrateTables brings the territories tables of a game file up to date,
// after making sure that a later Arbiter did not write them.
func migrateTables(ctx context.Context, st *store.Store, read *sql.DB) error {
	var v sql.NullInt64
	err := read.QueryRowContext(ctx, `SELECT MAX(version_id) FROM `+versionTable).Scan(&v)
	switch {
	case err != nil && !strings.Contains(err.Error(), "no such table"):
		return err
	case v.Int64 > SchemaVersion:
		return fmt.Errorf("%s: the database has schema version %d, newer than this Arbiter's %d; use a newer Arbiter", st.Target(), v.Int64, SchemaVersion)
	case err == nil && v.Int64 == SchemaVersion:
		return nil
	}
	return Migrate(ctx, st)
}

// Create makes a new game at path (which must not exist) from cfg, whose
// seed must be set, and its map's SVG, which must fit cfg (see mapdraw).
// The file is a store of live matches holding one match, the game.
func Create(ctx context.Context, path string, cfg *rules.Config, mapSVG []byte, o Options) (*Referee, error) {
	o = o.withDefaults()
	if cfg.Seed == nil {
		return nil, errors.New("create: the configuration has no seed")
	}
	if err := checkMapFiles(path, cfg); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
		return nil, fmt.Errorf("%s: cannot create the file: %w", path, unwrapPath(err))
	}
	f.Close()
	r, err := create(ctx, path, cfg, mapSVG, o)
	if err != nil {
		for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
			os.Remove(p)
		}
		return nil, explain(path, err)
	}
	return r, nil
}

func create(ctx context.Context, path string, cfg *rules.Config, mapSVG []byte, o Options) (*Referee, error) {
	if err := markFile(ctx, path, o); err != nil {
		return nil, err
	}
	st, db, read, err := openStore(ctx, path, o)
	if err != nil {
		return nil, err
	}
	m, err := newMatch(cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	err = inTx(ctx, db, func(tx *sql.Tx) error {
		if err := store.ImportTx(ctx, tx, m, nil); err != nil {
			return err
		}
		return newGameRows(ctx, tx, m.ID, mapSVG, rules.NewWorld(cfg), o.Now().UTC().Format(time.RFC3339Nano))
	})
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("create: %w", err)
	}
	return newReferee(path, st, db, read, m.ID, cfg, mapSVG, o)
}

// newMatch returns the match of a new game on cfg: territories' referee,
// its seed the configuration's and its board the configuration.
func newMatch(cfg *rules.Config) (*store.Match, error) {
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	return &store.Match{ID: hex.EncodeToString(id[:]), Game: gameName, Variant: rules.Referee{}.Info().Variant, RulesVersion: rules.RulesVersion,
		Mode: modeName, Setup: engine.Setup{Seed: cfg.SeedValue(), Players: []string{}, Options: map[string]string{"board": string(cfg.JSON())}},
		Config: []byte(hostConfig), Listed: true}, nil
}

// hostConfig is what arbiter serve keeps of a match beside its setup, for a
// game file: no seats; a judge, the application that calls; a seed its
// maker knows.
const hostConfig = `{"specs":[],"judge":true,"seeded":true,"time":{}}`

// newGameRows writes the rows of a new game file's match: its map, and the
// rules' state before the first action.
func newGameRows(ctx context.Context, tx *sql.Tx, id string, mapSVG []byte, w *rules.World, turnStarted string) error {
	snap, err := w.MarshalJSON()
	if err != nil {
		return err
	}
	return insertGame(ctx, tx, id, mapSVG, int64(w.Seq()), string(snap), turnStarted, 0)
}

// insertGame writes the rows of a game file's match in the
// territories_maps and territories_states tables.
func insertGame(ctx context.Context, tx *sql.Tx, id string, mapSVG []byte, seq int64, world, turnStarted string, mapSeq int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO territories_maps (match_id, svg) VALUES ($1, $2)`, id, string(mapSVG))
	if err == nil {
		_, err = tx.ExecContext(ctx, `INSERT INTO territories_states (match_id, seq, world, turn_started, map_seq) VALUES ($1, $2, $3, $4, $5)`,
			id, seq, world, turnStarted, mapSeq)
	}
	return err
}

// inTx runs fn in a transaction on db.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// markFile writes the application id into the new, empty file at path
// before anything else, in SQLite's rollback-journal mode, so that the
// file's own header says it is a store of live matches from its first
// write on (in WAL mode, the header would wait for a checkpoint). Its
// pages are of pageSize bytes.
func markFile(ctx context.Context, path string, o Options) error {
	db, err := sql.Open("sqlite", fmt.Sprintf("%s?_pragma=busy_timeout(%d)", path, o.BusyTimeout.Milliseconds()))
	if err != nil {
		return explain(path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d; PRAGMA application_id = %d", pageSize, applicationID)); err != nil {
		return explain(path, fmt.Errorf("create: %w", err))
	}
	return db.Close()
}

// Open opens the game at path. It first makes sure, without writing
// anything, that the file is a game of territories (see identify): any
// other file, SQLite or not, is left exactly as it was, and Open returns
// ErrNoGame with the reason. A game of the layout before the live store is
// converted first, in one transaction (see convert).
func Open(ctx context.Context, path string, o Options) (*Referee, error) {
	o = o.withDefaults()
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("%s: %w: a database path may not contain ? or #", path, ErrNoGame)
	}
	kind, err := identify(ctx, path)
	if err != nil {
		return nil, err
	}
	if kind == olderLayout {
		if err := convert(ctx, path, o); err != nil {
			return nil, explain(path, err)
		}
	}
	r, err := open(ctx, path, o)
	if err != nil {
		return nil, explain(path, err)
	}
	return r, nil
}

// Upgrade converts the game file of the layout before the live store at
// path, if it is one, in place and in one transaction (see convert), so
// that arbiter serve may open it as a store of live matches; it reports
// whether it did. Any other file, or none, is left as it is, for the
// caller to judge.
func Upgrade(ctx context.Context, path string) (bool, error) {
	if strings.ContainsAny(path, "?#") {
		return false, nil
	}
	if kind, err := identify(ctx, path); err != nil || kind != olderLayout {
		return false, nil
	}
	if err := convert(ctx, path, Options{}.withDefaults()); err != nil {
		return false, explain(path, err)
	}
	return true, nil
}

func open(ctx context.Context, path string, o Options) (*Referee, error) {
	st, db, read, err := openStore(ctx, path, o)
	if err != nil {
		return nil, err
	}
	r, err := load(ctx, path, st, db, read, o)
	if err != nil {
		st.Close()
		return nil, err
	}
	return r, nil
}

// load reads the game file's match and its map.
func load(ctx context.Context, path string, st *store.Store, db, read *sql.DB, o Options) (*Referee, error) {
	var id string
	var svg string
	if err := read.QueryRowContext(ctx, `SELECT m.id, g.svg FROM matches m JOIN territories_maps g ON g.match_id = m.id`).Scan(&id, &svg); err != nil {
		return nil, fmt.Errorf("%s: reading the game: %w", path, err)
	}
	m, err := st.Match(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the game: %w", path, err)
	}
	if m.RulesVersion != rules.RulesVersion {
		return nil, fmt.Errorf("%s: the game was made under territories rules version %q; this Arbiter has %q", path, m.RulesVersion, rules.RulesVersion)
	}
	cfg, err := configOf(m.Setup)
	if err != nil {
		return nil, fmt.Errorf("%s: the stored configuration: %w", path, err)
	}
	return newReferee(path, st, db, read, id, cfg, []byte(svg), o)
}

// configOf returns the configuration of a match's setup, as territories'
// referee reads it.
func configOf(setup engine.Setup) (*rules.Config, error) {
	m, err := rules.Referee{}.New(setup)
	if err != nil {
		return nil, err
	}
	return m.(*rules.Refereed).World().Config(), nil
}

// busy reports whether err is SQLite's "database is locked" or "busy".
func busy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == 5 || c == 6 // SQLITE_BUSY, SQLITE_LOCKED
	}
	return false
}
