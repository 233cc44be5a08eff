package main

import (
	"fmt"
	"io"
	"strings"

	"fray"
	"fray/dice"
	"fray/rules/kit"
)

// This file runs "fray roll --rules ID key=value…" and "fray prob --rules ID
// key=value…": each system's named roll (SPEC §1), which the system
// declares in its own package (kit.NamedRoll), with its dice shown and the
// exact odds of each outcome band.

// rulesSpec is one system's named roll, as help and dispatch read it.
type rulesSpec struct {
	id   string
	roll kit.NamedRoll
}

// rulesSpecs lists the named rolls of the systems fray runs (systemList)
// that offer one (kit.NamedRoller), in that list's order; help, errors
// and dispatch read it.
var rulesSpecs = newRulesSpecs(systemList)

func newRulesSpecs(list []func() fray.System) []*rulesSpec {
	var specs []*rulesSpec
	for _, newSys := range list {
		sys := newSys()
		nr, ok := sys.(kit.NamedRoller)
		if !ok {
			continue
		}
		specs = append(specs, &rulesSpec{id: sys.ID(), roll: nr.NamedRoll()})
	}
	return specs
}

// rulesExamples are shown at the end of rulesHelp: each system's, in
// order.
var rulesExamples = newRulesExamples(rulesSpecs)

func newRulesExamples(specs []*rulesSpec) []string {
	var out []string
	for _, s := range specs {
		for _, e := range s.roll.Examples {
			cmd, args, _ := strings.Cut(e, " ")
			out = append(out, "fray "+cmd+" --rules "+s.id+" "+args)
		}
	}
	return out
}

// rulesHelp describes each system's keys; "fray roll --help" and "fray
// prob --help" end with it.
func rulesHelp() string {
	var b strings.Builder
	b.WriteString("Per-system rolls: --rules ID key=value…\n")
	b.WriteString("Keys marked * are dice rolled at the table and only \"fray roll\" takes them;\n")
	b.WriteString("the --dice flag of \"fray roll\" also gives the faces, in the order rolled.\n")
	for _, s := range rulesSpecs {
		fmt.Fprintf(&b, "\n  %s — %s\n", s.id, s.roll.Title)
		for _, k := range s.roll.Keys {
			if k.Along != "" {
				continue
			}
			star := " "
			if k.RollOnly {
				star = "*"
			}
			fmt.Fprintf(&b, "   %s%-28s %s\n", star, k.Name+"="+k.Value, k.Help)
		}
	}
	b.WriteString("\nExamples:\n")
	for _, e := range rulesExamples {
		b.WriteString("  " + e + "\n")
	}
	return b.String()
}

// rulesIDs returns the ids of the systems with a named roll, as "a, b or
// c".
func rulesIDs() string {
	ids := make([]string, len(rulesSpecs))
	for i, s := range rulesSpecs {
		ids[i] = s.id
	}
	return kit.Or(ids)
}

func rulesSpecFor(id string) (*rulesSpec, error) {
	for _, s := range rulesSpecs {
		if s.id == id {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown rules %q: want %s", id, rulesIDs())
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
	r, err := spec.roll.MakeRoll(id, args)
	if err != nil {
		return fail(err)
	}
	fs, fromFlag := src.(*dice.FaceSource)
	if (r.Physical || fromFlag) && n > 1 {
		return fail(fmt.Errorf("-n %d: dice rolled at the table make one roll; leave out -n", n))
	}
	for range n {
		j, text, err := r.Make(src)
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
	objs, text, err := spec.roll.Odds(id, args)
	if err != nil {
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
	line, err := kit.TaggedJSON(id, v)
	if err != nil {
		fmt.Fprintf(stderr, "fray: encode output: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(append(line, '\n')); err != nil {
		fmt.Fprintf(stderr, "fray: write output: %v\n", err)
		return 1
	}
	return 0
}
