package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints help as the given text followed by the flags.
func newFlagSet(name string, stderr io.Writer, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprint(out, help)
		fmt.Fprintln(out, "\nOptions:")
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags that may come before or after the positional
// arguments, so "fray roll 4d6 --seed 3" works. An argument that starts with
// "-" but names no flag (such as -1d6) is positional; "--" ends the flags.
// It returns the positional arguments and -1, or an exit code to return at
// once: 0 after --help (printed to the flag set's output), 2 for a bad flag.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, int) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		name, hasValue := flagName(a)
		if name == "" {
			pos = append(pos, a)
			continue
		}
		if name == "h" || name == "help" {
			flags = append(flags, a)
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			if looksLikeFlag(name) {
				flags = append(flags, a) // let flag report it
				continue
			}
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() || hasValue {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	return pos, -1
}

// flagName returns the name in "-name", "--name" or "--name=value".
func flagName(a string) (name string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, _, hasValue = strings.Cut(a, "=")
	return name, hasValue
}

// looksLikeFlag reports whether a name is a word rather than a piece of dice
// notation such as d6 or 3: a word of two or more letters that is not a dice
// expression.
func looksLikeFlag(name string) bool {
	if len(name) < 2 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return name[0] != 'd' || !strings.ContainsAny(name[1:], "0123456789%F{")
}
