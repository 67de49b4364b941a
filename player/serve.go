package player

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"golang.org/x/term"
)

// Serve runs a bot written in Go as an external program: it speaks the
// protocol of docs/protocol.md on standard input and output, so that
//
//	func main() {
//		player.Serve(ajveciv.Original(), func() engine.Player[ajveciv.Value, ajveciv.View] { return &myBot{} })
//	}
//
// built with go build -o mybot, plays with
// arbiter play ajveciv --player exec:./mybot. Its player decides on the
// game's own typed View, read back from the request's JSON (the rules
// must be an engine.ViewReader, as every game's are), exactly as it would
// in process; see Program for what it is told and when. Serve returns
// when the match is over (after bye); it writes what went wrong on
// standard error, which Arbiter keeps in the seat's log, and exits with
// code 1 when it cannot play at all (a hello of another game).
//
// What the player prints on standard output (fmt.Println, a logger made
// on os.Stdout, even before Serve ran) goes to standard error, the seat's
// log, so that it cannot garble the protocol's lines: Serve keeps standard
// output for them, and while it runs points file descriptor 1 at standard
// error (on Windows, where it cannot, it only sets os.Stdout to
// os.Stderr).
//
// Run at a terminal (go run . to try it), where no Arbiter speaks to it,
// the program says on standard error what it is and how to seat it, and
// then reads the protocol's messages typed there.
func Serve[M, V any](rules engine.Ruleset[M, V], newPlayer func() engine.Player[M, V]) {
	p := Program[M, V]{Rules: rules, New: newPlayer}
	if term.IsTerminal(int(os.Stdin.Fd())) {
		fmt.Fprint(os.Stderr, atTerminal(rules.Info().Name, os.Args[0]))
	}
	stdout := os.Stdout
	out, restore, ok := protocolOutput()
	if !ok {
		out, restore = stdout, func() {}
	}
	os.Stdout = os.Stderr
	err := p.Run(context.Background(), os.Stdin, out)
	os.Stdout = stdout
	restore()
	if err != nil {
		os.Exit(1) // Run has said why on standard error
	}
}

// atTerminal tells a person who runs the program of a bot of game at a
// terminal, as command, what it is and how to seat it.
func atTerminal(game, command string) string {
	seat := "exec:" + command
	if strings.Contains(command, "go-build") {
		seat = "exec:./" + filepath.Base(command) + ", built with go build"
	}
	return fmt.Sprintf("This is a bot of %s, a program that Arbiter runs: it reads the messages of Arbiter's protocol (docs/protocol.md) on its standard input, one JSON object a line, and waits for them here.\n"+
		"Seat it in a game: arbiter play %s --player %s\n", game, game, seat)
}

// Program is a Go player served as an external program (docs/protocol.md):
// over standard input and output (Run, as Serve does for one match), or
// behind a URL (ServeHTTP, any number of seats and matches at once).
//
// A player is made with New for each match and seat (each hello). Before
// its ready, a Starter is started with the match as the hello tells it
// (engine.MatchInfo: the game, the seat, the players as other seats see
// them, the options, the seat's own seed, its time limits); an
// engine.Initializer bot in an engine.Shell is initialized so. Each
// request is asked of Decide: the request with its choices and default
// read back into the game's moves, its Deadline the request's deadline_ms,
// its Class engine.Reply when the request's "class" is "reply" (any other
// class, of any JSON kind, is Ordinary; from an Arbiter that writes no
// class, a reply is a request whose deadline is the seat's reply
// deadline, when that differs from its decision deadline), and the view read back by the game's engine.ViewReader; its context ends
// at nine tenths of that deadline, counted from when the request came, its
// view's reading included (a tenth is kept for the answer's way back; the
// time bank, bank_ms, is not counted: it is a margin). A Decide that
// outlasts the deadline itself is told in the log, with how long it took
// and what Arbiter does then, and its move is sent when it comes (Arbiter
// plays it if the bank pays the overrun, and passes it over otherwise).
// Meanwhile the program reads on: a player's calls never overlap, as in
// process, so a request for its seat that comes while it runs waits for
// it within the request's own time (its context's), and is decided if it
// returns by then, with what time is left; else the request's default is
// sent at that time, with the reason as the move's "error", and the log
// says so. The views of requests so answered are read before the next
// decided one, in order, for readers that keep what earlier views showed.
// Such a seat's Finisher is not told the result while the Decide still
// runs, and a Decide still running when Run returns is told in the log,
// its move never sent. The move is sent as the game's JSON. A player
// that returns an error or panics has the request's default sent
// instead, with what went wrong as the move's "error" (docs/protocol.md;
// its first 300 bytes, as many as Arbiter keeps), and the stack of a
// panic written to the log: Arbiter plays the default and records the
// fault, an error in the player's words, as it would in process (where a
// panic is a fault of its own kind). A Finisher hears the result.
//
// Nothing reaches the player but what the protocol sends the seat: the
// views read back hold exactly what their JSON holds.
//
// A hello for another game than Rules' (or another variant of it, or
// another protocol) is refused: Run returns an error that says which
// game the program plays, and the seat is played by default moves.
// Lines that are not messages of the protocol are written to the log and
// passed over; a request whose view or moves cannot be read, or whose
// move cannot be written, is answered with its default, the reason logged
// and told Arbiter as the move's error, for the fault.
type Program[M, V any] struct {
	// Rules are the game the player plays: a hello of another is refused.
	// They must be an engine.ViewReader.
	Rules engine.Ruleset[M, V]
	// New makes the player of one match and seat.
	New func() engine.Player[M, V]
	// Name is the name given in ready, by which standings and reports call
	// the program; empty gives none (Arbiter calls it by its file).
	Name string
	// Log receives what went wrong, one line each, saying which message
	// it is about: its line of the input ("line 4: "), or, over HTTP,
	// its match and seat (`match "3f9c-2", seat 1: `). nil is standard
	// error, which Arbiter keeps in the seat's log.
	Log io.Writer
	// MaxSeats is the most seats kept open at once; 0 is DefaultMaxSeats.
	// A seat is closed by its bye; one whose match never says it (Arbiter
	// stopped) stays open, and behind a URL anyone may open seats: past
	// this many, the seat heard from least recently is closed for the new
	// one, and the log says so.
	MaxSeats int

	mu       sync.Mutex
	sessions map[seatKey]*session[M, V]
	logMu    sync.Mutex // one line of the log at a time
}

// seatKey names one seat of one match.
type seatKey struct {
	match string
	seat  int
}

// session is one seat of one match: its player and the reader of its
// views.
type session[M, V any] struct {
	// turn is held by the player's call under way, and by the reading of
	// the views, so that they never overlap: a Decide that outlasts its
	// deadline holds it until it returns.
	turn   chan struct{}
	player engine.Player[M, V]
	read   func(int64, []byte) (V, error)
	// reply is the seat's reply deadline when it differs from its
	// decision deadline: a request with it, from an Arbiter that does
	// not say a request's class, answers another seat's move.
	reply time.Duration
	// heard is when the seat was last sent a message (Program.mu).
	heard time.Time

	mu sync.Mutex // guards what follows
	// holder is the request whose Decide holds the turn, and came is
	// when it came.
	holder int64
	came   time.Time
	// missed are the views of the requests answered without the player,
	// as its Decide of an earlier one still ran, for the reader to read
	// before the next, in order: it keeps what earlier views showed.
	missed []missedView
}

// missedView is the view of a request answered without the player.
type missedView struct {
	id   int64
	view json.RawMessage
}

// maxMissed is the most views a seat keeps while its player is not asked;
// past it, the oldest are let go.
const maxMissed = 256

// take takes the seat's turn, waiting for it until ctx ends; it reports
// whether it has it.
func (s *session[M, V]) take(ctx context.Context) bool {
	select {
	case s.turn <- struct{}{}:
		return true
	default:
	}
	select {
	case s.turn <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// free gives the seat's turn back.
func (s *session[M, V]) free() { <-s.turn }

// hold notes that the Decide of request id, which came at came, holds
// the turn, and returns the views missed before it.
func (s *session[M, V]) hold(id int64, came time.Time) []missedView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holder, s.came = id, came
	missed := s.missed
	s.missed = nil
	return missed
}

// miss keeps the view of request id, answered without the player, and
// returns the request whose Decide holds the turn and when it came.
func (s *session[M, V]) miss(id int64, view json.RawMessage) (holder int64, came time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.missed) == maxMissed {
		s.missed = append(s.missed[:0], s.missed[1:]...)
	}
	s.missed = append(s.missed, missedView{id, slices.Clone(view)})
	return s.holder, s.came
}

// running returns the request whose Decide holds the turn, and when it
// came.
func (s *session[M, V]) running() (holder int64, came time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holder, s.came
}

// DefaultMaxSeats is Program.MaxSeats when it is not set.
const DefaultMaxSeats = 10000

// incoming is any message Arbiter sends, as far as the program reads it.
type incoming struct {
	Type  string `json:"type"`
	Match string `json:"match"`
	Seat  int    `json:"seat"`
	ID    *int64 `json:"id"`
	Kind  string `json:"kind"`
	// Class is read as any JSON value, so that a request whose class is
	// not a string is answered all the same (see requestClass).
	Class      json.RawMessage   `json:"class"`
	Choices    []json.RawMessage `json:"choices"`
	Default    json.RawMessage   `json:"default"`
	View       json.RawMessage   `json:"view"`
	DeadlineMS int64             `json:"deadline_ms"`
	BankMS     int64             `json:"bank_ms"`
	Result     *engine.Result    `json:"result"`
}

// Run serves the messages read from in, one a line, writing each answer
// as a line to out, until the last match open says bye or in ends. It
// returns an error, having written it to the log, when a hello is refused
// (the program cannot play the match) or reading or writing fails.
func (p *Program[M, V]) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	if _, ok := p.Rules.(engine.ViewReader[V]); !ok {
		return p.failed("%s views cannot be read from their JSON (the rules are no engine.ViewReader): a Go player of it cannot be served as a program", p.Rules.Info().Name)
	}
	w := &answers{w: bufio.NewWriter(out)}
	var aside []*asking // the decisions that outlasted their deadline
	defer func() {
		w.close()
		p.leave(aside)
	}()
	r := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, readErr := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			answer, asked, bye, err := p.handle(ctx, line, origin{line: n, at: time.Now()})
			if err != nil {
				return err
			}
			if asked != nil && !p.decideAside(asked, w) {
				aside = append(slices.DeleteFunc(aside, (*asking).over), asked)
			}
			if answer != nil {
				w.write(answer)
			}
			if err := w.failed(); err != nil {
				return p.failed("writing to Arbiter: %w", err)
			}
			if bye && p.open() == 0 {
				return nil
			}
		}
		if readErr == io.EOF {
			if k := p.open(); k > 0 {
				p.logf("the input ended before bye, with %d match(es) open", k)
			}
			return nil
		}
		if readErr != nil {
			return p.failed("reading from Arbiter: %w", readErr)
		}
	}
}

// answers writes the program's answers to Arbiter, one line each, from
// any goroutine, until it is closed.
type answers struct {
	mu     sync.Mutex
	w      *bufio.Writer
	err    error // the first that writing met
	closed bool
}

// write writes one answer, unless the answers are closed or writing has
// failed.
func (a *answers) write(answer []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed || a.err != nil {
		return
	}
	if _, err := a.w.Write(append(answer, '\n')); err != nil {
		a.err = err
		return
	}
	a.err = a.w.Flush()
}

// failed returns the error that writing met, or nil.
func (a *answers) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// close drops the answers still to come: Run has returned.
func (a *answers) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
}

// asking is a request to decide, from o: decide decides it and returns
// the move message (nil for none); until is its deadline (zero: none).
type asking struct {
	decide func() []byte
	until  time.Time
	o      origin
	id     int64
	// deadline and bankMS are the request's.
	deadline time.Duration
	bankMS   int64
	// phase is where the decision is: askWaiting, askDeciding, askOver,
	// or askLeft once Run has ended without it.
	phase atomic.Int32
}

// The phases of a decision (asking.phase).
const (
	askWaiting  int32 = iota // for the seat's turn
	askDeciding              // in the player's Decide
	askOver                  // answered
	askLeft                  // Run ended first: no answer is sent
)

// over reports whether the decision has been answered.
func (a *asking) over() bool { return a.phase.Load() == askOver }

// decideAside decides a request on a goroutine of its own, and waits for
// its answer until the request's deadline: a Decide that outlasts it goes
// on aside, its answer written whenever it comes (Arbiter passes over a
// late one, or takes it from the bank), while Run reads Arbiter's next
// message. It reports whether the answer came in time.
func (p *Program[M, V]) decideAside(a *asking, w *answers) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if answer := a.decide(); answer != nil {
			w.write(answer)
		}
	}()
	if a.until.IsZero() {
		<-done
		return true
	}
	t := time.NewTimer(time.Until(a.until))
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// leave lets go the decisions that Run, ending, leaves running: a Decide
// still running is told in the log, as one that returns late is, and its
// answer is not sent; one that waits for its turn is not asked.
func (p *Program[M, V]) leave(aside []*asking) {
	for _, a := range aside {
		if a.phase.CompareAndSwap(askDeciding, askLeft) {
			p.overran(a.o, a.id, fmt.Sprintf("Decide still ran as the program ended, %v after the request came", time.Since(a.o.at).Round(time.Millisecond)), a.deadline, a.bankMS)
		} else {
			a.phase.CompareAndSwap(askWaiting, askLeft)
		}
	}
}

// overran logs that the Decide of request id, from o, outlasted the
// request's deadline, as what says, and what Arbiter does then.
func (p *Program[M, V]) overran(o origin, id int64, what string, deadline time.Duration, bankMS int64) {
	then := "Arbiter plays the default move and records a timeout"
	if bankMS > 0 {
		then = fmt.Sprintf("the time bank (%v left) pays the overrun, or else %s", msDuration(bankMS), then)
	}
	p.logf("%srequest %d: %s, past the request's deadline of %v (its context ended at %v): %s",
		where(o), id, what, deadline, decisionTime(deadline), then)
}

// ServeHTTP serves one message of the protocol, POSTed as the request's
// body, and answers with the program's answer (ready, move) as the
// response's body, or an empty body (result, bye): Arbiter's remote bots
// (docs/protocol.md). Every message names its match and seat, so that one
// Program plays any number of them at once. A hello that is refused is
// answered 422 with the reason.
func (p *Program[M, V]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	came := time.Now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST one message of the protocol (docs/protocol.md)", http.StatusMethodNotAllowed)
		return
	}
	if _, ok := p.Rules.(engine.ViewReader[V]); !ok {
		http.Error(w, fmt.Sprintf("%s views cannot be read from their JSON", p.Rules.Info().Name), http.StatusInternalServerError)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	answer, asked, _, err := p.handle(r.Context(), body, origin{at: came})
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if asked != nil {
		answer = asked.decide()
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(answer)
}

// open returns the number of matches open.
func (p *Program[M, V]) open() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sessions)
}

// logf writes one line to the log.
func (p *Program[M, V]) logf(format string, args ...any) {
	w := p.Log
	if w == nil {
		w = os.Stderr
	}
	p.logMu.Lock()
	defer p.logMu.Unlock()
	fmt.Fprintf(w, format+"\n", args...)
}

// origin is where a message came from, for the log, and when, for its
// deadline: line n of the input, or, over HTTP (line 0), the match and
// seat it names, once read.
type origin struct {
	line  int
	at    time.Time
	match string
	seat  int
	named bool // match and seat are read
}

// where names the message's origin for the log: "line 4: " on standard
// input; over HTTP, where one program plays many matches and seats at
// once, `match "3f9c-2", seat 1: `, or "" when the message named none.
func where(o origin) string {
	switch {
	case o.line > 0:
		return fmt.Sprintf("line %d: ", o.line)
	case o.named:
		return fmt.Sprintf("match %s, seat %d: ", quoteName(o.match), o.seat)
	}
	return ""
}

// handle serves one message, from o: its answer, or nil for none, or,
// for a request, the decision that answers it (asked); bye says the
// message closed a match.
func (p *Program[M, V]) handle(ctx context.Context, line []byte, o origin) (answer []byte, asked *asking, bye bool, err error) {
	var msg incoming
	if err := json.Unmarshal(line, &msg); err != nil {
		p.logf("%snot a message of the protocol (%v): %.200s", where(o), err, line)
		return nil, nil, false, nil
	}
	o.match, o.seat, o.named = msg.Match, msg.Seat, true
	switch msg.Type {
	case "hello":
		answer, bye, err := p.hello(ctx, line, o)
		return answer, nil, bye, err
	case "request":
		a := &asking{o: o, deadline: msDuration(msg.DeadlineMS), bankMS: msg.BankMS}
		if msg.ID != nil {
			a.id = *msg.ID
		}
		if a.deadline > 0 {
			a.until = o.at.Add(a.deadline)
		}
		a.decide = func() []byte { return p.request(ctx, &msg, o, a) }
		return nil, a, false, nil
	case "result":
		if s := p.session(msg.Match, msg.Seat); s != nil && msg.Result != nil {
			p.finish(ctx, s, *msg.Result, o)
		}
		return nil, nil, false, nil
	case "bye":
		p.mu.Lock()
		_, ok := p.sessions[seatKey{msg.Match, msg.Seat}]
		delete(p.sessions, seatKey{msg.Match, msg.Seat})
		p.mu.Unlock()
		return nil, nil, ok, nil
	}
	p.logf("%sa message of type %q, which the protocol has not (hello, request, result, bye): %.200s", where(o), msg.Type, line)
	return nil, nil, false, nil
}

// finish tells a Finisher the result, unless its Decide of a request
// still runs: a player's calls never overlap, and, as in process, one left
// running past its deadline hears no result.
func (p *Program[M, V]) finish(ctx context.Context, s *session[M, V], res engine.Result, o origin) {
	f, ok := s.player.(engine.Finisher)
	if !ok {
		return
	}
	select {
	case s.turn <- struct{}{}:
	default:
		holder, came := s.running()
		p.logf("%sthe player is not told the result (Finish): its Decide of request %d, which came %v ago, still runs", where(o), holder, time.Since(came).Round(time.Millisecond))
		return
	}
	defer s.free()
	_ = p.guard(o, "Finish", func() { f.Finish(ctx, res) })
}

// hello opens a seat of a match: it checks that the match is of the
// program's game, makes its player, starts it and answers ready.
func (p *Program[M, V]) hello(ctx context.Context, line []byte, o origin) ([]byte, bool, error) {
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, false, p.refuse("%sa hello that cannot be read: %v", where(o), err)
	}
	info := p.Rules.Info()
	switch {
	case h.Protocol != ProtocolVersion:
		return nil, false, p.refuse("Arbiter speaks protocol %d; this program speaks protocol %d (docs/protocol.md): build it with the Arbiter it plays with", h.Protocol, ProtocolVersion)
	case h.Game != info.Name:
		return nil, false, p.refuse("this program plays %s, and Arbiter asks it to play %s: play it in a game of %s (arbiter play %s --player exec:...)", info.Name, quoteName(h.Game), info.Name, info.Name)
	case info.Variant != "" && h.Variant != info.Variant:
		return nil, false, p.refuse("this program plays %s under the %s rules, and the match is played under the %s rules", info.Name, info.Variant, quoteName(h.Variant))
	}
	if h.RulesVersion != info.Version {
		p.logf("the match is played under %s rules version %s; this program was built with version %s: its view of the game may be out of date", info.Name, quoteName(h.RulesVersion), info.Version)
	}
	mi := engine.MatchInfo{
		Ruleset: h.Game, Variant: h.Variant, RulesVersion: h.RulesVersion, Game: gameOf(h.Match), Seat: h.Seat,
		Players: h.Players, Options: h.Options, Seed: h.Seed,
		Time: engine.TimeControl{Deadline: msDuration(h.Time.DecisionMS), ReplyDeadline: msDuration(h.Time.ReplyMS),
			StartDeadline: msDuration(h.Time.StartupMS), Bank: msDuration(h.Time.BankMS)},
	}
	read, err := p.Rules.(engine.ViewReader[V]).ReadViews(mi)
	if err != nil {
		return nil, false, p.refuse("the match cannot be played: %v", err)
	}
	s := &session[M, V]{read: read, turn: make(chan struct{}, 1)}
	if mi.Time.ReplyDeadline != mi.Time.Deadline {
		s.reply = mi.Time.ReplyDeadline
	}
	if s.player = p.New(); s.player == nil {
		return nil, false, p.refuse("New made no player")
	}
	if st, ok := s.player.(engine.Starter); ok {
		var startErr error
		if err := p.guard(o, "Start", func() { startErr = st.Start(ctx, mi) }); err != nil {
			startErr = err
		}
		if startErr != nil {
			return nil, false, p.refuse("the player did not start: %v", startErr)
		}
	}
	p.mu.Lock()
	if p.sessions == nil {
		p.sessions = map[seatKey]*session[M, V]{}
	}
	key := seatKey{h.Match, h.Seat}
	most := p.MaxSeats
	if most <= 0 {
		most = DefaultMaxSeats
	}
	if _, open := p.sessions[key]; !open && len(p.sessions) >= most {
		var oldest seatKey
		var at time.Time
		for k, o := range p.sessions {
			if at.IsZero() || o.heard.Before(at) {
				oldest, at = k, o.heard
			}
		}
		delete(p.sessions, oldest)
		p.logf("%s%d seats are open, the most kept (MaxSeats): seat %d of match %s, last heard from %v ago, is closed for this one", where(o), most, oldest.seat, quoteName(oldest.match), time.Since(at).Round(time.Millisecond))
	}
	s.heard = time.Now()
	p.sessions[key] = s
	p.mu.Unlock()
	ready, err := json.Marshal(Ready{Type: "ready", Name: p.Name})
	return ready, false, err
}

// failed logs err and returns it.
func (p *Program[M, V]) failed(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	p.logf("%v", err)
	return err
}

// refuse logs why a hello is refused and returns it as an error.
func (p *Program[M, V]) refuse(format string, args ...any) error { return p.failed(format, args...) }

// quoteName quotes a name from Arbiter for a message, and says when there
// was none.
func quoteName(s string) string {
	if s == "" {
		return "(none)"
	}
	return strconv.Quote(s)
}

// gameOf returns the game's number from a match's id ("run-12": 12), as
// MatchInfo.Game counts it; 1 when the id says none.
func gameOf(match string) int {
	if i := strings.LastIndexByte(match, '-'); i >= 0 {
		if g, err := strconv.Atoi(match[i+1:]); err == nil && g > 0 {
			return g
		}
	}
	return 1
}

func msDuration(ms int64) time.Duration {
	if ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// session returns the seat of a match that a hello opened, or nil.
func (p *Program[M, V]) session(match string, seat int) *session[M, V] {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sessions[seatKey{match, seat}]
	if s != nil {
		s.heard = time.Now()
	}
	return s
}

// requestClass reads a request's "class": Reply for "reply", Ordinary
// for any other value; said is false when there is none (left out or
// null), as from an Arbiter older than the field.
func requestClass(raw json.RawMessage) (class engine.DeadlineClass, said bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return engine.Ordinary, false
	}
	var c string
	if json.Unmarshal(raw, &c) == nil && c == ReplyClass {
		return engine.Reply, true
	}
	return engine.Ordinary, true
}

// request decides one request, from o, as a, and returns the move
// message, or nil when the request has no id to answer (or Run has ended
// without it).
func (p *Program[M, V]) request(ctx context.Context, msg *incoming, o origin, a *asking) []byte {
	defer a.phase.CompareAndSwap(askWaiting, askOver) // answered without the player
	if msg.ID == nil {
		p.logf("%sa request with no id, which cannot be answered", where(o))
		return nil
	}
	id := *msg.ID
	answer := func(m MoveMessage) []byte {
		m.Type, m.ID = "move", id
		b, err := json.Marshal(m)
		if err != nil {
			p.logf("%srequest %d: the move cannot be written: %v", where(o), id, err)
			return nil
		}
		return b
	}
	// fallback answers with the default move and says why the player
	// gave none: the log is told what went wrong, and Arbiter, in the
	// move's error, what its fault is to say (why).
	fallback := func(why string, format string, args ...any) []byte {
		if why == "" {
			why = "an error with no words"
		}
		p.logf("%srequest %d: %s; the default move is sent, and Arbiter records the fault", where(o), id, fmt.Sprintf(format, args...))
		// Arbiter keeps maxSaid bytes of it: the log has it whole, and
		// the line stays short of the protocol's longest.
		return answer(MoveMessage{Move: msg.Default, Error: said(why)})
	}
	failed := func(format string, args ...any) []byte {
		why := fmt.Sprintf(format, args...)
		return fallback(why, "%s", why)
	}
	s := p.session(msg.Match, msg.Seat)
	if s == nil {
		return failed("match %s, seat %d, has had no hello", quoteName(msg.Match), msg.Seat)
	}
	req := engine.Request[M]{ID: id, Seat: msg.Seat, Kind: engine.Kind(msg.Kind), Deadline: msDuration(msg.DeadlineMS)}
	switch class, said := requestClass(msg.Class); {
	case said:
		req.Class = class
	case s.reply > 0 && req.Deadline == s.reply:
		// An Arbiter older than the request's class: its deadline
		// tells, when the seat's two deadlines differ.
		req.Class = engine.Reply
	}
	if len(msg.Default) == 0 {
		p.logf("%srequest %d has no default move; one is decided all the same", where(o), id)
	} else if err := readMove(msg.Default, &req.Default); err != nil {
		return failed("its default %.200s is no move of %s: %v", msg.Default, p.Rules.Info().Name, err)
	}
	if msg.Choices != nil {
		req.Choices = make([]M, len(msg.Choices))
		for i, c := range msg.Choices {
			if err := readMove(c, &req.Choices[i]); err != nil {
				return failed("its choice %.200s is no move of %s: %v", c, p.Rules.Info().Name, err)
			}
		}
	}
	if len(msg.View) == 0 {
		return failed("it has no view")
	}
	dctx := ctx
	if req.Deadline > 0 {
		// The deadline counts from when the request came, the time its
		// view took to read included, and a tenth of it is kept for the
		// answer's way back to Arbiter.
		var cancel context.CancelFunc
		dctx, cancel = context.WithDeadline(ctx, o.at.Add(decisionTime(req.Deadline)))
		defer cancel()
	}
	// A player's calls never overlap: while its Decide of an earlier
	// request runs on past that request's deadline, this one waits for
	// it within its own time, and is answered with its default if it
	// does not return by then.
	if !s.take(dctx) {
		holder, came := s.miss(id, msg.View)
		return fallback(fmt.Sprintf("its Decide of request %d still runs: a player is not asked twice at once", holder),
			"the player's Decide of request %d, which came %v before this one, still runs, and a player is not asked twice at once: it is not asked this one", holder, o.at.Sub(came).Round(time.Millisecond))
	}
	defer s.free()
	for _, m := range s.hold(id, o.at) {
		// The reader keeps what earlier views showed: it reads those
		// of the requests answered without the player first.
		if _, err := s.read(m.id, m.view); err != nil {
			p.logf("%srequest %d: the view of request %d, answered while an earlier Decide ran, cannot be read: %v", where(o), id, m.id, err)
		}
	}
	view, err := s.read(id, msg.View)
	if err != nil {
		return failed("its view cannot be read: %v", err)
	}
	if !a.phase.CompareAndSwap(askWaiting, askDeciding) {
		return nil // Run has ended
	}
	var mv M
	var decideErr error
	if err := p.guard(o, "Decide", func() { mv, decideErr = s.player.Decide(dctx, &req, view) }); err != nil {
		decideErr = err
	}
	if !a.phase.CompareAndSwap(askDeciding, askOver) {
		return nil // Run has ended, and said so in the log
	}
	if took := time.Since(o.at); req.Deadline > 0 && took > req.Deadline {
		p.overran(o, id, fmt.Sprintf("Decide took %v", took.Round(time.Millisecond)), req.Deadline, msg.BankMS)
	}
	if decideErr != nil {
		return fallback(decideErr.Error(), "the player failed: %v", decideErr)
	}
	b, err := json.Marshal(mv)
	if err != nil {
		return failed("its move cannot be written as JSON: %v", err)
	}
	if why := illegal(mv, b, msg.Choices, view); why != "" {
		// Arbiter judges the move, and tells its fault in the report;
		// the bot's author reads this log.
		p.logf("%srequest %d: the move %.200s %s; it is sent, and Arbiter will play the default and record the move as illegal", where(o), id, b, why)
	}
	return answer(MoveMessage{Move: b})
}

// illegal says why the rules would refuse the move mv (its JSON, b) to a
// request with choices (as Arbiter wrote them: the game's JSON, as b is),
// seen in view, or "" when nothing says so: a move that is none of the
// choices, or one the view's Check refuses (Checker).
func illegal[M, V any](mv M, b []byte, choices []json.RawMessage, view V) string {
	if len(choices) > 0 {
		for _, c := range choices {
			if bytes.Equal(bytes.TrimSpace(c), b) {
				return ""
			}
		}
		return "is none of the request's choices"
	}
	if c, ok := any(view).(Checker[M]); ok {
		if err := c.Check(mv); err != nil {
			return "is refused by the rules: " + err.Error()
		}
	}
	return ""
}

// decisionTime is when, after a request came, the context of its decision
// ends: at nine tenths of its deadline, a tenth being kept for the
// answer's way back.
func decisionTime(deadline time.Duration) time.Duration { return deadline - deadline/10 }

// readMove reads a move's JSON into mv.
func readMove[M any](data []byte, mv *M) error {
	if engine.NullMove(data) {
		return errors.New("null is no move")
	}
	return json.Unmarshal(data, mv)
}

// guard runs f, a call of the player named what, and recovers its panic,
// as a panic in process is: it logs the stack and returns the panic as an
// error.
func (p *Program[M, V]) guard(o origin, what string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.logf("%s%s panicked: %v\n%s", where(o), what, r, debug.Stack())
			err = fmt.Errorf("%s panicked: %v", what, r)
		}
	}()
	f()
	return nil
}
