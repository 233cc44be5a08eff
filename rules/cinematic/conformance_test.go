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
	scripts = append(scripts, rulestest.Script{Name: "removals", Text: removalsScript}, rulestest.Script{Name: "answers", Text: answersScript})
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

// removalsScript removes combatants before, during and after their turns.
const removalsScript = `add A dexterity=9 perception=3
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
next`

// answersScript makes attacks wait for their answers, and removes a target
// whose answer is due.
const answersScript = `add A strength=3 dexterity=7 constitution=3 perception=3 willpower=3
add B strength=3 dexterity=5 constitution=3 perception=2 willpower=3
add C strength=2 dexterity=2 constitution=1 perception=1 willpower=2
start
attack A B with=punch defence=wait
next
dodge B
attack A B with=kick defence=wait
parry B dmod=-1
attack A C with=punch defence=wait
condition C tied
dodge C
take C
attack A C with=punch defence=wait
attack A B with=punch defence=wait
remove C
take B
next
attack B A with=punch defence=wait dice=3
parry A dice=4
next
attack A B with=punch defence=wait`
