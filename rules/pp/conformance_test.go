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
	scripts = append(scripts, rulestest.Script{Name: "removals", Text: `add A perception=3
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
next`})
	rulestest.Run(t, func() fray.System { return pp.New() }, scripts...)
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
