package postgres

// MapErr exposes mapErr to the tests.
var MapErr = mapErr

// Grouped returns how many appends s committed in groups of more than one.
func Grouped(s *Store) int64 { return s.groups.grouped.Load() }
