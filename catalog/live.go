package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
)

// Person is the player of a seat that a person plays through the server,
// with the seat's secret.
const Person = "person"

// LiveSetup is what a live match starts from.
type LiveSetup struct {
	// Setup is the match's seed, options, and one player per seat: a
	// built-in bot's name, Person, or an http:// or https:// URL. A name
	// that stands for several bots (AjveCiv's basic) takes as many seats.
	Setup engine.Setup
	// Mode is the game's way of being played live, among Info's modes;
	// empty for its first.
	Mode string
	// External says how remote bots are reached.
	External player.External
	// Quiet makes no bots: the match is for replaying a log, never asked
	// to decide.
	Quiet bool
	// Names, when given, names each person's seat (a zombie judge's
	// players); "" keeps "person".
	Names []string
	// Creating says the match is being made, not resumed or replayed from
	// its log: a name given to a person's seat that the rules would take
	// for another seat's (a zombie seat named P2 at seat 0) is refused
	// (newNameChecker), and so is a territories board whose map would not
	// be drawn (named as a file, or an SVG that does not fit the board). A
	// match made before keeps the names and the board it has.
	Creating bool
}

// Request is a decision a live match owes, its moves as JSON.
type Request = engine.Request[json.RawMessage]

// Answer is a bot's decision on a request: its move, or why it has none
// (an engine.Fault tells which).
type Answer func(ctx context.Context) (json.RawMessage, error)

// Live is one live match, its moves, requests and views as JSON: what the
// live store and the server drive. A seat's move answers one of its
// pending requests; a move of engine.Judge is the judge's (a game master's
// command, a referee's action for a named player), in the games that take
// them. Live is not safe for concurrent use.
type Live interface {
	// Info describes the ruleset the match plays: the game's own, or its
	// mode's.
	Info() engine.Info
	// Seats returns the number of seats.
	Seats() int
	// Names returns each seat's name, as the match's record keeps it.
	Names() []string
	// Pending returns the decisions owed now.
	Pending() []Request
	// Apply applies seat's move, or the judge's for engine.Judge. A move
	// that is not a move of the game, or that the rules refuse, is an
	// *engine.RuleError, and the match is unchanged.
	Apply(seat int, move json.RawMessage) error
	// View returns what seat may know now; engine.Judge sees everything.
	View(seat int) json.RawMessage
	// Public returns what anyone may know now.
	Public() json.RawMessage
	// Over reports whether the match has ended.
	Over() bool
	// Clock returns the match's time now and what it counts (Info's Clock:
	// a turn, a cycle), and false for a game that keeps none.
	Clock() (now int, name string, ok bool)
	// Result returns how it ended, once it has.
	Result() engine.Result
	// Hash returns the hash of the full state, as records keep it.
	Hash() (string, error)
	// Quiet reports whether the last move applied left the rest of its
	// round open: by the engine's contract for simultaneous requests, it
	// changed nothing anyone sees but the mover's own requests.
	Quiet() bool
	// Unresolved returns the seats whose moves left the round under way
	// open, in the order they came: the last moves applied, the match's
	// own of which only their movers (and the judge) may know, even that
	// they were made, until the round resolves. The slice is shared.
	Unresolved() []int
	// Snapshot returns the full state, from which LiveGame.RestoreLive
	// resumes the match (see engine.Restorer). It holds every secret of
	// the match: keep it in storage, never show it.
	Snapshot() ([]byte, error)
	// Bot reports whether seat is played by a bot (a built-in one or a
	// remote one), which Ask asks.
	Bot(seat int) bool
	// Ask asks seat's bot for its move on req, with the bot's deadline in
	// ctx. What the bot needs of the match is taken at once; the answer
	// is the bot's decision, which a bot over HTTP makes only when it is
	// called, without the match: the caller may let others move in the
	// meantime, but asks each seat one request at a time.
	Ask(ctx context.Context, req Request) Answer
	// Close stops the match's bots.
	Close()
}

// Named is implemented by live matches whose players come and go by name
// (territories' referee): a named player's move is the judge's, for that
// player.
type Named interface {
	// Joiner returns the player a judge's move makes join, if it does;
	// err is the refusal of a move that is no move of the game at all.
	Joiner(move json.RawMessage) (name string, ok bool, err error)
	// AsPlayer returns a named player's move as the judge's move for them.
	AsPlayer(name string, move json.RawMessage) (json.RawMessage, error)
	// Plays reports whether the named player has joined.
	Plays(name string) bool
}

// Timed is implemented by live matches in which time passing makes a move
// of the judge's: a territories referee's turn ends after its
// turn_duration. Their host plays it when it is due.
type Timed interface {
	// Timed reports whether time may make a move in the match.
	Timed() bool
	// Due returns the judge's move that is due once wait has passed since
	// move since was made, and false while none is. Idle says nothing was
	// played since the move that began the wait: time alone should not
	// make such a move, for the match would make one after another with
	// nobody playing; the next move sent to it comes after it.
	Due() (since int64, wait time.Duration, move json.RawMessage, idle, ok bool)
}

// Turns is implemented by live matches of games played one seat at a time
// (TNCC, territories), which tell everyone whose turn it is. Games whose
// seats choose at once say nothing of who has chosen: a move that leaves
// its round open is told to nobody else.
type Turns interface {
	// TurnOf returns the seat whose turn it is, and false when the game
	// is not played in turns or no turn is under way.
	TurnOf() (seat int, ok bool)
}

// Owes is implemented by live matches of games in which a seat's move can
// wait for another seat's answer that nobody else is told is owed (a TNCC
// trade or war): until it is answered, that move is told to the two seats
// and the judge only.
type Owes interface {
	// Owed returns the seat whose move waits for an answer and the seat
	// that owes it, and false when no answer is owed.
	Owed() (from, to int, ok bool)
}

// Tells is implemented by live matches (every one of this package) that
// say what their last move did when the game's moves are public
// information (engine.Teller: territories, whose every action and its
// dice are in the public history): a host tells it to every viewer.
type Tells interface {
	// Told returns what the last move applied did, as everyone may know
	// it, and false when the game keeps its moves to their movers and the
	// judge, or no move has been applied since the match was made or
	// resumed and the game cannot tell it.
	Told() (Told, bool)
}

// Told is what a public move did, as hosts show it to everyone: the game's
// JSON of it (a territories action's outcome, as its referee answers it:
// an attack's roll, threshold and losses) and its words for people.
type Told struct {
	Outcome json.RawMessage `json:"outcome"`
	Text    string          `json:"text"`
}

// toldOf returns what match m's last move did, when m's moves are public
// (engine.Teller).
func toldOf(m any) (Told, bool) {
	t, ok := m.(engine.Teller)
	if !ok {
		return Told{}, false
	}
	v, ok := t.Told()
	if !ok || v == nil {
		return Told{}, false
	}
	b, err := v.MarshalJSON()
	if err != nil {
		return Told{}, false
	}
	return Told{Outcome: b, Text: v.String()}, true
}

// Outs is implemented by live matches that tell a seat it is out of the
// match while the others play on (a dead country, a nation out).
type Outs interface {
	// Out tells seat's player, as a sentence without its full stop, that
	// the seat is out, when and why if known; "" while it plays.
	Out(seat int) string
}

// LiveGame is implemented by games that can be played live; every game of
// the catalog is one.
type LiveGame interface {
	// Modes returns the game's ways of being played live; the first is
	// the default.
	Modes() []Mode
	// ModeInfo describes the ruleset a mode plays ("" for the default):
	// its options, its seats.
	ModeInfo(mode string) (engine.Info, error)
	// NewLive starts a live match.
	NewLive(ctx context.Context, s LiveSetup) (Live, error)
	// RestoreLive resumes the live match of s (the LiveSetup NewLive was
	// given) from a snapshot that its Snapshot made. It continues exactly
	// as the original would, but its bots start afresh. A snapshot that is
	// not of this game, mode and setup, or is damaged, is an error: the
	// match can still be replayed from its moves.
	RestoreLive(ctx context.Context, s LiveSetup, snapshot []byte) (Live, error)
	// ReadMove checks that a move's JSON is a move of the game, before it
	// is applied: a body too long or not a move is refused early.
	ReadMove(move json.RawMessage) error
}

// newNameChecker is a ruleset whose seats have names of their own (a
// zombie seat's P1, P2, …) that a person's name may not take.
type newNameChecker interface {
	CheckNewName(seat int, name string) error
}

// checkName refuses name for seat's person if the ruleset would take it
// for another seat's (newNameChecker).
func (h *hosted[M, V]) checkName(seat int, name string) error {
	if c, ok := h.rules.(newNameChecker); ok {
		return c.CheckNewName(seat, name)
	}
	return nil
}

// Mode is a way of playing a game live.
type Mode struct {
	// Name is the mode's name; "" for a game's only one.
	Name string `json:"name"`
	// About says what it is, for people.
	About string `json:"about"`
	// For says in one line whom the mode is for, for a person choosing
	// how to play (the home page lists it beside each mode); "" for a
	// game's only mode.
	For string `json:"for,omitempty"`
	// Judge says that the match has a judge who makes moves (a game
	// master's commands, a referee's actions); in other modes a judge is
	// optional and only watches, and may play the defaults of open
	// requests.
	Judge bool `json:"judge"`
	// Settings says, for a mode that takes no options, where its match
	// takes what options would set (a judge's script), for refusals that
	// name none.
	Settings string `json:"-"`
}

// liveMatch is a live match of an ordinary game: its seats answer requests,
// and it takes no judge moves.
type liveMatch[M, V any] struct {
	h     *hosted[M, V]
	m     engine.Match[M, V]
	names []string
	bots  []bool // per seat: a bot plays it
	// mu guards the bots, which start and decide without the match's lock.
	mu      sync.Mutex
	players []engine.Player[M, V] // per seat: its bot, made when first asked
	failed  []error               // per seat: why its bot did not start
	closed  bool
	make    []func() engine.Player[M, V]
	info    engine.MatchInfo // what every bot is told, but its seat and seed
	seed    uint64           // the match's, from which each seat's own is derived
	reqs    []engine.Request[M]
	pending []Request // reqs as JSON, until the next move
	fresh   bool      // pending is of the match as it stands
	// What the match shows, as JSON, kept until a move changes it:
	// views[seat] each seat's, views[len(names)] the judge's; public the
	// spectators'. Nil is not made yet.
	views  []json.RawMessage
	public json.RawMessage
	asked  []engine.Request[M] // the requests open before a move (their ids and seats)
	// round is the requests of the round under way, open or answered:
	// those open after the last move that did not leave its round open.
	round []asked
	clock string // what the match's clock counts: Info's Clock, "turn" by default
	quiet bool   // the last move left its round open
	// unresolved are the seats whose moves left the round under way open,
	// in the order they came: the last moves applied (see Unresolved).
	unresolved []int
	// told is what the last move did, for everyone (see Told), once
	// made: toldMade says it is, toldOK that the move is public.
	told     Told
	toldMade bool
	toldOK   bool
}

func (h *hosted[M, V]) NewLive(ctx context.Context, s LiveSetup) (Live, error) {
	m, err := h.mode(s.Mode)
	if err != nil {
		return nil, err
	}
	if s.Creating {
		if err := checkBoardMap(h.rules.Info().Name, s.Setup.Options); err != nil {
			return nil, err
		}
	}
	if m.game == nil {
		return h.newLive(ctx, s)
	}
	if len(s.Setup.Players) > 0 && m.game.Info().MaxSeats == 0 {
		return nil, h.noSeats(m)
	}
	return m.game.newLive(ctx, s)
}

// firstBot returns the first of a game's player names that is not a
// person's, or Person when all are.
func firstBot(names []string) string {
	for _, n := range names {
		if n != Person {
			return n
		}
	}
	return Person
}

// noSeats refuses seats to mode m, which has none, and names the modes
// that have.
func (h *hosted[M, V]) noSeats(m mode) error {
	which := fmt.Sprintf("the %s mode of %s", m.Name, h.rules.Info().Name)
	if h.modes[0].Name == m.Name {
		which += `, a match's when it gives no "mode",`
	}
	var others []string
	for _, x := range h.modes {
		if x.Name != m.Name && (x.game == nil || x.game.Info().MaxSeats > 0) {
			others = append(others, fmt.Sprintf(`"mode": %q (%s)`, x.Name, x.About))
		}
	}
	return Invalidf("%s takes no seats (%s); for seats, give %s", which, m.About, strings.Join(others, ", or "))
}

// asked is a request of a round: its id, and the seat it was asked of.
type asked struct {
	id   int64
	seat int
}

// newRound takes the requests open now as the round under way.
func (l *liveMatch[M, V]) newRound(now []engine.Request[M]) {
	l.round = l.round[:0]
	l.unresolved = l.unresolved[:0]
	for _, r := range now {
		l.round = append(l.round, asked{r.ID, r.Seat})
	}
}

// Asked returns the seat that request id of the round under way was asked
// of, open or answered since (store.Asker), and the name of its player: a
// person's own, "" for a person who gave none, or the bot's. A game that
// hides that an answer is owed (Owes: a TNCC trade or war) tells no
// request's seat: a refusal that named the seat of the answer owed, or
// no longer named the offerer's turn, would tell a third country of the
// offer.
func (l *liveMatch[M, V]) Asked(id int64) (int, string, bool) {
	if _, hides := any(l.m).(interface{ Owed() (int, int, bool) }); hides {
		return -1, "", false
	}
	for _, r := range l.round {
		if r.id == id && r.seat >= 0 && r.seat < len(l.names) {
			name := l.names[r.seat]
			if name == Person {
				name = ""
			}
			return r.seat, name, true
		}
	}
	return -1, "", false
}

// newLive starts a live match of h's own ruleset.
func (h *hosted[M, V]) newLive(ctx context.Context, s LiveSetup) (Live, error) {
	return h.startLive(s, func(setup engine.Setup) (engine.Match[M, V], error) {
		m, err := h.rules.New(setup)
		if err != nil {
			return nil, Invalid(err)
		}
		return m, nil
	})
}

// startLive makes the live match of s whose match start makes from the
// setup with the seats' names.
func (h *hosted[M, V]) startLive(s LiveSetup, start func(engine.Setup) (engine.Match[M, V], error)) (Live, error) {
	info := h.rules.Info()
	makers, names, err := h.seatPlayers(s)
	if err != nil {
		return nil, err
	}
	setup := s.Setup
	setup.Players = names
	m, err := start(setup)
	if err != nil {
		return nil, err
	}
	lm := &liveMatch[M, V]{h: h, m: m, names: names, bots: make([]bool, len(names)), players: make([]engine.Player[M, V], len(names)),
		failed: make([]error, len(names)), make: makers, seed: setup.Seed,
		info: engine.MatchInfo{Ruleset: info.Name, Variant: info.Variant, RulesVersion: info.Version, Game: 1, Players: names, Options: setup.Options}}
	lm.newRound(m.Pending())
	lm.clock = info.Clock
	if lm.clock == "" {
		lm.clock = "turn"
	}
	for seat, mk := range makers {
		lm.bots[seat] = mk != nil
	}
	if s.Quiet {
		lm.make = nil
	}
	if h.joiner != nil {
		return liveNamed[M, V]{lm}, nil
	}
	return lm, nil
}

// seatPlayers returns how to make the bots of a live match's seats:
// built-in bots by name (a name may stand for several seats), remote bots
// by URL, and nil for a person's seat. It returns the seats' names as the
// record keeps them.
func (h *hosted[M, V]) seatPlayers(s LiveSetup) ([]func() engine.Player[M, V], []string, error) {
	var makers []func() engine.Player[M, V]
	var names []string
	for _, spec := range s.Setup.Players {
		switch {
		case spec == Person:
			name := Person
			if i := len(names); i < len(s.Names) && s.Names[i] != "" {
				name = s.Names[i]
				if s.Creating {
					if err := h.checkName(i, name); err != nil {
						return nil, nil, Invalidf("seat %d: %v", i, err)
					}
				}
			}
			makers, names = append(makers, nil), append(names, name)
		case strings.HasPrefix(spec, "exec:"):
			return nil, nil, Invalidf("seat %d: %q: the server runs no programs; give a built-in bot, a person, or the URL of a bot", len(names), spec)
		case player.IsExternal(spec):
			spec, ext := spec, s.External
			makers = append(makers, func() engine.Player[M, V] { return player.NewRemote[M, V](spec, ext) })
			names = append(names, player.RecordName(spec))
		default:
			es, err := h.roster(spec)
			if err != nil {
				if spec == player.Person || engine.Nearest(spec, []string{Person}) == Person {
					// repl (the terminal's person), persn, Person: a person
					// was meant.
					return nil, nil, Invalid(fmt.Errorf("seat %d: %w", len(names), player.SuggestPlayer(err, spec, Person+", a person who plays from their own link")))
				}
				return nil, nil, Invalid(fmt.Errorf("seat %d: %w; or %s, or the URL of a bot", len(names), err, Person))
			}
			for _, e := range es {
				makers, names = append(makers, e.New), append(names, e.Name)
			}
		}
	}
	info := h.rules.Info()
	if n := len(names); n == 0 && info.MinSeats > 0 {
		return nil, nil, Invalidf("%s takes %d to %d seats, and none were given: give each its player (seats: [{\"player\": \"person\"}, {\"player\": \"%s\"}], a built-in bot, %s, or the URL of a bot)", info.Name, info.MinSeats, info.MaxSeats, firstBot(info.Players), Person)
	} else if n < info.MinSeats || n > info.MaxSeats {
		return nil, nil, Invalidf("%s takes %d to %d seats; %d given (%s): %s", info.Name, info.MinSeats, info.MaxSeats, n, strings.Join(names, ", "), seatsToChange(n, info.MinSeats, info.MaxSeats))
	}
	return makers, names, nil
}

func (h *hosted[M, V]) ReadMove(move json.RawMessage) error {
	_, err := decodeMove[M]("", move)
	return err
}

// decodeMove reads a move's JSON, for a request of kind when it is known
// (else ""); what is not a move of the game is a rule error, as an illegal
// move is, and says what a move of kind is in a game whose moves take a
// shape by kind (engine.KindReader).
func decodeMove[M any](kind engine.Kind, move json.RawMessage) (M, error) {
	var m M
	if engine.NullMove(move) {
		return m, engine.RefuseNullMove() // no game's move, whatever M reads it as
	}
	err := json.Unmarshal(move, &m)
	if err == nil {
		// A field in another case is no field of the move's: encoding/json
		// would read it as one.
		err = engine.ExactFieldNames(move, &m)
	}
	if err != nil {
		var again M
		if worded := engine.DecodeJSON(move, &again); worded != nil {
			err = engine.AsMove(worded) // the same error, worded for people
		}
		err = engine.MoveShapeError[M](kind, move, err)
		// Two moves, or one and more, are refused too: "after top-level
		// value".
		return m, engine.Refuse("not-a-move", "%s is not a move of this game: %v", quoteJSON(move), err)
	}
	return m, nil
}

// quoteJSON shows at most 100 bytes of a move.
func quoteJSON(b []byte) string {
	if len(b) > 100 {
		return fmt.Sprintf("%.100s…", b)
	}
	return string(b)
}

func (l *liveMatch[M, V]) Seats() int      { return len(l.players) }
func (l *liveMatch[M, V]) Names() []string { return l.names }

func (h *hosted[M, V]) Modes() []Mode {
	if len(h.modes) == 0 {
		return []Mode{{About: "every seat plays when it is asked; a judge, if any, watches and may play the defaults of the open requests"}}
	}
	out := make([]Mode, len(h.modes))
	for i, m := range h.modes {
		out[i] = m.Mode
	}
	return out
}

func (l *liveMatch[M, V]) Info() engine.Info { return l.h.rules.Info() }

func (h *hosted[M, V]) ModeInfo(name string) (engine.Info, error) {
	m, err := h.mode(name)
	if err != nil {
		return engine.Info{}, err
	}
	if m.game == nil {
		return h.rules.Info(), nil
	}
	return m.game.Info(), nil
}

// mode returns the mode called name, the default for "".
func (h *hosted[M, V]) mode(name string) (mode, error) {
	if len(h.modes) == 0 {
		if name != "" {
			return mode{}, Invalidf("%s has one way of being played live; no mode %q", h.rules.Info().Name, name)
		}
		return mode{}, nil
	}
	if name == "" {
		return h.modes[0], nil
	}
	var names []string
	for _, x := range h.modes {
		if x.Name == name {
			return x, nil
		}
		names = append(names, x.Name)
	}
	return mode{}, Invalidf("%s has no live mode %q; its modes are %s", h.rules.Info().Name, name, strings.Join(names, ", "))
}

// liveNamed is a live match whose players are named (see Named).
type liveNamed[M, V any] struct{ *liveMatch[M, V] }

func (l liveNamed[M, V]) Joiner(move json.RawMessage) (string, bool, error) {
	m, err := decodeMove[M]("", move)
	if err != nil {
		return "", false, err
	}
	name, ok := l.h.joiner(m)
	return name, ok, nil
}

func (l liveNamed[M, V]) Plays(name string) bool {
	p, ok := any(l.m).(interface{ Plays(string) bool })
	return ok && p.Plays(name)
}

func (l liveNamed[M, V]) AsPlayer(name string, move json.RawMessage) (json.RawMessage, error) {
	m, err := decodeMove[M]("", move)
	if err != nil {
		return nil, err
	}
	if m, err = l.h.asPlayer(name, m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// Pending returns the requests as JSON, made once per state of the match:
// the slice is shared, and must not be changed.
func (l *liveMatch[M, V]) Pending() []Request {
	if l.fresh {
		return l.pending
	}
	l.reqs = l.m.Pending()
	out := make([]Request, len(l.reqs))
	for i, r := range l.reqs {
		out[i] = Request{ID: r.ID, Seat: r.Seat, Kind: r.Kind, Default: mustJSON(r.Default), Class: r.Class}
		if r.Choices != nil {
			out[i].Choices = make([]json.RawMessage, len(r.Choices))
			for k, c := range r.Choices {
				out[i].Choices[k] = mustJSON(c)
			}
		}
	}
	l.pending, l.fresh = out, true
	return out
}

func (l *liveMatch[M, V]) Clock() (int, string, bool) {
	if c, ok := l.m.(interface{ Clock() int }); ok {
		return c.Clock(), l.clock, true
	}
	return 0, "", false
}

func (l *liveMatch[M, V]) Apply(seat int, move json.RawMessage) error {
	_, err := l.apply(seat, move)
	return err
}

// ApplyMove is Apply, and returns the move as the game writes it: the form
// the log keeps of a new move (store.MoveWriter).
func (l *liveMatch[M, V]) ApplyMove(seat int, move json.RawMessage) (json.RawMessage, error) {
	m, err := l.apply(seat, move)
	if err != nil {
		return nil, err
	}
	written, err := json.Marshal(m)
	if err != nil {
		return move, nil // a move the game cannot write is kept as it came
	}
	return written, nil
}

// apply decodes and applies seat's move, and returns it decoded.
func (l *liveMatch[M, V]) apply(seat int, move json.RawMessage) (M, error) {
	var m M
	if seat == engine.Judge && !l.h.judged {
		return m, engine.Refuse("no-judge-moves", "this game takes no judge moves; its seats move when they are asked: the judge may answer a seat's open request for it, by the request's id")
	}
	var err error
	if r, ok := any(l.m).(engine.MoveReader[M]); ok && !engine.NullMove(move) {
		if m, err = r.ReadMove(move); err != nil && !engine.IsRuleError(err) {
			err = engine.Refuse("not-a-move", "%s is not a move of this game: %v", quoteJSON(move), err)
		}
	} else {
		m, err = decodeMove[M](l.kindOf(seat), move)
	}
	if err != nil {
		return m, err
	}
	if sp, ok := any(l.m).(engine.MoveSpeller[M]); ok {
		m = sp.Spell(seat, m) // the move as the log keeps it: the board's spelling
	}
	l.asked = append(l.asked[:0], l.m.Pending()...)
	if err := l.m.Apply(seat, m); err != nil {
		return m, err
	}
	l.moved(seat)
	return m, nil
}

// kindOf returns the kind of seat's open request, or "" when it has none.
func (l *liveMatch[M, V]) kindOf(seat int) engine.Kind {
	for _, r := range l.m.Pending() {
		if r.Seat == seat {
			return r.Kind
		}
	}
	return ""
}

// moved forgets what the last move changed. A seat's move that leaves the
// rest of its round open changes nothing any seat sees (the engine's
// contract for simultaneous requests): the views are kept, and the
// requests but the one answered.
func (l *liveMatch[M, V]) moved(seat int) {
	l.toldMade = false
	now := l.m.Pending()
	answered := int64(-1)
	if seat != engine.Judge && len(now) > 0 && len(now) == len(l.asked)-1 {
		answered = leftOpen(l.asked, now, seat)
	}
	l.quiet = answered >= 0
	if l.quiet {
		l.unresolved = append(l.unresolved, seat)
	}
	if answered < 0 {
		l.newRound(now)
		l.fresh = false
		clear(l.views)
		l.public = nil
		return
	}
	if l.fresh {
		kept := make([]Request, 0, len(l.pending)-1)
		for _, r := range l.pending {
			if r.ID != answered {
				kept = append(kept, r)
			}
		}
		l.pending, l.reqs = kept, now
	}
}

// leftOpen returns the id of the request of seat's that was open before a
// move (asked) and is not now, when the requests open now are the others:
// the move left its round open. Otherwise it returns -1.
func leftOpen[M any](asked, now []engine.Request[M], seat int) int64 {
	k := 0
	answered := int64(-1)
	for _, r := range asked {
		if k < len(now) && now[k].ID == r.ID {
			k++
			continue
		}
		if answered >= 0 || r.Seat != seat {
			return -1
		}
		answered = r.ID
	}
	if k != len(now) {
		return -1
	}
	return answered
}

func (l *liveMatch[M, V]) View(seat int) json.RawMessage {
	i := seat
	if seat == engine.Judge {
		i = len(l.names)
	}
	if i < 0 || i > len(l.names) {
		return l.view(seat)
	}
	if l.views == nil {
		l.views = make([]json.RawMessage, len(l.names)+1)
	}
	if l.views[i] == nil {
		l.views[i] = l.view(seat)
	}
	return l.views[i]
}

// view makes seat's view.
func (l *liveMatch[M, V]) view(seat int) json.RawMessage {
	if seat == engine.Judge && !l.h.judged {
		// The judge of a game of seats sees what every seat sees.
		// and what no seat sees, when the game hides more
		// (engine.Overseer).
		views := make([]json.RawMessage, len(l.names))
		for s := range views {
			views[s] = viewJSON(l.m.View(s))
		}
		var overseen any
		if o, ok := any(l.m).(engine.Overseer); ok {
			overseen = o.Overseen()
		}
		return mustJSON(struct {
			Public   json.RawMessage   `json:"public"`
			Seats    []json.RawMessage `json:"seats"`
			Overseen any               `json:"overseen,omitempty"`
		}{l.Public(), views, overseen})
	}
	return viewJSON(l.m.View(seat))
}

// viewJSON is a view as JSON. A view that writes its own (every game's
// does, with json.Marshal) is taken as it writes it: json.Marshal would
// only read it again to compact and escape what is already compact and
// escaped (TestViewsAreAsEncodingJSONWritesThem): some 5% of a server's
// processor time under load.
func viewJSON(v any) json.RawMessage {
	if m, ok := v.(json.Marshaler); ok {
		if b, err := m.MarshalJSON(); err == nil {
			return b
		}
	}
	return mustJSON(v)
}

func (l *liveMatch[M, V]) Public() json.RawMessage {
	if l.public == nil {
		l.public = json.RawMessage("{}")
		if p, ok := l.m.(engine.Publisher); ok {
			l.public = viewJSON(p.Public())
		}
	}
	return l.public
}

func (l *liveMatch[M, V]) Quiet() bool { return l.quiet }

// Told says what the last move did, for everyone, in a game whose moves are
// public (see Tells); made once per move. A move that left its round open
// is told to nobody else.
func (l *liveMatch[M, V]) Told() (Told, bool) {
	if l.quiet {
		return Told{}, false
	}
	if !l.toldMade {
		l.told, l.toldOK = toldOf(l.m)
		l.toldMade = true
	}
	return l.told, l.toldOK
}

// Unresolved returns the seats whose moves left the round under way open,
// in the order they came: they are the last len moves applied, which only
// their movers (and the judge) are told of until the round resolves. A
// match resumed from a snapshot knows those applied since.
func (l *liveMatch[M, V]) Unresolved() []int { return l.unresolved }

// Defaulted tells the match why the seat's next move is its default (see
// engine.Defaulter).
func (l *liveMatch[M, V]) Defaulted(seat int, f engine.Fault) {
	if d, ok := l.m.(engine.Defaulter); ok {
		d.Defaulted(seat, f)
	}
}
func (l *liveMatch[M, V]) Over() bool            { return l.m.Over() }
func (l *liveMatch[M, V]) Result() engine.Result { return l.m.Result() }
func (l *liveMatch[M, V]) Hash() (string, error) { return engine.StateHash(l.m) }
func (l *liveMatch[M, V]) Bot(seat int) bool {
	return seat >= 0 && seat < len(l.bots) && l.bots[seat]
}

func (l *liveMatch[M, V]) Ask(ctx context.Context, req Request) Answer {
	fail := func(err error) Answer {
		return func(context.Context) (json.RawMessage, error) { return nil, err }
	}
	if !l.Bot(req.Seat) {
		return fail(fmt.Errorf("seat %d is a person's", req.Seat))
	}
	l.Pending() // l.reqs as the match stands
	var r *engine.Request[M]
	for i := range l.reqs {
		if l.reqs[i].ID == req.ID {
			r = &l.reqs[i]
		}
	}
	if r == nil {
		return fail(fmt.Errorf("request %d is not pending", req.ID))
	}
	ask := *r
	if dl, ok := ctx.Deadline(); ok {
		ask.Deadline = time.Until(dl)
	}
	p, start, err := l.bot(req.Seat)
	if err != nil {
		return fail(err)
	}
	if pr, ok := p.(engine.Preparer[M, V]); ok {
		decide, err := pr.Prepare(&ask, l.m.View(req.Seat))
		if err != nil {
			return fail(err)
		}
		return func(ctx context.Context) (json.RawMessage, error) {
			if err := l.start(ctx, req.Seat, p, start); err != nil {
				return nil, err
			}
			return answer(decide(ctx))
		}
	}
	// A bot in this process decides now, from the match as it stands.
	if err := l.start(ctx, req.Seat, p, start); err != nil {
		return fail(err)
	}
	mv, err := answer(p.Decide(ctx, &ask, l.m.View(req.Seat)))
	return func(context.Context) (json.RawMessage, error) { return mv, err }
}

// answer is a bot's move as JSON.
func answer[M any](mv M, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return json.Marshal(mv)
}

// bot returns seat's bot, made when it is first asked, and whether it is
// still to be started.
func (l *liveMatch[M, V]) bot(seat int) (p engine.Player[M, V], start bool, err error) {
	if l.make == nil {
		return nil, false, fmt.Errorf("seat %d's bot does not play in a replay", seat)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed[seat] != nil {
		return nil, false, engine.Faulted(engine.FaultAbandoned, fmt.Errorf("the bot did not start: %w", l.failed[seat]))
	}
	if l.players[seat] == nil {
		l.players[seat] = l.make[seat]()
		return l.players[seat], true, nil
	}
	return l.players[seat], false, nil
}

// start starts seat's bot p, if it is to be (its first request), within
// ctx's deadline. A bot that does not start gets no more requests. A
// match closed meanwhile closes it again.
func (l *liveMatch[M, V]) start(ctx context.Context, seat int, p engine.Player[M, V], start bool) error {
	st, ok := p.(engine.Starter)
	if !start || !ok {
		return nil
	}
	info := l.info
	info.Seat, info.Seed = seat, engine.SeatSeed(l.seed, seat)
	if dl, ok := ctx.Deadline(); ok {
		info.Time.StartDeadline = time.Until(dl)
	}
	err := st.Start(ctx, info)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		closePlayer(p)
		return engine.Faulted(engine.FaultAbandoned, errors.New("the match was closed"))
	}
	if err != nil {
		l.failed[seat] = err
		return engine.Faulted(engine.FaultStart, fmt.Errorf("the bot did not start: %w", err))
	}
	return nil
}

func closePlayer(p any) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

func (l *liveMatch[M, V]) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for _, p := range l.players {
		closePlayer(p)
	}
}

// mustJSON marshals a value of the game's own JSON shape, which always
// marshals.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(fmt.Sprintf(`{"error":%q}`, err.Error()))
	}
	return b
}

// match returns the match itself, for the drawing of its board (Drawing.Board).
func (l *liveMatch[M, V]) match() any { return l.m }

// Answer tells the sender of the move just applied what it did, where the
// game tells it (a territories referee's action's outcome); nil elsewhere
// (see store.Answerer).
func (l *liveMatch[M, V]) Answer() json.RawMessage {
	a, ok := any(l.m).(interface{ Answer() json.RawMessage })
	if !ok {
		return nil
	}
	return a.Answer()
}

// timed is a match in which time passing makes a judge's move (see Timed).
type timedMatch[M any] interface {
	Timed() bool
	Due() (since int64, wait time.Duration, move M, idle, ok bool)
}

// Timed reports whether time may make a move in the match (see Timed).
func (l *liveMatch[M, V]) Timed() bool {
	t, ok := any(l.m).(timedMatch[M])
	return ok && t.Timed()
}

// Due returns the judge's move that time makes due, as JSON (see Timed).
func (l *liveMatch[M, V]) Due() (int64, time.Duration, json.RawMessage, bool, bool) {
	t, ok := any(l.m).(timedMatch[M])
	if !ok {
		return 0, 0, nil, false, false
	}
	since, wait, mv, idle, ok := t.Due()
	if !ok {
		return 0, 0, nil, false, false
	}
	return since, wait, mustJSON(mv), idle, true
}

// TurnOf returns the seat whose turn it is, in the games played one seat
// at a time (see Turns).
func (l *liveMatch[M, V]) TurnOf() (int, bool) {
	if t, ok := any(l.m).(interface{ TurnOf() (int, bool) }); ok {
		return t.TurnOf()
	}
	return 0, false
}

// Owed returns the seat whose move waits for another's answer, and that
// other seat, in the games that hide that an answer is owed (see Owes).
func (l *liveMatch[M, V]) Owed() (from, to int, ok bool) {
	if o, ok := any(l.m).(interface{ Owed() (int, int, bool) }); ok {
		return o.Owed()
	}
	return 0, 0, false
}

// Out tells seat's player that the seat is out of the match, as its view
// tells a person at a terminal (see Outs); "" while it plays, and in the
// games whose views do not say.
func (l *liveMatch[M, V]) Out(seat int) string {
	if seat < 0 || seat >= len(l.names) {
		return ""
	}
	if k, ok := any(l.m.View(seat)).(interface{ Out() string }); ok {
		return k.Out()
	}
	return ""
}
