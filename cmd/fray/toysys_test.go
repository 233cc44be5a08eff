package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"fray"
	"fray/dice"
	"fray/engine"
	"fray/rules/kit"
	"fray/rules/rulestest"
)

// This file holds a throwaway sixth rule system, a duel, written as a
// new system's package would be and kept in a test file alone: it shows
// what a system must bring for fray to run it (fray.System, the payloads,
// its declarations, sheet, hints and named roll) and that the conformance
// suite takes it. toy_test.go adds it to the list of systems and plays it
// through the command line and the server.
//
// The duel: everyone takes a turn in the order added, round after round.
// On their turn a combatant may attack another once (attack NAME): a die,
// 1d6 (or 1d8 with set die=d8), comes off the target's vigor, a track
// that starts at the stat vigor= (6 when not given) or the sheet's. At 0
// vigor a combatant is down: they attack no more and cannot be attacked.

// toyID is the toy's id, as fray play --rules takes it.
const toyID = "toy"

// Event types of the toy. They are wire strings.
const (
	toyEventAttacked  = "toy.attacked"   // an attack and its damage; data: toyAttack; Rolls: the die
	toyEventTurnEnded = "toy.turn_ended" // the current combatant's turn ends; data: fray.NameData
)

// Words of the toy's rules.
const (
	toyTrack        = "vigor" // the track an attack takes its damage off
	toyDefaultVigor = 6       // the vigor of a combatant added without vigor=
	toySetDie       = "die"   // the setting that chooses the damage die
)

// toyDice is the dice expression of each value of the setting die=, the
// default first.
var toyDice = []struct{ word, expr string }{{"d6", "1d6"}, {"d8", "1d8"}}

// toySpec tells the shared commands what the toy accepts.
var toySpec = engine.Spec{
	Stats:    []string{toyTrack},
	Settings: map[string][]string{toySetDie: {"d6", "d8"}},
}

// toyAttack is the payload of toyEventAttacked.
type toyAttack struct {
	Attacker fray.CombatantID `json:"attacker"`
	Target   fray.CombatantID `json:"target"`
	Damage   int              `json:"damage"`
}

// toySystem is the duel.
type toySystem struct{}

// newToy returns the duel, as a system's New does.
func newToy() fray.System { return &toySystem{} }

// toyState is the state of a duel. It refers to combatants by id.
type toyState struct {
	fray.Encounter
	// Order is the order of play, set at the start: everyone in the
	// order added; a newcomer joins at the end.
	Order []fray.CombatantID `json:"order"`
	// Cur is the index in Order of whose turn it is.
	Cur int `json:"cur"`
	// Hit and Damage are the current turn's attack: whom it hit, and for
	// how much; Hit is "" before the attack.
	Hit    fray.CombatantID `json:"hit,omitempty"`
	Damage int              `json:"damage,omitempty"`
	// Rounds is the history: every round begun, the current one last.
	Rounds []toyRound `json:"rounds"`
}

// toyRound is the history of one round.
type toyRound struct {
	Round int       `json:"round"`
	Turns []toyTurn `json:"turns"`
}

// toyTurn is one turn taken: who took it, and whom they hit for how much.
type toyTurn struct {
	Who    fray.CombatantID `json:"who"`
	Hit    fray.CombatantID `json:"hit,omitempty"`
	Damage int              `json:"damage,omitempty"`
}

// Clone returns a deep copy of the state.
func (s *toyState) Clone() fray.State {
	d := *s
	d.Encounter = s.CloneEncounter()
	d.Order = slices.Clone(s.Order)
	d.Rounds = slices.Clone(s.Rounds)
	for i := range d.Rounds {
		d.Rounds[i].Turns = slices.Clone(d.Rounds[i].Turns)
	}
	return &d
}

// current returns the id of whose turn it is, or "".
func (s *toyState) current() fray.CombatantID {
	if !s.Started || s.Cur >= len(s.Order) {
		return ""
	}
	return s.Order[s.Cur]
}

// vigor returns c's vigor left.
func vigor(c *fray.Combatant) int { return c.Tracks[toyTrack].Value }

// ID returns "toy".
func (*toySystem) ID() string { return toyID }

// Name returns the system's full name.
func (*toySystem) Name() string { return "Toy Duel" }

// NewState returns an empty duel.
func (*toySystem) NewState() fray.State { return &toyState{} }

// Commands declares the commands the duel accepts, worked out once.
func (*toySystem) Commands() []fray.CommandDecl { return toyDecls() }

// toyDecls holds the toy's declarations, worked out once.
var toyDecls = sync.OnceValue(func() []fray.CommandDecl {
	return append(engine.SharedDecls(toySpec),
		fray.CommandDecl{Name: "start", Send: fray.SendGM,
			Summary: "Begin the duel: everyone takes a turn in the order added, round after round."},
		fray.CommandDecl{Name: "attack", Send: fray.SendCurrent, Rolls: true,
			Summary:  "The current combatant attacks, once a turn: the die (1d6, or 1d8 with set die=d8) comes off the target's vigor.",
			Args:     []fray.Param{{Name: "TARGET", Kind: fray.KindCombatant, Help: "whom to attack"}},
			Examples: []string{"attack Bob"}},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent,
			Summary:  "End the current combatant's turn.",
			Args:     []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true}},
			Examples: []string{"next"}},
	)
})

var _ engine.Payloads = (*toySystem)(nil)

// Payloads returns the payload type of each event type the toy makes.
func (*toySystem) Payloads() map[string]any {
	return map[string]any{toyEventAttacked: toyAttack{}, toyEventTurnEnded: fray.NameData{}}
}

// toyGet returns the duel's state st.
func toyGet(st fray.State) (*toyState, error) {
	s, ok := st.(*toyState)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a duel's.")
	}
	return s, nil
}

// Decide returns the events cmd produces in st.
func (*toySystem) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s, err := toyGet(st)
	if err != nil {
		return nil, err
	}
	if evs, handled, err := engine.DecideShared(&s.Encounter, cmd, toySpec); handled {
		return evs, err
	}
	var ev fray.Event
	switch cmd.Name {
	case "start":
		if s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The duel has already started.")
		}
		if len(s.Combatants) < 2 {
			return nil, fray.Errorf(fray.EINVALID, "A duel needs two combatants; add them first.")
		}
		ev, err = fray.NewEvent(fray.EventStarted, nil)
	case "attack":
		var a toyAttack
		var expr string
		if a, expr, err = s.attack(cmd); err != nil {
			return nil, err
		}
		odds := s.attackOdds(a, expr)
		var roll fray.Roll
		if roll, err = r.Roll(s.NameOf(a.Attacker), expr); err != nil {
			return nil, err
		}
		a.Damage = roll.Total
		if ev, err = fray.NewEvent(toyEventAttacked, a, roll); err == nil {
			ev.Odds = &odds
		}
	case "next":
		var c *fray.Combatant
		if c, err = s.turnOf(cmd.Arg(0)); err != nil {
			return nil, err
		}
		ev, err = fray.NewEvent(toyEventTurnEnded, fray.NameData{Who: c.ID})
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "The duel declares the command %q but does not decide it.", cmd.Name)
	}
	if err != nil {
		return nil, err
	}
	return []fray.Event{ev}, nil
}

// turnOf returns whose turn it is, checking that name, when not "",
// names them.
func (s *toyState) turnOf(name string) (*fray.Combatant, error) {
	if !s.Started {
		return nil, fray.Errorf(fray.EINVALID, "The duel has not started; use start.")
	}
	cur := s.ByID(s.current())
	if cur == nil {
		return nil, fray.Errorf(fray.EINVALID, "Nobody is left to take a turn.")
	}
	if name != "" {
		c, err := s.Lookup(name)
		if err != nil {
			return nil, err
		}
		if c.ID != cur.ID {
			return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", cur, c)
		}
	}
	return cur, nil
}

// attack checks attack TARGET and returns the attack, without its
// damage, and the die it rolls.
func (s *toyState) attack(cmd fray.Command) (toyAttack, string, error) {
	a, err := s.turnOf("")
	if err != nil {
		return toyAttack{}, "", err
	}
	t, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return toyAttack{}, "", err
	}
	switch {
	case s.Hit != "":
		return toyAttack{}, "", fray.Errorf(fray.EINVALID, "%s has already attacked this turn; use next.", a)
	case vigor(a) <= 0:
		return toyAttack{}, "", fray.Errorf(fray.EINVALID, "%s is down and attacks no more; use next.", a)
	case t.ID == a.ID:
		return toyAttack{}, "", fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", a)
	case vigor(t) <= 0:
		return toyAttack{}, "", fray.Errorf(fray.EINVALID, "%s is already down.", t)
	}
	expr := toyDice[0].expr
	for _, d := range toyDice {
		if d.word == s.Setting(toySetDie, toyDice[0].word) {
			expr = d.expr
		}
	}
	return toyAttack{Attacker: a.ID, Target: t.ID}, expr, nil
}

var _ fray.Oddser = (*toySystem)(nil)

// Odds returns the exact odds of an attack: the target hurt or down, and
// the damage.
func (*toySystem) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s, err := toyGet(st)
	if err != nil {
		return fray.Odds{}, err
	}
	if cmd.Name != "attack" {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", cmd.Name)
	}
	a, expr, err := s.attack(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return s.attackOdds(a, expr), nil
}

// attackOdds returns the odds of the attack a with the die expr.
func (s *toyState) attackOdds(a toyAttack, expr string) fray.Odds {
	sides, _ := strconv.Atoi(strings.TrimPrefix(expr, "1d"))
	left := vigor(s.ByID(a.Target))
	o := fray.Odds{For: s.NameOf(a.Attacker), Roll: "attack", Expr: expr, DistOf: fray.DistDamage, Mean: float64(sides+1) / 2}
	down := 0
	for v := 1; v <= sides; v++ {
		o.Dist = append(o.Dist, fray.Point{V: v, P: 1 / float64(sides)})
		if v >= left {
			down++
		}
	}
	o.Bands = []fray.Band{
		{Name: "hurt", P: float64(sides-down) / float64(sides)},
		{Name: "down", P: float64(down) / float64(sides)},
	}
	return o
}

// Apply changes st by the event ev.
func (*toySystem) Apply(st fray.State, ev fray.Event) error {
	s, err := toyGet(st)
	if err != nil {
		return err
	}
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if err != nil {
		return err
	}
	if handled {
		switch {
		case added != nil:
			c := s.ByID(added.Combatant.ID)
			if _, ok := c.Tracks[toyTrack]; !ok {
				v, given := c.Stats[toyTrack]
				if !given {
					v = toyDefaultVigor
				}
				v = max(0, v)
				if c.Tracks == nil {
					c.Tracks = map[string]fray.Track{}
				}
				c.Tracks[toyTrack] = fray.Track{Value: v, Max: v}
			}
			if s.Started {
				s.Order = append(s.Order, c.ID)
			}
		case removed != "":
			s.drop(removed)
		}
		return nil
	}
	switch ev.Type {
	case fray.EventStarted:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts a duel already started.", ev.Seq)
		}
		s.Started, s.Round, s.Cur = true, 1, 0
		for _, c := range s.Combatants {
			s.Order = append(s.Order, c.ID)
		}
		s.Rounds = []toyRound{{Round: 1, Turns: []toyTurn{}}}
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		engine.TurnEdge(&s.Encounter, s.Round, s.current(), fray.EdgeStart)
	case toyEventAttacked:
		var d toyAttack
		if err := ev.Decode(&d); err != nil {
			return err
		}
		t := s.ByID(d.Target)
		if d.Attacker == "" || d.Attacker != s.current() || t == nil || s.Hit != "" || d.Damage < 0 {
			return fray.Errorf(fray.EINVALID, "Event %d is an attack that cannot be made.", ev.Seq)
		}
		tr := t.Tracks[toyTrack]
		tr.Value = max(0, tr.Value-d.Damage)
		t.Tracks[toyTrack] = tr
		s.Hit, s.Damage = d.Target, d.Damage
	case toyEventTurnEnded:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if d.Who == "" || d.Who != s.current() {
			return fray.Errorf(fray.EINVALID, "Event %d ends %s's turn, which is not in progress.", ev.Seq, d.Who)
		}
		r := &s.Rounds[len(s.Rounds)-1]
		r.Turns = append(r.Turns, toyTurn{Who: d.Who, Hit: s.Hit, Damage: s.Damage})
		engine.TurnEdge(&s.Encounter, s.Round, d.Who, fray.EdgeEnd)
		s.Cur++
		s.turnOver()
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, unknown to the duel.", ev.Seq, ev.Type)
	}
	return nil
}

// turnOver clears the turn's attack and begins the next turn: a new
// round when everyone has gone.
func (s *toyState) turnOver() {
	s.Hit, s.Damage = "", 0
	if s.Cur >= len(s.Order) && len(s.Order) > 0 {
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		s.Round++
		s.Cur = 0
		s.Rounds = append(s.Rounds, toyRound{Round: s.Round, Turns: []toyTurn{}})
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
	}
	if id := s.current(); id != "" {
		engine.TurnEdge(&s.Encounter, s.Round, id, fray.EdgeStart)
	}
}

// drop takes the removed combatant id out of the order; removing the one
// whose turn it is ends that turn untaken.
func (s *toyState) drop(id fray.CombatantID) {
	i := slices.Index(s.Order, id)
	if i < 0 {
		return
	}
	s.Order = slices.Delete(s.Order, i, i+1)
	switch {
	case i < s.Cur:
		s.Cur--
	case i == s.Cur:
		s.turnOver()
	}
}

// Check reports a broken invariant of the duel.
func (*toySystem) Check(st fray.State) error {
	s, err := toyGet(st)
	if err != nil {
		return err
	}
	if !s.Started {
		if len(s.Order) > 0 || s.Rounds != nil {
			return fray.Errorf(fray.EINTERNAL, "The duel has an order of play before the start.")
		}
		return nil
	}
	if len(s.Order) != len(s.Combatants) || (s.Cur >= len(s.Order) && len(s.Order) > 0) {
		return fray.Errorf(fray.EINTERNAL, "The order of play holds %d turns for %d combatants, at turn %d.", len(s.Order), len(s.Combatants), s.Cur)
	}
	for i, id := range s.Order {
		if s.ByID(id) == nil || slices.Index(s.Order, id) != i {
			return fray.Errorf(fray.EINTERNAL, "The order of play holds %s, absent or twice.", id)
		}
	}
	if len(s.Rounds) != s.Round {
		return fray.Errorf(fray.EINTERNAL, "Round %d has %d rounds of history.", s.Round, len(s.Rounds))
	}
	return nil
}

// View shows the order of play: everyone in turn, with their vigor.
func (*toySystem) View(st fray.State) fray.View {
	s, _ := toyGet(st)
	if s == nil {
		s = &toyState{}
	}
	v := fray.View{
		Rules:      toyID,
		Started:    s.Started,
		Round:      s.Round,
		CurrentID:  s.current(),
		Current:    s.NameOf(s.current()),
		Order:      []fray.Slot{},
		History:    []fray.RoundTurns{},
		Combatants: s.CombatantList(),
		Settings:   maps.Clone(s.Settings),
	}
	order := slices.Clone(s.Order)
	if !s.Started {
		for _, c := range s.Combatants {
			order = append(order, c.ID)
		}
	}
	for i, id := range order {
		c := s.ByID(id)
		sl := fray.Slot{ID: id, Name: c.Name, Status: fmt.Sprintf("%s %d/%d", toyTrack, vigor(c), c.Tracks[toyTrack].Max)}
		switch {
		case s.Started && i < s.Cur:
			sl.Markers = []string{fray.MarkActed}
		case s.Started && i == s.Cur:
			sl.Markers = []string{fray.MarkCurrent}
		}
		v.Order = append(v.Order, sl)
		if s.Started {
			v.Next = append(v.Next, fray.Slot{ID: id, Name: c.Name})
		}
	}
	for _, r := range s.Rounds {
		h := fray.RoundTurns{Round: r.Round, Turns: []string{}}
		for _, t := range r.Turns {
			who := s.NameOf(t.Who)
			if t.Hit == "" {
				h.Turns = append(h.Turns, who)
				h.Who = append(h.Who, []string{who})
				continue
			}
			hit := s.NameOf(t.Hit)
			h.Turns = append(h.Turns, fmt.Sprintf("%s (hits %s for %d)", who, hit, t.Damage))
			h.Who = append(h.Who, []string{who, hit})
		}
		v.History = append(v.History, h)
	}
	return v
}

var _ fray.Sheeter = (*toySystem)(nil)

// Sheet returns what a duel's character sheet holds: vigor, as a stat
// and as the track it starts.
func (*toySystem) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats:  []fray.SheetRange{{Name: toyTrack, Min: 1, Max: 100}},
		Tracks: []fray.SheetRange{{Name: toyTrack, Min: 0, Max: 100}},
		Rank:   fray.SheetRange{Name: "rank", Min: 0, Max: 10},
		Kinds:  []string{fray.PowerKindWeapon},
	}
}

var _ fray.Hinter = (*toySystem)(nil)

// Hints returns the duel's page: Next on the turn, and the attack form.
func (*toySystem) Hints() fray.Hints {
	return fray.Hints{
		Buttons: []fray.Button{{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next {current}", Aria: "Next: {current}'s turn ends"}},
		Forms:   []string{fray.FormAttack},
	}
}

var _ kit.NamedRoller = (*toySystem)(nil)

// NamedRoll returns the duel's damage die by name.
func (*toySystem) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Toy Duel damage: the die of an attack, 1d6 or 1d8",
		Keys: []kit.RollKey{
			{Name: "die", Value: "d6|d8", Help: "the damage die (set die=)"},
			{Name: "roll", Value: "N", Help: "the face rolled at the table", RollOnly: true},
		},
		Examples: []string{"roll die=d8", "prob die=d6"},
		Roll:     toyNamedRoll,
		Prob:     toyNamedProb,
	}
}

// toyRolled is a named roll of the damage die, as JSON shows it.
type toyRolled struct {
	Expr   string `json:"expr"`
	Damage int    `json:"damage"`
}

// toyDie reads die= of a named roll.
func toyDie(a *kit.RollArgs) (expr string, sides int, err error) {
	w, ok := a.Get("die")
	if !ok {
		w = toyDice[0].word
	}
	for _, d := range toyDice {
		if d.word == w {
			sides, _ = strconv.Atoi(strings.TrimPrefix(d.expr, "1d"))
			return d.expr, sides, nil
		}
	}
	return "", 0, fmt.Errorf("die=%s: want d6 or d8", w)
}

func toyNamedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	expr, sides, err := toyDie(a)
	if err != nil {
		return kit.RollMaker{}, err
	}
	face, err := a.Int("roll", 0, 1, sides)
	if err != nil {
		return kit.RollMaker{}, err
	}
	once := func(src dice.Source) (any, string, error) {
		if face != 0 {
			src = dice.Faces(face)
		}
		r, err := dice.MustParse(expr).Roll(src)
		if err != nil {
			return nil, "", err
		}
		return toyRolled{Expr: expr, Damage: r.Total}, fmt.Sprintf("toy damage: %s: %d\n", expr, r.Total), nil
	}
	return kit.RollMaker{Physical: face != 0, Make: once}, nil
}

func toyNamedProb(a *kit.RollArgs) ([]any, string, error) {
	expr, sides, err := toyDie(a)
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "toy damage: %s\n", expr)
	var rows []kit.Band
	var dist []fray.Point
	for v := 1; v <= sides; v++ {
		rows = append(rows, kit.Band{Name: strconv.Itoa(v), P: 1 / float64(sides)})
		dist = append(dist, fray.Point{V: v, P: 1 / float64(sides)})
	}
	kit.Table(&b, rows)
	return []any{struct {
		Expr string       `json:"expr"`
		Dist []fray.Point `json:"dist"`
	}{expr, dist}}, b.String(), nil
}

// toyScripts are duels for the conformance suite: one fought to the
// end, one with a newcomer, a removal, a rename and a condition.
var toyScripts = []rulestest.Script{
	{Name: "fight", Text: `add Ann side=pc vigor=5
add Bob
attack Bob
start
attack Bob dice=4
attack Bob
next
attack Ann dice=2
next Ann
next
attack Bob roll=6
attack Bob
next
odds attack Ann
set die=d8
attack Ann dice=8
next`},
	{Name: "crowd", Text: `add Ann side=pc
add Bob
add Cat side=npc vigor=3
condition Cat dazed until=end
start
attack Cat
next
add Dan
rename Bob Robert
attack Dan
remove Cat
next
remove Dan
next Ann
attack Robert dice=6
next
undo
redo
next`},
}

// TestToyConformance runs the conformance suite on the duel, and checks
// its named roll's declaration and its hints as every system's tests do.
func TestToyConformance(t *testing.T) {
	// The suite reads a rule package's own old logs at ./testdata/v2
	// (rulestest.OldLogs); this directory's testdata/v2 holds the five
	// systems' folders, not the toy's logs: run it where there are none.
	t.Chdir(t.TempDir())
	rulestest.Run(t, newToy, toyScripts...)
	if err := newToy().(kit.NamedRoller).NamedRoll().Check(toyID); err != nil {
		t.Error(err)
	}
}
