package vv

import (
	"fray"
	"fray/engine"
)

// mentionIDs returns the ids of the combatants other than self that text
// (a note, a direction) names, as engine.Mentions finds them: among those
// the sender may see; nil for none. A player's own words that happen to
// spell a hidden combatant's name declare nobody, so their event reaches
// players as any other would: withholding it would tell the player that
// the name is someone's. It is read where the command is decided; the
// event carries the ids.
func (s *State) mentionIDs(text, self string) []fray.CombatantID {
	if m := engine.Mentions(&s.Encounter, text, self); len(m) > 0 {
		return engine.IDs(&s.Encounter, m)
	}
	return nil
}

// The payloads that declare whom their free text names (SpendData,
// CheckData and FacingData, with About) are not flat: a list makes
// fray.Event.Decode decode them rather than copy them. Their text names
// nobody else far more often than somebody, so such an event is made
// from a flat twin with the same JSON form (About is omitted when empty),
// and Apply decodes every one of them into the twin first: copied when
// the event was made in this process, decoded without encoding/json
// otherwise. (Only a spending's note, which the history keeps, has Apply
// read About too.)

// spendFlat is SpendData without About.
type spendFlat struct {
	Who   fray.CombatantID `json:"name"`
	Power int              `json:"power"`
	Phase int              `json:"phase,omitempty"`
	Note  string           `json:"note,omitempty"`
}

// checkFlat is CheckData without About.
type checkFlat struct {
	Who    fray.CombatantID `json:"name"`
	Note   string           `json:"note,omitempty"`
	Given  int              `json:"given"`
	Mod    int              `json:"mod,omitempty"`
	Chance int              `json:"chance"`
	Roll   int              `json:"roll"`
	Band   string           `json:"band"`
}

// facingFlat is FacingData without About.
type facingFlat struct {
	Who   fray.CombatantID `json:"name"`
	Dir   string           `json:"dir,omitempty"`
	Cost  int              `json:"cost"`
	Phase int              `json:"phase"`
}

// payload returns what an EventSpent is made from: d, or its flat twin
// when its note names nobody else.
func (d SpendData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return spendFlat{Who: d.Who, Power: d.Power, Phase: d.Phase, Note: d.Note}
}

// payload returns what an EventChecked is made from: d, or its flat twin
// when its note names nobody else.
func (d CheckData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return checkFlat{Who: d.Who, Note: d.Note, Given: d.Given, Mod: d.Mod, Chance: d.Chance, Roll: d.Roll, Band: d.Band}
}

// payload returns what an EventFacing or EventProne is made from: d, or
// its flat twin when its direction names nobody else.
func (d FacingData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return facingFlat{Who: d.Who, Dir: d.Dir, Cost: d.Cost, Phase: d.Phase}
}
