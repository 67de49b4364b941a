package engine

import (
	"errors"
	"fmt"
)

// RuleError is a move the rules refuse: the player's mistake, never the
// program's. Apply returns it and leaves the state unchanged.
type RuleError struct {
	// Code is a short stable name for programs, e.g. "not-offered".
	Code string
	// Msg says what was wrong and what is allowed.
	Msg string
}

// Error returns the message.
func (e *RuleError) Error() string { return e.Msg }

// Refuse returns a *RuleError with a formatted message.
func Refuse(code, format string, args ...any) *RuleError {
	return &RuleError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// IsRuleError reports whether err is, or wraps, a *RuleError.
func IsRuleError(err error) bool {
	var re *RuleError
	return errors.As(err, &re)
}

// ErrDeadline is returned by players that keep their own time (external
// programs, people at a terminal) when a decision's deadline passes. The
// runner applies the default move and records a timeout, without abandoning
// the seat.
var ErrDeadline = errors.New("deadline passed")

// ErrForfeit is returned by players that give up their seat: an external
// program whose time ran out under a forfeit policy, or that struck out.
// The runner applies the default move, records the fault, and abandons the
// seat: it gets default moves from then on.
var ErrForfeit = errors.New("the seat is forfeited")

// PlayerError is an error a player returns to say what kind of fault it
// made (a crash, garbage, a write that blocked), so that the record names
// it rightly. Errors that are not PlayerErrors are faults of kind
// FaultError, or FaultTimeout for ErrDeadline.
type PlayerError struct {
	Kind FaultKind
	Err  error
}

// Error returns the underlying error's message.
func (e *PlayerError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *PlayerError) Unwrap() error { return e.Err }

// Faulted returns err marked as a fault of kind k; nil stays nil.
func Faulted(k FaultKind, err error) error {
	if err == nil {
		return nil
	}
	return &PlayerError{Kind: k, Err: err}
}
