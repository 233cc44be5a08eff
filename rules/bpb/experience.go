package bpb

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

type awardData struct {
	Name   fray.CombatantID `json:"name"`
	Award  string           `json:"award"`
	Points int              `json:"points"`
}

type spendData struct {
	Name   fray.CombatantID `json:"name"`
	Points int              `json:"points"`
	On     string           `json:"on"`
	// New says On is a stat or power the character did not have, bought
	// at rank Points; a new power has Range and Damage (B-12).
	New    bool   `json:"new,omitempty"`
	Range  string `json:"range,omitempty"`
	Damage string `json:"damage,omitempty"`
}

// Awards of B-12 and their points. They are wire strings.
var awards = map[string]int{
	"showed":       0, // showed up for the game
	"enthusiastic": 1, // played the game enthusiastically
	"concluded":    1, // concluded a lengthy series of games
	"lowest":       1, // has the lowest experience in the group
	"roleplayed":   1, // role-played exceptionally: one player
	"clever":       1, // was clever and inventive: one other player
	AwardFlat:      2, // the seed's "just give each player two experience points"; points= says otherwise
}

var awardNames = []string{"showed", "enthusiastic", "concluded", "lowest", "roleplayed", "clever", AwardFlat}

// AwardFlat is the award of the same points to every player instead of
// the suggested awards (B-12). It is a wire string.
const AwardFlat = "flat"

// Options of award and spend.
const (
	KeyPoints   = "points"   // award … flat points=N: the points of a flat award
	KeyOverride = "override" // award … override=yes: the GM's word over the suggestion of one player each, two players
	KeyNew      = "new"      // spend … new=yes: a stat or power the character does not have
)

// decideAward decides "award NAME AWARD" (B-12): only player characters
// get awards; "roleplayed" and "clever" go to one player each, two
// different players; "lowest" to a player with the lowest experience;
// each award once per player.
func (s *State) decideAward(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	a := strings.ToLower(cmd.Arg(1))
	pts := awards[a]
	if v, ok := cmd.Opts[KeyPoints]; ok {
		if a != AwardFlat {
			return fray.Errorf(fray.EINVALID, "points= goes with the flat award; the %s award is worth %d.", a, pts)
		}
		pts, _ = strconv.Atoi(v) // the declaration bounds it
	}
	if !c.IsPC() {
		return fray.Errorf(fray.EINVALID, "%s is not a player character; experience goes to the players' characters.", c)
	}
	override, _ := engine.ParseYesNo(KeyOverride, cmd.Opts[KeyOverride]) // a yes or a no, as declared
	for _, x := range s.Awards {
		if x.ID == c.ID && x.Award == a {
			return fray.Errorf(fray.EINVALID, "%s already has the %s award this story arc.", c, a)
		}
		if override {
			continue // the GM's word over the seed's suggestion
		}
		if (a == "roleplayed" || a == "clever") && x.Award == a {
			return fray.Errorf(fray.EINVALID, "The %s award already went to %s; only one player gets it (override=yes: the GM's word).", a, fray.Mention(s.NameOf(x.ID)))
		}
		if (a == "roleplayed" && x.Award == "clever" || a == "clever" && x.Award == "roleplayed") && x.ID == c.ID {
			return fray.Errorf(fray.EINVALID, "%s has the %s award; roleplayed and clever go to two different players (override=yes: the GM's word).", c, x.Award)
		}
	}
	if a == "lowest" {
		mine := experience(c)
		for _, o := range s.Combatants {
			if o.IsPC() && experience(o) < mine {
				return fray.Errorf(fray.EINVALID, "%s has %d experience points, more than %s's %d; the lowest award goes to the lowest.", c, mine, o, experience(o))
			}
		}
	}
	return tx.Emit(EventAwarded, awardData{Name: c.ID, Award: a, Points: pts})
}

func experience(c *fray.Combatant) int { return c.Tracks[TrackExperience].Value }

// decideSpend decides "spend NAME N on=STAT|POWER|expertise:SKILL" (B-12):
// 1 point per rank, or 1 point for expertise.
func (s *State) decideSpend(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(cmd.Arg(1))
	if err != nil || n < 1 || n > 100 {
		return fray.Errorf(fray.EINVALID, "%s is not a number of points from 1 to 100.", cmd.Arg(1))
	}
	on := cmd.Opts["on"]
	if on == "" {
		return fray.Errorf(fray.EINVALID, "Name what to spend on: on=STAT|POWER|expertise:SKILL.")
	}
	if have := experience(c); have < n {
		return fray.Errorf(fray.EINVALID, "%s has %d unspent experience points, not %d.", c, have, n)
	}
	typed, on := on, strings.ToLower(on)
	d := spendData{Name: c.ID, Points: n, On: on}
	if yes, _ := engine.ParseYesNo(KeyNew, cmd.Opts[KeyNew]); yes {
		if err := s.spendNew(c, typed, &d, cmd); err != nil {
			return err
		}
		return tx.Emit(EventSpent, d)
	}
	if _, ok := cmd.Opts[KeyRange]; ok {
		return fray.Errorf(fray.EINVALID, "range= goes with new=yes, for a new power.")
	}
	if _, ok := cmd.Opts[KeyDamage]; ok {
		return fray.Errorf(fray.EINVALID, "damage= goes with new=yes, for a new power.")
	}
	switch {
	case strings.HasPrefix(on, "expertise:"):
		skill := strings.TrimPrefix(on, "expertise:")
		if skill == "" || len(skill) > 64 {
			return fray.Errorf(fray.EINVALID, "Name the skill: on=expertise:SKILL.")
		}
		if c.HasExpertise(skill) {
			return fray.Errorf(fray.EINVALID, "%s already has expertise in %s.", c, skill)
		}
		if n != 1 {
			return fray.Errorf(fray.EINVALID, "Expertise costs 1 point, not %d.", n)
		}
	case slices.Contains(taskStats, on):
		if _, ok := c.Stats[on]; !ok {
			return fray.Errorf(fray.EINVALID, "%s has no %s rank to raise; new=yes buys it at rank %d.", c, kit.Title(on), n)
		}
		if c.Stats[on]+n > 14 {
			return fray.Errorf(fray.EINVALID, "%s's %s would be %d; ranks go up to 14.", c, kit.Title(on), c.Stats[on]+n)
		}
	default:
		p := c.Power(on)
		if p == nil {
			return fray.Errorf(fray.ENOTFOUND, "%s has no stat, power or weapon named %q to raise (%s); new=yes buys a new power.", c, on, powerList(c))
		}
		if p.Rank+n > 14 {
			return fray.Errorf(fray.EINVALID, "%s's %s would be rank %d; ranks go up to 14.", c, p.Name, p.Rank+n)
		}
		d.On = p.Name
	}
	return tx.Emit(EventSpent, d)
}

// Options of spend … new=yes: a new power's range and damage.
const (
	KeyRange  = "range"
	KeyDamage = "damage"
)

// spendNew checks spend NAME N on=STAT|POWER new=yes (B-12: "one
// experience point can improve an attribute or power by one rank"; the
// GM "should keep a close eye on any new powers"): a stat the character
// has no rank in, or a power not on the sheet, bought at rank N.
func (s *State) spendNew(c *fray.Combatant, typed string, d *spendData, cmd fray.Command) error {
	if d.Points > 14 {
		return fray.Errorf(fray.EINVALID, "A new rank %d is past 14; ranks go up to 14.", d.Points)
	}
	if slices.Contains(taskStats, d.On) {
		if _, ok := c.Stats[d.On]; ok {
			return fray.Errorf(fray.EINVALID, "%s already has %s %d; spend without new=yes to raise it.", c, kit.Title(d.On), c.Stats[d.On])
		}
		if len(cmd.Opts[KeyRange]) > 0 || len(cmd.Opts[KeyDamage]) > 0 {
			return fray.Errorf(fray.EINVALID, "%s is a stat: range= and damage= are a power's.", kit.Title(d.On))
		}
		d.New = true
		return nil
	}
	name := strings.TrimSpace(typed)
	switch {
	case strings.HasPrefix(d.On, "expertise:"):
		return fray.Errorf(fray.EINVALID, "Expertise is bought without new=yes: on=%s.", engine.Clip(typed))
	case name == "" || len(name) > 64:
		return fray.Errorf(fray.EINVALID, "A new power's name is 1 to 64 bytes.")
	case slices.Contains(stats, d.On):
		return fray.Errorf(fray.EINVALID, "%s is a stat, not a power.", kit.Title(d.On))
	}
	if p := c.Power(name); p != nil {
		return fray.Errorf(fray.EINVALID, "%s already has %s %d; spend without new=yes to raise it.", c, p.Name, p.Rank)
	}
	d.On, d.New, d.Range, d.Damage = name, true, "close", "lethal"
	if v := cmd.Opts[KeyRange]; v != "" {
		d.Range = v
	}
	if v := cmd.Opts[KeyDamage]; v != "" {
		d.Damage = v
	}
	return nil
}

// addTrack adds n to a track's value and max (experience has no other
// maximum).
func addTrack(c *fray.Combatant, name string, n int) {
	t := c.Tracks[name]
	t.Value += n
	t.Max = max(t.Max, t.Value)
	kit.SetTrack(c, name, t)
}

// gainNew gives c the new stat or power of a spend (B-12).
func gainNew(c *fray.Combatant, d spendData) {
	if slices.Contains(taskStats, d.On) {
		kit.SetStat(c, d.On, d.Points)
		return
	}
	kit.AddPower(c, fray.Power{Name: d.On, Rank: d.Points, Range: d.Range, Damage: d.Damage})
}
