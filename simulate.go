package fray

// Simulator is implemented by a System whose fights package sim can play
// to their end by itself. It tells the simulator, in data, what the rules
// know: who must act now and what they may send, who is down, and how
// much of the track that measures harm each combatant has left. The
// simulator never reads prose and never names a system; it sends one of
// the moves through the system's own Decide and Apply.
type Simulator interface {
	// SimMoves appends to buf the moves open in st and returns the
	// slice: every attack the acting combatant may make on a standing
	// foe, the answers to a roll that waits, the end of the turn, or
	// what starts or moves the fight on. It returns none when nobody
	// can act (the fight is stuck). Listing is cheap: an attack's
	// Expect is left for SimExpect, and an attack the rules turn out to
	// refuse (Decide's error) is set aside by the simulator.
	SimMoves(st State, buf []SimMove) []SimMove
	// SimExpect returns the expected damage of the attack m to its
	// target's track in st, from the exact odds of its rolls, or false
	// when the rules refuse the attack.
	SimExpect(st State, m SimMove) (float64, bool)
	// SimDown reports whether c is down in st: out of its track,
	// incapacitated, defeated or dead, in the system's own word. A
	// side wins when every combatant of the other side is down.
	SimDown(st State, c *Combatant) bool
	// SimHealth returns how much c has left of the track that measures
	// harm (SheetSchema.Health), and its most.
	SimHealth(st State, c *Combatant) (left, most int)
}

// SimKind says what a SimMove does. Kinds are wire strings: never rename
// one.
type SimKind string

// The kinds of move.
const (
	// SimAttack attacks Target.
	SimAttack SimKind = "attack"
	// SimAnswer answers a roll that waits for Actor (a hit to take,
	// block or dodge). The answers are listed with the one that costs
	// nothing first.
	SimAnswer SimKind = "answer"
	// SimEnd ends Actor's turn, or moves the fight on when nobody's
	// turn stands (the start, a new round).
	SimEnd SimKind = "end"
	// SimDefend is a defence that costs Actor something (Resolve, a
	// turn's place) against a hit on Target, taken outside any answer
	// the rules wait for: after the hit has landed, to undo it. Only a
	// cautious combatant takes one, when SimGuard gives its odds; every
	// other tactic passes it by.
	SimDefend SimKind = "defend"
)

// SimGuarder is implemented by a Simulator whose rules offer a defender
// a defence that costs something: a block or dodge that spends a forced
// action, a dodge or parry that spends a defence, Resolve spent on the
// attack's roll. The simulator asks it only for a cautious combatant
// (package sim's tactic "cautious"), so that the other tactics never pay
// for it.
type SimGuarder interface {
	// SimGuard returns the exact chance that the defence m (an answer
	// after the first, which costs nothing, or a SimDefend) negates the
	// hit it meets in st, from the same odds as the system's Odds for
	// m.Cmd; false when the rules would refuse m.
	SimGuard(st State, m SimMove) (negate float64, ok bool)
	// SimWait returns the attack m made so that its target answers it
	// (a roll that waits for Target's answer, which SimMoves then lists),
	// or false when the rules settle m at once, the defence chosen by
	// the rules. The simulator asks it for an attack on a cautious
	// target.
	SimWait(st State, m SimMove) (SimMove, bool)
}

// SimTracker is implemented by a Simulator whose rules keep some of a
// combatant's tracks outside Combatant.Tracks (wounds or points spent
// kept apart). Package sim reports every track a combatant has; without
// SimTracker it reads SimHealth for the track that measures harm and
// Combatant.Tracks for the others.
type SimTracker interface {
	// SimTrack returns how much c has left of the track name (as the
	// SheetSchema declares it) and its most, or false when c has none.
	SimTrack(st State, c *Combatant, name string) (left, most int, ok bool)
}

// SimMove is one command a simulated combatant may send.
type SimMove struct {
	// Kind says what the move does.
	Kind SimKind
	// Actor is who sends it; "" for the GM moving the fight on.
	Actor CombatantID
	// Target is whom an attack is against.
	Target CombatantID
	// Expect is an attack's expected damage to Target's track, once
	// SimExpect has given it.
	Expect float64
	// Cmd is the command to decide.
	Cmd Command
}
