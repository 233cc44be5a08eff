package kit

// The keys of a named roll, by kind: each constructor gives the Value
// that the RollArgs getter of its kind reads, so that help, errors and
// reading agree in every system.

// Key declares a key=value argument: its name, what may follow "=" (for
// help and errors: "N|challenging") and its help.
func Key(name, value, help string) RollKey {
	return RollKey{Name: name, Value: value, Help: help}
}

// NumberKey declares a key that takes a whole number (Value "N"), read
// with RollArgs.Int.
func NumberKey(name, help string) RollKey { return Key(name, "N", help) }

// RequiredKey declares a key that takes a whole number and must be
// given, read with RollArgs.Required: its help ends in "(required)".
func RequiredKey(name, help string) RollKey { return NumberKey(name, help+" (required)") }

// YesNoKey declares a key that takes yes or no (Value "yes|no"), read
// with RollArgs.Bool.
func YesNoKey(name, help string) RollKey { return Key(name, "yes|no", help) }

// TableKey declares a key that gives dice rolled at the table, which only
// a roll takes (RollOnly).
func TableKey(name, value, help string) RollKey {
	k := Key(name, value, help)
	k.RollOnly = true
	return k
}

// AlongKey declares a key whose line of help is that of the key along
// (vs-mod= goes along with vs=).
func AlongKey(name, value, help, along string) RollKey {
	k := Key(name, value, help)
	k.Along = along
	return k
}
