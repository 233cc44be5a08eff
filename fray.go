// Package fray holds the domain words of the fray combat engine: encounters,
// combatants, commands, events and the errors every interface reports.
//
// The root package states what fray is; subpackages state how. It imports the
// standard library only, so every adapter (the command line, the HTTP server,
// the storage back ends) can depend on it without pulling in the others.
package fray
