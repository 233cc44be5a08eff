package fray

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind says what an argument or an option's value is. Kinds are wire
// strings (GET /api/systems): never rename one.
type Kind string

// The kinds of arguments and option values.
const (
	// KindCombatant is the name of a combatant.
	KindCombatant Kind = "combatant"
	// KindStat is a stat, attribute or trait the system names.
	KindStat Kind = "stat"
	// KindPower is a power, weapon or attack a combatant has.
	KindPower Kind = "power"
	// KindNumber is a whole number from Min to Max, or one of Choices.
	KindNumber Kind = "number"
	// KindChoice is one of Choices (or of Also), compared without regard
	// to case.
	KindChoice Kind = "choice"
	// KindText is free text; Choices, when given, are words to suggest.
	KindText Kind = "text"
	// KindDice is the faces rolled at the table ("6,3") or their total.
	KindDice Kind = "dice"
)

// Send says who may send a command. Its values are wire strings (GET
// /api/systems): never rename one.
type Send string

// Who may send a command.
const (
	// SendGM marks a command that changes the encounter itself: the GM's
	// alone.
	SendGM Send = "gm"
	// SendQuery marks a command that only reads: anyone may send it.
	SendQuery Send = "query"
	// SendCurrent marks a command the current combatant's player may
	// send; when the declaration has an Actor argument and it is given,
	// it acts for whom that argument names instead.
	SendCurrent Send = "current"
	// SendNamed marks a command the player of the combatant its Actor
	// arguments name may send; a player must give the name.
	SendNamed Send = "named"
)

// Param declares one positional argument or one key=value option of a
// command. Field names are wire strings: never rename one.
type Param struct {
	// Name is what usage shows for a positional argument ("NAME",
	// "TARGET"), or an option's key in lower case ("mod").
	Name string `json:"name"`
	// Kind says what the word (the option's value) is.
	Kind Kind `json:"kind"`
	// Help says in a phrase what the argument gives.
	Help string `json:"help,omitempty"`
	// Choices are the words a KindChoice takes, the words a KindNumber
	// takes besides numbers ("hard"), or words to suggest for any other
	// kind ("yes" for expertise=yes|SKILL).
	Choices []string `json:"choices,omitempty"`
	// Also are further words a KindChoice takes, not offered
	// ("defense" beside "defence").
	Also []string `json:"also,omitempty"`
	// Min and Max bound a KindNumber when Max > Min.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Optional marks a positional argument that may be left out (the
	// optional ones are filled from the left as words allow).
	Optional bool `json:"optional,omitempty"`
	// Required marks an option that must be given.
	Required bool `json:"required,omitempty"`
	// Repeat marks the last positional argument as taking every word
	// left (at least one unless Optional).
	Repeat bool `json:"repeat,omitempty"`
	// Actor marks the positional argument that names whom the command
	// acts for (see Send).
	Actor bool `json:"actor,omitempty"`
	// Hint is what usage shows for the word or the value when the kind
	// alone cannot say it ("STAT[+SKILL]", "NAME:light|medium|heavy").
	Hint string `json:"hint,omitempty"`
	// Default is what an option left out means, when it means a value.
	Default string `json:"default,omitempty"`
	// Folded marks an option usage leaves out: one of a run of options
	// alike (add's stats), whose first usage shows followed by "…".
	Folded bool `json:"folded,omitempty"`
}

// CommandDecl declares one command a system accepts, once: from it come
// the checking of its words (Check), its usage line and help, the page's
// completion, who may send it, and its entry in GET /api/systems. Field
// names are wire strings: never rename one.
type CommandDecl struct {
	// Name is the command word, in lower case.
	Name string `json:"name"`
	// Summary says what the command does, in a sentence or a few.
	Summary string `json:"summary"`
	// Args are the positional arguments in order.
	Args []Param `json:"args"`
	// Opts are the key=value options, in the order usage lists them.
	Opts []Param `json:"opts"`
	// Send says who may send the command.
	Send Send `json:"send"`
	// Rolls reports that the command may roll dice (dice= and roll=
	// give the table's, and odds shows its odds).
	Rolls bool `json:"rolls,omitempty"`
	// Answers reports that the command answers a roll waiting for it (a
	// defence against an attack): its odds depend on that roll.
	Answers bool `json:"answers,omitempty"`
	// Examples are whole commands as a table would type them.
	Examples []string `json:"examples,omitempty"`
}

// Usage returns the command's usage line, written from the declaration:
// "check NAME STAT [mod=N]".
func (d CommandDecl) Usage() string {
	var b strings.Builder
	b.WriteString(d.Name)
	for _, p := range d.Args {
		w := p.word()
		if p.Repeat {
			w += " …"
		}
		if p.Optional {
			w = "[" + w + "]"
		}
		b.WriteString(" " + w)
	}
	for i, p := range d.Opts {
		if p.Folded {
			continue
		}
		w := p.Name + "=" + p.value()
		if i+1 < len(d.Opts) && d.Opts[i+1].Folded {
			w += " …"
		}
		if !p.Required {
			w = "[" + w + "]"
		}
		b.WriteString(" " + w)
	}
	return b.String()
}

// word is what usage shows for a positional argument.
func (p Param) word() string {
	switch {
	case p.Hint != "":
		return p.Hint
	case p.Kind == KindChoice:
		return strings.Join(p.Choices, "|")
	}
	return p.Name
}

// value is what usage shows after an option's "=".
func (p Param) value() string {
	if p.Hint != "" {
		return p.Hint
	}
	switch p.Kind {
	case KindChoice:
		return strings.Join(p.Choices, "|")
	case KindNumber:
		return strings.Join(append(slices.Clone(p.Choices), "N"), "|")
	case KindCombatant:
		return "NAME"
	case KindStat:
		return "STAT"
	case KindPower:
		return "POWER"
	case KindDice:
		return "DICE"
	}
	return "TEXT"
}

// Doc returns the command's line of help.
func (d CommandDecl) Doc() CommandDoc { return CommandDoc{Usage: d.Usage(), Summary: d.Summary} }

// Bind returns, for each of n positional words, the index in Args of the
// argument it gives, or false when n words do not fit the declaration.
// Optional arguments are filled from the left, as many as the words
// beyond the required ones allow; a Repeat argument takes the rest.
func (d CommandDecl) Bind(n int) ([]int, bool) {
	if !d.fits(n) {
		return nil, false
	}
	out := make([]int, 0, n)
	d.bind(n, func(_, a int) { out = append(out, a) })
	return out, true
}

// Actors returns the words of cmd that name whom it acts for (its Actor
// arguments), and whether cmd's words fit the declaration at all.
func (d CommandDecl) Actors(cmd Command) ([]string, bool) {
	at, ok := d.Bind(len(cmd.Args))
	if !ok {
		return nil, false
	}
	var who []string
	for i, a := range at {
		if d.Args[a].Actor {
			who = append(who, cmd.Args[i])
		}
	}
	return who, true
}

// Check refuses cmd when its words do not fit the declaration, with an
// EINVALID error that says why in words every command shares: too few
// or too many positional words (the usage line), an option the command
// does not take, a required option left out, a number out of its bounds
// or a word that is not one of the choices. What the words mean (whether
// a name names someone, a stat is the combatant's) is the system's to
// check.
func (d CommandDecl) Check(cmd Command) error {
	// The common case, words that fit, allocates nothing; a misfit is
	// looked at again in a fixed order, for the same error every time.
	if !d.fits(len(cmd.Args)) {
		return Errorf(EINVALID, "Usage: %s (quote names with spaces).", d.Usage())
	}
	bad := false
	d.bind(len(cmd.Args), func(i, a int) {
		bad = bad || !d.Args[a].ok(cmd.Args[i])
	})
	for k, v := range cmd.Opts {
		i := d.opt(k)
		bad = bad || i < 0 || !d.Opts[i].ok(v)
	}
	for _, p := range d.Opts {
		if _, given := cmd.Opts[p.Name]; p.Required && !given {
			bad = true
		}
	}
	if !bad {
		return nil
	}
	return d.misfit(cmd)
}

// misfit returns the error of cmd, whose words Check found not to fit:
// the first argument that is not of its kind, else the first option in
// the order of their keys that the command does not take or whose value
// is not of its kind, else the first required option left out.
func (d CommandDecl) misfit(cmd Command) error {
	var err error
	d.bind(len(cmd.Args), func(i, a int) {
		if err == nil {
			err = d.Args[a].check(d.Name, "", cmd.Args[i])
		}
	})
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(cmd.Opts)) {
		i := d.opt(k)
		if i < 0 {
			if len(d.Opts) == 0 {
				return Errorf(EINVALID, "%s takes no key=value options; %s= is unknown.", d.Name, clipWord(k))
			}
			names := make([]string, len(d.Opts))
			for j, p := range d.Opts {
				names[j] = p.Name + "="
			}
			return Errorf(EINVALID, "%s does not know the key %s=; it takes %s.", d.Name, clipWord(k), strings.Join(names, ", "))
		}
		if err := d.Opts[i].check(d.Name, k, cmd.Opts[k]); err != nil {
			return err
		}
	}
	for _, p := range d.Opts {
		if _, given := cmd.Opts[p.Name]; p.Required && !given {
			return Errorf(EINVALID, "%s needs %s=%s. Usage: %s", d.Name, p.Name, p.value(), d.Usage())
		}
	}
	return nil
}

// opt returns the index in Opts of the option key, or -1.
func (d CommandDecl) opt(key string) int {
	for i := range d.Opts {
		if d.Opts[i].Name == key {
			return i
		}
	}
	return -1
}

// fits reports whether n positional words fit the declaration's count.
func (d CommandDecl) fits(n int) bool {
	required, optional, repeat := 0, 0, false
	for _, p := range d.Args {
		if p.Optional {
			optional++
		} else {
			required++
		}
		repeat = repeat || p.Repeat
	}
	return n >= required && (repeat || n <= required+optional)
}

// bind calls f for each of n positional words, which fit the
// declaration's count (fits), with the word's index and the index in
// Args of the argument it gives (see Bind).
func (d CommandDecl) bind(n int, f func(word, arg int)) {
	required := 0
	for _, p := range d.Args {
		if !p.Optional {
			required++
		}
	}
	spare, w := n-required, 0
	for i, p := range d.Args {
		if p.Optional {
			if spare == 0 {
				continue
			}
			spare--
		}
		f(w, i)
		w++
		if p.Repeat {
			for ; w < n; w++ {
				f(w, i)
			}
		}
	}
}

// ok reports whether a word (an option's value) is of p's kind.
func (p Param) ok(w string) bool {
	switch p.Kind {
	case KindNumber:
		if slices.ContainsFunc(p.Choices, func(c string) bool { return strings.EqualFold(c, w) }) {
			return true
		}
		n, err := strconv.Atoi(w)
		return err == nil && (p.Max <= p.Min || (n >= p.Min && n <= p.Max))
	case KindChoice:
		eq := func(c string) bool { return strings.EqualFold(c, w) }
		return slices.ContainsFunc(p.Choices, eq) || slices.ContainsFunc(p.Also, eq)
	}
	return true
}

// check refuses a word (an option's value when key is not "") that is
// not of p's kind (ok): a number out of bounds, a word not among the
// choices.
func (p Param) check(cmd, key, w string) error {
	if p.ok(w) {
		return nil
	}
	what := fmt.Sprintf("%s %s: %q", cmd, p.Name, clipWord(w))
	if key != "" {
		what = fmt.Sprintf("%s: %s=%s", cmd, key, clipWord(w))
	}
	if p.Kind == KindNumber {
		return Errorf(EINVALID, "%s is not a whole number%s.", what, p.bounds())
	}
	return Errorf(EINVALID, "%s is not allowed; use one of %s.", what, strings.Join(p.Choices, ", "))
}

// bounds says what else a number may be, for an error: " from -10 to
// 10", " or hard".
func (p Param) bounds() string {
	s := ""
	if p.Max > p.Min {
		s = " from " + strconv.Itoa(p.Min) + " to " + strconv.Itoa(p.Max)
	}
	if len(p.Choices) > 0 {
		s += " or " + strings.Join(p.Choices, ", ")
	}
	return s
}

// clipWord shortens a word quoted back in an error to 40 bytes.
func clipWord(s string) string { return clipTo(s, 40) }

// clipTo cuts s to at most n bytes at a character's boundary, marking
// the cut with "…".
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// FindDecl returns the declaration of the command word name among ds
// (compared without regard to case), or false.
func FindDecl(ds []CommandDecl, name string) (CommandDecl, bool) {
	for _, d := range ds {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return CommandDecl{}, false
}

// Completions returns what may follow a command's word, for a page's
// completion: the words of positional choices ("major"), each option
// with each of its choices ("choose=smashing"), or with nothing to fill
// in when it takes any value ("mod=").
func (d CommandDecl) Completions() []string {
	out := []string{}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, p := range d.Args {
		if p.Kind == KindChoice || (p.Kind == KindText && len(p.Choices) > 0) {
			for _, c := range p.Choices {
				add(c)
			}
		}
	}
	for _, p := range d.Opts {
		for _, c := range p.Choices {
			add(p.Name + "=" + c)
		}
		if p.Kind != KindChoice {
			add(p.Name + "=")
		}
	}
	return out
}
