// Package rulestest is the conformance suite every rule system passes:
// replaying a log rebuilds the same state; undoing any command restores
// the state before it exactly and redoing it the state after; a refused
// command changes nothing; random command sequences never panic and never
// break the system's invariants; the order views are consistent; a
// refusal declares every combatant its words name (CheckRefusal);
// renaming the combatants mid-way changes nothing but their names
// (CheckRenames); an engine resumed from a snapshot is the engine that
// replays the whole log (CheckSnapshots); the command declarations are
// well formed (CheckDecls);
// and every command declared is decided, with odds exactly when it is
// declared to roll (CheckDecided).
//
// It also holds the one golden-transcript harness (Transcript, Golden:
// a script played and its transcript compared with a file under
// testdata, rewritten with -update) and the benchmarks every system runs
// (Bench).
//
// A system's test calls it with a factory and a few scripts of commands
// that exercise its rules:
//
//	func TestConformance(t *testing.T) {
//		rulestest.Run(t, func() fray.System { return bpb.New() },
//			rulestest.Script{Name: "seed", Text: "add A\nadd B\nstart\nnext"})
//	}
package rulestest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fray"
	"fray/engine"
)

// Script is a named script of commands, one per line, as fray play reads
// them. Commands a script expects to be refused are allowed: the suite
// checks that they change nothing.
type Script struct {
	Name string
	Text string
}

// Run runs the whole suite on the system newSystem returns: the
// declarations (CheckDecls, CheckDecided), every script step by step
// (see RunScript), then random command sequences built from the
// scripts' words (see RunRandom).
func Run(t *testing.T, newSystem func() fray.System, scripts ...Script) {
	t.Helper()
	t.Run("declarations", func(t *testing.T) {
		if err := CheckDecls(newSystem()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("decided", func(t *testing.T) {
		if err := CheckDecided(newSystem, scripts...); err != nil {
			t.Fatal(err)
		}
	})
	for _, s := range scripts {
		t.Run("script/"+s.Name, func(t *testing.T) { RunScript(t, newSystem, s) })
		t.Run("snapshot/"+s.Name, func(t *testing.T) {
			if err := CheckSnapshots(newSystem, s); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("renamed/"+s.Name, func(t *testing.T) {
			points := RenamePoints(newSystem, s)
			if len(points) == 0 {
				t.Fatalf("%s has no line at which to rename (an undo reaches back past every one)", s.Name)
			}
			// Three points spread over the script.
			for _, q := range []int{1, 2, 3} {
				at := points[q*(len(points)-1)/4]
				if err := CheckRenames(newSystem, s, at); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if _, err := os.Stat(OldLogs); err == nil {
		t.Run("old logs", func(t *testing.T) {
			if err := CheckOldLogs(newSystem, OldLogs, scripts...); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("random", func(t *testing.T) {
		runs, steps := 60, 150
		if testing.Short() {
			runs, steps = 10, 80
		}
		for i := range runs {
			RunRandom(t, newSystem, uint64(i), steps, scripts...)
		}
	})
}

// RunScript runs one script through an engine, checking after every
// command that the system's invariants hold, that the view is consistent,
// that a refused command changed nothing and that undo and redo of an
// accepted one are exact; at the end it checks that replaying the log,
// and exporting and importing it, rebuild the same state.
func RunScript(t *testing.T, newSystem func() fray.System, s Script) {
	t.Helper()
	e := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	for i, line := range strings.Split(s.Text, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if cmd.Name == "" {
			continue
		}
		if err := Step(e, cmd); err != nil {
			t.Fatalf("line %d (%s): %v", i+1, line, err)
		}
	}
	if err := CheckReplay(e); err != nil {
		t.Fatal(err)
	}
}

// Step carries out one command on e and checks the engine around it (see
// RunScript). It reports a conformance failure as an error; a refusal of
// the command by the rules is not one.
func Step(e *engine.Engine, cmd fray.Command) (err error) {
	sys := e.System()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic on %q: %v", cmd.String(), r)
		}
	}()
	before := e.State().Clone()
	if err := checkDecidePure(sys, before, cmd); err != nil {
		return err
	}
	n := len(e.Log())
	applied, _ := e.Steps()
	evs, doErr := e.Do(cmd)
	if doErr != nil {
		var fe *fray.Error
		if !asError(doErr, &fe) {
			return fmt.Errorf("%q was refused with an error that is not a *fray.Error: %v", cmd.String(), doErr)
		}
		if fe.Code == fray.EINTERNAL {
			return &internalError{cmd.String(), doErr}
		}
		if fe.Message == "" {
			return fmt.Errorf("%q was refused without a message", cmd.String())
		}
		if len(e.Log()) != n {
			return fmt.Errorf("%q was refused but the log grew", cmd.String())
		}
		if err := CheckRefusal(sys, before, cmd, fe); err != nil {
			return err
		}
		if !reflect.DeepEqual(before, e.State()) {
			return fmt.Errorf("%q was refused (%v) but the state changed:\n%s", cmd.String(), doErr, diff(before, e.State()))
		}
		return checkState(sys, e.State())
	}
	if err := checkState(sys, e.State()); err != nil {
		return fmt.Errorf("after %q: %w", cmd.String(), err)
	}
	if len(evs) == 0 || cmd.Name == engine.CmdUndo || cmd.Name == engine.CmdRedo {
		return nil
	}
	for _, ev := range evs {
		if ev.Type == "" || ev.Seq < 1 || ev.Step < 1 {
			return fmt.Errorf("%q produced a malformed event %+v", cmd.String(), ev)
		}
	}
	if err := checkSharing(sys, cmd, before, evs, e.State()); err != nil {
		return err
	}
	// A command makes one step, or two when it settles something on its
	// way (engine.StepBreak): as many undos take it back.
	steps, _ := e.Steps()
	if steps -= applied; steps < 1 || steps > 2 {
		return fmt.Errorf("%q made %d steps; a command makes one or two", cmd.String(), steps)
	}
	after := e.State().Clone()
	for range steps {
		if _, err := e.Undo(); err != nil {
			return fmt.Errorf("undo after %q: %v", cmd.String(), err)
		}
	}
	if !reflect.DeepEqual(before, e.State()) {
		return fmt.Errorf("undo after %q does not restore the state before it:\n%s", cmd.String(), diff(before, e.State()))
	}
	for range steps {
		if _, err := e.Redo(); err != nil {
			return fmt.Errorf("redo after %q: %v", cmd.String(), err)
		}
	}
	if !reflect.DeepEqual(after, e.State()) {
		return fmt.Errorf("redo after %q does not restore the state after it:\n%s", cmd.String(), diff(after, e.State()))
	}
	return nil
}

// checkSharing applies evs, the events cmd made in the state before, to
// a copy of before that shares its combatants' sheets, when the state is
// a fray.SheetSharer: the copy must come out as the engine's state after,
// and before must stay as it was (Apply changes no sheet in place). For a
// fray.SpareSharer, it copies before into a copy of after too.
func checkSharing(sys fray.System, cmd fray.Command, before fray.State, evs []fray.Event, after fray.State) error {
	ss, ok := before.(fray.SheetSharer)
	if !ok {
		return nil
	}
	was := before.Clone()
	// Two copies, as the simulator makes of one state for two ways the
	// dice fall: each must append only where it alone writes.
	work, twin := ss.CloneSharing(), ss.CloneSharing()
	for _, w := range []fray.State{work, twin} {
		for _, ev := range evs {
			if err := sys.Apply(w, ev); err != nil {
				return fmt.Errorf("%q: its event %s does not apply to a copy that shares the sheets (fray.SheetSharer): %v", cmd.String(), ev.Type, err)
			}
		}
	}
	if err := checkAppends(fmt.Sprintf("%q", cmd.String()), before, evs, work, twin); err != nil {
		return err
	}
	if !reflect.DeepEqual(was, before) {
		return fmt.Errorf("%q: applying its events to a copy that shares the sheets (fray.SheetSharer) changed the state copied, so Apply changes a sheet in place:\n%s", cmd.String(), diff(was, before))
	}
	if !reflect.DeepEqual(after, work) {
		return fmt.Errorf("%q: its events applied to a copy that shares the sheets (fray.SheetSharer) give another state than the engine's:\n%s", cmd.String(), diff(after, work))
	}
	// A copy made in the memory of a copy of another state (the one
	// after) must be the copy made afresh: nothing of the other stays.
	if sp, ok := before.(fray.SpareSharer); ok {
		if got, want := sp.CloneSharingInto(after.(fray.SheetSharer).CloneSharing()), sp.CloneSharing(); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%q: the state before it, copied into a copy of the state after it (fray.SpareSharer), is not the state copied afresh:\n%s", cmd.String(), diff(want, got))
		}
	}
	return nil
}

// internalError is Step's report of a command Do answered with
// EINTERNAL.
type internalError struct {
	cmd string
	err error
}

func (e *internalError) Error() string { return fmt.Sprintf("%q: internal error: %v", e.cmd, e.err) }

// checkDecidePure calls Decide on a copy of st and reports whether it
// changed the copy: Decide must only read the state.
func checkDecidePure(sys fray.System, st fray.State, cmd fray.Command) error {
	if cmd.Name == engine.CmdUndo || cmd.Name == engine.CmdRedo || engine.IsQuery(cmd.Name) {
		return nil
	}
	c := cmd
	if _, ok := c.Opts[engine.OptDice]; ok {
		return nil // the engine's roller handles physical dice
	}
	if _, ok := c.Opts[engine.OptRoll]; ok {
		return nil
	}
	if d, ok := fray.FindDecl(engine.Decls(sys), c.Name); !ok || d.Check(c) != nil {
		return nil // the engine refuses it before Decide
	}
	work := st.Clone()
	_, _ = sys.Decide(work, c, seeded{rand.New(rand.NewPCG(2, 3))})
	if !reflect.DeepEqual(st, work) {
		return fmt.Errorf("Decide(%q) changed the state it was given:\n%s", cmd.String(), diff(st, work))
	}
	return nil
}

// seeded is a fray.Roller that rolls with a seeded source.
// CheckRefusal reports a refusal of cmd in st whose words name a
// combatant that the refusal does not declare (fray.Error's About and
// Names, see fray.Errorf): what a player may read of a refusal follows
// from those declarations alone. A name counts where it stands as words
// of its own. Names the command itself holds are the sender's own words,
// and the system's usage lines and examples (Commands) are fixed text;
// neither needs a declaration, and a refusal that a name is unknown
// (ENOTFOUND) names only what was typed. This is an oracle for tests: it
// searches the words, which fray itself never does.
func CheckRefusal(sys fray.System, st fray.State, cmd fray.Command, fe *fray.Error) error {
	bs, ok := st.(fray.BaseState)
	if !ok || fe.Code == fray.ENOTFOUND {
		return nil
	}
	var usage string // the system's usage text, read once a name needs it
	inUsage := func(name string) bool {
		if usage == "" {
			var b strings.Builder
			for _, d := range sys.Commands() {
				fmt.Fprintf(&b, "%+v\n", d)
			}
			usage = strings.ToLower(b.String())
		}
		return holdsWord(usage, name)
	}
	enc := bs.Base()
	type who struct {
		id   fray.CombatantID
		name string
	}
	all := make([]who, 0, len(enc.Combatants)+len(enc.Gone))
	for _, c := range enc.Combatants {
		all = append(all, who{c.ID, c.Name})
	}
	for _, g := range enc.Gone {
		all = append(all, who{g.ID, g.Name})
	}
	// The longest first, so that a declared "Ann Lee" hides no "Ann".
	slices.SortFunc(all, func(a, b who) int { return len(b.name) - len(a.name) })
	msg := strings.ToLower(fe.Message)
	typed := strings.ToLower(cmd.String())
	for _, w := range all {
		name := strings.ToLower(w.name)
		declared := slices.Contains(fe.About, w.id) || slices.ContainsFunc(fe.Names, func(n string) bool { return fray.SameName(n, w.name) })
		if declared || holdsWord(typed, name) || holdsWord(msg, name) && inUsage(name) {
			msg = blankWord(msg, name)
			continue
		}
		if !strings.ContainsFunc(name, unicode.IsLetter) {
			continue // "10" cannot be told from a number in the words
		}
		if holdsWord(msg, name) {
			return fmt.Errorf("%q was refused with %q, which names %s without declaring it (pass the *fray.Combatant or a fray.Mention to fray.Errorf)", cmd.String(), fe.Message, w.name)
		}
	}
	return nil
}

// holdsWord reports whether text holds word with no letter or digit
// right before or after it.
func holdsWord(text, word string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 || word == "" {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[j+len(word):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = j + 1
	}
}

// blankWord returns text with each occurrence of word that holdsWord
// would find replaced by letters, which no name matches.
func blankWord(text, word string) string {
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 || word == "" {
			b.WriteString(text[i:])
			return b.String()
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[j+len(word):])
		if !isWordRune(before) && !isWordRune(after) {
			b.WriteString(text[i:j])
			b.WriteString(strings.Repeat("ʬ", len(word)))
		} else {
			b.WriteString(text[i : j+len(word)])
		}
		i = j + len(word)
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

type seeded struct{ r *rand.Rand }

func (s seeded) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollSeeded(forWhom, expr, s.r)
}

func asError(err error, target **fray.Error) bool {
	for err != nil {
		if fe, ok := err.(*fray.Error); ok {
			*target = fe
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// checkState runs the system's own invariants and the view's.
func checkState(sys fray.System, st fray.State) error {
	if err := sys.Check(st); err != nil {
		return err
	}
	return CheckView(sys.View(st), st)
}

// CheckView reports an inconsistent order view: a current actor who is
// not marked current in the order (or more than one current slot), slots
// naming nobody in the encounter or without that combatant's id (Slot.ID,
// View.CurrentID: the rules fill them), rounds out of order in the history, a
// history turn that does not declare its taker first (RoundTurns.Who), or
// a round that does not match the history's last.
func CheckView(v fray.View, st fray.State) error {
	names := map[string]bool{}
	for _, c := range v.Combatants {
		names[strings.ToLower(c.Name)] = true
	}
	ids := map[fray.CombatantID]string{}
	for _, c := range v.Combatants {
		ids[c.ID] = c.Name
	}
	for _, s := range append(slices.Clone(v.Order), v.Next...) {
		if n, ok := ids[s.ID]; !ok || n != s.Name {
			return fmt.Errorf("view: the slot %q has the id %q, which is not that combatant's", s.Name, s.ID)
		}
	}
	if v.Current != "" && ids[v.CurrentID] != v.Current {
		return fmt.Errorf("view: the current actor %q has the id %q, which is not theirs", v.Current, v.CurrentID)
	}
	current := 0
	for _, s := range v.Order {
		if !names[strings.ToLower(s.Name)] {
			return fmt.Errorf("view: the order names %q, who is not a combatant", s.Name)
		}
		if s.Has(fray.MarkCurrent) {
			current++
			if !fray.SameName(s.Name, v.Current) {
				return fmt.Errorf("view: %s is marked current but the current actor is %q", s.Name, v.Current)
			}
		}
	}
	if v.Current != "" && current == 0 {
		return fmt.Errorf("view: %s is current but no slot of the order is marked current", v.Current)
	}
	if current > 1 && !phased(v) {
		return fmt.Errorf("view: %d slots are marked current", current)
	}
	for _, s := range v.Next {
		if !names[strings.ToLower(s.Name)] {
			return fmt.Errorf("view: the next round names %q, who is not a combatant", s.Name)
		}
	}
	for i, h := range v.History {
		if i > 0 && h.Round <= v.History[i-1].Round {
			return fmt.Errorf("view: history round %d follows round %d", h.Round, v.History[i-1].Round)
		}
		if h.Turns == nil {
			return fmt.Errorf("view: history round %d has null turns", h.Round)
		}
		if len(h.Who) != len(h.Turns) {
			return fmt.Errorf("view: history round %d declares whom %d of its %d turns name (Who)", h.Round, len(h.Who), len(h.Turns))
		}
		for j, t := range h.Turns {
			if len(h.Who[j]) == 0 || h.Who[j][0] == "" || !strings.HasPrefix(t, h.Who[j][0]) {
				return fmt.Errorf("view: history round %d: turn %q does not begin with its taker, the first of %q", h.Round, t, h.Who[j])
			}
		}
	}
	if v.Started {
		if v.Round < 1 {
			return fmt.Errorf("view: started but round %d", v.Round)
		}
		if n := len(v.History); n > 0 && v.History[n-1].Round != v.Round {
			return fmt.Errorf("view: round %d but the history ends with round %d", v.Round, v.History[n-1].Round)
		}
	} else if v.Current != "" {
		return fmt.Errorf("view: %s is current before the start", v.Current)
	}
	if _, err := json.Marshal(v); err != nil {
		return fmt.Errorf("view: %v", err)
	}
	return nil
}

// phased reports whether the view counts phases (vv), where several slots
// may share the current phase.
func phased(v fray.View) bool {
	for _, s := range v.Order {
		if s.Phase != 0 {
			return true
		}
	}
	return false
}

// CheckReplay checks that replaying e's log, and exporting it as JSON Lines
// and importing it, rebuild e's state and view exactly.
func CheckReplay(e *engine.Engine) error {
	sys := e.System()
	if err := checkPayloads(sys, e.Log()); err != nil {
		return err
	}
	r, err := engine.Replay(sys, rand.New(rand.NewPCG(1, 1)), e.Log())
	if err != nil {
		return fmt.Errorf("replay: %v", err)
	}
	if !reflect.DeepEqual(e.State(), r.State()) {
		return fmt.Errorf("replaying the log gives another state:\n%s", diff(e.State(), r.State()))
	}
	var buf bytes.Buffer
	if err := e.Export(&buf); err != nil {
		return fmt.Errorf("export: %v", err)
	}
	im, err := engine.Import(&buf, sys, nil)
	if err != nil {
		return fmt.Errorf("import: %v", err)
	}
	if !reflect.DeepEqual(e.State(), im.State()) {
		return fmt.Errorf("importing the exported log gives another state:\n%s", diff(e.State(), im.State()))
	}
	if !reflect.DeepEqual(sys.View(e.State()), sys.View(im.State())) {
		return fmt.Errorf("importing the exported log gives another view")
	}
	a1, r1 := e.Steps()
	a2, r2 := im.Steps()
	if a1 != a2 || r1 != r2 {
		return fmt.Errorf("import: %d applied and %d redoable steps, want %d and %d", a2, r2, a1, r1)
	}
	return nil
}

// checkPayloads reports an event of evs whose payload type sys does not
// declare (engine.Payloads): an older log's events of that type could not
// be rewritten.
func checkPayloads(sys fray.System, evs []fray.Event) error {
	p, ok := sys.(engine.Payloads)
	if !ok {
		return fmt.Errorf("%s does not declare its payload types (engine.Payloads)", sys.ID())
	}
	types := p.Payloads()
	for _, ev := range evs {
		if _, ok := types[ev.Type]; !ok && len(ev.Data) > 0 && !engine.SharedEvent(ev.Type) {
			return fmt.Errorf("event %d is of type %s, whose payload %s does not declare", ev.Seq, ev.Type, sys.ID())
		}
	}
	return nil
}

// diff shows two states as JSON, line by line where they differ.
func diff(a, b any) string {
	ja, _ := json.MarshalIndent(a, "", " ")
	jb, _ := json.MarshalIndent(b, "", " ")
	out := diffText(string(ja), string(jb))
	if out == "" {
		return fmt.Sprintf("(equal as JSON; they differ in nil against empty maps or slices, or unexported fields)\n%#v\n%#v", a, b)
	}
	return out
}
