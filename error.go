package fray

import (
	"errors"
	"fmt"
)

// Error codes shared by every interface. They are wire strings: never rename one.
const (
	ECONFLICT  = "conflict"  // a stale revision or a sequence already taken
	EFORBIDDEN = "forbidden" // the caller may not do this
	EINTERNAL  = "internal"  // a fault in fray itself
	EINVALID   = "invalid"   // the input is malformed or breaks a rule
	ENOTFOUND  = "not_found" // the named thing does not exist
	ETOOLARGE  = "too_large" // the input passes a named limit
)

// Error is an error meant for a user: a code a program can act on and a
// sentence a person can read. Operators get the wrapped chain through Err.
type Error struct {
	// Code is one of the E* constants.
	Code string
	// Message is a complete sentence naming what is wrong and where.
	Message string
	// Err is the underlying cause, if any; it is not shown to users.
	Err error
}

// Error returns the message, followed by the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the user-facing message of the first *Error in err's
// chain, or a generic sentence for any other error so that internal detail
// never reaches a user.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	default:
		return "An internal error occurred."
	}
}
