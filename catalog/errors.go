package catalog

import (
	"errors"
	"fmt"
)

// InputError is input a host should refuse as invalid (the command line's
// exit code 2, the server's 400): an unknown name, options or players that
// do not fit the game, a file that does not parse. A rules' refusal is an
// *engine.RuleError, and a record that does not replay an
// *engine.ReplayError; any other error is the host's or the machine's.
type InputError struct{ Err error }

// Error returns the message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error inside.
func (e *InputError) Unwrap() error { return e.Err }

// Invalid marks err as invalid input; nil stays nil, and an error already
// marked is returned as it is.
func Invalid(err error) error {
	var ie *InputError
	if err == nil || errors.As(err, &ie) {
		return err
	}
	return &InputError{err}
}

// Invalidf is Invalid of a formatted error.
func Invalidf(format string, args ...any) error { return &InputError{fmt.Errorf(format, args...)} }

// IsInvalid reports whether err is, or wraps, an InputError.
func IsInvalid(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}
