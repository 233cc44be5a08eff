package bpb

import (
	"slices"
	"strconv"
	"strings"

	"fray"
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
}

// Awards of B-12 and their points. They are wire strings.
var awards = map[string]int{
	"showed":       0, // showed up for the game
	"enthusiastic": 1, // played the game enthusiastically
	"concluded":    1, // concluded a lengthy series of games
	"lowest":       1, // has the lowest experience in the group
	"roleplayed":   1, // role-played exceptionally: one player
	"clever":       1, // was clever and inventive: one other player
}

var awardNames = []string{"showed", "enthusiastic", "concluded", "lowest", "roleplayed", "clever"}

// decideAward decides "award NAME AWARD" (B-12): only player characters
// get awards; "roleplayed" and "clever" go to one player each, two
// different players; "lowest" to a player with the lowest experience;
// each award once per player.
func (s *State) decideAward(cmd fray.Command) ([]fray.Event, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	a := strings.ToLower(cmd.Arg(1))
	pts := awards[a]
	if !c.IsPC() {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a player character; experience goes to the players' characters.", c)
	}
	for _, x := range s.Awards {
		if x.ID == c.ID && x.Award == a {
			return nil, fray.Errorf(fray.EINVALID, "%s already has the %s award this story arc.", c, a)
		}
		if (a == "roleplayed" || a == "clever") && x.Award == a {
			return nil, fray.Errorf(fray.EINVALID, "The %s award already went to %s; only one player gets it.", a, fray.Mention(s.NameOf(x.ID)))
		}
		if (a == "roleplayed" && x.Award == "clever" || a == "clever" && x.Award == "roleplayed") && x.ID == c.ID {
			return nil, fray.Errorf(fray.EINVALID, "%s has the %s award; roleplayed and clever go to two different players.", c, x.Award)
		}
	}
	if a == "lowest" {
		mine := experience(c)
		for _, o := range s.Combatants {
			if o.IsPC() && experience(o) < mine {
				return nil, fray.Errorf(fray.EINVALID, "%s has %d experience points, more than %s's %d; the lowest award goes to the lowest.", c, mine, o, experience(o))
			}
		}
	}
	ev, err := fray.NewEvent(EventAwarded, awardData{Name: c.ID, Award: a, Points: pts})
	return []fray.Event{ev}, err
}

func experience(c *fray.Combatant) int { return c.Tracks[TrackExperience].Value }

// decideSpend decides "spend NAME N on=STAT|POWER|expertise:SKILL" (B-12):
// 1 point per rank, or 1 point for expertise.
func (s *State) decideSpend(cmd fray.Command) ([]fray.Event, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(cmd.Arg(1))
	if err != nil || n < 1 || n > 100 {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a number of points from 1 to 100.", cmd.Arg(1))
	}
	on := cmd.Opts["on"]
	if on == "" {
		return nil, fray.Errorf(fray.EINVALID, "Name what to spend on: on=STAT|POWER|expertise:SKILL.")
	}
	if have := experience(c); have < n {
		return nil, fray.Errorf(fray.EINVALID, "%s has %d unspent experience points, not %d.", c, have, n)
	}
	on = strings.ToLower(on)
	switch {
	case strings.HasPrefix(on, "expertise:"):
		skill := strings.TrimPrefix(on, "expertise:")
		if skill == "" || len(skill) > 64 {
			return nil, fray.Errorf(fray.EINVALID, "Name the skill: on=expertise:SKILL.")
		}
		if c.HasExpertise(skill) {
			return nil, fray.Errorf(fray.EINVALID, "%s already has expertise in %s.", c, skill)
		}
		if n != 1 {
			return nil, fray.Errorf(fray.EINVALID, "Expertise costs 1 point, not %d.", n)
		}
	case slices.Contains(taskStats, on):
		if _, ok := c.Stats[on]; !ok {
			return nil, fray.Errorf(fray.EINVALID, "%s has no %s rank to raise.", c, kit.Title(on))
		}
		if c.Stats[on]+n > 14 {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s would be %d; ranks go up to 14.", c, kit.Title(on), c.Stats[on]+n)
		}
	default:
		p := c.Power(on)
		if p == nil {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s has no stat, power or weapon named %q to raise (%s).", c, on, powerList(c))
		}
		if p.Rank+n > 14 {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s would be rank %d; ranks go up to 14.", c, p.Name, p.Rank+n)
		}
		on = p.Name
	}
	ev, err := fray.NewEvent(EventSpent, spendData{Name: c.ID, Points: n, On: on})
	return []fray.Event{ev}, err
}

// addTrack adds n to a track's value and max (experience has no other
// maximum).
func addTrack(c *fray.Combatant, name string, n int) {
	t := c.Tracks[name]
	t.Value += n
	t.Max = max(t.Max, t.Value)
	kit.SetTrack(c, name, t)
}
