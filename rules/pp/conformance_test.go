package pp_test

import (
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
