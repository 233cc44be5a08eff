package cinematic_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fray"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

func TestConformance(t *testing.T) {
	var scripts []rulestest.Script
	for _, name := range examples {
		scripts = append(scripts, rulestest.Script{Name: name, Text: readExample(t, name)})
	}
	scripts = append(scripts, rulestest.Script{Name: "removals", Text: `add A dexterity=9 perception=3
add B dexterity=5 perception=3
add C dexterity=3 perception=1
full C defence
start
attack B
defend B
remove A
attack
defend C
next
remove C
next
remove B
next`})
	rulestest.Run(t, func() fray.System { return cinematic.New() }, scripts...)
}

func FuzzRules(f *testing.F) {
	var seeds []string
	for _, name := range append(slices.Clone(examples), "cinematic-brawl") {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	rulestest.FuzzScript(f, func() fray.System { return cinematic.New() }, seeds...)
}
