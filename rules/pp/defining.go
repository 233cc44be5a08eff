package pp

import (
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// DefiningData is the payload of EventDefining.
type DefiningData struct {
	Who  fray.CombatantID `json:"name"`
	Cost string           `json:"cost"`
}

// decideDefining decides defining NAME reduce=TRAIT | oneshot (P-9). A hero
// may declare again before the roll, to change the cost.
func (s *State) decideDefining(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if ch := s.char(c.ID); ch == nil || ch.Role != RoleHero {
		return fray.Errorf(fray.EINVALID, "Only a hero declares a defining moment; %s is not one.", c)
	}
	r := s.record(c.ID)
	switch {
	case r != nil && r.Defined:
		return fray.Errorf(fray.EINVALID, "%s has had their defining moment this story; one per story (story begins a new one).", c)
	case s.Res.Scene != "" && s.Res.Scene != c.ID:
		return fray.Errorf(fray.EINVALID, "%s has had this scene's defining moment; one hero per scene (scene begins a new one).", fray.Mention(s.NameOf(s.Res.Scene)))
	}
	mode := s.Setting(SettingDefining, "reduce")
	red, hasReduce := cmd.Opts[KeyReduce]
	one := cmd.Arg(1) != "" // the declaration takes only oneshot
	var cost string
	switch {
	case one && hasReduce:
		return fray.Errorf(fray.EINVALID, "Choose one cost: reduce=TRAIT or oneshot.")
	case one && mode == "reduce":
		return fray.Errorf(fray.EINVALID, "The one-shot cost is not allowed here (set defining=either or defining=oneshot); say reduce=TRAIT.")
	case one || mode == "oneshot" && !hasReduce:
		cost = KeyOneShot
	case hasReduce && mode == "oneshot":
		return fray.Errorf(fray.EINVALID, "In a one-shot game a defining moment costs Health and −2d (defining=oneshot); leave reduce= out.")
	case !hasReduce:
		return fray.Errorf(fray.EINVALID, "Say which ability %s gives up 1d of afterwards: reduce=might (physical: agility, might, toughness; mental: intellect, perception, willpower).", c)
	default:
		cost = strings.ToLower(red)
		if !isTrait(cost) {
			return fray.Errorf(fray.EINVALID, "reduce=%s is not an ability; use agility, might or toughness (physical) or intellect, perception or willpower (mental).", engine.Clip(red))
		}
		if c.Stat(cost) < 1 {
			return fray.Errorf(fray.EINVALID, "%s has no %s dice to give up.", c, cost)
		}
	}
	return tx.Emit(EventDefining, DefiningData{Who: c.ID, Cost: cost})
}
