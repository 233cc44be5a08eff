package fray

import "context"

// Notifier is offered by a Store that several servers may share (package
// postgres): it announces every append to any encounter's log, by any
// writer, so that a server holding live streams learns of commands
// another server accepted. A server finds out whether its store offers
// one with a type assertion; a store kept by one process (SQLite, in
// memory) does not, and its server needs none.
//
// Notices say only which encounter moved on, and to which revision: the
// reader takes the events from Store.Events. The contract is what lets a
// reader miss nothing:
//
//   - A notice is sent only once its append has committed, so reading
//     the log after it finds the events it announces. Notices of one
//     encounter come in the order of its revisions.
//   - Every append committed while the channel is open is announced by a
//     Notice for it or, when the notifier may have missed some (its
//     connection to the database was lost, and is back), by a later
//     notice whose Encounter is empty: every encounter may have changed,
//     and the reader must compare what it holds with the store.
//   - The first notice may be such an empty one, once the notifier
//     listens: appends committed between the call and then are covered
//     by it.
//
// A notifier may announce an append more than once, and a reader must
// expect notices of revisions it already holds (its own appends, among
// others). The notifier waits for a reader that falls behind rather than
// dropping notices: a reader must take them promptly.
type Notifier interface {
	// Notify returns a channel of notices, kept until ctx is done or the
	// store is closed, when the channel is closed. Each call has a
	// channel, and may hold a connection, of its own. It fails only when
	// the store cannot notify at all (it is closed); a database out of
	// reach is waited for, not an error.
	Notify(ctx context.Context) (<-chan Notice, error)
}

// Notice announces that an encounter's log moved on; see Notifier.
type Notice struct {
	// Encounter is the id of the encounter appended to, or empty when the
	// notice stands for every encounter: notices may have been missed.
	Encounter string
	// Revision is the log's revision after the append, or 0 when
	// Encounter is empty.
	Revision int
}

// All reports whether the notice stands for every encounter, so that the
// reader must compare every encounter it holds with the store.
func (n Notice) All() bool { return n.Encounter == "" }
