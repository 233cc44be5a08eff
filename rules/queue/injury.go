package queue

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// This file is the Injuries: which one damage gives, and injury NAME
// … choosing those still to choose.

// freeInjuries returns the Injuries f has not taken yet, in order.
func freeInjuries(f *Fighter) []string {
	var out []string
	for _, i := range Injuries() {
		if f == nil || !slices.Contains(f.Injuries, i) {
			out = append(out, i)
		}
	}
	return out
}

// injuryOpt reads injury=NAME of a command that deals damage (attack,
// damage) to c, with hp hit points left: an Injury they
// can still take, given only when they are Incapacitated already.
// Damage to one Incapacitated whose Injuries to choose are already as
// many as are left is refused until they are chosen: each Injury is
// taken once, so there would be none to give. (The third Injury gives
// all that are left at once, so only a log recorded before it did can
// hold so many to choose.)
func (s *State) injuryOpt(cmd fray.Command, c *fray.Combatant, hp int, what string) (string, error) {
	name := c.Name
	f := s.fighter(c.ID)
	free := freeInjuries(f)
	if hp == 0 && f != nil && f.Pending > 0 && f.Pending >= len(free) {
		return "", fray.Errorf(fray.EINVALID, "%s has %d Injuries to choose, as many as are left; choose them first: injury %s %s.", fray.Mention(name), f.Pending, kit.QuoteName(name), strings.Join(free, " "))
	}
	v, ok := cmd.Opts[KeyInjury]
	if !ok {
		return "", nil
	}
	inj := strings.ToLower(v)
	if !slices.Contains(free, inj) {
		return "", fray.Errorf(fray.EINVALID, "injury=%s: %s can still take %s.", engine.Clip(v), fray.Mention(name), strings.Join(free, ", "))
	}
	if hp > 0 {
		return "", fray.Errorf(fray.EINVALID, "%s is not Incapacitated, so this %s gives no Injury; leave injury= out.", fray.Mention(name), what)
	}
	return inj, nil
}

// injuriesFor returns the Injury damage gives c, already Incapacitated
// the one given (injury=), else "" — to
// choose, until injury NAME … chooses it. The third Injury, counting
// those still to choose, leaves no choice: each Injury is taken once, so
// three are all three. It is then the one given or else the first left,
// and rest holds the others left, given at once for those still to
// choose (injured).
func (s *State) injuriesFor(c *fray.Combatant, given string) (injury string, rest []string) {
	f := s.fighter(c.ID)
	taken := 0
	if f != nil {
		taken = len(f.Injuries) + f.Pending
	}
	if taken+1 < len(Injuries()) {
		return given, nil
	}
	for _, i := range freeInjuries(f) {
		if i != given {
			rest = append(rest, i)
		}
	}
	if given == "" {
		given, rest = rest[0], rest[1:]
	}
	return given, rest
}

// injured records in tx the choice of each Injury of rest for the
// combatant id (injuriesFor).
func injured(tx *txn, id fray.CombatantID, rest []string) error {
	for _, inj := range rest {
		if err := tx.Emit(EventInjured, injuryData{Name: id, Injury: inj}); err != nil {
			return err
		}
	}
	return nil
}

// thirdInjury lists the Injuries a third one makes: those taken before
// (all but free), then injury and rest.
func thirdInjury(free []string, injury string, rest []string) []string {
	var out []string
	for _, i := range Injuries() {
		if !slices.Contains(free, i) {
			out = append(out, i)
		}
	}
	return append(append(out, injury), rest...)
}

// decideInjury decides injury NAME scarred|maimed|dead …: the choice of
// one or more of the Injuries the combatant has taken and not chosen yet
// an event for each.
func (s *State) decideInjury(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	f := s.fighter(c.ID)
	if f == nil || f.Pending == 0 {
		return fray.Errorf(fray.EINVALID, "%s has no Injury to choose; an Injury comes from damage taken while Incapacitated.", c)
	}
	free := freeInjuries(f)
	chosen := cmd.Args[1:]
	if len(chosen) > f.Pending {
		return fray.Errorf(fray.EINVALID, "%s has %s to choose, not %d.", c, injuriesToChoose(f.Pending), len(chosen))
	}
	for i, arg := range chosen {
		inj := strings.ToLower(arg)
		switch {
		case slices.ContainsFunc(chosen[:i], func(a string) bool { return strings.EqualFold(a, inj) }):
			return fray.Errorf(fray.EINVALID, "injury names %s twice; each Injury is taken once.", inj)
		case !slices.Contains(free, inj):
			return fray.Errorf(fray.EINVALID, "%s is already %s; each Injury is taken once: choose %s.", c, inj, strings.Join(free, " or "))
		}
		if err := tx.Emit(EventInjured, injuryData{Name: c.ID, Injury: inj}); err != nil {
			return err
		}
	}
	return nil
}

// injuriesToChoose says how many Injuries are to choose: "an Injury",
// "2 Injuries".
func injuriesToChoose(n int) string {
	if n == 1 {
		return "an Injury"
	}
	return strconv.Itoa(n) + " Injuries"
}
