package pp

import (
	"strconv"

	"fray"
	"fray/rules/kit"
)

// AssistData is the payload of EventAssisted.
type AssistData struct {
	Helper    fray.CombatantID `json:"helper"`
	For       fray.CombatantID `json:"for"`
	Trait     string           `json:"trait"`
	Pool      Pool             `json:"pool"`
	Successes int              `json:"successes"`
	Net       int              `json:"net"`
	// Bonus is the dice this assist is worth; Kept whether it is the
	// best so far and so the one that counts.
	Bonus int  `json:"bonus"`
	Kept  bool `json:"kept"`
	// Sixes is the 6s the helper's dice showed; Before the bonus of the
	// best assist waiting before this one.
	Sixes  int `json:"sixes,omitempty"`
	Before int `json:"before,omitempty"`
	// Cost is the cost of the helper's defining moment, when the assist
	// roll was one (P-9: the hero's next challenge roll of any kind).
	Cost string `json:"cost,omitempty"`
}

// decideAssist decides assist HELPER for=NAME TRAIT (P-6).
func (s *State) decideAssist(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	sd, target, err := s.planAssist(cmd)
	if err != nil {
		return err
	}
	odds, err := s.assistOdds(sd)
	if err != nil {
		return err
	}
	res, rolls, err := rollSides(r, s.swing(), []side{sd})
	if err != nil {
		return err
	}
	d := AssistData{Helper: sd.id, For: target.ID, Trait: sd.trait, Pool: sd.pool, Successes: res[0].successes, Sixes: res[0].sixes, Cost: sd.cost}
	if rec := s.record(target.ID); rec != nil {
		d.Before = rec.Assist
	}
	settleAssist(&d)
	for i := range rolls {
		rolls[i].For = sd.name + " (assists " + target.Name + ": " + poolWords(sd.trait, sd.pool) + "; " + assistWords(d, target.Name) + momentWords(sd.name, d.Cost) + ")"
	}
	return addRoll(tx, cmd, EventAssisted, d, rolls, odds, sd.spent)
}

// settleAssist works out an assist's net successes, its bonus and
// whether it beats the best assist waiting (P-6).
func settleAssist(d *AssistData) {
	d.Net = d.Successes - AssistThreshold
	d.Bonus = AssistBonus(d.Net)
	d.Kept = d.Bonus > d.Before
}

// assistWords says how an assist for the one called target came out: "9
// against Hard (2): 7 net successes, +4d to Gatecrasher".
func assistWords(d AssistData, target string) string {
	w := strconv.Itoa(d.Successes) + " against " + ThresholdName(AssistThreshold) + ": " + plural(d.Net, "net success", "net successes") + ", +" + strconv.Itoa(d.Bonus) + "d to " + target
	switch {
	case d.Bonus > 0 && !d.Kept:
		w += ", but a better helper's +" + strconv.Itoa(d.Before) + "d counts"
	case d.Bonus > 0 && d.Before > 0:
		w += ", the best helper's, replacing +" + strconv.Itoa(d.Before) + "d"
	}
	return w
}

// AssistBonus is the bonus dice of an assist with net successes: +1d per
// 2, rounding up (P-6).
func AssistBonus(net int) int {
	if net <= 0 {
		return 0
	}
	return ceilDiv(net, AssistNetPerDie)
}

// planAssist builds the helper's side of an assist from cmd without
// rolling, and returns whom it helps.
func (s *State) planAssist(cmd fray.Command) (side, *fray.Combatant, error) {
	t, err := s.Lookup(cmd.Opts[KeyFor])
	if err != nil {
		return side{}, nil, err
	}
	sd, err := s.helperSide(cmd, cmd.Arg(0), cmd.Arg(1))
	if err != nil {
		return side{}, nil, err
	}
	// A helper's own assist waits for their own roll, not this one.
	sd.pool.Dice -= sd.assist
	sd.assist = 0
	if err := sd.pool.Check(); err != nil {
		return side{}, nil, fray.Errorf(fray.EINVALID, "%s's roll: %v.", sd.name, err)
	}
	if sd.id == t.ID {
		return side{}, nil, fray.Errorf(fray.EINVALID, "%s cannot assist themselves.", t)
	}
	return sd, t, nil
}
