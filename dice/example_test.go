package dice_test

import (
	"fmt"
	"math/rand/v2"

	"fray/dice"
)

func ExampleParse() {
	e, err := dice.Parse("4d6k3 + 2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e) // the canonical notation

	_, err = dice.Parse("3d6+")
	fmt.Println(err)
	fmt.Println(err.(*dice.Error).Caret())
	// Output:
	// 4d6kh3+2
	// column 5: expected a number, dice or an opening parenthesis, found the end of the expression
	// 3d6+
	//     ^
}

// Rolling with the faces rolled at the table: 6, 5, 3 and 1 keep the
// highest three, 14.
func ExampleExpr_Roll() {
	e := dice.MustParse("4d6kh3")
	res, err := e.Roll(dice.Faces(6, 5, 3, 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Dice {
		fmt.Printf("%d dropped=%v\n", d.Value, d.Dropped)
	}
	fmt.Println("total", res.Total)
	// Output:
	// 6 dropped=false
	// 5 dropped=false
	// 3 dropped=false
	// 1 dropped=true
	// total 14
}

// A Prowlers & Paragons pool: 2s and 4s are one success, 6s two. These are
// the faces of the seed's example, 7 successes.
func ExampleExpr_Roll_successes() {
	e := dice.MustParse("12d{0,1,0,1,0,2}")
	res, _ := e.Roll(dice.Faces(1, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6))
	fmt.Println(res.Total, "successes")
	// Output: 7 successes
}

// Total rolls without recording anything: the fast way for simulations.
// A seeded source makes the run reproducible.
func ExampleExpr_Total() {
	e := dice.MustParse("3d6+4")
	src := rand.New(rand.NewPCG(1, 2))
	lo, hi := 100, 0
	for range 10000 {
		v := e.Total(src)
		lo, hi = min(lo, v), max(hi, v)
	}
	fmt.Println(lo, hi)
	// Output: 7 22
}

func ExampleExpr_Explain() {
	fmt.Print(dice.MustParse("12d{0,1,0,1,0,1}!@6").Explain())
	// Output:
	// 12d{0,1,0,1,0,1}!@6
	//   12d{0,1,0,1,0,1}!@6 (column 1):
	//     1. roll 12 custom dice of 6 faces, worth 1→0 2→1 3→0 4→1 5→0 6→1
	//     2. explode on a face numbered 6: roll one more die and add it to the pool, which may explode in turn (up to the depth limit)
	//     3. add up the values of the dice
}
