package bpb_test

import (
	"fmt"

	"fray/dice"
	"fray/rules/bpb"
)

// A value of 4 against a challenging task (12) needs 8 or more on 2d6:
// 15 of the 36 rolls, 3 of them (11 and 12) an extreme success.
func ExampleTaskRoll_Odds() {
	o, err := bpb.TaskRoll{Value: 4, Difficulty: bpb.TaskChallenging}.Odds()
	if err != nil {
		panic(err)
	}
	for _, b := range o.Bands {
		fmt.Printf("%-8s %5.2f%%\n", b.Band, 100*b.P)
	}
	// Output:
	// failure  58.33%
	// success  33.33%
	// extreme   8.33%
}

// Physical dice showing 6 and 5, value 4 with expertise (+3) against 12:
// 18 is 6 over, an extreme success because the character has expertise.
func ExampleTaskRoll_Roll() {
	task := bpb.TaskRoll{Value: 4, Difficulty: 12, Expertise: true, Mode: bpb.TaskModeExpertise}
	r, err := task.Roll(dice.Faces(6, 5))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Expr, r.Roll, r.Total, r.Margin, r.Band)
	// Output:
	// 2d6+7 11 18 6 extreme
}
