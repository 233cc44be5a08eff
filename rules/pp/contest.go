package pp

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/rules/kit"
)

// Options of contest and exchange (P-8).
const (
	KeyAlso          = "also"           // the contestants after A and B
	KeyAlsoSuccesses = "also_successes" // their successes counted at the table
)

// ContestData is the payload of EventContest.
type ContestData struct {
	A         fray.CombatantID `json:"a"`
	B         fray.CombatantID `json:"b"`
	TraitA    string           `json:"trait_a"`
	TraitB    string           `json:"trait_b"`
	Exchanges int              `json:"exchanges"`
	// More lists the contestants after A and B (also=), who roll B's
	// trait; nil for a contest of two.
	More []fray.CombatantID `json:"more,omitempty"`
}

// Rival is the roll in an exchange of a contestant after A and B.
type Rival struct {
	Who       fray.CombatantID `json:"who"`
	Successes int              `json:"successes"`
	Carry     int              `json:"carry,omitempty"`
	Pool      Pool             `json:"pool"`
	Sixes     int              `json:"sixes,omitempty"`
	Assist    int              `json:"assist,omitempty"`
	Cost      string           `json:"cost,omitempty"`
}

// ExchangeData is the payload of EventExchanged.
type ExchangeData struct {
	N          int              `json:"n"`
	SuccessesA int              `json:"successes_a"`
	SuccessesB int              `json:"successes_b"`
	CarryA     int              `json:"carry_a,omitempty"`
	CarryB     int              `json:"carry_b,omitempty"`
	Winner     fray.CombatantID `json:"winner,omitempty"`
	// Over reports the contest's end; Outcome who won it ("" drawn).
	Over    bool             `json:"over,omitempty"`
	Outcome fray.CombatantID `json:"outcome,omitempty"`
	// PoolA and PoolB are the two pools (the carry in Dice); SixesA and
	// SixesB the 6s they showed.
	PoolA  Pool `json:"pool_a"`
	PoolB  Pool `json:"pool_b"`
	SixesA int  `json:"sixes_a,omitempty"`
	SixesB int  `json:"sixes_b,omitempty"`
	// AssistA and AssistB are the assist dice in PoolA and PoolB: an
	// assist counts on the next roll of any kind, an exchange too (P-6).
	AssistA int `json:"assist_a,omitempty"`
	AssistB int `json:"assist_b,omitempty"`
	// CostA and CostB are the costs of the contestants' defining moments,
	// when this exchange was one (P-9: the hero's next challenge roll of
	// any kind).
	CostA string `json:"cost_a,omitempty"`
	CostB string `json:"cost_b,omitempty"`
	// TraitA and TraitB are the traits this exchange rolled, when the
	// command named them ("each exchange covers a separate part of the
	// overall task": sprinting, climbing, rooftops); "" for the
	// contest's own.
	TraitA string `json:"trait_a,omitempty"`
	TraitB string `json:"trait_b,omitempty"`
	// More holds the rolls of the contestants after A and B, in the
	// contest's order; nil in a contest of two.
	More []Rival `json:"more,omitempty"`
}

// Contest is a contest in progress (P-8), between the combatants A and B.
type Contest struct {
	Active    bool             `json:"active"`
	A         fray.CombatantID `json:"a"`
	B         fray.CombatantID `json:"b"`
	TraitA    string           `json:"trait_a"`
	TraitB    string           `json:"trait_b"`
	Exchanges int              `json:"exchanges"`
	// More lists the contestants after A and B.
	More []fray.CombatantID `json:"more,omitempty"`
	Done int                `json:"done"`
	// Carry is the winner of the last exchange: +2d in the next.
	Carry fray.CombatantID `json:"carry,omitempty"`
}

// names returns the names the contestants have now.
func (c Contest) names(enc *fray.Encounter) (a, b string) {
	return enc.NameOf(c.A), enc.NameOf(c.B)
}

// decideContest decides contest A B TRAIT [TRAIT2] [exchanges=N] (P-8): it
// begins the contest and rolls its first exchange.
func (s *State) decideContest(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	cd, next, err := s.planContest(cmd)
	if err != nil {
		return err
	}
	if err := tx.Emit(EventContest, cd); err != nil {
		return err
	}
	return next.decideExchange(firstExchange(cmd), r, tx)
}

// firstExchange is the exchange a contest command rolls: its options.
func firstExchange(cmd fray.Command) fray.Command {
	return fray.Command{Name: "exchange", Opts: cmd.Opts}
}

// planContest checks contest A B TRAIT … and returns the contest it
// begins and a copy of s in which it has begun, to plan its first
// exchange in.
func (s *State) planContest(cmd fray.Command) (ContestData, *State, error) {
	if s.Res.Contest.Active {
		a, b := s.Res.Contest.names(&s.Encounter)
		return ContestData{}, nil, fray.Errorf(fray.EINVALID, "A contest between %s and %s is under way; roll its next exchange with exchange.", fray.Mention(a), fray.Mention(b))
	}
	a, b, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return ContestData{}, nil, err
	}
	if a.ID == b.ID {
		return ContestData{}, nil, fray.Errorf(fray.EINVALID, "%s cannot contest against themselves.", a)
	}
	ta := strings.ToLower(cmd.Arg(2))
	tb := ta
	if len(cmd.Args) == 4 {
		tb = strings.ToLower(cmd.Arg(3))
	}
	n := DefaultExchanges
	if v, ok := cmd.Opts[KeyExchanges]; ok {
		n, _ = strconv.Atoi(v) // the declaration bounds it
	}
	cd := ContestData{A: a.ID, B: b.ID, TraitA: ta, TraitB: tb, Exchanges: n}
	if v, ok := cmd.Opts[KeyAlso]; ok {
		if cd.More, err = s.moreContestants(v, a.ID, b.ID); err != nil {
			return ContestData{}, nil, err
		}
	}
	next := s.CloneSharing().(*State)
	next.applyContest(cd)
	return cd, next, nil
}

// moreContestants reads also=NAME,… of a contest between a and b: the
// contestants after them, each present once (ours: the seed's foot race
// may have any number of runners).
func (s *State) moreContestants(v string, a, b fray.CombatantID) ([]fray.CombatantID, error) {
	names := strings.Split(v, ",")
	if len(names)+2 > MaxGroup {
		return nil, fray.Errorf(fray.EINVALID, "At most %d characters take part in one contest.", MaxGroup)
	}
	seen := []fray.CombatantID{a, b}
	var more []fray.CombatantID
	for _, n := range names {
		c, err := s.Lookup(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		if slices.Contains(seen, c.ID) {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice in the contest.", c)
		}
		seen = append(seen, c.ID)
		more = append(more, c.ID)
	}
	return more, nil
}

// settleExchange works out the winner of exchange d of contest c from
// the successes, and whether it ends the contest: the one contestant
// with the most, none when the most are tied.
func settleExchange(c Contest, d *ExchangeData) {
	d.Winner, d.Over, d.Outcome = "", false, ""
	best, n := d.SuccessesA, 1
	d.Winner = c.A
	for _, x := range append([]Rival{{Who: c.B, Successes: d.SuccessesB}}, d.More...) {
		switch {
		case x.Successes > best:
			best, n, d.Winner = x.Successes, 1, x.Who
		case x.Successes == best:
			n++
		}
	}
	if n > 1 {
		d.Winner = ""
	}
	// The winner of the last exchange decides the contest; a tied last
	// exchange is rolled again (ours), up to MaxExchanges.
	if d.N >= c.Exchanges && (d.Winner != "" || d.N >= MaxExchanges) {
		d.Over, d.Outcome = true, d.Winner
	}
}

// exchangeWords says how exchange d of contest c came out, in the names
// enc gives its contestants: "exchange 1 of 3: 3 against 2, Gatecrasher
// wins it; +2d to Gatecrasher in the next".
func exchangeWords(c Contest, d ExchangeData, enc *fray.Encounter) string {
	winner := enc.NameOf(d.Winner)
	w := "exchange " + strconv.Itoa(d.N) + " of " + strconv.Itoa(c.Exchanges)
	if d.N > c.Exchanges {
		w = "exchange " + strconv.Itoa(d.N) + ", the tied last one again"
	}
	w += ": " + strconv.Itoa(d.SuccessesA) + " against " + strconv.Itoa(d.SuccessesB)
	for _, x := range d.More {
		w += " against " + strconv.Itoa(x.Successes)
	}
	switch {
	case d.Winner == "":
		w += ", a tie"
	default:
		w += ", " + winner + " wins it"
	}
	switch {
	case d.Over && d.Outcome != "":
		w += "; " + enc.NameOf(d.Outcome) + " wins the contest and describes its outcome"
	case d.Over:
		w += "; the contest is drawn"
	case d.N >= c.Exchanges:
		w += "; the last exchange is tied, so it is rolled again"
	case d.Winner != "":
		w += "; +" + strconv.Itoa(ContestCarry) + "d to " + winner + " in the next"
	}
	return w
}

// applyExchange moves the contest on by exchange d: its winner carries
// +2d into the next; the contest ends when d says so.
func (s *State) applyExchange(d ExchangeData) {
	c := &s.Res.Contest
	c.Done, c.Carry = d.N, d.Winner
	if d.Over {
		*c = Contest{}
	}
}

func (s *State) applyContest(d ContestData) {
	s.Res.Contest = Contest{Active: true, A: d.A, B: d.B, TraitA: d.TraitA, TraitB: d.TraitB, Exchanges: d.Exchanges, More: d.More}
}

// planExchange builds the next exchange's two sides, with the +2d carry.
func (s *State) planExchange(cmd fray.Command) ([]side, error) {
	c := s.Res.Contest
	if !c.Active {
		return nil, fray.Errorf(fray.EINVALID, "No contest is under way; begin one with contest A B TRAIT.")
	}
	// The winner of the last exchange carries +2d into this one, before
	// the GM's modifier and the dice set aside.
	carryA, carryB := 0, 0
	switch c.Carry {
	case c.A:
		carryA = ContestCarry
	case c.B:
		carryB = ContestCarry
	}
	nameA, nameB := c.names(&s.Encounter)
	ta, tb := exchangeTraits(c, cmd)
	a, err := s.makeSide(cmd, nameA, ta, actorOpts, true, 0, carryA, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	b, err := s.makeSide(cmd, nameB, tb, oppOpts, true, 0, carryB, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	sides := []side{a, b}
	var counted []string
	if v, ok := cmd.Opts[KeyAlsoSuccesses]; ok {
		if counted = strings.Split(v, ","); len(counted) != len(c.More) {
			return nil, fray.Errorf(fray.EINVALID, "%s= gives %d counts for %d contestants after the first two.", KeyAlsoSuccesses, len(counted), len(c.More))
		}
	}
	for i, id := range c.More {
		one := fray.Command{Name: cmd.Name}
		if counted != nil {
			one.Opts = map[string]string{KeySuccesses: strings.TrimSpace(counted[i])}
		}
		carry := 0
		if c.Carry == id {
			carry = ContestCarry
		}
		sd, err := s.makeSide(one, s.NameOf(id), tb, actorOpts, true, 0, carry, fray.AppliesCheck, nil)
		if err != nil {
			return nil, err
		}
		sides = append(sides, sd)
	}
	for _, sd := range sides {
		if err := s.canRoll(sd.id, false); err != nil {
			return nil, err
		}
	}
	return sides, nil
}

// exchangeTraits returns the traits the exchange cmd rolls: those it
// names (exchange TRAIT [TRAIT_B], B's by default the same as A's), else
// the contest's.
func exchangeTraits(c Contest, cmd fray.Command) (a, b string) {
	switch len(cmd.Args) {
	case 0:
		return c.TraitA, c.TraitB
	case 1:
		a = strings.ToLower(cmd.Arg(0))
		return a, a
	}
	return strings.ToLower(cmd.Arg(0)), strings.ToLower(cmd.Arg(1))
}

// decideExchange rolls the contest's next exchange.
func (s *State) decideExchange(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	sides, err := s.planExchange(cmd)
	if err != nil {
		return err
	}
	odds, err := s.exchangeOdds(sides)
	if err != nil {
		return err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return err
	}
	c := s.Res.Contest
	d := ExchangeData{
		N: c.Done + 1, SuccessesA: res[0].successes, SuccessesB: res[1].successes,
		PoolA: sides[0].pool, PoolB: sides[1].pool, SixesA: res[0].sixes, SixesB: res[1].sixes,
		AssistA: sides[0].assist, AssistB: sides[1].assist, CostA: sides[0].cost, CostB: sides[1].cost,
	}
	if len(cmd.Args) > 0 {
		d.TraitA, d.TraitB = sides[0].trait, sides[1].trait
	}
	for i, sd := range sides[2:] {
		x := Rival{Who: sd.id, Successes: res[i+2].successes, Pool: sd.pool, Sixes: res[i+2].sixes, Assist: sd.assist, Cost: sd.cost}
		if c.Carry == sd.id {
			x.Carry = ContestCarry
		}
		d.More = append(d.More, x)
	}
	if c.Carry == c.A {
		d.CarryA = ContestCarry
	} else if c.Carry == c.B {
		d.CarryB = ContestCarry
	}
	settleExchange(c, &d)
	w := exchangeWords(c, d, &s.Encounter) + momentWords(sides[0].name, d.CostA) + momentWords(sides[1].name, d.CostB)
	for i, x := range d.More {
		w += momentWords(sides[i+2].name, x.Cost)
	}
	for i := range rolls {
		rolls[i].For = sides[i].name + " (" + poolWords(sides[i].trait, sides[i].pool) + ")"
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + w + ")"
	}
	return addRoll(tx, cmd, EventExchanged, d, rolls, odds, spendConditions(sides))
}

// rivalOdds is the odds of an exchange of three or more contestants: who
// has the most successes alone, or a tie for the most.
func (s *State) rivalOdds(sides []side) (fray.Odds, error) {
	dists := make([]pmf, len(sides))
	exprs := make([]string, len(sides))
	for i, sd := range sides {
		d, err := successDist(sd.pool, s.swing())
		if err != nil {
			return fray.Odds{}, err
		}
		dists[i], exprs[i] = points(d, 0), sd.name+" "+sd.pool.Expr(s.swing())
	}
	wins := make([]float64, len(sides))
	for i, di := range dists {
		for k, p := range di.p {
			v := di.min + k
			for j, dj := range dists {
				if j != i {
					p *= dj.below(v)
				}
			}
			wins[i] += p
		}
	}
	o := fray.Odds{For: sides[0].name, Roll: "exchange", Expr: joinStrings(exprs, " against ")}
	tie := 1.0
	for i, sd := range sides {
		o.Bands = append(o.Bands, fray.Band{Name: sd.name + " wins", P: wins[i], Who: []string{sd.name}})
		tie -= wins[i]
	}
	o.Bands = append(o.Bands, fray.Band{Name: "tie", P: max(tie, 0)})
	return o, nil
}

// below returns the chance of a value below v.
func (d pmf) below(v int) float64 {
	p := 0.0
	for k, q := range d.p {
		if d.min+k < v {
			p += q
		}
	}
	return p
}

// rivalSpendBands fills o with who wins exchange ex of three or more
// contestants once the contestant at idx (0 A, 1 B, then ex.More) has
// spent Resolve, mine being the chance of each of their new successes;
// the others' successes stand.
func (s *State) rivalSpendBands(o fray.Odds, ex ExchangeData, idx int, mine map[int]float64) fray.Odds {
	c := s.Res.Before
	ids := append([]fray.CombatantID{c.A, c.B}, c.More...)
	wins := make([]float64, len(ids))
	tie := 0.0
	for _, v := range inOrder(mine) {
		x := ex
		x.More = slices.Clone(ex.More)
		switch idx {
		case 0:
			x.SuccessesA = v
		case 1:
			x.SuccessesB = v
		default:
			x.More[idx-2].Successes = v
		}
		settleExchange(c, &x)
		if i := slices.Index(ids, x.Winner); i >= 0 {
			wins[i] += mine[v]
		} else {
			tie += mine[v]
		}
	}
	for i, id := range ids {
		n := s.NameOf(id)
		o.Bands = append(o.Bands, fray.Band{Name: n + " wins", P: wins[i], Who: []string{n}})
	}
	o.Bands = append(o.Bands, fray.Band{Name: "tie", P: tie})
	return o
}
