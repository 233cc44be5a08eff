package cinematic_test

import (
	"testing"

	"fray"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// benchScript is the seed's fight in a crypt, round after round: stances
// declared at the top of the round, attacks answered by defences, extra
// actions.
var benchScript = rulestest.BenchScript{
	Setup: `add Slayer side=pc dexterity=7 perception=4
add Watcher side=pc dexterity=3 perception=5 bonus=1
add Master dexterity=10 perception=3
add Vampire dexterity=5 perception=2
start`,
	Round: `full Vampire offence
full Watcher defence
attack Slayer
defend Slayer
attack Slayer
defend Slayer
next
attack Master
defend Master
next
attack Vampire
next
attack Watcher
defend Watcher
next`,
}

func BenchmarkRules(b *testing.B) {
	rulestest.Bench(b, func() fray.System { return cinematic.New() }, benchScript)
}
