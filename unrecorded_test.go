package fray_test

import (
	"testing"

	"fray"
)

type nested struct {
	Who   fray.CombatantID   `json:"who"`
	Tags  []string           `json:"tags"`
	Also  []fray.CombatantID `json:"also,omitempty"`
	Count int                `json:"count"`
}

// TestNewUnrecordedEvent checks an event made for a decision never
// recorded: no Data and no declared references until asked, a payload
// that Decode copies (and the caller's changes to what it gave do not
// reach), the JSON that NewEvent would have recorded, and a decoding into
// another type from that JSON.
func TestNewUnrecordedEvent(t *testing.T) {
	data := nested{Who: "c1", Tags: []string{"a", "b"}, Also: []fray.CombatantID{"c2"}, Count: 3}
	ev, err := fray.NewUnrecordedEvent("x.nested", data, fray.Roll{Expr: "1d6", Total: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Data) != 0 || ev.Odds != nil || len(ev.Rolls) != 1 || ev.Rolls[0].Total != 4 {
		t.Errorf("event = %+v, want no data, no odds, the roll", ev)
	}
	if names, ids := ev.Declared(); names != nil || ids != nil {
		t.Errorf("declared %v %v, want nothing", names, ids)
	}
	data.Tags[0] = "changed" // the event keeps a copy
	var got nested
	if err := ev.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Who != "c1" || len(got.Tags) != 2 || got.Tags[0] != "a" || got.Count != 3 || len(got.Also) != 1 {
		t.Errorf("decoded %+v", got)
	}
	got.Tags[1] = "mine" // nor do the decoder's changes reach the event
	var again nested
	if err := ev.Decode(&again); err != nil || again.Tags[1] != "b" {
		t.Errorf("decoded again %+v, %v", again, err)
	}
	js, err := ev.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"who":"c1","tags":["a","b"],"also":["c2"],"count":3}`; string(js) != want {
		t.Errorf("JSON = %s, want %s", js, want)
	}
	var small struct {
		Count int `json:"count"`
	}
	if err := ev.Decode(&small); err != nil || small.Count != 3 {
		t.Errorf("decoded into another type: %+v, %v", small, err)
	}
	empty, err := fray.NewUnrecordedEvent("x.empty", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Decode(&small); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("decoding an event without a payload: %v, want EINVALID", err)
	}
	if js, err := empty.JSON(); js != nil || err != nil {
		t.Errorf("JSON of no payload = %s, %v", js, err)
	}
}

type plainRoller struct{}

func (plainRoller) Roll(string, string) (fray.Roll, error) { return fray.Roll{}, nil }

type scratchRoller struct {
	plainRoller
	scratch bool
}

func (r scratchRoller) Unrecorded() bool { return r.scratch }

// TestRecorded checks which rollers' events are recorded.
func TestRecorded(t *testing.T) {
	for _, c := range []struct {
		name string
		r    fray.Roller
		want bool
	}{
		{"plain", plainRoller{}, true},
		{"unrecorded", scratchRoller{scratch: true}, false},
		{"says recorded", scratchRoller{}, true},
	} {
		if got := fray.Recorded(c.r); got != c.want {
			t.Errorf("%s: Recorded = %v, want %v", c.name, got, c.want)
		}
	}
}

type flatTurn struct {
	Who  fray.CombatantID `json:"who"`
	Note string           `json:"note"`
}

// TestPayload checks Payload and Holds: the payload an event holds,
// copied without allocating when it is flat; another type decoded from
// the JSON; an event read back without a kept payload decoded from Data.
func TestPayload(t *testing.T) {
	ev, err := fray.NewEvent("x.turn", flatTurn{Who: "c1", Note: "waits"})
	if err != nil {
		t.Fatal(err)
	}
	if !fray.Holds[flatTurn](ev) || fray.Holds[nested](ev) {
		t.Errorf("Holds: flatTurn %v, nested %v; want true, false", fray.Holds[flatTurn](ev), fray.Holds[nested](ev))
	}
	got, err := fray.Payload[flatTurn](ev)
	if err != nil || got != (flatTurn{Who: "c1", Note: "waits"}) {
		t.Errorf("Payload = %+v, %v", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = fray.Payload[flatTurn](ev) }); n != 0 {
		t.Errorf("Payload of a flat payload allocates %v times", n)
	}
	other, err := fray.Payload[nested](ev)
	if err != nil || other.Who != "c1" {
		t.Errorf("Payload as another type = %+v, %v", other, err)
	}
	read := fray.Event{Type: "x.turn", Data: []byte(`{"who":"c2","note":"hides"}`)}
	if fray.Holds[flatTurn](read) {
		t.Error("an event read back holds a payload before Preload")
	}
	if got, err := fray.Payload[flatTurn](read); err != nil || got != (flatTurn{Who: "c2", Note: "hides"}) {
		t.Errorf("Payload from Data = %+v, %v", got, err)
	}
	if _, err := fray.Payload[flatTurn](fray.Event{Type: "x.turn", Data: []byte(`{"who":`)}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("Payload of malformed data: %v, want EINVALID", err)
	}
}
