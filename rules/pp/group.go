package pp

import (
	"slices"
	"strconv"
	"strings"

	"fray"
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
}

func (g GroupData) clone() GroupData {
	g.Who, g.Successes, g.Nets = slices.Clone(g.Who), slices.Clone(g.Successes), slices.Clone(g.Nets)
	g.Given, g.Pools, g.Sixes = slices.Clone(g.Given), slices.Clone(g.Pools), slices.Clone(g.Sixes)
	g.Costs = slices.Clone(g.Costs)
	return g
}

// decideGroup decides group TRAIT NAME NAME … threshold=… (P-7).
func (s *State) decideGroup(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	d, sides, err := s.planGroup(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.groupOdds(d, sides)
	if err != nil {
		return nil, err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return nil, err
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
	settleGroup(&d, names)
	for i := range rolls {
		for j, n := range names {
			if rolls[i].For == n {
				rolls[i].For = n + " (" + poolWords(d.Trait, sides[j].pool) + "; " + strconv.Itoa(d.Successes[j]) + " against " + ThresholdName(d.Threshold) + ")"
			}
		}
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + groupWords(d, names) + more + ")"
	}
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventGrouped, d, rolls...)
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

// settleGroup works out each member's net successes from their
// successes, then hands the surplus above 3 to allies (P-7), saying so in
// the members' names.
func settleGroup(d *GroupData, names []string) {
	d.Nets = make([]int, len(d.Successes))
	for i, n := range d.Successes {
		d.Nets[i] = n - d.Threshold
	}
	d.Given = shareSurplus(names, d.Nets)
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
	n, _ := ParseThreshold(cmd.Opts[KeyThreshold]) // the declaration requires a threshold
	d := GroupData{Trait: strings.ToLower(cmd.Arg(0)), Threshold: n}
	var counted []string
	if v, ok := cmd.Opts[KeySuccesses]; ok {
		counted = strings.Split(v, ",")
		if len(counted) != len(cmd.Args)-1 {
			return GroupData{}, nil, fray.Errorf(fray.EINVALID, "successes= gives %d counts for %d characters.", len(counted), len(cmd.Args)-1)
		}
	}
	var sides []side
	for i, a := range cmd.Args[1:] {
		one := fray.Command{Name: cmd.Name}
		if counted != nil {
			one.Opts = map[string]string{KeySuccesses: strings.TrimSpace(counted[i])}
		}
		sd, err := s.helperSide(one, a, d.Trait)
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
	return d, sides, nil
}
