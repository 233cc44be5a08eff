package vv_test

import (
	"os"
	"path/filepath"
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

func TestConformance(t *testing.T) {
	var scripts []rulestest.Script
	for _, name := range examples {
		scripts = append(scripts, rulestest.Script{Name: name, Text: readExample(t, name)})
	}
	scripts = append(scripts,
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
	)
	rulestest.Run(t, func() fray.System { return vv.New() }, scripts...)
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
