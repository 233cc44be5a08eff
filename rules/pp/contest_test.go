package pp_test

import (
	"testing"

	"fray/engine"
	"fray/rules/pp"
)

// Issue 14, item 20 (P-8). The seed: "Each exchange covers a separate
// part of the overall task and requires its own challenge roll … a foot
// race with 3 exchanges could be broken down into sprinting through
// darkened alleys, scrambling up building facades and fire escapes, and
// bounding across moonlit rooftops." Each exchange may roll other traits;
// the winner's +2d still carries into the next, whatever it rolls.
func TestP8_EachExchangeItsOwnTraits(t *testing.T) {
	e := newPP(t, "contest Gatecrasher Whisper agility successes=3 vs_successes=1")
	cases := []struct {
		line           string
		traitA, traitB string
		diceA, diceB   int
		winner         string
	}{
		// Sprinting: the contest's Agility, Gatecrasher 4d, Whisper 5d.
		// Climbing: both Might; Gatecrasher won the sprint, 12 + 2 = 14d,
		// Whisper 2d.
		{"exchange might successes=0 vs_successes=2", "might", "might", 14, 2, "Whisper"},
		// Rooftops: Gatecrasher's Agility 4d, Whisper's Perception 5 + 2.
		{"exchange agility perception successes=4 vs_successes=1", "agility", "perception", 4, 7, "Gatecrasher"},
	}
	for _, c := range cases {
		do(t, e, c.line)
		var x pp.ExchangeData
		last(t, e, pp.EventExchanged, &x)
		if x.TraitA != c.traitA || x.TraitB != c.traitB || x.PoolA.Dice != c.diceA || x.PoolB.Dice != c.diceB ||
			e.State().(*pp.State).NameOf(x.Winner) != c.winner {
			t.Errorf("%s: traits %q %q, dice %d %d, winner %q; want %q %q, %d %d, %q", c.line, x.TraitA, x.TraitB,
				x.PoolA.Dice, x.PoolB.Dice, e.State().(*pp.State).NameOf(x.Winner), c.traitA, c.traitB, c.diceA, c.diceB, c.winner)
		}
	}
	// Without traits an exchange rolls the contest's own, and says none.
	e = newPP(t, "contest Gatecrasher Whisper agility successes=3 vs_successes=1\nexchange successes=1 vs_successes=1")
	var x pp.ExchangeData
	last(t, e, pp.EventExchanged, &x)
	if x.TraitA != "" || x.TraitB != "" || x.PoolA.Dice != 4+2 || x.PoolB.Dice != 5 {
		t.Errorf("the contest's traits: %+v", x)
	}
	refuse(t, e, "exchange sword", "sword")
}

// Issue 14, item 20 (P-8): more than two contestants, such as three
// runners in the seed's foot race. Everyone rolls each exchange; the one
// with the most successes wins it and carries +2d into the next; a tie
// for the most carries nothing; the winner of the last decides.
func TestP8_MoreThanTwoContestants(t *testing.T) {
	e := newPP(t, `contest Gatecrasher Whisper agility also="Citizen Soldier" successes=1 vs_successes=2 also_successes=3`)
	st := func() *pp.State { return e.State().(*pp.State) }
	var x pp.ExchangeData
	last(t, e, pp.EventExchanged, &x)
	// The Soldier rolls Whisper's trait, Agility 6.
	if len(x.More) != 1 || x.More[0].Pool.Dice != 6 || st().NameOf(x.Winner) != "Citizen Soldier" {
		t.Fatalf("exchange 1: %+v", x)
	}
	// The Soldier carries +2d: Might 12 + 2; Gatecrasher ties the Soldier
	// at 2 successes, the most: nobody wins.
	do(t, e, "exchange might successes=2 vs_successes=1 also_successes=2")
	last(t, e, pp.EventExchanged, &x)
	if x.More[0].Pool.Dice != 14 || x.More[0].Carry != 2 || x.Winner != "" {
		t.Errorf("exchange 2: %+v", x)
	}
	// The last: Whisper alone has the most and wins the contest.
	do(t, e, "exchange successes=0 vs_successes=3 also_successes=1")
	last(t, e, pp.EventExchanged, &x)
	if !x.Over || st().NameOf(x.Outcome) != "Whisper" || x.More[0].Carry != 0 {
		t.Errorf("exchange 3: %+v", x)
	}
	// The odds of an exchange of three give each one's chance of winning
	// alone, and of a tie, adding up to 1.
	e = newPP(t, `contest Gatecrasher Whisper agility also="Citizen Soldier" successes=1 vs_successes=2 also_successes=3`)
	cmd, err := engine.ParseCommand("odds exchange")
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, b := range o.Bands {
		sum += b.P
	}
	if len(o.Bands) != 4 || o.Bands[3].Name != "tie" || sum < 0.999999 || sum > 1.000001 {
		t.Errorf("odds of three: %+v", o.Bands)
	}
	// The third contestant may spend Resolve on the exchange: the
	// Soldier's die showing 2 makes 4, and still wins alone.
	do(t, e, `spend "Citizen Soldier" resolve=1 dice=2`)
	var sp pp.SpentData
	last(t, e, pp.EventSpent, &sp)
	if sp.Exchange == nil || sp.Exchange.More[0].Successes != 4 || st().NameOf(sp.Exchange.Winner) != "Citizen Soldier" {
		t.Errorf("spent: %+v", sp.Exchange)
	}
	refuse(t, e, "contest Whisper Gatecrasher agility also=Whisper", "under way")
	e = newPP(t, "")
	refuse(t, e, "contest Whisper Gatecrasher agility also=Whisper", "named twice")
	refuse(t, e, "contest Whisper Gatecrasher agility also=Nobody", "Nobody")
	refuse(t, e, `contest Whisper Gatecrasher agility also="Citizen Soldier" also_successes=1,2`, "gives 2 counts for 1")
}
