package postgres

import (
	"context"

	"fray"
)

// MapErr exposes mapErr to the tests.
var MapErr = mapErr

// Grouped returns how many appends s committed in groups of more than one.
func Grouped(s *Store) int64 { return s.groups.grouped.Load() }

// Groups returns how many groups of more than one append s committed.
func Groups(s *Store) int64 { return s.groups.groupsN.Load() }

// Append is one append for InGroup: evs to ID at Revision.
type Append struct {
	ID       string
	Revision int
	Events   []fray.EventRecord
}

// InGroup commits the appends as one group commit does, with no check
// before, and returns the rows each inserted or the group's error.
func InGroup(s *Store, as ...Append) ([]int64, error) {
	var live []*appendReq
	for _, a := range as {
		live = append(live, newAppendReq(context.Background(), a.ID, a.Revision, a.Events))
	}
	return s.inGroup(context.Background(), live)
}
