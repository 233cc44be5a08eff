package bpb_test

import (
	"math"
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/bpb"
)

func TestTaskBand(t *testing.T) {
	tests := []struct {
		name  string
		task  bpb.TaskRoll
		total int
		want  bpb.TaskBand
	}{
		{"one under", bpb.TaskRoll{Difficulty: 12}, 11, bpb.TaskFailure},
		{"exactly", bpb.TaskRoll{Difficulty: 12}, 12, bpb.TaskSuccess},
		{"two over", bpb.TaskRoll{Difficulty: 12}, 14, bpb.TaskSuccess},
		{"three over, open", bpb.TaskRoll{Difficulty: 12}, 15, bpb.TaskExtreme},
		{"three over, open by name", bpb.TaskRoll{Difficulty: 12, Mode: bpb.TaskModeOpen}, 15, bpb.TaskExtreme},
		{"three over, open, expertise", bpb.TaskRoll{Difficulty: 12, Expertise: true}, 15, bpb.TaskExtreme},
		{"three over, expertise mode, none", bpb.TaskRoll{Difficulty: 12, Mode: bpb.TaskModeExpertise}, 15, bpb.TaskRemarkable},
		{"three over, expertise mode, with", bpb.TaskRoll{Difficulty: 12, Mode: bpb.TaskModeExpertise, Expertise: true}, 15, bpb.TaskExtreme},
		{"two over, expertise mode, with", bpb.TaskRoll{Difficulty: 12, Mode: bpb.TaskModeExpertise, Expertise: true}, 14, bpb.TaskSuccess},
		{"far under", bpb.TaskRoll{Difficulty: 17}, 2, bpb.TaskFailure},
		{"negative difficulty", bpb.TaskRoll{Difficulty: -3}, 0, bpb.TaskExtreme},
	}
	for _, tt := range tests {
		if got := tt.task.Band(tt.total); got != tt.want {
			t.Errorf("%s: %+v.Band(%d) = %q, want %q", tt.name, tt.task, tt.total, got, tt.want)
		}
	}
}

func TestTaskDifficulty(t *testing.T) {
	// The seed: blocking a rank 9 Blast is difficulty 9 + 8 = 17.
	if got := bpb.TaskDifficulty(9); got != 17 {
		t.Errorf("TaskDifficulty(9) = %d, want 17", got)
	}
	if bpb.TaskChallenging != 12 {
		t.Errorf("TaskChallenging = %d, want 12", bpb.TaskChallenging)
	}
}

func TestTaskExpr(t *testing.T) {
	tests := []struct {
		task bpb.TaskRoll
		want string
	}{
		{bpb.TaskRoll{Value: 4}, "2d6+4"},
		{bpb.TaskRoll{Value: 4, Expertise: true}, "2d6+7"},
		{bpb.TaskRoll{Value: -3, Expertise: true}, "2d6"},
		{bpb.TaskRoll{Value: -5}, "2d6-5"},
	}
	for _, tt := range tests {
		if got := tt.task.Expr(); got != tt.want {
			t.Errorf("%+v.Expr() = %q, want %q", tt.task, got, tt.want)
		}
	}
}

func TestTaskRollFaces(t *testing.T) {
	task := bpb.TaskRoll{Value: 5, Difficulty: 12, Expertise: true}
	r, err := task.Roll(dice.Faces(3, 6))
	if err != nil {
		t.Fatal(err)
	}
	// 3 + 6 + 5 + 3 = 17: five over 12, an extreme success.
	if r.Roll != 9 || r.Bonus != 8 || r.Total != 17 || r.Margin != 5 || r.Band != bpb.TaskExtreme {
		t.Errorf("Roll(3, 6) = %+v, want roll 9, bonus 8, total 17, margin 5, extreme", r)
	}
	if len(r.Dice) != 2 || r.Dice[0].Face != 3 || r.Dice[1].Face != 6 {
		t.Errorf("Roll(3, 6) dice = %+v, want faces 3 and 6", r.Dice)
	}
	r2, err := task.FromTotal(9)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Total != 17 || r2.Band != bpb.TaskExtreme || len(r2.Dice) != 0 {
		t.Errorf("FromTotal(9) = %+v, want total 17, extreme, no dice", r2)
	}
}

func TestTaskRollBad(t *testing.T) {
	task := bpb.TaskRoll{Value: 5, Difficulty: 12}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"one face", func() error { _, err := task.Roll(dice.Faces(3)); return err }, "physical dice"},
		{"three faces", func() error { _, err := task.Roll(dice.Faces(3, 4, 5)); return err }, "3 physical dice"},
		{"face 7", func() error { _, err := task.Roll(dice.Faces(3, 7)); return err }, "faces 1 to 6"},
		{"total 13", func() error { _, err := task.FromTotal(13); return err }, "2 to 12"},
		{"total 1", func() error { _, err := task.FromTotal(1); return err }, "2 to 12"},
		{"mode", func() error { _, err := bpb.TaskRoll{Mode: "loud"}.Odds(); return err }, "open or expertise"},
		{"huge value", func() error { _, err := bpb.TaskRoll{Value: 1 << 40}.Odds(); return err }, "within"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// bruteTaskOdds enumerates the 36 rolls of 2d6.
func bruteTaskOdds(task bpb.TaskRoll) map[bpb.TaskBand]float64 {
	n := map[bpb.TaskBand]int{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			n[task.Band(a+b+task.Bonus())]++
		}
	}
	p := map[bpb.TaskBand]float64{}
	for k, v := range n {
		p[k] = float64(v) / 36
	}
	return p
}

func TestTaskOddsBruteForce(t *testing.T) {
	for _, mode := range []bpb.TaskMode{"", bpb.TaskModeOpen, bpb.TaskModeExpertise} {
		for _, exp := range []bool{false, true} {
			for value := -4; value <= 14; value++ {
				for diff := 5; diff <= 25; diff++ {
					task := bpb.TaskRoll{Value: value, Difficulty: diff, Expertise: exp, Mode: mode}
					o, err := task.Odds()
					if err != nil {
						t.Fatal(err)
					}
					want := bruteTaskOdds(task)
					sum := 0.0
					for _, b := range o.Bands {
						sum += b.P
						if math.Abs(b.P-want[b.Band]) > 1e-12 {
							t.Errorf("%+v: P(%s) = %v, want %v", task, b.Band, b.P, want[b.Band])
						}
						delete(want, b.Band)
					}
					for b, p := range want {
						t.Errorf("%+v: band %s (P %v) missing from the odds", task, b, p)
					}
					if math.Abs(sum-1) > 1e-12 {
						t.Errorf("%+v: bands sum to %v", task, sum)
					}
					if m := 7 + float64(task.Bonus()); math.Abs(o.Mean-m) > 1e-12 {
						t.Errorf("%+v: mean %v, want %v", task, o.Mean, m)
					}
				}
			}
		}
	}
}
