package queue_test

import (
	"testing"

	"fray/rules/rulestest"
)

// benchScript is a PC, an NPC and a group of two: each takes a Major and
// a Minor action, with a reaction in between.
var benchScript = rulestest.BenchScript{
	Setup: `add A side=pc wits=2
add B wits=3
add C group=G wits=1
add D group=G
start`,
	Round: `act major
act minor
react A to=B
next`,
}

func BenchmarkRules(b *testing.B) { rulestest.Bench(b, newSystem, benchScript) }
