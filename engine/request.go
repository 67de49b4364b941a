package engine

import "time"

// Kind names what a request asks for, in the game's own words: "turn",
// "inflection", "trade answer".
type Kind string

// DeadlineClass says which of a seat's time limits applies to a request.
type DeadlineClass uint8

// Deadline classes.
const (
	// Ordinary is a seat's own move: a turn, a choice.
	Ordinary DeadlineClass = iota
	// Reply is an answer owed to another seat's move, such as a trade offer.
	Reply
)

// Request is one decision owed by one seat.
type Request[M any] struct {
	// ID identifies the request within its match; the game assigns it.
	ID int64
	// Seat owes the decision.
	Seat int
	// Kind says what is asked, in the game's words.
	Kind Kind
	// Choices lists the legal moves when they are finite, in the game's
	// order; nil when the move is open (a number, a free-form action).
	Choices []M
	// Default is the move applied when the player is slow, crashes or
	// answers nonsense.
	Default M
	// Class says which time limit applies.
	Class DeadlineClass
	// Deadline is how long the player has for this decision; zero means no
	// limit. The runner sets it from the seat's time control.
	Deadline time.Duration
}
