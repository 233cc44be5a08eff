package bpb

import (
	"fmt"
	"strconv"

	"fray/dice"
	"fray/rules/kit"
)

// TaskMode is the Bulletproof Blues success mode, an encounter setting
// (SPEC B-1).
type TaskMode string

// The two success modes the seed proposes.
const (
	// TaskModeOpen lets anyone roll an extreme success (the default).
	TaskModeOpen TaskMode = "open"
	// TaskModeExpertise gives a remarkable success without expertise and
	// an extreme success with it.
	TaskModeExpertise TaskMode = "expertise"
)

// ParseTaskMode reads a success mode: open or expertise. The empty string
// is open.
func ParseTaskMode(s string) (TaskMode, error) {
	switch m := TaskMode(s); m {
	case "":
		return TaskModeOpen, nil
	case TaskModeOpen, TaskModeExpertise:
		return m, nil
	}
	return "", fmt.Errorf("success mode %q: want open or expertise", s)
}

// TaskBand is the outcome of a task roll.
type TaskBand string

// The outcomes of a task roll, worst first.
const (
	// TaskFailure is a total below the difficulty.
	TaskFailure TaskBand = "failure"
	// TaskSuccess is a total at least the difficulty.
	TaskSuccess TaskBand = "success"
	// TaskRemarkable is a total 3 or more over the difficulty without
	// expertise, in success mode expertise.
	TaskRemarkable TaskBand = "remarkable"
	// TaskExtreme is a total 3 or more over the difficulty: by anyone in
	// success mode open, with expertise in success mode expertise.
	TaskExtreme TaskBand = "extreme"
)

// Describe returns the band in words.
func (b TaskBand) Describe() string {
	switch b {
	case TaskRemarkable:
		return "remarkable success (+1 rank to the weapon or power for this attack)"
	case TaskExtreme:
		return "extreme success (overwhelming, smashing or staggering)"
	}
	return string(b)
}

// Task roll numbers (SPEC B-1).
const (
	// TaskDice is the dice notation of a task roll, before the value.
	TaskDice = "2d6"
	// TaskExpertiseBonus is added to the action value with expertise.
	TaskExpertiseBonus = 3
	// TaskExtremeMargin is how far over the difficulty a total must be
	// for a remarkable or extreme success.
	TaskExtremeMargin = 3
	// TaskBaseDifficulty is added to a rank to give a difficulty.
	TaskBaseDifficulty = 8
	// TaskChallenging is the difficulty of a challenging task.
	TaskChallenging = 12
)

// TaskDifficulty returns the difficulty set by a value or an opposing
// rank: 8 + rank.
func TaskDifficulty(rank int) int { return TaskBaseDifficulty + rank }

// TaskRoll is a Bulletproof Blues task roll: 2d6 + action value against a
// difficulty (SPEC B-1).
type TaskRoll struct {
	// Value is the action value: attribute rank + bonuses, without the
	// expertise bonus.
	Value int `json:"value"`
	// Difficulty is the total to reach: TaskDifficulty(rank) or
	// TaskChallenging.
	Difficulty int `json:"difficulty"`
	// Expertise adds TaskExpertiseBonus and, in success mode expertise,
	// turns a remarkable success into an extreme one.
	Expertise bool `json:"expertise,omitempty"`
	// Mode is the success mode; empty means TaskModeOpen.
	Mode TaskMode `json:"mode,omitempty"`
}

// Bonus returns what is added to the 2d6: the value, plus
// TaskExpertiseBonus with expertise.
func (t TaskRoll) Bonus() int {
	if t.Expertise {
		return t.Value + TaskExpertiseBonus
	}
	return t.Value
}

// Expr returns the roll's dice notation, such as 2d6+7.
func (t TaskRoll) Expr() string {
	switch b := t.Bonus(); {
	case b > 0:
		return TaskDice + "+" + strconv.Itoa(b)
	case b < 0:
		return TaskDice + strconv.Itoa(b)
	}
	return TaskDice
}

// high is the band of a total TaskExtremeMargin or more over the
// difficulty.
func (t TaskRoll) high() TaskBand {
	if t.Mode == TaskModeExpertise && !t.Expertise {
		return TaskRemarkable
	}
	return TaskExtreme
}

// Band returns the outcome of a total (2d6 + Bonus).
func (t TaskRoll) Band(total int) TaskBand {
	switch {
	case total >= t.Difficulty+TaskExtremeMargin:
		return t.high()
	case total >= t.Difficulty:
		return TaskSuccess
	}
	return TaskFailure
}

// Bands returns the outcomes this roll can have, worst first: failure,
// success, then remarkable or extreme.
func (t TaskRoll) Bands() []TaskBand {
	return []TaskBand{TaskFailure, TaskSuccess, t.high()}
}

func (t TaskRoll) check() error {
	if _, err := ParseTaskMode(string(t.Mode)); err != nil {
		return err
	}
	if abs(t.Value) > dice.MaxNumber || abs(t.Difficulty) > dice.MaxNumber {
		return fmt.Errorf("task roll: value and difficulty must be within ±%d", dice.MaxNumber)
	}
	return nil
}

func abs(x int) int { return max(x, -x) }

func (t TaskRoll) parse() (*dice.Expr, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	e, err := dice.Parse(t.Expr())
	if err != nil {
		return nil, fmt.Errorf("task roll: %w", err)
	}
	return e, nil
}

// TaskResult is a task roll that shows its dice.
type TaskResult struct {
	// Expr is the dice notation rolled, such as 2d6+7.
	Expr string `json:"expr"`
	// Roll is the sum of the two dice.
	Roll int `json:"roll"`
	// Bonus is what was added to the dice.
	Bonus int `json:"bonus"`
	// Total is Roll + Bonus.
	Total int `json:"total"`
	// Difficulty is the total to reach.
	Difficulty int `json:"difficulty"`
	// Margin is Total − Difficulty.
	Margin int `json:"margin"`
	// Band is the outcome.
	Band TaskBand `json:"band"`
	// Dice holds the two dice as rolled; it is empty when only their sum
	// was given.
	Dice []dice.Die `json:"dice"`
}

// Roll rolls the two dice from src. Physical dice are played back with
// dice.Faces(a, b).
func (t TaskRoll) Roll(src dice.Source) (*TaskResult, error) {
	e, err := t.parse()
	if err != nil {
		return nil, err
	}
	res, err := e.Roll(src)
	if err != nil {
		return nil, fmt.Errorf("task roll: %w", err)
	}
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		return nil, fmt.Errorf("task roll: %d physical dice given, but a task roll takes 2", 2+fs.Unused())
	}
	r := t.result(res.Total - t.Bonus())
	r.Dice = res.Dice
	return r, nil
}

// FromTotal settles a task roll from the sum of two physical dice (2 to
// 12), without the value.
func (t TaskRoll) FromTotal(roll int) (*TaskResult, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if roll < 2 || roll > 12 {
		return nil, fmt.Errorf("task roll: 2d6 shows %d, but two dice sum to 2 to 12", roll)
	}
	return t.result(roll), nil
}

func (t TaskRoll) result(roll int) *TaskResult {
	total := roll + t.Bonus()
	return &TaskResult{
		Expr:       t.Expr(),
		Roll:       roll,
		Bonus:      t.Bonus(),
		Total:      total,
		Difficulty: t.Difficulty,
		Margin:     total - t.Difficulty,
		Band:       t.Band(total),
		Dice:       []dice.Die{},
	}
}

// TaskBandOdds is the chance of one outcome.
type TaskBandOdds struct {
	// Band is the outcome.
	Band TaskBand `json:"band"`
	// P is its probability.
	P float64 `json:"p"`
}

// TaskOdds is the exact odds of a task roll.
type TaskOdds struct {
	// Expr is the dice notation, such as 2d6+7.
	Expr string `json:"expr"`
	// Difficulty is the total to reach.
	Difficulty int `json:"difficulty"`
	// Mode is the success mode.
	Mode TaskMode `json:"mode"`
	// Bands holds the odds of each outcome, worst first.
	Bands []TaskBandOdds `json:"bands"`
	// Mean is the expected total.
	Mean float64 `json:"mean"`
}

// P returns the probability of band b (0 for a band this roll cannot
// have).
func (o *TaskOdds) P(b TaskBand) float64 {
	return kit.BandP(o.Bands, b, func(x TaskBandOdds) (TaskBand, float64) { return x.Band, x.P })
}

// Odds returns the exact odds of each outcome. They are the odds a
// command records for its roll (decide and System.Odds) and the named
// roll prints, worked out once by bandOdds.
func (t TaskRoll) Odds() (*TaskOdds, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	ps, mean := t.bandOdds()
	bands := t.Bands()
	o := &TaskOdds{Expr: t.Expr(), Difficulty: t.Difficulty, Mode: t.Mode, Bands: make([]TaskBandOdds, len(bands)), Mean: mean}
	if o.Mode == "" {
		o.Mode = TaskModeOpen
	}
	for i, b := range bands {
		o.Bands[i] = TaskBandOdds{Band: b, P: ps[i]}
	}
	return o, nil
}

// bandOdds returns the chance of each band of Bands, in their order, and
// the mean total: the one odds path of a task roll. It sums the table of
// 2d6 from 2 up, so that the odds a roll records stay the same to the
// last bit.
func (t TaskRoll) bandOdds() (ps [3]float64, mean float64) {
	bonus := t.Bonus()
	for v := 2; v <= 12; v++ {
		total := v + bonus
		i := 2
		switch {
		case total < t.Difficulty:
			i = 0
		case total < t.Difficulty+TaskExtremeMargin:
			i = 1
		}
		ps[i] += two6[v]
		mean += two6[v] * float64(total)
	}
	return ps, mean
}
