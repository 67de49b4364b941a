package player

import (
	"encoding/json"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// ProtocolVersion is the version of the external player protocol
// (docs/protocol.md) this Arbiter speaks.
const ProtocolVersion = 1

// The messages of the protocol. Arbiter sends hello, request, result and
// bye; a bot answers hello with ready and each request with move. Every
// message is one JSON object on one line.

// Hello opens a match for one seat.
type Hello struct {
	Type         string            `json:"type"` // "hello"
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
	ID         int64  `json:"id"`
	Kind       string `json:"kind"`
	Choices    []M    `json:"choices,omitempty"`
	Default    M      `json:"default"`
	View       V      `json:"view"`
	DeadlineMS int64  `json:"deadline_ms"`
	BankMS     int64  `json:"bank_ms"`
}

// MoveMessage is a bot's answer to a request.
type MoveMessage struct {
	Type string          `json:"type"` // "move"
	ID   int64           `json:"id"`
	Move json.RawMessage `json:"move"`
}

// ResultMessage tells the bot how the match ended.
type ResultMessage struct {
	Type   string        `json:"type"` // "result"
	Result engine.Result `json:"result"`
}

// Bye ends the conversation: the bot should exit.
type Bye struct {
	Type string `json:"type"` // "bye"
}
