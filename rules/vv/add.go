package vv

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// decideAdd takes the resolution keys of add (hp=, attack=, protection=)
// out of the command, lets the shared add decide the rest, and puts the
// numbers in the added combatant. handled is false when add has none.
func (s *State) decideAdd(cmd fray.Command) (evs []fray.Event, handled bool, err error) {
	_, hasHP := cmd.Opts[KeyHP]
	_, hasAttack := cmd.Opts[KeyAttack]
	_, hasProt := cmd.Opts[KeyProtection]
	if !hasHP && !hasAttack && !hasProt {
		return nil, false, nil
	}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	delete(shared.Opts, KeyHP)
	delete(shared.Opts, KeyAttack)
	delete(shared.Opts, KeyProtection)
	evs, _, err = engine.DecideShared(&s.Encounter, shared, spec)
	if err != nil {
		return nil, true, err
	}
	var d fray.AddedData
	if err := evs[0].Decode(&d); err != nil {
		return nil, true, err
	}
	c := &d.Combatant
	if v, ok := cmd.Opts[KeyHP]; ok {
		n := number(v)
		c.Tracks = map[string]fray.Track{TrackHitPoints: {Value: n, Max: n}}
	}
	if v, ok := cmd.Opts[KeyAttack]; ok {
		if c.Powers, err = parseAttacks(v); err != nil {
			return nil, true, err
		}
	}
	if v, ok := cmd.Opts[KeyProtection]; ok {
		if c.Protection, err = parseProtection(v); err != nil {
			return nil, true, err
		}
	}
	ev, err := fray.NewEvent(fray.EventAdded, d)
	if err != nil {
		return nil, true, err
	}
	return []fray.Event{ev}, true, nil
}

// MaxAttacks is the most attacks add … attack= may list.
const MaxAttacks = 10

// parseAttacks reads attack=NAME:DICE:TYPE:SCORE[:close|ranged][,…]: each
// attack power, and a skill named after its damage type with the score.
func parseAttacks(v string) ([]fray.Power, error) {
	parts := strings.Split(v, ",")
	if len(parts) > MaxAttacks {
		return nil, fray.Errorf(fray.ETOOLARGE, "attack= lists %d attacks; the limit (MaxAttacks) is %d.", len(parts), MaxAttacks)
	}
	bad := func(why string) error {
		return fray.Errorf(fray.EINVALID, "attack=%s: %s; write each attack as NAME:DICE:TYPE:SCORE[:close|ranged], such as Punch:1d4:kinetic:12:close.", engine.Clip(v), why)
	}
	var pws, skills []fray.Power
	for _, p := range parts {
		f := strings.Split(strings.TrimSpace(p), ":")
		if len(f) < 4 || len(f) > 5 || f[0] == "" || len(f[0]) > 40 {
			return nil, bad("an attack has a name of at most 40 bytes and four or five parts")
		}
		if _, err := damageDist(f[1]); err != nil {
			return nil, bad(strconv.Quote(engine.Clip(f[1])) + " is not damage dice")
		}
		typ := strings.ToLower(f[2])
		if !slices.Contains(DamageTypes(), typ) {
			return nil, bad(strconv.Quote(engine.Clip(f[2])) + " is not a damage type (" + strings.Join(DamageTypes(), ", ") + ")")
		}
		score, err := strconv.Atoi(f[3])
		if err != nil || score < -100 || score > 100 {
			return nil, bad(strconv.Quote(engine.Clip(f[3])) + " is not a skill score from -100 to 100")
		}
		pw := fray.Power{Name: f[0], Kind: fray.PowerKindPower, Damage: typ, Dice: f[1], Skill: typ}
		if len(f) == 5 {
			pw.Range = strings.ToLower(f[4])
			if pw.Range != "close" && pw.Range != "ranged" {
				return nil, bad(strconv.Quote(engine.Clip(f[4])) + " is neither close nor ranged")
			}
		}
		if slices.ContainsFunc(pws, func(x fray.Power) bool { return fray.SameName(x.Name, pw.Name) }) {
			return nil, bad("it names " + pw.Name + " twice")
		}
		if i := slices.IndexFunc(skills, func(x fray.Power) bool { return x.Name == typ }); i >= 0 {
			if skills[i].Rank != score {
				return nil, bad("two " + typ + " attacks give two skill scores; the score is per attack type")
			}
		} else {
			skills = append(skills, fray.Power{Name: typ, Kind: fray.PowerKindSkill, Rank: score})
		}
		pws = append(pws, pw)
	}
	return append(pws, skills...), nil
}

// parseProtection reads protection=TYPE:N[,…].
func parseProtection(v string) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range strings.Split(v, ",") {
		typ, n, ok := strings.Cut(strings.TrimSpace(p), ":")
		typ = strings.ToLower(typ)
		k, err := strconv.Atoi(n)
		if !ok || err != nil || k < 0 || k > 1000 || !slices.Contains(DamageTypes(), typ) {
			return nil, fray.Errorf(fray.EINVALID, "protection=%s: write TYPE:N[,TYPE:N], a damage type (%s) and a whole number from 0 to 1000.", engine.Clip(v), strings.Join(DamageTypes(), ", "))
		}
		if _, dup := out[typ]; dup {
			return nil, fray.Errorf(fray.EINVALID, "protection=%s names %s twice.", engine.Clip(v), typ)
		}
		out[typ] = k
	}
	return out, nil
}
