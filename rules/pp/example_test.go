package pp_test

import (
	"fmt"

	"fray/dice"
	"fray/rules/pp"
)

// The seed's arm-wrestling exhibition: Gatecrasher rolls 12 dice, Citizen
// Soldier takes 6 automatic successes for his 12.
func ExampleChallenge_Roll() {
	c := pp.Challenge{
		Actor:    pp.Pool{Dice: 12},
		Opponent: &pp.Pool{Dice: 12, SetAside: 12},
	}
	r, err := c.Roll(dice.Faces(1, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d − %d = %d net: %s (%s)\n", r.Successes, r.Threshold, r.Net, r.Band, r.Result)
	// Output:
	// 7 − 6 = 1 net: actor narrates, opponent embellishes (success with a complication)
}

// Two dice against an Average (1) threshold. One die shows 0 successes
// with P 1/2, 1 with 1/3, 2 with 1/6; two dice sum to 0, 1, 2, 3, 4 with
// P 9/36, 12/36, 10/36, 4/36, 1/36, and the net is one less.
func ExampleChallenge_Odds() {
	o, err := pp.Challenge{Actor: pp.Pool{Dice: 2}, Threshold: 1}.Odds()
	if err != nil {
		panic(err)
	}
	for _, n := range o.Nets {
		fmt.Printf("net %+d  %5.2f%%\n", n.Net, 100*n.P)
	}
	for _, b := range o.Bands {
		fmt.Printf("%-37s %5.2f%%  %s\n", b.Band, 100*b.P, b.Result)
	}
	// Output:
	// net -1  25.00%
	// net +0  33.33%
	// net +1  27.78%
	// net +2  11.11%
	// net +3   2.78%
	// opponent narrates                      0.00%  failure
	// opponent narrates, actor embellishes  58.33%  failure with a silver lining
	// actor narrates, opponent embellishes  38.89%  success with a complication
	// actor narrates                         2.78%  success
}
