package dice_test

import (
	"fmt"

	"fray/dice"
)

func ExampleExpr_Dist() {
	d, err := dice.MustParse("2d6").Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("P(2d6 >= 8) = %.6f (15/36)\n", d.AtLeast(8))
	fmt.Printf("mean %.2f, standard deviation %.4f\n", d.Mean(), d.StdDev())
	// Output:
	// P(2d6 >= 8) = 0.416667 (15/36)
	// mean 7.00, standard deviation 2.4152
}

func ExampleExpr_Dist_keep() {
	d, err := dice.MustParse("4d6kh3").Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("4d6kh3: mean %.4f, P(18) = %.6f (21/1296)\n", d.Mean(), d.Prob(18))
	// Output:
	// 4d6kh3: mean 12.2446, P(18) = 0.016204 (21/1296)
}

func ExampleExpr_Dist_explode() {
	// Exploding d6: with the automatic depth, the mass cut off is under 1e-12.
	d, err := dice.MustParse("1d6!").Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("depth %d, mean %.6f, truncated %.1e\n", d.Depth, d.Mean(), d.Truncated)
	fmt.Printf("P(7) = %.6f (1/36)\n", d.Prob(7))
	// Output:
	// depth 15, mean 4.200000, truncated 3.5e-13
	// P(7) = 0.027778 (1/36)
}

func ExampleSub() {
	// An opposed roll: 3 pp dice against 2; the chance the first side wins.
	a, _ := dice.MustParse("3d{0,1,0,1,0,2}").Dist(dice.DistOptions{})
	b, _ := dice.MustParse("2d{0,1,0,1,0,2}").Dist(dice.DistOptions{})
	net := dice.Sub(a, b)
	fmt.Printf("P(net >= 1) = %.6f (130/243)\n", net.AtLeast(1))
	// Output:
	// P(net >= 1) = 0.534979 (130/243)
}

func ExampleExpr_ExactDist() {
	ex, err := dice.MustParse("2d6>=5").ExactDist(0)
	if err != nil {
		panic(err)
	}
	for i, p := range ex.P {
		fmt.Printf("%d successes: %s\n", ex.Min+i, p.RatString())
	}
	// Output:
	// 0 successes: 4/9
	// 1 successes: 4/9
	// 2 successes: 1/9
}
