package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
)

// apiError is a refusal, as every answer but a success is:
// {"error": {"code", "message"}} with its HTTP status.
type apiError struct {
	status  int
	code    string
	message string
	// retry, on a refusal for going too fast or for the database being
	// unavailable, is how long to wait before the call can succeed, in
	// whole milliseconds: sent as Retry-After (whole seconds, rounded
	// up) and as retry_after_ms in the error.
	retry time.Duration
}

func (e *apiError) Error() string { return e.message }

func refuse(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// rateLimited refuses a call that comes too fast: 429, with how long to wait.
func rateLimited(wait time.Duration, format string, args ...any) *apiError {
	e := refuse(http.StatusTooManyRequests, "rate-limited", format, args...)
	e.retry = retryAfter(wait)
	e.message += fmt.Sprintf("; wait %v", e.retry)
	return e
}

// unavailableWait is how long a call that met the database unavailable
// is told to wait before it is sent again: a PostgreSQL restarting, or a
// lock on an SQLite file, often lasts seconds.
const unavailableWait = 2 * time.Second

// unavailable refuses a call that met the database unavailable
// (store.Unavailable): 503, with how long to wait. Nothing of the call was
// acknowledged; a move may have been stored all the same (its commit was
// sent, its answer lost), which its retry with the same Idempotency-Key
// is answered as.
func unavailable() *apiError {
	e := refuse(http.StatusServiceUnavailable, "unavailable", "the server cannot reach its database, or cannot write to it, now (the server's log says why); nothing of this call was acknowledged: send it again in %v (a move with the same Idempotency-Key, which is never made twice)", unavailableWait)
	e.retry = unavailableWait
	return e
}

// unguarded is err, or, when err is the database unavailable (store.
// Unavailable) for a move that answers no request and carries neither an
// Idempotency-Key nor expect_seq (a judge's command, a named player's
// action, a correction), its refusal saying that the move may have been
// stored all the same and, sent again, be made twice: nothing tells its
// retry from a second move. The wait is the same; what to do after it
// is to read the match first.
func unguarded(sub store.Submission, err error) error {
	if sub.Key != "" || sub.Request >= 0 || sub.ExpectSeq >= 0 || !store.Unavailable(err) {
		return err
	}
	e := unavailable()
	e.message = fmt.Sprintf("the server cannot reach its database, or cannot write to it, now (the server's log says why); this move was not acknowledged, but it may have been stored as the database went away, and with neither an Idempotency-Key nor expect_seq it may be made twice if sent again: in %v, read the match (its seq and last moves) before sending it again, and send moves with an Idempotency-Key, with which a retry is never made twice", unavailableWait)
	return e
}

// retryAfter is how long a refused call is told to wait: the first whole
// millisecond past the wait (12 ms is told 13, 1.7 ms 2), so that the
// message's wait and retry_after_ms say the same, and never 0s (a wait
// under half a millisecond was told as "wait 0s", while retry_after_ms
// said 1).
func retryAfter(wait time.Duration) time.Duration {
	return time.Duration(wait.Milliseconds()+1) * time.Millisecond
}

// The refusals every handler may give.
var (
	errNoSecret   = refuse(http.StatusUnauthorized, "unauthorized", "no secret, or a secret this server does not know; send Authorization: Bearer SECRET, the secret of a seat, of a named player or of the judge")
	errNotYours   = refuse(http.StatusForbidden, "forbidden", "this secret is another match's: each match's links carry secrets of its own; send one of this match's (a seat's, a named player's or the judge's), or none to watch it")
	errJudgeOnly  = refuse(http.StatusForbidden, "judge-only", "only the match's judge may do this; send the judge's secret (its link was given when the match was created)")
	errSeatOnly   = refuse(http.StatusForbidden, "seat-only", "only a seat's player may do this; send the seat's secret")
	errCreateOnly = refuse(http.StatusForbidden, "create-forbidden", "this server lets only holders of its creation secret create matches; send Authorization: Bearer CREATE-SECRET")
)

// writeError answers err: an apiError as it is, the store's and the
// rules' refusals with their status, and anything else as a 500 whose
// detail goes to the log only.
// isMistake reports whether err refuses a call for what it asked (a body
// that does not read, an option or a player that is not there), not for
// the server's own failure.
func isMistake(err error) bool {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.status >= 400 && ae.status < 500
	}
	return catalog.IsInvalid(err)
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var re *engine.RuleError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &re):
		ae = refuse(http.StatusUnprocessableEntity, "refused", "%s", re.Msg)
		if re.Code != "" {
			ae.code = re.Code
		}
	case errors.Is(err, store.ErrNoMatch):
		ae = s.noMatch()
	case errors.Is(err, store.ErrStale):
		what := "the request is no longer open"
		var se *store.StaleError
		if errors.As(err, &se) {
			what = se.Detail()
		}
		switch {
		case se != nil && se.Another():
			ae = refuse(http.StatusConflict, "stale-request", "%s: a seat answers its own requests only; read the match for them", what)
		case se != nil && se.Owner >= 0:
			ae = refuse(http.StatusConflict, "stale-request", "%s (perhaps by its default: its time ran out, its seat resigned, or the judge played the defaults); read the match again for the requests open now", what)
		default:
			ae = refuse(http.StatusConflict, "stale-request", "%s: it was answered (perhaps by its default: its time ran out, its seat resigned, or the judge played the defaults), or never asked; read the match again for the requests open now", what)
		}
	case errors.Is(err, store.ErrMoved):
		ae = refuse(http.StatusConflict, "moved", "%v; read the match again", err)
	case errors.Is(err, store.ErrOver):
		ae = refuse(http.StatusConflict, "over", "%v", err)
	case errors.Is(err, store.ErrNotRunning):
		ae = refuse(http.StatusConflict, "over", "the match is over; it takes no more changes")
	case errors.Is(err, store.ErrKeyTaken):
		ae = refuse(http.StatusUnprocessableEntity, "idempotency-key-reused", "you sent this Idempotency-Key with another request to this match; give each move a key of its own")
	case errors.Is(err, errRulesGone):
		ae = refuse(http.StatusConflict, "rules-version", "%v", err)
	case catalog.IsInvalid(err):
		ae = refuse(http.StatusBadRequest, "invalid", "%v", err)
	case r.Context().Err() != nil:
		// The client went away: nobody reads the answer.
		ae = refuse(http.StatusServiceUnavailable, "cancelled", "the request was cancelled")
	case store.Unavailable(err):
		s.log.WarnContext(r.Context(), "the database is unavailable", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		ae = unavailable()
	default:
		s.log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		ae = refuse(http.StatusInternalServerError, "internal", "the server failed; it is in the server's log")
	}
	if ae.retry > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(ae.retry.Seconds())), 10))
		writeJSON(w, ae.status, map[string]any{"error": map[string]any{"code": ae.code, "message": ae.message, "retry_after_ms": ae.retry.Milliseconds()}})
		return
	}
	writeJSON(w, ae.status, map[string]any{"error": map[string]string{"code": ae.code, "message": ae.message}})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"the answer could not be written"}}`)
	}
	writeRaw(w, status, b)
}

// writeRaw answers b, JSON already.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// noMatch is the refusal of a match that is not here: its id is wrong, or
// it ended long enough ago to be archived (--keep).
func (s *Server) noMatch() *apiError {
	if s.cfg.Keep <= 0 {
		return refuse(http.StatusNotFound, "no-match", "no such match here: check its link")
	}
	return refuse(http.StatusNotFound, "no-match", "no such match here: its link may be wrong, or the match ended and, untouched for %s, was archived (its record is kept in the server's archive)", lasting(s.cfg.Keep))
}

// lasting says a duration as people do: 30 days, 2 hours, 90 seconds.
func lasting(d time.Duration) string {
	n, unit := int64(d/time.Second), "second"
	switch {
	case d%time.Second != 0:
		return d.String() // 300ms, 1.5s
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		n, unit = int64(d/(24*time.Hour)), "day"
	case d >= 2*time.Hour && d%time.Hour == 0:
		n, unit = int64(d/time.Hour), "hour"
	case d >= 2*time.Minute && d%time.Minute == 0:
		n, unit = int64(d/time.Minute), "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}
