package player

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// ProtocolVersion is the version of the external player protocol
// (docs/protocol.md) this Arbiter speaks.
const ProtocolVersion = 1

// The messages of the protocol. Arbiter sends hello, request, result and
// bye; a bot answers hello with ready and each request with move. Every
// message is one JSON object on one line.

// Every message Arbiter sends names its match and seat: a bot behind one
// URL, or one program serving several seats, tells concurrent games and
// seats apart by them.

// Hello opens a match for one seat.
type Hello struct {
	Type string `json:"type"` // "hello"
	// Match identifies the match: the same for every seat of it, never
	// the same for two matches (see MatchID).
	Match        string            `json:"match"`
	Protocol     int               `json:"protocol"`
	Game         string            `json:"game"`
	Variant      string            `json:"variant,omitempty"`
	RulesVersion string            `json:"rules_version"`
	Seat         int               `json:"seat"` // from 0
	Players      []string          `json:"players"`
	Options      map[string]string `json:"options,omitempty"`
	Seed         uint64            `json:"seed"`
	Time         TimeLimits        `json:"time"`
}

// TimeLimits are a seat's time limits in milliseconds; 0 means none.
type TimeLimits struct {
	DecisionMS int64 `json:"decision_ms"`
	ReplyMS    int64 `json:"reply_ms"`
	StartupMS  int64 `json:"startup_ms"`
	BankMS     int64 `json:"bank_ms"`
}

func limits(t engine.TimeControl) TimeLimits {
	return TimeLimits{DecisionMS: ms(t.Deadline), ReplyMS: ms(t.ReplyDeadline), StartupMS: ms(t.StartDeadline), BankMS: ms(t.Bank)}
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// Ready is a bot's answer to hello.
type Ready struct {
	Type string `json:"type"` // "ready"
	Name string `json:"name,omitempty"`
}

// RequestMessage asks the bot for one decision.
type RequestMessage[M, V any] struct {
	Type       string `json:"type"` // "request"
	Match      string `json:"match"`
	Seat       int    `json:"seat"`
	ID         int64  `json:"id"`
	Kind       string `json:"kind"`
	Choices    []M    `json:"choices,omitempty"`
	Default    M      `json:"default"`
	View       V      `json:"view"`
	DeadlineMS int64  `json:"deadline_ms"`
	BankMS     int64  `json:"bank_ms"`
	// Class is "reply" (ReplyClass) for a request that answers another
	// seat's move (a TNCC trade or war answer), timed by the seat's reply
	// deadline (reply_ms); it is left out for the seat's own moves.
	Class string `json:"class,omitempty"`
}

// ReplyClass is a request's class (RequestMessage.Class) when it answers
// another seat's move: engine.Reply.
const ReplyClass = "reply"

// className is how a request of class c says it: ReplyClass, or nothing.
func className(c engine.DeadlineClass) string {
	if c == engine.Reply {
		return ReplyClass
	}
	return ""
}

// MoveMessage is a bot's answer to a request.
type MoveMessage struct {
	Type string          `json:"type"` // "move"
	ID   int64           `json:"id"`
	Move json.RawMessage `json:"move"`
	// Error, when not empty, says that the bot could not decide, and why:
	// the request's default is played, whatever Move is, and the fault is
	// recorded as an error in these words, as a Go player's error is in
	// process. Serve sends it for a player that fails or panics. Arbiter
	// reads any JSON value there: one of another kind than a string says
	// the bot could not decide, in its JSON text; null or false says
	// nothing.
	Error string `json:"error,omitempty"`
}

// ResultMessage tells the bot how the match ended.
type ResultMessage struct {
	Type   string        `json:"type"` // "result"
	Match  string        `json:"match"`
	Seat   int           `json:"seat"`
	Result engine.Result `json:"result"`
}

// Bye ends the conversation: the bot should exit.
type Bye struct {
	Type  string `json:"type"` // "bye"
	Match string `json:"match"`
	Seat  int    `json:"seat"`
}

// MatchID is the id of game number game (from 1) of the run run: "run-game".
// A run is one series or tournament; its id is random, so that no two runs,
// and no two matches, share an id.
func MatchID(run string, game int) string { return fmt.Sprintf("%s-%d", run, game) }

// processRun is the id of runs whose External names none.
var processRun = newRunID()

// newRunID returns a random run id: 16 hex digits.
func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewRunID returns a new random id for a run (External.Run).
func NewRunID() string { return newRunID() }

// matchID is the match id of info's match in ext's run.
func matchID(ext External, info engine.MatchInfo) string {
	run := ext.Run
	if run == "" {
		run = processRun
	}
	return MatchID(run, info.Game)
}

// byeLine is the bye message of a seat, as one line.
func byeLine(match string, seat int) []byte {
	b, _ := json.Marshal(Bye{Type: "bye", Match: match, Seat: seat})
	return b
}
