package fray

import (
	"strconv"
	"strings"
)

// Markers on a slot of the order of play. They are wire strings: never
// rename one.
const (
	MarkActed       = "acted"       // the turn has been taken
	MarkCurrent     = "current"     // the turn is being taken now
	MarkDelayed     = "delayed"     // the combatant delayed this turn and holds it (bpb B-6)
	MarkHeld        = "held"        // the combatant holds an action (vv V-3)
	MarkForced      = "forced"      // the turn was spent on a forced action (bpb B-7)
	MarkLost        = "lost"        // the turn is lost, for example to an earlier forced action
	MarkEnvironment = "environment" // the environment, which acts last (bpb B-5)
	MarkReacted     = "reacted"     // the combatant reacted and now stands below the one answered (queue Q-3)
	MarkUnaware     = "unaware"     // present but with no turn (bpb B-3)
)

// View is what a table needs to see of an encounter's order of play (E-5).
// Every system fills Round, Current, Order and History; Next when it can
// predict the next round.
type View struct {
	// Rules is the id of the system, such as "bpb".
	Rules string `json:"rules"`
	// Started reports whether the encounter has begun.
	Started bool `json:"started"`
	// Round is the current round (the turn, in V&V), from 1; 0 before the start.
	Round int `json:"round"`
	// Current names whose turn it is, or "" when nobody's.
	Current string `json:"current"`
	// CurrentID is the id of the combatant whose turn it is; the system
	// fills it with Current.
	CurrentID CombatantID `json:"current_id,omitempty"`
	// Order is this round's order of play, with markers.
	Order []Slot `json:"order"`
	// Next is the predicted order of the next round.
	Next []Slot `json:"next,omitempty"`
	// History lists the turns actually taken, round by round.
	History []RoundTurns `json:"history"`
	// Combatants lists every combatant in the order they were added.
	Combatants []Combatant `json:"combatants"`
	// Settings holds the encounter's settings that differ from the
	// system's defaults, by key.
	Settings map[string]string `json:"settings,omitempty"`
}

// Slot is one place in an order of play.
type Slot struct {
	// ID is the combatant's id; the system fills it with Name.
	ID CombatantID `json:"id,omitempty"`
	// Name names the combatant.
	Name string `json:"name"`
	// Phase is the phase the slot falls on, in systems that count phases (vv).
	Phase int `json:"phase,omitempty"`
	// Markers holds Mark* constants that apply to the slot.
	Markers []string `json:"markers,omitempty"`
	// Note is a short free text, such as the actions used this turn.
	// Everyone who sees the slot sees it; a note that mentions another
	// combatant declares that one in About.
	Note string `json:"note,omitempty"`
	// Status is the combatant's tracks as the order shows them, such as
	// "hp 6/10" or "LP 40/42". It is declared private: players see it
	// only on a player character's slot.
	Status string `json:"status,omitempty"`
	// About lists the other combatants the note mentions, by name.
	About []string `json:"about,omitempty" fray:"who"`
}

// Has reports whether the slot carries the marker m.
func (s Slot) Has(m string) bool {
	for _, x := range s.Markers {
		if x == m {
			return true
		}
	}
	return false
}

// String returns the slot as a table would say it: "Blueshift (delayed)".
func (s Slot) String() string {
	if len(s.Markers) == 0 && s.Note == "" && s.Status == "" {
		return s.Name
	}
	parts := append([]string(nil), s.Markers...)
	if s.Note != "" {
		parts = append(parts, s.Note)
	}
	if s.Status != "" {
		parts = append(parts, s.Status)
	}
	return s.Name + " (" + strings.Join(parts, ", ") + ")"
}

// RoundTurns is the history of one round: the turns actually taken, in
// the seeds' own words, such as "Blueshift (delayed)" or
// "Blueshift (forced from round 7)".
type RoundTurns struct {
	Round int      `json:"round"`
	Turns []string `json:"turns"`
	// Who lists, turn by turn, the names of the combatants each turn's
	// words mention, the one who took the turn first. Every system fills
	// it for every turn: what players see of the history follows from it,
	// never from the turns' words.
	Who [][]string `json:"who,omitempty"`
}

// String returns the round as the seeds write it:
// "Round 3: Ganyeka, Monolith, Blueshift (delayed), Ganyeka's henchmen".
func (r RoundTurns) String() string {
	var b strings.Builder
	b.WriteString("Round ")
	b.WriteString(strconv.Itoa(r.Round))
	b.WriteString(":")
	for i, t := range r.Turns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(' ')
		b.WriteString(t)
	}
	return b.String()
}
