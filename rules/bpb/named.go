package bpb

import (
	"fmt"
	"strings"

	"fray/dice"
	"fray/rules/kit"
)

// This file is the system's named roll (kit.NamedRoll): a task roll, for
// "fray roll --rules bpb" and "fray prob --rules bpb" and the HTTP API.

// NamedRoll returns the declaration of the task roll (B-1) by name.
func (*System) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Bulletproof Blues task roll: 2d6 + value against a difficulty (B-1)",
		Keys: []kit.RollKey{
			kit.RequiredKey("value", "action value: attribute rank + bonuses"),
			kit.Key("difficulty", "N|challenging", "the total to reach; challenging = 12"),
			kit.Key("vs", "RANK", "or an opposing rank or value: difficulty 8 + RANK"),
			kit.YesNoKey("expertise", "+3 to the value; extreme, not remarkable, in mode expertise"),
			kit.Key("mode", "open|expertise", "success mode (default open): who can roll an extreme success"),
			kit.TableKey("faces", "A,B", "the two dice rolled at the table"),
			kit.TableKey("roll", "N", "or only their sum, 2 to 12"),
		},
		Examples: []string{
			"roll value=5 difficulty=12 expertise=yes",
			"prob value=4 vs=9 mode=expertise",
		},
		Roll: namedRoll,
		Prob: kit.Prob(namedTask, TaskRoll.Odds, namedOdds),
	}
}

func namedTask(a *kit.RollArgs) (TaskRoll, error) {
	var t TaskRoll
	var err error
	if t.Value, err = a.Required("value", -kit.Range, kit.Range); err != nil {
		return t, err
	}
	switch d, hasD := a.Get("difficulty"); {
	case hasD && a.Has("vs"):
		return t, fmt.Errorf("difficulty= and vs= are both given: give one")
	case hasD && strings.EqualFold(d, "challenging"):
		t.Difficulty = TaskChallenging
	case hasD:
		if t.Difficulty, err = a.Int("difficulty", 0, -kit.Range, kit.Range); err != nil {
			return t, fmt.Errorf("%w, or challenging", err)
		}
	case a.Has("vs"):
		rank, err := a.Int("vs", 0, -kit.Range, kit.Range)
		if err != nil {
			return t, err
		}
		t.Difficulty = TaskDifficulty(rank)
	default:
		return t, fmt.Errorf("difficulty= (a number, or challenging) or vs= (an opposing rank: 8 + rank) is required")
	}
	if t.Expertise, err = a.Bool("expertise"); err != nil {
		return t, err
	}
	if m, ok := a.Get("mode"); ok {
		if t.Mode, err = ParseTaskMode(strings.ToLower(m)); err != nil {
			return t, fmt.Errorf("mode=%s: want open or expertise", m)
		}
	} else {
		t.Mode = TaskModeOpen
	}
	return t, nil
}

func namedHeader(t TaskRoll) string {
	exp := ""
	if t.Expertise {
		exp = ", with expertise"
	}
	return fmt.Sprintf("bpb task roll: %s against difficulty %d (success mode %s%s)\n", t.Expr(), t.Difficulty, t.Mode, exp)
}

func namedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	t, err := namedTask(a)
	if err != nil {
		return kit.RollMaker{}, err
	}
	faces, err := a.Faces("faces", 6, 0)
	if err != nil {
		return kit.RollMaker{}, err
	}
	if faces != nil && len(faces) != 2 {
		return kit.RollMaker{}, fmt.Errorf("faces=: %d faces given; a task roll is two dice", len(faces))
	}
	total, err := a.Int("roll", 0, 2, 12)
	if err != nil {
		return kit.RollMaker{}, err
	}
	if faces != nil && total != 0 {
		return kit.RollMaker{}, fmt.Errorf("faces= and roll= are both given: give one")
	}
	once := func(src dice.Source) (any, string, error) {
		var r *TaskResult
		var err error
		switch {
		case total != 0:
			r, err = t.FromTotal(total)
		case faces != nil:
			r, err = t.Roll(dice.Faces(faces...))
		default:
			r, err = t.Roll(src)
		}
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		b.WriteString(namedHeader(t))
		if len(r.Dice) > 0 {
			fmt.Fprintf(&b, "  dice: %s = %d, %s = %d\n", kit.Dice(r.Dice), r.Roll, kit.Signed(r.Bonus), r.Total)
		} else {
			fmt.Fprintf(&b, "  dice: %d (sum given), %s = %d\n", r.Roll, kit.Signed(r.Bonus), r.Total)
		}
		rel := "over"
		if r.Margin < 0 {
			rel = "under"
		}
		fmt.Fprintf(&b, "  %s: %d %s %d\n", r.Band.Describe(), abs(r.Margin), rel, r.Difficulty)
		return r, b.String(), nil
	}
	return kit.RollMaker{Physical: faces != nil || total != 0, Make: once}, nil
}

// namedOdds writes the odds of a task roll: each band with the totals
// that reach it and what it does, and the mean total.
func namedOdds(b *strings.Builder, t TaskRoll, o *TaskOdds) {
	b.WriteString(namedHeader(t))
	var rows []kit.Band
	effect := map[TaskBand]string{
		TaskRemarkable: ": +1 rank to the weapon or power for this attack",
		TaskExtreme:    ": overwhelming, smashing or staggering",
	}
	for i, x := range o.Bands {
		note := []string{fmt.Sprintf("total ≤ %d", t.Difficulty-1), fmt.Sprintf("total %d to %d", t.Difficulty, t.Difficulty+2), fmt.Sprintf("total ≥ %d", t.Difficulty+3)}[i]
		rows = append(rows, kit.Band{Name: string(x.Band), P: x.P, Note: note + effect[x.Band]})
	}
	kit.Table(b, rows)
	fmt.Fprintf(b, "  mean total %.2f\n", o.Mean)
}
