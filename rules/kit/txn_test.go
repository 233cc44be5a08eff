package kit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// tally is a state for the transaction tests: a running total, and the
// hook calls seen, in order.
type tally struct {
	total int
	calls []string
}

func (s *tally) Clone() fray.State { c := *s; return &c }

type addData struct {
	N int `json:"n"`
}

// adder applies "add" events to a tally; it refuses "bad" events, and
// takes any other (such as cleared) as it is.
type adder struct{}

var errBad = errors.New("bad event")

func (adder) Apply(st fray.State, ev fray.Event) error {
	s := st.(*tally)
	switch ev.Type {
	case "bad":
		return errBad
	case "add":
		var d addData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.total += d.N
	}
	return nil
}

// lapse is a hook noting each call, which follows every "add" that takes
// the total over 10 with one "over" event in its transaction.
type lapse struct{ t *kit.Txn[*tally] }

func (h *lapse) Applying(st *tally, ev fray.Event) {
	st.calls = append(st.calls, "applying "+ev.Type)
}

func (h *lapse) Applied(st *tally, ev fray.Event) error {
	st.calls = append(st.calls, "applied "+ev.Type)
	if ev.Type == "add" && st.total > 10 {
		return h.t.Emit("over", nil)
	}
	return nil
}

// addEvent returns an "add" event of n.
func addEvent(n int) fray.Event {
	ev, err := fray.NewEvent("add", addData{N: n})
	if err != nil {
		panic(err)
	}
	return ev
}

// step is one call on a transaction.
type step func(t *kit.Txn[*tally]) error

// addTotal emits an "add" of the working total plus one: what it adds
// shows whether the earlier events were applied.
func addTotal(t *kit.Txn[*tally]) error {
	return t.Emit("add", addData{N: t.State.total + 1})
}

func add(n int) step {
	return func(t *kit.Txn[*tally]) error { return t.Emit("add", addData{N: n}) }
}

func TestTxn(t *testing.T) {
	roll := fray.Roll{Expr: "1d6", Dice: []int{4}, Total: 4}
	spent := []engine.ConditionRef{{Who: "c1", Condition: "aim"}, {Who: "c2", Condition: "bless"}}
	for _, tc := range []struct {
		name     string
		sys      kit.Applier
		hook     bool
		room     int
		steps    []step
		start    int
		total    int      // the working state's total after the steps
		types    []string // the types of the events recorded
		data     []string // their payloads
		calls    []string // the hook's calls
		internal string   // the message of the internal error, if any
	}{{
		name:  "applies each event as it records it",
		sys:   adder{},
		steps: []step{addTotal, addTotal, addTotal},
		start: 2,
		// 2+3 = 5, 5+6 = 11, 11+12 = 23
		total: 23,
		types: []string{"add", "add", "add"},
		data:  []string{`{"n":3}`, `{"n":6}`, `{"n":12}`},
	}, {
		name:  "read-only records without applying",
		steps: []step{addTotal, addTotal},
		start: 2,
		total: 2,
		types: []string{"add", "add"},
		data:  []string{`{"n":3}`, `{"n":3}`},
	}, {
		name:  "an event with no payload",
		sys:   adder{},
		steps: []step{func(t *kit.Txn[*tally]) error { return t.Emit("mark", nil) }},
		types: []string{"mark"},
		data:  []string{""},
	}, {
		name: "the rolls go with the event",
		sys:  adder{},
		steps: []step{func(t *kit.Txn[*tally]) error {
			if err := t.Emit("add", addData{N: 4}, roll); err != nil {
				return err
			}
			if evs := t.Events(); len(evs) != 1 || !cmp.Equal(evs[0].Rolls, []fray.Roll{roll}) {
				return errors.New("the roll is not on the event")
			}
			return nil
		}},
		total: 4,
		types: []string{"add"},
		data:  []string{`{"n":4}`},
	}, {
		name: "a rolled event, then the conditions it spends, in order",
		sys:  adder{},
		steps: []step{func(t *kit.Txn[*tally]) error {
			if err := t.EmitRolled("add", addData{N: 5}, fray.Odds{Expr: "1d6", Target: 4}, spent, roll); err != nil {
				return err
			}
			if o := t.Events()[0].Odds; o == nil || o.Expr != "1d6" || o.Target != 4 {
				return errors.New("the odds are not on the rolled event")
			}
			return nil
		}},
		total: 5,
		types: []string{"add", fray.EventCleared, fray.EventCleared},
		data:  []string{`{"n":5}`, `{"name":"c1","condition":"aim"}`, `{"name":"c2","condition":"bless"}`},
	}, {
		name: "a roll emitted with its odds, applied like any other",
		sys:  adder{},
		steps: []step{add(1), func(t *kit.Txn[*tally]) error {
			if err := t.EmitOdds("add", addData{N: 5}, fray.Odds{Expr: "1d6", Target: 4}, roll); err != nil {
				return err
			}
			ev := t.Events()[1]
			if o := ev.Odds; o == nil || o.Expr != "1d6" || o.Target != 4 || !cmp.Equal(ev.Rolls, []fray.Roll{roll}) {
				return errors.New("the odds or the roll are not on the event")
			}
			if t.Events()[0].Odds != nil {
				return errors.New("the odds are on the event before")
			}
			return nil
		}},
		total: 6,
		types: []string{"add", "add"},
		data:  []string{`{"n":1}`, `{"n":5}`},
	}, {
		name:     "an event the state refuses is an internal error",
		sys:      adder{},
		steps:    []step{add(1), func(t *kit.Txn[*tally]) error { return t.Emit("bad", nil) }, add(2)},
		total:    1,
		types:    []string{"add"},
		data:     []string{`{"n":1}`},
		internal: "An event of the bad kind could not be applied.",
	}, {
		name:  "the hook is called around each event, and may add events",
		sys:   adder{},
		hook:  true,
		steps: []step{add(6), add(6)},
		total: 12,
		types: []string{"add", "add", "over"},
		data:  []string{`{"n":6}`, `{"n":6}`, ""},
		calls: []string{"applying add", "applied add", "applying add", "applied add", "applying over", "applied over"},
	}, {
		name:  "a read-only transaction calls no hook",
		hook:  true,
		steps: []step{add(20)},
		types: []string{"add"},
		data:  []string{`{"n":20}`},
	}, {
		name: "the events after Freeze are recorded, not applied, and call no hook",
		sys:  adder{},
		hook: true,
		steps: []step{add(2), func(t *kit.Txn[*tally]) error {
			t.Freeze()
			if !t.ReadOnly() {
				return errors.New("not read-only after Freeze")
			}
			return nil
		}, addTotal, add(20)},
		// 2 applied; 2+1 = 3 decided on the state it left; nothing over
		total: 2,
		types: []string{"add", "add", "add"},
		data:  []string{`{"n":2}`, `{"n":3}`, `{"n":20}`},
		calls: []string{"applying add", "applied add"},
	}, {
		name: "AddAll applies each event in turn, and the hook sees each",
		sys:  adder{},
		hook: true,
		steps: []step{func(t *kit.Txn[*tally]) error {
			return t.AddAll([]fray.Event{addEvent(4), addEvent(7)})
		}, addTotal},
		// 4+7 = 11, over 10 at the second; then 11+12 = 23, over again
		total: 23,
		types: []string{"add", "add", "over", "add", "over"},
		data:  []string{`{"n":4}`, `{"n":7}`, "", `{"n":12}`, ""},
		calls: []string{"applying add", "applied add", "applying add", "applied add", "applying over", "applied over",
			"applying add", "applied add", "applying over", "applied over"},
	}, {
		name: "AddAll stops at an event the state refuses",
		sys:  adder{},
		steps: []step{func(t *kit.Txn[*tally]) error {
			return t.AddAll([]fray.Event{addEvent(1), {Type: "bad"}, addEvent(2)})
		}},
		total:    1,
		types:    []string{"add"},
		data:     []string{`{"n":1}`},
		internal: "An event of the bad kind could not be applied.",
	}, {
		name: "a read-only AddAll keeps the events given, and writes nothing past them",
		steps: []step{func(t *kit.Txn[*tally]) error {
			given := make([]fray.Event, 1, 4)
			given[0] = addEvent(1)
			if err := t.AddAll(given); err != nil {
				return err
			}
			if &t.Events()[0] != &given[0] {
				return errors.New("the events given were copied")
			}
			if err := t.Emit("add", addData{N: 2}); err != nil {
				return err
			}
			if got := given[:2][1].Type; got != "" {
				return fmt.Errorf("an event recorded later was written into the slice given: %q", got)
			}
			return nil
		}},
		types: []string{"add", "add"},
		data:  []string{`{"n":1}`, `{"n":2}`},
	}, {
		name: "a read-only AddAll after other events appends",
		steps: []step{add(1), func(t *kit.Txn[*tally]) error {
			return t.AddAll([]fray.Event{addEvent(2), addEvent(3)})
		}},
		types: []string{"add", "add", "add"},
		data:  []string{`{"n":1}`, `{"n":2}`, `{"n":3}`},
	}, {
		name: "the first event makes the room asked for",
		room: 4,
		steps: []step{add(1), func(t *kit.Txn[*tally]) error {
			if n := cap(t.Events()); n != 4 {
				return fmt.Errorf("room for %d events; want 4", n)
			}
			return nil
		}, add(2)},
		types: []string{"add", "add"},
		data:  []string{`{"n":1}`, `{"n":2}`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			txn := kit.Txn[*tally]{State: &tally{total: tc.start}, Sys: tc.sys, Room: tc.room}
			if tc.hook {
				txn.Hook = &lapse{&txn}
			}
			if txn.ReadOnly() != (tc.sys == nil) {
				t.Errorf("ReadOnly() = %v with Sys %v", txn.ReadOnly(), tc.sys)
			}
			var err error
			for _, s := range tc.steps {
				if err = s(&txn); err != nil {
					break
				}
			}
			if tc.internal == "" && err != nil {
				t.Fatalf("error: %v", err)
			}
			if tc.internal != "" {
				var fe *fray.Error
				if !errors.As(err, &fe) || fe.Code != fray.EINTERNAL || fe.Message != tc.internal || !errors.Is(err, errBad) {
					t.Fatalf("error = %v; want an EINTERNAL %q wrapping the state's refusal", err, tc.internal)
				}
			}
			if txn.State.total != tc.total {
				t.Errorf("total = %d; want %d", txn.State.total, tc.total)
			}
			var types, data []string
			for _, ev := range txn.Events() {
				types, data = append(types, ev.Type), append(data, string(ev.Data))
			}
			if diff := cmp.Diff(tc.types, types); diff != "" {
				t.Errorf("types (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.data, data); diff != "" {
				t.Errorf("payloads (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.calls, txn.State.calls); diff != "" {
				t.Errorf("hook calls (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTxnUnrecorded checks an unrecorded transaction: each event is
// applied as it is recorded, keeps its payload without Data (its JSON
// made only when asked), and keeps no odds; a recorded one keeps both.
func TestTxnUnrecorded(t *testing.T) {
	odds := fray.Odds{Expr: "1d6", Mean: 3.5}
	for _, unrecorded := range []bool{true, false} {
		tx := kit.Txn[*tally]{State: &tally{total: 2}, Sys: adder{}, Unrecorded: unrecorded}
		if err := addTotal(&tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.EmitOdds("add", addData{N: 4}, odds, fray.Roll{Expr: "1d6", Dice: []int{4}, Total: 4}); err != nil {
			t.Fatal(err)
		}
		// 2+3 = 5, then +4 = 9
		if tx.State.total != 9 {
			t.Errorf("unrecorded %v: total %d, want 9", unrecorded, tx.State.total)
		}
		evs := tx.Events()
		if len(evs) != 2 {
			t.Fatalf("unrecorded %v: %d events, want 2", unrecorded, len(evs))
		}
		if got := len(evs[0].Data) == 0; got != unrecorded {
			t.Errorf("unrecorded %v: Data %q", unrecorded, evs[0].Data)
		}
		if got := evs[1].Odds == nil; got != unrecorded {
			t.Errorf("unrecorded %v: odds %v", unrecorded, evs[1].Odds)
		}
		for i, want := range []string{`{"n":3}`, `{"n":4}`} {
			if js, err := evs[i].JSON(); err != nil || string(js) != want {
				t.Errorf("unrecorded %v: event %d JSON %s, %v; want %s", unrecorded, i, js, err, want)
			}
		}
	}
}

// roomLender lends its room once, as a simulated fight's Roller does.
type roomLender struct {
	room []fray.Event
	lent bool
}

func (*roomLender) Roll(string, string) (fray.Roll, error) { return fray.Roll{}, nil }
func (*roomLender) Unrecorded() bool                       { return true }
func (l *roomLender) LendEvents() []fray.Event {
	if l.lent {
		return nil
	}
	l.lent = true
	return l.room[:0]
}

// TestTxnLender checks that the first transaction to record an event
// records in the room its Lender lends, and one that records nothing
// leaves the room to the next.
func TestTxnLender(t *testing.T) {
	l := &roomLender{room: make([]fray.Event, 0, 4)}
	if fray.Lender(l) == nil {
		t.Fatal("Lender of an unrecorded roller that lends = nil")
	}
	idle := kit.Txn[*tally]{State: &tally{}, Lender: fray.Lender(l)}
	first := kit.Txn[*tally]{State: &tally{}, Sys: adder{}, Room: 1, Lender: fray.Lender(l)}
	second := kit.Txn[*tally]{State: &tally{}, Sys: adder{}, Lender: fray.Lender(l)}
	if len(idle.Events()) != 0 || l.lent {
		t.Fatal("a transaction that records nothing took the room")
	}
	for _, tx := range []*kit.Txn[*tally]{&first, &second} {
		if err := tx.Add(addEvent(1)); err != nil {
			t.Fatal(err)
		}
	}
	if evs := first.Events(); len(evs) != 1 || &evs[:1][0] != &l.room[:1][0] {
		t.Errorf("the first transaction's events are not in the lent room")
	}
	if evs := second.Events(); len(evs) != 1 || &evs[0] == &l.room[:1][0] {
		t.Errorf("the second transaction recorded in the room the first took")
	}
	if fray.Lender(unrecordedOnly{}) != nil {
		t.Error("Lender of a roller that lends nothing is not nil")
	}
}

// unrecordedOnly is an unrecorded roller that lends no room.
type unrecordedOnly struct{}

func (unrecordedOnly) Roll(string, string) (fray.Roll, error) { return fray.Roll{}, nil }
func (unrecordedOnly) Unrecorded() bool                       { return true }
