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
initiative A 20
initiative B 1
start
act major
act major
act minor
react D to=A
react C to=D
react B to=C
next
add E group=G
add F before=D
remove B
next
react A to=F
remove E
next
undo
undo
redo`},
	{Name: "the queue roll with physical dice", Text: `add Ann side=pc wits=2
add B1 group=Brigands wits=1
add B2 group=Brigands wits=1 bonus=1
initiative B2 5
order B1 Ann
start dice=12
undo
start roll=5
next`},
	{Name: "damage, heal and checks", Text: `add Ann side=pc wits=3 hp=10 weapon=sword:medium:bleed
add Bob wits=1 hp=6 weapon=club:medium:stun
check Ann difficulty=12 dice=9
start
damage Bob 4
check Bob vs=Ann
damage Bob 3
damage Bob 1
injury Bob scarred
heal Bob 2
undo
heal Bob 2
attack Ann Bob with=sword hit=yes dice=5,1
damage Bob 1 injury=maimed
condition Ann keen mod=2 on=check once=yes
check Ann vs=Bob mod=-1
undo
undo
undo
redo
heal Bob 30
damage Ann 2
damage Bob 1000
damage Bob 1
injury Bob maimed
damage Bob 1
heal Bob 1
remove Bob
heal Ann 1
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
