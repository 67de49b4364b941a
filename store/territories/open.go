// Package territories keeps a game of territories in an SQLite file: the
// referee that other applications drive, one action at a time.
//
// A [Referee] validates each action with the rules (games/territories),
// and in one transaction appends it to the log with its dice, updates the
// nations and holdings tables that other programs read, and saves the
// rules' state; only then does it answer. Two processes acting on the same
// file are serialised by the database (an immediate transaction per call,
// with a busy timeout and a bounded retry): no lost update, no double move.
// [Referee.SubmitBatch] takes many actions in one transaction, and
// [Referee.Submit] from many goroutines commits them in groups, so that
// durability costs one commit per group, not per action.
//
// The schema is versioned with goose migrations embedded in the binary
// (migrations/), so a later Arbiter opens an older file and brings it up to
// date. [Referee.Verify] replays the log into a fresh in-memory database
// and compares every table.
package territories

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// SchemaVersion is the newest migration: the schema this code writes.
const SchemaVersion = 3

// applicationID marks an SQLite file as a game of territories ("ARBT").
const applicationID = 0x41524254

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
	// database busy; default 60 s.
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

// dsn is the data source name of a database file: the busy timeout first,
// so that every later pragma waits for the lock; WAL, so that readers do
// not block the writer; immediate transactions, so that a writer takes
// the lock when it begins rather than failing when it first writes.
func dsn(path string, o Options) string {
	return fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(%s)&_pragma=foreign_keys(1)&_txlock=immediate",
		path, o.BusyTimeout.Milliseconds(), o.Synchronous)
}

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
	// One connection: this process writes one transaction at a time, and
	// one connection keeps its statements and pages warm.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// Create makes a new game at path (which must not exist) from cfg, whose
// seed must be set, and its map's SVG, which must fit cfg (see mapdraw).
func Create(ctx context.Context, path string, cfg *rules.Config, mapSVG []byte, o Options) (*Referee, error) {
	o = o.withDefaults()
	if cfg.Seed == nil {
		return nil, errors.New("create: the configuration has no seed")
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
	db, err := openDB(path, o)
	if err != nil {
		return nil, err
	}
	if err := initSchema(ctx, db, cfg, mapSVG, o.Now()); err != nil {
		db.Close()
		return nil, err
	}
	return newReferee(path, db, cfg, mapSVG, o)
}

// markFile writes the application id into the new, empty file at path
// before anything else, in SQLite's rollback-journal mode, so that the
// file's own header says it is a game of territories from its first write
// on (in WAL mode, the header would wait for a checkpoint).
func markFile(ctx context.Context, path string, o Options) error {
	db, err := sql.Open("sqlite", fmt.Sprintf("%s?_pragma=busy_timeout(%d)", path, o.BusyTimeout.Milliseconds()))
	if err != nil {
		return explain(path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return explain(path, fmt.Errorf("create: %w", err))
	}
	return db.Close()
}

// initSchema migrates an empty database and writes a new game into it.
func initSchema(ctx context.Context, db *sql.DB, cfg *rules.Config, mapSVG []byte, now time.Time) error {
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if err := migrate(ctx, db, SchemaVersion); err != nil {
		return err
	}
	world, err := rules.NewWorld(cfg).MarshalJSON()
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stamp := now.UTC().Format(time.RFC3339Nano)
	if _, err := tx.ExecContext(ctx, `INSERT INTO game (id, rules_version, config, map_svg, created) VALUES (1, ?, ?, ?, ?)`,
		rules.RulesVersion, string(cfg.JSON()), mapSVG, stamp); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO state (id, seq, world, turn_started) VALUES (1, 0, ?, ?)`, string(world), stamp); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	return tx.Commit()
}

// migrate brings db's schema up to version with the embedded migrations.
func migrate(ctx context.Context, db *sql.DB, version int64) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		return fmt.Errorf("migrating the database to schema version %d: %w", version, err)
	}
	return nil
}

// schemaVersion returns the newest migration applied to db, 0 for none.
func schemaVersion(ctx context.Context, db *sql.DB) (int64, error) {
	var v sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version`).Scan(&v)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return 0, nil
		}
		return 0, err
	}
	return v.Int64, nil
}

// Open opens the game at path, bringing an older schema up to date. It
// first makes sure, without writing anything, that the file is a game of
// territories (see identify): any other file, SQLite or not, is left
// exactly as it was, and Open returns ErrNoGame with the reason.
func Open(ctx context.Context, path string, o Options) (*Referee, error) {
	o = o.withDefaults()
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("%s: %w: a database path may not contain ? or #", path, ErrNoGame)
	}
	if err := identify(ctx, path); err != nil {
		return nil, err
	}
	db, err := openDB(path, o)
	if err != nil {
		return nil, explain(path, err)
	}
	r, err := open(ctx, path, db, o)
	if err != nil {
		db.Close()
		return nil, explain(path, err)
	}
	return r, nil
}

func open(ctx context.Context, path string, db *sql.DB, o Options) (*Referee, error) {
	var app int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return nil, notAGame(path, err)
	}
	if app != applicationID && app != 0 { // 0: an older game, which the migrations mark
		return nil, fmt.Errorf("%s: %w: it is not an Arbiter territories database", path, ErrNoGame)
	}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return nil, err
	}
	switch {
	case v > SchemaVersion:
		return nil, fmt.Errorf("%s: the database has schema version %d, newer than this Arbiter's %d; use a newer Arbiter", path, v, SchemaVersion)
	case v < SchemaVersion:
		if err := migrate(ctx, db, SchemaVersion); err != nil {
			// Another process may have migrated it first.
			if v2, err2 := schemaVersion(ctx, db); err2 != nil || v2 != SchemaVersion {
				return nil, err
			}
		}
	}
	var version, config string
	var svg []byte
	if err := db.QueryRowContext(ctx, `SELECT rules_version, config, map_svg FROM game WHERE id = 1`).Scan(&version, &config, &svg); err != nil {
		return nil, fmt.Errorf("%s: reading the game: %w", path, err)
	}
	if version != rules.RulesVersion {
		return nil, fmt.Errorf("%s: the game was made under territories rules version %q; this Arbiter has %q", path, version, rules.RulesVersion)
	}
	cfg, err := rules.ParseConfig([]byte(config))
	if err != nil {
		return nil, fmt.Errorf("%s: the stored configuration: %w", path, err)
	}
	return newReferee(path, db, cfg, svg, o)
}

// notAGame says that a file SQLite cannot read is no game.
func notAGame(path string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == 26 { // SQLITE_NOTADB
		return fmt.Errorf("%s: %w: it is not an SQLite database", path, ErrNoGame)
	}
	return err
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
