package vv_test

import (
	"os"
	"path/filepath"
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// conformanceScripts are the scripts the conformance suite plays: the
// examples, the ambush as written, and scripts that reach removals, spend
// and check.
func conformanceScripts(t *testing.T) []rulestest.Script {
	var scripts []rulestest.Script
	for _, name := range examples {
		scripts = append(scripts, rulestest.Script{Name: name, Text: readExample(t, name)})
	}
	return append(scripts,
		rulestest.Script{Name: "raw", Text: "set held=raw\nset surprise=raw\nset movement=raw\n" + readExample(t, "vv-ambush")},
		rulestest.Script{Name: "removals", Text: `add A agility=20 move=30
add B agility=25
add C agility=10
start
hold
interrupt A
remove B
next
remove A
hold
next
interrupt C
remove C
next`},
		rulestest.Script{Name: "spend-check", Text: `add A agility=20 power=30 level=2 hits=1 hp=10 attack=Punch:1d6:kinetic:10:close
add B agility=10 power=12 level=1 hits=1 hp=8
add C agility=5
spend A power=3 note=warmup
check B chance=40 note="Detect Danger"
condition B alert mod=10 on=check once=yes
check B chance=40 mod=-5 dice=45
check B chance=40 dice=101
surprise B
start
spend B power=2
spend B power=11
spend C power=1
check C chance=50 roll=50
attack A B with=Punch unaware noticed=30% divert=1
spend A power=0
next
spend A power=1
next
attack A B with=Punch unaware noticed=90% dice=10,1,6
next
next`},
		// Simultaneous blows (V-2) held, undone, landing, and one whose
		// target is removed before it lands; then ties as written.
		rulestest.Script{Name: "simultaneous", Text: tiedSetup + `
add Di agility=20 move=20 level=1 hits=1 hp=4
initiative Di 5
start
attack Ann Bo with=Punch knockback=no dice=1,6
undo
attack Ann Bo with=Punch knockback=no dice=1,6
next
attack Bo Di with=Punch knockback=no dice=1,2
remove Di
next
attack Cy Ann with=Punch
next
set ties=raw
next
next
next
attack Ann Bo with=Punch`},
		// A held action used on a phase where nobody acts (V-3).
		rulestest.Script{Name: "empty-phase", Text: `add X agility=20 move=30
add H agility=10 move=20 power=40
initiative X 5
initiative H 10
start
next
hold
interrupt H phase=14
move 3
hold
interrupt H phase=12 before=X
act
next
move 2
next
act
next`},
	)
}

func TestConformance(t *testing.T) {
	rulestest.Run(t, func() fray.System { return vv.New() }, conformanceScripts(t)...)
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
	rulestest.FuzzScript(f, func() fray.System { return vv.New() }, seeds...)
}
