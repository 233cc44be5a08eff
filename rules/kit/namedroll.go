// Package kit holds what the rule packages share, so that no system
// writes the same machinery again.
//
// The named roll: the roll a system offers by name to `fray roll --rules
// ID`, `fray prob --rules ID` and the HTTP API (POST /api/roll, /api/prob
// with "rules"), declared once in the system's own package (NamedRoll),
// with its keys declared by kind (Key, NumberKey, RequiredKey, YesNoKey,
// TableKey, AlongKey), the reader of its key=value arguments (RollArgs)
// and the helpers that write its dice and odds for people (Table, Dice,
// Signed, Pct).
//
// The opening of every system's Apply: its own state out of a fray.State
// (StateOf), the events every system shares applied with the system's
// bookkeeping kept in step (ApplyShared, Roster), the start
// (ApplyStarted). A system's per-combatant bookkeeping kept by id (Keyed:
// Find, Drop, CloneEach); the words of commands and their errors
// (LookupTwo, Stat, Title, QuoteName); the writers of a combatant's
// sheet, which never change it in place, so that copies may share it
// (SetTrack, SetStat, AddPower, AddExpertise, OwnPower, ScratchEncounter;
// fray.SheetSharer); and fixed dice (FixedDist).
//
// It imports fray, fray/dice, fray/engine and the standard library only.
package kit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"fray/dice"
)

// NamedRoller is a fray.System that offers a named roll. cmd/fray and web
// find a system's named roll by asserting this interface.
type NamedRoller interface {
	// NamedRoll returns the declaration of the system's named roll.
	NamedRoll() NamedRoll
}

// NamedRoll declares a system's named roll: its key=value arguments, and
// how to make the roll and work out its odds from them. Roll and Prob read
// their arguments through RollArgs, whose errors name the key and what it
// allows; run them through MakeRoll and Odds, which also refuse keys the
// roll does not take or that mean nothing with the others.
type NamedRoll struct {
	// Title says in a line what the roll is, with the ids of the rules it
	// follows: "Villains & Vigilantes to hit: … (V-8)".
	Title string
	// Keys lists the arguments, in the order help lists them.
	Keys []RollKey
	// Examples are argument lists that help shows, each a command word,
	// roll or prob, then key=value words: "prob value=4 vs=9".
	Examples []string
	// CostlyOdds reports that Prob may take more than a few milliseconds
	// (an exact distribution of a big pool), so that a server works them
	// out in its pool of workers rather than at once.
	CostlyOdds bool
	// Roll reads the arguments of a roll and returns what makes it.
	Roll func(a *RollArgs) (RollMaker, error)
	// Prob reads the arguments and returns the exact odds of each outcome:
	// for JSON, one object per line `fray prob --json` prints, and as text
	// for people.
	Prob func(a *RollArgs) (objs []any, text string, err error)
}

// RollKey declares one key=value argument of a named roll.
type RollKey struct {
	// Name is the key, in lower case: "value".
	Name string
	// Value shows what may follow "=", for help and errors: "N",
	// "yes|no", "N|challenging".
	Value string
	// Help says in a phrase what the key gives.
	Help string
	// Along names the key whose line of help describes this one too
	// (vs-mod= goes along with vs=): help gives it no line of its own.
	Along string
	// RollOnly marks dice rolled at the table, which only a roll takes:
	// odds are worked out before the dice are thrown.
	RollOnly bool
}

// RollMaker makes a named roll whose arguments have been read.
type RollMaker struct {
	// Physical reports that the arguments give dice rolled at the table,
	// so that the roll can be made only once.
	Physical bool
	// Make makes one roll from src and returns it for JSON and as text
	// for people.
	Make func(src dice.Source) (obj any, text string, err error)
}

// MakeRoll reads words, each key=value, as the arguments of a roll of the
// named roll of the system id, and returns what makes it.
func (n NamedRoll) MakeRoll(id string, words []string) (RollMaker, error) {
	a, err := n.args(id, words, true)
	if err != nil {
		return RollMaker{}, err
	}
	r, err := n.Roll(a)
	if err != nil {
		return RollMaker{}, err
	}
	return r, a.unused()
}

// Odds reads words, each key=value, as the arguments of the named roll of
// the system id, and returns its odds as Prob does. Dice rolled at the
// table (RollOnly keys) are refused.
func (n NamedRoll) Odds(id string, words []string) (objs []any, text string, err error) {
	a, err := n.args(id, words, false)
	if err != nil {
		return nil, "", err
	}
	if objs, text, err = n.Prob(a); err != nil {
		return nil, "", err
	}
	if err := a.unused(); err != nil {
		return nil, "", err
	}
	return objs, text, nil
}

// Check reports what is wrong with the declaration of the named roll of
// the system id, or nil: it must have a title, Roll and Prob, and keys
// each named once in lower case (letters, digits and "-"), each with a
// Value and Help, an Along naming another key; and its examples must
// run, each roll made once from a seeded source. Each system's tests call
// it.
func (n NamedRoll) Check(id string) error {
	if n.Title == "" || n.Roll == nil || n.Prob == nil {
		return fmt.Errorf("%s: the named roll needs a Title, Roll and Prob", id)
	}
	if len(n.Keys) == 0 {
		return fmt.Errorf("%s: the named roll has no keys", id)
	}
	var errs []error
	seen := map[string]bool{}
	for i, k := range n.Keys {
		switch {
		case !keyName(k.Name):
			errs = append(errs, fmt.Errorf("%s: key %d is named %q: want lower-case letters, digits and -", id, i+1, k.Name))
		case seen[k.Name]:
			errs = append(errs, fmt.Errorf("%s: key %q is declared twice", id, k.Name))
		}
		seen[k.Name] = true
		if k.Value == "" || k.Help == "" {
			errs = append(errs, fmt.Errorf("%s: key %q needs a Value and Help", id, k.Name))
		}
	}
	for _, k := range n.Keys {
		if k.Along != "" && (k.Along == k.Name || !seen[k.Along]) {
			errs = append(errs, fmt.Errorf("%s: key %q goes along with %q, which is not another key", id, k.Name, k.Along))
		}
	}
	for _, e := range n.Examples {
		f := strings.Fields(e)
		var err error
		switch {
		case len(f) > 0 && f[0] == "roll":
			var r RollMaker
			if r, err = n.MakeRoll(id, f[1:]); err == nil {
				_, _, err = r.Make(rand.New(rand.NewPCG(1, 2)))
			}
		case len(f) > 0 && f[0] == "prob":
			_, _, err = n.Odds(id, f[1:])
		default:
			err = errors.New("want roll or prob, then key=value words")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: example %q: %w", id, e, err))
		}
	}
	return errors.Join(errs...)
}

// keyName reports whether s may name a key: lower-case letters, digits
// and "-", starting with a letter.
func keyName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Range bounds the numbers a GM may type for values, chances and
// difficulties: from −Range to Range.
const Range = 1000

// RollArgs holds the key=value arguments of a named roll. Its getters
// return errors that name the key and what it allows, and note which keys
// were read, so that a key given but meaning nothing is refused.
type RollArgs struct {
	id   string
	keys []RollKey
	roll bool
	vals map[string]string
	read map[string]bool
}

// args reads key=value words, refusing keys the roll does not take (and,
// for odds, dice rolled at the table).
func (n NamedRoll) args(id string, words []string, roll bool) (*RollArgs, error) {
	a := &RollArgs{id: id, keys: n.Keys, roll: roll, vals: map[string]string{}, read: map[string]bool{}}
	for _, arg := range words {
		key, val, ok := strings.Cut(arg, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("argument %q: want key=value; %s takes %s", arg, id, a.keyList())
		}
		key = strings.ToLower(key)
		i := slices.IndexFunc(n.Keys, func(k RollKey) bool { return k.Name == key })
		switch {
		case i < 0:
			return nil, fmt.Errorf("unknown key %q: %s takes %s", key, id, a.keyList())
		case n.Keys[i].RollOnly && !roll:
			return nil, fmt.Errorf("key %q gives dice rolled at the table; fray prob works out the odds before the roll (use fray roll)", key)
		case val == "":
			return nil, fmt.Errorf("%s= is empty: want %s=%s", key, key, n.Keys[i].Value)
		}
		if _, dup := a.vals[key]; dup {
			return nil, fmt.Errorf("%s= is given twice", key)
		}
		a.vals[key] = val
	}
	return a, nil
}

// keyList names the keys the roll (or its odds) takes.
func (a *RollArgs) keyList() string {
	var names []string
	for _, k := range a.keys {
		if a.roll || !k.RollOnly {
			names = append(names, k.Name)
		}
	}
	return Or(names)
}

// unused reports a key that was given but means nothing with the others
// (such as vs-mod= without vs=).
func (a *RollArgs) unused() error {
	for _, k := range a.keys {
		if _, ok := a.vals[k.Name]; ok && !a.read[k.Name] {
			if strings.HasPrefix(k.Name, "vs-") {
				return fmt.Errorf("%s= is for the opponent: it needs vs=", k.Name)
			}
			return fmt.Errorf("%s= does not apply here (it goes with the keys described in \"fray roll --help\")", k.Name)
		}
	}
	return nil
}

// Has reports whether key was given, without reading it.
func (a *RollArgs) Has(key string) bool {
	_, ok := a.vals[key]
	return ok
}

// Get returns the text given for key, and whether it was given.
func (a *RollArgs) Get(key string) (string, bool) {
	v, ok := a.vals[key]
	if ok {
		a.read[key] = true
	}
	return v, ok
}

// Int returns the whole number from lo to hi given for key, def if it is
// absent.
func (a *RollArgs) Int(key string, def, lo, hi int) (int, error) {
	s, ok := a.Get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%s: want a whole number from %d to %d", key, s, lo, hi)
	}
	return n, nil
}

// Required returns the whole number from lo to hi given for key, which
// must be there.
func (a *RollArgs) Required(key string, lo, hi int) (int, error) {
	if !a.Has(key) {
		return 0, fmt.Errorf("%s= is required: a whole number from %d to %d", key, lo, hi)
	}
	return a.Int(key, 0, lo, hi)
}

// Bool reads yes or no (also y/n, true/false, on/off, 1/0) for key, false
// if it is absent.
func (a *RollArgs) Bool(key string) (bool, error) {
	s, ok := a.Get(key)
	if !ok {
		return false, nil
	}
	switch strings.ToLower(s) {
	case "yes", "y", "true", "on", "1":
		return true, nil
	case "no", "n", "false", "off", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: want yes or no", key, s)
}

// Faces reads a comma-separated list of faces from 1 to sides for key,
// nil if it is absent; zero, when zeroIs is above 0, stands for that face
// (a D10's 0 is a 10).
func (a *RollArgs) Faces(key string, sides, zeroIs int) ([]int, error) {
	s, ok := a.Get(key)
	if !ok {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > dice.MaxTotalDice {
		return nil, fmt.Errorf("%s=: more than %d faces", key, dice.MaxTotalDice)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		f, err := strconv.Atoi(strings.TrimSpace(p))
		if err == nil && f == 0 && zeroIs > 0 {
			f = zeroIs
		}
		if err != nil || f < 1 || f > sides {
			return nil, fmt.Errorf("%s=%s: face %d is %q; want faces from 1 to %d separated by commas", key, s, i+1, strings.TrimSpace(p), sides)
		}
		out[i] = f
	}
	return out, nil
}

// Or joins words as "a, b or c".
func Or(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// TaggedJSON returns v, which must encode as a JSON object, encoded on
// one line with "rules": id as its first field: the form in which `fray
// roll --json --rules ID` prints a roll and the HTTP API answers one.
func TaggedJSON(id string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, errors.New("the result is not a JSON object")
	}
	head, _ := json.Marshal(id)
	out := append([]byte(`{"rules":`), head...)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}
