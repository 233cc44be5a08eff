package pp

import (
	"strconv"
	"strings"

	"fray"
	"fray/rules/kit"
)

// ContestData is the payload of EventContest.
type ContestData struct {
	A         fray.CombatantID `json:"a"`
	B         fray.CombatantID `json:"b"`
	TraitA    string           `json:"trait_a"`
	TraitB    string           `json:"trait_b"`
	Exchanges int              `json:"exchanges"`
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
}

// Contest is a contest in progress (P-8), between the combatants A and B.
type Contest struct {
	Active    bool             `json:"active"`
	A         fray.CombatantID `json:"a"`
	B         fray.CombatantID `json:"b"`
	TraitA    string           `json:"trait_a"`
	TraitB    string           `json:"trait_b"`
	Exchanges int              `json:"exchanges"`
	Done      int              `json:"done"`
	// Carry is the winner of the last exchange: +2d in the next.
	Carry fray.CombatantID `json:"carry,omitempty"`
}

// names returns the names the contestants have now.
func (c Contest) names(enc *fray.Encounter) (a, b string) {
	return enc.NameOf(c.A), enc.NameOf(c.B)
}

// decideContest decides contest A B TRAIT [TRAIT2] [exchanges=N] (P-8): it
// begins the contest and rolls its first exchange.
func (s *State) decideContest(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	cd, next, err := s.planContest(cmd)
	if err != nil {
		return nil, err
	}
	ev, err := fray.NewEvent(EventContest, cd)
	if err != nil {
		return nil, err
	}
	ex, err := next.decideExchange(firstExchange(cmd), r)
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, ex...), nil
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
	next := s.Clone().(*State)
	next.applyContest(cd)
	return cd, next, nil
}

// settleExchange works out the winner of exchange d of contest c from
// the successes, and whether it ends the contest.
func settleExchange(c Contest, d *ExchangeData) {
	d.Winner, d.Over, d.Outcome = "", false, ""
	switch {
	case d.SuccessesA > d.SuccessesB:
		d.Winner = c.A
	case d.SuccessesB > d.SuccessesA:
		d.Winner = c.B
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
	s.Res.Contest = Contest{Active: true, A: d.A, B: d.B, TraitA: d.TraitA, TraitB: d.TraitB, Exchanges: d.Exchanges}
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
	a, err := s.makeSide(cmd, nameA, c.TraitA, actorOpts, true, 0, carryA, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	b, err := s.makeSide(cmd, nameB, c.TraitB, oppOpts, true, 0, carryB, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	for _, sd := range []side{a, b} {
		if err := s.canRoll(sd.id, false); err != nil {
			return nil, err
		}
	}
	return []side{a, b}, nil
}

// decideExchange rolls the contest's next exchange.
func (s *State) decideExchange(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	sides, err := s.planExchange(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.exchangeOdds(sides)
	if err != nil {
		return nil, err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return nil, err
	}
	c := s.Res.Contest
	d := ExchangeData{
		N: c.Done + 1, SuccessesA: res[0].successes, SuccessesB: res[1].successes,
		PoolA: sides[0].pool, PoolB: sides[1].pool, SixesA: res[0].sixes, SixesB: res[1].sixes,
		AssistA: sides[0].assist, AssistB: sides[1].assist, CostA: sides[0].cost, CostB: sides[1].cost,
	}
	if c.Carry == c.A {
		d.CarryA = ContestCarry
	} else if c.Carry == c.B {
		d.CarryB = ContestCarry
	}
	settleExchange(c, &d)
	w := exchangeWords(c, d, &s.Encounter) + momentWords(sides[0].name, d.CostA) + momentWords(sides[1].name, d.CostB)
	for i := range rolls {
		rolls[i].For = sides[i].name + " (" + poolWords(sides[i].trait, sides[i].pool) + ")"
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + w + ")"
	}
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventExchanged, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	spent, err := spendConditions(sides)
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, spent...), nil
}
