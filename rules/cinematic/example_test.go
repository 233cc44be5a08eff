package cinematic_test

import (
	"fmt"

	"fray/dice"
	"fray/rules/cinematic"
)

// D10 + 7 totals 8 to 17, each 1 in 10: 8 fails, 9–10 give one success
// level, 11–12 two, 13–14 three, 15–16 four and 17 five.
func ExampleTestRoll_Odds() {
	o, err := cinematic.TestRoll{Value: 7}.Odds()
	if err != nil {
		panic(err)
	}
	for _, l := range o.Bands {
		fmt.Printf("%s %.0f%%\n", l.Band, 100*l.P)
	}
	// Output:
	// failure 10%
	// 1 success level 20%
	// 2 success levels 20%
	// 3 success levels 20%
	// 4 success levels 20%
	// 5 success levels 10%
}

// An attack at +7 against a defence at +5 hits when the attacker's D10 + 2
// beats the defender's D10: in 64 of the 100 pairs, 2 of them (a 1 against
// a 1 or 2) with a total of 8 and so no success level.
func ExampleTestRoll_Odds_opposed() {
	o, err := cinematic.TestRoll{Value: 7, Opposed: true, Defence: 5}.Odds()
	if err != nil {
		panic(err)
	}
	for _, l := range o.Bands {
		fmt.Printf("%s %.0f%%\n", l.Band, 100*l.P)
	}
	// Output:
	// defended 36%
	// hit, 0 success levels 2%
	// hit, 1 success level 7%
	// hit, 2 success levels 11%
	// hit, 3 success levels 15%
	// hit, 4 success levels 19%
	// hit, 5 success levels 10%
}

// The attacker's D10 shows 6 and the defender's 3: 13 against 8.
func ExampleTestRoll_Roll() {
	r, err := cinematic.TestRoll{Value: 7, Opposed: true, Defence: 5}.Roll(dice.Faces(6, 3))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Attack.Total, r.Defence.Total, r.Band)
	// Output:
	// 13 8 hit, 3 success levels
}
