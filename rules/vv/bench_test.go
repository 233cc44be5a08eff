package vv_test

import (
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// benchScript is four characters acting, moving and holding turn after
// turn.
var benchScript = rulestest.BenchScript{
	Setup: `add A agility=30 move=90
add B agility=20 move=60
add C agility=15 move=40
add D agility=10 move=30
start`,
	Round: `move 1
act
next
hold
interrupt A
act
next
next`,
}

func BenchmarkRules(b *testing.B) {
	rulestest.Bench(b, func() fray.System { return vv.New() }, benchScript)
}
