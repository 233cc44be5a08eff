package kit

import "fray"

// SimAttacks appends to buf an attack move (fray.SimAttack) by a on each
// standing foe with each of the attacks withs names (a's powers, weapons
// or traits), and returns the slice. A foe is a combatant of the other
// side that is not environment and not down. Each move's command is
// "WORD A B KEY=WITH", such as attack Ann Bo with=sword; the moves share
// their words, which nobody changes.
func SimAttacks(buf []fray.SimMove, enc *fray.Encounter, a *fray.Combatant,
	down func(*fray.Combatant) bool, withs []string, word, key string) []fray.SimMove {
	if len(withs) == 0 {
		return buf
	}
	opts := make([]map[string]string, len(withs))
	for i, w := range withs {
		opts[i] = map[string]string{key: w}
	}
	for _, b := range enc.Combatants {
		if b.Side == a.Side || b.Kind == fray.KindEnvironment || down(b) {
			continue
		}
		args := []string{a.Name, b.Name}
		for i := range withs {
			buf = append(buf, fray.SimMove{Kind: fray.SimAttack, Actor: a.ID, Target: b.ID,
				Cmd: fray.Command{Name: word, Args: args, Opts: opts[i]}})
		}
	}
	return buf
}

// SimPowers returns the names of c's powers and weapons that attack by
// attacks.
func SimPowers(c *fray.Combatant, attacks func(*fray.Power) bool) []string {
	var out []string
	for i := range c.Powers {
		if attacks(&c.Powers[i]) {
			out = append(out, c.Powers[i].Name)
		}
	}
	return out
}
