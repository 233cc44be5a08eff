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
	// Name names the combatant.
	Name string `json:"name"`
	// Phase is the phase the slot falls on, in systems that count phases (vv).
	Phase int `json:"phase,omitempty"`
	// Markers holds Mark* constants that apply to the slot.
	Markers []string `json:"markers,omitempty"`
	// Note is a short free text, such as the actions used this turn.
	Note string `json:"note,omitempty"`
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
	if len(s.Markers) == 0 && s.Note == "" {
		return s.Name
	}
	parts := append([]string(nil), s.Markers...)
	if s.Note != "" {
		parts = append(parts, s.Note)
	}
	return s.Name + " (" + strings.Join(parts, ", ") + ")"
}

// RoundTurns is the history of one round: the turns actually taken, in
// the seeds' own words, such as "Blueshift (delayed)" or
// "Blueshift (forced from round 7)".
type RoundTurns struct {
	Round int      `json:"round"`
	Turns []string `json:"turns"`
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

// ForPlayers returns a copy of the view without what only the GM may see:
// hidden combatants, their slots in the order, and the turns they took in
// the history. Whose turn it is stays blank while a hidden combatant acts.
func (v View) ForPlayers() View {
	hidden := map[string]bool{}
	var shown []Combatant
	for _, c := range v.Combatants {
		if c.Hidden {
			hidden[strings.ToLower(c.Name)] = true
			continue
		}
		shown = append(shown, c)
	}
	if len(hidden) == 0 {
		return v
	}
	isHidden := func(name string) bool { return hidden[strings.ToLower(name)] }
	keep := func(slots []Slot) []Slot {
		if slots == nil {
			return nil
		}
		out := []Slot{}
		for _, s := range slots {
			if !isHidden(s.Name) {
				out = append(out, s)
			}
		}
		return out
	}
	p := v
	p.Combatants = shown
	if p.Combatants == nil {
		p.Combatants = []Combatant{}
	}
	p.Order = keep(v.Order)
	p.Next = keep(v.Next)
	if isHidden(v.Current) {
		p.Current = ""
	}
	p.History = make([]RoundTurns, len(v.History))
	for i, h := range v.History {
		turns := []string{}
		for _, t := range h.Turns {
			name, _, _ := strings.Cut(t, " (")
			if !isHidden(name) && !isHidden(t) {
				turns = append(turns, t)
			}
		}
		p.History[i] = RoundTurns{Round: h.Round, Turns: turns}
	}
	return p
}
