package engine

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"fray"
)

// Limits on a combatant, checked by CheckCombatant wherever a combatant
// comes from: add, a sheet, an imported or stored log.
const (
	// MaxNotesLen is the longest GM note on a combatant, in bytes.
	MaxNotesLen = 4000
	// MaxStat bounds every stat, rank, protection and quality: from
	// -MaxStat to MaxStat.
	MaxStat = 1000
	// MaxTrack bounds every track's value and maximum (hit points,
	// Endurance …): from -MaxTrack to MaxTrack.
	MaxTrack = 100_000
	// MaxSheetItems is the most stats, tracks, powers, expertise,
	// protections, qualities or conditions one combatant may have, each.
	MaxSheetItems = 200
)

// CheckCombatant is the one validator of a combatant, used by add, by
// sheets (through Join) and by every event that adds one, so that a log
// cannot bring in what add would refuse. It checks the id's form (when
// there is one), the name (CheckName, in Unicode normal form C), kind,
// side, group, notes, and the bounds of the sheet's numbers and lists.
func CheckCombatant(c *fray.Combatant) error {
	if c.ID != "" {
		if err := CheckCombatantID(c.ID); err != nil {
			return err
		}
	}
	if err := CheckName(c.Name); err != nil {
		return err
	}
	if !norm.NFC.IsNormalString(c.Name) {
		return fray.Errorf(fray.EINVALID, "The name %q is not in Unicode normal form C.", Clip(c.Name))
	}
	switch c.Kind {
	case fray.KindCharacter, fray.KindGroup, fray.KindEnvironment:
	default:
		return fray.Errorf(fray.EINVALID, "kind=%s is not a kind; use kind=character, kind=group or kind=environment.", Clip(c.Kind))
	}
	switch c.Side {
	case fray.SidePC, fray.SideNPC:
	default:
		return fray.Errorf(fray.EINVALID, "side=%s is not a side; use side=pc or side=npc.", Clip(c.Side))
	}
	if c.Group != "" {
		if err := CheckName(c.Group); err != nil {
			return fray.Errorf(fray.EINVALID, "group=: %s", fray.Quote(err))
		}
	}
	if len(c.Notes) > MaxNotesLen {
		return fray.Errorf(fray.ETOOLARGE, "%s's notes are longer than %d bytes (MaxNotesLen).", c, MaxNotesLen)
	}
	for what, n := range map[string]int{"stats": len(c.Stats), "tracks": len(c.Tracks), "powers": len(c.Powers), "expertise": len(c.Expertise), "protections": len(c.Protection), "qualities": len(c.Qualities), "conditions": len(c.Conditions)} {
		if n > MaxSheetItems {
			return fray.Errorf(fray.ETOOLARGE, "%s has %d %s, more than %d (MaxSheetItems).", c, n, what, MaxSheetItems)
		}
	}
	num := func(what string, n int) error {
		if n < -MaxStat || n > MaxStat {
			return fray.Errorf(fray.EINVALID, "%s's %s is %d, outside -%d to %d (MaxStat).", c, Clip(what), n, MaxStat, MaxStat)
		}
		return nil
	}
	track := func(what string, n int) error {
		if n < -MaxTrack || n > MaxTrack {
			return fray.Errorf(fray.EINVALID, "%s's %s is %d, outside -%d to %d (MaxTrack).", c, Clip(what), n, MaxTrack, MaxTrack)
		}
		return nil
	}
	key := func(what, k string) error {
		if k == "" || len(k) > MaxNameLen || k != strings.ToLower(k) || strings.ContainsFunc(k, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return fray.Errorf(fray.EINVALID, "%s has a %s named %q, which is not a lower-case name of 1 to %d bytes.", c, what, Clip(k), MaxNameLen)
		}
		return nil
	}
	for k, v := range c.Stats {
		if err := firstErr(key("stat", k), num(k, v)); err != nil {
			return err
		}
	}
	for k, t := range c.Tracks {
		if err := firstErr(key("track", k), track(k, t.Value), track(k+" maximum", t.Max)); err != nil {
			return err
		}
	}
	for k, v := range c.Protection {
		if err := firstErr(key("protection", k), num(k, v)); err != nil {
			return err
		}
	}
	for k, v := range c.Qualities {
		if err := CheckName(k); err != nil {
			return fray.Errorf(fray.EINVALID, "%s has a quality whose name is refused: %s", c, fray.Quote(err))
		}
		if err := num(k, v); err != nil {
			return err
		}
	}
	for _, p := range c.Powers {
		if err := CheckName(p.Name); err != nil {
			return fray.Errorf(fray.EINVALID, "%s has a power whose name is refused: %s", c, fray.Quote(err))
		}
		if err := num(p.Name, p.Rank); err != nil {
			return err
		}
	}
	for _, x := range c.Expertise {
		if err := CheckName(x); err != nil {
			return fray.Errorf(fray.EINVALID, "%s has an expertise whose name is refused: %s", c, fray.Quote(err))
		}
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
