package fray

import (
	"errors"
	"fmt"
	"slices"
)

// Error codes shared by every interface. They are wire strings: never rename one.
const (
	ECONFLICT  = "conflict"  // a stale revision or a sequence already taken
	EFORBIDDEN = "forbidden" // the caller may not do this
	EINTERNAL  = "internal"  // a fault in fray itself
	EINVALID   = "invalid"   // the input is malformed or breaks a rule
	ENOTFOUND  = "not_found" // the named thing does not exist
	ETOOLARGE  = "too_large" // the input passes a named limit

	// ESTORAGEFULL: the store has no room left (a full disk, or a budget
	// on what it holds); nothing was written.
	ESTORAGEFULL = "storage_full"
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
	// About lists the combatants the message mentions, and Names the
	// names it mentions of combatants not yet known by id (the engine
	// turns those into ids before a refusal leaves it). What a player
	// may read of a refusal follows from these declarations: Errorf
	// makes them from its arguments (see Mention).
	About []CombatantID
	Names []string
}

// Mention is a combatant's name as a message mentions it. Passing a
// Mention, or the *Combatant itself, to Errorf declares that the message
// names that combatant; a plain string declares nothing, so it must never
// hold a combatant's name.
type Mention string

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
// The combatants among args are declared in About and Names: a
// *Combatant prints its name and declares its id, a Mention prints and
// declares a name, and an error passes on what it declares (Quote prints
// an error's user-facing message and does the same).
func Errorf(code, format string, args ...any) *Error {
	e := &Error{Code: code}
	var shown []any // args, copied at the first change: the caller's slice stays theirs
	set := func(i int, v any) {
		if shown == nil {
			shown = slices.Clone(args)
		}
		shown[i] = v
	}
	for i, a := range args {
		switch v := a.(type) {
		case *Combatant:
			e.About = append(e.About, v.ID)
			set(i, v.Name)
		case Mention:
			e.Names = append(e.Names, string(v))
			set(i, string(v))
		case Quoted:
			e.inherit(v.err)
			set(i, ErrorMessage(v.err))
		case error:
			e.inherit(v)
		}
	}
	if shown == nil {
		shown = args
	}
	e.Message = fmt.Sprintf(format, shown...)
	return e
}

// Naming declares that e's message also names the combatants called
// names (words it holds that Errorf did not print from a *Combatant or a
// Mention, such as a reason worked out elsewhere), and returns e.
func (e *Error) Naming(names ...string) *Error {
	e.Names = append(e.Names, names...)
	return e
}

// inherit adds what err declares to e's declarations.
func (e *Error) inherit(err error) {
	var fe *Error
	if errors.As(err, &fe) {
		e.About = append(e.About, fe.About...)
		e.Names = append(e.Names, fe.Names...)
	}
}

// Quoted is an error quoted in another's message; see Quote.
type Quoted struct{ err error }

// Quote returns err for Errorf to print as its user-facing message
// (ErrorMessage), passing on the combatants it declares.
func Quote(err error) Quoted { return Quoted{err} }

// String returns the quoted error's user-facing message.
func (q Quoted) String() string { return ErrorMessage(q.err) }

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
