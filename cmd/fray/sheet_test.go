package main

import (
	"slices"
	"testing"

	"fray"
)

// sheetAliases lists, per system, the sheet stats that add gives under
// another key: a V&V sheet's movement rate and basic hits are add's
// move= and hits= (the rules read both names).
var sheetAliases = map[string]map[string]string{
	"vv": {"moverate": "move", "basichits": "hits"},
}

// Every system fray plays takes sheets (--party, --foes), and each stat
// its sheets hold is a number add takes too, so a combatant made with add
// can have everything a sheet's can.
func TestSystemsTakeSheets(t *testing.T) {
	for _, f := range systemList {
		sys := f()
		sh, ok := sys.(fray.Sheeter)
		if !ok {
			t.Errorf("%s is not a fray.Sheeter: it has no sheets", sys.ID())
			continue
		}
		add, ok := fray.FindDecl(sys.Commands(), "add")
		if !ok {
			t.Errorf("%s declares no add", sys.ID())
			continue
		}
		sc := sh.Sheet()
		for _, r := range sc.Stats {
			key := r.Name
			if a, ok := sheetAliases[sys.ID()][key]; ok {
				key = a
			}
			i := slices.IndexFunc(add.Opts, func(p fray.Param) bool { return p.Name == key })
			if i < 0 || add.Opts[i].Kind != fray.KindNumber {
				t.Errorf("%s: the sheet stat %s is not a number add takes (%s)", sys.ID(), r.Name, add.Usage())
			}
		}
		if len(sc.Kinds) == 0 || sc.Rank.Min > sc.Rank.Max {
			t.Errorf("%s: sheets with kinds %v and ranks from %d to %d", sys.ID(), sc.Kinds, sc.Rank.Min, sc.Rank.Max)
		}
	}
}
