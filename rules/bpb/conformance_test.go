package bpb_test

import (
	"os"
	"testing"

	"fray"
	"fray/rules/bpb"
	"fray/rules/rulestest"
)

func newSystem() fray.System { return bpb.New() }

var scripts = []rulestest.Script{
	{Name: "eight rounds", Text: mustRead("../../examples/bpb-blueshift.fray")},
	{Name: "reorder", Text: mustRead("../../examples/bpb-reorder.fray")},
	{Name: "rolled", Text: `add Blueshift side=pc perception=4 superspeed=2
add Ganyeka perception=3
add Rock kind=environment
add Monolith side=pc aware=no
initiative Blueshift 6,3
start order=rolled
next
force Blueshift
force Blueshift
delay
next
aware Monolith
next
reorder Ganyeka after=Monolith
next
interrupt Ganyeka
remove Monolith
next
next
undo
redo`},
	{Name: "conditions", Text: `add Blueshift side=pc
add Ganyeka
add Monolith side=pc
order Blueshift Ganyeka Monolith
start
condition Ganyeka dazzled until=end:Blueshift mod=-2 on=attack
delay
condition Monolith blocking until=start
force Monolith
condition Monolith blocking until=start
next
interrupt Blueshift
next
condition Ganyeka distracted by=Blueshift from=next until=round@+1 mod=3 on=attacked once=yes
clear Ganyeka dazzled
next
next
remove Blueshift
next
undo
redo`},
}

func mustRead(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic("read the example script: " + err.Error())
	}
	return string(b)
}

func TestConformance(t *testing.T) { rulestest.Run(t, newSystem, scripts...) }

func FuzzRules(f *testing.F) {
	var seeds []string
	for _, s := range scripts {
		seeds = append(seeds, s.Text)
	}
	rulestest.FuzzScript(f, newSystem, seeds...)
}
