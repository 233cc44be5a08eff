package vv

import (
	"slices"
	"strconv"
	"strings"

	"fray"
)

// This file decides the edges of a turn: its end with the upkeep, the next
// turn's initiative roll with its tie toss, and what the GM declares for
// them (surprise, initiative, order, upkeep).

// endTurn ends the turn (V-5): upkeep, then initiative is rerolled. An
// upkeep more than the Power left is not paid and ends.
func (d *decider) endTurn(r fray.Roller) error {
	s := d.State
	data := TurnEndData{Turn: s.Round}
	for _, ch := range s.Chars {
		if ch.Upkeep <= 0 {
			continue
		}
		c := s.ByID(ch.ID)
		if ch.Upkeep > s.power(c) {
			data.Unpaid = append(data.Unpaid, UpkeepData{Who: c.ID, Power: ch.Upkeep})
		} else {
			data.Upkeep = append(data.Upkeep, UpkeepData{Who: c.ID, Power: ch.Upkeep})
		}
	}
	if err := d.Emit(EventTurnEnded, data); err != nil {
		return err
	}
	return d.newTurn(r)
}

// newTurn rolls initiative for the next turn (V-1, V-2, V-4). The turn's
// event records the odds the roll had, worked out before any die is
// rolled; in odds-only mode they are kept and nothing is rolled.
func (d *decider) newTurn(r fray.Roller) error {
	s := d.State
	turn := s.Round + 1
	var odds fray.Odds
	if !d.Unrecorded {
		odds = s.initiativeOdds(turn)
		odds.Command = d.cmd.String()
	}
	if d.oddsOnly {
		d.odds = &odds
		return errOddsOnly
	}
	amb := s.ambushOf(turn)
	surprise, raw := amb.surprise, amb.raw
	data := TurnData{Turn: turn}
	var rolls []fray.Roll
	best, attackers := 0, false
	for _, ch := range s.Chars {
		c := s.ByID(ch.ID)
		if c.Kind == fray.KindEnvironment {
			continue // an object rolls no initiative (V-1)
		}
		tc := TurnChar{Who: c.ID}
		if surprise && ch.Victim && raw {
			data.Chars = append(data.Chars, tc) // no phases on the first turn
			continue
		}
		die := ch.Die
		if die > 0 {
			tc.Entered = true
		} else {
			roll, err := r.Roll(c.Name, InitiativeDice)
			if err != nil {
				return err
			}
			rolls = append(rolls, roll)
			die = roll.Total
		}
		tc.Rolled = true
		tc.Init = die + c.Stat("agility")
		if surprise && ch.Victim {
			tc.Init, tc.Halved = floorHalf(tc.Init), true
		} else if amb.attacker(c) && (!attackers || tc.Init > best) {
			best, attackers = tc.Init, true
		}
		data.Chars = append(data.Chars, tc)
	}
	if surprise && !raw && attackers {
		for i := range data.Chars {
			tc := &data.Chars[i]
			if !tc.Halved {
				continue
			}
			for _, p := range phases(tc.Init) {
				if p > best {
					tc.Lost = append(tc.Lost, p)
				}
			}
		}
	}
	// A full tie (same phase, Agility and Move Rate, not ordered by the GM)
	// is settled by a toss (V-2).
	rolls, err := s.toss(data.Chars, rolls, r)
	if err != nil {
		return err
	}
	return d.EmitOdds(EventTurn, data, odds, rolls...)
}

// toss settles the full ties of a turn's initiative (V-2): characters on
// a common phase (totals 15 apart or equal), of the same Agility and Move
// Rate (as written, ties=raw: the same Agility), whom the GM's order does
// not name. The characters of each such
// tie are put in an order drawn evenly at random, one die for each place
// but the last: 1dK picks which of the K still unplaced goes next, in the
// order added. Each gets a Tie, higher first: K for the first of K, 1 for
// the last. It returns rolls with the dice added.
func (s *State) toss(chars []TurnChar, rolls []fray.Roll, r fray.Roller) ([]fray.Roll, error) {
	raw := s.Setting(SetTies, House) == RAW // as written: no Move Rate
	tied := func(tc TurnChar) bool {
		return tc.Rolled && tc.Init > 0 && tc.Tie == 0 && !slices.Contains(s.Tiebreak, tc.Who)
	}
	for i := range chars {
		if !tied(chars[i]) {
			continue
		}
		ca := s.ByID(chars[i].Who)
		class := []int{i}
		for j := i + 1; j < len(chars); j++ {
			cb := s.ByID(chars[j].Who)
			if tied(chars[j]) && (chars[i].Init-chars[j].Init)%PhaseStep == 0 && ca.Stat("agility") == cb.Stat("agility") && (raw || moveRate(ca) == moveRate(cb)) {
				class = append(class, j)
			}
		}
		if len(class) == 1 {
			continue
		}
		for k := len(class); k > 1; k-- {
			// The faces are named when they are few; a long list in
			// every roll of a large tie would swell the log.
			words := "tie toss, who goes next of the " + strconv.Itoa(k) + " left, in the order added"
			if k <= maxTossWords {
				faces := make([]string, len(class))
				for x, j := range class {
					faces[x] = strconv.Itoa(x+1) + " " + s.NameOf(chars[j].Who)
				}
				words = "tie toss, who goes next (" + strings.Join(faces, ", ") + ")"
			}
			roll, err := r.Roll(words, "1d"+strconv.Itoa(k))
			if err != nil {
				return nil, err
			}
			if roll.Total < 1 || roll.Total > k {
				return nil, fray.Errorf(fray.EINVALID, "The tie toss is a 1d%d; %d is not one of its faces.", k, roll.Total)
			}
			rolls = append(rolls, roll)
			chars[class[roll.Total-1]].Tie = k
			class = slices.Delete(class, roll.Total-1, roll.Total)
		}
		chars[class[0]].Tie = 1
	}
	return rolls, nil
}

// maxTossWords is the most characters a roll of the tie toss names with
// its faces.
const maxTossWords = 6

// floorHalf halves n, rounding down.
func floorHalf(n int) int {
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// phases lists the action phases of an initiative total: the total, then
// every 15 phases lower while above 0 (V-1).
func phases(init int) []int {
	var out []int
	for p := init; p > 0; p -= PhaseStep {
		out = append(out, p)
	}
	return out
}

func (d *decider) surprise(cmd fray.Command) error {
	s := d.State
	if s.Started {
		return fray.Errorf(fray.EINVALID, "Surprise is declared before the start; the encounter has started.")
	}
	cs, err := s.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	characters := 0
	for _, c := range s.Combatants {
		if c.Kind != fray.KindEnvironment {
			characters++
		}
	}
	for _, c := range cs {
		if c.Kind == fray.KindEnvironment {
			return fray.Errorf(fray.EINVALID, "%s is an object (kind=environment): it has no initiative to lose to surprise.", c)
		}
	}
	if len(cs) == characters {
		return fray.Errorf(fray.EINVALID, "An ambush needs attackers; surprise cannot name everyone.")
	}
	return d.Emit(EventSurprise, NamesData{Who: ids(cs)})
}

// initiative enters the d10 a character rolled at the table for the next
// initiative roll: initiative NAME DIE, or initiative NAME dice=N (or with
// no dice at all, a die rolled now).
func (d *decider) initiative(cmd fray.Command, r fray.Roller) error {
	c, err := d.State.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if c.Kind == fray.KindEnvironment {
		return fray.Errorf(fray.EINVALID, "%s is an object (kind=environment): objects roll no initiative and have no phases (V-1).", c)
	}
	if len(cmd.Args) == 1 {
		roll, err := r.Roll(c.Name, InitiativeDice)
		if err != nil {
			return err
		}
		return d.Emit(EventInitiative, DieData{Who: c.ID, Die: roll.Total}, roll)
	}
	return d.Emit(EventInitiative, DieData{Who: c.ID, Die: number(cmd.Arg(1))})
}

func (d *decider) tiebreak(cmd fray.Command) error {
	cs, err := d.State.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	return d.Emit(EventTiebreak, NamesData{Who: ids(cs)})
}

func (d *decider) upkeep(cmd fray.Command) error {
	c, err := d.State.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n := number(cmd.Arg(1))
	if n > 0 && !tracksPower(c) {
		return fray.Errorf(fray.EINVALID, "%s has no Power (a power track on the sheet, or add … power=N) to pay an upkeep with.", c)
	}
	if have := d.State.power(c); n > have {
		return fray.Errorf(fray.EINVALID, "%s has %d Power; an upkeep of %d could not be paid (Power never goes below zero).", c, have, n)
	}
	return d.Emit(EventUpkeep, UpkeepData{Who: c.ID, Power: n})
}
