package queue_test

import (
	"fmt"

	"fray/dice"
	"fray/rules/queue"
)

// A heavy weapon deals the higher of Red and Black: 6 in 11 of the 36
// rolls, and the special effect (Black 6) comes with a 6 every time.
func ExampleDamageRoll_Odds() {
	o, err := queue.DamageRoll{Weight: queue.DamageHeavy}.Odds()
	if err != nil {
		panic(err)
	}
	for _, v := range o.Values {
		fmt.Printf("%d  %5.2f%%  with special %5.2f%%\n", v.Damage, 100*v.P, 100*v.PSpecial)
	}
	fmt.Printf("special %.2f%%\n", 100*o.Special)
	// Output:
	// 1   2.78%  with special  0.00%
	// 2   8.33%  with special  0.00%
	// 3  13.89%  with special  0.00%
	// 4  19.44%  with special  0.00%
	// 5  25.00%  with special  0.00%
	// 6  30.56%  with special 16.67%
	// special 16.67%
}

// Red 2, Black 6 with a light weapon: 2 damage, and the special effect.
func ExampleDamageRoll_Roll() {
	r, err := queue.DamageRoll{Weight: queue.DamageLight}.Roll(dice.Faces(2, 6))
	if err != nil {
		panic(err)
	}
	fmt.Printf("Red %d, Black %d: %d damage, special %v\n", r.Red, r.Black, r.Damage, r.Special)
	// Output:
	// Red 2, Black 6: 2 damage, special true
}
