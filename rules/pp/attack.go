package pp

import (
	"strings"

	"fray"
	"fray/rules/kit"
)

// DefenceTraits are the traits a defender may resist an attack with
// (ours, P-10): the best of them counts unless def= names one.
var DefenceTraits = []string{"agility", "might", "toughness"}

// decideAttack decides attack A B with=TRAIT (P-10): an action of the
// character whose turn it is, at −2d for each action before it this turn,
// against the defender's best defence; 1 Health per net success, or one
// minion defeated per net success.
func (s *State) decideAttack(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	d, sides, act, err := s.planAttack(cmd)
	if err != nil {
		return err
	}
	if err := tx.Emit(EventActed, act); err != nil {
		return err
	}
	return s.rollCheck(d, sides[:], r, cmd, tx)
}

// planAttack builds an attack from cmd without rolling, with the action
// it takes.
func (s *State) planAttack(cmd fray.Command) (CheckData, [2]side, ActData, error) {
	if !s.Started {
		return CheckData{}, [2]side{}, ActData{}, fray.Errorf(fray.EINVALID, "Combat has not started; use start (a challenge roll outside combat is check).")
	}
	att, tgt, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return CheckData{}, [2]side{}, ActData{}, err
	}
	cur := s.current()
	if cur == "" || cur != att.ID {
		if cur == "" {
			return CheckData{}, [2]side{}, ActData{}, fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next.")
		}
		return CheckData{}, [2]side{}, ActData{}, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(s.NameOf(cur)), att)
	}
	if att.ID == tgt.ID {
		return CheckData{}, [2]side{}, ActData{}, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	if s.Actions >= MaxActions {
		return CheckData{}, [2]side{}, ActData{}, fray.Errorf(fray.EINVALID, "%s has taken %d actions this turn, the limit (MaxActions).", fray.Mention(att.Name), MaxActions)
	}
	act, err := s.actorSideOf(cmd, att, cmd.Opts[KeyWith], s.Actions, fray.AppliesAttack, tgt)
	if err != nil {
		return CheckData{}, [2]side{}, ActData{}, err
	}
	if err := s.harmable(tgt); err != nil {
		return CheckData{}, [2]side{}, ActData{}, err
	}
	_, minion := s.standing(tgt.ID)
	def, ok := cmd.Opts[KeyDef]
	if ok {
		def = strings.ToLower(def)
	} else {
		def = DefenceTraits[0]
		for _, t := range DefenceTraits[1:] {
			if tgt.Stat(t) > tgt.Stat(def) {
				def = t
			}
		}
	}
	opp, err := s.sideOf(cmd, tgt, def, oppOpts, true, 0, 0, fray.AppliesDefence, nil)
	if err != nil {
		return CheckData{}, [2]side{}, ActData{}, err
	}
	d := CheckData{
		Kind: KindAttack, Actor: act.id, Trait: act.trait, Pool: act.pool, Assist: act.assist, Penalty: act.penalty,
		Opponent: opp.id, OppTrait: opp.trait, OppPool: opp.pool, OppAssist: opp.assist, Minion: minion,
	}
	return d, [2]side{act, opp}, ActData{Who: att.ID, Nth: s.Actions + 1}, nil
}
