package engine

import (
	"strings"

	"fray"
)

// Join adds whole combatants, such as characters loaded from sheet files
// (package sheet), in one step: one fray.EventAdded event each, carrying
// the whole sheet, so that replaying the log rebuilds them exactly. The
// names are checked as add checks them (CheckName, no duplicates, at most
// MaxCombatants); on any error nothing is added. Undo takes back the whole
// step.
func (e *Engine) Join(cs []fray.Combatant) ([]fray.Event, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	var enc *fray.Encounter
	if b, ok := e.st.(fray.BaseState); ok {
		enc = b.Base()
	}
	if len(e.events)+len(cs) > MaxEvents {
		return nil, fray.Errorf(fray.ETOOLARGE, "The encounter's log holds %d events, the limit (MaxEvents).", MaxEvents)
	}
	seen := map[string]bool{}
	evs := make([]fray.Event, 0, len(cs))
	names := make([]string, 0, len(cs))
	for _, c := range cs {
		c.Name = fray.NormName(c.Name)
		c.ID = "" // the engine gives each its id
		if c.Kind == "" {
			c.Kind = fray.KindCharacter
		}
		if c.Side == "" {
			c.Side = fray.SideNPC
		}
		if err := CheckCombatant(&c); err != nil {
			return nil, err
		}
		key := strings.ToLower(c.Name)
		if seen[key] || (enc != nil && enc.Find(c.Name) != nil) {
			return nil, fray.Errorf(fray.ECONFLICT, "There is already a combatant named %q.", fray.Mention(c.Name))
		}
		seen[key] = true
		ev, err := fray.NewEvent(fray.EventAdded, fray.AddedData{Combatant: c})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
		names = append(names, c.Name)
	}
	if enc != nil && len(enc.Combatants)+len(cs) > MaxCombatants {
		return nil, fray.Errorf(fray.ETOOLARGE, "The encounter would have %d combatants, more than the limit (MaxCombatants) of %d.", len(enc.Combatants)+len(cs), MaxCombatants)
	}
	return e.commit(CmdAdd, "join "+strings.Join(quoteAll(names), " "), evs)
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fray.Command{Name: "x", Args: []string{n}}.String()[2:]
	}
	return out
}
