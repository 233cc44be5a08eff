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
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"fray"
	"fray/engine"
	"fray/sheet"
	"fray/sim"
)

// DefaultSimFights is how many fights fray sim plays when -n is not given.
const DefaultSimFights = 10_000

// simGCPercent is the garbage collector's target (GOGC) while fray sim
// plays its fights, when the environment sets none. The fights keep
// little alive (a few megabytes) and allocate fast, so at the default of
// 100 the collector runs every few fights and its write barriers slow
// them: at 400 the examples' fights are played about 1.4 times as fast
// (pp's 10,000 in 1.1 s, not 1.6 s), for some tens of megabytes more.
// The exact solve, which may hold MaxExactHeld states, runs at the
// default.
const simGCPercent = 400

// fightsGC sets the collector's target for playing fights, unless the
// environment sets GOGC, and returns what puts it back.
func fightsGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(simGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// simBarAfter is how long a run goes before fray sim draws its progress
// bar on a terminal.
const simBarAfter = time.Second

const simHelp = `fray sim --rules ID [--party FILE] [--foes FILE] [SCRIPT] [-n N] [--seed S]
         [--tactics SPEC] [--rounds MAX] [--exact] [--json] [--workers K]

Will they survive? Plays the encounter to its end N times by the real rules
and says how it is likely to go: each side's chance to win (with a 95%%
interval), the share still unfinished after --rounds rounds, how many
rounds the fights last, and how each combatant fares (the chance to be
down at the end, what is left of their track, the harm dealt and taken).

The encounter is set up exactly as fray play sets it up: character sheets
(--party, --foes) and/or a SCRIPT of commands. A script may stop in the
middle of the fight; the simulation goes on from there. A side wins when
every combatant of the other side is down, in the rules' own word (bpb:
out; queue: out of the fight; vv: down; cinematic: out; pp: defeated).

On its turn each combatant makes one attack, the one with the most
expected damage (from the rules' exact odds) on the foe its side's tactic
picks, and ends the turn; it takes no defensive action that costs it
anything, unless cautious. Tactics, per side and, by name, per combatant
(--tactics pc=focus-weakest,npc=random,Ann=focus-strongest):
  focus-weakest     the standing foe with the least of its track left (default)
  focus-strongest   the standing foe with the most of its track left
  random            a standing foe chosen at random
  cautious          as focus-weakest, and hit, it takes the defence the rules
                    offer at a cost (bpb: a forced block or dodge; cinematic: a
                    dodge or parry on an extra action; pp: 1 Resolve spent on
                    the roll) whose exact odds of negating the hit are best,
                    when they are better than even (queue and vv offer none)
A character's sheet may name its tactic (tactic: cautious). The most
specific wins: --tactics NAME=, then the sheet's tactic:, then --tactics
SIDE=, then focus-weakest. fray play and fray serve read tactic: and
ignore it.

With --exact it also works out each side's chance to win exactly, for a
small fight (a duel, or two against one, with short tracks and few
rounds): the same moves by the same tactics, but every way each roll
can fall followed with its exact odds, over every state the fight can
reach. It prints that chance beside the simulated one or, for a fight
too big (more than MaxExactStates states, MaxExactBranches ways for
one move's dice to fall, MaxExactWork moves decided in all, or
MaxExactHeld states held at once), the sentence that says which limit
it met; the simulated results are printed either way. On a terminal, a
bar shows the fights played and then the states and moves the exact
solve has used of their limits: a fight too big can take half a minute
to reach one (Ctrl-C stops the solve and prints the fights played).

Examples:
  fray sim --rules bpb --party examples/bpb-party.yaml --foes examples/bpb-foes.yaml
  fray sim --rules queue --party examples/queue-party.yaml --foes examples/queue-foes.yaml -n 50000
  fray sim --rules vv --party examples/vv-party.yaml --foes examples/vv-foes.yaml --tactics npc=random
  fray sim --rules cinematic --party examples/cinematic-party.yaml --foes examples/cinematic-foes.yaml --json
  fray sim --rules pp --party examples/pp-party.yaml --foes examples/pp-foes.yaml --seed 7 --rounds 30
  fray sim --rules queue examples/queue-duel.fray --rounds 3 --exact

The same --seed gives the same answer, however many --workers play.
With --json it prints one object: fights, seed, sides (each {"side",
"win", "ci95": [lo, hi]}), unfinished, rounds (mean, median, dist as
[rounds, probability] pairs) and combatants (each {"name", "down", …,
"tracks": {TRACK: mean left}}, every track the combatant has, by the
name the rules' sheets give it; the text's last columns show those
besides the one that measures harm). With --exact it has as well "exact"
(true when the fight was solved exactly), and then each side's
"exact_win" and the top-level "exact_unfinished", or else
"exact_why", the sentence that says why not.
Systems: %s.
`

func cmdSim(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sim", stderr, fmt.Sprintf(simHelp, strings.Join(systemIDs(), ", ")))
	rulesID := fs.String("rules", "", "the rule system `ID`: "+strings.Join(systemIDs(), ", "))
	party := fs.String("party", "", "load the party's character sheets from `FILE` (YAML or JSON)")
	foes := fs.String("foes", "", "load the foes' character sheets from `FILE` (YAML or JSON)")
	n := fs.Int("n", DefaultSimFights, fmt.Sprintf("how many fights to play, at most %d", sim.MaxFights))
	seed := fs.Uint64("seed", 0, "seed for the dice, to reproduce a run (default: from the clock)")
	tactics := fs.String("tactics", "", "the tactic of each side or combatant: `SPEC` such as pc=focus-weakest,npc=random,Ann=random")
	rounds := fs.Int("rounds", sim.DefaultRounds, fmt.Sprintf("a fight still going after `MAX` rounds is unfinished (at most %d)", sim.MaxRounds))
	asJSON := fs.Bool("json", false, "print one JSON object")
	exact := fs.Bool("exact", false, "also work out each side's chance to win exactly, for a small fight")
	workers := fs.Int("workers", 0, "play `K` fights at once, and solve --exact with K workers (default: one per core)")
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "fray sim: "+format+"\n", a...)
		return 2
	}
	if len(pos) > 1 {
		return fail("expected at most one script file, got %d arguments", len(pos))
	}
	if *n < 1 {
		return fail("-n %d: give at least 1 fight", *n)
	}
	if *n > sim.MaxFights {
		return fail("-n %d is more than the limit (MaxFights) of %d fights", *n, sim.MaxFights)
	}
	if *rounds < 1 || *rounds > sim.MaxRounds {
		return fail("--rounds %d: give from 1 to %d rounds (MaxRounds)", *rounds, sim.MaxRounds)
	}
	if *workers < 0 {
		return fail("--workers %d: give at least 1, or 0 for one per core", *workers)
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = uint64(time.Now().UnixNano())
	}
	tac, err := sim.ParseTactics(*tactics)
	if err != nil {
		return fail("--tactics: %s", fray.ErrorMessage(err))
	}
	if *rulesID == "" {
		return fail("choose the rules with --rules ID: %s", strings.Join(systemIDs(), ", "))
	}
	e, own, err := simEncounter(*rulesID, *seed, *party, *foes, pos, stderr)
	if err != nil {
		return fail("%s", err)
	}
	sheetTactics(e.Encounter(), own, tac)

	cfg := sim.Config{System: e.System(), State: e.State(), Fights: *n, Seed: *seed, Rounds: *rounds, Tactics: tac, Workers: *workers}
	bar := newSimBar(stderr, *n, !*asJSON)
	if bar != nil {
		cfg.Progress = bar.progress
	}
	restoreGC := fightsGC()
	res, err := sim.Run(ctx, cfg)
	restoreGC()
	bar.stop()
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "fray sim: stopped (interrupted) before the %d fights were played\n", *n)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "fray sim: %s\n", oneLine(err))
		return 1
	}
	var ex *sim.ExactResult
	if *exact {
		bar := newSimBar(stderr, 0, !*asJSON)
		if bar != nil {
			cfg.ExactProgress = bar.exactProgress
		}
		x, err := sim.Exact(ctx, cfg)
		bar.stop()
		if errors.Is(err, context.Canceled) {
			// Interrupted: the fights played are still worth printing.
			x, err = sim.ExactResult{Why: "The exact solve was stopped (interrupted) before it finished."}, nil
		}
		if err != nil {
			fmt.Fprintf(stderr, "fray sim: --exact: %s\n", oneLine(err))
			return 1
		}
		ex = &x
	}
	if *asJSON {
		var v any = res
		if ex != nil {
			v = sim.WithExact(res, *ex)
		}
		b, err := json.Marshal(v)
		if err != nil {
			fmt.Fprintf(stderr, "fray sim: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	fmt.Fprint(stdout, formatSim(e.System(), res, *rounds, ex))
	return 0
}

// oneLine is an error's message for people, on one line.
func oneLine(err error) string {
	msg := fray.ErrorMessage(err)
	if fray.ErrorCode(err) == fray.EINTERNAL {
		msg = err.Error()
	}
	return strings.Join(strings.Fields(msg), " ")
}

// sheetTactics adds to tac, the tactics of --tactics, the tactic each
// character's sheet names (own, by name), unless --tactics names that
// combatant: --tactics NAME= goes before the sheet, and the sheet before
// --tactics SIDE= (a combatant's own goes before its side's in sim.Run).
// A character the script has removed, or environment, is passed by.
func sheetTactics(enc *fray.Encounter, own map[string]sim.Tactic, tac map[string]sim.Tactic) {
	for name, t := range own {
		c := enc.Find(name)
		if c == nil || c.Kind == fray.KindEnvironment {
			continue
		}
		key := strings.ToLower(c.Name)
		if _, ok := tac[key]; !ok {
			tac[key] = t
		}
	}
}

// simEncounter sets up the encounter to simulate as fray play sets it up:
// the sheets joined in one step each, then the script's commands. As in
// fray play, a command the rules refuse changes nothing and the script
// goes on; each refusal is noted on stderr. It returns, as well, the
// tactic each character's sheet names (tactic:), by name.
func simEncounter(rulesID string, seed uint64, party, foes string, script []string, stderr io.Writer) (*engine.Engine, map[string]sim.Tactic, error) {
	newSys, ok := systems[rulesID]
	if !ok {
		return nil, nil, fmt.Errorf("unknown rules %q; choose one of %s", rulesID, strings.Join(systemIDs(), ", "))
	}
	sys := newSys()
	if _, ok := sys.(fray.Simulator); !ok {
		return nil, nil, fmt.Errorf("the %s rules cannot be simulated yet", rulesID)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)))
	var own map[string]sim.Tactic
	var out bytes.Buffer
	p := &player{e: e, out: &out}
	refused := func(where string) error {
		last := strings.TrimSpace(out.String())
		if i := strings.LastIndex(last, "\n"); i >= 0 {
			last = strings.TrimSpace(last[i+1:])
		}
		return fmt.Errorf("%s: %s", where, last)
	}
	for _, f := range []struct{ path, side string }{{party, fray.SidePC}, {foes, fray.SideNPC}} {
		if f.path == "" {
			continue
		}
		cs, ts, err := sheet.LoadTactics(f.path, sys, f.side)
		if err != nil {
			return nil, nil, fmt.Errorf("%s", fray.ErrorMessage(err))
		}
		if !p.join(cs) {
			return nil, nil, refused(f.path)
		}
		for name, t := range ts {
			if own == nil {
				own = map[string]sim.Tactic{}
			}
			own[name] = sim.Tactic(t)
		}
	}
	if len(script) == 1 {
		b, err := os.ReadFile(script[0])
		if err != nil {
			return nil, nil, err
		}
		r := bufio.NewReader(bytes.NewReader(b))
		for lineNo := 1; ; lineNo++ {
			line, tooLong, err := readLine(r)
			if err != nil && line == "" && !tooLong {
				break
			}
			if tooLong {
				return nil, nil, fmt.Errorf("%s line %d is longer than %d bytes (MaxLineBytes)", script[0], lineNo, engine.MaxLineBytes)
			}
			if !p.run(line, lineNo) {
				fmt.Fprintf(stderr, "fray sim: note: %s\n", refused(fmt.Sprintf("%s line %d", script[0], lineNo)))
			}
		}
	}
	return e, own, nil
}

// simBar draws a progress bar on a terminal for a run that lasts over
// simBarAfter: of the fights played, or, for an exact solve (total 0),
// of how much of its budgets the solve has used.
type simBar struct {
	w     io.Writer
	total int          // fights to play; 0 for an exact solve
	done  atomic.Int64 // fights played
	// states and work are an exact solve's states found and moves
	// decided.
	states, work atomic.Int64
	quit         chan struct{}
	ended        chan struct{}
}

// newSimBar returns a bar on stderr when it is a terminal and show is
// true, or nil.
func newSimBar(stderr io.Writer, total int, show bool) *simBar {
	f, ok := stderr.(*os.File)
	if !show || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	b := &simBar{w: stderr, total: total, quit: make(chan struct{}), ended: make(chan struct{})}
	go b.draw()
	return b
}

func (b *simBar) progress(done int) { raise(&b.done, done) }

// exactProgress is an exact solve's sim.Config.ExactProgress.
func (b *simBar) exactProgress(states, work int) {
	raise(&b.states, states)
	raise(&b.work, work)
}

// raise sets a to v when v is higher.
func raise(a *atomic.Int64, v int) {
	for {
		old := a.Load()
		if int64(v) <= old || a.CompareAndSwap(old, int64(v)) {
			return
		}
	}
}

func (b *simBar) draw() {
	defer close(b.ended)
	start := time.Now()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	drawn := false
	for {
		select {
		case <-b.quit:
			if drawn {
				fmt.Fprint(b.w, "\r\033[K")
			}
			return
		case <-tick.C:
			if time.Since(start) < simBarAfter {
				continue
			}
			drawn = true
			fmt.Fprint(b.w, "\r"+b.line()+"\033[K")
		}
	}
}

// line is what the bar says now.
func (b *simBar) line() string {
	bar := func(frac float64, width int) string {
		full := min(width, int(frac*float64(width)))
		return strings.Repeat("█", full) + strings.Repeat("░", width-full)
	}
	if b.total > 0 {
		frac := float64(b.done.Load()) / float64(b.total)
		return fmt.Sprintf("%s %3.0f%% of %d fights", bar(frac, 30), 100*frac, b.total)
	}
	// An exact solve: the bar fills as it nears the first budget it
	// would give up past (MaxExactStates, MaxExactWork).
	states, work := b.states.Load(), b.work.Load()
	frac := max(float64(states)/sim.MaxExactStates, float64(work)/sim.MaxExactWork)
	return fmt.Sprintf("%s exact: %d/%d states, %d/%d moves", bar(frac, 20), states, sim.MaxExactStates, work, sim.MaxExactWork)
}

// stop removes the bar; a nil bar does nothing.
func (b *simBar) stop() {
	if b == nil {
		return
	}
	close(b.quit)
	<-b.ended
}

// formatSim says a run's result for people, and the exact solve's when
// ex is not nil.
func formatSim(sys fray.System, r sim.Result, rounds int, ex *sim.ExactResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d fights (seed %d)\n\n", sys.Name(), r.Fights, r.Seed)
	for _, s := range r.Sides {
		fmt.Fprintf(&b, "  %-4s wins %6s  (95%%: %s–%s)  tactic %s\n", s.Side, percent(s.Win), percent(s.CI95[0]), percent(s.CI95[1]), s.Tactic)
	}
	fmt.Fprintf(&b, "  unfinished after %d rounds: %s\n", rounds, percent(r.Unfinished))
	switch {
	case ex == nil:
	case ex.Exact:
		b.WriteString("Exactly, from every way the dice can fall:\n")
		for _, s := range ex.Sides {
			fmt.Fprintf(&b, "  %-4s wins %s\n", s.Side, exactPercent(s.Win))
		}
		fmt.Fprintf(&b, "  unfinished after %d rounds: %s\n", rounds, exactPercent(ex.Unfinished))
	default:
		fmt.Fprintf(&b, "Not worked out exactly: %s\n", ex.Why)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Rounds: mean %.1f, median %d\n", r.Rounds.Mean, r.Rounds.Median)
	b.WriteString(histogram(r.Rounds.Dist))
	b.WriteString("\n")
	track := ""
	if len(r.Combatants) > 0 {
		track = r.Combatants[0].Track
	}
	if track == "" {
		track = "track"
	}
	nameW := len("Combatant")
	for _, c := range r.Combatants {
		nameW = max(nameW, len([]rune(c.Name)))
	}
	leftW := len(track) + len(" left")
	for _, c := range r.Combatants {
		leftW = max(leftW, len(fmt.Sprintf("%.1f of %d", c.Left, c.Most)))
	}
	others := otherTracks(sys, r.Combatants, track)
	// A tactic column when some combatant follows its own (a sheet's
	// tactic: or --tactics NAME=).
	sideTactic := map[string]sim.Tactic{}
	for _, s := range r.Sides {
		sideTactic[s.Side] = s.Tactic
	}
	own := slices.ContainsFunc(r.Combatants, func(c sim.Combatant) bool { return c.Tactic != "" && c.Tactic != sideTactic[c.Side] })
	fmt.Fprintf(&b, "  %-*s  side    down  %-*s  dealt  taken", nameW, "Combatant", leftW, track+" left")
	for _, o := range others {
		fmt.Fprintf(&b, "  %s left", o)
	}
	if own {
		b.WriteString("  tactic")
	}
	b.WriteString("\n")
	for _, c := range r.Combatants {
		left := fmt.Sprintf("%.1f of %d", c.Left, c.Most)
		line := fmt.Sprintf("  %s%s  %-4s  %6s  %-*s  %5.1f  %5.1f", c.Name, strings.Repeat(" ", nameW-len([]rune(c.Name))), c.Side, percent(c.Down), leftW, left, c.Dealt, c.Taken)
		for _, o := range others {
			v := ""
			if x, ok := c.Tracks[o]; ok {
				v = fmt.Sprintf("%.1f", x)
			}
			line += fmt.Sprintf("  %*s", len(o)+len(" left"), v)
		}
		if own {
			line += "  " + string(c.Tactic)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// otherTracks returns the names of the tracks besides health that some
// combatant of cs has, in the order the system's sheet schema declares
// them, for the report's last columns.
func otherTracks(sys fray.System, cs []sim.Combatant, health string) []string {
	sh, ok := sys.(fray.Sheeter)
	if !ok {
		return nil
	}
	var out []string
	for _, t := range sh.Sheet().Tracks {
		if t.Name == health {
			continue
		}
		for _, c := range cs {
			if _, ok := c.Tracks[t.Name]; ok {
				out = append(out, t.Name)
				break
			}
		}
	}
	return out
}

// percent writes a share as a percentage.
func percent(p float64) string {
	if p > 0 && p < 0.001 {
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*p)
}

// exactPercent writes an exact chance as a percentage, to three places.
func exactPercent(p float64) string {
	if p > 0 && p < 0.000005 {
		return "<0.001%"
	}
	return fmt.Sprintf("%.3f%%", 100*p)
}

// maxBars is the most lines the rounds histogram draws; longer
// distributions are drawn in bins of several rounds.
const maxBars = 16

// histogram draws [rounds, share] pairs as bars of block characters.
func histogram(dist [][2]float64) string {
	if len(dist) == 0 {
		return ""
	}
	lo, hi := int(dist[0][0]), int(dist[len(dist)-1][0])
	width := max(1, int(math.Ceil(float64(hi-lo+1)/maxBars)))
	type bin struct {
		from, to int
		p        float64
	}
	var bins []bin
	for from := lo; from <= hi; from += width {
		bins = append(bins, bin{from: from, to: min(hi, from+width-1)})
	}
	top := 0.0
	for _, d := range dist {
		i := (int(d[0]) - lo) / width
		bins[i].p += d[1]
		top = math.Max(top, bins[i].p)
	}
	const barW = 40
	eighths := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	var b strings.Builder
	for _, x := range bins {
		label := fmt.Sprint(x.from)
		if x.to != x.from {
			label = fmt.Sprintf("%d-%d", x.from, x.to)
		}
		n := int(math.Round(x.p / top * barW * 8))
		bar := strings.Repeat("█", n/8) + eighths[n%8]
		share := ""
		if x.p > 0 {
			share = percent(x.p)
		}
		fmt.Fprintf(&b, "  %7s │%-*s %s\n", label, barW, bar, share)
	}
	return b.String()
}
