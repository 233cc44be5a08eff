package queue

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Zones (seed 004): "distances are handled in abstract Zones", and
// "traversing the battlefield" is a Minor action. A combatant's zone is
// the stat zone= (a whole number, add NAME zone=2), which the GM may
// leave unrecorded; move [NAME] zone=N is the current actor's Minor
// action that takes them to zone N. The zone matters where the seed says
// it does: Johann suffers the damage "instead of an ally in his zone", so
// a reaction on an ally's behalf (react NAME to=NAME for=ALLY) needs the
// ally in the reactor's zone when both zones are recorded.

// StatZone is the stat that holds a combatant's zone.
const StatZone = "zone"

// EventMoved is the event of a move to another zone; data: movedData. It
// follows the EventActed of the Minor action the move takes. It is a wire
// string: never rename it.
const EventMoved = "queue.moved"

// KeyZone is move's key for the zone moved to; KeyFor is react's key for
// the ally on whose behalf a reaction is taken.
const (
	KeyZone = "zone"
	KeyFor  = "for"
)

// Zones are whole numbers in the range add takes for every stat.
const (
	minZone = -1000
	maxZone = 1000
)

type movedData struct {
	Name fray.CombatantID `json:"name"`
	Zone int              `json:"zone"`
}

// zoneOf returns c's zone, and whether one is recorded.
func zoneOf(c *fray.Combatant) (int, bool) {
	z, ok := c.Stats[StatZone]
	return z, ok
}

// zoneWords says c's zone for the order ("zone 2"), or "" when none is
// recorded.
func zoneWords(c *fray.Combatant) string {
	if z, ok := zoneOf(c); ok {
		return "zone " + strconv.Itoa(z)
	}
	return ""
}

// decideMove decides move [NAME] zone=N [note=TEXT]: the current actor's
// Minor action of traversing the battlefield, an EventActed, and
// the move itself, an EventMoved.
func (s *State) decideMove(tx *txn, cmd fray.Command) error {
	v := cmd.Opts[KeyZone]
	zone, err := strconv.Atoi(v)
	if err != nil || zone < minZone || zone > maxZone {
		return fray.Errorf(fray.EINVALID, "zone=%s is not a whole number from %d to %d.", engine.Clip(v), minZone, maxZone)
	}
	act := fray.Command{Name: "act", Args: []string{Minor}, Opts: map[string]string{}}
	if len(cmd.Args) == 1 {
		act.Args = []string{cmd.Args[0], Minor}
	}
	if note, ok := cmd.Opts["note"]; ok {
		act.Opts["note"] = note
	}
	cur, kind, note, err := s.checkAct(act)
	if err != nil {
		return err
	}
	if z, ok := zoneOf(cur); ok && z == zone {
		return fray.Errorf(fray.EINVALID, "%s is already in zone %d.", cur, zone)
	}
	tx.Room = 2
	if err := s.act(tx, cur, kind, note); err != nil {
		return err
	}
	return tx.Emit(EventMoved, movedData{Name: cur.ID, Zone: zone})
}

// applyMoved applies an EventMoved: the combatant's zone is the new one.
func (s *State) applyMoved(ev fray.Event) error {
	var d movedData
	if err := ev.Decode(&d); err != nil {
		return err
	}
	c := s.ByID(d.Name)
	if c == nil {
		return fray.Errorf(fray.EINVALID, "Event %d moves %s, who is not in the encounter.", ev.Seq, d.Name)
	}
	kit.SetStat(c, StatZone, d.Zone)
	return nil
}

// checkAlly checks the ally a reaction by r is taken for (react … for=):
// another than r, in r's zone when both have one recorded ("an ally in
// his zone", seed 004).
func (s *State) checkAlly(r, ally *fray.Combatant) error {
	if ally.ID == r.ID {
		return fray.Errorf(fray.EINVALID, "%s cannot react on their own behalf; for= names an ally.", r)
	}
	rz, rok := zoneOf(r)
	az, aok := zoneOf(ally)
	if rok && aok && rz != az {
		return fray.Errorf(fray.EINVALID, "%s is in zone %d and %s in zone %d; a reaction on an ally's behalf needs the ally in the reactor's zone.", r, rz, ally, az)
	}
	return nil
}
