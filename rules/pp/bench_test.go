package pp_test

import (
	"testing"

	"fray"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// benchScript is the seed's page of heroes, villains, foes, extras and
// minions, page after page, some turns with extra actions.
var benchScript = rulestest.BenchScript{
	Setup: `add Paragon side=pc perception=4 agility=5 intellect=3
add Whisper side=pc perception=5 agility=2 intellect=4
add "Doctor Vile" role=villain perception=4 agility=2 intellect=6
add "Madame Mist" role=villain perception=5 agility=1 intellect=4
add Brute role=foe perception=3 agility=6 intellect=1
add Thug role=extra perception=3 agility=6 intellect=2
add "Goon #1" role=extra minion=yes perception=6 agility=6 intellect=1
add "Goon #2" role=extra minion=yes perception=2 agility=2 intellect=1
order Whisper Paragon
start`,
	Round: `act
next
act
act
act
next
act
next
next`,
}

func BenchmarkRules(b *testing.B) {
	rulestest.Bench(b, func() fray.System { return pp.New() }, benchScript)
}
