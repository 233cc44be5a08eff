package bpb

import (
	"slices"

	"fray"
	"fray/engine"
)

// damageData is the payload of EventDamaged.
type damageData struct {
	Name   fray.CombatantID `json:"name"`
	Amount int              `json:"amount"`
	By     fray.CombatantID `json:"by,omitempty"`
	// Settles marks the damage of the pending hit.
	Settles bool `json:"settles,omitempty"`
	// For is the one the hit was against, when a protector took it in
	// their place (B-7); empty otherwise.
	For fray.CombatantID `json:"for,omitempty"`
}

// hitEvents records in tx the events of a hit that lands, decided on s:
// the damage, out at 0 Endurance, and a smashing or staggering extreme
// success (B-2, B-10).
func (s *State) hitEvents(tx *txn, h Hit) error {
	b := s.ByID(h.Defender)
	attacker := s.NameOf(h.Attacker)
	if err := tx.Emit(EventDamaged, damageData{Name: b.ID, Amount: h.Damage, By: h.Attacker, Settles: true, For: h.For}); err != nil {
		return err
	}
	if end := endurance(b); h.Damage > 0 && end.Value-h.Damage <= 0 && b.Condition(CondOut) == nil {
		if err := tx.Emit(fray.EventCondition, fray.ConditionData{Who: b.ID, Condition: fray.Condition{Name: CondOut, By: attacker, ByID: h.Attacker, Since: s.Round, Note: "0 Endurance"}}); err != nil {
			return err
		}
	}
	var cond *fray.Condition
	switch h.Option {
	case OptionSmashing:
		name := CondProne
		if s.Setting(SettingSmashing, "prone") == "back" {
			name = CondBack
		}
		cond = &fray.Condition{Name: name, By: attacker, ByID: h.Attacker, Since: s.Round, Note: "smashing success"}
	case OptionStaggering:
		if s.Setting(SettingStaggering, "turn") == "dazed" {
			cond = &fray.Condition{Name: CondDazed, By: attacker, ByID: h.Attacker, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Name: b.Name, ID: b.ID, Edge: fray.EdgeEnd},
				Modifiers: []fray.Modifier{{Source: CondDazed, Value: DazedPenalty, On: fray.AppliesAll}}, Note: "staggering success"}
		} else if slices.Contains(s.Order, b.ID) {
			if err := tx.Emit(EventStaggered, fray.NameData{Who: b.ID}); err != nil {
				return err
			}
		}
	}
	if cond != nil {
		return tx.Emit(fray.EventCondition, fray.ConditionData{Who: b.ID, Condition: *cond})
	}
	return nil
}

// endurance returns a combatant's Endurance track: from the sheet, or the
// endurance stat of add.
func endurance(c *fray.Combatant) fray.Track {
	if t, ok := c.Tracks[TrackEndurance]; ok {
		return t
	}
	n := c.Stat(TrackEndurance)
	return fray.Track{Value: n, Max: n}
}

// decideDamage decides "damage NAME N" and "heal NAME N": Endurance lost
// or regained at the GM's word.
func (s *State) decideDamage(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 0, "Endurance")
	if err != nil {
		return err
	}
	if cmd.Name == "heal" {
		n = -n
	}
	if err := tx.Emit(EventDamaged, damageData{Name: c.ID, Amount: n}); err != nil {
		return err
	}
	end := endurance(c)
	switch {
	case n > 0 && end.Value-n <= 0 && c.Condition(CondOut) == nil:
		return tx.Emit(fray.EventCondition, fray.ConditionData{Who: c.ID, Condition: fray.Condition{Name: CondOut, Since: s.Round, Note: "0 Endurance"}})
	case n < 0 && min(end.Value-n, end.Max) > 0 && c.Condition(CondOut) != nil:
		return tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondOut})
	}
	return nil
}
