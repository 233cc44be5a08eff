package pp

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Options of group (P-7).
const (
	KeyTraits = "traits" // each member's own trait, in order
	KeyGive   = "give"   // the earners' choice of who hands how many to whom
)

// GroupData is the payload of EventGrouped.
type GroupData struct {
	Trait     string             `json:"trait"`
	Threshold int                `json:"threshold"`
	Who       []fray.CombatantID `json:"names"` // the members, in order
	Successes []int              `json:"successes"`
	// Nets holds each member's net successes after sharing.
	Nets []int `json:"nets"`
	// Given says in words what was handed over: "Ann to Bob: 2".
	Given []string `json:"given,omitempty"`
	// Pools and Sixes are each member's pool and the 6s it showed.
	Pools []Pool `json:"pools,omitempty"`
	Sixes []int  `json:"sixes,omitempty"`
	// Costs holds the cost of each member's defining moment, in order,
	// "" for a member without one; nil when nobody had one (P-9).
	Costs []string `json:"costs,omitempty"`
	// Traits holds each member's trait, in order, when they do not all
	// roll Trait (traits=); nil when they do.
	Traits []string `json:"traits,omitempty"`
	// Chosen says the earners chose how their surplus is shared (give=):
	// Gifts, and nothing more, is handed over. Without it fray shares it.
	Chosen bool   `json:"chosen,omitempty"`
	Gifts  []Gift `json:"gifts,omitempty"`
}

// Gift is net successes an earner of more than 3 chose to hand to an
// ally in a group action (P-7: "can distribute these extra net
// successes among their allies").
type Gift struct {
	From fray.CombatantID `json:"from"`
	To   fray.CombatantID `json:"to"`
	N    int              `json:"n"`
}

func (g GroupData) clone() GroupData {
	g.Who, g.Successes, g.Nets = slices.Clone(g.Who), slices.Clone(g.Successes), slices.Clone(g.Nets)
	g.Given, g.Pools, g.Sixes = slices.Clone(g.Given), slices.Clone(g.Pools), slices.Clone(g.Sixes)
	g.Costs, g.Traits, g.Gifts = slices.Clone(g.Costs), slices.Clone(g.Traits), slices.Clone(g.Gifts)
	return g
}

// decideGroup decides group TRAIT NAME NAME … threshold=… (P-7).
func (s *State) decideGroup(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	d, sides, err := s.planGroup(cmd)
	if err != nil {
		return err
	}
	odds, err := s.groupOdds(d, sides)
	if err != nil {
		return err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return err
	}
	for i := range sides {
		d.Successes = append(d.Successes, res[i].successes)
		d.Pools = append(d.Pools, sides[i].pool)
		d.Sixes = append(d.Sixes, res[i].sixes)
	}
	names := make([]string, len(sides))
	more := ""
	for i, sd := range sides {
		names[i] = sd.name
		if sd.cost != "" && d.Costs == nil {
			d.Costs = make([]string, len(sides))
		}
		if sd.cost != "" {
			d.Costs[i] = sd.cost
			more += momentWords(sd.name, sd.cost)
		}
	}
	if err := s.checkGifts(d); err != nil {
		return err
	}
	settleGroup(&d, names)
	for i := range rolls {
		for j, n := range names {
			if rolls[i].For == n {
				rolls[i].For = n + " (" + poolWords(sides[j].trait, sides[j].pool) + "; " + strconv.Itoa(d.Successes[j]) + " against " + ThresholdName(d.Threshold) + ")"
			}
		}
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + groupWords(d, names) + more + ")"
	}
	return addRoll(tx, cmd, EventGrouped, d, rolls, odds, spendConditions(sides))
}

// settleGroup works out each member's net successes from their
// successes, then hands the surplus above 3 to allies (P-7), saying so in
// the members' names.
func settleGroup(d *GroupData, names []string) {
	d.Nets = make([]int, len(d.Successes))
	for i, n := range d.Successes {
		d.Nets[i] = n - d.Threshold
	}
	if d.Chosen {
		d.Given = handOver(d, names)
		return
	}
	d.Given = shareSurplus(names, d.Nets)
}

// handOver hands over the gifts the earners chose, each at most what its
// earner still has above 3 (a roll settled again never has less), and
// says what was given.
func handOver(d *GroupData, names []string) []string {
	var given []string
	for _, g := range d.Gifts {
		from, to := slices.Index(d.Who, g.From), slices.Index(d.Who, g.To)
		if from < 0 || to < 0 {
			continue
		}
		n := min(g.N, d.Nets[from]-GroupShareAbove)
		if n <= 0 {
			continue
		}
		d.Nets[from] -= n
		d.Nets[to] += n
		given = append(given, names[from]+" to "+names[to]+": "+strconv.Itoa(n))
	}
	return given
}

// groupWords says how a group action of the members called names came
// out: "net after sharing: Ann +3, Bob +1; handed over: Ann to Bob: 2".
func groupWords(d GroupData, names []string) string {
	var parts []string
	for j, n := range names {
		parts = append(parts, n+" "+signed(d.Nets[j]))
	}
	w := "net after sharing: " + strings.Join(parts, ", ")
	if len(d.Given) > 0 {
		w += "; handed over: " + strings.Join(d.Given, ", ")
	}
	return w
}

// shareSurplus hands the net successes above 3 of each member to the
// allies below 1 net success, the lowest first, one at a time (ours: the
// seed lets them distribute it; fray raises as many allies to success as
// it can). It changes nets and says what was given.
func shareSurplus(names []string, nets []int) []string {
	var given []string
	for g := range nets {
		for nets[g] > GroupShareAbove {
			low := -1
			for j := range nets {
				if j != g && nets[j] < 1 && (low < 0 || nets[j] < nets[low]) {
					low = j
				}
			}
			if low < 0 {
				break
			}
			n := min(nets[g]-GroupShareAbove, 1-nets[low])
			nets[g] -= n
			nets[low] += n
			given = append(given, names[g]+" to "+names[low]+": "+strconv.Itoa(n))
		}
	}
	return given
}

func (s *State) planGroup(cmd fray.Command) (GroupData, []side, error) {
	if len(cmd.Args) > MaxGroup+1 {
		return GroupData{}, nil, fray.Errorf(fray.EINVALID, "At most %d characters act in one group action.", MaxGroup)
	}
	members := cmd.Args[1:]
	n, _ := ParseThreshold(cmd.Opts[KeyThreshold]) // the declaration requires a threshold
	d := GroupData{Trait: strings.ToLower(cmd.Arg(0)), Threshold: n}
	// Each member's own options: one value for all, or one a member.
	each := map[string][]string{}
	for _, key := range []string{KeySuccesses, KeyMod, KeyAuto, KeyTraits} {
		v, ok := cmd.Opts[key]
		if !ok {
			continue
		}
		vs := strings.Split(v, ",")
		switch {
		case len(vs) == 1 && key != KeySuccesses:
			vs = slices.Repeat(vs, len(members))
		case len(vs) != len(members):
			return GroupData{}, nil, fray.Errorf(fray.EINVALID, "%s= gives %d counts for %d characters.", key, len(vs), len(members))
		}
		each[key] = vs
	}
	var sides []side
	for i, a := range members {
		one := fray.Command{Name: cmd.Name, Opts: map[string]string{}}
		for _, key := range []string{KeySuccesses, KeyMod, KeyAuto} {
			if vs := each[key]; vs != nil {
				one.Opts[key] = strings.TrimSpace(vs[i])
			}
		}
		trait := d.Trait
		if vs := each[KeyTraits]; vs != nil {
			trait = strings.ToLower(strings.TrimSpace(vs[i]))
		}
		sd, err := s.helperSide(one, a, trait)
		if err != nil {
			return GroupData{}, nil, err
		}
		for _, o := range sides {
			if o.id == sd.id {
				return GroupData{}, nil, fray.Errorf(fray.EINVALID, "%s is named twice.", sd.name)
			}
		}
		sides = append(sides, sd)
		d.Who = append(d.Who, sd.id)
	}
	if len(sides) > 0 {
		d.Trait = sides[0].trait // a power as the first member's sheet spells it
	}
	for _, sd := range sides {
		if sd.trait != d.Trait {
			for _, x := range sides {
				d.Traits = append(d.Traits, x.trait)
			}
			break
		}
	}
	if v, ok := cmd.Opts[KeyGive]; ok {
		gifts, err := s.parseGifts(v, sides)
		if err != nil {
			return GroupData{}, nil, err
		}
		d.Chosen, d.Gifts = true, gifts
	}
	return d, sides, nil
}

// parseGifts reads give=EARNER>ALLY:N,… (or give=none): the successes
// each earner hands to whom, both members of the group.
func (s *State) parseGifts(v string, sides []side) ([]Gift, error) {
	if strings.EqualFold(strings.TrimSpace(v), "none") {
		return nil, nil
	}
	member := func(name string) (fray.CombatantID, error) {
		c, err := s.Lookup(strings.TrimSpace(name))
		if err != nil {
			return "", err
		}
		for _, sd := range sides {
			if sd.id == c.ID {
				return c.ID, nil
			}
		}
		return "", fray.Errorf(fray.EINVALID, "give=: %s is not in the group action.", c)
	}
	var gifts []Gift
	for _, part := range strings.Split(v, ",") {
		from, rest, ok1 := strings.Cut(part, ">")
		to, num, ok2 := strings.Cut(rest, ":")
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok1 || !ok2 || err != nil || n < 1 {
			return nil, fray.Errorf(fray.EINVALID, "give=%s: say who gives how many to whom, such as give=Gatecrasher>Whisper:2, or give=none.", engine.Clip(part))
		}
		g := Gift{N: n}
		if g.From, err = member(from); err != nil {
			return nil, err
		}
		if g.To, err = member(to); err != nil {
			return nil, err
		}
		if g.From == g.To {
			return nil, fray.Errorf(fray.EINVALID, "give=: %s cannot give successes to themselves.", fray.Mention(s.NameOf(g.From)))
		}
		gifts = append(gifts, g)
	}
	return gifts, nil
}

// checkGifts refuses gifts that hand over more than an earner has above
// 3 net successes, once the roll is made.
func (s *State) checkGifts(d GroupData) error {
	left := make([]int, len(d.Who))
	for i, n := range d.Successes {
		left[i] = n - d.Threshold - GroupShareAbove
	}
	for _, g := range d.Gifts {
		i := slices.Index(d.Who, g.From)
		if g.N > left[i] {
			return fray.Errorf(fray.EINVALID, "give=: %s has %d net successes above 3 to hand over, not %d.", fray.Mention(s.NameOf(g.From)), max(left[i], 0), g.N)
		}
		left[i] -= g.N
	}
	return nil
}
