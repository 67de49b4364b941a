package player

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
)

// Expiry says what happens when an external player's time for a decision,
// its bank included, runs out.
type Expiry uint8

// Expiry policies.
const (
	// ExpireDefault plays the request's default move and records a timeout;
	// the seat is asked again next time.
	ExpireDefault Expiry = iota
	// ExpireForfeit plays the default and forfeits the seat: it gets the
	// default move for every later decision, and its program is stopped.
	ExpireForfeit
)

// ParseExpiry reads "default" or "forfeit".
func ParseExpiry(s string) (Expiry, error) {
	switch s {
	case "default":
		return ExpireDefault, nil
	case "forfeit":
		return ExpireForfeit, nil
	}
	return 0, fmt.Errorf("--on-timeout %q: give default (play the default move) or forfeit (give up the seat)", s)
}

// External says how external players are run: programs (exec:COMMAND) and
// remote bots (http:// or https:// URLs).
type External struct {
	// Logs keeps each program's standard error, within a budget per seat
	// over the run; nil keeps them in the system's temporary directory.
	Logs *Logs
	// Expiry is the policy when a decision's time and bank run out.
	Expiry Expiry
	// Strikes is how many faults (timeouts, garbage, a line too long) a seat
	// may commit before it is forfeited; 0 means no limit.
	Strikes int
	// Grace is allowed beyond every deadline, for the scheduler's jitter: a
	// bot is told its deadline, and is late only after deadline + Grace.
	Grace time.Duration
	// Client makes the HTTP requests of remote bots; nil means a client
	// that follows no redirect to another host.
	Client *http.Client
	// Env adds to a program's environment: NAME=VALUE, or NAME to pass
	// Arbiter's own value. A program gets nothing else of Arbiter's
	// environment but PATH and LANG.
	Env []string
	// Limits are the resource limits of a program's processes.
	Limits Limits
	// Sandbox runs each program under bubblewrap: no network, its own
	// PID namespace and /proc, a read-only file system.
	Sandbox bool
	// Outputs are the files and directories the run writes, which a
	// sandboxed program does not see; nil hides only the logs.
	Outputs *Outputs
	// Names, if set, keeps the names programs give themselves in ready,
	// for standings and reports.
	Names *Names
	// Run identifies the run (a series, a tournament) in every match's id
	// (MatchID); empty means an id drawn once per process.
	Run string
}

// DefaultGrace is the jitter allowed beyond a deadline when none is given.
const DefaultGrace = 20 * time.Millisecond

// defaultStartup bounds the hello of a seat that has no deadline at all.
const defaultStartup = 30 * time.Second

// MaxAnswerHeader bounds the headers of a remote bot's HTTP answer, in
// bytes, as maxLine bounds its body: Go's own limit, 10 MB, would let one
// answer cost tens of MB of memory.
const MaxAnswerHeader = 64 << 10

// defaultClient is the client of remote bots: it follows a redirect only to
// the same host, so that a bot's address cannot send Arbiter elsewhere; it
// reads headers of up to MaxAnswerHeader bytes.
var defaultClient = &http.Client{
	Transport: boundedTransport(),
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
			return fmt.Errorf("a redirect to another host (%s), which Arbiter does not follow", req.URL.Host)
		}
		return nil
	},
}

// boundedTransport is Go's default transport with answers' headers bounded
// by MaxAnswerHeader.
func boundedTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = MaxAnswerHeader
	return t
}

// IsExternal reports whether a player spec names an external player:
// exec:COMMAND, or an http:// or https:// URL.
func IsExternal(spec string) bool {
	return strings.HasPrefix(spec, "exec:") || strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://")
}

// Remote is a player outside Arbiter's process, speaking the protocol of
// docs/protocol.md: a program on standard input and output (exec:), or a
// bot behind a URL. It keeps its own time (engine.SelfTimed): each decision
// has its deadline, plus whatever is left of the seat's bank.
type Remote[M, V any] struct {
	// Spec is "exec:COMMAND" or a URL.
	Spec string
	Ext  External

	log   *seatLog // its logs' budget, over every match it plays
	match string   // the match under way's id, and the seat
	seat  int
	mu    sync.Mutex // guards conn and stopping against Close from another goroutine
	conn  conn
	// stopping is closed once the program last taken from conn has been
	// stopped, by stop or by Close; a Close that finds no conn waits for it.
	stopping chan struct{}
	tc       engine.TimeControl
	bank     time.Duration
	strikes  int
	// late holds the ids of the match's requests that the bot was sent
	// and did not answer in time: an answer to one of them is ignored, an
	// answer to any other id but the request's is garbage.
	late map[int64]bool
	// named is the name the bot gave in the ready of the match under way
	// or the last one (ReadyName), guarded by mu.
	named string
}

// NewRemote returns a player for an external spec. Its logs have a budget of
// their own (External.Logs).
func NewRemote[M, V any](spec string, ext External) *Remote[M, V] {
	return newRemote[M, V](spec, ext, ext.Logs.seat(RecordName(spec)))
}

func newRemote[M, V any](spec string, ext External, log *seatLog) *Remote[M, V] {
	return &Remote[M, V]{Spec: spec, Ext: ext, log: log}
}

// SelfTimed marks the player as keeping its own time.
func (r *Remote[M, V]) SelfTimed() {}

func (r *Remote[M, V]) grace() time.Duration {
	if r.Ext.Grace > 0 {
		return r.Ext.Grace
	}
	return DefaultGrace
}

// Start starts the program (or greets the URL), says hello and waits for
// ready within the start-up deadline.
func (r *Remote[M, V]) Start(ctx context.Context, info engine.MatchInfo) error {
	r.Close() // a previous match's program, if any
	r.mu.Lock()
	r.named = ""
	r.mu.Unlock()
	r.tc, r.bank, r.strikes, r.late = info.Time, info.Time.Bank, 0, map[int64]bool{}
	r.match, r.seat = matchID(r.Ext, info), info.Seat
	c, err := dial(r.Spec, r.Ext, r.log, info)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.conn = c
	r.mu.Unlock()
	hello, err := json.Marshal(Hello{
		Type: "hello", Match: r.match, Protocol: ProtocolVersion, Game: info.Ruleset, Variant: info.Variant, RulesVersion: info.RulesVersion,
		Seat: info.Seat, Players: DisplayNames(info.Players), Options: info.Options, Seed: info.Seed, Time: limits(info.Time),
	})
	if err != nil {
		return err
	}
	startup := info.Time.StartDeadline
	if startup <= 0 {
		startup = defaultStartup
	}
	line, err := c.call(ctx, hello, time.Now().Add(startup+r.grace()))
	if err != nil {
		r.Close()
		if errors.Is(err, errTimeout) {
			err = fmt.Errorf("no ready within the start-up limit of %v (--startup)%s", startup, silenceHint(err))
		} else {
			err = fmt.Errorf("no ready after hello: %w", err)
		}
		if ctx.Err() != nil {
			return err // play is stopping: not the bot's fault
		}
		// A program that exits, or says nothing in time, before its ready
		// has not started: a start fault, whatever its exit code.
		return engine.Faulted(engine.FaultStart, err)
	}
	var ready Ready
	if err := decodeObject(line, &ready); err != nil || ready.Type != "ready" {
		r.Close()
		return engine.Faulted(engine.FaultStart, fmt.Errorf("answered hello with %s%s; want {\"type\": \"ready\"}, and its \"name\", if it gives one, a string%s", quote(line), fieldProblem(err)+typeCase(err, ready.Type, "ready"), notJSONHint(c, line, err)))
	}
	r.Ext.Names.Wish(RecordName(r.Spec), ready.Name)
	r.mu.Lock()
	r.named = ReadyName(ready.Name)
	r.mu.Unlock()
	return nil
}

// ReadyName is the name the bot gave itself in its ready in the match
// under way, or in the last one it played, as standings show it
// (ReadyName); "" when it gave none, or did not start. A tournament keeps
// it in each game's result, so that standings made from results files
// call the bot as the run's did.
func (r *Remote[M, V]) ReadyName() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.named
}

// Decide sends the request with the seat's view and waits for the move.
func (r *Remote[M, V]) Decide(ctx context.Context, req *engine.Request[M], view V) (M, error) {
	decide, err := r.Prepare(req, view)
	if err != nil {
		var zero M
		return zero, err
	}
	return decide(ctx)
}

// Prepare takes the request and the seat's view as JSON, and returns the
// decision: sending them (with the bank as it is then) and waiting for the
// move.
func (r *Remote[M, V]) Prepare(req *engine.Request[M], view V) (func(ctx context.Context) (M, error), error) {
	deadline := req.Deadline
	msg := RequestMessage[json.RawMessage, json.RawMessage]{Type: "request", ID: req.ID, Kind: string(req.Kind), Class: className(req.Class), DeadlineMS: ms(deadline)}
	var err error
	if msg.View, err = json.Marshal(view); err != nil {
		return nil, fmt.Errorf("the view cannot be written as JSON: %v", err)
	}
	if msg.Default, err = json.Marshal(req.Default); err != nil {
		return nil, fmt.Errorf("the default move cannot be written as JSON: %v", err)
	}
	for _, c := range req.Choices {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("a choice cannot be written as JSON: %v", err)
		}
		msg.Choices = append(msg.Choices, b)
	}
	return func(ctx context.Context) (M, error) {
		msg.Match, msg.Seat, msg.BankMS = r.match, r.seat, ms(r.bank)
		b, err := json.Marshal(msg)
		if err != nil {
			var zero M
			return zero, fmt.Errorf("the request cannot be written as JSON: %v", err)
		}
		return r.decide(ctx, b, msg.ID, req.Kind, msg.Default, deadline)
	}, nil
}

// decide sends msg, the request id with its kind, its default move (as
// JSON) and its deadline, and waits for the move.
func (r *Remote[M, V]) decide(ctx context.Context, msg []byte, id int64, kind engine.Kind, def json.RawMessage, deadline time.Duration) (M, error) {
	var zero M
	r.mu.Lock()
	c := r.conn
	r.mu.Unlock()
	if c == nil {
		return zero, engine.Faulted(engine.FaultAbandoned, fmt.Errorf("the program is not running: %w", engine.ErrForfeit))
	}
	start := time.Now()
	var limit time.Time
	if deadline > 0 {
		limit = start.Add(deadline + r.bank + r.grace())
	}
	bank := r.bank
	line, err := c.call(ctx, msg, limit)
	for {
		if err != nil {
			if errors.Is(err, errTimeout) && ctx.Err() == nil {
				err = &timedOut{fmt.Sprintf("no answer within its %v deadline and %v of bank left%s",
					deadline, bank.Round(time.Millisecond), silenceHint(err))}
			}
			if errors.Is(err, errTimeout) || errors.Is(err, errBlocked) {
				// The request may be read and answered later: its
				// answer, then, is late, not garbage.
				r.givenUp(id)
			}
			return zero, r.fault(ctx, err)
		}
		var m moveAnswer
		if err := decodeObject(line, &m); err != nil || m.Type != "move" {
			// The bot's answer to this request may still come, after
			// the line that was not one: it is late then, and the bot
			// stays in step with its requests.
			r.givenUp(id)
			why := fmt.Errorf("answered %s%s; want {\"type\": \"move\", \"id\": %d, \"move\": ...}%s", quote(line), fieldProblem(err)+typeCase(err, m.Type, "move"), id, notJSONHint(c, line, err))
			return zero, r.fault(ctx, engine.Faulted(engine.FaultGarbage, why))
		}
		if m.ID != id {
			if !r.late[m.ID] {
				r.givenUp(id)
				why := fmt.Errorf("answered request %d, which it was not asked or has answered; the request is %d", m.ID, id)
				if !hasField(line, "id") {
					why = fmt.Errorf("sent a move with no id; a move carries the id of the request it answers (%d)", id)
				}
				return zero, r.fault(ctx, engine.Faulted(engine.FaultGarbage, why))
			}
			// A late answer to an earlier request: it was defaulted.
			delete(r.late, m.ID)
			line, err = c.next(ctx, limit)
			continue
		}
		// The answer to this request, whatever it holds, pays its
		// overrun from the bank: one that says it could not decide, or
		// holds no move, took the time as a move would have.
		if deadline > 0 {
			if over := time.Since(start) - deadline; over > 0 {
				r.bank = max(r.bank-over, 0)
			}
		}
		if why, failed := m.failure(); failed {
			// The bot says it could not decide: its move, if any, is
			// not played, and its words are the fault's.
			return zero, r.fault(ctx, engine.Faulted(engine.FaultError, errors.New(said(why))))
		}
		if len(m.Move) == 0 {
			return zero, r.fault(ctx, engine.Faulted(engine.FaultGarbage,
				fmt.Errorf("sent a move with no \"move\"; want {\"type\": \"move\", \"id\": %d, \"move\": ...}, the move being the game's own JSON", id)))
		}
		if engine.NullMove(m.Move) {
			// Some games' types would read null as a move (a value's
			// zero, an empty plan), which the rules would then refuse:
			// it is no move of any game, and garbage in every one.
			return zero, r.fault(ctx, engine.Faulted(engine.FaultGarbage,
				fmt.Errorf("answered move null, which is not a move of this game: a move is the game's own JSON, as the request's \"default\" is: %.200s", def)))
		}
		var mv M
		if err := unmarshalMove(m.Move, &mv); err != nil {
			var again M
			if worded := engine.DecodeJSON(m.Move, &again); worded != nil {
				err = engine.AsMove(worded) // the same error, in the game's words, not Go's
			}
			err = engine.MoveShapeError[M](kind, m.Move, err) // what a move of the request's kind is
			return zero, r.fault(ctx, engine.Faulted(engine.FaultGarbage,
				fmt.Errorf("answered move %s, which is not a move of this game: %v", quote(m.Move), err)))
		}
		return mv, nil
	}
}

// moveAnswer is a move message as Arbiter reads it: its "error" may be
// any JSON value (see failure).
type moveAnswer struct {
	Type  string          `json:"type"`
	ID    int64           `json:"id"`
	Move  json.RawMessage `json:"move"`
	Error json.RawMessage `json:"error"`
}

// failure reports whether the answer says the bot could not decide, and
// in which words: a string's text, or the JSON text of any other value
// (`{"code":3}`). An "error" left out, empty, null or false says nothing.
func (m *moveAnswer) failure() (why string, failed bool) {
	raw := bytes.TrimSpace(m.Error)
	switch string(raw) {
	case "", `""`, "null", "false":
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw), true
	}
	return b.String(), true
}

// unmarshalMove reads a move's JSON into mv: a field of the move named in
// another case than the game's is refused, as it is where the game reads
// the move itself.
func unmarshalMove(data []byte, mv any) error {
	if err := json.Unmarshal(data, mv); err != nil {
		return err
	}
	return engine.ExactFieldNames(data, mv)
}

// givenUp notes that request id got no answer in time, or none that was
// one: an answer to it that comes later is late, and is passed over.
func (r *Remote[M, V]) givenUp(id int64) {
	if r.late == nil {
		r.late = map[int64]bool{}
	}
	r.late[id] = true
}

// hasField reports whether line is a JSON object with the field name.
func hasField(line []byte, name string) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return false
	}
	_, ok := fields[name]
	return ok
}

// fault counts a strike and says what the runner should do with err: a
// crash forfeits the seat; a timeout or a blocked write spends the bank,
// and forfeits under the forfeit policy; the last strike forfeits. The
// program of a seat forfeited is stopped at once (see stop).
func (r *Remote[M, V]) fault(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err // play is stopping: not the bot's fault
	}
	err = r.strike(err)
	if errors.Is(err, engine.ErrForfeit) {
		r.stop()
	}
	return err
}

// strike counts a strike for err and says what it costs the seat.
func (r *Remote[M, V]) strike(err error) error {
	r.strikes++
	switch {
	case errors.Is(err, errExited):
		return fmt.Errorf("%w; %w", err, engine.ErrForfeit)
	case errors.Is(err, errTimeout), errors.Is(err, errBlocked):
		r.bank = 0
		kind := engine.FaultTimeout
		if errors.Is(err, errBlocked) {
			kind = engine.FaultBlocked
		}
		if r.Ext.Expiry == ExpireForfeit {
			return engine.Faulted(kind, fmt.Errorf("%w; the seat forfeits on timeout: %w", err, engine.ErrForfeit))
		}
		if !errors.Is(err, engine.ErrDeadline) {
			err = fmt.Errorf("%w: %w", err, engine.ErrDeadline)
		}
		err = engine.Faulted(kind, err)
	}
	if r.Ext.Strikes > 0 && r.strikes >= r.Ext.Strikes {
		return fmt.Errorf("%w; strike %d of %d: %w", err, r.strikes, r.Ext.Strikes, engine.ErrForfeit)
	}
	return err
}

// Finish tells the bot the result, says bye and stops it.
func (r *Remote[M, V]) Finish(ctx context.Context, res engine.Result) {
	r.mu.Lock()
	c := r.conn
	r.mu.Unlock()
	if c != nil {
		if b, err := json.Marshal(ResultMessage{Type: "result", Match: r.match, Seat: r.seat, Result: res}); err == nil {
			_ = c.tell(b)
		}
	}
	r.Close()
}

// Close stops the bot, if it runs: it says bye, waits a moment for the
// program to exit, then kills its whole process group. It is safe to call
// at any time, more than once, from any goroutine. It returns once the
// program is stopped, a program given up by stop too.
func (r *Remote[M, V]) Close() error {
	r.mu.Lock()
	c, stopping := r.conn, r.stopping
	if c == nil {
		// Stopped, or being stopped by stop or another Close: wait for it.
		r.mu.Unlock()
		if stopping != nil {
			<-stopping
		}
		return nil
	}
	done := make(chan struct{})
	r.conn, r.stopping = nil, done
	r.mu.Unlock()
	defer close(done)
	return c.close()
}

// stop stops the program of a seat given up (it forfeited, struck out or
// crashed) as it is given up, rather than when the match ends: it is asked
// nothing more, and without a sandbox it would run on meanwhile, a program
// spinning in the loop that made it late taking the processor from the
// seats still playing. The program is stopped beside the match, which
// goes on at once: a program may take a moment to stop (Close), and the
// decision that gave it up has already had its time.
func (r *Remote[M, V]) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.conn
	if c == nil {
		return
	}
	done := make(chan struct{})
	r.conn, r.stopping = nil, done
	go func() {
		defer close(done)
		_ = c.close()
	}()
}

// conn is a connection to an external bot.
type conn interface {
	// call sends msg and returns the reply line, or errTimeout after
	// deadline (zero: no deadline), errBlocked when msg could not be sent
	// by then, a crash, or ctx's cause when ctx ends first.
	call(ctx context.Context, msg []byte, deadline time.Time) ([]byte, error)
	// next returns another reply line, for a program that answered late.
	next(ctx context.Context, deadline time.Time) ([]byte, error)
	// tell sends msg and expects no reply.
	tell(msg []byte) error
	close() error
}

// silence is a timeout: no answer came by the deadline. It says what came
// instead, when that tells why: nothing at all on a program's standard
// output (most often lines written into a buffer never flushed: Python's
// print to a pipe, C's stdio), or a line begun and never ended.
type silence struct {
	unheard bool  // nothing at all has come from the program
	partial int64 // bytes come after the last end of line
}

func (s *silence) Error() string        { return errTimeout.Error() + s.hint() }
func (s *silence) Is(target error) bool { return target == errTimeout }

// hint says what came instead of an answer, after a "; ", or "".
func (s *silence) hint() string {
	switch {
	case s.unheard:
		return "; nothing came on its standard output: it may be slow, may write its lines without flushing them (a program must flush each line it writes), or may wait for its standard input to end before it answers (it ends only after bye: a program reads one line at a time)"
	case s.partial > 0:
		return fmt.Sprintf("; received %d bytes but no end of line: each message ends with a newline", s.partial)
	}
	return ""
}

// silenceHint is what a timeout err says came instead of the answer, after
// a "; ", or "".
func silenceHint(err error) string {
	var s *silence
	if errors.As(err, &s) {
		return s.hint()
	}
	return ""
}

// timedOut is a decision's timeout, with its figures: it is errTimeout and
// engine.ErrDeadline, and says neither's words.
type timedOut struct{ text string }

func (t *timedOut) Error() string { return t.text }
func (t *timedOut) Is(target error) bool {
	return target == errTimeout || target == engine.ErrDeadline
}

const (
	// crashWait is how long a program that closed its output is given to
	// exit, so that its fault can say how it ended.
	crashWait = 500 * time.Millisecond
	// closeWait is how long a program is given to read bye and exit by
	// itself before it is killed.
	closeWait = 200 * time.Millisecond
	// drainWait is how long the copy of a stopped program's standard
	// error to its log is given to take what the program left in it.
	drainWait = 2 * time.Second
)

var (
	errTimeout = errors.New("no answer in time")
	errBlocked = errors.New("it stopped reading: the message could not be written in time")
	errExited  = errors.New("the program is gone")
)

func dial(spec string, ext External, log *seatLog, info engine.MatchInfo) (conn, error) {
	switch {
	case strings.HasPrefix(spec, "exec:"):
		return startProgram(strings.TrimSpace(strings.TrimPrefix(spec, "exec:")), ext, log, info)
	case strings.HasPrefix(spec, "http://"), strings.HasPrefix(spec, "https://"):
		client := ext.Client
		if client == nil {
			client = defaultClient
		}
		return &httpConn{url: spec, name: RecordName(spec), client: client, bye: byeLine(matchID(ext, info), info.Seat)}, nil
	}
	return nil, fmt.Errorf("%q is not an external player; use exec:COMMAND or an http:// URL", spec)
}

// httpConn is a remote bot: each message is POSTed, and the response body
// is the reply.
type httpConn struct {
	url    string
	name   string // the URL without its secrets, for messages
	client *http.Client
	bye    []byte // the seat's bye
}

// maxLine bounds one message from a bot.
const maxLine = 1 << 20

func (h *httpConn) post(ctx context.Context, msg []byte, deadline time.Time) ([]byte, error) {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(msg))
	if err != nil {
		return nil, fmt.Errorf("POST %s: %v", h.name, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, h.failed(ctx, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(io.LimitReader(resp.Body, maxLine+1))
	switch {
	case err != nil:
		return nil, h.failed(ctx, fmt.Errorf("reading the answer: %w", err))
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("POST %s: %s%s", h.name, engine.Printable(resp.Status), errorBody(resp.Header.Get("Content-Type"), b.Bytes()))
	case b.Len() > maxLine:
		return nil, engine.Faulted(engine.FaultGarbage, fmt.Errorf("POST %s: an answer longer than %d bytes", h.name, maxLine))
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

// errorBody shows what a remote bot said with an HTTP error, after a
// space, or "": the start of a body of text or JSON (a bot's own "no such
// match", a traceback its server sent), not a page of HTML.
func errorBody(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	media, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	media = strings.TrimSpace(media)
	if len(body) == 0 || media != "text/plain" && media != "application/json" && !strings.HasSuffix(media, "+json") {
		return ""
	}
	return " (its body: " + quote(body) + ")"
}

// failed says why a request failed, without the URL's secrets: the time
// ran out, play stopped, or the bot could not be reached.
func (h *httpConn) failed(ctx context.Context, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case ctx.Err() != nil && context.Cause(ctx) != context.DeadlineExceeded:
		return context.Cause(ctx)
	case errors.Is(err, context.DeadlineExceeded):
		return errTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		// Go says "EOF": the server closed the connection with no
		// response, as Python's http.server does when its handler
		// raises.
		return fmt.Errorf("POST %s: the connection closed with no HTTP response (%v): the bot's server may have failed on the message; its own log says why", h.name, err)
	}
	return fmt.Errorf("POST %s: %v", h.name, err)
}

func (h *httpConn) call(ctx context.Context, msg []byte, deadline time.Time) ([]byte, error) {
	return h.post(ctx, msg, deadline)
}

func (h *httpConn) next(context.Context, time.Time) ([]byte, error) {
	return nil, engine.Faulted(engine.FaultGarbage, errors.New("answered a request it was not asked"))
}

func (h *httpConn) tell(msg []byte) error {
	_, err := h.post(context.Background(), msg, time.Now().Add(closeWait))
	return err
}

func (h *httpConn) close() error {
	_, _ = h.post(context.Background(), h.bye, time.Now().Add(closeWait))
	return nil
}

// decodeObject decodes one JSON object. Fields a bot adds for its own
// purposes are ignored, but a field of the protocol's named in another case
// ("Type") is an error: encoding/json would read it as the field. So is a
// key given twice, at any depth (the move's own keys too), of which
// encoding/json would keep the last. Anything that is not one JSON object
// is an error.
func decodeObject(line []byte, v any) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal(line, v); err != nil {
		return err
	}
	// One scan finds both; a field in another case is told first.
	twice, cased := engine.KeyFaults(line, v)
	if cased != nil {
		return cased
	}
	if twice != nil {
		return keyTwice{twice} // encoding/json took the last in silence
	}
	return nil
}

// notJSONHint says where a bot's answer line that is not a JSON object at
// all (err from decodeObject, not a field's problem) went wrong, after a
// space, or "": messages written one after the other with no end of line
// between them; a program wrote something else on its standard output (a
// debug print); a remote bot answered with a body that is not the message
// alone (an empty body, a text).
func notJSONHint(c conn, line []byte, err error) string {
	if err == nil || fieldProblem(err) != "" {
		return ""
	}
	if n := jsonValues(line); n > 1 {
		return fmt.Sprintf(" (%d JSON values, one after the other: each message ends with a newline)", n)
	}
	if _, remote := c.(*httpConn); remote {
		return " (a remote bot's answer is the body of its HTTP response: the JSON object alone)"
	}
	return " (a bot writes only the protocol's lines on its standard output; debug output goes to standard error)"
}

// jsonValues counts the JSON values that line is made of, one after the
// other, or 0 when it is not made of JSON values alone.
func jsonValues(line []byte) int {
	dec := json.NewDecoder(bytes.NewReader(line))
	n := 0
	for {
		var v json.RawMessage
		switch err := dec.Decode(&v); {
		case err == io.EOF:
			return n
		case err != nil:
			return 0
		}
		n++
	}
}

// typeCase says that a message's type, read without error, is the one
// wanted in another case (", in which "type" is "Move", not "move": ..."),
// or nothing.
func typeCase(err error, got, want string) string {
	if err != nil || got == want || !strings.EqualFold(got, want) {
		return ""
	}
	return fmt.Sprintf(", in which \"type\" is %q, not %q: the protocol's words are read exactly as written, in their case", got, want)
}

// keyTwice is a protocol line that gives a key twice in one object.
type keyTwice struct{ error }

// fieldProblem says which field of a protocol message had a value of the
// wrong kind (", in which "id" is a JSON string, not a whole number") or
// was named in another case (", in which the field "Type" is written
// "type"..."), or nothing when that was not the problem.
func fieldProblem(err error) string {
	var ce *engine.FieldCaseError
	if errors.As(err, &ce) {
		return ", in which " + ce.Error()
	}
	if kt, ok := err.(keyTwice); ok {
		return ", in which " + kt.Error()
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return ""
	}
	want := "a " + te.Type.Kind().String()
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "a whole number"
	}
	return fmt.Sprintf(", in which %q is a JSON %s, not %s", te.Field, te.Value, want)
}

// maxSaid bounds what a fault keeps of the words a bot gives for its
// failure (a move's "error"), in bytes.
const maxSaid = 300

// said is what a fault keeps of the words a bot gives for its failure:
// at most maxSaid bytes of them, whole characters, cut with "…".
func said(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxSaid {
		return s
	}
	cut := maxSaid
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// quote shows at most 200 bytes of what a bot said.
func quote(b []byte) string {
	if len(b) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", b[:200], len(b))
	}
	return fmt.Sprintf("%q", b)
}
