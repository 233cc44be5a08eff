package cinematic

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Resolution (SPEC C-3 … C-8): checks, attacks answered by a dodge or a
// parry, damage off Life Points, complications as conditions, the
// Consciousness and Survival tests, and firearms with ammunition.

// Event types of resolution. They are wire strings: never rename one.
const (
	EventRolled   = "cinematic.rolled"   // a roll: check, attack, test, free or kipup; data: rollData, Rolls, Odds
	EventDamaged  = "cinematic.damaged"  // Life Points lost (or healed, negative); data: damageData
	EventShot     = "cinematic.shot"     // shots fired or spent from a weapon's clip; data: ammoData
	EventReloaded = "cinematic.reloaded" // a weapon reloaded, an action (C-8); data: reloadData
	EventStood    = "cinematic.stood"    // up from Knocked Down the slow way: the round is spent (C-6); data: fray.NameData
	EventEngaged  = "cinematic.engaged"  // the GM declares who attacks a target this round, for Outnumbered (C-6); data: engagedData
)

// Kinds of roll (rollData.Roll, fray.Odds.Roll). They are wire strings.
const (
	RollCheck  = "check"  // a task: STAT[+SKILL] (C-3)
	RollAttack = "attack" // an attack, answered by a dodge or a parry (C-4)
	RollTest   = "test"   // a Consciousness or Survival test (C-6)
	RollFree   = "free"   // freeing oneself when tied up (C-6)
	RollKipUp  = "kipup"  // a kip-up from Knocked Down (C-6)
	// The answers to an attack that waits (C-4): the target dodges or
	// parries, rolling against the attack's total, or takes it (a hit
	// on 9+).
	RollDodge = "dodge"
	RollParry = "parry"
	RollTake  = "take"
)

// Defences an attack may meet (C-4). They are wire strings.
const (
	DefenceDodge = "dodge"
	DefenceParry = "parry"
	DefenceNone  = "none" // no defence roll: the attack hits on 9+
	// DefenceWait rolls the attack alone; it waits for the target's
	// answer, dodge NAME, parry NAME or take NAME (see Waiting).
	DefenceWait = "wait"
)

// Conditions resolution sets (C-6). They are wire strings.
const (
	CondBadlyInjured = "badly injured" // 10 or fewer Life Points: −2 (5 or fewer: −4) to attack and defence
	CondBlind        = "blind"         // −5 to everything; a Perception + Notice check before each attack
	CondBound        = "bound"         // arms bound in front: −2 to punches
	CondTied         = "tied"          // tied up: no attack or defence until freed
	CondDown         = "knocked down"  // −4 to attack and defence until up
	CondOutnumbered  = "outnumbered"   // +2 per attacker this round to attacks on them, up to +10
	CondLarge        = "large"         // Size: larger than normal, a penalty to dodge (default −2, ours)
	CondConscious    = "consciousness test"
	CondSurvival     = "survival test"
	CondUnconscious  = "unconscious"
	CondDead         = "dead"
	CondStabilised   = "stabilised"
)

// Qualities resolution reads from a sheet (fray.Combatant.Qualities).
const (
	QualityHardToKill   = "Hard to Kill"          // adds its level to Survival tests
	QualityPain         = "Resistance (Pain)"     // cancels 1 of the Consciousness penalty per level
	QualityAwareness    = "Situational Awareness" // defends even when caught unaware
	QualityEcholocation = "Echolocation"          // unaffected by Blind
	QualityNotHuman     = "Not Human"             // bullets, slashes and stabs are not doubled (C-5)
)

// Numbers of resolution (C-5, C-6, C-8).
const (
	BadlyInjured      = 10 // Life Points at or below which Badly Injured is −2
	VeryBadlyInjured  = 5  // Life Points at or below which it is −4
	BlindPenalty      = -5
	BoundPunchPenalty = -2
	DownPenalty       = -4
	OutnumberedBonus  = 2  // per attacker, up to MaxAttackers
	MaxAttackers      = 5  // the most who may attack one target in a round
	MaxShots          = 6  // the most shots of a barrage: a small clip
	KipUpLevels       = 2  // success levels a kip-up needs
	LargePenalty      = -2 // Size's penalty to dodge when the GM gives none (ours)
	SurvivalBelow     = -10
	TrackLife         = "life points"
	ProtectionArmour  = "armour"
)

// AppliesDodge is what a condition's modifier on dodges alone applies to
// (fray.Modifier.On), such as Size's. It is a wire string.
const AppliesDodge = "dodge"

// Option keys of the resolution commands.
const (
	OptWith    = "with"    // the weapon (attack) or skill (free)
	OptDefence = "defence" // dodge, parry or none (attack)
	OptShots   = "shots"   // a barrage of N shots (attack, C-8)
	OptMod     = "mod"     // the GM's modifier to the roll
	OptDMod    = "dmod"    // the GM's modifier to the defence
	OptVs      = "vs"      // an opposing value (check)
	OptUnaware = "unaware" // yes: the target does not know the attacker is there
	OptMinutes = "minutes" // minutes since the wound (survival test)
	OptAmmo    = "ammo"    // shots spent without a roll (spend)
)

// rollData is the payload of EventRolled. It is flat, so Apply copies it.
type rollData struct {
	// Who rolls: the attacker of an attack and of its answer.
	Who  fray.CombatantID `json:"name"`
	Roll string           `json:"roll"`
	What string           `json:"what,omitempty"`
	// Target is the target of an attack.
	Target     fray.CombatantID `json:"target,omitempty"`
	Weapon     string           `json:"weapon,omitempty"`
	Shots      int              `json:"shots,omitempty"`
	Defence    string           `json:"defence,omitempty"`
	Value      int              `json:"value"`
	DefValue   int              `json:"def_value,omitempty"`
	Noticed    bool             `json:"noticed,omitempty"`
	Total      int              `json:"total"`
	Difficulty int              `json:"difficulty"`
	Success    bool             `json:"success"`
	Levels     int              `json:"levels"`
	Band       string           `json:"band"`
	Dealt      int              `json:"dealt,omitempty"`
	// Note says why an attack made with defence=wait did not wait: the
	// target could not defend.
	Note string `json:"note,omitempty"`
}

// damageData is the payload of EventDamaged.
type damageData struct {
	Who    fray.CombatantID `json:"name"`
	Amount int              `json:"amount"`
	By     fray.CombatantID `json:"by,omitempty"`
}

// engagedData is the payload of EventEngaged.
type engagedData struct {
	Who      fray.CombatantID   `json:"name"`  // the target
	Engaging []fray.CombatantID `json:"names"` // who engages them this round
}

// ammoData is the payload of EventShot.
type ammoData struct {
	Who    fray.CombatantID `json:"name"`
	Weapon string           `json:"weapon"`
	Shots  int              `json:"shots"`
}

// reloadData is the payload of EventReloaded.
type reloadData struct {
	Who      fray.CombatantID `json:"name"`
	Weapon   string           `json:"weapon"`
	Kind     string           `json:"kind"`
	Modifier int              `json:"modifier,omitempty"`
}

// planned is a roll planned from a command: everything but the dice.
type planned struct {
	// undefended says why the target of an attack rolls no defence, ""
	// when they roll one (or the roll is no attack).
	undefended string

	d    rollData
	roll TestRoll
	mods []fray.Modifier // the roller's terms after the dice
	dmod []fray.Modifier // the defender's terms, when a defence is rolled

	// name and target are the names of d.Who and d.Target, for the
	// words of the odds and the rolls.
	name, target string
	// notice is a blind attacker's Perception + Notice check, rolled
	// before the attack.
	notice *TestRoll
	nmods  []fray.Modifier
	spent  []engine.ConditionRef
	// The actions an attack spends.
	att    ActionData
	def    *ActionData
	weapon fray.Power
	armour int
	mult   int
	barage bool
	foes   int // attackers on the target this round, this one counted
	ammo   bool
	// waits is an attack made with defence=wait that the target can
	// answer: only the attack is rolled (the odds are those of the
	// default defence).
	waits bool
	// known is the attack an answer settles: its total is rolled already.
	known *Strike
}

// stat returns a stat, refusing a combatant without it.
func stat(c *fray.Combatant, name string) (int, error) { return kit.Stat(c, name, "") }

// squash lowers a name and drops its blanks: "Kung Fu" and "kungfu" match.
func squash(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// skill returns the rank of the combatant's skill named name, 0 when they
// do not have it, and its name as the sheet spells it.
func skill(c *fray.Combatant, name string) (int, string, bool) {
	for _, p := range c.Powers {
		if p.Kind != fray.PowerKindWeapon && strings.EqualFold(p.Name, name) {
			return p.Rank, p.Name, true
		}
	}
	if !strings.Contains(name, " ") {
		// "kungfu" for "Kung Fu": compare without blanks.
		for _, p := range c.Powers {
			if p.Kind != fray.PowerKindWeapon && squash(p.Name) == squash(name) {
				return p.Rank, p.Name, true
			}
		}
	}
	return 0, name, false
}

var stats = []string{"strength", "dexterity", "constitution", "intelligence", "perception", "willpower"}

func quality(c *fray.Combatant, name string) int {
	for k, v := range c.Qualities {
		if fray.SameName(k, name) {
			return max(v, 1)
		}
	}
	return 0
}

// intOpt reads KEY=N, a number its declaration bounds (Commands).
func intOpt(cmd fray.Command, key string) (int, bool) {
	v, ok := cmd.Opts[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	return n, err == nil
}

// gm adds the GM's mod= (or dmod=) to a roll's terms.
func gm(cmd fray.Command, key string, mods []fray.Modifier) []fray.Modifier {
	if n, ok := intOpt(cmd, key); ok {
		return append(mods, fray.Modifier{Source: "GM", Value: n})
	}
	return mods
}

func sum(mods []fray.Modifier) int {
	n := 0
	for _, m := range mods {
		n += m.Value
	}
	return n
}

// out reports why a combatant cannot act: dead, unconscious or tied up.
func out(c *fray.Combatant, what string) error {
	for _, x := range []string{CondDead, CondUnconscious, CondTied} {
		if c.Condition(x) != nil {
			return fray.Errorf(fray.EINVALID, "%s is %s and cannot %s (C-6).", c, x, what)
		}
	}
	return nil
}

// checkRoll refuses a roll whose values the dice cannot take.
func checkRoll(t TestRoll) error {
	if err := t.check(); err != nil {
		return &fray.Error{Code: fray.EINVALID, Message: "The roll's value " + strconv.Itoa(t.Value) + " (or its defence's) is out of bounds.", Err: err}
	}
	return nil
}

// plan plans the roll of a command, for Decide and Odds.
func (s *State) plan(cmd fray.Command) (*planned, error) {
	switch cmd.Name {
	case RollCheck:
		return s.planCheck(cmd)
	case RollAttack:
		if _, ok := cmd.Opts[OptWith]; !ok {
			return nil, fray.Errorf(fray.EINVALID, "attack without with= spends the action only and rolls nothing; name the weapon: attack ATTACKER TARGET with=WEAPON.")
		}
		return s.planAttack(cmd)
	case RollTest:
		return s.planTest(cmd)
	case RollFree, RollKipUp:
		return s.planFree(cmd)
	case RollDodge, RollParry, RollTake:
		return s.planAnswer(cmd)
	}
	return nil, fray.Errorf(fray.EINTERNAL, "%s is declared to roll but plans no roll.", engine.Clip(cmd.Name))
}

// noticeFor ends the name of a blind attacker's Notice check roll.
const noticeFor = " (Notice check)"

// rollD10 rolls one D10 through the Roller and adds value.
func rollD10(r fray.Roller, who string, value int) (fray.Roll, *TestSide, error) {
	roll, err := r.Roll(who, TestDice)
	if err != nil {
		return roll, nil, err
	}
	t := roll.Total + value
	return roll, &TestSide{Expr: testExpr(value), Roll: roll.Total, Total: t, Levels: SuccessLevels(t)}, nil
}

// rolled plans cmd and rolls it: the plan, and its roll's event
// (rollPlanned).
func (s *State) rolled(cmd fray.Command, r fray.Roller) (*planned, fray.Event, error) {
	p, err := s.plan(cmd)
	if err != nil {
		return nil, fray.Event{}, err
	}
	ev, err := p.rollPlanned(cmd, r)
	return p, ev, err
}

// rollPlanned rolls a planned roll and returns its event, with every die
// and the odds it had: the blind attacker's Notice check first, then the
// roll, then the defence.
func (p *planned) rollPlanned(cmd fray.Command, r fray.Roller) (fray.Event, error) {
	// The odds are for an event that is recorded (fray.Recorded).
	var o *fray.Odds
	if fray.Recorded(r) {
		x, err := p.odds(cmd.String())
		if err != nil {
			return fray.Event{}, err
		}
		o = &x
	}
	var rolls []fray.Roll
	p.d.Value, p.d.Difficulty = p.roll.Value, TestSuccess
	if p.notice != nil {
		roll, side, err := rollD10(r, p.name+noticeFor, p.notice.Value)
		if err != nil {
			return fray.Event{}, err
		}
		rolls = append(rolls, roll)
		if side.Total < TestSuccess {
			p.d.Total, p.d.Band = side.Total, BandLost
			return rollEvent(EventRolled, p.d, o, rolls)
		}
		p.d.Noticed = true
	}
	var att *TestSide
	if w := p.known; w != nil {
		att = &TestSide{Expr: testExpr(w.Value), Roll: w.Face, Total: w.Total, Levels: SuccessLevels(w.Total)}
	} else {
		who := p.name
		if p.d.Roll == RollAttack {
			who += " (attack with " + p.d.Weapon + ")"
		}
		roll, side, err := rollD10(r, who, p.roll.Value)
		if err != nil {
			return fray.Event{}, err
		}
		rolls, att = append(rolls, roll), side
		if err := p.noDefenceDie(r); err != nil {
			return fray.Event{}, err
		}
		if p.waits {
			return rollEvent(EventWaits, p.waiting(roll.Total, side.Total), o, rolls)
		}
	}
	var def *TestSide
	if p.roll.Opposed {
		dwho := "opposed"
		if p.attacks() {
			dwho = p.target + " (" + p.d.Defence + ")"
		}
		droll, side, err := rollD10(r, dwho, p.roll.Defence)
		if err != nil {
			return fray.Event{}, err
		}
		rolls, def = append(rolls, droll), side
		p.d.Difficulty = side.Total
	}
	res := p.roll.settle(att, def)
	p.d.Total, p.d.Success, p.d.Levels = res.Total, res.Success, res.Levels
	p.d.Band = p.band(res.Success, res.Levels)
	if p.attacks() && res.Success {
		p.d.Dealt = p.damageFor(res.Levels)
	}
	return rollEvent(EventRolled, p.d, o, rolls)
}

// rollEvent returns the event of a roll with the odds o it had, or, for
// a decision never recorded (o nil), as fray.NewUnrecordedEvent makes it.
func rollEvent(typ string, data any, o *fray.Odds, rolls []fray.Roll) (fray.Event, error) {
	if o == nil {
		return fray.NewUnrecordedEvent(typ, data, rolls...)
	}
	ev, err := fray.NewEvent(typ, data, rolls...)
	ev.Odds = o
	return ev, err
}

// decideResolution decides the commands of resolution; handled is false
// for any other command. Their events follow from the state before the
// command alone, so they are made without a working copy of the state
// (the engine applies them in order).
func (s *State) decideResolution(cmd fray.Command, r fray.Roller) (evs []fray.Event, handled bool, err error) {
	tx := kit.Txn[*State]{State: s, Room: 3, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)} // room for a roll and what follows from it: three hold nearly every attack's
	switch cmd.Name {
	case RollAttack:
		if _, ok := cmd.Opts[OptWith]; !ok {
			return nil, false, nil
		}
		err = s.decideStrike(cmd, r, &tx)
	case RollDodge, RollParry, RollTake:
		err = s.decideAnswer(cmd, r, &tx)
	case RollCheck, RollTest, RollFree, RollKipUp:
		err = s.decideRoll(cmd, r, &tx)
	case "damage", "heal":
		err = s.decideDamage(cmd, &tx)
	case "complication":
		err = s.decideComplication(cmd, &tx)
	case "stand":
		err = s.decideStand(cmd, &tx)
	case "stabilise", "stabilize":
		err = s.decideStabilise(cmd, &tx)
	case "reload":
		err = s.decideReload(cmd, &tx)
	case "spend":
		err = s.decideSpend(cmd, &tx)
	case "engage":
		err = s.decideEngage(cmd, &tx)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return tx.Events(), true, nil
}

func spend(s *State, spent []engine.ConditionRef, tx *kit.Txn[*State]) error {
	for _, r := range spent {
		if c := s.ByID(r.Who); c == nil || c.Condition(r.Condition) == nil {
			continue
		}
		if err := tx.Emit(fray.EventCleared, fray.ClearedData{Who: r.Who, Condition: r.Condition}); err != nil {
			return err
		}
	}
	return nil
}

// setCondition puts the combatant id in the condition x.
func setCondition(tx *kit.Txn[*State], id fray.CombatantID, x fray.Condition) error {
	return tx.Emit(fray.EventCondition, fray.ConditionData{Who: id, Condition: x})
}

// applyResolution applies the events of resolution; handled is false for
// any other event.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventRolled:
		var d rollData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if isAnswer(d.Roll) {
			return true, s.applyAnswer(ev, d)
		}
		if d.Roll == RollAttack && d.Target != "" {
			_, ch := s.who(d.Target)
			c, a := s.who(d.Who)
			if ch == nil || c == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d is an attack between %s and %s, who are not both present.", ev.Seq, d.Who, d.Target)
			}
			if !slices.Contains(ch.Foes, c.ID) {
				ch.Foes = append(ch.Foes, c.ID)
			}
			// A barrage's shots count against the round's small clip
			// (C-8), unless a blind attacker's Notice check failed and
			// nothing was fired.
			noticeFailed := len(ev.Rolls) > 0 && strings.HasSuffix(ev.Rolls[0].For, noticeFor) && !d.Noticed
			if a != nil && d.Shots > 0 && !noticeFailed {
				a.Fired += d.Shots
			}
		}
	case EventDamaged:
		var d damageData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Who)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %s, who is not present.", ev.Seq, d.Who)
		}
		t, ok := life(c)
		if !ok {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %q, who has no Life Points.", ev.Seq, c)
		}
		if d.Amount < 0 {
			t.Value = min(t.Value-d.Amount, max(t.Max, t.Value))
		} else {
			t.Value = max(t.Value-d.Amount, -100000)
		}
		kit.SetTrack(c, TrackLife, t)
	case EventWaits:
		return true, s.applyWaits(ev)
	case EventEngaged:
		return true, s.applyEngaged(ev)
	case EventShot:
		var d ammoData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Who)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d fires the weapon of %s, who is not present.", ev.Seq, d.Who)
		}
		w := c.Power(d.Weapon)
		if w == nil || w.Clip == 0 || d.Shots < 1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d fires %q's %q, which has no clip.", ev.Seq, c, d.Weapon)
		}
		kit.SetTrack(c, ammoKey(w.Name), fray.Track{Value: max(ammo(c, *w)-d.Shots, 0), Max: w.Clip})
	case EventReloaded:
		var d reloadData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c, ch := s.who(d.Who)
		if ch == nil || c.ID != s.Current() {
			return true, fray.Errorf(fray.EINVALID, "Event %d reloads for %s out of turn.", ev.Seq, d.Who)
		}
		w := c.Power(d.Weapon)
		if w == nil || w.Clip == 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d reloads %q's %q, which has no clip.", ev.Seq, c, d.Weapon)
		}
		if d.Kind == ActionExtra {
			ch.Extras++
		} else {
			ch.Attacked = true
		}
		kit.SetTrack(c, ammoKey(w.Name), fray.Track{Value: w.Clip, Max: w.Clip})
		s.Begun = true
		s.act(Act{Type: ActReload, Weapon: w.Name})
	case EventStood:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c, ch := s.who(d.Who)
		if ch == nil || c.ID != s.Current() {
			return true, fray.Errorf(fray.EINVALID, "Event %d stands %s up out of turn.", ev.Seq, d.Who)
		}
		ch.Stood, s.Begun = true, true
		s.act(Act{Type: ActStand})
	default:
		return false, nil
	}
	return true, nil
}
