package vv_test

import (
	"fmt"

	"fray/dice"
	"fray/rules/vv"
)

// A chance of 12 hits on 1 to 12 (12 faces of 20), misses on 13 to 19 and
// goes astray on a 20.
func ExampleHitRoll_Odds() {
	o := vv.HitRoll{Chance: 12}.Odds()
	for _, b := range o.Bands {
		fmt.Printf("%-6s %3.0f%%\n", b.Band, 100*b.P)
	}
	// Output:
	// hit     60%
	// miss    35%
	// astray   5%
}

// A 1 always hits, whatever the chance.
func ExampleHitRoll_Roll() {
	r, err := vv.HitRoll{Chance: -4}.Roll(dice.Faces(1))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Total, r.Band)
	// Output:
	// 1 hit
}

// A Perception roll to Detect Danger at 45%: d% 1 to 45 succeeds, 46 to
// 100 fails; there is no automatic result.
func ExampleCheckRoll() {
	r := vv.CheckRoll{Chance: 45}
	fmt.Printf("%.2f %s %s\n", r.Success(), r.Band(45), r.Band(46))
	fmt.Println(vv.CheckRoll{Chance: 0}.Band(1), vv.CheckRoll{Chance: 100}.Band(100))
	// Output:
	// 0.45 success failure
	// failure success
}
