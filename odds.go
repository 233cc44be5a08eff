package fray

import "strconv"

// Odds is the exact chance of each outcome of one roll, worked out before
// the dice are rolled (SPEC E-6). "odds COMMAND …" shows it without
// rolling, changing or logging anything; every real roll records the odds
// it had in Event.Odds, so a log shows what was likely and what happened.
//
// Its JSON field names are wire strings: never rename one.
type Odds struct {
	// Command is the canonical text of the command the odds are for, such
	// as "attack Ganyeka Monolith with=blast".
	Command string `json:"command,omitempty"`
	// For names who rolls, such as "Ganyeka".
	For string `json:"for,omitempty" fray:"name"`
	// Roll names what the roll is, in the system's words: "attack",
	// "block", "check", "challenge" …
	Roll string `json:"roll,omitempty"`
	// Expr is the dice rolled with every modifier applied, such as
	// "2d6+10".
	Expr string `json:"expr"`
	// Target is the total to reach (a difficulty, a chance to hit, a
	// threshold) when the roll has one; TargetKind says which, such as
	// "difficulty".
	Target     int    `json:"target,omitempty"`
	TargetKind string `json:"target_kind,omitempty"`
	// Bands holds the chance of each outcome band, worst first; they sum
	// to 1.
	Bands []Band `json:"bands"`
	// Modifiers lists every modifier applied to the roll, with its
	// source: the attribute, expertise, conditions, the GM.
	Modifiers []Modifier `json:"modifiers,omitempty"`
	// Dist is the distribution of the roll's total (or, when DistOf says
	// so, of another number such as damage), lowest value first; points
	// of probability 0 are left out.
	Dist []Point `json:"dist,omitempty"`
	// DistOf says what Dist counts: "total" (the default when empty) or,
	// for example, "damage".
	DistOf string `json:"dist_of,omitempty"`
	// Mean is the expected value of what Dist counts.
	Mean float64 `json:"mean"`
	// Refused says why the command itself would be refused now, such as
	// "It is Ganyeka's turn, not Blueshift's; attacks are made on one's
	// turn.": the odds are those the roll would have if it were allowed.
	// Only the answer to an odds query has it; "" when the command would
	// be accepted.
	Refused string `json:"refused,omitempty"`
	// RefusedAbout and RefusedNames are the combatants Refused mentions.
	RefusedAbout []CombatantID `json:"refused_about,omitempty"`
	RefusedNames []string      `json:"refused_names,omitempty" fray:"name"`
}

// What Odds.Dist counts (Odds.DistOf). They are wire strings: never
// rename one; systems may add their own ("net successes").
const (
	DistTotal  = "total"  // the roll's total (also when DistOf is empty)
	DistDamage = "damage" // the damage the roll deals
)

// Band is one outcome of a roll and its probability.
type Band struct {
	// Name is the outcome in the system's words: "miss", "hit",
	// "extreme", "opponent narrates" …
	Name string `json:"name"`
	// P is the probability of the outcome, from 0 to 1.
	P float64 `json:"p"`
	// Who names the combatants the outcome's words name, such as Ann in
	// "Ann first".
	Who []string `json:"who,omitempty" fray:"name"`
}

// Point is one value of a distribution and its probability.
type Point struct {
	// V is the value.
	V int `json:"v"`
	// P is its probability.
	P float64 `json:"p"`
}

// Modifier is one number added to a roll, and where it comes from.
// Conditions carry modifiers (see Condition); rolls list the ones they
// applied in Odds.Modifiers, so a roll's breakdown names every term.
type Modifier struct {
	// Source names where the modifier comes from: "Prowess",
	// "expertise", "distracted (by Blueshift)" …
	Source string `json:"source"`
	// Who names the combatants the source mentions: the one who caused a
	// condition, the target who holds it.
	Who []string `json:"who,omitempty" fray:"name"`
	// Value is the number added (negative for a penalty).
	Value int `json:"value"`
	// On says which rolls a condition's modifier applies to: one of the
	// Applies* constants, or a system's own word. It is empty for a
	// modifier listed in a roll's breakdown.
	On string `json:"on,omitempty"`
}

// What a condition's modifier applies to (Modifier.On). They are wire
// strings: never rename one.
const (
	AppliesAll      = "all"      // every roll the holder makes
	AppliesAttack   = "attack"   // the holder's attack rolls
	AppliesAttacked = "attacked" // attack rolls made against the holder
	AppliesDefence  = "defence"  // the holder's defence rolls (block, dodge, parry)
	AppliesCheck    = "check"    // the holder's task and challenge rolls
)

// String returns the modifier as a breakdown shows it: "+3 expertise".
func (m Modifier) String() string {
	s := strconv.Itoa(m.Value)
	if m.Value >= 0 {
		s = "+" + s
	}
	return s + " " + m.Source
}

// P returns the probability of the band named name, or 0.
func (o *Odds) P(name string) float64 {
	for _, b := range o.Bands {
		if b.Name == name {
			return b.P
		}
	}
	return 0
}

// Oddser is implemented by a System that can show the odds of its rolls
// (SPEC E-6). Odds returns the exact odds of the roll cmd would make in
// st, with every modifier that would apply, without rolling and without
// changing st. A command that rolls nothing, or whose odds the system
// cannot give, is an EINVALID *Error saying so; a command that Decide
// would refuse is refused here in the same words.
type Oddser interface {
	Odds(st State, cmd Command) (Odds, error)
}
