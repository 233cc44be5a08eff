package pp

import (
	"strconv"

	"fray"
	"fray/rules/kit"
)

// Event types of the GM's damage and healing. They are wire strings: never
// rename one.
const (
	EventDamaged = "pp.damaged" // Health (or minions) lost at the GM's word; data: HarmData
	EventHealed  = "pp.healed"  // Health (or minions) regained at the GM's word; data: HarmData
)

// HarmData is the payload of EventDamaged and EventHealed.
type HarmData struct {
	Who fray.CombatantID `json:"name"`
	// Asked is the N the GM gave; N is what it took or gave back: no more
	// Health than is left (damage) or was lost (heal), and for minions
	// no more than are standing or defeated.
	Asked int `json:"asked"`
	N     int `json:"n"`
	// Minion reports that N counts minions, not Health.
	Minion bool `json:"minion,omitempty"`
	// Defeats reports that the damage takes the last Health (or minion):
	// defeated (P-10).
	Defeats bool `json:"defeats,omitempty"`
}

// standing returns what the combatant id can still lose (P-10): their
// Health left, or, for minions, how many are standing; minion reports the
// latter.
func (s *State) standing(id fray.CombatantID) (left int, minion bool) {
	if ch := s.char(id); ch != nil && ch.Minion {
		down := 0
		if r := s.record(id); r != nil {
			down = r.Down
		}
		n := minionCount(s.ByID(id))
		return n - min(down, n), true
	}
	return s.healthLeft(id), false
}

// harmable refuses harm to someone who cannot take it: already defeated,
// or, not being minions, without Health (P-10). An attack and the GM's
// damage both ask it.
func (s *State) harmable(c *fray.Combatant) error {
	if s.isDefeated(c) {
		return fray.Errorf(fray.EINVALID, "%s is already defeated.", c)
	}
	if ch := s.char(c.ID); (ch == nil || !ch.Minion) && Health(c) <= 0 {
		return fray.Errorf(fray.EINVALID, "%s has no Health to lose; add them with health=N or their traits.", c)
	}
	return nil
}

// harm takes n Health (or, for minions, n minions) off the record of the
// combatant id; a negative n gives them back. An attack, Resolve spent on
// one, and the GM's damage and heal all go through it, so that Defeated
// and the view agree whichever did it.
func (s *State) harm(id fray.CombatantID, minion bool, n int) {
	r := s.ensureRecord(id)
	if minion {
		r.Down += n
	} else {
		r.Wounds += n
	}
}

// forgetLast ends the chance to spend Resolve on the last roll.
func (s *State) forgetLast() {
	s.Res.HasLast, s.Res.LastOf = false, LastCheck
	s.Res.Last, s.Res.LastExchange, s.Res.Before = CheckData{}, ExchangeData{}, Contest{}
	s.Res.LastAssist, s.Res.LastGroup, s.Res.Sides = AssistData{}, GroupData{}, SidesData{}
}

// decideHarm decides damage NAME N and heal NAME N, the GM's word (P-10):
// Health lost or regained — for minions, N defeated or brought back. It
// is no action and may come at any time.
func (s *State) decideHarm(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(cmd.Arg(1)) // the declaration bounds it
	left, minion := s.standing(c.ID)
	d := HarmData{Who: c.ID, Asked: n, Minion: minion}
	if cmd.Name == "damage" {
		if err := s.harmable(c); err != nil {
			return err
		}
		d.N = min(n, left)
		d.Defeats = d.N == left
		return tx.Emit(EventDamaged, d)
	}
	whole := minionCount(c)
	if !minion {
		whole = Health(c)
		if whole <= 0 {
			return fray.Errorf(fray.EINVALID, "%s has no Health to regain; add them with health=N or their traits.", c)
		}
	}
	if left >= whole {
		if minion {
			return fray.Errorf(fray.EINVALID, "None of %s's %d minions is defeated; there is nothing to heal.", c, whole)
		}
		return fray.Errorf(fray.EINVALID, "%s has all their Health (%d); there is nothing to heal.", c, whole)
	}
	d.N = min(n, whole-left)
	return tx.Emit(EventHealed, d)
}

// applyHarm applies EventDamaged and EventHealed; handled is false for
// other events.
func (s *State) applyHarm(ev fray.Event) (handled bool, err error) {
	if ev.Type != EventDamaged && ev.Type != EventHealed {
		return false, nil
	}
	var d HarmData
	if err := ev.Decode(&d); err != nil {
		return true, err
	}
	c := s.ByID(d.Who)
	if c == nil || d.N < 1 {
		return true, fray.Errorf(fray.EINVALID, "Event %d harms or heals %s, who is not present.", ev.Seq, d.Who)
	}
	left, minion := s.standing(c.ID)
	if ev.Type == EventDamaged {
		s.harm(c.ID, minion, min(d.N, left))
		return true, nil
	}
	// Healing counts from what is left, however far past 0 the harm went,
	// and never gives back more than the whole.
	whole := minionCount(c)
	if !minion {
		whole = Health(c)
	}
	r := s.ensureRecord(c.ID)
	if minion {
		r.Down = whole - min(whole, left+d.N)
	} else {
		// Healing gives back the Health a one-shot defining moment took
		// first, so the story's end gives back only what is still gone.
		was := r.Wounds
		r.Wounds = whole - min(whole, left+d.N)
		r.Took -= min(r.Took, max(0, was-r.Wounds))
	}
	// Resolve spent on an attack on them after this would settle its harm
	// again against Health it no longer took: the chance is over.
	if s.Res.HasLast && s.Res.LastOf == LastCheck && s.Res.Last.Kind == KindAttack && s.Res.Last.Opponent == c.ID {
		s.forgetLast()
	}
	return true, nil
}
