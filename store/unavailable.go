package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Unavailable reports whether err is the database failing to be reached
// or written now, not a refusal of what was asked nor a fault of the
// server's: PostgreSQL down, restarting, cut off, out of connections or of
// disk, or a standby that takes no writes; an SQLite file locked by
// another process beyond Options.BusyTimeout, read-only, on a full or
// failing disk, moved away, or that cannot be opened; either closed by
// the server as it stops (Store.Close). A call that failed
// so was not acknowledged, and may succeed once the database is back: a
// move that failed so may have been stored (its commit was sent, and its
// answer lost), which a retry with the same Idempotency-Key answers. What
// no wait mends (a fault of the server's, which a client would send again
// forever) is not Unavailable.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch code := se.Code(); code & 0xff { // the primary code, of the extended ones
		case sqlitePerm, sqliteBusy, sqliteIOErr, sqliteFull, sqliteCantOpen, sqliteProtocol:
			return true
		case sqliteReadOnly:
			// The file's own (moved away, its lock or its WAL out of
			// reach) have an extended code. Plain, it is a write sent
			// through the store's handle of reads (query_only): a fault
			// of the server's, which no wait mends.
			return code != sqliteReadOnly
		}
		// SQLITE_LOCKED among them: a connection of this process in its
		// own way (a statement of its own still reading), a fault of the
		// server's too; another process's lock is SQLITE_BUSY.
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "08P01", // protocol_violation: the driver's fault or the server's, not the network's
			pe.Code == "53400": // configuration_limit_exceeded: the statement passes a setting, as it will again
			return false
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			strings.HasPrefix(pe.Code, "53"), // insufficient resources: disk full, out of memory, too many connections
			strings.HasPrefix(pe.Code, "58"), // system error: I/O
			pe.Code == "57P01",               // admin_shutdown
			pe.Code == "57P02",               // crash_shutdown
			pe.Code == "57P03",               // cannot_connect_now: starting up, shutting down, in recovery
			pe.Code == "25006":               // read_only_sql_transaction: a standby
			return true
		}
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// A caller's own end (its net.Error look notwithstanding).
		return false
	}
	return lost(err)
}

// lost reports whether err is a connection to the database that could not
// be made or broke off: refused, reset, cut short, timed out, its host
// unreachable or not found, its socket gone; a server that is not yet the
// primary (pgconn.NotPreferredError, during a failover); or the store's
// pool of connections closed, as it is while the server stops. Another
// fault met while connecting (a TLS handshake refused or a certificate not
// trusted, an authentication the connection's settings do not allow, an
// address that does not parse) is not: it lasts until the settings change.
func lost(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return true
	}
	// database/sql has no value of its own to compare with.
	if strings.HasSuffix(err.Error(), "sql: database is closed") {
		return true
	}
	var np *pgconn.NotPreferredError
	var dns *net.DNSError
	if errors.As(err, &np) || errors.As(err, &dns) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		return false
	}
	// TLS reports its alerts as the operations "local error" and "remote
	// error", and an address that does not parse fails the dial at once.
	var addr *net.AddrError
	var parse *net.ParseError
	var network net.UnknownNetworkError
	switch {
	case op.Op != "dial" && op.Op != "read" && op.Op != "write":
		return false
	case errors.As(op.Err, &addr), errors.As(op.Err, &parse), errors.As(op.Err, &network):
		return false
	}
	return true
}

// SQLite's primary result codes that say the file cannot be reached or
// written now (sqlite3.h).
const (
	sqlitePerm     = 3
	sqliteBusy     = 5
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteProtocol = 15
)
