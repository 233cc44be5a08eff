package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"fray/dice"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
)

// This file runs "fray roll --rules ID key=value…" and "fray prob --rules ID
// key=value…": each system's named roll (SPEC §1) from the rules packages,
// with its dice shown and the exact odds of each outcome band.

// rulesKey documents one key=value argument of a system's roll.
type rulesKey struct {
	name  string
	value string // what may follow "=", for help and errors
	help  string
	// rollOnly marks physical dice, which only "fray roll" takes.
	rollOnly bool
}

// rulesSpec describes one system's roll: its keys, and how to roll it and
// work out its odds from parsed arguments.
type rulesSpec struct {
	id    string
	title string
	keys  []rulesKey
	// roll returns a function making one roll from src.
	roll func(a *rulesArgs) (rulesRoller, error)
	// prob returns the odds, for JSON (one value per line) and for people.
	prob func(a *rulesArgs) (jsonOut []any, text string, err error)
}

// rulesRoller makes one roll from src and returns it for JSON and for
// people. physical reports that the roll uses dice given as arguments, so
// it can be made only once.
type rulesRoller struct {
	physical bool
	once     func(src dice.Source) (jsonOut any, text string, err error)
}

// rulesSpecs lists the systems in the order of SPEC §1. It is the one
// place the five systems are named; help, errors and dispatch read it.
var rulesSpecs = []*rulesSpec{
	{
		id:    "bpb",
		title: "Bulletproof Blues task roll: 2d6 + value against a difficulty (B-1)",
		keys: []rulesKey{
			{name: "value", value: "N", help: "action value: attribute rank + bonuses (required)"},
			{name: "difficulty", value: "N|challenging", help: "the total to reach; challenging = 12"},
			{name: "vs", value: "RANK", help: "or an opposing rank or value: difficulty 8 + RANK"},
			{name: "expertise", value: "yes|no", help: "+3 to the value; extreme, not remarkable, in mode expertise"},
			{name: "mode", value: "open|expertise", help: "success mode (default open): who can roll an extreme success"},
			{name: "faces", value: "A,B", help: "the two dice rolled at the table", rollOnly: true},
			{name: "roll", value: "N", help: "or only their sum, 2 to 12", rollOnly: true},
		},
		roll: bpbRoll,
		prob: bpbProb,
	},
	{
		id:    "cinematic",
		title: "Cinematic Unisystem: D10 + value, 9+ succeeds, success levels; an attack against a defence (C-3, C-4)",
		keys: []rulesKey{
			{name: "value", value: "N", help: "attribute + skill + modifiers (attribute × 2 without a skill) (required)"},
			{name: "vs", value: "N", help: "an attack: the defender rolls D10 + N; higher wins, ties to the defender"},
			{name: "roll", value: "1-10", help: "the D10 rolled at the table (0 = 10)", rollOnly: true},
			{name: "vs-roll", value: "1-10", help: "the defender's D10 rolled at the table", rollOnly: true},
		},
		roll: cinematicRoll,
		prob: cinematicProb,
	},
	{
		id:    "vv",
		title: "Villains & Vigilantes to hit: 1d20 at or under the chance; 1 always hits, 20 always misses (V-8)",
		keys: []rulesKey{
			{name: "chance", value: "N", help: "skill + Level − defender's Level + range, facing and GM modifiers (required)"},
			{name: "defenceless", value: "yes|no", help: "the target cannot defend: anything but a 20 hits"},
			{name: "roll", value: "1-20", help: "the d20 rolled at the table", rollOnly: true},
		},
		roll: vvRoll,
		prob: vvProb,
	},
	{
		id:    "pp",
		title: "Prowlers & Paragons challenge roll: d6 pool, 2 and 4 = 1 success, 6 = 2; net successes and narrative control (P-1…P-5, P-9)",
		keys: []rulesKey{
			{name: "dice", value: "N", help: "the trait's dice, with bonus dice other than the GM's (required)"},
			{name: "mod", value: "-4..+4", help: "the GM's modifier in dice"},
			{name: "auto", value: "N|all", help: "dice not rolled: 1 automatic success per 2"},
			{name: "resolve", value: "N", help: "Resolve spent after the roll: +1 die a point, +3 in a defining moment"},
			{name: "defining", value: "yes|no", help: "defining moment: 6s explode (still 2 successes each)"},
			{name: "explode", value: "yes|no", help: "6s explode (1 Resolve spent when checking your swing)"},
			{name: "reroll", value: "yes|no", help: "1 Resolve spent to reroll the whole roll, keeping the better"},
			{name: "swing", value: "yes|no", help: "checking your swing, both sides: every even face is 1 success"},
			{name: "threshold", value: "N|NAME", help: "static threshold (default easy 0): easy average hard daunting brutal inhuman superhuman legendary godlike"},
			{name: "vs", value: "N", help: "or an opponent's pool of N dice, with vs-mod=, vs-auto=, vs-resolve=, vs-defining=, vs-explode=, vs-reroll= as above"},
			{name: "vs-mod", value: "-4..+4", help: ""},
			{name: "vs-auto", value: "N|all", help: ""},
			{name: "vs-resolve", value: "N", help: ""},
			{name: "vs-defining", value: "yes|no", help: ""},
			{name: "vs-explode", value: "yes|no", help: ""},
			{name: "vs-reroll", value: "yes|no", help: ""},
			{name: "faces", value: "A,B,…", help: "the actor's dice rolled at the table: the pool (each exploding 6 then its new die), then Resolve dice", rollOnly: true},
			{name: "successes", value: "N", help: "or only the successes they showed (automatic ones are added)", rollOnly: true},
			{name: "vs-faces", value: "A,B,…", help: "the opponent's dice rolled at the table", rollOnly: true},
			{name: "vs-successes", value: "N", help: "or only the successes they showed", rollOnly: true},
		},
		roll: ppRoll,
		prob: ppProb,
	},
	{
		id:    "queue",
		title: "Combat Queue damage: Red and Black d6; light the lower, medium Red, heavy the higher; Black 6 = special (Q-4)",
		keys: []rulesKey{
			{name: "weapon", value: "light|medium|heavy", help: "the weapon's weight (required to roll; prob shows all three without it)"},
			{name: "red", value: "1-6", help: "the Red die rolled at the table", rollOnly: true},
			{name: "black", value: "1-6", help: "the Black die rolled at the table", rollOnly: true},
		},
		roll: queueRoll,
		prob: queueProb,
	},
}

// rulesExamples are shown at the end of rulesHelp.
var rulesExamples = []string{
	"fray roll --rules bpb value=5 difficulty=12 expertise=yes",
	"fray prob --rules bpb value=4 vs=9 mode=expertise",
	"fray roll --rules cinematic value=7 vs=5",
	"fray roll --rules vv chance=12 roll=20",
	"fray roll --rules pp dice=12 faces=1,2,2,2,3,3,3,5,5,5,6,6 vs=12 vs-auto=all",
	"fray prob --rules pp dice=12 vs=12 vs-auto=all",
	"fray prob --rules pp dice=8 threshold=hard defining=yes resolve=1",
	"fray prob --rules queue weapon=heavy",
}

// rulesHelp describes each system's keys; "fray roll --help" and "fray
// prob --help" end with it.
func rulesHelp() string {
	var b strings.Builder
	b.WriteString("Per-system rolls: --rules ID key=value…\n")
	b.WriteString("Keys marked * are dice rolled at the table and only \"fray roll\" takes them;\n")
	b.WriteString("the --dice flag of \"fray roll\" also gives the faces, in the order rolled.\n")
	for _, s := range rulesSpecs {
		fmt.Fprintf(&b, "\n  %s — %s\n", s.id, s.title)
		for _, k := range s.keys {
			if k.help == "" {
				continue
			}
			star := " "
			if k.rollOnly {
				star = "*"
			}
			fmt.Fprintf(&b, "   %s%-28s %s\n", star, k.name+"="+k.value, k.help)
		}
	}
	b.WriteString("\nExamples:\n")
	for _, e := range rulesExamples {
		b.WriteString("  " + e + "\n")
	}
	return b.String()
}

func rulesSpecFor(id string) (*rulesSpec, error) {
	for _, s := range rulesSpecs {
		if s.id == id {
			return s, nil
		}
	}
	ids := make([]string, len(rulesSpecs))
	for i, s := range rulesSpecs {
		ids[i] = s.id
	}
	return nil, fmt.Errorf("unknown rules %q: want %s", id, rulesOr(ids))
}

// rulesOr joins words as "a, b or c".
func rulesOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// runRulesRoll runs "fray roll --rules ID key=value…": n rolls from src
// (a seeded source, or the --dice faces), printed for people or as one
// JSON object per roll. It returns the exit code.
func runRulesRoll(id string, args []string, src dice.Source, n int, jsonOut bool, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "fray roll --rules %s: %v\n", id, err)
		return 2
	}
	spec, err := rulesSpecFor(id)
	if err != nil {
		return fail(err)
	}
	a, err := parseRulesArgs(spec, args, true)
	if err != nil {
		return fail(err)
	}
	r, err := spec.roll(a)
	if err != nil {
		return fail(err)
	}
	if err := a.unused(); err != nil {
		return fail(err)
	}
	fs, fromFlag := src.(*dice.FaceSource)
	if (r.physical || fromFlag) && n > 1 {
		return fail(fmt.Errorf("-n %d: dice rolled at the table make one roll; leave out -n", n))
	}
	for range n {
		j, text, err := r.once(src)
		if err != nil {
			return fail(err)
		}
		if fromFlag && fs.Unused() > 0 {
			return fail(fmt.Errorf("--dice: %d of the faces given were not needed", fs.Unused()))
		}
		if jsonOut {
			if code := rulesWriteJSON(id, j, stdout, stderr); code != 0 {
				return code
			}
			continue
		}
		fmt.Fprint(stdout, text)
	}
	return 0
}

// runRulesProb runs "fray prob --rules ID key=value…": the exact odds of
// each outcome band, as a table with bars or as JSON. It returns the exit
// code.
func runRulesProb(id string, args []string, jsonOut bool, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "fray prob --rules %s: %v\n", id, err)
		return 2
	}
	spec, err := rulesSpecFor(id)
	if err != nil {
		return fail(err)
	}
	a, err := parseRulesArgs(spec, args, false)
	if err != nil {
		return fail(err)
	}
	objs, text, err := spec.prob(a)
	if err != nil {
		return fail(err)
	}
	if err := a.unused(); err != nil {
		return fail(err)
	}
	if !jsonOut {
		fmt.Fprint(stdout, text)
		return 0
	}
	for _, o := range objs {
		if code := rulesWriteJSON(id, o, stdout, stderr); code != 0 {
			return code
		}
	}
	return 0
}

// rulesWriteJSON writes v, a JSON object, on one line with "rules" as its
// first field.
func rulesWriteJSON(id string, v any, stdout, stderr io.Writer) int {
	body, err := json.Marshal(v)
	if err != nil || len(body) < 2 || body[0] != '{' {
		fmt.Fprintf(stderr, "fray: encode output: %v\n", err)
		return 1
	}
	head, _ := json.Marshal(id)
	line := `{"rules":` + string(head)
	if len(body) > 2 {
		line += ","
	}
	line += string(body[1:]) + "\n"
	if _, err := io.WriteString(stdout, line); err != nil {
		fmt.Fprintf(stderr, "fray: write output: %v\n", err)
		return 1
	}
	return 0
}

// rulesArgs holds the key=value arguments of a system's roll. Its getters
// return errors that name the key and what it allows.
type rulesArgs struct {
	spec *rulesSpec
	vals map[string]string
	read map[string]bool
}

// parseRulesArgs reads key=value arguments, refusing keys the system does
// not take (and, for prob, dice rolled at the table).
func parseRulesArgs(spec *rulesSpec, args []string, roll bool) (*rulesArgs, error) {
	a := &rulesArgs{spec: spec, vals: map[string]string{}, read: map[string]bool{}}
	for _, arg := range args {
		key, val, ok := strings.Cut(arg, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("argument %q: want key=value; %s takes %s", arg, spec.id, a.keyList(roll))
		}
		key = strings.ToLower(key)
		i := slices.IndexFunc(spec.keys, func(k rulesKey) bool { return k.name == key })
		switch {
		case i < 0:
			return nil, fmt.Errorf("unknown key %q: %s takes %s", key, spec.id, a.keyList(roll))
		case spec.keys[i].rollOnly && !roll:
			return nil, fmt.Errorf("key %q gives dice rolled at the table; fray prob works out the odds before the roll (use fray roll)", key)
		case val == "":
			return nil, fmt.Errorf("%s= is empty: want %s=%s", key, key, spec.keys[i].value)
		}
		if _, dup := a.vals[key]; dup {
			return nil, fmt.Errorf("%s= is given twice", key)
		}
		a.vals[key] = val
	}
	return a, nil
}

func (a *rulesArgs) keyList(roll bool) string {
	var names []string
	for _, k := range a.spec.keys {
		if roll || !k.rollOnly {
			names = append(names, k.name)
		}
	}
	return rulesOr(names)
}

// unused reports a key that was given but means nothing with the others
// (such as vs-mod= without vs=).
func (a *rulesArgs) unused() error {
	for _, k := range a.spec.keys {
		if _, ok := a.vals[k.name]; ok && !a.read[k.name] {
			if strings.HasPrefix(k.name, "vs-") {
				return fmt.Errorf("%s= is for the opponent: it needs vs=", k.name)
			}
			return fmt.Errorf("%s= does not apply here (it goes with the keys described in \"fray roll --help\")", k.name)
		}
	}
	return nil
}

func (a *rulesArgs) has(key string) bool {
	_, ok := a.vals[key]
	return ok
}

func (a *rulesArgs) get(key string) (string, bool) {
	v, ok := a.vals[key]
	if ok {
		a.read[key] = true
	}
	return v, ok
}

// rulesRange bounds the numbers a GM can type for values, chances and
// difficulties.
const rulesRange = 1000

// int returns the whole number given for key, def if it is absent.
func (a *rulesArgs) int(key string, def, lo, hi int) (int, error) {
	s, ok := a.get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%s: want a whole number from %d to %d", key, s, lo, hi)
	}
	return n, nil
}

// required returns the whole number given for key, which must be there.
func (a *rulesArgs) required(key string, lo, hi int) (int, error) {
	if !a.has(key) {
		return 0, fmt.Errorf("%s= is required: a whole number from %d to %d", key, lo, hi)
	}
	return a.int(key, 0, lo, hi)
}

// bool reads yes/no (also true/false, on/off, 1/0) for key, false if it is
// absent.
func (a *rulesArgs) bool(key string) (bool, error) {
	s, ok := a.get(key)
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

// faces reads a comma-separated list of faces from 1 to sides for key;
// zero, when zeroIs is set, stands for that face (a D10's 0 is a 10).
func (a *rulesArgs) faces(key string, sides, zeroIs int) ([]int, error) {
	s, ok := a.get(key)
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

// rulesMixed is a dice source that plays back the faces given at the
// table where there is one (a face above 0) and rolls from src elsewhere.
type rulesMixed struct {
	fixed []int
	next  int
	src   dice.Source
}

// IntN returns the next given face minus one, or a roll from src.
func (m *rulesMixed) IntN(n int) int {
	i := m.next
	m.next++
	if i < len(m.fixed) && m.fixed[i] > 0 {
		return m.fixed[i] - 1
	}
	return m.src.IntN(n)
}

// rulesDice writes dice as rolled: exploded dice marked "!", dice stopped
// by the depth limit "^"; rerolled dice are left out.
func rulesDice(ds []dice.Die) string {
	var parts []string
	for _, d := range ds {
		if d.Rerolled {
			continue
		}
		s := strconv.Itoa(d.Face)
		if d.Exploded {
			s += "!"
		}
		if d.Capped {
			s += "^"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// rulesSigned writes "+ n" or "− n" after a sum.
func rulesSigned(n int) string {
	if n < 0 {
		return "− " + strconv.Itoa(-n)
	}
	return "+ " + strconv.Itoa(n)
}

// rulesBand is one row of a table of odds.
type rulesBand struct {
	name string
	p    float64
	note string
}

// rulesTable writes bands as rows: name, percentage, bar, note.
func rulesTable(b *strings.Builder, rows []rulesBand) {
	w, peak := 0, 0.0
	for _, r := range rows {
		w = max(w, len([]rune(r.name)))
		peak = max(peak, r.p)
	}
	for _, r := range rows {
		pad := strings.Repeat(" ", w-len([]rune(r.name)))
		line := fmt.Sprintf("  %s%s  %8s  %-40s", r.name, pad, pct(r.p), bar(r.p, peak, 40))
		if r.note != "" {
			line += "  " + r.note
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// bpb

func bpbTask(a *rulesArgs) (bpb.TaskRoll, error) {
	var t bpb.TaskRoll
	var err error
	if t.Value, err = a.required("value", -rulesRange, rulesRange); err != nil {
		return t, err
	}
	switch d, hasD := a.get("difficulty"); {
	case hasD && a.has("vs"):
		return t, fmt.Errorf("difficulty= and vs= are both given: give one")
	case hasD && strings.EqualFold(d, "challenging"):
		t.Difficulty = bpb.TaskChallenging
	case hasD:
		if t.Difficulty, err = a.int("difficulty", 0, -rulesRange, rulesRange); err != nil {
			return t, fmt.Errorf("%w, or challenging", err)
		}
	case a.has("vs"):
		rank, err := a.int("vs", 0, -rulesRange, rulesRange)
		if err != nil {
			return t, err
		}
		t.Difficulty = bpb.TaskDifficulty(rank)
	default:
		return t, fmt.Errorf("difficulty= (a number, or challenging) or vs= (an opposing rank: 8 + rank) is required")
	}
	if t.Expertise, err = a.bool("expertise"); err != nil {
		return t, err
	}
	if m, ok := a.get("mode"); ok {
		if t.Mode, err = bpb.ParseTaskMode(strings.ToLower(m)); err != nil {
			return t, fmt.Errorf("mode=%s: want open or expertise", m)
		}
	} else {
		t.Mode = bpb.TaskModeOpen
	}
	return t, nil
}

func bpbHeader(t bpb.TaskRoll) string {
	exp := ""
	if t.Expertise {
		exp = ", with expertise"
	}
	return fmt.Sprintf("bpb task roll: %s against difficulty %d (success mode %s%s)\n", t.Expr(), t.Difficulty, t.Mode, exp)
}

func bpbRoll(a *rulesArgs) (rulesRoller, error) {
	t, err := bpbTask(a)
	if err != nil {
		return rulesRoller{}, err
	}
	faces, err := a.faces("faces", 6, 0)
	if err != nil {
		return rulesRoller{}, err
	}
	if faces != nil && len(faces) != 2 {
		return rulesRoller{}, fmt.Errorf("faces=: %d faces given; a task roll is two dice", len(faces))
	}
	total, err := a.int("roll", 0, 2, 12)
	if err != nil {
		return rulesRoller{}, err
	}
	if faces != nil && total != 0 {
		return rulesRoller{}, fmt.Errorf("faces= and roll= are both given: give one")
	}
	once := func(src dice.Source) (any, string, error) {
		var r *bpb.TaskResult
		var err error
		switch {
		case total != 0:
			r, err = t.FromTotal(total)
		case faces != nil:
			r, err = t.Roll(dice.Faces(faces...))
		default:
			r, err = t.Roll(src)
		}
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		b.WriteString(bpbHeader(t))
		if len(r.Dice) > 0 {
			fmt.Fprintf(&b, "  dice: %s = %d, %s = %d\n", rulesDice(r.Dice), r.Roll, rulesSigned(r.Bonus), r.Total)
		} else {
			fmt.Fprintf(&b, "  dice: %d (sum given), %s = %d\n", r.Roll, rulesSigned(r.Bonus), r.Total)
		}
		rel := "over"
		if r.Margin < 0 {
			rel = "under"
		}
		fmt.Fprintf(&b, "  %s: %d %s %d\n", r.Band.Describe(), rulesAbs(r.Margin), rel, r.Difficulty)
		return r, b.String(), nil
	}
	return rulesRoller{physical: faces != nil || total != 0, once: once}, nil
}

func rulesAbs(n int) int { return max(n, -n) }

func bpbProb(a *rulesArgs) ([]any, string, error) {
	t, err := bpbTask(a)
	if err != nil {
		return nil, "", err
	}
	o, err := t.Odds()
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	b.WriteString(bpbHeader(t))
	var rows []rulesBand
	effect := map[bpb.TaskBand]string{
		bpb.TaskRemarkable: ": +1 rank to the weapon or power for this attack",
		bpb.TaskExtreme:    ": overwhelming, smashing or staggering",
	}
	for i, x := range o.Bands {
		note := []string{fmt.Sprintf("total ≤ %d", t.Difficulty-1), fmt.Sprintf("total %d to %d", t.Difficulty, t.Difficulty+2), fmt.Sprintf("total ≥ %d", t.Difficulty+3)}[i]
		rows = append(rows, rulesBand{string(x.Band), x.P, note + effect[x.Band]})
	}
	rulesTable(&b, rows)
	fmt.Fprintf(&b, "  mean total %.2f\n", o.Mean)
	return []any{o}, b.String(), nil
}

// cinematic

func cinematicTest(a *rulesArgs) (cinematic.TestRoll, error) {
	var t cinematic.TestRoll
	var err error
	if t.Value, err = a.required("value", -rulesRange, rulesRange); err != nil {
		return t, err
	}
	if a.has("vs") {
		t.Opposed = true
		if t.Defence, err = a.int("vs", 0, -rulesRange, rulesRange); err != nil {
			return t, err
		}
	}
	return t, nil
}

func cinematicHeader(t cinematic.TestRoll) string {
	if t.Opposed {
		return fmt.Sprintf("cinematic attack: %s against the defence %s (higher wins, ties to the defender)\n", t.Expr(), t.DefenceExpr())
	}
	return fmt.Sprintf("cinematic roll: %s (9 or more succeeds)\n", t.Expr())
}

func cinematicRoll(a *rulesArgs) (rulesRoller, error) {
	t, err := cinematicTest(a)
	if err != nil {
		return rulesRoller{}, err
	}
	var fixed [2]int
	for i, key := range []string{"roll", "vs-roll"} {
		f, err := a.faces(key, 10, 10)
		if err != nil {
			return rulesRoller{}, err
		}
		if len(f) > 1 {
			return rulesRoller{}, fmt.Errorf("%s=: %d faces given; want one D10", key, len(f))
		}
		if len(f) == 1 {
			fixed[i] = f[0]
		}
	}
	if fixed[1] != 0 && !t.Opposed {
		return rulesRoller{}, fmt.Errorf("vs-roll= is the defender's D10: it needs vs= (the defender's value)")
	}
	physical := fixed[0] != 0 || fixed[1] != 0
	once := func(src dice.Source) (any, string, error) {
		if physical {
			src = &rulesMixed{fixed: fixed[:], src: src}
		}
		r, err := t.Roll(src)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		b.WriteString(cinematicHeader(t))
		side := func(who string, s cinematic.TestSide, value int) {
			fmt.Fprintf(&b, "  %s D10 %d %s = %d (%s)\n", who, s.Roll, rulesSigned(value), s.Total, rulesLevels(s.Levels))
		}
		if t.Opposed {
			side("attacker:", r.Attack, t.Value)
			side("defender:", *r.Defence, t.Defence)
			fmt.Fprintf(&b, "  %s\n", r.Band)
		} else {
			fmt.Fprintf(&b, "  D10 %d %s = %d: %s\n", r.Attack.Roll, rulesSigned(t.Value), r.Total, r.Band)
		}
		return r, b.String(), nil
	}
	return rulesRoller{physical: physical, once: once}, nil
}

// rulesLevels writes a number of success levels.
func rulesLevels(n int) string {
	if n == 1 {
		return "1 success level"
	}
	return strconv.Itoa(n) + " success levels"
}

func cinematicProb(a *rulesArgs) ([]any, string, error) {
	t, err := cinematicTest(a)
	if err != nil {
		return nil, "", err
	}
	o, err := t.Odds()
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	b.WriteString(cinematicHeader(t))
	var rows []rulesBand
	for _, x := range o.Bands {
		rows = append(rows, rulesBand{x.Band, x.P, ""})
	}
	rulesTable(&b, rows)
	fmt.Fprintf(&b, "  success %s   mean total %.2f\n", pct(o.Success), o.Mean)
	return []any{o}, b.String(), nil
}

// vv

func vvHit(a *rulesArgs) (vv.HitRoll, error) {
	var h vv.HitRoll
	var err error
	if h.Chance, err = a.required("chance", -rulesRange, rulesRange); err != nil {
		return h, err
	}
	h.Defenceless, err = a.bool("defenceless")
	return h, err
}

func vvHeader(h vv.HitRoll) string {
	if h.Defenceless {
		return fmt.Sprintf("vv to hit: %s against a target that cannot defend (anything but 20 hits)\n", vv.HitDice)
	}
	return fmt.Sprintf("vv to hit: %s at or under %d (hits on 1 to %d; 1 always hits, 20 always misses)\n", vv.HitDice, h.Chance, h.Needed())
}

func vvRoll(a *rulesArgs) (rulesRoller, error) {
	h, err := vvHit(a)
	if err != nil {
		return rulesRoller{}, err
	}
	face, err := a.int("roll", 0, 1, 20)
	if err != nil {
		return rulesRoller{}, err
	}
	once := func(src dice.Source) (any, string, error) {
		if face != 0 {
			src = dice.Faces(face)
		}
		r, err := h.Roll(src)
		if err != nil {
			return nil, "", err
		}
		return r, vvHeader(h) + fmt.Sprintf("  d20: %d: %s\n", r.Total, r.Band.Describe()), nil
	}
	return rulesRoller{physical: face != 0, once: once}, nil
}

func vvProb(a *rulesArgs) ([]any, string, error) {
	h, err := vvHit(a)
	if err != nil {
		return nil, "", err
	}
	o := h.Odds()
	var b strings.Builder
	b.WriteString(vvHeader(h))
	notes := map[vv.HitBand]string{
		vv.HitHit:    fmt.Sprintf("d20 1 to %d", h.Needed()),
		vv.HitMiss:   fmt.Sprintf("d20 %d to 19", h.Needed()+1),
		vv.HitAstray: "d20 20: always misses and goes astray (incidental effect)",
	}
	if h.Needed() == 19 {
		notes[vv.HitMiss] = "no face"
	}
	var rows []rulesBand
	for _, x := range o.Bands {
		rows = append(rows, rulesBand{string(x.Band), x.P, notes[x.Band]})
	}
	rulesTable(&b, rows)
	fmt.Fprintf(&b, "  any other miss may also go astray, at the GM's option\n")
	return []any{o}, b.String(), nil
}

// pp

// ppPool reads one side's pool: the keys as given for the actor, or with
// the prefix "vs-" for the opponent (whose dice are vs= itself).
func ppPool(a *rulesArgs, prefix string) (pp.Pool, error) {
	var p pp.Pool
	var err error
	diceKey := prefix + "dice"
	if prefix != "" {
		diceKey = "vs"
	}
	if p.Dice, err = a.required(diceKey, 0, rulesRange); err != nil {
		return p, err
	}
	if p.Modifier, err = a.int(prefix+"mod", 0, -pp.MaxModifier, pp.MaxModifier); err != nil {
		return p, err
	}
	if s, ok := a.get(prefix + "auto"); ok {
		switch strings.ToLower(s) {
		case "all", "yes":
			p.SetAside = max(p.Count(), 0)
		case "no":
		default:
			if p.SetAside, err = a.int(prefix+"auto", 0, 0, max(p.Count(), 0)); err != nil {
				return p, fmt.Errorf("%w (the dice after modifiers), or all", err)
			}
		}
	}
	if p.Resolve, err = a.int(prefix+"resolve", 0, 0, 100); err != nil {
		return p, err
	}
	if p.DefiningMoment, err = a.bool(prefix + "defining"); err != nil {
		return p, err
	}
	if p.Explode, err = a.bool(prefix + "explode"); err != nil {
		return p, err
	}
	if p.Reroll, err = a.bool(prefix + "reroll"); err != nil {
		return p, err
	}
	return p, p.Check()
}

func ppChallenge(a *rulesArgs) (pp.Challenge, error) {
	var c pp.Challenge
	var err error
	if c.Actor, err = ppPool(a, ""); err != nil {
		return c, err
	}
	if c.Swing, err = a.bool("swing"); err != nil {
		return c, err
	}
	switch {
	case a.has("vs") && a.has("threshold"):
		return c, fmt.Errorf("threshold= and vs= are both given: a roll is against a static threshold or an opponent's pool")
	case a.has("vs"):
		opp, err := ppPool(a, "vs-")
		if err != nil {
			return c, fmt.Errorf("opponent: %w", err)
		}
		c.Opponent = &opp
	default:
		if s, ok := a.get("threshold"); ok {
			if c.Threshold, err = pp.ParseThreshold(s); err != nil {
				return c, fmt.Errorf("threshold=%s: want a number of 0 or more, or easy, average, hard, daunting, brutal, inhuman, superhuman, legendary or godlike", s)
			}
		}
	}
	return c, nil
}

// ppDescribe writes a pool in words, such as "12 dice (6 set aside: 3
// automatic successes), defining moment".
func ppDescribe(p pp.Pool) string {
	var parts []string
	if p.Desperate() {
		parts = append(parts, fmt.Sprintf("%s %s: fewer than one, so one die where only a 6 counts", rulesCount(p.Dice, "die", "dice"), ppMod(p.Modifier)))
	} else {
		s := rulesCount(p.Count(), "die", "dice")
		if p.Modifier != 0 {
			s = fmt.Sprintf("%s %s = %d", rulesCount(p.Dice, "die", "dice"), ppMod(p.Modifier), p.Count())
		}
		parts = append(parts, s)
	}
	if p.SetAside > 0 {
		parts = append(parts, fmt.Sprintf("%d set aside for %s", p.SetAside, rulesCount(p.Auto(), "automatic success", "automatic successes")))
	}
	if p.Resolve > 0 {
		parts = append(parts, fmt.Sprintf("%d Resolve for %s", p.Resolve, rulesCount(p.ExtraDice(), "more die", "more dice")))
	}
	if p.Reroll {
		parts = append(parts, "1 Resolve to reroll, keeping the better")
	}
	if p.DefiningMoment {
		parts = append(parts, "defining moment: 6s explode")
	} else if p.Explode {
		parts = append(parts, "6s explode")
	}
	return strings.Join(parts, ", ")
}

func ppMod(m int) string {
	if m < 0 {
		return fmt.Sprintf("− %dd", -m)
	}
	return fmt.Sprintf("+ %dd", m)
}

func ppHeader(c pp.Challenge) string {
	var b strings.Builder
	swing := ""
	if c.Swing {
		swing = " (checking your swing: every even face is 1 success)"
	}
	fmt.Fprintf(&b, "pp challenge roll%s\n", swing)
	fmt.Fprintf(&b, "  actor:     %s\n", ppDescribe(c.Actor))
	if c.Opponent != nil {
		fmt.Fprintf(&b, "  opponent:  %s\n", ppDescribe(*c.Opponent))
	} else {
		fmt.Fprintf(&b, "  threshold: %s\n", pp.ThresholdName(c.Threshold))
	}
	return b.String()
}

// ppSide returns how one side's pool is settled: from faces given, from
// successes given, or rolled (nil).
func ppSide(a *rulesArgs, p pp.Pool, swing bool, prefix string) (func(src dice.Source) (*pp.PoolResult, error), bool, error) {
	faces, err := a.faces(prefix+"faces", 6, 0)
	if err != nil {
		return nil, false, err
	}
	if faces != nil && a.has(prefix+"successes") {
		return nil, false, fmt.Errorf("%sfaces= and %ssuccesses= are both given: give one", prefix, prefix)
	}
	if faces != nil {
		return func(dice.Source) (*pp.PoolResult, error) {
			r, err := p.Roll(dice.Faces(faces...), swing)
			if err != nil {
				return nil, fmt.Errorf("%sfaces=: %w", prefix, err)
			}
			return r, nil
		}, true, nil
	}
	if a.has(prefix + "successes") {
		n, err := a.int(prefix+"successes", 0, 0, 1<<30)
		if err != nil {
			return nil, false, err
		}
		return func(dice.Source) (*pp.PoolResult, error) {
			r, err := p.FromSuccesses(n, swing)
			if err != nil {
				return nil, fmt.Errorf("%ssuccesses=: %w", prefix, err)
			}
			return r, nil
		}, true, nil
	}
	return nil, false, nil
}

func ppRoll(a *rulesArgs) (rulesRoller, error) {
	c, err := ppChallenge(a)
	if err != nil {
		return rulesRoller{}, err
	}
	actor, physical, err := ppSide(a, c.Actor, c.Swing, "")
	if err != nil {
		return rulesRoller{}, err
	}
	var opp func(dice.Source) (*pp.PoolResult, error)
	if c.Opponent != nil {
		var oppPhysical bool
		if opp, oppPhysical, err = ppSide(a, *c.Opponent, c.Swing, "vs-"); err != nil {
			return rulesRoller{}, err
		}
		physical = physical || oppPhysical
	}
	once := func(src dice.Source) (any, string, error) {
		var r *pp.ChallengeResult
		if actor == nil && opp == nil {
			var err error
			if r, err = c.Roll(src); err != nil {
				return nil, "", err
			}
		} else {
			roll := func(f func(dice.Source) (*pp.PoolResult, error), p pp.Pool) (*pp.PoolResult, error) {
				if f != nil {
					return f(src)
				}
				return p.Roll(src, c.Swing)
			}
			ar, err := roll(actor, c.Actor)
			if err != nil {
				return nil, "", fmt.Errorf("actor: %w", err)
			}
			var or *pp.PoolResult
			if c.Opponent != nil {
				if or, err = roll(opp, *c.Opponent); err != nil {
					return nil, "", fmt.Errorf("opponent: %w", err)
				}
			}
			r = c.Settle(ar, or)
		}
		var b strings.Builder
		b.WriteString(ppHeader(c))
		ppShow(&b, "actor", r.Actor)
		if r.Opponent != nil {
			ppShow(&b, "opponent", r.Opponent)
		}
		fmt.Fprintf(&b, "  net %d − %d = %+d: %s (%s)\n", r.Successes, r.Threshold, r.Net, r.Band, r.Result)
		return r, b.String(), nil
	}
	return rulesRoller{physical: physical, once: once}, nil
}

// ppShow writes one side's dice and successes, and the roll not kept
// when Resolve bought a reroll.
func ppShow(b *strings.Builder, who string, r *pp.PoolResult) {
	line := who + " " + ppRolled(r)
	if r.OtherRoll != nil {
		line += " (kept)"
	}
	b.WriteString("  " + line + "\n")
	if r.OtherRoll != nil {
		b.WriteString("    the other roll, not kept: " + ppRolled(r.OtherRoll) + "\n")
	}
}

// ppRolled describes one roll of a pool, such as "rolled 6 1 4 + 1
// automatic success: 4 successes".
func ppRolled(r *pp.PoolResult) string {
	var s string
	auto := r.Auto > 0
	switch {
	case len(r.Dice) > 0 || len(r.ResolveDice) > 0:
		var parts []string
		if len(r.Dice) > 0 {
			d := rulesDice(r.Dice)
			if r.Desperate {
				d = "one die, where only a 6 counts: " + d
			}
			parts = append(parts, d)
		}
		if len(r.ResolveDice) > 0 {
			parts = append(parts, "Resolve dice "+rulesDice(r.ResolveDice))
		}
		s = "rolled " + strings.Join(parts, ", then ")
	case auto && r.Rolled == 0:
		s, auto = "took "+rulesCount(r.Auto, "automatic success", "automatic successes"), false
	default:
		s = "counted " + rulesCount(r.Rolled, "success", "successes") + " at the table"
	}
	if auto {
		s += " + " + rulesCount(r.Auto, "automatic success", "automatic successes")
	}
	return s + ": " + rulesCount(r.Successes, "success", "successes")
}

// rulesCount writes n with the singular or plural noun.
func rulesCount(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

func ppProb(a *rulesArgs) ([]any, string, error) {
	c, err := ppChallenge(a)
	if err != nil {
		return nil, "", err
	}
	o, err := c.Odds()
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	b.WriteString(ppHeader(c))
	actor := o.Actor
	if c.Actor.Reroll {
		actor = "best of two (" + actor + ")"
	}
	if c.Opponent != nil {
		opp := o.Opponent
		switch {
		case c.Opponent.Reroll:
			opp = "best of two (" + opp + ")"
		case strings.Contains(opp, "+"):
			opp = "(" + opp + ")"
		}
		fmt.Fprintf(&b, "  net successes = %s − %s\n\n", actor, opp)
	} else {
		fmt.Fprintf(&b, "  net successes = %s − %d\n\n", actor, o.Threshold)
	}
	nets := []string{"net ≤ −2", "net −1 to 0", "net 1 to 2", "net ≥ 3"}
	var rows []rulesBand
	for i, x := range o.Bands {
		rows = append(rows, rulesBand{string(x.Band), x.P, nets[i] + ": " + x.Result})
	}
	rulesTable(&b, rows)
	b.WriteString("\n  net successes:\n")
	lo, hi := 0, len(o.Nets)-1
	for lo < hi && o.Nets[lo].P < tailCut {
		lo++
	}
	for hi > lo && o.Nets[hi].P < tailCut {
		hi--
	}
	rows = rows[:0]
	for _, n := range o.Nets[lo : hi+1] {
		rows = append(rows, rulesBand{fmt.Sprintf("%+4d", n.Net), n.P, ""})
	}
	rulesTable(&b, rows)
	if n := len(o.Nets) - (hi - lo + 1); n > 0 {
		fmt.Fprintf(&b, "  (%d net counts at the tails with P under %s are not shown; --json lists them)\n", n, pct(tailCut))
	}
	fmt.Fprintf(&b, "  mean net %+.3f\n", o.Mean)
	if o.Truncated > 0 {
		fmt.Fprintf(&b, "  probability cut off by the explosion depth limit: %.3g\n", o.Truncated)
	}
	return []any{o}, b.String(), nil
}

// queue

// queueOutput is the JSON form of a damage roll.
type queueOutput struct {
	Weight queue.DamageWeight `json:"weight"`
	Total  int                `json:"total"`
	Band   string             `json:"band"`
	Red    int                `json:"red"`
	Black  int                `json:"black"`
	Damage int                `json:"damage"`
	// Special reports a Black 6.
	Special bool       `json:"special"`
	Dice    []dice.Die `json:"dice"`
}

// queueProbOutput is the JSON form of the odds of a damage roll.
type queueProbOutput struct {
	Weight  queue.DamageWeight `json:"weight"`
	Bands   []queueBandOutput  `json:"bands"`
	Special float64            `json:"special"`
	Mean    float64            `json:"mean"`
}

type queueBandOutput struct {
	Band     string  `json:"band"`
	Damage   int     `json:"damage"`
	P        float64 `json:"p"`
	PSpecial float64 `json:"p_special"`
}

var queueWhich = map[queue.DamageWeight]string{
	queue.DamageLight:  "the lower of Red and Black",
	queue.DamageMedium: "Red",
	queue.DamageHeavy:  "the higher of Red and Black",
}

func queueWeight(a *rulesArgs, required bool) (queue.DamageWeight, error) {
	s, ok := a.get("weapon")
	if !ok {
		if required {
			return "", fmt.Errorf("weapon= is required: light, medium or heavy")
		}
		return "", nil
	}
	w, err := queue.ParseDamageWeight(strings.ToLower(s))
	if err != nil {
		return "", fmt.Errorf("weapon=%s: want light, medium or heavy", s)
	}
	return w, nil
}

func queueBand(damage int, special bool) string {
	s := fmt.Sprintf("%d damage", damage)
	if special {
		s += " + special"
	}
	return s
}

func queueRoll(a *rulesArgs) (rulesRoller, error) {
	w, err := queueWeight(a, true)
	if err != nil {
		return rulesRoller{}, err
	}
	var fixed [2]int
	for i, key := range []string{"red", "black"} {
		if fixed[i], err = a.int(key, 0, 1, 6); err != nil {
			return rulesRoller{}, err
		}
	}
	physical := fixed[0] != 0 || fixed[1] != 0
	once := func(src dice.Source) (any, string, error) {
		if physical {
			src = &rulesMixed{fixed: fixed[:], src: src}
		}
		r, err := queue.DamageRoll{Weight: w}.Roll(src)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "queue damage, %s weapon (%s)\n", w, queueWhich[w])
		fmt.Fprintf(&b, "  Red %d, Black %d\n", r.Red, r.Black)
		fmt.Fprintf(&b, "  %d damage", r.Damage)
		if r.Special {
			b.WriteString("; Black 6: the weapon's special effect triggers")
		}
		b.WriteString("\n")
		out := queueOutput{Weight: w, Total: r.Damage, Band: queueBand(r.Damage, r.Special), Red: r.Red, Black: r.Black, Damage: r.Damage, Special: r.Special, Dice: r.Dice}
		return out, b.String(), nil
	}
	return rulesRoller{physical: physical, once: once}, nil
}

func queueProb(a *rulesArgs) ([]any, string, error) {
	w, err := queueWeight(a, false)
	if err != nil {
		return nil, "", err
	}
	weights := queue.DamageWeights()
	if w != "" {
		weights = []queue.DamageWeight{w}
	}
	var objs []any
	var b strings.Builder
	for i, w := range weights {
		o, err := queue.DamageRoll{Weight: w}.Odds()
		if err != nil {
			return nil, "", err
		}
		out := queueProbOutput{Weight: w, Special: o.Special, Mean: o.Mean}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "queue damage, %s weapon (%s)\n", w, queueWhich[w])
		var rows []rulesBand
		for _, v := range o.Values {
			out.Bands = append(out.Bands, queueBandOutput{Band: queueBand(v.Damage, false), Damage: v.Damage, P: v.P, PSpecial: v.PSpecial})
			rows = append(rows, rulesBand{queueBand(v.Damage, false), v.P, "with the special effect " + pct(v.PSpecial)})
		}
		rulesTable(&b, rows)
		fmt.Fprintf(&b, "  special effect (Black 6): %s   mean damage %.3f\n", pct(o.Special), o.Mean)
		objs = append(objs, out)
	}
	return objs, b.String(), nil
}
