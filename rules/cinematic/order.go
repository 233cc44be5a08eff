package cinematic

import (
	"fray"
	"fray/engine"
)

// ID is the system's id, as given to fray play --rules.
const ID = "cinematic"

// Stances a character may declare at the top of a round (C-7). They are
// wire strings.
const (
	StanceNone    = ""        // the usual free attack and defence
	StanceDefence = "defence" // Full Defence: one extra defence at no penalty, +3 to all defence, no attacks
	StanceOffence = "offence" // Full Offence: +2 to all attacks, no defence
)

// Modifiers of the stances (C-7) and the penalty of each extra action (C-2).
const (
	FullDefenceBonus = 3
	FullOffenceBonus = 2
	ExtraPenalty     = 2
)

// ExtraActions returns the extra actions a Dexterity gives each round
// (C-2): 5–6: 1, 7–8: 2, 9–10: 3, 11–12: 4, 13–14: 5, 15 and up: 6.
func ExtraActions(dex int) int {
	switch {
	case dex < 5:
		return 0
	case dex >= 15:
		return 6
	}
	return (dex - 3) / 2
}

// Event types of the Cinematic Unisystem order of play. They are wire
// strings: never rename one.
const (
	EventRound    = "cinematic.round"    // a round begins in initiative order; data: RoundData
	EventAttack   = "cinematic.attack"   // the current character attacks; data: ActionData
	EventDefence  = "cinematic.defence"  // a character defends; data: ActionData
	EventStance   = "cinematic.stance"   // Full Defence or Full Offence declared; data: StanceData
	EventTurnDone = "cinematic.turn_end" // the current character's turn ends; data: fray.NameData
	EventTiebreak = "cinematic.tiebreak" // the GM's order for full ties; data: NamesData
)

// RoundData is the payload of EventRound.
type RoundData struct {
	Round int                `json:"round"` // the round beginning, from 1
	Order []fray.CombatantID `json:"order"` // its order of play
}

// Kinds of action in ActionData.
const (
	ActionFree  = "free"  // the round's free attack or free defence
	ActionBonus = "bonus" // Full Defence's extra defence at no penalty
	ActionExtra = "extra" // an extra action at a cumulative −2
)

// ActionData is the payload of EventAttack and EventDefence.
type ActionData struct {
	// Who attacks or defends.
	Who fray.CombatantID `json:"name"`
	// Other is the target of an attack or the attacker defended against,
	// when named.
	Other fray.CombatantID `json:"other,omitempty"`
	// Kind is ActionFree, ActionBonus or ActionExtra.
	Kind string `json:"kind"`
	// Modifier is what the action's roll gets: the extra action's
	// penalty plus the stance's bonus.
	Modifier int `json:"modifier"`
}

// StanceData is the payload of EventStance.
type StanceData struct {
	Who    fray.CombatantID `json:"name"`   // who declares
	Stance string           `json:"stance"` // StanceDefence, StanceOffence or StanceNone
}

// NamesData is a payload that concerns several combatants.
type NamesData struct {
	Who []fray.CombatantID `json:"names"` // the combatants, in order
}

// System is the Cinematic Unisystem order of play. The zero value is ready
// to use.
type System struct{}

// New returns the Cinematic Unisystem system.
func New() *System { return &System{} }

// Payloads declares the payload type of each event type the system
// emits besides the shared ones (engine.Payloads), so that an older log's
// names can be rewritten into ids.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventRound:    RoundData{},
		EventAttack:   ActionData{},
		EventDefence:  ActionData{},
		EventStance:   StanceData{},
		EventTurnDone: fray.NameData{},
		EventTiebreak: NamesData{},
		EventRolled:   rollData{},
		EventDamaged:  damageData{},
		EventShot:     ammoData{},
		EventReloaded: reloadData{},
		EventStood:    fray.NameData{},
		EventEngaged:  engagedData{},
		EventWaits:    waitData{},
	}
}

var _ engine.Payloads = (*System)(nil)

var spec = engine.Spec{Stats: []string{"strength", "dexterity", "constitution", "intelligence", "perception", "willpower", "bonus"}}

// ID returns "cinematic".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Cinematic Unisystem variant" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return &State{} }

// Commands lists the commands the system accepts.
func (*System) Commands() []fray.CommandDoc {
	return append(engine.SharedDocs(spec),
		fray.CommandDoc{Usage: "order NAME …", Summary: "The GM's order for characters tied on initiative and Dexterity."},
		fray.CommandDoc{Usage: "full NAME defence|offence|none", Summary: "Declare Full Defence or Full Offence at the top of the round (C-7)."},
		fray.CommandDoc{Usage: "start", Summary: "Begin: turns by initiative, ⌊Dexterity × 0.5 + Perception + bonus⌋, highest first (C-1)."},
		fray.CommandDoc{Usage: "attack ATTACKER TARGET with=WEAPON [defence=dodge|parry|none|wait] [shots=1-6] [unaware=yes] [mod=±N] [dmod=±N]",
			Summary: "The current character attacks and the target answers in the same command (C-4): D10 + Dexterity + the weapon's skill against the target's dodge (Dexterity + Kung Fu) or parry (Dexterity + the better of Kung Fu and Getting Medieval; never against bullets), the better of the two unless defence= names one; higher wins, ties to the defender. Both spend their actions (C-2: free, then extra at −2, −4 …; Full Offence +2, Full Defence +3). No defence left, Full Offence, unconscious, tied, or unaware (unaware=yes) without Situational Awareness, or defence=none: no roll, the attack hits on 9+. A hit deals (weapon + success levels − armour) × 2 for bullet, slash and stab against humans, × 1 for bash (C-5). shots=N is a barrage: one roll at −N, one bullet lands per success level, and a character's barrages fire at most 6 shots in a round (a small clip, C-8). Outnumbered (C-6): +2 per attacker on the target this round, this one and those declared with engage counted, once two or more. dice=ATTACK,DEFENCE gives the table's D10s (a blind attacker's Notice check first: dice=NOTICE,ATTACK,DEFENCE); against a target who rolls no defence, or with defence=wait, give the attack's D10 alone. defence=wait rolls the attack alone and waits for the target's own answer (dodge, parry or take; see below). Example: attack Bernie Vamp with=\"Baseball Bat\"."},
		fray.CommandDoc{Usage: "dodge NAME [dmod=±N] | parry NAME [dmod=±N] | take NAME",
			Summary: "The target answers an attack made with defence=wait (C-4), after seeing its total: dodge or parry rolls D10 + the defence against it (higher wins, ties to the defender; no parrying bullets), spending a defence (free, then extra at −2, −4 …), and settles it as the one-command attack would with the same dice; take keeps the defence and the attack hits on 9+. A target who cannot defend (no defence left, Full Offence, unconscious, tied, unaware) is not waited for: the attack is settled at once. While an attack waits, only the answer, condition, clear, note, reveal, rename, undo and queries are taken. dice=D gives the defender's D10. Example: attack Slayer Thug with=punch defence=wait dice=7, then dodge Thug dice=5."},
		fray.CommandDoc{Usage: "attack [TARGET]", Summary: "Without with=: the current character spends an attack, the free one then extra actions at −2, −4, … (C-2), without a roll; act is the same."},
		fray.CommandDoc{Usage: "defend NAME [against=NAME]", Summary: "A character spends a defence without a roll: the free defence, then extra actions at −2, −4, … (C-2)."},
		fray.CommandDoc{Usage: "check NAME STAT[+SKILL] [mod=±N] [vs=N]", Summary: "A task (C-3): D10 + attribute + skill (+ a second attribute: constitution+willpower), or attribute × 2 without one; 9+ succeeds, the total gives success levels (9–10 1, 11–12 2, … 17–20 5, 21–23 6, +1 per 3). vs=N: against an opponent's D10 + N, ties to the opponent. Example: check Bernie \"dexterity+Kung Fu\" mod=-2."},
		fray.CommandDoc{Usage: "test NAME consciousness|survival [minutes=N] [mod=±N]", Summary: "The tests of C-6, prompted after damage: Consciousness at 0 Life Points or fewer, Constitution + Willpower −1 per point below zero (Resistance (Pain) cancels 1 per level), failing: unconscious; Survival at −10 or fewer, −1 per 10 below zero, + Hard to Kill, −1 per minute since the wound (minutes=), failing: dead."},
		fray.CommandDoc{Usage: "damage NAME N [by=NAME] | heal NAME N", Summary: "The GM takes Life Points off or gives them back; Badly Injured and the tests follow (C-5, C-6)."},
		fray.CommandDoc{Usage: "complication NAME blind|bound|tied|down|large [mod=-N] [until=…] [by=NAME]", Summary: "C-6: blind (−5 to all; a Perception + Notice check before each attack; Echolocation unaffected), bound (arms in front: −2 to punches), tied (no attack or defence until free), down (Knocked Down: −4 to attack and defence), large (Size: mod=-N to dodge, −2 unless given). End one with clear NAME CONDITION, free, stand or kipup. Example: complication Vamp down by=Bernie until=end."},
		fray.CommandDoc{Usage: "free NAME [with=Acrobatics|Crime] [mod=±N]", Summary: "A tied character rolls Dexterity + Acrobatics (or Crime); 9+ frees them (C-6)."},
		fray.CommandDoc{Usage: "stand NAME | kipup NAME [mod=±N]", Summary: "Up from Knocked Down (C-6): stand takes the round (no action left); kipup rolls Dexterity + Acrobatics and stands at 2 success levels or more without costing an action."},
		fray.CommandDoc{Usage: "stabilise NAME", Summary: "A medic attends someone at −10 Life Points or fewer: no more Survival tests until hurt again (C-6)."},
		fray.CommandDoc{Usage: "engage TARGET NAME …", Summary: "The GM declares who is attacking TARGET this round, for Outnumbered (C-6): +2 per attacker to every attack on TARGET, the first included, counting these and whoever has attacked it (at most 5, +10; a sixth attacker is refused). A new declaration replaces the last; it ends with the round. Example: engage Bernie Vampire Master."},
		fray.CommandDoc{Usage: "reload NAME [WEAPON] | spend NAME ammo=N [with=WEAPON]", Summary: "Firearms (C-8): reloading fills the clip and is an action (the free attack or an extra); spend takes shots out without a roll. An attack with an empty clip is refused."},
		fray.CommandDoc{Usage: "odds COMMAND …", Summary: "The exact odds of attack (with=; defence=wait gives those of the target's better defence), dodge, parry or take (against the waiting attack's total), check, test, free or kipup before rolling, with every modifier: odds attack Bernie Vamp with=\"Baseball Bat\"."},
		fray.CommandDoc{Usage: "next", Summary: "The current character's turn ends; after the last a new round begins."},
	)
}

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a Cinematic Unisystem state.")
	}
	return s, nil
}
