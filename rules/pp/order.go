package pp

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// ID is the system's id, as given to fray play --rules.
const ID = "pp"

// Roles of a combatant, which break ties in Edge (P-10): heroes before
// villains before foes before extras. They are wire strings.
const (
	RoleHero    = "hero"
	RoleVillain = "villain"
	RoleFoe     = "foe"
	RoleExtra   = "extra"
)

// roles lists the roles in the order they win ties.
var roles = []string{RoleHero, RoleVillain, RoleFoe, RoleExtra}

// Keys of the add command beyond the shared ones and the traits.
const (
	KeyRole   = "role"   // hero, villain, foe or extra; default hero for side=pc, villain otherwise
	KeyMinion = "minion" // yes for a minion, who acts after everyone else
)

// ExtraActionPenalty is the dice each action after the first in a turn
// takes off that turn's rolls (P-10).
const ExtraActionPenalty = 2

// MaxActions is the most actions one character may take in one turn.
const MaxActions = 10

// Event types of the P&P order of play. They are wire strings: never rename
// one.
const (
	EventRole     = "pp.role"     // a combatant's role and whether a minion; data: RoleData
	EventRound    = "pp.round"    // a page (round) begins in Edge order; data: RoundData
	EventActed    = "pp.acted"    // the current character takes an action; data: ActData
	EventTurnDone = "pp.turn_end" // the current character's turn ends; data: fray.NameData
	EventTiebreak = "pp.tiebreak" // the GM's order for full ties; data: NamesData
)

// RoleData is the payload of EventRole.
type RoleData struct {
	Name   string `json:"name" fray:"who"`  // the combatant
	Role   string `json:"role"`             // hero, villain, foe or extra
	Minion bool   `json:"minion,omitempty"` // whether a minion, who acts last
}

// RoundData is the payload of EventRound.
type RoundData struct {
	Round int      `json:"round"`            // the page beginning, from 1
	Order []string `json:"order" fray:"who"` // its order of play
}

// ActData is the payload of EventActed: Nth counts the actor's actions in
// this turn, from 1.
type ActData struct {
	Name string `json:"name" fray:"who"` // whose action
	Nth  int    `json:"nth"`             // the how-manyeth in the turn
}

// NamesData is a payload naming several combatants.
type NamesData struct {
	Names []string `json:"names" fray:"who"` // the combatants, in order
}

// Char is the P&P bookkeeping of one combatant.
type Char struct {
	Name   string `json:"name"`             // the combatant
	Role   string `json:"role"`             // hero, villain, foe or extra
	Minion bool   `json:"minion,omitempty"` // whether a minion
}

// State is the state of a P&P encounter.
type State struct {
	fray.Encounter
	// Chars holds each combatant's role, in the order added.
	Chars []*Char
	// Tiebreak is the GM's order for characters tied on Edge and role.
	Tiebreak []string
	// Order is this page's order of play; Pos the index of the turn in
	// progress, len(Order) when the page is over.
	Order []string
	Pos   int
	// Actions counts the actions taken in the turn in progress.
	Actions int
	// Taken counts the actions taken in each finished turn of this page,
	// by position in Order.
	Taken []int
	// History holds the turns taken on each page.
	History []fray.RoundTurns
	// Res holds what challenge rolls and combat keep (challenge.go).
	Res Resolution
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := &State{
		Encounter: s.CloneEncounter(),
		Tiebreak:  slices.Clone(s.Tiebreak),
		Order:     slices.Clone(s.Order),
		Pos:       s.Pos,
		Actions:   s.Actions,
		Taken:     slices.Clone(s.Taken),
		Res:       s.Res.clone(),
	}
	if s.Chars != nil {
		d.Chars = make([]*Char, len(s.Chars))
		for i, c := range s.Chars {
			cc := *c
			d.Chars[i] = &cc
		}
	}
	// A finished page's turns are never changed again, so the copy
	// shares them; only the list and the last page's turns are copied.
	d.History = slices.Clone(s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1].Turns = slices.Clone(d.History[n-1].Turns)
	}
	return d
}

func (s *State) char(name string) *Char {
	for _, c := range s.Chars {
		if fray.SameName(c.Name, name) {
			return c
		}
	}
	return nil
}

// Edge returns the named combatant's Edge: Perception plus the higher of
// Agility and Intellect, or the edge stat when they were added with one.
func (s *State) Edge(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	if e, ok := c.Stats["edge"]; ok {
		return e
	}
	return c.Stat("perception") + max(c.Stat("agility"), c.Stat("intellect"))
}

// Current returns whose turn it is, or "".
func (s *State) Current() string {
	if s.Started && s.Pos < len(s.Order) {
		return s.Order[s.Pos]
	}
	return ""
}

// Penalty returns the dice the current turn's extra actions take off its
// rolls (P-10): 2 per action after the first. It is 0 for anyone but the
// character whose turn it is.
func (s *State) Penalty(name string) int {
	if cur := s.Current(); cur == "" || !fray.SameName(cur, name) || s.Actions < 2 {
		return 0
	}
	return ExtraActionPenalty * (s.Actions - 1)
}

// rank orders the combatants by Edge (P-10): minions last; then higher
// Edge; then heroes, villains, foes, extras; then the GM's order; then the
// order they were added.
func (s *State) rank() []string {
	var names []string
	for _, c := range s.Combatants {
		names = append(names, c.Name)
	}
	gm := func(n string) int {
		if i := engine.Index(s.Tiebreak, n); i >= 0 {
			return i
		}
		return len(s.Tiebreak)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		ca, cb := s.char(a), s.char(b)
		if ca.Minion != cb.Minion {
			if ca.Minion {
				return 1
			}
			return -1
		}
		if x := s.Edge(b) - s.Edge(a); x != 0 {
			return x
		}
		if x := slices.Index(roles, ca.Role) - slices.Index(roles, cb.Role); x != 0 {
			return x
		}
		return gm(a) - gm(b)
	})
	return names
}

// System is the P&P order of play. The zero value is ready to use.
type System struct{}

// New returns the P&P system.
func New() *System { return &System{} }

var spec = engine.Spec{
	Stats: []string{"agility", "intellect", "might", "perception", "toughness", "willpower", "edge", StatHealth, StatResolve, StatCount},
	Settings: map[string][]string{
		SettingResults:  {"narrative", "traditional"},
		SettingSwing:    {"no", "yes"},
		SettingDefining: {"reduce", "oneshot", "either"},
	},
}

// ID returns "pp".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Prowlers & Paragons Ultimate Edition" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return &State{} }

// Commands lists the commands the system accepts.
func (*System) Commands() []fray.CommandDoc {
	docs := engine.SharedDocs(spec)
	docs[0].Usage += " [role=hero|villain|foe|extra] [minion=yes]"
	return append(docs,
		fray.CommandDoc{Usage: "order NAME …", Summary: "The GM's order for characters tied on Edge and role."},
		fray.CommandDoc{Usage: "start", Summary: "Begin the first page: turns by Edge, highest first (P-10)."},
		fray.CommandDoc{Usage: "act [NAME]", Summary: "The current character takes an action; each after the first is −2d to the turn's rolls."},
		fray.CommandDoc{Usage: "next", Summary: "The current character's turn ends; after the last a new page begins."},
		fray.CommandDoc{Usage: "check NAME TRAIT [vs=NAME [TRAIT]] [threshold=hard|N] [mod=±Nd] [auto=N|all] [vs_mod=±Nd] [vs_auto=N|all] [same=yes] [successes=N] [vs_successes=N]", Summary: "A challenge roll against a static threshold or an opponent; same=yes: whoever rolls more is the actor (P-1 … P-3)."},
		fray.CommandDoc{Usage: "spend NAME resolve=N | spend NAME reroll | spend NAME explode", Summary: "Resolve after the last roll (a check, an attack, an exchange, an assist or a group action), by anyone who rolled in it: +1d a point (3 in a defining moment), a reroll keeping the better, or (checking your swing) exploding 6s; the roll is settled again (P-4, P-5)."},
		fray.CommandDoc{Usage: "assist HELPER for=NAME TRAIT", Summary: "Help against Hard (2): +1d to NAME's next roll per 2 net successes, rounding up; only the best helper counts (P-6)."},
		fray.CommandDoc{Usage: "group TRAIT NAME NAME … threshold=N", Summary: "A group action: everyone rolls; net successes above 3 go to allies who failed (P-7)."},
		fray.CommandDoc{Usage: "contest A B TRAIT [TRAIT_B] [exchanges=3] [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all]", Summary: "A contest; rolls its first exchange; the winner of each takes +2d into the next, the winner of the last decides (P-8)."},
		fray.CommandDoc{Usage: "exchange [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all]", Summary: "Roll the contest's next exchange."},
		fray.CommandDoc{Usage: "defining NAME reduce=TRAIT | defining NAME oneshot", Summary: "A hero's defining moment for their next roll: 6s explode, 3 dice a Resolve; once a story, one hero a scene; then −1d to an ability of the task's kind, or the one-shot cost (P-9)."},
		fray.CommandDoc{Usage: "scene / story", Summary: "Begin a new scene (another hero may have a defining moment) or a new story (every hero may again)."},
		fray.CommandDoc{Usage: "attack ATTACKER TARGET with=TRAIT [def=TRAIT]", Summary: "An action: the trait against the defender's best defence (agility, might, toughness); 1 Health per net success, one minion per net success; −2d per earlier action this turn (P-10)."},
		fray.CommandDoc{Usage: "damage NAME N", Summary: "The GM takes N Health off (no more than is left; for minions, N of them defeated); 0 Health is defeated, as by an attack (P-10); no action. Example: damage Paragon 2."},
		fray.CommandDoc{Usage: "heal NAME N", Summary: "The GM gives back N Health, never above the character's Health (for minions, N defeated ones back up); a hero unconscious after a one-shot defining moment stays so until the scene ends. Example: heal \"Doctor Vile\" 3."},
		fray.CommandDoc{Usage: "odds COMMAND …", Summary: "The exact odds of a roll (check, attack, assist, group, contest, exchange, or spending Resolve on the last roll) before rolling: each narrative-control band (or traditional result), every modifier. Example: odds check Gatecrasher might vs=\"Citizen Soldier\"."},
	)
}

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a P&P state.")
	}
	return s, nil
}

// Decide returns the events cmd produces in st.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s0, err := get(st)
	if err != nil {
		return nil, err
	}
	if cmd.Name == engine.CmdAdd {
		return sys.decideAdd(s0, cmd)
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		return evs, err
	}
	if evs, handled, err := s0.decideResolution(cmd, r); handled {
		return evs, err
	}
	// The commands below read nothing their own events change: a page's
	// order (rank) depends on the combatants, their stats and roles and the
	// GM's order, which starting, ending a turn or acting leave alone. So
	// they are decided on st itself, with no copy to apply the events to;
	// the engine applies them in turn, and puts the state back if one
	// cannot be applied.
	s := s0
	var evs []fray.Event
	emit := func(typ string, data any) error {
		ev, err := fray.NewEvent(typ, data)
		if err != nil {
			return err
		}
		evs = append(evs, ev)
		return nil
	}
	newRound := func() error { return emit(EventRound, RoundData{Round: s.Round + 1, Order: s.rank()}) }
	switch cmd.Name {
	case "start":
		if err := noWords(cmd, "start"); err != nil {
			return nil, err
		}
		if s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has already started.")
		}
		if len(s.Combatants) == 0 {
			return nil, fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
		}
		if err := emit(fray.EventStarted, nil); err != nil {
			return nil, err
		}
		err = newRound()
	case "order":
		if len(cmd.Args) == 0 {
			return nil, fray.Errorf(fray.EINVALID, "Usage: order NAME … (the GM's order for characters tied on Edge and role).")
		}
		if err := engine.CheckOpts(cmd); err != nil {
			return nil, err
		}
		var names []string
		for _, a := range cmd.Args {
			c, err := s.Lookup(a)
			if err != nil {
				return nil, err
			}
			if engine.Index(names, c.Name) >= 0 {
				return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
			}
			names = append(names, c.Name)
		}
		err = emit(EventTiebreak, NamesData{Names: names})
	case "act", "next":
		if err := engine.CheckArgs(cmd, 0, 1, cmd.Name+" [NAME]"); err != nil {
			return nil, err
		}
		if err := engine.CheckOpts(cmd); err != nil {
			return nil, err
		}
		if !s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
		}
		cur := s.Current()
		if cur == "" {
			if cmd.Name == "next" && len(cmd.Args) == 0 {
				err = newRound()
				break
			}
			return nil, fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin page %d.", s.Round+1)
		}
		if n := cmd.Arg(0); n != "" {
			c, err := s.Lookup(n)
			if err != nil {
				return nil, err
			}
			if !fray.SameName(c.Name, cur) {
				return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(cur), c)
			}
		}
		if cmd.Name == "act" {
			if s.Actions >= MaxActions {
				return nil, fray.Errorf(fray.EINVALID, "%s has taken %d actions this turn, the limit (MaxActions).", fray.Mention(cur), MaxActions)
			}
			err = emit(EventActed, ActData{Name: cur, Nth: s.Actions + 1})
			break
		}
		// Ending the last turn of the page begins the next page.
		if err = emit(EventTurnDone, fray.NameData{Name: cur}); err == nil && s.Pos+1 >= len(s.Order) {
			err = newRound()
		}
	case "initiative":
		return nil, fray.Errorf(fray.EINVALID, "P&P rolls no initiative: turns go by Edge (Perception + the higher of Agility and Intellect).")
	default:
		return nil, fray.Errorf(fray.EINVALID, "P&P has no command %q; try help.", cmd.Name)
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// decideAdd adds a combatant with the shared add, taking out the role=
// and minion= keys first; their event follows the shared one.
func (sys *System) decideAdd(s *State, cmd fray.Command) ([]fray.Event, error) {
	rd := RoleData{}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	if v, ok := shared.Opts[KeyRole]; ok {
		v = strings.ToLower(v)
		if !slices.Contains(roles, v) {
			return nil, fray.Errorf(fray.EINVALID, "role=%s is not a role; use hero, villain, foe or extra.", engine.Clip(v))
		}
		rd.Role = v
		delete(shared.Opts, KeyRole)
	}
	if v, ok := shared.Opts[KeyMinion]; ok {
		b, err := engine.ParseYesNo(KeyMinion, v)
		if err != nil {
			return nil, err
		}
		rd.Minion = b
		delete(shared.Opts, KeyMinion)
	}
	evs, _, err := engine.DecideShared(&s.Encounter, shared, spec)
	if err != nil {
		return nil, err
	}
	var ad fray.AddedData
	if err := evs[0].Decode(&ad); err != nil {
		return nil, err
	}
	rd.Name = ad.Combatant.Name
	if rd.Role == "" {
		rd.Role = RoleVillain
		if ad.Combatant.Side == fray.SidePC {
			rd.Role = RoleHero
		}
	}
	ev, err := fray.NewEvent(EventRole, rd)
	if err != nil {
		return nil, err
	}
	return append(evs, ev), nil
}

func noWords(cmd fray.Command, usage string) error {
	if err := engine.CheckArgs(cmd, 0, 0, usage); err != nil {
		return err
	}
	return engine.CheckOpts(cmd)
}

// Apply changes st by the event ev.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if handled {
		if err != nil {
			return err
		}
		if added != nil {
			r := RoleVillain
			if added.Combatant.Side == fray.SidePC {
				r = RoleHero
			}
			s.Chars = append(s.Chars, &Char{Name: added.Combatant.Name, Role: r})
		}
		if removed != "" {
			s.remove(removed)
		}
		return nil
	}
	if ok, err := s.applyResolution(ev); ok {
		return err
	}
	switch ev.Type {
	case fray.EventStarted:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
	case EventRole:
		var d RoleData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := s.char(d.Name)
		if c == nil || !slices.Contains(roles, d.Role) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %q the role %q.", ev.Seq, fray.Mention(d.Name), d.Role)
		}
		c.Role, c.Minion = d.Role, d.Minion
	case EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = slices.Clone(d.Names)
	case EventRound:
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.Current() != "" {
			return fray.Errorf(fray.EINVALID, "Event %d begins page %d out of sequence.", ev.Seq, d.Round)
		}
		for _, n := range d.Order {
			if s.char(n) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, n)
			}
		}
		if s.Round > 0 {
			engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		}
		s.Round, s.Order, s.Pos, s.Actions, s.Taken = d.Round, slices.Clone(d.Order), 0, 0, nil
		s.History = append(s.History, fray.RoundTurns{Round: d.Round, Turns: []string{}})
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	case EventActed, EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if cur := s.Current(); cur == "" || !fray.SameName(cur, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d is for %q, whose turn it is not.", ev.Seq, fray.Mention(d.Name))
		}
		if ev.Type == EventActed {
			s.Actions++
			return nil
		}
		s.note(turnWords(d.Name, s.Actions))
		s.Taken = append(s.Taken, s.Actions)
		s.Pos++
		s.Actions = 0
		engine.TurnEdge(&s.Encounter, s.Round, d.Name, fray.EdgeEnd)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which P&P does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// turnWords is a turn as the history says it: "Nightwing (3 actions, −4d)".
func turnWords(name string, actions int) string {
	if actions < 2 {
		return name
	}
	return name + " (" + strconv.Itoa(actions) + " actions, −" + strconv.Itoa(ExtraActionPenalty*(actions-1)) + "d)"
}

func (s *State) note(t string) {
	if n := len(s.History); n > 0 {
		s.History[n-1].Turns = append(s.History[n-1].Turns, t)
	}
}

func (s *State) remove(name string) {
	s.dropRecord(name)
	if i := slices.IndexFunc(s.Chars, func(c *Char) bool { return fray.SameName(c.Name, name) }); i >= 0 {
		s.Chars = slices.Delete(s.Chars, i, i+1)
	}
	if s.Tiebreak = engine.Without(s.Tiebreak, name); len(s.Tiebreak) == 0 {
		s.Tiebreak = nil
	}
	i := engine.Index(s.Order, name)
	if i < 0 {
		return
	}
	s.Order = slices.Delete(s.Order, i, i+1)
	switch {
	case i < s.Pos:
		s.Taken = slices.Delete(s.Taken, i, i+1)
		s.Pos--
	case i == s.Pos:
		s.Actions = 0 // the next in order begins their turn
	}
	if len(s.Taken) == 0 {
		s.Taken = nil
	}
}

// View shows the page's order of play by Edge with markers, and the next
// page's order. A slot's tracks (Health, minions standing, Resolve) are
// its Status, never its Note (see slotOf); no note or history turn of P&P
// names another combatant, so About and Who stay empty.
func (sys *System) View(st fray.State) fray.View {
	v := fray.View{Rules: ID, History: []fray.RoundTurns{}, Order: []fray.Slot{}}
	s, err := get(st)
	if err != nil {
		return v
	}
	v.Started, v.Round, v.Current = s.Started, s.Round, s.Current()
	v.Combatants = s.CombatantList()
	for i := range v.Combatants {
		c := &v.Combatants[i]
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		if ch := s.char(c.Name); ch != nil && ch.Minion {
			n := minionCount(c)
			down := 0
			if r := s.record(c.Name); r != nil {
				down = min(r.Down, n)
			}
			c.Tracks["minions"] = fray.Track{Value: n - down, Max: n}
		} else if h := Health(c); h > 0 {
			c.Tracks[StatHealth] = fray.Track{Value: s.HealthLeft(c.Name), Max: h}
		}
		if r := resolveOf(c); r > 0 {
			c.Tracks[StatResolve] = fray.Track{Value: s.ResolveLeft(c.Name), Max: r}
		}
		if len(c.Tracks) == 0 {
			c.Tracks = nil
		}
	}
	if len(s.Settings) > 0 {
		v.Settings = maps.Clone(s.Settings)
	}
	for _, h := range s.History {
		v.History = append(v.History, fray.RoundTurns{Round: h.Round, Turns: slices.Clone(h.Turns)})
	}
	// A slot's words are its Edge and role, what its fight has left it
	// (resolutionWords) and, in this page's order, the actions of its
	// turn; track is the first of them that gives a track's numbers.
	words := func(n string) (parts []string, track int) {
		c := s.char(n)
		parts = []string{"Edge " + strconv.Itoa(s.Edge(n)), c.Role}
		if c.Minion {
			parts = append(parts, "minion")
		}
		res, t := s.resolutionWords(n)
		if track = -1; t >= 0 {
			track = len(parts) + t
		}
		return append(parts, res...), track
	}
	order := s.Order
	if !s.Started {
		order = s.rank()
	}
	for i, n := range order {
		parts, track := words(n)
		var marks []string
		switch {
		case !s.Started:
		case i < s.Pos:
			marks = []string{fray.MarkActed}
			if i < len(s.Taken) && s.Taken[i] > 1 {
				parts = append(parts, strconv.Itoa(s.Taken[i])+" actions")
			}
		case i == s.Pos:
			marks = []string{fray.MarkCurrent}
			switch {
			case s.Actions == 1:
				parts = append(parts, "1 action")
			case s.Actions > 1:
				parts = append(parts, strconv.Itoa(s.Actions)+" actions", "−"+strconv.Itoa(s.Penalty(n))+"d")
			}
		}
		x := slotOf(n, parts, track)
		x.Markers = marks
		v.Order = append(v.Order, x)
	}
	if s.Started {
		for _, n := range s.rank() {
			parts, track := words(n)
			v.Next = append(v.Next, slotOf(n, parts, track))
		}
	}
	return v
}

// slotOf is the slot of the combatant named n with the words parts, whose
// first track's numbers are parts[track] (none when track < 0). The words
// from there on are the slot's Status, declared private, so that players
// never read an NPC's Health, minions standing or Resolve in the order;
// since Slot.String puts Status after Note, the words after the first
// track's numbers ("defeated", "+1d assist", the turn's actions) go in
// Status too, and the slot reads exactly as one note of all its words.
func slotOf(n string, parts []string, track int) fray.Slot {
	if track < 0 || track >= len(parts) {
		return fray.Slot{Name: n, Note: strings.Join(parts, ", ")}
	}
	return fray.Slot{Name: n, Note: strings.Join(parts[:track], ", "), Status: strings.Join(parts[track:], ", ")}
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, "P&P state: "+format, args...)
	}
	if s.Started != (s.Round >= 1) {
		return bad("started is %v on page %d", s.Started, s.Round)
	}
	if len(s.Chars) != len(s.Combatants) {
		return bad("%d combatants but %d roles", len(s.Combatants), len(s.Chars))
	}
	for i, c := range s.Chars {
		if !fray.SameName(c.Name, s.Combatants[i].Name) || !slices.Contains(roles, c.Role) {
			return bad("role %d is %q (%s) for combatant %q", i, c.Name, c.Role, s.Combatants[i].Name)
		}
	}
	if s.Pos < 0 || s.Pos > len(s.Order) || len(s.Taken) != min(s.Pos, len(s.Order)) {
		return bad("turn %d of %d with %d taken", s.Pos, len(s.Order), len(s.Taken))
	}
	for i, n := range s.Order {
		if s.char(n) == nil {
			return bad("the order names %q, who is not present", n)
		}
		if engine.Index(s.Order[i+1:], n) >= 0 {
			return bad("%s has two turns on one page", n)
		}
	}
	if s.Actions < 0 || s.Actions > MaxActions || (s.Actions > 0 && s.Current() == "") {
		return bad("%d actions in the turn of %q", s.Actions, s.Current())
	}
	return s.checkResolution()
}
