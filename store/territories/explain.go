package territories

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
)

// DBError is an SQLite failure on a game's file, explained: which file,
// what failed and, where the file system tells, why. Its message is one
// line, such as "game.db: SQLite cannot open the database: game.db-wal,
// beside it, is a directory (SQLite code 14)".
type DBError struct {
	Path string
	// Code is SQLite's extended result code.
	Code int
	msg  string
	err  error
}

// Error returns the explanation.
func (e *DBError) Error() string { return e.msg }

// Unwrap returns SQLite's own error.
func (e *DBError) Unwrap() error { return e.err }

// explain replaces SQLite's bare words in err ("disk I/O error (1034)",
// "unable to open database file (14)") with what failed and why, naming
// the file. Errors that are not SQLite's, or explained already, are
// returned as they are.
func explain(path string, err error) error {
	var se *sqlite.Error
	var de *DBError
	if err == nil || errors.As(err, &de) || !errors.As(err, &se) {
		return err
	}
	msg := strings.Replace(err.Error(), se.Error(), sqliteText(se), 1)
	if !strings.HasPrefix(msg, path+":") {
		msg = path + ": " + msg
	}
	return &DBError{Path: path, Code: se.Code(), msg: msg + cause(path, se.Code()), err: err}
}

// sqliteText says in words what SQLite's error code means, with the code.
func sqliteText(err error) string {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	return fmt.Sprintf("%s (SQLite code %d)", codeText(se.Code()), se.Code())
}

// ioErrors are the kinds of SQLite's disk I/O error (code 10), by
// extended code.
var ioErrors = map[int]string{
	266:  "reading the file failed",
	522:  "the file is shorter than SQLite expected",
	778:  "writing the file failed",
	1034: "the file system did not confirm a write to the disk (fsync failed)",
	1290: "the file system did not confirm the directory to the disk (fsync failed)",
	1546: "truncating the file failed",
	1802: "reading the file's size failed",
	2058: "unlocking the file failed",
	2314: "locking the file failed",
	2570: "deleting a journal beside the file failed",
	3338: "looking for the journal beside the file failed",
	3594: "locking the file failed",
	3850: "locking the file failed",
	4106: "closing the file failed",
	4618: "opening the shared-memory file (-shm) beside it failed",
	4874: "growing the shared-memory file (-shm) beside it failed",
	5130: "locking the shared-memory file (-shm) beside it failed",
	5386: "mapping the shared-memory file (-shm) beside it failed",
	5642: "seeking in the file failed",
}

// codeText is what an SQLite result code means for a game's file.
func codeText(code int) string {
	switch code & 0xff {
	case 3, 23: // SQLITE_PERM, SQLITE_AUTH
		return "permission denied"
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return "the database is locked by another process"
	case 8: // SQLITE_READONLY
		return "the database is read-only here"
	case 10: // SQLITE_IOERR
		what, ok := ioErrors[code]
		if !ok {
			what = "a disk I/O error"
		}
		return what + "; check the disk, that it has room, and that the file is on a local file system with locks (not a network share)"
	case 11: // SQLITE_CORRUPT
		return "the database file is damaged"
	case 13: // SQLITE_FULL
		return "the disk is full"
	case 14: // SQLITE_CANTOPEN
		return "SQLite cannot open the database"
	case 26: // SQLITE_NOTADB
		return "it is not an SQLite database"
	}
	if s, ok := sqlite.ErrorCodeString[code&0xff]; ok {
		return s
	}
	return "an SQLite error"
}

// cause looks, for an error that can come from the files and their
// directory, at what the file system says: ": its directory is not
// writable", or "" when nothing looks wrong.
func cause(path string, code int) string {
	switch code & 0xff {
	case 3, 8, 10, 13, 14:
	default:
		return ""
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		return fmt.Sprintf(": its directory %s cannot be read (%v)", dir, unwrapPath(err))
	} else if !st.IsDir() {
		return fmt.Sprintf(": %s is not a directory", dir)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Sprintf(": %s cannot be read (%v)", p, unwrapPath(err))
		case st.IsDir():
			return fmt.Sprintf(": %s is a directory, where SQLite keeps a file", p)
		case !st.Mode().IsRegular():
			return fmt.Sprintf(": %s is not a regular file", p)
		}
		if err := canWrite(p); err != nil {
			return fmt.Sprintf(": %s cannot be written (%v)", p, err)
		}
	}
	if err := canWrite(dir); err != nil {
		return fmt.Sprintf(": its directory %s cannot be written (%v); SQLite makes its -wal and -shm files there", dir, err)
	}
	return ""
}
