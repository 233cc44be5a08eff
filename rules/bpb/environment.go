package bpb

import (
	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The environment's turn (SPEC B-5; seed 000: "Any falling objects
// (including characters) fall, and any free-rolling vehicles move, after
// all characters have had the opportunity to use their actions … If any
// object or vehicle is under direct control by a character, then the
// object or vehicle will move when that character moves it or at the end
// of the round, at the character's option. If a character chooses not
// to control a vehicle, then the vehicle will move at the end of the
// round."): a vehicle is an environment participant, which a character
// may control, and a fall is a condition that ends with the
// environment's turn.

// Event types of the environment's turn. They are wire strings: never
// rename one.
const (
	EventControlled = "bpb.controlled" // a character takes or gives up control of a vehicle; data: controlData
	EventMoved      = "bpb.moved"      // a controlled vehicle moves on its controller's turn; data: movedData
)

// CondFalling is the condition of a falling character or object: it
// falls on the environment's turn, at whose end the condition ends (B-5).
// It is a wire string.
const CondFalling = "falling"

type controlData struct {
	Vehicle fray.CombatantID `json:"vehicle"`
	// By is the controller; "" gives control up.
	By fray.CombatantID `json:"by,omitempty"`
}

type movedData struct {
	Vehicle fray.CombatantID `json:"vehicle"`
	By      fray.CombatantID `json:"by"`
	Note    string           `json:"note,omitempty"`
}

// Vehicle is an environment participant under a character's control.
type Vehicle struct {
	// By is the controlling character.
	By fray.CombatantID `json:"by"`
	// Moved is the last round in which it moved on its controller's
	// turn; 0 for none.
	Moved int `json:"moved,omitempty"`
}

// vehicle looks up an environment participant.
func (s *State) vehicle(name string) (*fray.Combatant, error) {
	v, err := s.Lookup(name)
	if err != nil {
		return nil, err
	}
	if v.Kind != fray.KindEnvironment {
		return nil, fray.Errorf(fray.EINVALID, "%s is no vehicle or object: add it with kind=environment.", v)
	}
	return v, nil
}

// controller returns who controls the vehicle id, if they are present.
func (s *State) controller(id fray.CombatantID) *fray.Combatant {
	x, ok := s.Vehicles[id]
	if !ok {
		return nil
	}
	return s.ByID(x.By)
}

// decideControl decides "control VEHICLE [by=NAME]": NAME takes control
// of the vehicle; without by=, nobody controls it, and it moves on its
// own turn at the end of the round.
func (s *State) decideControl(tx *txn, cmd fray.Command) error {
	v, err := s.vehicle(cmd.Arg(0))
	if err != nil {
		return err
	}
	by, ok := cmd.Opts["by"]
	if !ok {
		if s.controller(v.ID) == nil {
			return fray.Errorf(fray.EINVALID, "Nobody controls %s; give by=NAME to say who does.", v)
		}
		return tx.Emit(EventControlled, controlData{Vehicle: v.ID})
	}
	c, err := s.Lookup(by)
	if err != nil {
		return err
	}
	switch {
	case c.Kind == fray.KindEnvironment:
		return fray.Errorf(fray.EINVALID, "%s is part of the environment; a character controls a vehicle.", c)
	case s.controller(v.ID) == c:
		return fray.Errorf(fray.EINVALID, "%s already controls %s.", c, v)
	}
	return tx.Emit(EventControlled, controlData{Vehicle: v.ID, By: c.ID})
}

// decideMove decides "move VEHICLE [note=TEXT]": the vehicle moves now,
// on its controller's turn, instead of at the end of the round; once a
// round.
func (s *State) decideMove(tx *txn, cmd fray.Command) error {
	if err := s.needStarted(); err != nil {
		return err
	}
	v, err := s.vehicle(cmd.Arg(0))
	if err != nil {
		return err
	}
	c := s.controller(v.ID)
	if c == nil {
		return fray.Errorf(fray.EINVALID, "Nobody controls %s, so it moves on its own turn at the end of the round (control %s by=NAME gives it a driver).", v, kit.QuoteName(v.Name))
	}
	t := s.current()
	switch {
	case t == nil || t.ID != c.ID:
		return fray.Errorf(fray.EINVALID, "%s moves on %s's turn or at the end of the round; it is not %s's turn.", v, c, c)
	case s.Vehicles[v.ID].Moved == s.Round:
		return fray.Errorf(fray.EINVALID, "%s has already moved this round.", v)
	}
	if err := active(c, "move "+v.Name); err != nil {
		return err
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	return tx.Emit(EventMoved, movedData{Vehicle: v.ID, By: c.ID, Note: note})
}

// decideFall decides "fall NAME [note=TEXT]": NAME is falling, and falls
// on the environment's turn (the first environment participant's turn
// still to come this round, or the one in progress), whose end ends the
// condition; with no environment turn left, at the end of the round.
func (s *State) decideFall(tx *txn, cmd fray.Command) error {
	if err := s.needStarted(); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	if note == "" {
		note = "falls on the environment's turn"
	}
	until := &fray.Anchor{Round: s.Round, Edge: fray.EdgeEnd}
	for i := s.Pos; i < len(s.Seq); i++ {
		if t := s.Seq[i]; t.Env && t.Mark == markPending {
			until.Name, until.ID = s.NameOf(t.ID), t.ID
			break
		}
	}
	if c.Condition(CondFalling) == nil && len(c.Conditions) >= engine.MaxConditions {
		return fray.Errorf(fray.ETOOLARGE, "%s already holds %d conditions, the limit (MaxConditions).", c, engine.MaxConditions)
	}
	return tx.Emit(fray.EventCondition, fray.ConditionData{Who: c.ID,
		Condition: fray.Condition{Name: CondFalling, Since: s.Round, Until: until, Note: note}})
}

// applyEnvironment applies the events of the environment's turn.
func (s *State) applyEnvironment(ev fray.Event) error {
	switch ev.Type {
	case EventControlled:
		var d controlData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.ByID(d.Vehicle) == nil || (d.By != "" && s.ByID(d.By) == nil) {
			return fray.Errorf(fray.EINVALID, "Event %d gives control of %s to someone not present.", ev.Seq, s.mention(d.Vehicle))
		}
		if s.Vehicles == nil {
			s.Vehicles = map[fray.CombatantID]Vehicle{}
		}
		if d.By == "" {
			delete(s.Vehicles, d.Vehicle)
			return nil
		}
		x := s.Vehicles[d.Vehicle]
		x.By = d.By
		s.Vehicles[d.Vehicle] = x
	case EventMoved:
		var d movedData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		x, ok := s.Vehicles[d.Vehicle]
		if !ok || x.By != d.By {
			return fray.Errorf(fray.EINVALID, "Event %d moves %s, which %s does not control.", ev.Seq, s.mention(d.Vehicle), s.mention(d.By))
		}
		x.Moved = s.Round
		s.Vehicles[d.Vehicle] = x
	}
	return nil
}

// vehicleNote says how the vehicle whose turn t is moves this round:
// "moved on Blueshift's turn", "controlled by Blueshift", or "" for no
// vehicle; and whom it names.
func (s *State) vehicleNote(t Turn) (string, []string) {
	c := s.controller(t.ID)
	if !t.Env || c == nil {
		return "", nil
	}
	if s.Vehicles[t.ID].Moved == s.Round {
		return "moved on " + c.Name + "'s turn", []string{c.Name}
	}
	return "controlled by " + c.Name + ": moves now unless moved on their turn", []string{c.Name}
}

// dropVehicle forgets the vehicle id, or the control of every vehicle id
// controls, when id is removed.
func (s *State) dropVehicle(id fray.CombatantID) {
	delete(s.Vehicles, id)
	for v, x := range s.Vehicles {
		if x.By == id {
			delete(s.Vehicles, v)
		}
	}
}
