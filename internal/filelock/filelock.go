// Package filelock locks open files for one process at a time: a store's
// SQLite file, a tournament's results file, a map being drawn. The system
// releases a lock when its process ends, however it ends.
//
// On Unix a lock is flock(2) on the whole file: advisory, and, on Linux, of
// another kind than SQLite's own (fcntl) locks, which it never meets; on
// macOS and the BSDs the two kinds meet (MeetsSQLite). On Windows it is
// LockFileEx on one byte far past any data (lockOffset): Windows locks are
// mandatory, and a lock on the data itself would refuse the reads and
// writes of the file's other handles (SQLite's).
//
// It locks a file already open, through the handle the caller writes
// with, which the libraries made for locking (they open a file of their
// own) do not.
package filelock

import "errors"

// ErrLocked is returned by TryLock when another process, or another
// handle of this one, holds the lock.
var ErrLocked = errors.New("the file is locked by another")

// MeetsSQLite says whether a lock taken here on an SQLite file may meet the
// locks SQLite takes on it, and make SQLite find its own file locked: true
// but on Linux (on macOS and the BSDs flock(2) and fcntl(2) locks are one
// kind; on Windows, whose locks are mandatory, it is not risked). An SQLite
// file is then held through a file beside it.
const MeetsSQLite = meetsSQLite
