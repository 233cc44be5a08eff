package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
	"fray/sheet"
)

// systemList lists the rule systems fray runs, in the order of SPEC §1,
// in which help and errors name them. It is the one list of the systems
// in cmd/fray: add a system here (one line) to make it playable, served
// and, when it offers one, its named roll rolled.
var systemList = []func() fray.System{
	func() fray.System { return bpb.New() },
	func() fray.System { return cinematic.New() },
	func() fray.System { return vv.New() },
	func() fray.System { return pp.New() },
	func() fray.System { return queue.New() },
}

// systems is systemList by id.
var systems = func() map[string]func() fray.System {
	m := make(map[string]func() fray.System, len(systemList))
	for _, f := range systemList {
		m[f().ID()] = f
	}
	return m
}()

// systemIDs returns the ids of the playable systems, sorted.
func systemIDs() []string {
	ids := make([]string, 0, len(systems))
	for id := range systems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

const playHelp = `fray play --rules ID [--seed N] [--json] [--log FILE] [--resume FILE]
          [--party FILE] [--foes FILE] [SCRIPT]

Runs an encounter, one command per line: from the SCRIPT file, or from
standard input (with a prompt and "help" when it is a terminal, where
lines are edited, Up and Down recall earlier ones and Tab completes
commands, options and names). Lines starting with # are comments; quote
names with spaces: "Brigand #2".

Examples:
  fray play --rules bpb                      play Bulletproof Blues at the prompt
  fray play --rules bpb examples/bpb-blueshift.fray
  fray play --rules queue --seed 7 --log fight.jsonl
  fray play --resume fight.jsonl             continue that fight where it stopped
  fray play --rules bpb --party examples/bpb-party.yaml --foes examples/bpb-foes.yaml
  echo 'add Ann side=pc wits=2
  add Bear wits=1
  start' | fray play --rules queue --json    one JSON object per command

Commands every system shares:
  add NAME [side=pc|npc] [kind=character|group|environment] [group=NAME]
           [aware=no] [hidden=yes] [stat=N …]    add a combatant
  remove NAME            remove a combatant
  start                  begin (rolls initiative where the system does)
  next [NAME]            the current actor ends their turn
  undo / redo            take back / restore the last step, exactly
  show / history / log   the order of play, the turns per round, the events
  help [COMMAND …]       the commands of the chosen system, or all about
                         those named: arguments, options, who may send it

Any command that rolls takes the dice rolled at the table instead of the
seeded roll: dice=6,3 (the faces) or roll=9 (their total, before bonuses).
initiative NAME DIE enters a combatant's initiative die before start.

Systems: %s.

With --json each command prints {"ok":true,"events":[…],"view":{…}} or
{"ok":false,"error":{"code":…,"message":…}}. --log FILE writes the event
log as JSON Lines (a header, then one event per line, undo and redo
included); --resume FILE replays it and continues, appending to it.
--party FILE and --foes FILE load character sheets (YAML or JSON: stats,
tracks, powers and weapons with ranks, expertise, protection) before the
first command; party members are PCs and foes NPCs unless a sheet says
otherwise.
The exit code is 0 when every command succeeded, 1 when one was refused,
2 for bad usage; at the prompt (a terminal) the end of input, Ctrl-D,
exits 0 whatever was refused.
`

// playOut is one --json answer.
type playOut struct {
	OK     bool              `json:"ok"`
	Events []fray.Event      `json:"events,omitempty"`
	View   *fray.View        `json:"view,omitempty"`
	Log    []fray.Event      `json:"log,omitempty"`
	Help   []fray.CommandDoc `json:"help,omitempty"`
	Odds   *fray.Odds        `json:"odds,omitempty"`
	Error  *playError        `json:"error,omitempty"`
}

type playError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func cmdPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("play", stderr, fmt.Sprintf(playHelp, strings.Join(systemIDs(), ", ")))
	rulesID := fs.String("rules", "", "the rule system `ID`: "+strings.Join(systemIDs(), ", "))
	seed := fs.Uint64("seed", 0, "seed for the dice, to reproduce an encounter (default: from the clock)")
	asJSON := fs.Bool("json", false, "print one JSON object per command")
	logPath := fs.String("log", "", "write the event log to `FILE` as JSON Lines")
	resume := fs.String("resume", "", "replay the event log in `FILE` and continue it")
	party := fs.String("party", "", "load the party's character sheets from `FILE` (YAML or JSON)")
	foes := fs.String("foes", "", "load the foes' character sheets from `FILE` (YAML or JSON)")
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "fray play: "+format+"\n", a...)
		return 2
	}
	if len(pos) > 1 {
		return fail("expected at most one script file, got %d arguments", len(pos))
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = uint64(time.Now().UnixNano())
	}

	// The encounter: new, or resumed from a log.
	var e *engine.Engine
	if *resume != "" {
		b, err := os.ReadFile(*resume)
		if err != nil {
			return fail("%v", err)
		}
		var h engine.Header
		first, _, _ := bytes.Cut(b, []byte("\n"))
		if json.Unmarshal(first, &h) != nil || h.Schema != engine.LogSchema {
			return fail("%s is not a fray event log", *resume)
		}
		if *rulesID == "" {
			*rulesID = h.Rules
		}
		newSys, ok := systems[*rulesID]
		if !ok {
			return fail("unknown rules %q; choose one of %s", *rulesID, strings.Join(systemIDs(), ", "))
		}
		var rng *rand.Rand
		if seedSet {
			rng = rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15))
		}
		e, err = engine.Import(bytes.NewReader(b), newSys(), rng)
		if err != nil {
			return fail("%s: %s", *resume, fray.ErrorMessage(err))
		}
		if *logPath == "" {
			*logPath = *resume
		}
	} else {
		if *rulesID == "" {
			return fail("choose the rules with --rules ID: %s", strings.Join(systemIDs(), ", "))
		}
		newSys, ok := systems[*rulesID]
		if !ok {
			return fail("unknown rules %q; choose one of %s", *rulesID, strings.Join(systemIDs(), ", "))
		}
		e = engine.New(newSys(), rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15)))
		e.Seed = *seed
	}

	// The character sheets, joined in one step each before any command.
	var sheets [][]fray.Combatant
	for _, f := range []struct{ path, side string }{{*party, fray.SidePC}, {*foes, fray.SideNPC}} {
		if f.path == "" {
			continue
		}
		if *resume != "" {
			return fail("--party and --foes start a new encounter; the resumed log already holds its combatants")
		}
		cs, err := sheet.Load(f.path, e.System(), f.side)
		if err != nil {
			return fail("%s", fray.ErrorMessage(err))
		}
		sheets = append(sheets, cs)
	}

	// The log file: appended to as the encounter goes.
	var logFile *os.File
	if *logPath != "" {
		var err error
		logFile, err = openLog(*logPath, *resume, e)
		if err != nil {
			return fail("%v", err)
		}
		defer logFile.Close()
	}

	// The commands: a script file, or standard input.
	in := stdin
	interactive := false
	if len(pos) == 1 {
		f, err := os.Open(pos[0])
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		in = f
	} else if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			interactive = true
		}
	}
	p := &player{e: e, out: stdout, json: *asJSON, echo: !interactive && !*asJSON, log: logFile}
	// At a terminal, lines are edited and recalled (Up, Down) and Tab
	// completes; anywhere else they are read as they come.
	r := bufio.NewReaderSize(in, 64<<10)
	next := func(prompt string) (string, bool, error) {
		if prompt != "" {
			fmt.Fprint(p.out, prompt)
		}
		return readLine(r)
	}
	endTerminal := func() {}
	if interactive && !*asJSON {
		t, err := openTerminal(ctx, in, stdout)
		if err != nil {
			return fail("set up the terminal: %v", err)
		}
		if t != nil {
			defer t.close()
			endTerminal = t.close
			t.t.AutoCompleteCallback = p.complete
			p.out = t.t
			next = t.readLine
		}
	}
	for _, cs := range sheets {
		if !p.join(cs) {
			endTerminal()
			return 1
		}
	}
	if interactive && !*asJSON {
		fmt.Fprintf(p.out, "fray play: %s (seed %d). Type help for the commands, Ctrl-D to stop.\n", e.System().Name(), *seed)
	}
	failed := false
	for lineNo := 1; ; lineNo++ {
		prompt := ""
		if interactive && !*asJSON {
			prompt = p.prompt()
		}
		line, tooLong, err := next(prompt)
		if err != nil && line == "" && !tooLong {
			if !errors.Is(err, io.EOF) {
				endTerminal()
				fmt.Fprintf(stderr, "fray play: read commands: %v\n", err)
				return 1
			}
			break
		}
		var ok bool
		if tooLong {
			if p.echo {
				fmt.Fprintf(p.out, "> %s\n", line)
			}
			ok = p.refuse(fray.Errorf(fray.ETOOLARGE, "Line %d is longer than %d bytes (MaxLineBytes).", lineNo, engine.MaxLineBytes))
		} else {
			ok = p.run(line, lineNo)
		}
		failed = failed || !ok
		if p.writeErr != nil {
			endTerminal()
			fmt.Fprintf(stderr, "fray play: write the log: %v\n", p.writeErr)
			return 1
		}
	}
	if interactive && !*asJSON {
		fmt.Fprintln(p.out)
	}
	if interactive {
		// At the prompt a refusal is an answer, not a failure: the
		// session ends well however many were refused.
		return 0
	}
	if failed {
		return 1
	}
	return 0
}

// openLog opens the log file for appending. A new (or empty) file gets
// the encounter's log so far; an existing one must be the resumed log.
func openLog(path, resumed string, e *engine.Engine) (*os.File, error) {
	st, err := os.Stat(path)
	exists := err == nil && st.Size() > 0
	if exists && path != resumed {
		return nil, fmt.Errorf("%s already holds a log; continue it with --resume %s, or choose another file", path, path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if !exists {
		if err := e.Export(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// readLine reads one line without its end. A line longer than
// engine.MaxLineBytes is skipped to its end and reported as too long.
func readLine(r *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(b)+len(chunk) <= engine.MaxLineBytes+2 {
			b = append(b, chunk...)
		} else {
			tooLong = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		s := strings.TrimRight(string(b), "\r\n")
		if tooLong {
			return "…", true, err
		}
		return s, false, err
	}
}

// player runs commands on one engine and prints the answers.
type player struct {
	e        *engine.Engine
	out      io.Writer
	json     bool
	echo     bool // print each command before its answer (scripts)
	log      *os.File
	writeErr error
}

func (p *player) prompt() string {
	v := p.e.View()
	if !v.Started {
		return p.e.System().ID() + "> "
	}
	if v.Current == "" {
		return fmt.Sprintf("%s r%d> ", p.e.System().ID(), v.Round)
	}
	return fmt.Sprintf("%s r%d %s> ", p.e.System().ID(), v.Round, v.Current)
}

// run carries out one line and reports whether it succeeded.
func (p *player) run(line string, lineNo int) bool {
	cmd, err := engine.ParseCommand(line)
	if err == nil && cmd.Name == "" {
		return true
	}
	if p.echo {
		fmt.Fprintf(p.out, "> %s\n", printable(strings.TrimSpace(line)))
	}
	if err != nil {
		return p.refuse(err)
	}
	before := p.e.View()
	// The state before the command, for its events' words.
	var was fray.State
	if !p.json && !engine.IsQuery(cmd.Name) {
		was = p.e.State().Clone()
	}
	evs, err := p.e.Do(cmd)
	if err != nil {
		return p.refuse(err)
	}
	if p.log != nil && len(evs) > 0 {
		p.writeErr = engine.WriteEvents(p.log, evs)
	}
	var odds fray.Odds
	if cmd.Name == engine.CmdOdds {
		if odds, err = p.e.Odds(cmd); err != nil {
			return p.refuse(err)
		}
	}
	v := p.e.View()
	if p.json {
		o := playOut{OK: true, Events: evs, View: &v}
		if cmd.Name == engine.CmdOdds {
			o.Odds = &odds
		}
		if o.Events == nil {
			o.Events = []fray.Event{}
		}
		switch cmd.Name {
		case engine.CmdLog:
			o.Log = p.e.Log()
		case engine.CmdHelp:
			help, err := p.helpFor(cmd.Args)
			if err != nil {
				return p.refuse(err)
			}
			o.Help = help
		}
		p.writeJSON(o)
		return true
	}
	switch cmd.Name {
	case engine.CmdOdds:
		fmt.Fprint(p.out, formatOdds(odds))
	case engine.CmdShow:
		fmt.Fprint(p.out, formatView(p.e.System(), v))
	case engine.CmdHistory:
		for _, h := range v.History {
			fmt.Fprintf(p.out, "  %s\n", h)
		}
	case engine.CmdLog:
		fmt.Fprint(p.out, formatLog(p.e.Log(), engine.TellLog(p.e.System(), p.e.Log(), 0, p.nameOf)))
	case engine.CmdHelp:
		return p.writeHelp(cmd.Args)
	default:
		told := engine.TellEvents(p.e.System(), was, evs, p.e.Log(), p.nameOf)
		for i, ev := range evs {
			// A roll, an undo and a redo are said in words; what the
			// others changed follows as changes.
			if ev.Odds != nil {
				fmt.Fprintf(p.out, "  odds: %s\n", oddsLine(*ev.Odds))
			}
			if len(ev.Rolls) > 0 || ev.Odds != nil || ev.Type == fray.EventUndo || ev.Type == fray.EventRedo {
				fmt.Fprintf(p.out, "  %s\n", printable(told[i].Text))
			}
		}
		for _, line := range changes(before, v) {
			fmt.Fprintf(p.out, "  %s\n", line)
		}
		// Rounds finished by this command, then whose turn it is.
		for _, h := range v.History {
			if h.Round >= before.Round && h.Round < v.Round {
				fmt.Fprintf(p.out, "  %s\n", h)
			}
		}
		fmt.Fprintf(p.out, "  %s\n", status(v))
	}
	return true
}

// join adds combatants loaded from sheets and reports whether it could.
func (p *player) join(cs []fray.Combatant) bool {
	evs, err := p.e.Join(cs)
	if err != nil {
		return p.refuse(err)
	}
	if p.log != nil && len(evs) > 0 {
		p.writeErr = engine.WriteEvents(p.log, evs)
	}
	v := p.e.View()
	if p.json {
		p.writeJSON(playOut{OK: true, Events: evs, View: &v})
		return true
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	fmt.Fprintf(p.out, "  joined from a sheet: %s\n", strings.Join(names, ", "))
	return true
}

// refuse prints a refusal and reports false.
func (p *player) refuse(err error) bool {
	if p.json {
		p.writeJSON(playOut{OK: false, Error: &playError{Code: fray.ErrorCode(err), Message: fray.ErrorMessage(err)}})
		return false
	}
	fmt.Fprintf(p.out, "  refused (%s): %s\n", fray.ErrorCode(err), fray.ErrorMessage(err))
	return false
}

func (p *player) writeJSON(o playOut) {
	b, err := json.Marshal(o)
	if err != nil {
		b = []byte(`{"ok":false,"error":{"code":"internal","message":"The answer could not be encoded."}}`)
	}
	p.out.Write(append(b, '\n'))
}

// status says where the encounter stands: "Round 3: Monolith's turn."
func status(v fray.View) string {
	switch {
	case !v.Started:
		return fmt.Sprintf("Not started; %s.", plural(len(v.Combatants), "combatant", "combatants"))
	case v.Current == "":
		return fmt.Sprintf("Round %d: nobody can act.", v.Round)
	}
	return fmt.Sprintf("Round %d: %s's turn.", v.Round, v.Current)
}

// formatView shows the order of play for people.
func formatView(sys fray.System, v fray.View) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n", sys.Name(), status(v))
	if v.Started {
		fmt.Fprintf(&b, "This round:\n")
	} else {
		fmt.Fprintf(&b, "Order of play:\n")
	}
	for i, s := range v.Order {
		mark := "  "
		if s.Has(fray.MarkCurrent) {
			mark = "> "
		}
		if s.Phase > 0 {
			fmt.Fprintf(&b, "%sphase %2d: %s\n", mark, s.Phase, s)
			continue
		}
		fmt.Fprintf(&b, "%s%2d. %s\n", mark, i+1, s)
	}
	if len(v.Next) > 0 {
		var names []string
		for _, s := range v.Next {
			names = append(names, s.String())
		}
		fmt.Fprintf(&b, "Next: %s\n", strings.Join(names, ", "))
	}
	if len(v.History) > 0 {
		fmt.Fprintf(&b, "History:\n")
		for _, h := range v.History {
			fmt.Fprintf(&b, "  %s\n", h)
		}
	}
	var unaware, hidden []string
	for _, c := range v.Combatants {
		if c.Unaware {
			unaware = append(unaware, c.Name)
		}
		if c.Hidden {
			hidden = append(hidden, c.Name)
		}
	}
	if len(unaware) > 0 {
		fmt.Fprintf(&b, "Unaware (no turn): %s\n", strings.Join(unaware, ", "))
	}
	if len(hidden) > 0 {
		fmt.Fprintf(&b, "Hidden from players: %s\n", strings.Join(hidden, ", "))
	}
	return b.String()
}

// formatOdds shows the odds of a roll for people: the roll, its
// modifiers, and each band with a bar.
func formatOdds(o fray.Odds) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  odds of %s\n", o.Command)
	if o.Refused != "" {
		fmt.Fprintf(&b, "  refused now: %s\n", o.Refused)
	}
	who := o.For
	if who != "" {
		who += " "
	}
	fmt.Fprintf(&b, "  %srolls %s", who, o.Expr)
	if o.TargetKind != "" {
		fmt.Fprintf(&b, " against %s %d", o.TargetKind, o.Target)
	}
	b.WriteString("\n")
	if len(o.Modifiers) > 0 {
		var ms []string
		for _, m := range o.Modifiers {
			ms = append(ms, m.String())
		}
		fmt.Fprintf(&b, "  modifiers: %s\n", strings.Join(ms, ", "))
	}
	width := 20 // the bands' names in one column, however long
	for _, band := range o.Bands {
		width = max(width, utf8.RuneCountInString(band.Name))
	}
	for _, band := range o.Bands {
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(band.Name))
		fmt.Fprintf(&b, "  %s%s %7.3f%% %s\n", band.Name, pad, 100*band.P, strings.Repeat("#", int(band.P*40+0.5)))
	}
	if o.DistOf == fray.DistDamage {
		var ps []string
		for _, pt := range o.Dist {
			ps = append(ps, fmt.Sprintf("%d %.1f%%", pt.V, 100*pt.P))
		}
		fmt.Fprintf(&b, "  %s: %s (mean %.2f)\n", o.DistOf, strings.Join(ps, ", "), o.Mean)
	}
	return b.String()
}

// oddsLine shows the odds a roll had on one line, every band and
// modifier: "failure 58.3%, success 33.3%, extreme 8.3% (2d6+4 against
// difficulty 12)".
func oddsLine(o fray.Odds) string {
	var parts []string
	for _, band := range o.Bands {
		parts = append(parts, fmt.Sprintf("%s %.1f%%", band.Name, 100*band.P))
	}
	s := strings.Join(parts, ", ") + " (" + o.Expr
	if o.TargetKind != "" {
		s += fmt.Sprintf(" against %s %d", o.TargetKind, o.Target)
	}
	for _, m := range o.Modifiers {
		s += "; " + m.String()
	}
	return s + ")"
}

// nameOf names a combatant by id as the encounter now knows them, so
// that the log says a renamed combatant by the new name.
func (p *player) nameOf(id fray.CombatantID) string {
	if enc := p.e.Encounter(); enc != nil {
		return enc.NameOf(id)
	}
	return ""
}

// changes lists what a command changed in the combatants' tracks and
// conditions: "Monolith: endurance 30 → 27", "Ganyeka: + distracted".
func changes(before, after fray.View) []string {
	old := map[fray.CombatantID]fray.Combatant{}
	for _, c := range before.Combatants {
		old[c.ID] = c
	}
	var out []string
	for _, c := range after.Combatants {
		o, ok := old[c.ID]
		if !ok {
			continue
		}
		if o.Name != c.Name {
			out = append(out, fmt.Sprintf("%s is now called %s", o.Name, c.Name))
		}
		for _, k := range sortedKeys(c.Tracks) {
			if t, was := c.Tracks[k], o.Tracks[k]; t.Value != was.Value || t.Max != was.Max {
				out = append(out, fmt.Sprintf("%s: %s %d → %d (of %d)", c.Name, k, was.Value, t.Value, t.Max))
			}
		}
		for k, v := range c.Stats {
			if o.Stats[k] != v {
				out = append(out, fmt.Sprintf("%s: %s %d → %d", c.Name, k, o.Stats[k], v))
			}
		}
		for _, x := range c.Conditions {
			if o.Condition(x.Name) == nil {
				out = append(out, fmt.Sprintf("%s: + %s", c.Name, conditionText(x)))
			}
		}
		for _, x := range o.Conditions {
			if c.Condition(x.Name) == nil {
				out = append(out, fmt.Sprintf("%s: − %s", c.Name, x.Name))
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// conditionText says a condition as the log in words says it:
// "distracted (by Blueshift; +3 on attacked; from round 2; once) until the
// end of round 2".
func conditionText(x fray.Condition) string { return engine.ConditionText(fray.Tale{}, x) }

// printable makes a line safe to echo to a terminal: invalid UTF-8 and
// control characters become U+FFFD.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
