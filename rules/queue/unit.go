package queue

// MarshalText writes the unit as the key a payload gives it (unitKey):
// the group's name after groupKey, or the combatant's id. It lets a
// state's map of units be encoded in a snapshot (engine.Snapshot).
func (u Unit) MarshalText() ([]byte, error) {
	if u.Group != "" {
		return []byte(groupKey + u.Group), nil
	}
	return []byte(u.ID), nil
}

// UnmarshalText reads a unit written by MarshalText.
func (u *Unit) UnmarshalText(b []byte) error {
	*u = unitAt(string(b))
	return nil
}
