package cinematic

import (
	"slices"
	"strconv"

	"fray"
	"fray/dice"
	"fray/engine"
	"fray/rules/kit"
)

// The two-step attack (C-4): attack … defence=wait rolls the attack
// alone, and the target's player answers with dodge NAME, parry NAME or
// take NAME, which settles it exactly as the one-command attack would
// have with the same dice.

// EventWaits is an attack rolled with defence=wait that waits for the
// target's answer; data: waitData, Rolls, Odds (those of the default
// defence). It is a wire string: never rename it.
const EventWaits = "cinematic.waits"

// Waiting is an attack rolled with defence=wait whose target has yet to
// answer (C-4): everything the answer needs to settle it as the
// one-command attack would, so that nothing is worked out again.
type Waiting struct {
	// AttackerID and TargetID are the two sides.
	AttackerID fray.CombatantID `json:"attacker_id"`
	TargetID   fray.CombatantID `json:"target_id"`
	Strike
}

// Strike is what an attack that waits carries besides who makes it on
// whom.
type Strike struct {
	// Weapon is the attacker's weapon; Damage its damage type (bullets
	// cannot be parried) and Rank its damage.
	Weapon string `json:"weapon"`
	Damage string `json:"damage_type"`
	Rank   int    `json:"rank"`
	// Shots is the shots of a barrage, 0 for an aimed attack (C-8).
	Shots int `json:"shots,omitempty"`
	// Armour is the target's protection against the damage type, Mult
	// the damage's multiplier (C-5).
	Armour int `json:"armour"`
	Mult   int `json:"mult"`
	// Value is the attack's value, Face its D10 and Total their sum.
	Value int `json:"value"`
	Face  int `json:"face"`
	Total int `json:"total"`
	// Modifiers are the attack's terms, which the answer's odds list:
	// the words of the attack's roll, as they were when it was rolled.
	Modifiers []fray.Modifier `json:"modifiers"`
}

// cloneMods returns a deep copy of mods.
func cloneMods(mods []fray.Modifier) []fray.Modifier {
	out := slices.Clone(mods)
	for i := range out {
		out[i].Who = slices.Clone(out[i].Who)
	}
	return out
}

// waitData is the payload of EventWaits: the attack that waits, between
// its sides, and its outcome in words for a reader of the log.
type waitData struct {
	Attacker fray.CombatantID `json:"attacker"`
	Target   fray.CombatantID `json:"target"`
	Strike
	Band string `json:"band"`
}

// answerKeeps lists the commands an attack that waits lets through: the
// answers, and commands that change nothing in play (the engine's undo,
// redo and queries never reach Decide).
var answerKeeps = []string{RollDodge, RollParry, RollTake, engine.CmdCondition, engine.CmdClear, engine.CmdNote, engine.CmdReveal, engine.CmdRename}

// isAnswer reports whether a roll kind answers an attack that waits.
func isAnswer(roll string) bool {
	return roll == RollDodge || roll == RollParry || roll == RollTake
}

// awaiting refuses a command while an attack waits for its answer,
// unless it is the answer or changes nothing in play. Ruling (ours): the
// round stands still until the target answers, rather than the attack
// being settled as taken, so that a GM who types next too soon does not
// cost a player their defence; undo takes the attack back.
func (s *State) awaiting(cmd fray.Command) error {
	w := s.Waiting
	if w == nil || slices.Contains(answerKeeps, cmd.Name) {
		return nil
	}
	a, b := s.NameOf(w.AttackerID), s.NameOf(w.TargetID)
	q := kit.QuoteName(b)
	return fray.Errorf(fray.EINVALID, "%s's attack waits for %s's answer: dodge %s, parry %s or take %s first (or undo the attack).", fray.Mention(a), fray.Mention(b), q, q, q)
}

// waiting returns the attack a planned roll leaves waiting, with its D10,
// as its event says it.
func (p *planned) waiting(face int, total int) waitData {
	w := waitData{Attacker: p.d.Who, Target: p.d.Target, Strike: Strike{
		Weapon: p.weapon.Name, Damage: p.weapon.Damage, Rank: p.weapon.Rank,
		Shots: p.d.Shots, Armour: p.armour, Mult: p.mult, Value: p.roll.Value, Face: face, Total: total,
		Modifiers: cloneMods(p.mods),
	}}
	w.Band = "attack total " + strconv.Itoa(w.Total) + ": waits for " + p.target + "'s answer (dodge, parry or take)"
	return w
}

// planAnswer plans "dodge NAME [dmod=±N]", "parry NAME [dmod=±N]" and
// "take NAME": the target of the attack that waits rolls that defence
// against its total, spending a defence (C-2), or takes it, keeping their
// defence: the attack then hits on 9+ (C-4).
func (s *State) planAnswer(cmd fray.Command) (*planned, error) {
	w := s.Waiting
	if w == nil {
		return nil, fray.Errorf(fray.EINVALID, "No attack waits for an answer; %s answers an attack made with defence=wait (attack ATTACKER TARGET with=WEAPON defence=wait).", cmd.Name)
	}
	b, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	a := s.ByID(w.AttackerID)
	if b.ID != w.TargetID || a == nil {
		return nil, fray.Errorf(fray.EINVALID, "%s's attack waits for %s's answer, not %s's.", fray.Mention(s.NameOf(w.AttackerID)), fray.Mention(s.NameOf(w.TargetID)), b)
	}
	p := &planned{
		weapon: fray.Power{Name: w.Weapon, Kind: fray.PowerKindWeapon, Rank: w.Rank, Damage: w.Damage},
		armour: w.Armour, mult: w.Mult, barage: w.Shots > 0, known: &w.Strike,
		mods: cloneMods(w.Modifiers), roll: TestRoll{Value: w.Value},
		d:    rollData{Who: a.ID, Roll: cmd.Name, Target: b.ID, Weapon: w.Weapon, Shots: w.Shots, Value: w.Value, Defence: DefenceNone},
		name: a.Name, target: b.Name,
	}
	if cmd.Name == RollTake {
		return p, nil
	}
	if cmd.Name == RollParry && w.Damage == "bullet" {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot parry a bullet (C-4); dodge %s or take %s.", b, kit.QuoteName(b.Name), kit.QuoteName(b.Name))
	}
	// Awareness was settled by the attack: it waits only for a target
	// who could defend.
	act, why := s.canDefend(a, b, false)
	if why != "" {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot %s: %s; take %s settles the attack.", b, cmd.Name, trimDot(why), kit.QuoteName(b.Name)).Naming(a.Name)
	}
	if err := s.defenceTerms(cmd, p, b, cmd.Name, act); err != nil {
		return nil, err
	}
	return p, checkRoll(p.roll)
}

func trimDot(s string) string {
	if n := len(s); n > 0 && s[n-1] == '.' {
		return s[:n-1]
	}
	return s
}

// decideAnswer decides dodge, parry and take: the defence spent, the
// roll against the waiting attack's total, what the defence's modifiers
// used up, and the damage with what it brings (C-4 … C-6).
func (s *State) decideAnswer(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	p, ev, err := s.rolled(cmd, r)
	if err != nil {
		return err
	}
	if p.def != nil {
		if err := tx.Emit(EventDefence, *p.def); err != nil {
			return err
		}
	}
	if err := tx.Add(ev); err != nil {
		return err
	}
	return s.settle(p, tx)
}

// knownDist is the distribution of an attack total already rolled.
func knownDist(total int) *dice.Dist {
	return &dice.Dist{Min: total, P: []float64{1}}
}

// applyWaits applies EventWaits: the attack counts for Outnumbered, and
// waits for the target's answer.
func (s *State) applyWaits(ev fray.Event) error {
	var d waitData
	if err := ev.Decode(&d); err != nil {
		return err
	}
	a, ach := s.who(d.Attacker)
	b, ch := s.who(d.Target)
	if ch == nil || ach == nil || a.ID != s.Current() {
		return fray.Errorf(fray.EINVALID, "Event %d is an attack of %s on %s out of turn or between combatants not both present.", ev.Seq, d.Attacker, d.Target)
	}
	if s.Waiting != nil {
		return fray.Errorf(fray.EINVALID, "Event %d makes an attack wait while %s's attack waits already.", ev.Seq, fray.Mention(s.NameOf(s.Waiting.AttackerID)))
	}
	if !slices.Contains(ch.Foes, a.ID) {
		ch.Foes = append(ch.Foes, a.ID)
	}
	if d.Shots > 0 {
		ach.Fired += d.Shots
	}
	w := Waiting{AttackerID: a.ID, TargetID: b.ID, Strike: d.Strike}
	s.Waiting = &w // waitData is not flat: its terms are this call's
	return nil
}

// applyAnswer checks that an answer's event answers the attack that
// waits, and ends the wait.
func (s *State) applyAnswer(ev fray.Event, d rollData) error {
	w := s.Waiting
	if w == nil || d.Who != w.AttackerID || d.Target != w.TargetID {
		return fray.Errorf(fray.EINVALID, "Event %d answers an attack of %s on %s that does not wait.", ev.Seq, d.Who, d.Target)
	}
	s.Waiting = nil
	return nil
}

// waitWords says, in the slot of the combatant id, the attack they are
// to answer.
func (s *State) waitWords(id fray.CombatantID) string {
	if w := s.Waiting; w != nil && w.TargetID == id {
		return "to answer " + s.NameOf(w.AttackerID) + "'s attack (total " + strconv.Itoa(w.Total) + "): dodge, parry or take"
	}
	return ""
}
