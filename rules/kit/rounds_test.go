package kit_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

var (
	idA = engine.NewCombatantID(1, 1, 0)
	idB = engine.NewCombatantID(1, 2, 0)
	idC = engine.NewCombatantID(1, 3, 0)
	idD = engine.NewCombatantID(1, 4, 0)
)

// twoOf returns an encounter of Kim (idA) and Lee (idB), started.
func twoOf() *fray.Encounter {
	return &fray.Encounter{Started: true, Combatants: []*fray.Combatant{
		{ID: idA, Name: "Kim", Kind: fray.KindCharacter, Side: fray.SidePC},
		{ID: idB, Name: "Lee", Kind: fray.KindCharacter, Side: fray.SideNPC},
	}}
}

// until returns a condition named name that ends at the edge of the turn
// of id (of the round itself when "") in round or later.
func until(name string, round int, id fray.CombatantID, edge string) fray.Condition {
	return fray.Condition{Name: name, Until: &fray.Anchor{Round: round, ID: id, Edge: edge}}
}

// TestRoundsTurns follows two rounds, checking whose turn it is and the
// conditions each turn edge ends (E-4): a round's start ends those anchored
// to it and to its first turn's start; a turn's end, those anchored to it
// and to the next turn's start; the next round's start, those anchored to
// the end of the round before.
func TestRoundsTurns(t *testing.T) {
	enc := twoOf()
	enc.Combatants[0].Conditions = []fray.Condition{
		until("r1start", 1, "", fray.EdgeStart),
		until("a1start", 1, idA, fray.EdgeStart),
		until("a1end", 1, idA, fray.EdgeEnd),
		until("b1start", 1, idB, fray.EdgeStart),
		until("b1end", 1, idB, fray.EdgeEnd),
		until("r1end", 1, "", fray.EdgeEnd),
		until("r2start", 2, "", fray.EdgeStart),
		until("a2start", 2, idA, fray.EdgeStart),
	}
	var r kit.Rounds
	if cur := r.Current(); cur != "" {
		t.Fatalf("before any round, Current() = %q; want none", cur)
	}
	for _, st := range []struct {
		name  string
		do    func()
		round int
		pos   int
		cur   fray.CombatantID
		left  []string
	}{
		{"round 1 begins", func() { r.Begin(enc, 1, []fray.CombatantID{idA, idB}) }, 1, 0, idA,
			[]string{"a1end", "b1start", "b1end", "r1end", "r2start", "a2start"}},
		{"Kim's turn ends", func() { r.EndTurn(enc) }, 1, 1, idB,
			[]string{"b1end", "r1end", "r2start", "a2start"}},
		{"Lee's turn ends", func() { r.EndTurn(enc) }, 1, 2, "",
			[]string{"r1end", "r2start", "a2start"}},
		{"round 2 begins", func() { r.Begin(enc, 2, []fray.CombatantID{idA}) }, 2, 0, idA, nil},
	} {
		st.do()
		var left []string
		for _, c := range enc.Combatants[0].Conditions {
			left = append(left, c.Name)
		}
		if enc.Round != st.round || r.Pos != st.pos || r.Current() != st.cur {
			t.Errorf("%s: round %d, turn %d, %q acting; want %d, %d, %q", st.name, enc.Round, r.Pos, r.Current(), st.round, st.pos, st.cur)
		}
		if diff := cmp.Diff(st.left, left); diff != "" {
			t.Errorf("%s: conditions left (-want +got):\n%s", st.name, diff)
		}
	}
}

func TestRoundsDrop(t *testing.T) {
	order := []fray.CombatantID{idA, idB, idC}
	for _, tc := range []struct {
		name     string
		id       fray.CombatantID
		i, at    int
		order    []fray.CombatantID
		pos      int
		tiebreak []fray.CombatantID
	}{
		{"one whose turn is taken", idA, 0, -1, []fray.CombatantID{idB, idC}, 0, []fray.CombatantID{idC}},
		{"the one whose turn it is", idB, 1, 0, []fray.CombatantID{idA, idC}, 1, []fray.CombatantID{idA, idC}},
		{"one whose turn is to come", idC, 2, 1, []fray.CombatantID{idA, idB}, 1, []fray.CombatantID{idA}},
		{"one not in the order", idD, -1, 0, order, 1, []fray.CombatantID{idA, idC}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := kit.Rounds{Tiebreak: []fray.CombatantID{idA, idC}, Order: order, Pos: 1}
			shared := r.Clone()
			i, at := r.Drop(tc.id)
			if i != tc.i || at != tc.at {
				t.Errorf("Drop = %d, %d; want %d, %d", i, at, tc.i, tc.at)
			}
			if !slices.Equal(r.Order, tc.order) || r.Pos != tc.pos || !slices.Equal(r.Tiebreak, tc.tiebreak) {
				t.Errorf("after: order %v, turn %d, tiebreak %v; want %v, %d, %v", r.Order, r.Pos, r.Tiebreak, tc.order, tc.pos, tc.tiebreak)
			}
			// A copy shares the order, which a removal never changes in
			// place.
			if !slices.Equal(shared.Order, []fray.CombatantID{idA, idB, idC}) || !slices.Equal(shared.Tiebreak, []fray.CombatantID{idA, idC}) {
				t.Errorf("the copy changed: order %v, tiebreak %v", shared.Order, shared.Tiebreak)
			}
		})
	}
	r := kit.Rounds{Tiebreak: []fray.CombatantID{idA}}
	if r.Drop(idA); r.Tiebreak != nil {
		t.Errorf("an emptied tiebreak is %#v; want nil", r.Tiebreak)
	}
}

func TestCheckCurrent(t *testing.T) {
	enc := twoOf()
	r := kit.Rounds{Order: []fray.CombatantID{idA, idB}}
	for _, tc := range []struct {
		name, word string
		code       string
		msg        string
	}{
		{"no name", "", "", ""},
		{"the one acting", "Kim", "", ""},
		{"another", "Lee", fray.EINVALID, "It is Kim's turn, not Lee's."},
		{"nobody's name", "Pat", fray.ENOTFOUND, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := r.CheckCurrent(enc, tc.word)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("CheckCurrent(%q) = %v; want nil", tc.word, err)
				}
				return
			}
			var fe *fray.Error
			if !errors.As(err, &fe) || fe.Code != tc.code || (tc.msg != "" && fe.Message != tc.msg) {
				t.Errorf("CheckCurrent(%q) = %v; want %s %q", tc.word, err, tc.code, tc.msg)
			}
		})
	}
}

// decided returns the types of evs and the payload of the last.
func decided(evs []fray.Event) ([]string, string) {
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	if len(evs) == 0 {
		return nil, ""
	}
	return types, string(evs[len(evs)-1].Data)
}

func TestDecideStart(t *testing.T) {
	rank := func() []fray.CombatantID { return []fray.CombatantID{idB, idA} }
	for _, tc := range []struct {
		name  string
		enc   *fray.Encounter
		types []string
		data  string
		msg   string
	}{{
		name:  "the first round begins in the system's order",
		enc:   &fray.Encounter{Combatants: twoOf().Combatants},
		types: []string{fray.EventStarted, "toy.round"},
		data:  `{"round":1,"order":["` + string(idB) + `","` + string(idA) + `"]}`,
	}, {
		name: "started already",
		enc:  twoOf(),
		msg:  "The encounter has already started.",
	}, {
		name: "nobody to fight",
		enc:  &fray.Encounter{},
		msg:  "There is nobody to fight yet; add combatants first.",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tx := kit.Txn[*tally]{State: &tally{}}
			err := kit.DecideStart(&tx, tc.enc, "toy.round", rank)
			if tc.msg != "" {
				var fe *fray.Error
				if !errors.As(err, &fe) || fe.Code != fray.EINVALID || fe.Message != tc.msg || len(tx.Events()) != 0 {
					t.Fatalf("DecideStart = %v with %d events; want EINVALID %q and none", err, len(tx.Events()), tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			types, data := decided(tx.Events())
			if !slices.Equal(types, tc.types) || data != tc.data {
				t.Errorf("events %v, last %s; want %v, %s", types, data, tc.types, tc.data)
			}
		})
	}
}

func TestDecideOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []string
		data  string
		code  string
	}{
		{"the GM's order", []string{"Lee", "Kim"}, `{"names":["` + string(idB) + `","` + string(idA) + `"]}`, ""},
		{"nobody's name", []string{"Pat"}, "", fray.ENOTFOUND},
		{"a name twice", []string{"Lee", "Lee"}, "", fray.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := kit.Txn[*tally]{State: &tally{}}
			err := kit.DecideOrder(&tx, twoOf(), "toy.tiebreak", tc.words)
			if tc.code != "" {
				var fe *fray.Error
				if !errors.As(err, &fe) || fe.Code != tc.code {
					t.Fatalf("DecideOrder(%v) = %v; want %s", tc.words, err, tc.code)
				}
				return
			}
			types, data := decided(tx.Events())
			if err != nil || !slices.Equal(types, []string{"toy.tiebreak"}) || data != tc.data {
				t.Errorf("DecideOrder(%v) = %v, %v %s; want toy.tiebreak %s", tc.words, err, types, data, tc.data)
			}
		})
	}
}
