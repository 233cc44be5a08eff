package pp_test

import (
	"os"
	"path/filepath"
	"testing"

	"fray"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

func TestConformance(t *testing.T) {
	var scripts []rulestest.Script
	for _, name := range examples {
		scripts = append(scripts, rulestest.Script{Name: name, Text: readExample(t, name)})
	}
	scripts = append(scripts, ownScripts...)
	rulestest.Run(t, func() fray.System { return pp.New() }, scripts...)
}

// TestOldPlayLogs imports logs that fray play of format version 2 wrote
// (fray play --rules pp --seed 42 --log, at 2511094: the declarations
// script, and the rename tests' fights with the cast of heroes), whose
// payloads name combatants, into the views it showed (see
// rulestest.CheckOldLogs). Between them they hold every kind of roll P&P
// makes (static, opposed and same-goal checks, attacks, assists, group
// actions, contests) and Resolve spent on each, which the conformance
// scripts' own old logs (testdata/v2) do not; cmd/fray checks the
// examples' (TestOldExampleLogs).
func TestOldPlayLogs(t *testing.T) {
	if err := rulestest.CheckOldLogs(func() fray.System { return pp.New() }, filepath.Join("testdata", "v2-play")); err != nil {
		t.Fatal(err)
	}
}

func FuzzRules(f *testing.F) {
	var seeds []string
	for _, name := range examples {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	rulestest.FuzzScript(f, func() fray.System { return pp.New() }, seeds...)
}

// ownScripts are the package's own conformance scripts, beyond the
// examples.
var ownScripts = []rulestest.Script{{Name: "removals", Text: `add A perception=3
add B perception=2
add C perception=1
start
act
remove A
act
next
remove C
next
remove B
next`}, {Name: "damage and heal", Text: `add Hero side=pc might=4 toughness=4 agility=3 perception=3 intellect=2 willpower=3 resolve=2
add Vile role=villain might=3 toughness=3 agility=2 perception=3 willpower=6 health=4
add Goons role=extra minion=yes count=3 agility=3 might=3 toughness=2
set defining=either
damage Vile 2
heal Vile 1
undo
heal Vile 5
damage Goons 2
heal Goons 1
start
attack Hero Vile with=might successes=4 vs_successes=1
heal Vile 2
spend Hero resolve=1 dice=6
undo
undo
redo
damage Vile 9
heal Vile 1
damage Goons 1000
heal Goons 1000
defining Hero oneshot
attack Hero Goons with=might successes=3 vs_successes=1
heal Hero 2
damage Hero 1
scene
remove Vile
heal Goons 1
undo
redo`}}
