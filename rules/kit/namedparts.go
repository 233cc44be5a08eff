package kit

import (
	"slices"
	"strings"

	"fray/dice"
)

// Prob returns the Prob of a named roll (NamedRoll.Prob) from its parts:
// read reads the arguments into a roll T, odds works out the exact odds O
// of T, and write writes them for people. The odds are the one object
// for JSON.
func Prob[T, O any](read func(*RollArgs) (T, error), odds func(T) (O, error), write func(b *strings.Builder, t T, o O)) func(*RollArgs) ([]any, string, error) {
	return func(a *RollArgs) ([]any, string, error) {
		t, err := read(a)
		if err != nil {
			return nil, "", err
		}
		o, err := odds(t)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		write(&b, t, o)
		return []any{o}, b.String(), nil
	}
}

// Fixed returns what makes a named roll whose dice may be given at the
// table: fixed[i] is the face of the i-th die the roll throws, 0 for one
// to roll, and make makes the roll from a source that plays those faces
// back and rolls the others (Mixed). It is Physical when any face is
// given, so that it is made only once.
func Fixed(fixed []int, make func(src dice.Source) (obj any, text string, err error)) RollMaker {
	physical := slices.ContainsFunc(fixed, func(f int) bool { return f > 0 })
	return RollMaker{Physical: physical, Make: func(src dice.Source) (any, string, error) {
		if physical {
			src = Mixed(fixed, src)
		}
		return make(src)
	}}
}
