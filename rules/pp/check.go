package pp

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// CheckData is the payload of EventChecked: the roll of Actor against a
// static threshold or an Opponent.
type CheckData struct {
	Kind     string           `json:"kind"`
	Actor    fray.CombatantID `json:"actor"`
	Trait    string           `json:"trait"`
	Opponent fray.CombatantID `json:"opponent,omitempty"`
	OppTrait string           `json:"opp_trait,omitempty"`
	// Static reports a static threshold (Threshold); otherwise the
	// opponent's successes are the threshold.
	Static    bool `json:"static"`
	Threshold int  `json:"threshold"`
	// Same reports a same-goal roll: whoever has more successes is the
	// actor (P-3); Swapped that the opponent had more.
	Same    bool `json:"same,omitempty"`
	Swapped bool `json:"swapped,omitempty"`
	// The actor's and the opponent's pools.
	Pool    Pool `json:"pool"`
	OppPool Pool `json:"opp_pool"`
	// Assist and Penalty are the bonus and penalty dice in Pool.Dice;
	// OppAssist the opponent's assist dice in OppPool.Dice (P-6: an
	// assist counts on the next roll of any kind, resisting too).
	Assist    int `json:"assist,omitempty"`
	Penalty   int `json:"penalty,omitempty"`
	OppAssist int `json:"opp_assist,omitempty"`
	// Successes and OppSuccesses are each side's successes; Sixes and
	// OppSixes the 6s their dice showed (for exploding them later).
	Successes    int `json:"successes"`
	OppSuccesses int `json:"opp_successes"`
	Sixes        int `json:"sixes,omitempty"`
	OppSixes     int `json:"opp_sixes,omitempty"`
	// Net is the net successes of whoever is the actor; Band and Result
	// its narrative band and traditional result; Shown the result when
	// the encounter shows traditional results (results=traditional, P-3),
	// which the text output's result: line then shows instead of Band.
	Net    int    `json:"net"`
	Band   string `json:"band"`
	Result string `json:"result"`
	Shown  string `json:"shown,omitempty"`
	// Cost is the cost of the defining moment this roll was, if any;
	// OppCost that of the opponent's moment, resisting it (P-9: a
	// defining moment is the hero's next challenge roll of any kind).
	Cost    string `json:"cost,omitempty"`
	OppCost string `json:"opp_cost,omitempty"`
	// Lost is what an attack took: Health, or minions defeated.
	Lost   int  `json:"lost,omitempty"`
	Minion bool `json:"minion,omitempty"`
	// By is who called a same-goal roll of several when someone else
	// rolled most; Rivals names the others beyond the actor and the
	// opponent in words, with their successes: "Whisper 3, Vile 1".
	By     fray.CombatantID `json:"by,omitempty"`
	Rivals string           `json:"rivals,omitempty"`
	// RivalIDs are the rivals of Rivals, in its order, declaring whom
	// its words mention; nothing applies it.
	RivalIDs []fray.CombatantID `json:"rival_names,omitempty"`
}

// SideData is one character's roll in a same-goal check of three or more.
type SideData struct {
	Who       fray.CombatantID `json:"name"`
	Trait     string           `json:"trait"`
	Pool      Pool             `json:"pool"`
	Successes int              `json:"successes"`
	Sixes     int              `json:"sixes,omitempty"`
	// Assist is the assist dice in Pool.Dice of one of the others (the
	// caller's are SidesData.Assist): an assist counts on the next roll
	// of any kind (P-6).
	Assist int `json:"assist,omitempty"`
	// Cost is the cost of the defining moment this roll was, if any
	// (P-9); the check's Cost and OppCost say it again of its actor and
	// opponent, and EventSides pays it for the others.
	Cost string `json:"cost,omitempty"`
}

// SidesData is the payload of EventSides, which follows the EventChecked
// of a same-goal check of three or more: every roll, in the order named,
// the one who called it first with the assist and penalty dice
// (Assist, Penalty) in their pool. Resolve spent by any of them ranks
// them again.
type SidesData struct {
	Sides   []SideData `json:"sides"`
	Assist  int        `json:"assist,omitempty"`
	Penalty int        `json:"penalty,omitempty"`
}

// rank makes the most successes of sides the actor of d and the next the
// opponent (P-3), ties going to the one named first, and names the rest
// in d.Rivals, in the names enc gives them. It returns the places in
// sides of the actor and the opponent.
func rank(d *CheckData, sides SidesData, enc *fray.Encounter) (actor, opp int) {
	idx := make([]int, len(sides.Sides))
	for i := range idx {
		idx[i] = i
	}
	x := sides.Sides
	slices.SortStableFunc(idx, func(a, b int) int { return x[b].Successes - x[a].Successes })
	a, b := idx[0], idx[1]
	d.By, d.Assist, d.Penalty = "", sides.Assist, sides.Penalty
	if a != 0 {
		d.By, d.Assist, d.Penalty = x[0].Who, 0, 0
	}
	d.Actor, d.Trait, d.Pool, d.Successes, d.Sixes, d.Cost = x[a].Who, x[a].Trait, x[a].Pool, x[a].Successes, x[a].Sixes, x[a].Cost
	d.Opponent, d.OppTrait, d.OppPool, d.OppSuccesses, d.OppSixes, d.OppCost = x[b].Who, x[b].Trait, x[b].Pool, x[b].Successes, x[b].Sixes, x[b].Cost
	var rivals []string
	var ids []fray.CombatantID
	for _, i := range idx[2:] {
		rivals = append(rivals, enc.NameOf(x[i].Who)+" "+strconv.Itoa(x[i].Successes))
		ids = append(ids, x[i].Who)
	}
	d.Rivals, d.RivalIDs = strings.Join(rivals, ", "), ids
	return a, b
}

// settle works out the net, band and actor of a check.
func (s *State) settle(d *CheckData) {
	a, b := d.Successes, d.OppSuccesses
	if d.Static {
		b = d.Threshold
	}
	d.Swapped = d.Same && b > a
	d.Net = a - b
	if d.Swapped {
		d.Net = b - a
	}
	band := BandOf(d.Net)
	d.Band, d.Result, d.Shown = string(band), band.Traditional(), ""
	if s.Setting(SettingResults, "narrative") == "traditional" {
		d.Shown = d.Result
	}
}

// planCheck builds a check (or attack) from cmd without rolling: the
// actor's side and the opponent's, or the static threshold.
func (s *State) planCheck(cmd fray.Command) (CheckData, []side, error) {
	d := CheckData{Kind: KindCheck}
	extra := 0
	if c := s.Find(cmd.Arg(0)); c != nil {
		extra = s.penalty(c.ID) / ExtraActionPenalty
	}
	act, err := s.actorSide(cmd, cmd.Arg(0), cmd.Arg(1), extra, fray.AppliesCheck, nil)
	if err != nil {
		return CheckData{}, nil, err
	}
	sides := []side{act}
	vs, opposed := cmd.Opts[KeyVs]
	th, static := cmd.Opts[KeyThreshold]
	switch {
	case opposed && static:
		return CheckData{}, nil, fray.Errorf(fray.EINVALID, "Give vs=NAME (an opposed roll) or threshold= (a static one), not both.")
	case opposed && s.Find(vs) == nil && strings.Contains(vs, ","):
		// Several characters with the same goal (P-3).
		rivals, err := s.rivalSides(cmd, act, strings.Split(vs, ","))
		if err != nil {
			return CheckData{}, nil, err
		}
		sides = append(sides, rivals...)
		d.Same = true
		d.Opponent, d.OppTrait, d.OppPool = rivals[0].id, rivals[0].trait, rivals[0].pool
	case opposed:
		ot := cmd.Arg(2)
		if ot == "" {
			ot = act.trait
		}
		o, err := s.Lookup(vs)
		if err != nil {
			return CheckData{}, nil, err
		}
		if o.ID == act.id {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "%s cannot roll against themselves.", o)
		}
		opp, err := s.makeSide(cmd, o.Name, ot, oppOpts, true, 0, 0, fray.AppliesCheck, nil)
		if err != nil {
			return CheckData{}, nil, err
		}
		sides = append(sides, opp)
		d.Opponent, d.OppTrait, d.OppPool, d.OppAssist = opp.id, opp.trait, opp.pool, opp.assist
		if v, ok := cmd.Opts[KeySame]; ok {
			if d.Same, err = engine.ParseYesNo(KeySame, v); err != nil {
				return CheckData{}, nil, err
			}
		}
	default:
		if len(cmd.Args) == 3 {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "A second trait is the opponent's; name the opponent with vs=NAME.")
		}
		for _, k := range []string{KeyVsMod, KeyVsAuto, KeyVsSuccesses, KeySame} {
			if _, ok := cmd.Opts[k]; ok {
				return CheckData{}, nil, fray.Errorf(fray.EINVALID, "%s= is for an opponent; name one with vs=NAME.", k)
			}
		}
		if !static {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "Give the threshold: threshold=hard (or a number), or an opponent: vs=NAME.")
		}
		d.Static = true
		d.Threshold, _ = ParseThreshold(th) // the declaration takes only thresholds
	}
	d.Actor, d.Trait, d.Pool, d.Assist, d.Penalty = act.id, act.trait, act.pool, act.assist, act.penalty
	return d, sides, nil
}

// rivalSides builds the sides of the others in a same-goal roll of
// several characters: vs=B,C same=yes, with vs_successes=N,N,… counted.
func (s *State) rivalSides(cmd fray.Command, act side, names []string) ([]side, error) {
	if v, ok := cmd.Opts[KeySame]; !ok || v != "yes" {
		return nil, fray.Errorf(fray.EINVALID, "Several opponents roll only for the same goal: add same=yes (whoever rolls most is the actor, the next the opponent).")
	}
	for _, k := range []string{KeyVsMod, KeyVsAuto} {
		if _, ok := cmd.Opts[k]; ok {
			return nil, fray.Errorf(fray.EINVALID, "%s= is for one opponent; with several, each rolls their trait as it is.", k)
		}
	}
	if len(names) > MaxGroup {
		return nil, fray.Errorf(fray.EINVALID, "At most %d characters roll for one goal.", MaxGroup)
	}
	var counted []string
	if v, ok := cmd.Opts[KeyVsSuccesses]; ok {
		counted = strings.Split(v, ",")
		if len(counted) != len(names) {
			return nil, fray.Errorf(fray.EINVALID, "vs_successes= gives %d counts for %d opponents.", len(counted), len(names))
		}
	}
	ot := cmd.Arg(2)
	if ot == "" {
		ot = act.trait
	}
	seen := []fray.CombatantID{act.id}
	var out []side
	for i, n := range names {
		c, err := s.Lookup(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		if slices.Contains(seen, c.ID) {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		seen = append(seen, c.ID)
		one := fray.Command{Name: cmd.Name}
		if counted != nil {
			one.Opts = map[string]string{KeyVsSuccesses: strings.TrimSpace(counted[i])}
		}
		sd, err := s.makeSide(one, c.Name, ot, oppOpts, true, 0, 0, fray.AppliesCheck, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, sd)
	}
	return out, nil
}

// decideCheck decides check NAME TRAIT … (P-1 … P-5).
func (s *State) decideCheck(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	d, sides, err := s.planCheck(cmd)
	if err != nil {
		return err
	}
	return s.rollCheck(d, sides, r, cmd, tx)
}

// rollCheck rolls a planned check or attack and records its events: the
// roll with its odds, every side's roll of a same-goal check of three or
// more, and the conditions the roll used up.
func (s *State) rollCheck(d CheckData, sides []side, r fray.Roller, cmd fray.Command, tx *kit.Txn[*State]) error {
	var odds fray.Odds
	var err error
	if tx.Unrecorded {
		err = s.checkWorksOut(d, sides) // EmitOdds keeps no odds
	} else {
		odds, err = s.checkOdds(d, sides)
	}
	if err != nil {
		return err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return err
	}
	d.Successes, d.Sixes = res[0].successes, res[0].sixes
	if len(res) > 1 {
		d.OppSuccesses, d.OppSixes = res[1].successes, res[1].sixes
	}
	var all *SidesData
	actor, opp := 0, 1 // the places in sides of the actor and the opponent
	if len(sides) > 2 {
		// Several with the same goal: the most successes is the actor, the
		// next the opponent (P-3).
		all = &SidesData{Assist: d.Assist, Penalty: d.Penalty}
		for i, sd := range sides {
			x := SideData{Who: sd.id, Trait: sd.trait, Pool: sd.pool, Successes: res[i].successes, Sixes: res[i].sixes, Cost: sd.cost}
			if i > 0 {
				x.Assist = sd.assist
			}
			all.Sides = append(all.Sides, x)
		}
		actor, opp = rank(&d, *all, &s.Encounter)
	}
	s.settle(&d)
	d.Cost = sides[actor].cost
	if len(sides) > 1 {
		d.OppCost = sides[opp].cost
	}
	if d.Kind == KindAttack {
		d.Lost = s.lostTo(d, sides[opp].id)
	}
	if !tx.Unrecorded {
		// The words are the log's; Apply reads none of them.
		more := ""
		if all != nil {
			more = sidesMoments(d, *all, &s.Encounter)
		}
		labelRolls(rolls, d, s, sides, more)
	}
	if err := addRoll(tx, cmd, EventChecked, d, rolls, odds, nil); err != nil {
		return err
	}
	if all != nil {
		if err := tx.Emit(EventSides, *all); err != nil {
			return err
		}
	}
	return tx.Spend(spendConditions(sides))
}

// lostTo is what an attack takes of its target, opp: 1 Health per net
// success (at most what is left), or one minion per net success.
func (s *State) lostTo(d CheckData, opp fray.CombatantID) int {
	if d.Net <= 0 || d.Swapped {
		return 0
	}
	left, _ := s.standing(opp)
	return min(d.Net, left)
}

// labelRolls names each roll with what it was and the last with the
// outcome, and more after it, so that a transcript reads on its own.
func labelRolls(rolls []fray.Roll, d CheckData, s *State, sides []side, more string) {
	for i := range rolls {
		for _, sd := range sides {
			if rolls[i].For == sd.name {
				rolls[i].For = sd.name + " (" + poolWords(sd.trait, sd.pool) + ")"
				break
			}
		}
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + outcome(d, s) + more + ")"
	}
}

func poolWords(trait string, p Pool) string {
	w := kit.Title(trait) + " " + strconv.Itoa(p.Dice) + "d"
	if p.Modifier != 0 {
		w += " " + signed(p.Modifier) + "d"
	}
	if p.SetAside > 0 {
		w += ", " + strconv.Itoa(p.SetAside) + " set aside for " + strconv.Itoa(p.Auto())
	}
	if p.DefiningMoment {
		w += ", a defining moment"
	}
	return w
}

func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// outcome says how a check or attack came out: "7 against 6: 1 net
// success, Gatecrasher is the actor: actor narrates, opponent embellishes".
func outcome(d CheckData, s *State) string {
	against := strconv.Itoa(d.OppSuccesses)
	if d.Static {
		against = ThresholdName(d.Threshold)
	}
	w := strconv.Itoa(d.Successes) + " against " + against + ": "
	actor, opp := s.NameOf(d.Actor), s.NameOf(d.Opponent)
	if d.Swapped {
		actor = opp
	}
	w += plural(d.Net, "net success", "net successes")
	if d.Same {
		w += ", " + actor + " is the actor"
		if d.Rivals != "" {
			w += " and " + opp + " the opponent (then " + d.Rivals + ")"
		}
	}
	w += ": " + s.bandWords(Band(d.Band))
	switch {
	case d.Cost != "" && d.By != "":
		// The one who called the roll is not its actor: name whose.
		w += momentWords(s.NameOf(d.Actor), d.Cost)
	case d.Cost != "":
		w += "; the defining moment's cost: " + costWords(d.Cost)
	}
	w += momentWords(s.NameOf(d.Opponent), d.OppCost)
	if d.Kind == KindAttack {
		switch {
		case d.Lost == 0:
			w += "; no harm"
		case d.Minion:
			w += "; " + plural(d.Lost, "minion", "minions") + " of " + opp + " defeated"
		default:
			w += "; " + opp + " loses " + strconv.Itoa(d.Lost) + " Health"
		}
	}
	return w
}

// costWords says what a defining moment costing cost takes: "Might −1d
// for good", or the one-shot cost.
func costWords(cost string) string {
	if cost == KeyOneShot {
		return "Health to 0, unconscious to the scene's end, −2d for the rest of the story"
	}
	return kit.Title(cost) + " −1d for good"
}

// momentWords says, after a roll's outcome, the cost of the defining
// moment the one called name had in it: "; Whisper's defining moment's
// cost: Agility −1d for good"; "" when there was none.
func momentWords(name, cost string) string {
	if cost == "" {
		return ""
	}
	return "; " + name + "'s defining moment's cost: " + costWords(cost)
}

// sidesMoments says the costs of the defining moments in a same-goal
// roll of three or more, of the rolls ranked beyond its actor and
// opponent.
func sidesMoments(d CheckData, all SidesData, enc *fray.Encounter) string {
	w := ""
	for _, x := range all.Sides {
		if x.Who != d.Actor && x.Who != d.Opponent {
			w += momentWords(enc.NameOf(x.Who), x.Cost)
		}
	}
	return w
}

func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}
