package pp

import (
	"slices"
	"strconv"
	"sync"

	"fray"
	"fray/rules/kit"
)

// Event types of challenge rolls and combat (P-1 … P-10). They are wire
// strings: never rename one.
const (
	EventChecked   = "pp.checked"   // a challenge roll, or a P-10 attack; data: CheckData
	EventSpent     = "pp.spent"     // Resolve spent after a roll; data: SpentData
	EventSides     = "pp.sides"     // every roll of a same-goal check of three or more; data: SidesData
	EventAssisted  = "pp.assisted"  // an assist roll; data: AssistData
	EventGrouped   = "pp.grouped"   // a group action; data: GroupData
	EventContest   = "pp.contest"   // a contest begins; data: ContestData
	EventExchanged = "pp.exchanged" // one exchange of a contest; data: ExchangeData
	EventDefining  = "pp.defining"  // a defining moment declared; data: DefiningData
	EventScene     = "pp.scene"     // a new scene; no data
	EventStory     = "pp.story"     // a new story; no data
)

// Kinds of roll recorded in CheckData.Kind. They are wire strings.
const (
	KindCheck  = "check"
	KindAttack = "attack"
)

// Stats beyond the traits.
const (
	StatHealth  = "health"  // Health; derived from the traits when not given
	StatResolve = "resolve" // Resolve points
	StatCount   = "count"   // how many minions a minion combatant stands for (default 1)
)

// Settings of challenge rolls.
const (
	SettingResults  = "results"  // narrative (default) or traditional (P-3)
	SettingSwing    = "swing"    // no (default) or yes: checking your swing (P-5)
	SettingDefining = "defining" // reduce (default), oneshot or either: a defining moment's cost (P-9)
)

// Options of the commands of challenge rolls and combat.
const (
	KeyVs          = "vs"
	KeyThreshold   = "threshold"
	KeyMod         = "mod"
	KeyAuto        = "auto"
	KeyVsMod       = "vs_mod"
	KeyVsAuto      = "vs_auto"
	KeySame        = "same"
	KeySuccesses   = "successes"
	KeyVsSuccesses = "vs_successes"
	KeyFor         = "for"
	KeyWith        = "with"
	KeyDef         = "def"
	KeyResolve     = "resolve"
	KeyExchanges   = "exchanges"
	KeyReduce      = "reduce"
	KeyOneShot     = "oneshot"
)

// Numbers of challenge rolls.
const (
	// AssistThreshold is the threshold an assist is rolled against (P-6).
	AssistThreshold = 2
	// AssistNetPerDie is the net successes per bonus die of an assist,
	// rounding up.
	AssistNetPerDie = 2
	// GroupShareAbove is the net successes above which a group member
	// hands the rest to allies (P-7).
	GroupShareAbove = 3
	// ContestCarry is the bonus dice the winner of an exchange takes into
	// the next (P-8).
	ContestCarry = 2
	// DefaultExchanges is a contest's exchanges unless exchanges= says.
	DefaultExchanges = 3
	// MaxExchanges bounds a contest, a tied final exchange included.
	MaxExchanges = 20
	// OneShotPenalty is the dice off every roll for the rest of the story
	// after a one-shot defining moment (P-9).
	OneShotPenalty = 2
	// MaxGroup is the most characters in one group action.
	MaxGroup = 20
)

// Record is the P&P bookkeeping of one combatant's resolution: Health
// lost, Resolve spent, an assist waiting, defining moments.
type Record struct {
	// ID is the combatant's id.
	ID fray.CombatantID `json:"id"`
	// Wounds is the Health lost.
	Wounds int `json:"wounds,omitempty"`
	// Down counts the minions defeated, for a minion combatant.
	Down int `json:"down,omitempty"`
	// Spent is the Resolve spent.
	Spent int `json:"spent,omitempty"`
	// Assist is the bonus dice of the best assist, for the next roll.
	Assist int `json:"assist,omitempty"`
	// Defining is the cost of a defining moment declared for the next
	// roll: a trait to reduce, or "oneshot".
	Defining string `json:"defining,omitempty"`
	// Defined reports a defining moment this story.
	Defined bool `json:"defined,omitempty"`
	// OneShot reports a one-shot defining moment this story: −2d to every
	// roll until the story ends.
	OneShot bool `json:"oneshot,omitempty"`
	// Out reports the hero unconscious after a one-shot defining moment,
	// until the scene ends.
	Out bool `json:"out,omitempty"`
	// Took is the Health a one-shot defining moment took and no heal has
	// given back yet; the story's end gives it back, the cost being over.
	Took int `json:"took,omitempty"`
}

// Key returns the id of the record's combatant (kit.Keyed).
func (r *Record) Key() fray.CombatantID { return r.ID }

// Resolution is the part of a P&P state that challenge rolls and combat
// keep: each combatant's record, the last roll (for Resolve spent after
// it), a contest in progress and the scene's defining moment. It refers
// to combatants by id: the payloads it keeps of the last roll identify
// them as the events do, and keep none of the events' words, which name
// them as they were called then.
type Resolution struct {
	Records []*Record
	// HasLast reports a last roll, which Resolve may still be spent on;
	// LastOf says what it was: LastCheck (a challenge roll or an attack,
	// in Last), LastExchange (LastExchange, with Before the contest as it
	// stood before it), LastAssist or LastGroup.
	HasLast bool
	LastOf  string
	// Last is the check or attack without Rivals (words) and the rest of
	// a same-goal roll's ranking (By, RivalIDs): one of three or more is
	// ranked again from Sides whenever it is settled again.
	Last         CheckData
	LastExchange ExchangeData
	Before       Contest
	LastAssist   AssistData
	// LastGroup is the group action without Given (words), which
	// settleGroup says again.
	LastGroup GroupData
	// Sides is every roll of the last check when it was a same-goal roll
	// of three or more.
	Sides   SidesData
	Contest Contest
	// Scene is the hero who declared this scene's defining moment.
	Scene fray.CombatantID
}

func (r Resolution) clone() Resolution {
	d := r
	d.LastGroup = r.LastGroup.clone()
	d.Sides.Sides = slices.Clone(r.Sides.Sides)
	d.Records = kit.CloneEach(r.Records, nil)
	return d
}

// keepCheck returns a check's payload as Last keeps it.
func keepCheck(d CheckData) CheckData {
	d.By, d.Rivals, d.RivalIDs = "", "", nil
	return d
}

// keepGroup returns a group action's payload, decoded from its event, as
// LastGroup keeps it.
func keepGroup(d GroupData) GroupData {
	d.Given = nil
	return d
}

// record returns the record of the combatant id, or nil.
func (s *State) record(id fray.CombatantID) *Record { return kit.Find(s.Res.Records, id) }

// ensureRecord returns the record of the present combatant id, making it
// if there is none.
func (s *State) ensureRecord(id fray.CombatantID) *Record {
	if r := s.record(id); r != nil {
		return r
	}
	r := &Record{ID: id}
	s.Res.Records = append(s.Res.Records, r)
	return r
}

func (s *State) dropRecord(id fray.CombatantID) {
	if s.Res.Records = kit.Drop(s.Res.Records, id); len(s.Res.Records) == 0 {
		s.Res.Records = nil
	}
	if s.Res.HasLast && s.inLast(id) {
		s.forgetLast()
	}
	if s.Res.Contest.Active && (s.Res.Contest.A == id || s.Res.Contest.B == id || slices.Contains(s.Res.Contest.More, id)) {
		s.Res.Contest = Contest{}
	}
	if s.Res.Scene == id {
		s.Res.Scene = ""
	}
}

// Health returns the combatant's Health: the health stat (or a sheet's
// health track), or the higher of
// avg(Toughness, Might) and avg(Toughness, Willpower), halves rounding up.
func Health(c *fray.Combatant) int {
	if h, ok := c.Stats[StatHealth]; ok {
		return h
	}
	if t, ok := c.Tracks[StatHealth]; ok {
		return t.Max
	}
	t := c.Stats["toughness"] // the names as Stat would lower them, read at once
	return max(ceilDiv(t+c.Stats["might"], 2), ceilDiv(t+c.Stats["willpower"], 2))
}

func ceilDiv(a, b int) int {
	if a <= 0 {
		return -((-a) / b)
	}
	return (a + b - 1) / b
}

// HealthLeft returns the named combatant's Health left.
func (s *State) HealthLeft(name string) int { return s.healthLeft(s.presentID(name)) }

func (s *State) healthLeft(id fray.CombatantID) int {
	c := s.ByID(id)
	if c == nil {
		return 0
	}
	w := 0
	if r := s.record(id); r != nil {
		w = r.Wounds
	}
	return max(0, Health(c)-w)
}

// ResolveLeft returns the named combatant's Resolve left.
func (s *State) ResolveLeft(name string) int { return s.resolveLeft(s.presentID(name)) }

func (s *State) resolveLeft(id fray.CombatantID) int {
	c := s.ByID(id)
	if c == nil {
		return 0
	}
	sp := 0
	if r := s.record(id); r != nil {
		sp = r.Spent
	}
	return resolveOf(c) - sp
}

// resolveOf returns a combatant's Resolve points: the resolve stat, or a
// sheet's resolve track.
func resolveOf(c *fray.Combatant) int {
	if r, ok := c.Stats[StatResolve]; ok {
		return r
	}
	return c.Tracks[StatResolve].Value
}

// Defeated reports whether the named combatant is out of the fight: at 0
// Health, or, for minions, every one of them defeated (P-10).
func (s *State) Defeated(name string) bool { return s.defeated(s.presentID(name)) }

func (s *State) defeated(id fray.CombatantID) bool {
	c := s.ByID(id)
	if c == nil {
		return false
	}
	return s.isDefeated(c)
}

// isDefeated is defeated for the present combatant c.
func (s *State) isDefeated(c *fray.Combatant) bool {
	id := c.ID
	r := s.record(id)
	if ch := s.char(id); ch != nil && ch.Minion {
		return r != nil && r.Down >= minionCount(c)
	}
	h, w := Health(c), 0 // healthLeft, with c and r looked up once
	if r != nil {
		w = r.Wounds
	}
	return h > 0 && max(0, h-w) == 0
}

func minionCount(c *fray.Combatant) int {
	if n, ok := c.Stats[StatCount]; ok && n > 0 {
		return n
	}
	return 1
}

// decideResolution decides the commands of challenge rolls and combat
// into tx; handled is false for any other.
func (s *State) decideResolution(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) (handled bool, err error) {
	switch cmd.Name {
	case "check":
		err = s.decideCheck(cmd, r, tx)
	case "attack":
		err = s.decideAttack(cmd, r, tx)
	case "spend":
		err = s.decideSpend(cmd, r, tx)
	case "assist":
		err = s.decideAssist(cmd, r, tx)
	case "group":
		err = s.decideGroup(cmd, r, tx)
	case "contest":
		err = s.decideContest(cmd, r, tx)
	case "exchange":
		err = s.decideExchange(cmd, r, tx)
	case "defining":
		err = s.decideDefining(cmd, tx)
	case "damage", "heal":
		err = s.decideHarm(cmd, tx)
	case "scene":
		err = tx.Emit(EventScene, nil)
	case "story":
		err = tx.Emit(EventStory, nil)
	default:
		return false, nil
	}
	return true, err
}

// checkedBuf lends Apply a CheckData to decode a roll's payload into, so
// that applying a roll allocates nothing for it.
var checkedBuf = sync.Pool{New: func() any { return new(CheckData) }}

// applyResolution applies the events of this file; handled is false for
// any other.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventChecked:
		buf := checkedBuf.Get().(*CheckData)
		*buf = CheckData{}
		err := ev.Decode(buf)
		d := *buf
		checkedBuf.Put(buf)
		if err != nil {
			return true, err
		}
		actor, opp := s.ByID(d.Actor), s.ByID(d.Opponent)
		if actor == nil || (!d.Static && opp == nil) {
			return true, fray.Errorf(fray.EINVALID, "Event %d is a roll by someone not present.", ev.Seq)
		}
		r := s.ensureRecord(actor.ID)
		r.Assist = 0
		if s.ByID(d.By) != nil {
			s.ensureRecord(d.By).Assist = 0
		}
		if d.OppAssist > 0 && opp != nil {
			s.ensureRecord(opp.ID).Assist = 0
		}
		s.payCost(actor.ID, d.Cost)
		if d.Kind == KindAttack && opp != nil {
			s.harm(opp.ID, d.Minion, d.Lost)
		}
		if opp != nil {
			// After the attack's harm: a one-shot moment's Health "drops
			// to 0" once the moment is resolved.
			s.payCost(opp.ID, d.OppCost)
		}
		if opp == nil {
			d.Opponent = "" // a static threshold's: nobody
		}
		s.Res.Last, s.Res.HasLast, s.Res.LastOf, s.Res.Sides = keepCheck(d), true, LastCheck, SidesData{}
	case EventSides:
		var d SidesData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if !s.Res.HasLast || s.Res.LastOf != LastCheck || !s.Res.Last.Same || len(d.Sides) < 3 || len(s.Res.Sides.Sides) > 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d lists the rolls of no same-goal check.", ev.Seq)
		}
		for _, x := range d.Sides {
			if s.ByID(x.Who) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d refers to %s, who is not present.", ev.Seq, x.Who)
			}
		}
		s.Res.Sides = d
		for _, x := range d.Sides[1:] {
			if x.Assist > 0 {
				s.ensureRecord(x.Who).Assist = 0
			}
		}
		for _, x := range d.Sides {
			// The check paid its actor's and its opponent's.
			if x.Who != s.Res.Last.Actor && x.Who != s.Res.Last.Opponent {
				s.payCost(x.Who, x.Cost)
			}
		}
	case EventSpent:
		return true, s.applySpent(ev)
	case EventAssisted:
		var d AssistData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.ByID(d.For) == nil || s.ByID(d.Helper) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an assist by or for someone not present.", ev.Seq)
		}
		r := s.ensureRecord(d.For)
		d.Before = r.Assist
		if d.Kept {
			r.Assist = d.Bonus
		}
		s.payCost(d.Helper, d.Cost)
		s.Res.HasLast, s.Res.LastOf, s.Res.LastAssist = true, LastAssist, d
	case EventGrouped:
		var d GroupData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		for _, id := range d.Who {
			if s.ByID(id) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d refers to %s, who is not present.", ev.Seq, id)
			}
			if r := s.record(id); r != nil {
				r.Assist = 0
			}
		}
		for i, cost := range d.Costs {
			if i < len(d.Who) {
				s.payCost(d.Who[i], cost)
			}
		}
		s.Res.HasLast, s.Res.LastOf, s.Res.LastGroup = true, LastGroup, keepGroup(d)
	case EventContest:
		var d ContestData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.ByID(d.A) == nil || s.ByID(d.B) == nil || s.Res.Contest.Active || slices.ContainsFunc(d.More, func(id fray.CombatantID) bool { return s.ByID(id) == nil }) {
			return true, fray.Errorf(fray.EINVALID, "Event %d begins a contest that cannot begin.", ev.Seq)
		}
		s.applyContest(d)
	case EventExchanged:
		var d ExchangeData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := &s.Res.Contest
		if !c.Active || d.N != c.Done+1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an exchange of no contest.", ev.Seq)
		}
		s.Res.HasLast, s.Res.LastOf, s.Res.LastExchange, s.Res.Before = true, LastExchange, d, *c
		if d.AssistA > 0 {
			s.ensureRecord(c.A).Assist = 0
		}
		if d.AssistB > 0 {
			s.ensureRecord(c.B).Assist = 0
		}
		s.payCost(c.A, d.CostA)
		s.payCost(c.B, d.CostB)
		for _, x := range d.More {
			if x.Assist > 0 {
				s.ensureRecord(x.Who).Assist = 0
			}
			s.payCost(x.Who, x.Cost)
		}
		s.applyExchange(d)
	case EventDefining:
		var d DefiningData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.ByID(d.Who) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d refers to %s, who is not present.", ev.Seq, d.Who)
		}
		s.ensureRecord(d.Who).Defining = d.Cost
		s.Res.Scene = d.Who
	case EventScene:
		s.Res.Scene = ""
		for _, r := range s.Res.Records {
			r.Out = false // they regain their wits
		}
	case EventStory:
		// Every part of a one-shot defining moment's cost is over with
		// the story: the −2d "for the rest of the story", and the Health
		// it took (other harm stays until healed).
		s.Res.Scene = ""
		for _, r := range s.Res.Records {
			r.Defined, r.OneShot, r.Out = false, false, false
			r.Wounds -= min(r.Wounds, r.Took)
			r.Took = 0
		}
	default:
		return s.applyHarm(ev)
	}
	return true, nil
}

// payCost pays the cost of the defining moment the combatant id had in a
// roll (P-9), when cost names one: the moment is over, once this story;
// the ability named loses 1d for good, or, one-shot, Health drops to 0 and
// the hero is unconscious to the scene's end, at −2d for the story.
func (s *State) payCost(id fray.CombatantID, cost string) {
	c := s.ByID(id)
	if cost == "" || c == nil {
		return
	}
	r := s.ensureRecord(id)
	r.Defining, r.Defined = "", true
	if cost == KeyOneShot {
		h := Health(c)
		r.OneShot, r.Out = true, true
		r.Took += max(0, h-r.Wounds)
		r.Wounds = max(r.Wounds, h)
	} else if n := c.Stats[cost]; n > 0 {
		kit.SetStat(c, cost, n-1)
	}
}

// resolutionWords is what the view says of a combatant's fight, part by
// part: "Health 4/6", "defeated", "Resolve 2/3", "+1d assist". track is
// the index of the first part that gives a track's numbers (Health, the
// minions standing, Resolve), or -1 when none does.
func (s *State) resolutionWords(id fray.CombatantID) (parts []string, track int) {
	track = -1
	c := s.ByID(id)
	if c == nil {
		return nil, track
	}
	numbers := func(w string) {
		if track < 0 {
			track = len(parts)
		}
		parts = append(parts, w)
	}
	r := s.record(id)
	ch := s.char(id)
	switch {
	case ch != nil && ch.Minion:
		n := minionCount(c)
		if r != nil && r.Down > 0 {
			numbers(strconv.Itoa(n-min(r.Down, n)) + " of " + strconv.Itoa(n) + " standing")
		}
	case r != nil && r.Wounds > 0:
		numbers("Health " + strconv.Itoa(s.healthLeft(id)) + "/" + strconv.Itoa(Health(c)))
	}
	if s.defeated(id) {
		parts = append(parts, "defeated")
	}
	if r != nil && r.Spent > 0 {
		numbers("Resolve " + strconv.Itoa(s.resolveLeft(id)) + "/" + strconv.Itoa(resolveOf(c)))
	}
	if r != nil {
		if r.Assist > 0 {
			parts = append(parts, "+"+strconv.Itoa(r.Assist)+"d assist")
		}
		if r.Defining != "" {
			parts = append(parts, "defining moment declared")
		}
		if r.Out {
			parts = append(parts, "unconscious to the scene's end")
		}
		if r.OneShot {
			parts = append(parts, "−2d this story")
		}
	}
	return parts, track
}

// checkResolution reports a broken invariant of the resolution state:
// every combatant it refers to is present, and it keeps none of the
// events' words.
func (s *State) checkResolution() error {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, "P&P state: "+format, args...)
	}
	for _, r := range s.Res.Records {
		c := s.ByID(r.ID)
		if c == nil {
			return bad("a record of %s, who is not present", r.ID)
		}
		if r.Wounds < 0 || r.Down < 0 || r.Spent < 0 || r.Assist < 0 || r.Took < 0 || r.Took > r.Wounds {
			return bad("%s has a negative count: %+v", c.Name, *r)
		}
	}
	present := func(what string, ids ...fray.CombatantID) error {
		for _, id := range ids {
			if s.ByID(id) == nil {
				return bad("%s refers to %q, who is not present", what, id)
			}
		}
		return nil
	}
	res := &s.Res
	if res.HasLast {
		var err error
		switch res.LastOf {
		case LastCheck:
			l := res.Last
			err = present("the last roll", l.Actor)
			if err == nil && l.Opponent != "" {
				err = present("the last roll", l.Opponent)
			}
			if err == nil && (l.Rivals != "" || l.By != "" || l.RivalIDs != nil) {
				err = bad("the last roll keeps its ranking %q", l.Rivals)
			}
			for _, x := range res.Sides.Sides {
				if err == nil {
					err = present("the last roll", x.Who)
				}
			}
		case LastExchange:
			err = present("the last exchange", res.Before.A, res.Before.B)
		case LastAssist:
			err = present("the last assist", res.LastAssist.Helper, res.LastAssist.For)
		case LastGroup:
			err = present("the last group action", res.LastGroup.Who...)
			if err == nil && res.LastGroup.Given != nil {
				err = bad("the last group action keeps the words %q", res.LastGroup.Given)
			}
		}
		if err != nil {
			return err
		}
	}
	if res.Contest.Active {
		if err := present("the contest", append([]fray.CombatantID{res.Contest.A, res.Contest.B}, res.Contest.More...)...); err != nil {
			return err
		}
	}
	if res.Scene != "" {
		return present("the scene's defining moment", res.Scene)
	}
	return nil
}
