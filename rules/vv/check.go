package vv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Event types of spend and check. They are wire strings: never rename one.
const (
	EventSpent   = "vv.spent"   // Power a character spends at the GM's call; data: SpendData
	EventChecked = "vv.checked" // a percentile roll; data: CheckData; Rolls: the d%
)

// Keys of spend and check.
const (
	KeyPower  = "power"  // spend NAME power=N: the Power spent
	KeyChance = "chance" // check NAME chance=N: the percent chance the GM gives
	KeyNote   = "note"   // what the Power is spent on, or what the check is for
)

// CheckDice is the dice notation of a percentile roll: d%, 1 to 100.
const CheckDice = "1d100"

// Outcomes of a percentile roll (CheckData.Band). They are wire strings.
const (
	CheckSuccess = "success" // the d% is at or under the chance
	CheckFailure = "failure" // the d% is over the chance
)

// Limits on spend and check.
const (
	// MaxSpend is the most Power one spend may name.
	MaxSpend = 100000
	// MaxNote is the longest note=, in bytes.
	MaxNote = 200
)

// SpendData is the payload of EventSpent.
type SpendData struct {
	// Who spends; Power is how much.
	Who   fray.CombatantID `json:"name"`
	Power int              `json:"power"`
	// Phase is the phase counted when the Power is spent, 0 before the
	// start or once a turn's phases are over.
	Phase int `json:"phase,omitempty"`
	// Note says what the Power is spent on.
	Note string `json:"note,omitempty"`
	// About is the other combatants the note names, which the history's
	// turn for the spending declares too.
	About []fray.CombatantID `json:"about,omitempty"`
}

// CheckData is the payload of EventChecked.
type CheckData struct {
	// Who rolls; Note is what the roll is for, such as "Detect Danger".
	Who  fray.CombatantID `json:"name"`
	Note string           `json:"note,omitempty"`
	// About is the other combatants the note names; Apply does not read
	// it.
	About []fray.CombatantID `json:"about,omitempty"`
	// Given is the chance the GM gave (chance=), Mod the GM's modifier
	// (mod=); Chance the final chance with the conditions' modifiers, in
	// percent.
	Given  int `json:"given"`
	Mod    int `json:"mod,omitempty"`
	Chance int `json:"chance"`
	// Roll is the face of the d%, 1 to 100.
	Roll int `json:"roll"`
	// Band is success (Roll ≤ Chance) or failure.
	Band string `json:"band"`
}

// CheckRoll is a percentile roll: d% at or under the chance succeeds.
// There is no automatic success or failure: a chance of 0 or less always
// fails, one of 100 or more always succeeds.
type CheckRoll struct {
	// Chance is the final chance, in percent.
	Chance int `json:"chance"`
}

// Band returns the outcome of the d% showing face (1 to 100).
func (c CheckRoll) Band(face int) string {
	if face <= c.Chance {
		return CheckSuccess
	}
	return CheckFailure
}

// checkDist is the exact distribution of d%.
var checkDist = func() *dice.Dist {
	d, err := dice.MustParse(CheckDice).Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	return d
}()

// Success returns the exact chance of success, from package dice's
// distribution of d%.
func (c CheckRoll) Success() float64 { return checkDist.AtMost(c.Chance) }

// decideSpend decides spend NAME power=N [note=TEXT].
func (d *decider) spend(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if !tracksPower(c) {
		return fray.Errorf(fray.EINVALID, "%s has no Power (a power track on the sheet, or add … power=N) to spend.", c)
	}
	n := intOpt(cmd, KeyPower)
	if have := s.power(c); n > have {
		return fray.Errorf(fray.EINVALID, "%s has %d Power; spending %d is more than that.", c, have, n)
	}
	note, err := noteOpt(cmd)
	if err != nil {
		return err
	}
	return d.Emit(EventSpent, SpendData{Who: c.ID, Power: n, Phase: s.Phase(), Note: note, About: s.mentionIDs(note, c.Name)}.payload())
}

// noteOpt returns note=, at most MaxNote bytes.
func noteOpt(cmd fray.Command) (string, error) {
	note := cmd.Opts[KeyNote]
	if len(note) > MaxNote {
		return "", fray.Errorf(fray.ETOOLARGE, "note= is longer than %d bytes (MaxNote).", MaxNote)
	}
	return note, nil
}

// checkPlan is a percentile roll worked out without rolling.
type checkPlan struct {
	c     *fray.Combatant
	given int
	mod   int
	note  string
	roll  CheckRoll
	mods  []fray.Modifier
	spent []engine.ConditionRef
}

// planCheck checks check NAME chance=PCT [mod=±N] [note=TEXT] and works
// out the final chance.
func (s *State) planCheck(cmd fray.Command) (*checkPlan, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	v := cmd.Opts[KeyChance]
	p := &checkPlan{c: c}
	p.given, err = strconv.Atoi(strings.TrimSuffix(v, "%"))
	if err != nil || p.given < 0 || p.given > 100 {
		return nil, fray.Errorf(fray.EINVALID, "chance=%s: give the chance in percent, a whole number from 0 to 100.", engine.Clip(v))
	}
	p.mod = intOpt(cmd, KeyMod)
	if p.note, err = noteOpt(cmd); err != nil {
		return nil, err
	}
	chance := p.given
	p.mods = append(p.mods, fray.Modifier{Source: "the GM's chance (chance=)", Value: p.given})
	if p.mod != 0 {
		p.mods = append(p.mods, fray.Modifier{Source: "the GM (mod=)", Value: p.mod})
		chance += p.mod
	}
	cmods, spent := checkModifiers(c, s.Round)
	for _, m := range cmods {
		p.mods = append(p.mods, m)
		chance += m.Value
	}
	p.spent = spent
	p.roll = CheckRoll{Chance: chance}
	return p, nil
}

// checkModifiers returns the modifiers of the combatant's conditions on
// check rolls (on=check), in percent, and the once-only conditions they
// use up. A modifier on all rolls is left out: V&V's other rolls are on a
// d20, and the seed gives no conversion to percent.
func checkModifiers(c *fray.Combatant, round int) ([]fray.Modifier, []engine.ConditionRef) {
	if len(c.Conditions) == 0 {
		return nil, nil
	}
	only := *c
	only.Conditions = nil
	for _, x := range c.Conditions {
		y := x
		y.Modifiers = slices.DeleteFunc(slices.Clone(x.Modifiers), func(m fray.Modifier) bool { return m.On != fray.AppliesCheck })
		if len(y.Modifiers) > 0 {
			only.Conditions = append(only.Conditions, y)
		}
	}
	return engine.Modifiers(&only, nil, fray.AppliesCheck, round)
}

// odds returns the exact odds of the plan's roll.
func (p *checkPlan) odds() fray.Odds {
	win := p.roll.Success()
	what := "check"
	if p.note != "" {
		what += " (" + p.note + ")"
	}
	return fray.Odds{For: p.c.Name, Roll: what, Expr: CheckDice, Target: p.roll.Chance, TargetKind: "chance",
		Bands: []fray.Band{{Name: CheckFailure, P: 1 - win}, {Name: CheckSuccess, P: win}}, Modifiers: p.mods}
}

// check decides check NAME chance=PCT …: the d% and its outcome
// (EventChecked), then the once-only conditions it used up.
func (d *decider) check(cmd fray.Command, r fray.Roller) error {
	p, err := d.State.planCheck(cmd)
	if err != nil {
		return err
	}
	odds := p.odds()
	odds.Command = cmd.String()
	what := "percentile roll"
	if p.note != "" {
		what = p.note
	}
	roll, err := r.Roll(p.c.Name+" ("+what+")", CheckDice)
	if err != nil {
		return err
	}
	if roll.Total < 1 || roll.Total > 100 {
		return fray.Errorf(fray.EINVALID, "A percentile roll is d%%; give a face from 1 to 100.")
	}
	data := CheckData{Who: p.c.ID, Note: p.note, About: d.State.mentionIDs(p.note, p.c.Name), Given: p.given, Mod: p.mod, Chance: p.roll.Chance,
		Roll: roll.Total, Band: p.roll.Band(roll.Total)}
	sign := "≤"
	if data.Band == CheckFailure {
		sign = ">"
	}
	roll.For = strings.TrimSuffix(roll.For, ")") + fmt.Sprintf(": d%% %d %s %d%%, %s)", data.Roll, sign, data.Chance, data.Band)
	return d.EmitRolled(EventChecked, data.payload(), odds, p.spent, roll)
}

// applyCheck applies EventSpent and EventChecked; handled is false for
// other events.
func (s *State) applyCheck(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventSpent:
		var d spendFlat
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c, ch := s.combatant(d.Who)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		if d.Power < 1 || d.Power > MaxSpend {
			return true, fray.Errorf(fray.EINVALID, "Event %d spends %d Power, out of range.", ev.Seq, d.Power)
		}
		if !tracksPower(c) {
			return true, fray.Errorf(fray.EINVALID, "Event %d spends the Power of %s, who has none.", ev.Seq, d.Who)
		}
		ch.Spent += d.Power
		t := Turn{Who: c.ID, What: turnSpent, Phase: d.Phase, Power: d.Power}
		if d.Note != "" {
			// The note is kept as typed, with whom it names (the
			// event's About), which the history declares (see
			// TurnLog.view). Only a note can name anyone, so only then
			// is the payload read again for its list.
			var full SpendData
			if err := ev.Decode(&full); err != nil {
				return true, err
			}
			t.Said = &Said{Note: d.Note, About: full.About}
		}
		s.record(t)
		return true, nil
	case EventChecked:
		var d checkFlat
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.char(d.Who) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		return true, nil
	}
	return false, nil
}
