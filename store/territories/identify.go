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

// gameTables are the tables every game of territories has had, from the
// first schema on.
var gameTables = []string{"game", "state", "actions", "nations", "holdings", "goose_db_version"}

// identify makes sure that path holds a game of territories before
// anything opens it for writing (SQLite would switch another application's
// file to WAL, and make an empty file a database). It reads the file's
// header: the application id says a game. A file without an id (0) may be
// a game made before every file carried one: identify looks inside it
// read-only (see olderGame). Nothing is written to the file or beside it.
// Any other file is ErrNoGame, with the reason.
func identify(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w: the file does not exist (create a game with arbiter territories init)", path, ErrNoGame)
		}
		return fmt.Errorf("%s: cannot read the file: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	switch {
	case st.IsDir():
		return fmt.Errorf("%s: %w: it is a directory", path, ErrNoGame)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %w: it is not a regular file (a game is an SQLite file made by arbiter territories init)", path, ErrNoGame)
	}
	var h [headerSize]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0 && (err == nil || err == io.EOF):
		return fmt.Errorf("%s: %w: the file is empty", path, ErrNoGame)
	case err != nil && err != io.ErrUnexpectedEOF:
		return fmt.Errorf("%s: cannot read the file: %w", path, unwrapPath(err))
	case n < headerSize || !bytes.HasPrefix(h[:], sqliteMagic):
		return fmt.Errorf("%s: %w: it is not an SQLite database", path, ErrNoGame)
	}
	switch id := binary.BigEndian.Uint32(h[applicationIDAt:]); id {
	case applicationID:
		return nil
	case 0:
		return olderGame(ctx, path)
	default:
		return fmt.Errorf("%s: %w: it is another application's SQLite database (application id %#08x)", path, ErrNoGame, id)
	}
}

// olderGame looks, read-only, into an SQLite file whose header has no
// application id: a game of territories made before the id was written
// first (its id may still wait in the WAL), or another application's
// file. A game has all of gameTables. When no WAL file waits beside it,
// the file is opened immutable (no lock, no -wal or -shm file made);
// else read-only, through its WAL.
func olderGame(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		u.RawQuery += "&immutable=1"
	}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var id int64
	var tables int
	err = db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id)
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?, ?, ?)`,
			gameTables[0], gameTables[1], gameTables[2], gameTables[3], gameTables[4], gameTables[5]).Scan(&tables)
	}
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w: SQLite cannot read it (%s)", path, ErrNoGame, sqliteText(err))
	case id == applicationID || (id == 0 && tables == len(gameTables)):
		return nil
	case id != 0:
		return fmt.Errorf("%s: %w: it is another application's SQLite database (application id %#08x)", path, ErrNoGame, id)
	}
	return fmt.Errorf("%s: %w: it is another application's SQLite database (no territories tables)", path, ErrNoGame)
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
