package fray

import (
	"slices"
	"strings"
)

// Hinter is a System that tells a page which buttons and forms its view
// calls for (GET /api/systems serves them). A system that is not one gets
// no buttons of its own on the page: its table types its commands.
type Hinter interface {
	// Hints returns the view hints of the system.
	Hints() Hints
}

// Hints says what a page shows for a system beyond what every system
// shares: the buttons that save typing a command, the small forms, and
// how the order is set before the start. They are hints only: the server
// checks every command a button sends. Field names are wire strings
// (GET /api/systems): never rename one.
type Hints struct {
	// Buttons are the system's buttons, in the order a page shows them.
	Buttons []Button `json:"buttons"`
	// Forms names the small forms the pages offer once the encounter
	// has started (Form* constants), in order: the GM's page all of
	// them, a player's the move and attack forms on the player's turn.
	Forms []string `json:"forms"`
	// Declare reports that `order NAME …` before the start declares the
	// order of play itself (the page offers to move each slot up and
	// down), rather than breaking ties in a rolled order.
	Declare bool `json:"declare"`
}

// The forms a page may offer. They are wire strings: never rename one.
const (
	// FormReorder asks who acts after whom from the next round
	// (reorder NAME after=NAME).
	FormReorder = "reorder"
	// FormMove asks how many inches the current combatant moves
	// (move N).
	FormMove = "move"
	// FormAttack asks whom the current combatant attacks (attack TARGET).
	FormAttack = "attack"
	// FormFull asks who declares a full defence or offence
	// (full NAME defence|offence|none).
	FormFull = "full"
)

// Where a button goes (Button.On). They are wire strings: never rename
// one.
const (
	// OnTurn puts a button among the turn's controls, once the encounter
	// has started, while someone's turn it is; the GM sees it, and the
	// player of the one whose turn it is.
	OnTurn = "turn"
	// OnSlot puts a button on a slot of this round's order of play, once
	// the encounter has started, where its conditions hold; the GM sees
	// it, and the player of the slot's combatant.
	OnSlot = "slot"
	// OnCard puts a button on a combatant's card on the GM's page,
	// before the start as after, where its conditions hold. A card
	// carries the marker MarkUnaware when the combatant is unaware, and
	// no other.
	OnCard = "card"
)

// The words a Button's Command and Aria are templates in.
const (
	// TemplateCurrent stands for the name of the combatant whose turn it
	// is (View.Current).
	TemplateCurrent = "{current}"
	// TemplateName stands for the name of the slot's (the card's)
	// combatant; on a turn button, the current one's.
	TemplateName = "{name}"
)

// Button is one button of a system's page: what it shows, the command it
// sends and where it shows. On a slot or a card, it shows only where
// every one of its conditions holds (When, Unless, Others, NotActor); a
// turn button takes none. Field names are wire strings: never rename
// one.
type Button struct {
	// Action names what the button does, for styles and tests ("next",
	// "interrupt"); a page shows one button per action on a player's
	// list.
	Action string `json:"action"`
	// Label is the button's visible words.
	Label string `json:"label"`
	// Aria is the button's accessible name, a template: {current} and
	// {name} are filled in with the names as they are.
	Aria string `json:"aria"`
	// Command is the command line the button sends, a template: {current}
	// and {name} are filled in with the names quoted as command words
	// (Fill).
	Command string `json:"command"`
	// On says where the button goes: OnTurn, OnSlot or OnCard.
	On string `json:"on"`
	// When lists markers the slot (the card) must carry, every one.
	When []string `json:"when,omitempty"`
	// Unless lists markers the slot (the card) must not carry, any one.
	Unless []string `json:"unless,omitempty"`
	// Others shows the button only while someone's turn it is, and only
	// on a slot (a card) of someone else.
	Others bool `json:"others,omitempty"`
	// NotActor shows the button only on a slot (a card) of someone other
	// than the one whose turn it is; while nobody's turn it is, on all.
	NotActor bool `json:"not_actor,omitempty"`
}

// Fill returns the command the button sends and its accessible name, for
// the combatant whose turn it is (current) and the slot's or the card's
// (name): in the command each name is quoted as a command word when it
// has to be (see Command.String), in the accessible name it stands as it
// is.
func (b Button) Fill(current, name string) (command, aria string) {
	word := func(s string) string {
		var w strings.Builder
		writeWord(&w, s, true)
		return w.String()
	}
	command = strings.NewReplacer(TemplateCurrent, word(current), TemplateName, word(name)).Replace(b.Command)
	aria = strings.NewReplacer(TemplateCurrent, current, TemplateName, name).Replace(b.Aria)
	return command, aria
}

// OnTurnOf reports whether the turn button b shows in v: once the
// encounter has started, while someone's turn it is.
func (b Button) OnTurnOf(v View) bool {
	return b.On == OnTurn && v.Started && v.Current != ""
}

// OnSlotOf reports whether the slot button b shows on s, a slot of v's
// order of play.
func (b Button) OnSlotOf(v View, s Slot) bool {
	return b.On == OnSlot && v.Started && b.holds(v, s.Markers, s.ID, s.Name)
}

// OnCardOf reports whether the card button b shows on c's card in v.
func (b Button) OnCardOf(v View, c Combatant) bool {
	var marks []string
	if c.Unaware {
		marks = []string{MarkUnaware}
	}
	return b.On == OnCard && b.holds(v, marks, c.ID, c.Name)
}

// holds reports whether b's conditions hold on a slot or a card that
// carries marks, of the combatant id (name).
func (b Button) holds(v View, marks []string, id CombatantID, name string) bool {
	for _, m := range b.When {
		if !slices.Contains(marks, m) {
			return false
		}
	}
	for _, m := range b.Unless {
		if slices.Contains(marks, m) {
			return false
		}
	}
	actor := v.Current != "" && name == v.Current
	if id != "" && v.CurrentID != "" {
		actor = id == v.CurrentID
	}
	return !(b.Others && (v.Current == "" || actor)) && !(b.NotActor && actor)
}
