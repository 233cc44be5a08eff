package pp_test

import (
	"reflect"
	"strings"
	"testing"

	"fray/engine"
	"fray/rules/pp"
)

func recordOf(e *engine.Engine, name string) pp.Record {
	for _, r := range st(e).Res.Records {
		if st(e).NameOf(r.ID) == name {
			return *r
		}
	}
	return pp.Record{}
}

// P-10 through the GM's damage: Vile has Health 4. 3 leave 1; 5 more take
// the 1 left (not 5): 0 Health, defeated, for Defeated and the view
// alike; a defeated Vile takes no more.
func TestP10_DamageDefeatsAtZeroHealth(t *testing.T) {
	e := newPP(t, "damage Vile 3")
	if got := st(e).HealthLeft("Vile"); got != 1 || st(e).Defeated("Vile") { // 4 − 3
		t.Fatalf("Vile after 3 damage: Health %d, defeated %v; want 1, no", got, st(e).Defeated("Vile"))
	}
	do(t, e, "damage Vile 5")
	var d pp.HarmData
	last(t, e, pp.EventDamaged, &d)
	if d.Asked != 5 || d.N != 1 || !d.Defeats || d.Minion {
		t.Errorf("the damage that takes the last Health: %+v, want asked 5, took 1, defeats", d)
	}
	if st(e).HealthLeft("Vile") != 0 || !st(e).Defeated("Vile") || recordOf(e, "Vile").Wounds != 4 {
		t.Errorf("Vile: Health %d, %+v; want 0 and defeated", st(e).HealthLeft("Vile"), recordOf(e, "Vile"))
	}
	if note := slotNote(e, "Vile"); !strings.Contains(note, "Health 0/4") || !strings.Contains(note, "defeated") {
		t.Errorf("the view of Vile: %q", note)
	}
	refuse(t, e, "damage Vile 1", "already defeated")
	// Defeated by damage, Vile is out of the fight as if by an attack.
	do(t, e, "start")
	refuse(t, e, `attack "`+st(e).Current()+`" Vile with=might`, "already defeated")
}

// P-10: minions have no Health: damage N defeats N of them (no more than
// are standing), heal N brings N back (no more than were defeated).
func TestP10_DamageAndHealMinions(t *testing.T) {
	e := newPP(t, "damage Goons 2")
	if r := recordOf(e, "Goons"); r.Down != 2 || r.Wounds != 0 || st(e).Defeated("Goons") {
		t.Fatalf("3 goons, 2 defeated: %+v", r)
	}
	do(t, e, "damage Goons 7")
	var d pp.HarmData
	last(t, e, pp.EventDamaged, &d)
	if !d.Minion || d.N != 1 || !d.Defeats || !st(e).Defeated("Goons") { // 3 − 2 = 1 standing
		t.Errorf("damage 7 on one goon standing: %+v", d)
	}
	do(t, e, "heal Goons 2")
	if r := recordOf(e, "Goons"); r.Down != 1 || st(e).Defeated("Goons") { // 0 + 2 of 3
		t.Errorf("2 goons back up: %+v", r)
	}
	if note := slotNote(e, "Goons"); !strings.Contains(note, "2 of 3 standing") {
		t.Errorf("the view of the goons: %q", note)
	}
	do(t, e, "heal Goons 9")
	if r := recordOf(e, "Goons"); r.Down != 0 {
		t.Errorf("heal 9 of 1 defeated: %+v", r)
	}
	refuse(t, e, "heal Goons 1", "None of Goons's 3 minions is defeated")
}

// The GM's damage goes the attack's way: an attack that takes N and
// damage N leave the same records, and Defeated and the view agree.
func TestP10_DamageSameAsAttack(t *testing.T) {
	for _, tt := range []struct {
		target string
		net    int // successes=net+1 vs_successes=1
	}{{"Vile", 2}, {"Vile", 4}, {"Vile", 6}, {"Goons", 1}, {"Goons", 3}} {
		t.Run(tt.target+itoa(tt.net), func(t *testing.T) {
			a := newPP(t, "start")
			cur := st(a).Current()
			do(t, a, `attack "`+cur+`" `+tt.target+" with=agility successes="+itoa(tt.net+1)+" vs_successes=1")
			d := newPP(t, "start\ndamage "+tt.target+" "+itoa(tt.net))
			if ra, rd := recordOf(a, tt.target), recordOf(d, tt.target); !reflect.DeepEqual(ra, rd) {
				t.Errorf("attack: %+v; damage: %+v", ra, rd)
			}
			if st(a).Defeated(tt.target) != st(d).Defeated(tt.target) || slotNote(a, tt.target) != slotNote(d, tt.target) {
				t.Errorf("attack: defeated %v, %q; damage: defeated %v, %q", st(a).Defeated(tt.target), slotNote(a, tt.target), st(d).Defeated(tt.target), slotNote(d, tt.target))
			}
		})
	}
}

// heal: never above the character's Health; a defeated character healed
// is back in the fight; healing someone an attack just hurt ends the
// chance to spend Resolve on that attack.
func TestP10_HealNeverAboveHealth(t *testing.T) {
	e := newPP(t, "damage Whisper 3\nheal Whisper 10")
	var d pp.HarmData
	last(t, e, pp.EventHealed, &d)
	if st(e).HealthLeft("Whisper") != 4 || d.N != 3 || d.Asked != 10 { // 4 − 3 + 3, capped at 4
		t.Errorf("heal 10 of 3 lost: Health %d, %+v", st(e).HealthLeft("Whisper"), d)
	}
	refuse(t, e, "heal Whisper 1", "all their Health (4)")
	do(t, e, "damage Vile 4\nheal Vile 1")
	if st(e).Defeated("Vile") || st(e).HealthLeft("Vile") != 1 {
		t.Errorf("Vile healed 1 from 0: Health %d, defeated %v", st(e).HealthLeft("Vile"), st(e).Defeated("Vile"))
	}
	do(t, e, "start")
	cur := st(e).Current()
	do(t, e, `attack "`+cur+`" Vile with=agility successes=3 vs_successes=1`)
	if !st(e).Defeated("Vile") {
		t.Fatal("Vile is not defeated by 2 net successes on 1 Health")
	}
	do(t, e, "heal Vile 2")
	refuse(t, e, `spend "`+cur+`" resolve=1`, "no roll to spend Resolve on")
	// Damage leaves the chance open: the attack's harm settles again
	// against the Health it took.
	do(t, e, "next")
	cur = st(e).Current()
	do(t, e, `attack "`+cur+`" Gatecrasher with=agility successes=2 vs_successes=1`)
	do(t, e, "damage Gatecrasher 2")
	do(t, e, `spend "`+cur+`" resolve=1 dice=1`)
}

// P-9 one-shot (ours where the seed is silent): heal gives Health back at
// once, but the hero stays unconscious until the scene ends; then, healed,
// they are back in the fight, at −2d for the rest of the story.
func TestP9_OneShotHealKeepsUnconscious(t *testing.T) {
	e := newPP(t, "set defining=oneshot\ndefining Whisper\ncheck Whisper intellect threshold=hard successes=3")
	refuse(t, e, "damage Whisper 1", "already defeated")
	do(t, e, "heal Whisper 2")
	if st(e).HealthLeft("Whisper") != 2 || st(e).Defeated("Whisper") || !recordOf(e, "Whisper").Out {
		t.Errorf("Whisper healed 2 from 0: Health %d, %+v; want 2, still unconscious", st(e).HealthLeft("Whisper"), recordOf(e, "Whisper"))
	}
	if note := slotNote(e, "Whisper"); !strings.Contains(note, "Health 2/4") || !strings.Contains(note, "unconscious to the scene's end") {
		t.Errorf("the view of Whisper: %q", note)
	}
	refuse(t, e, "check Whisper intellect threshold=hard successes=3", "unconscious")
	do(t, e, "scene\nstart")
	for st(e).Current() != "Whisper" {
		do(t, e, "next")
	}
	// Intellect 4d − 2d (one-shot) = 2d.
	do(t, e, "attack Whisper Vile with=intellect successes=2 vs_successes=1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Penalty != 2 || d.Pool.Dice != 2 || d.Lost != 1 {
		t.Errorf("Whisper's attack after the scene: %+v", d)
	}
}

// Every refusal of damage and heal is a *fray.Error that changes nothing.
func TestP10_DamageHealRefusals(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"damage Zed 1", `no combatant named "Zed"`},
		{"heal Zed 1", `no combatant named "Zed"`},
		{"damage Vile 0", "from 1 to 1000"},
		{"damage Vile -1", "from 1 to 1000"},
		{"damage Vile 1001", "from 1 to 1000"},
		{"damage Vile 99999999999999999999", "from 1 to 1000"},
		{"heal Vile x", "from 1 to 1000"},
		{"heal Vile 0", "from 1 to 1000"},
		{"damage Vile", "Usage"},
		{"heal Vile 1 2", "Usage"},
		{"damage Vile 1 by=Whisper", "by="},
		{"damage Vile 1 dice=3", "rolls no dice"},
		{"heal Vile 1", "nothing to heal"},
		{"heal Goons 1", "nothing to heal"},
		{"damage Nobody 1", "no Health to lose"},
		{"heal Nobody 1", "no Health to regain"},
	} {
		t.Run(tt.line, func(t *testing.T) {
			refuse(t, newPP(t, "add Nobody health=0"), tt.line, tt.want)
		})
	}
}

// slotNote returns the words of the named combatant's slot in the view:
// its note, then its status (the tracks and what follows them).
func slotNote(e *engine.Engine, name string) string {
	for _, s := range e.View().Order {
		if s.Name == name {
			if s.Status == "" {
				return s.Note
			}
			return s.Note + ", " + s.Status
		}
	}
	return ""
}
