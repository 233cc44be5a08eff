package bpb

import (
	"slices"
	"strings"

	"fray"
	"fray/rules/kit"
)

// Resolution (SPEC B-1, B-2, B-8 … B-12): task rolls, attacks with fixed
// damage, blocks and dodges that reorder play on an extreme success,
// distraction, and experience.

// Event types of resolution. They are wire strings: never rename one.
const (
	EventTask      = "bpb.task"      // a task roll: check, attack, block, dodge or distract; data: taskData, Rolls[0], Odds
	EventDamaged   = "bpb.damaged"   // Endurance lost (or healed, negative); data: damageData
	EventStaggered = "bpb.staggered" // a staggering extreme success: the target loses its next turn; data: fray.NameData
	EventAwarded   = "bpb.awarded"   // experience points awarded (B-12); data: awardData
	EventSpent     = "bpb.spent"     // experience points spent (B-12); data: spendData
)

// Settings of resolution and their values, the default first.
const (
	SettingSuccess    = "success"    // open or expertise (B-1)
	SettingSmashing   = "smashing"   // prone or back: what a smashing success does (B-2, ours)
	SettingStaggering = "staggering" // turn or dazed: what a staggering success does (B-2, ours)
	SettingAttackVs   = "attackvs"   // agility or fixed: attack difficulty 8 + defender's Agility, or 8 (B-10, ours)
)

// Kinds of task roll (taskData.Roll, fray.Odds.Roll). They are wire
// strings: never rename one.
const (
	RollCheck    = "check"
	RollAttack   = "attack"
	RollBlock    = "block"
	RollDodge    = "dodge"
	RollDistract = "distract"
)

// Extreme-success options in combat (B-2). They are wire strings.
const (
	OptionOverwhelming = "overwhelming" // bonus damage: +1 (open) or +3 (expertise mode)
	OptionSmashing     = "smashing"     // the target is knocked prone (or back)
	OptionStaggering   = "staggering"   // the target loses its next turn (or is dazed)
)

// Conditions resolution sets. They are wire strings.
const (
	CondBlocking   = "blocking"   // may block further attacks until the next action (B-8)
	CondDodging    = "dodging"    // may dodge further attacks until the next action (B-8)
	CondDistracted = "distracted" // +3 to the next attack against them next round (B-11)
	CondOut        = "out"        // 0 Endurance (B-10)
	CondProne      = "prone"      // knocked prone by a smashing success (B-2, ours)
	CondBack       = "knocked back"
	CondDazed      = "dazed" // −3 to every roll until the end of the next turn (B-2 staggering=dazed, ours)
)

// Stat and track names.
const (
	StatBrawn        = "brawn"
	StatAgility      = "agility"
	StatAccuracy     = "accuracy"
	StatProwess      = "prowess"
	StatWillpower    = "willpower"
	TrackEndurance   = "endurance"
	TrackExperience  = "experience"
	ProtectionArmour = "armour"
)

// Distraction and defence numbers.
const (
	// DistractBonus is added to the next attack against a distracted
	// opponent (B-11).
	DistractBonus = 3
	// DazedPenalty is the staggering=dazed penalty (ours).
	DazedPenalty = -3
)

// taskData is the payload of EventTask. It is flat, so Apply copies it.
type taskData struct {
	Name fray.CombatantID `json:"name"`
	Roll string           `json:"roll"`
	Stat string           `json:"stat"`
	// Target is the one attacked or distracted, or the attacker a block
	// or dodge answers.
	Target     fray.CombatantID `json:"target,omitempty"`
	Power      string           `json:"power,omitempty"`
	Rank       int              `json:"rank,omitempty"`
	Value      int              `json:"value"`
	Mods       int              `json:"mods,omitempty"`
	Expertise  bool             `json:"expertise,omitempty"`
	Mode       TaskMode         `json:"mode"`
	Difficulty int              `json:"difficulty"`
	Total      int              `json:"total"`
	Band       TaskBand         `json:"band"`
	Option     string           `json:"option,omitempty"`
	Damage     int              `json:"damage,omitempty"`
	Stunning   bool             `json:"stunning,omitempty"`
	// Effect marks an attack that inflicts no Endurance damage (such as
	// Telepathy): only the same power blocks or dodges it (B-8).
	Effect bool `json:"effect,omitempty"`
	// With is the defender's own power a block or dodge is made with
	// (B-8: the same power as the attack's, or a similar one the GM
	// allows).
	With string `json:"with,omitempty"`
	// For is the one a block or dodge protects, whom the hit was
	// against (B-7: a defensive action on someone else's behalf); empty
	// for a defence of one's own.
	For fray.CombatantID `json:"for,omitempty"`
}

// applyResolution applies the events of resolution; handled is false for
// any other event.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventTask:
		d, err := fray.Payload[taskData](ev)
		if err != nil {
			return true, err
		}
		switch d.Roll {
		case RollAttack:
			s.Pending = nil
			if d.Band != TaskFailure {
				h := &Hit{Attacker: d.Name, Defender: d.Target, Power: d.Power, Rank: hitRank(d.Rank, d.Band), Damage: d.Damage, Effect: d.Effect, Stunning: d.Stunning}
				if d.Band == TaskExtreme {
					h.Option = d.Option
				}
				s.Pending = h
			}
		case RollBlock, RollDodge:
			if d.Band != TaskFailure {
				s.Pending = nil
			}
		}
	case EventDamaged:
		d, err := fray.Payload[damageData](ev)
		if err != nil {
			return true, err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %s, who is not present.", ev.Seq, s.mention(d.Name))
		}
		t := endurance(c)
		t.Value = min(max(t.Value-d.Amount, 0), t.Max)
		kit.SetTrack(c, TrackEndurance, t)
		if d.Settles {
			s.Pending = nil
		}
	case EventStaggered:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		id := d.Who
		held, idx, round := s.forceCost(id)
		switch {
		case held:
			delete(s.Held, id)
		case idx >= 0:
			s.Seq[idx].Mark = markLost
		default:
			s.Lost = append(s.Lost, LostTurn{ID: id, Round: round})
		}
	case EventAwarded:
		var d awardData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d awards %s, who is not present.", ev.Seq, s.mention(d.Name))
		}
		s.Awards = append(s.Awards, Award{ID: c.ID, Award: d.Award, Points: d.Points})
		addTrack(c, TrackExperience, d.Points)
	case EventSpent:
		var d spendData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d spends the points of %s, who is not present.", ev.Seq, s.mention(d.Name))
		}
		addTrack(c, TrackExperience, -d.Points)
		switch {
		case d.New:
			gainNew(c, d)
		case strings.HasPrefix(d.On, "expertise:"):
			kit.AddExpertise(c, strings.TrimPrefix(d.On, "expertise:"))
		case slices.Contains(taskStats, d.On):
			kit.SetStat(c, d.On, c.Stats[d.On]+d.Points)
		default:
			if p := kit.OwnPower(c, d.On); p != nil {
				p.Rank += d.Points
			}
		}
	default:
		return false, nil
	}
	return true, nil
}
