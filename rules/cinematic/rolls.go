package cinematic

import (
	"fmt"
	"strconv"

	"fray/dice"
	"fray/rules/kit"
)

// Roll numbers (SPEC C-3).
const (
	// TestDice is the dice notation of a roll, before the value.
	TestDice = "1d10"
	// TestSuccess is the lowest total that succeeds.
	TestSuccess = 9
)

// SuccessLevels returns the success levels of a total: 0 below 9 (a
// failure), then 9–10 1, 11–12 2, 13–14 3, 15–16 4, 17–20 5, 21–23 6,
// 24–26 7, 27–29 8, 30–32 9, 33–35 10, and one more per 3 after that.
func SuccessLevels(total int) int {
	switch {
	case total < TestSuccess:
		return 0
	case total <= 16:
		return (total-TestSuccess)/2 + 1
	case total <= 20:
		return 5
	}
	return 6 + (total-21)/3
}

// TestRoll is a Cinematic Unisystem roll: D10 + value, where the value is
// attribute + skill + modifiers (attribute × 2 without a skill). Alone it
// succeeds on 9 or more. With Opposed set it is an attack against a
// defender who rolls D10 + Defence: the higher total wins and ties go to
// the defender (SPEC C-4).
type TestRoll struct {
	// Value is added to the attacker's (or the tester's) D10.
	Value int `json:"value"`
	// Opposed marks an attack that the defender dodges or parries.
	Opposed bool `json:"opposed,omitempty"`
	// Defence is added to the defender's D10, when Opposed.
	Defence int `json:"defence,omitempty"`
}

func testExpr(value int) string {
	switch {
	case value > 0:
		return TestDice + "+" + strconv.Itoa(value)
	case value < 0:
		return TestDice + strconv.Itoa(value)
	}
	return TestDice
}

// Expr returns the notation of the (attacker's) roll, such as 1d10+7.
func (t TestRoll) Expr() string { return testExpr(t.Value) }

// DefenceExpr returns the notation of the defender's roll, or "" when the
// roll is not opposed.
func (t TestRoll) DefenceExpr() string {
	if !t.Opposed {
		return ""
	}
	return testExpr(t.Defence)
}

// Band returns the outcome in words: "failure" or "N success levels" for
// a roll alone; "defended" or "hit, N success levels" for an attack.
func (t TestRoll) Band(won bool, levels int) string {
	switch {
	case !won && t.Opposed:
		return "defended"
	case !won:
		return "failure"
	case t.Opposed:
		return "hit, " + levelWords(levels)
	}
	return levelWords(levels)
}

func levelWords(n int) string {
	if n == 1 {
		return "1 success level"
	}
	return strconv.Itoa(n) + " success levels"
}

func (t TestRoll) check() error {
	if max(t.Value, -t.Value, t.Defence, -t.Defence) > dice.MaxNumber {
		return fmt.Errorf("cinematic roll: values must be within ±%d", dice.MaxNumber)
	}
	return nil
}

// TestSide is one side's roll.
type TestSide struct {
	// Expr is the notation rolled, such as 1d10+7.
	Expr string `json:"expr"`
	// Roll is the face of the D10.
	Roll int `json:"roll"`
	// Total is Roll plus the value.
	Total int `json:"total"`
	// Levels is the success levels of Total.
	Levels int `json:"levels"`
	// Dice holds the D10 as rolled.
	Dice []dice.Die `json:"dice"`
}

// TestResult is a roll that shows its dice.
type TestResult struct {
	// Total is the (attacker's) total.
	Total int `json:"total"`
	// Success reports a total of 9 or more alone, or an attack total
	// higher than the defence total.
	Success bool `json:"success"`
	// Levels is the success levels of the (attacker's) total when
	// Success, else 0. An attack can win with 0 success levels when both
	// totals are below 9.
	Levels int `json:"levels"`
	// Band is the outcome in words.
	Band string `json:"band"`
	// Attack is the (attacker's) roll.
	Attack TestSide `json:"attack"`
	// Defence is the defender's roll, when opposed.
	Defence *TestSide `json:"defence,omitempty"`
	// Dice holds every die: the attacker's D10, then the defender's.
	Dice []dice.Die `json:"dice"`
}

// Roll rolls the D10 (and then the defender's D10) from src. Physical dice
// are played back with dice.Faces(attack, defence).
func (t TestRoll) Roll(src dice.Source) (*TestResult, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	att, err := rollSide(t.Expr(), src)
	if err != nil {
		return nil, err
	}
	var def *TestSide
	if t.Opposed {
		if def, err = rollSide(t.DefenceExpr(), src); err != nil {
			return nil, err
		}
	}
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		need := 1
		if t.Opposed {
			need = 2
		}
		return nil, fmt.Errorf("cinematic roll: %d physical dice given, but this roll takes %d", need+fs.Unused(), need)
	}
	return t.settle(att, def), nil
}

func rollSide(expr string, src dice.Source) (*TestSide, error) {
	e, err := dice.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("cinematic roll: %w", err)
	}
	res, err := e.Roll(src)
	if err != nil {
		return nil, fmt.Errorf("cinematic roll: %w", err)
	}
	return &TestSide{Expr: expr, Roll: res.Dice[0].Face, Total: res.Total, Levels: SuccessLevels(res.Total), Dice: res.Dice}, nil
}

// FromDice settles a roll from physical D10s: the attacker's (or
// tester's) face, and the defender's when opposed (ignored otherwise).
// A 0 on a D10 is a 10.
func (t TestRoll) FromDice(attack, defence int) (*TestResult, error) {
	attack, defence = tenForZero(attack), tenForZero(defence)
	if !t.Opposed {
		return t.Roll(dice.Faces(attack))
	}
	return t.Roll(dice.Faces(attack, defence))
}

func tenForZero(face int) int {
	if face == 0 {
		return 10
	}
	return face
}

func (t TestRoll) settle(att, def *TestSide) *TestResult {
	r := &TestResult{Total: att.Total, Attack: *att, Defence: def}
	r.Dice = append(r.Dice, att.Dice...)
	if def != nil {
		r.Dice = append(r.Dice, def.Dice...)
		r.Success = att.Total > def.Total
	} else {
		r.Success = att.Total >= TestSuccess
	}
	if r.Success {
		r.Levels = att.Levels
	}
	r.Band = t.Band(r.Success, r.Levels)
	return r
}

// TestBandOdds is the chance of one outcome: a failure (for an attack,
// the defender winning), or a success (a hit) with exactly Levels success
// levels.
type TestBandOdds struct {
	// Band is the outcome in words, as TestRoll.Band gives it.
	Band string `json:"band"`
	// Success is false for the failure band.
	Success bool `json:"success"`
	// Levels is the number of success levels of a success.
	Levels int `json:"levels"`
	// P is the probability.
	P float64 `json:"p"`
}

// TestOdds is the exact odds of a roll.
type TestOdds struct {
	// Expr is the (attacker's) notation.
	Expr string `json:"expr"`
	// DefenceExpr is the defender's notation, when opposed.
	DefenceExpr string `json:"defence_expr,omitempty"`
	// Fail is the probability of a failure (alone) or of the defender
	// winning (opposed).
	Fail float64 `json:"fail"`
	// Success is 1 − Fail.
	Success float64 `json:"success"`
	// Bands holds the failure band first, then the probability of
	// succeeding with each number of success levels the roll can reach,
	// fewest first.
	Bands []TestBandOdds `json:"bands"`
	// Mean is the expected (attacker's) total.
	Mean float64 `json:"mean"`
}

// Odds returns the exact odds of failing and of succeeding with each
// number of success levels, from the distributions of the totals: the
// odds a command records for its roll, worked out once by levelOdds.
func (t TestRoll) Odds() (*TestOdds, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	att := d10Plus(t.Value)
	o := &TestOdds{Expr: t.Expr(), Mean: att.Mean()}
	var def *dice.Dist
	if t.Opposed {
		def = d10Plus(t.Defence)
		o.DefenceExpr = t.DefenceExpr()
	}
	fail, minL, ps := levelOdds(att, def)
	o.Fail = fail
	o.Bands = append(o.Bands, TestBandOdds{Band: t.Band(false, 0), P: fail})
	first := minL
	if !t.Opposed {
		first = max(minL, 1) // alone, a total with 0 levels fails
	}
	for l := first; l < minL+len(ps); l++ {
		o.Bands = append(o.Bands, TestBandOdds{Band: t.Band(true, l), Success: true, Levels: l, P: ps[l-minL]})
		o.Success += ps[l-minL]
	}
	return o, nil
}

// levelOdds returns the chance that an attack total distributed as att
// fails, against a defence total distributed as def (ties to the
// defender) or, with def nil, against TestSuccess; and ps, the chance
// that it wins with each number of success levels, ps[0] for minL, those
// of its lowest total. It is the one odds path of a roll, which
// TestRoll.Odds and the odds of a command both take.
func levelOdds(att, def *dice.Dist) (fail float64, minL int, ps []float64) {
	lo, hi := att.Min, att.Max()
	minL = SuccessLevels(lo)
	ps = make([]float64, SuccessLevels(hi)-minL+1)
	for a := lo; a <= hi; a++ {
		w := 0.0 // the chance a total of a wins
		switch {
		case def != nil:
			w = def.AtMost(a - 1)
		case a >= TestSuccess:
			w = 1
		}
		pa := att.Prob(a)
		ps[SuccessLevels(a)-minL] += pa * w
		fail += pa * (1 - w)
	}
	return fail, minL, ps
}

// d10 is the distribution of TestDice, worked out once by package dice.
var d10 = kit.FixedDist(TestDice)

// d10Plus returns the distribution of D10 + value: d10 shifted, sharing
// its probabilities (never changed).
func d10Plus(value int) *dice.Dist {
	d := *d10
	d.Min += value
	return &d
}
