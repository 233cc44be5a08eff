package kit

import (
	"strings"

	"fray"
)

// Title returns s with its first byte in upper case, as a stat's name
// begins a sentence or follows "has no": "agility" becomes "Agility".
func Title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// QuoteName returns the name n as a command's word gives it, quoted when
// it holds a space or another character a command reads apart, so that a
// hint such as "add NAME agility=N" can be typed as written.
func QuoteName(n string) string {
	return fray.Command{Name: "x", Args: []string{n}}.String()[2:]
}

// Stat returns the stat of c, or an error telling the GM that c has none
// and how to give it: "Kim has no Agility rank; give it with add Kim
// agility=N or a sheet." The stat's title is followed by suffix in the
// sentence (" rank" there; "" for "has no Agility").
func Stat(c *fray.Combatant, stat, suffix string) (int, error) {
	v, ok := c.Stats[stat]
	if !ok {
		return 0, fray.Errorf(fray.EINVALID, "%s has no %s%s; give it with add %s %s=N or a sheet.", c, Title(stat), suffix, QuoteName(c.Name), stat)
	}
	return v, nil
}

// LookupTwo finds the two combatants the first two words of cmd name,
// such as the attacker and the target of "attack A B", with the errors of
// fray.Encounter.Lookup.
func LookupTwo(enc *fray.Encounter, cmd fray.Command) (a, b *fray.Combatant, err error) {
	if a, err = enc.Lookup(cmd.Arg(0)); err != nil {
		return nil, nil, err
	}
	if b, err = enc.Lookup(cmd.Arg(1)); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}
