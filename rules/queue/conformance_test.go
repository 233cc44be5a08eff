package queue_test

import (
	"os"
	"testing"

	"fray"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

func newSystem() fray.System { return queue.New() }

var scripts = []rulestest.Script{
	{Name: "johann", Text: mustRead("../../examples/queue-johann.fray")},
	{Name: "brigands", Text: mustRead("../../examples/queue-brigands.fray")},
	{Name: "groups and reactions", Text: `add A side=pc wits=2
add B group=G wits=5
add C group=G wits=1
add D wits=2
order D A
start
act major
act major
act minor
react D to=A
react C to=D
react B to=C
next
add E group=G
add F before=A
remove B
next
react A to=E
remove E
next
undo
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
