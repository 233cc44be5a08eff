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
odds start order=rolled
odds start
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
	{Name: "preempt", Text: `add Blueshift side=pc prowess=7 agility=9
add Ganyeka accuracy=7 agility=7 prowess=6
add Monolith side=pc prowess=8 agility=3 accuracy=4 endurance=30
order Blueshift Ganyeka Monolith
start
next
next
block Monolith
next
next
delay
interrupt Ganyeka
attack Ganyeka Monolith with=blast rank=9 range=ranged dice=6,6,3,3
next
attack Monolith Ganyeka with=mindblast rank=6 range=ranged endurance=no dice=6,6
take
next
undo
undo
undo
redo`},
	{Name: "resolution", Text: `add Blueshift side=pc brawn=4 agility=9 accuracy=6 prowess=7 perception=6 willpower=5 endurance=20
add Ganyeka brawn=6 agility=7 accuracy=7 prowess=6 perception=6 willpower=8 endurance=24
add Monolith side=pc brawn=12 agility=3 accuracy=4 prowess=8 perception=4 willpower=6 endurance=30
add Rock kind=environment
set staggering=dazed
order Blueshift Ganyeka Monolith
start
check Blueshift perception dice=6,6
distract Blueshift Ganyeka dice=6,6
attack Blueshift Ganyeka with=punch rank=5 dice=6,5
dodge Ganyeka dice=6,6
next
attack Monolith Ganyeka with=punch rank=10 dice=6,6,1,1
next
next
attack Ganyeka Monolith with=blast rank=9 range=ranged choose=staggering dice=6,6
block Monolith dice=1,1
attack Ganyeka Blueshift with=blast rank=9 range=ranged dice=6,6
take
next
block Blueshift
next
next
next
attack Blueshift Ganyeka with=punch rank=5 choose=smashing dice=6,6
next
damage Monolith 40
heal Monolith 5
award Blueshift roleplayed
award Monolith clever
award Monolith roleplayed
spend Monolith 1 on=prowess
spend Monolith 1 on=prowess
next
undo
redo`},
	// Experience spent on each part of a sheet (B-12): a stat, a new
	// power, that power raised, and expertise.
	{Name: "spend", Text: `add Monolith side=pc prowess=8 agility=3 endurance=30
add Ganyeka agility=7 endurance=24
start
award Monolith flat points=4
spend Monolith 1 on=prowess
spend Monolith 1 on=flight new=yes
spend Monolith 1 on=flight
spend Monolith 1 on=expertise:flying
undo
redo`},
	// Protecting someone else (B-7): a take and a block for Monolith, a
	// dodge for him by another, undone and redone.
	{Name: "protect", Text: `add Blueshift side=pc prowess=7 agility=9 brawn=4 endurance=20
add Ganyeka accuracy=7 agility=7 prowess=6 endurance=24
add Monolith side=pc prowess=8 agility=3 accuracy=4 endurance=30
add "Ganyeka's henchmen" kind=group accuracy=4 agility=4 endurance=12
order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
start
next
attack Ganyeka Monolith with=blast rank=9 range=ranged dice=2,3
take Blueshift for=Monolith
undo
block Blueshift for=Monolith dice=1,1
next
next
attack "Ganyeka's henchmen" Monolith with=pistol rank=5 range=ranged dice=4,3
dodge Ganyeka for=Monolith dice=6,6
next
next
next
next
attack Ganyeka Blueshift with=blast rank=9 range=ranged choose=staggering dice=6,6
take Monolith for=Blueshift
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
