package bpb_test

import (
	"testing"

	"fray/rules/rulestest"
)

// benchScript is a four-combatant encounter with the environment: turn
// after turn with a delay, an interrupt and a force every round.
var benchScript = rulestest.BenchScript{
	Setup: `add Blueshift side=pc
add Ganyeka
add Monolith side=pc
add "Ganyeka's henchmen" kind=group
add Rubble kind=environment
start`,
	Round: `delay
next
next
interrupt Blueshift
next
force Monolith
next
next`,
}

func BenchmarkRules(b *testing.B) { rulestest.Bench(b, newSystem, benchScript) }
