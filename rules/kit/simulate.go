package kit

import (
	"slices"
	"sync"

	"fray"
)

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
	foe := func(b *fray.Combatant) bool {
		return b.Side != a.Side && b.Kind != fray.KindEnvironment && !down(b)
	}
	foes := 0
	for _, b := range enc.Combatants {
		if foe(b) {
			foes++
		}
	}
	if foes == 0 {
		return buf
	}
	var obuf [4]map[string]string
	opts := obuf[:0]
	for _, w := range withs {
		opts = append(opts, simOpt(key, w))
	}
	// The words of every move, two to a foe, in one allocation.
	words := make([]string, 0, 2*foes)
	buf = slices.Grow(buf, foes*len(withs))
	for _, b := range enc.Combatants {
		if !foe(b) {
			continue
		}
		words = append(words, a.Name, b.Name)
		args := words[len(words)-2 : len(words) : len(words)]
		for i := range withs {
			buf = append(buf, fray.SimMove{Kind: fray.SimAttack, Actor: a.ID, Target: b.ID,
				Cmd: fray.Command{Name: word, Args: args, Opts: opts[i]}})
		}
	}
	return buf
}

// maxSimOpts caps how many option maps simOpt keeps: past it, it makes
// a new one each time.
const maxSimOpts = 1024

var (
	simOptsMu sync.RWMutex
	simOpts   = map[[2]string]map[string]string{} // by {key, value}
)

// simOpt returns the options {key: value} of a simulated move. The maps
// are shared by every move that gives the same option, and nobody
// changes them (see SimAttacks), so each is made once.
func simOpt(key, value string) map[string]string {
	k := [2]string{key, value}
	simOptsMu.RLock()
	m, ok := simOpts[k]
	simOptsMu.RUnlock()
	if ok {
		return m
	}
	m = map[string]string{key: value}
	simOptsMu.Lock()
	defer simOptsMu.Unlock()
	if old, ok := simOpts[k]; ok {
		return old
	}
	if len(simOpts) < maxSimOpts {
		simOpts[k] = m
	}
	return m
}

// SimPowers returns the names of c's powers and weapons that attack by
// attacks.
func SimPowers(c *fray.Combatant, attacks func(*fray.Power) bool) []string {
	return AppendSimPowers(nil, c, attacks)
}

// AppendSimPowers appends to buf the names SimPowers returns, and returns
// the slice.
func AppendSimPowers(buf []string, c *fray.Combatant, attacks func(*fray.Power) bool) []string {
	out := buf
	for i := range c.Powers {
		if attacks(&c.Powers[i]) {
			out = append(out, c.Powers[i].Name)
		}
	}
	return out
}
