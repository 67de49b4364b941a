package territories

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
)

// sqliteMagic begins every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// headerSize is the size of an SQLite file's header, and applicationIDAt
// where in it the application id is kept (4 bytes, big-endian).
const (
	headerSize      = 100
	applicationIDAt = 68
)

// olderApplicationID marked a game file of the layout before the live
// store ("ARBT").
const olderApplicationID = 0x41524254

// olderTables are the tables every game file of the layout before had,
// from its first schema on.
var olderTables = []string{"game", "state", "actions", "nations", "holdings", "goose_db_version"}

// layout is what identify found at a path.
type layout int

const (
	storeLayout layout = iota + 1 // a store of live matches holding one game
	olderLayout                   // a game file of the layout before the live store
)

// identify makes sure that path holds a game of territories before
// anything opens it for writing (SQLite would switch another application's
// file to WAL, and make an empty file a database). It reads the file's
// header: the application id says a store of live matches (ARBL) or a game
// file of the layout before (ARBT). A store must hold one match, a game
// of territories' referee made by arbiter territories init: identify looks
// inside it read-only. A file without an id (0) may be a game file made
// before every file carried one, or a store whose id still waits in its
// WAL: identify looks inside it too. Nothing is written to the file or
// beside it. Any other file is ErrNoGame, with the reason.
func identify(ctx context.Context, path string) (layout, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("%s: %w: the file does not exist (create a game with arbiter territories init)", path, ErrNoGame)
		}
		return 0, fmt.Errorf("%s: cannot read the file: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	switch {
	case st.IsDir():
		return 0, fmt.Errorf("%s: %w: it is a directory", path, ErrNoGame)
	case !st.Mode().IsRegular():
		return 0, fmt.Errorf("%s: %w: it is not a regular file (a game is an SQLite file made by arbiter territories init)", path, ErrNoGame)
	}
	var h [headerSize]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0 && (err == nil || err == io.EOF):
		return 0, fmt.Errorf("%s: %w: the file is empty", path, ErrNoGame)
	case err != nil && err != io.ErrUnexpectedEOF:
		return 0, fmt.Errorf("%s: cannot read the file: %w", path, unwrapPath(err))
	case n < headerSize || !bytes.HasPrefix(h[:], sqliteMagic):
		return 0, fmt.Errorf("%s: %w: it is not an SQLite database", path, ErrNoGame)
	}
	id := binary.BigEndian.Uint32(h[applicationIDAt:])
	switch id {
	case olderApplicationID, applicationID, 0:
		return lookInside(ctx, path, id)
	default:
		return 0, fmt.Errorf("%s: %w: it is another application's SQLite database (application id %#08x)", path, ErrNoGame, id)
	}
}

// lookInside looks, read-only, into an SQLite file whose header names it
// ours (headerID), or with no application id: a game file of the layout before has all of olderTables, a
// store the store's tables and those of territories. When no WAL file
// waits beside the file, it is opened immutable (no lock, no -wal or -shm
// file made); else read-only, through its WAL, whose id may differ from
// the header's. A file whose header names it ours that SQLite cannot read
// is an environment's failure, explained, not another application's file.
//
// An immutable read takes no lock, so a process converting the file at that
// moment can make it look damaged: a read that fails so is made again with
// SQLite's locks (read-only, through the WAL), which waits for the writer
// and sees the file before or after its transaction.
func lookInside(ctx context.Context, path string, headerID uint32) (layout, error) {
	immutable := true
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 0 {
		immutable = false
	}
	kind, err := lookInsideOnce(ctx, path, headerID, immutable)
	if err != nil && immutable && errors.Is(err, errUnreadable) {
		kind, err = lookInsideOnce(ctx, path, headerID, false)
	}
	return kind, err
}

// errUnreadable marks a file SQLite could not read.
var errUnreadable = errors.New("SQLite cannot read it")

func lookInsideOnce(ctx context.Context, path string, headerID uint32, immutable bool) (layout, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}
	if immutable {
		u.RawQuery += "&immutable=1"
	} else {
		u.RawQuery += "&_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var id int64
	var older, ours int
	err = db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id)
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?, ?, ?)`,
			olderTables[0], olderTables[1], olderTables[2], olderTables[3], olderTables[4], olderTables[5]).Scan(&older)
	}
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('matches', 'moves', 'territories_maps')`).Scan(&ours)
	}
	switch {
	case err != nil && immutable:
		return 0, fmt.Errorf("%s: %w: %w (%s)", path, ErrNoGame, errUnreadable, sqliteText(err))
	case err != nil && headerID != 0:
		return 0, explain(path, err)
	case err != nil:
		return 0, fmt.Errorf("%s: %w: %w (%s)", path, ErrNoGame, errUnreadable, sqliteText(err))
	case (id == olderApplicationID || id == 0) && older == len(olderTables):
		return olderLayout, nil
	case id == applicationID || (id == 0 && ours > 0):
		return storeLayout, oneGame(ctx, db, path, ours)
	case id == olderApplicationID:
		return 0, fmt.Errorf("%s: %w: it is marked as a game of territories but lacks its tables; the file is damaged", path, ErrNoGame)
	case id != 0:
		return 0, fmt.Errorf("%s: %w: it is another application's SQLite database (application id %#08x)", path, ErrNoGame, id)
	}
	return 0, fmt.Errorf("%s: %w: it is another application's SQLite database (no territories tables)", path, ErrNoGame)
}

// oneGame checks that a store of live matches holds one match, a game of
// territories' referee that arbiter territories init made.
func oneGame(ctx context.Context, db *sql.DB, path string, tables int) error {
	const serve = "it is a database of live matches (arbiter serve's)"
	if tables < 3 {
		return fmt.Errorf("%s: %w: %s, with no game file's tables", path, ErrNoGame, serve)
	}
	rows, err := db.QueryContext(ctx, `SELECT m.id, m.game, m.mode, g.match_id IS NOT NULL FROM matches m LEFT JOIN territories_maps g ON g.match_id = m.id ORDER BY m.created LIMIT 2`)
	if err != nil {
		return fmt.Errorf("%s: %w: SQLite cannot read it (%s)", path, ErrNoGame, sqliteText(err))
	}
	defer rows.Close()
	type match struct {
		id, game, mode string
		file           bool
	}
	var found []match
	for rows.Next() {
		var m match
		if err := rows.Scan(&m.id, &m.game, &m.mode, &m.file); err != nil {
			return fmt.Errorf("%s: %w: SQLite cannot read it (%s)", path, ErrNoGame, sqliteText(err))
		}
		found = append(found, m)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w: SQLite cannot read it (%s)", path, ErrNoGame, sqliteText(err))
	}
	switch {
	case len(found) == 0:
		return fmt.Errorf("%s: %w: %s, holding no match (a game whose init did not finish?)", path, ErrNoGame, serve)
	case len(found) > 1:
		return fmt.Errorf("%s: %w: %s, holding several matches; a game file holds one", path, ErrNoGame, serve)
	case found[0].game != gameName || found[0].mode != modeName:
		return fmt.Errorf("%s: %w: %s, whose match %s is a game of %s (mode %q), not territories' referee", path, ErrNoGame, serve, found[0].id, found[0].game, found[0].mode)
	case !found[0].file:
		return fmt.Errorf("%s: %w: %s, whose match %s was not made by arbiter territories init (it has no map)", path, ErrNoGame, serve, found[0].id)
	}
	return nil
}

// unwrapPath drops the *fs.PathError's own operation and path, which the
// message names already: "permission denied".
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
