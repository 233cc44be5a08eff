package rulestest

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// undeclared is a command word no system declares.
const undeclared = "frobnicate"

// CheckDecided reports a command that the system newSystem returns
// declares but does not decide, or whose declaration its odds
// contradict. On a new encounter, and on each script at a few points
// (before its first start, half-way through, at its end), it builds for
// every declaration but the engine's own (undo, redo, the queries) a
// few commands whose words fit it (see CheckDecidedAt) and checks each
// as Step does: Do never answers EINTERNAL, which means declared but not
// decided, or a crash (a refusal of what the words mean is fine); a
// refusal changes nothing; an accepted command undoes and redoes
// exactly. The odds of each answer that it rolls no dice exactly when it
// is not declared Rolls, change nothing and never answer EINTERNAL, and
// the system's own Odds gives none of a command not declared Rolls. On
// the new encounter it also checks that the engine refuses a word no
// declaration names, and that Decide, given it all the same, answers
// EINTERNAL: the answer a declared word that is not decided gets,
// without which this check would find nothing. Everything is seeded as
// RunScript seeds it, so a failure is the same on every run; it is
// reported once for each command word, where it is first met.
func CheckDecided(newSystem func() fray.System, scripts ...Script) error {
	e := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	var errs []error
	if err := checkUndeclared(e); err != nil {
		errs = append(errs, fmt.Errorf("a new encounter: %w", err))
	}
	seen := map[string]bool{}
	report := func(where string, fails []wordError) {
		for _, f := range fails {
			if !seen[f.word] {
				seen[f.word] = true
				errs = append(errs, fmt.Errorf("%s: %w", where, f.err))
			}
		}
	}
	report("a new encounter", decidedAt(e))
	for _, s := range scripts {
		var cmds []fray.Command
		start := -1
		for i, line := range strings.Split(s.Text, "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil {
				return fmt.Errorf("%s: line %d: %v", s.Name, i+1, err)
			}
			if cmd.Name == "" {
				continue
			}
			if start < 0 && strings.EqualFold(cmd.Name, "start") {
				start = len(cmds)
			}
			cmds = append(cmds, cmd)
		}
		var points []int
		for _, k := range []int{start, len(cmds) / 2, len(cmds)} {
			if k > 0 && !slices.Contains(points, k) {
				points = append(points, k)
			}
		}
		for _, k := range points {
			// A new engine for each point: what is tried at one
			// takes no redo from the script's next line.
			e := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
			for _, cmd := range cmds[:k] {
				_, _ = e.Do(cmd) // refusals are the script's own (see RunScript)
			}
			report(fmt.Sprintf("%s, after %d of its %d commands", s.Name, k, len(cmds)), decidedAt(e))
		}
	}
	return errors.Join(errs...)
}

// CheckDecidedAt checks, in the encounter e holds, every declaration of
// its system but the engine's own as CheckDecided does, with a few
// commands whose words fit the declaration: the required words alone;
// every argument (a repeated one twice) with the required options; that
// with each other option alone (but a folded one), and with another
// stat or power of the sheet; every argument and option, numbers at their least; and each
// example. The words are drawn from the encounter: the combatants'
// names, the current one's first; a stat or a power from the sheet of
// the first combatant the command names (a stat the system's add
// declares before any other, an attack before any other power), else
// the declaration's examples' word, or the system's first stat; a
// choice's first; a number within bounds (1, or the least). An accepted
// command is undone, so that e's state is left as it was found; its log
// holds what was tried, and redo has nothing left to restore.
func CheckDecidedAt(e *engine.Engine) error {
	var errs []error
	for _, f := range decidedAt(e) {
		errs = append(errs, f.err)
	}
	return errors.Join(errs...)
}

// wordError is a failure of CheckDecidedAt, with the command word it is
// about.
type wordError struct {
	word string
	err  error
}

// decidedAt returns the first failure of each declaration that
// CheckDecidedAt checks.
func decidedAt(e *engine.Engine) []wordError {
	_, odds := e.System().(fray.Oddser)
	w := newWords(e)
	var fails []wordError
	for _, d := range e.Decls() {
		if d.Name == engine.CmdUndo || d.Name == engine.CmdRedo || engine.IsQuery(d.Name) {
			continue
		}
		for _, cmd := range w.fitting(d) {
			err := d.Check(engine.WithoutDice(cmd))
			if err != nil {
				err = fmt.Errorf("%s: the suite's command %q does not fit the declaration: %v", d.Name, cmd.String(), err)
			} else if err = checkOneDecided(e, cmd); err == nil && odds {
				err = checkOdds(e, d, engine.WithoutDice(cmd))
			}
			if err != nil {
				fails = append(fails, wordError{d.Name, err})
				break
			}
		}
	}
	return fails
}

// checkOneDecided carries out cmd with Step and undoes it when it was
// taken.
func checkOneDecided(e *engine.Engine, cmd fray.Command) error {
	applied, _ := e.Steps()
	if err := Step(e, cmd); err != nil {
		if ie := (*internalError)(nil); errors.As(err, &ie) {
			return fmt.Errorf("%w (declared but not decided, or a crash)", err)
		}
		return err
	}
	if now, _ := e.Steps(); now > applied {
		if _, err := e.Undo(); err != nil {
			return fmt.Errorf("undo after %q: %v", cmd.String(), err)
		}
	}
	return nil
}

// rollsNone reports whether err answers that a command rolls no dice.
func rollsNone(err error) bool { return strings.Contains(fray.ErrorMessage(err), "rolls no dice") }

// checkOdds checks the odds of cmd, whose declaration is d: they answer
// that it rolls no dice exactly when d does not roll, change nothing and
// never answer EINTERNAL. A command that rolls only in some of its forms
// (bpb's start, in a rolled order) may answer that it rolls no dice when
// another choice of one of its words rolls. The system's own Odds, asked
// about a command not declared to roll, gives no odds either: had it
// some, the declaration would be missing Rolls.
func checkOdds(e *engine.Engine, d fray.CommandDecl, cmd fray.Command) error {
	_, err := oddsOf(e, cmd)
	switch {
	case fray.ErrorCode(err) == fray.EINTERNAL:
		return fmt.Errorf("odds %s: %v", cmd.String(), err)
	case !d.Rolls && !rollsNone(err):
		return fmt.Errorf("odds %s answers %v, but %s is not declared to roll: the engine answers that it rolls no dice", cmd.String(), cmp.Or(fray.ErrorMessage(err), "with odds"), d.Name)
	case d.Rolls && rollsNone(err):
		for _, v := range variants(d, cmd) {
			_, verr := oddsOf(e, v)
			if fray.ErrorCode(verr) == fray.EINTERNAL {
				return fmt.Errorf("odds %s: %v", v.String(), verr)
			}
			if !rollsNone(verr) {
				return nil
			}
		}
		return fmt.Errorf("odds %s answers %q, but %s is declared to roll (Rolls), and no other choice of its words rolls", cmd.String(), fray.ErrorMessage(err), d.Name)
	case !d.Rolls:
		st := e.State().Clone()
		o, err := systemOdds(e.System().(fray.Oddser), st, cmd)
		if err == nil {
			return fmt.Errorf("%s is not declared to roll, yet the system's Odds gives odds of %q: %s (declare it Rolls)", d.Name, cmd.String(), o.Expr)
		}
		if !reflect.DeepEqual(st, e.State()) {
			return fmt.Errorf("the system's Odds of %q changed the state it was given:\n%s", cmd.String(), diff(e.State(), st))
		}
	}
	return nil
}

// systemOdds asks the system itself for the odds of cmd, as the engine
// never does for a command not declared to roll, and reports a panic as
// an internal error.
func systemOdds(o fray.Oddser, st fray.State, cmd fray.Command) (odds fray.Odds, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fray.Errorf(fray.EINTERNAL, "panic: %v", r)
		}
	}()
	return o.Odds(st, cmd)
}

// oddsOf asks e for the odds of cmd as "odds CMD …" does, and reports a
// panic, or a change to the state, as an internal error.
func oddsOf(e *engine.Engine, cmd fray.Command) (o fray.Odds, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fray.Errorf(fray.EINTERNAL, "panic: %v", r)
		}
	}()
	before := e.State().Clone()
	q := fray.Command{Name: engine.CmdOdds, Args: append([]string{cmd.Name}, cmd.Args...), Opts: cmd.Opts}
	o, err = e.Odds(q)
	if !reflect.DeepEqual(before, e.State()) {
		return o, fray.Errorf(fray.EINTERNAL, "odds changed the state:\n%s", diff(before, e.State()))
	}
	return o, err
}

// checkUndeclared checks, in the encounter e holds, that the engine
// refuses the words no declaration names (other systems' words), and
// that Decide answers them EINTERNAL.
func checkUndeclared(e *engine.Engine) error {
	var engineSays, decideSays []string
	var engineErr, decideErr error
	seen := map[string]bool{}
	for _, w := range append([]string{undeclared}, commandWords...) {
		if _, ok := fray.FindDecl(e.Decls(), w); ok || seen[w] {
			continue
		}
		seen[w] = true
		cmd := fray.Command{Name: w}
		if _, err := e.Do(cmd); fray.ErrorCode(err) != fray.EINVALID {
			engineSays, engineErr = append(engineSays, w), cmp.Or(engineErr, err)
		}
		_, err := e.System().Decide(e.State().Clone(), cmd, seeded{rand.New(rand.NewPCG(2, 3))})
		if fray.ErrorCode(err) != fray.EINTERNAL {
			decideSays, decideErr = append(decideSays, w), cmp.Or(decideErr, err)
		}
	}
	var errs []error
	if len(engineSays) > 0 {
		errs = append(errs, fmt.Errorf("%s, declared nowhere: the engine answers %v, want its refusal (EINVALID)", strings.Join(engineSays, ", "), engineErr))
	}
	if len(decideSays) > 0 {
		errs = append(errs, fmt.Errorf("%s, declared nowhere: Decide answers %v, want EINTERNAL, the answer a word declared and not decided gets", strings.Join(decideSays, ", "), decideErr))
	}
	return errors.Join(errs...)
}

// words draws the words of commands from an encounter (see
// CheckDecidedAt).
type words struct {
	view  fray.View
	names []string // the combatants', the current one's first
	stats []string // the system's stats, as add declares them
}

// newWords returns the words of e's encounter.
func newWords(e *engine.Engine) *words {
	w := &words{view: e.View()}
	if w.view.Current != "" {
		w.names = append(w.names, w.view.Current)
	}
	for _, c := range w.view.Combatants {
		if !fray.SameName(c.Name, w.view.Current) {
			w.names = append(w.names, c.Name)
		}
	}
	if add, ok := fray.FindDecl(e.Decls(), engine.CmdAdd); ok {
		for _, p := range add.Opts {
			if p.Kind == fray.KindNumber && len(p.Choices) == 0 {
				w.stats = append(w.stats, p.Name)
			}
		}
	}
	return w
}

// fitting returns commands of d's word whose words fit it: the required
// words alone; every argument (a repeated one twice) with the required
// options; that with each other option alone (but a folded one), and
// with each other stat or power of the sheet in turn; every argument and option, numbers at
// their least; and the examples, naming the encounter's combatants.
func (w *words) fitting(d fray.CommandDecl) []fray.Command {
	ex := examples(d)
	who := 0    // how many combatants the words name
	first := "" // the first of them
	// slot holds the words that may stand for one argument or option.
	type slot struct {
		word, least string
		alts        []string // other stats or powers of the sheet
		optional    bool     // an argument that may be left out
	}
	// fill returns the slot of p (key: "#i" for the i-th argument, else
	// the option's key), for its nth word when it repeats.
	fill := func(p fray.Param, key string, nth int) slot {
		v, given := ex[key]
		switch p.Kind {
		case fray.KindCombatant:
			if len(w.names) == 0 {
				return slot{word: cmp.Or(v, "Nobody")}
			}
			n := w.names[who%len(w.names)]
			if who++; first == "" {
				first = n
			}
			return slot{word: n}
		case fray.KindChoice:
			return slot{word: p.Choices[nth%len(p.Choices)]}
		case fray.KindNumber:
			one := 1
			if p.Max > p.Min {
				one = min(max(one, p.Min), p.Max)
			}
			return slot{word: strconv.Itoa(one), least: strconv.Itoa(p.Min)}
		case fray.KindStat, fray.KindPower:
			if s := w.sheet(cmp.Or(first, w.first()), p.Kind); len(s) > 0 {
				return slot{word: s[0], alts: s[1:min(len(s), 3)]}
			}
			if !given && p.Kind == fray.KindStat && len(w.stats) > 0 {
				return slot{word: w.stats[0]}
			}
		case fray.KindDice:
			if !given {
				return slot{word: "3"}
			}
		}
		switch {
		case given:
			return slot{word: v}
		case len(p.Choices) > 0:
			return slot{word: p.Choices[0]}
		}
		return slot{word: "x"}
	}
	var args []slot
	for i, p := range d.Args {
		n := 1
		if p.Repeat {
			n = 2
		}
		for j := range n {
			s := fill(p, "#"+strconv.Itoa(i), j)
			s.optional = p.Optional || j > 0
			args = append(args, s)
		}
	}
	opts := make([]slot, len(d.Opts))
	for i, p := range d.Opts {
		opts[i] = fill(p, p.Name, 0)
	}
	// build returns a command of the slots' words: the optional
	// arguments too when all, every option at its least when least, else
	// the required ones and the with-th; alt stands for the slot at.
	build := func(all, least bool, with int, at *slot, alt string) fray.Command {
		word := func(s *slot) string {
			switch {
			case s == at:
				return alt
			case least:
				return cmp.Or(s.least, s.word)
			}
			return s.word
		}
		cmd := fray.Command{Name: d.Name, Opts: map[string]string{}}
		for i := range args {
			if all || !args[i].optional {
				cmd.Args = append(cmd.Args, word(&args[i]))
			}
		}
		for i, p := range d.Opts {
			if least || p.Required || i == with || &opts[i] == at {
				cmd.Opts[p.Name] = word(&opts[i])
			}
		}
		return cmd
	}
	out := []fray.Command{build(false, false, -1, nil, ""), build(true, false, -1, nil, "")}
	for i, p := range d.Opts {
		if !p.Required && !p.Folded { // a folded option is like the one before it
			out = append(out, build(true, false, i, nil, ""))
		}
	}
	for i := range args {
		for _, alt := range args[i].alts {
			out = append(out, build(true, false, -1, &args[i], alt))
		}
	}
	for i := range opts {
		for _, alt := range opts[i].alts {
			out = append(out, build(true, false, -1, &opts[i], alt))
		}
	}
	out = append(out, build(true, true, -1, nil, ""))
	// The examples as a table would type them, naming the encounter's
	// combatants instead of theirs.
	for _, line := range d.Examples {
		cmd, err := engine.ParseCommand(line)
		at, ok := d.Bind(len(cmd.Args))
		if err != nil || !ok || len(w.names) == 0 {
			continue
		}
		who := 0
		name := func() string { who++; return w.names[(who-1)%len(w.names)] }
		for i, a := range at {
			if d.Args[a].Kind == fray.KindCombatant {
				cmd.Args[i] = name()
			}
		}
		for _, p := range d.Opts {
			if _, ok := cmd.Opts[p.Name]; ok && p.Kind == fray.KindCombatant {
				cmd.Opts[p.Name] = name()
			}
		}
		out = append(out, cmd)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(c fray.Command) bool {
		dup := seen[c.String()]
		seen[c.String()] = true
		return dup
	})
}

// sheet returns the stats or the powers (kind) on the sheet of the
// combatant named name, the likeliest first: the stats the system's add
// declares, in its order, then the rest; the powers that deal damage
// (attacks, weapons), then the rest. It returns none when nobody is
// named.
func (w *words) sheet(name string, kind fray.Kind) []string {
	i := slices.IndexFunc(w.view.Combatants, func(c fray.Combatant) bool { return name != "" && fray.SameName(c.Name, name) })
	if i < 0 {
		return nil
	}
	c := w.view.Combatants[i]
	var out []string
	if kind == fray.KindPower {
		for _, attacks := range []bool{true, false} {
			for _, p := range c.Powers {
				if (p.Damage != "" || p.Kind == fray.PowerKindWeapon) == attacks {
					out = append(out, p.Name)
				}
			}
		}
		return out
	}
	for _, s := range w.stats {
		if _, ok := c.Stats[s]; ok {
			out = append(out, s)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(c.Stats)) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// first returns the name of the current combatant, else the first
// added, else "".
func (w *words) first() string {
	if len(w.names) == 0 {
		return ""
	}
	return w.names[0]
}

// variants returns cmd with one choice changed to another of its
// choices, for each choice of its words.
func variants(d fray.CommandDecl, cmd fray.Command) []fray.Command {
	var out []fray.Command
	with := func(p fray.Param, set func(fray.Command, string)) {
		if p.Kind != fray.KindChoice {
			return
		}
		for _, c := range p.Choices {
			v := fray.Command{Name: cmd.Name, Args: slices.Clone(cmd.Args), Opts: map[string]string{}}
			for k, o := range cmd.Opts {
				v.Opts[k] = o
			}
			set(v, c)
			out = append(out, v)
		}
	}
	if at, ok := d.Bind(len(cmd.Args)); ok {
		for i, a := range at {
			with(d.Args[a], func(v fray.Command, c string) { v.Args[i] = c })
		}
	}
	for _, p := range d.Opts {
		with(p, func(v fray.Command, c string) { v.Opts[p.Name] = c })
	}
	return out
}

// examples returns the words d's examples give each of its arguments
// ("#0", "#1", … by place among the declared arguments) and options (by
// key), the first example's where several give one.
func examples(d fray.CommandDecl) map[string]string {
	out := map[string]string{}
	for _, line := range d.Examples {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			continue
		}
		at, ok := d.Bind(len(cmd.Args))
		if !ok {
			continue
		}
		for i, a := range at {
			if k := "#" + strconv.Itoa(a); out[k] == "" {
				out[k] = cmd.Args[i]
			}
		}
		for k, v := range cmd.Opts {
			if out[k] == "" {
				out[k] = v
			}
		}
	}
	return out
}
