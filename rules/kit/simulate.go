package kit

import (
	"slices"
	"sync"
	"sync/atomic"

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
	// The standing foes' indexes, each foe asked about once.
	var fbuf [16]int
	foes := fbuf[:0]
	for j, b := range enc.Combatants {
		if b.Side != a.Side && b.Kind != fray.KindEnvironment && !down(b) {
			foes = append(foes, j)
		}
	}
	if len(foes) == 0 {
		return buf
	}
	var obuf [4]map[string]string
	opts := obuf[:0]
	for _, w := range withs {
		opts = append(opts, simOpt(key, w))
	}
	// The words of every move, two to a foe, in one allocation.
	words := make([]string, 0, 2*len(foes))
	buf = slices.Grow(buf, len(foes)*len(withs))
	for _, j := range foes {
		b := enc.Combatants[j]
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

// simOpts holds the option maps simOpt made, by {key, value}; simOptsN
// counts them. A sync.Map, so that workers reading it side by side do
// not write to one shared lock.
var (
	simOpts  sync.Map
	simOptsN atomic.Int32
)

// simOpt returns the options {key: value} of a simulated move. The maps
// are shared by every move that gives the same option, and nobody
// changes them (see SimAttacks), so each is made once.
func simOpt(key, value string) map[string]string {
	k := [2]string{key, value}
	if m, ok := simOpts.Load(k); ok {
		return m.(map[string]string)
	}
	m := map[string]string{key: value}
	// A place among the maxSimOpts is taken before storing, and given
	// back when the map is not stored after all.
	if simOptsN.Add(1) > maxSimOpts {
		simOptsN.Add(-1)
		return m
	}
	old, loaded := simOpts.LoadOrStore(k, m)
	if loaded {
		simOptsN.Add(-1)
	}
	return old.(map[string]string)
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
