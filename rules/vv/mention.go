package vv

import (
	"fray"
	"fray/engine"
)

// mentions returns the combatants other than self that text (a note, a
// direction) names, as engine.Mentions finds them: among those the sender
// may see. A player's own words that happen to spell a hidden combatant's
// name declare nobody, so their event reaches players as any other would:
// withholding it would tell the player that the name is someone's.
func (s *State) mentions(text, self string) []string {
	return engine.Mentions(&s.Encounter, text, self)
}

// mentionIDs returns the ids of the combatants mentions finds, nil for
// none.
func (s *State) mentionIDs(text, self string) []fray.CombatantID {
	if m := s.mentions(text, self); len(m) > 0 {
		return engine.IDs(&s.Encounter, m)
	}
	return nil
}

// The payloads that declare whom their free text names (SpendData,
// CheckData and FacingData, with About) are not flat: a list makes
// fray.Event.Decode decode them rather than copy them. Their text names
// nobody else far more often than somebody, so such an event is made
// from a flat twin with the same JSON form (About is omitted when empty),
// and Apply, which does not read About, decodes every one of them into
// the twin: copied when the event was made in this process, decoded
// without encoding/json otherwise.

// spendFlat is SpendData without About.
type spendFlat struct {
	Name  string `json:"name" fray:"who"`
	Power int    `json:"power"`
	Phase int    `json:"phase,omitempty"`
	Note  string `json:"note,omitempty"`
}

// checkFlat is CheckData without About.
type checkFlat struct {
	Name   string `json:"name" fray:"who"`
	Note   string `json:"note,omitempty"`
	Given  int    `json:"given"`
	Mod    int    `json:"mod,omitempty"`
	Chance int    `json:"chance"`
	Roll   int    `json:"roll"`
	Band   string `json:"band"`
}

// facingFlat is FacingData without About.
type facingFlat struct {
	Name  string `json:"name" fray:"who"`
	Dir   string `json:"dir,omitempty"`
	Cost  int    `json:"cost"`
	Phase int    `json:"phase"`
}

// payload returns what an EventSpent is made from: d, or its flat twin
// when its note names nobody else.
func (d SpendData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return spendFlat{Name: d.Name, Power: d.Power, Phase: d.Phase, Note: d.Note}
}

// payload returns what an EventChecked is made from: d, or its flat twin
// when its note names nobody else.
func (d CheckData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return checkFlat{Name: d.Name, Note: d.Note, Given: d.Given, Mod: d.Mod, Chance: d.Chance, Roll: d.Roll, Band: d.Band}
}

// payload returns what an EventFacing or EventProne is made from: d, or
// its flat twin when its direction names nobody else.
func (d FacingData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return facingFlat{Name: d.Name, Dir: d.Dir, Cost: d.Cost, Phase: d.Phase}
}
