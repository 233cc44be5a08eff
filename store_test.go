package fray_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"fray"
)

func TestEventRecordRoundTrip(t *testing.T) {
	ev, err := fray.NewEvent(fray.EventNoted, fray.NoteData{Who: "bbbbbbbb", Note: "winded"},
		fray.Roll{For: "Blueshift", Expr: "2d6", Dice: []int{6, 3}, Total: 9, Source: fray.RollFaces})
	if err != nil {
		t.Fatal(err)
	}
	ev.Seq, ev.Step, ev.Command = 7, 3, `note Blueshift winded`
	at := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	rec, err := fray.NewEventRecord(ev, at)
	if err != nil {
		t.Fatalf("NewEventRecord: %v", err)
	}
	if rec.Seq != 7 || rec.Type != fray.EventNoted || !rec.Time.Equal(at) {
		t.Errorf("NewEventRecord = seq %d, type %q, time %v; want 7, %q, %v", rec.Seq, rec.Type, rec.Time, fray.EventNoted, at)
	}
	if err := rec.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	got, err := rec.Event()
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	if diff := cmp.Diff(ev, got, cmpopts.IgnoreUnexported(fray.Event{})); diff != "" {
		t.Errorf("Event (-want +got):\n%s", diff)
	}
}

func TestEventRecordEventBad(t *testing.T) {
	tests := []struct {
		name string
		rec  fray.EventRecord
	}{
		{"not an event", fray.EventRecord{Seq: 1, Type: "added", Data: json.RawMessage(`[1]`)}},
		{"not JSON", fray.EventRecord{Seq: 1, Type: "added", Data: json.RawMessage(`{`)}},
		{"another number", fray.EventRecord{Seq: 2, Type: "added", Data: json.RawMessage(`{"seq":1,"step":1,"type":"added"}`)}},
		{"another type", fray.EventRecord{Seq: 1, Type: "removed", Data: json.RawMessage(`{"seq":1,"step":1,"type":"added"}`)}},
	}
	for _, tt := range tests {
		if _, err := tt.rec.Event(); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: Event() error %v, want EINVALID", tt.name, err)
		}
	}
}

func TestConflictError(t *testing.T) {
	err := fmt.Errorf("append events: %w", fray.ConflictError(12, 10))
	if code := fray.ErrorCode(err); code != fray.ECONFLICT {
		t.Errorf("ErrorCode = %q, want %q", code, fray.ECONFLICT)
	}
	if rev, ok := fray.CurrentRevision(err); !ok || rev != 12 {
		t.Errorf("CurrentRevision = %d, %v; want 12, true", rev, ok)
	}
	var re *fray.RevisionError
	if !errors.As(err, &re) || re.Expected != 10 {
		t.Errorf("the cause is %v, want a *RevisionError expecting 10", re)
	}
	if _, ok := fray.CurrentRevision(fray.Errorf(fray.ECONFLICT, "Taken.")); ok {
		t.Errorf("CurrentRevision found a revision in an error without one")
	}
}

func TestHashToken(t *testing.T) {
	// The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := fray.HashToken("abc"); got != want {
		t.Errorf("HashToken(abc) = %s, want %s", got, want)
	}
	if err := fray.ValidateTokenHash(want); err != nil {
		t.Errorf("ValidateTokenHash(%s): %v", want, err)
	}
}

func TestValidateAppend(t *testing.T) {
	at := time.Unix(1, 0)
	ev := func(seq int) fray.EventRecord {
		return fray.EventRecord{Seq: seq, Type: "x", Data: json.RawMessage(`{}`), Time: at}
	}
	tests := []struct {
		name string
		id   string
		rev  int
		evs  []fray.EventRecord
		code string
	}{
		{"good", "e", 0, []fray.EventRecord{ev(1), ev(2)}, ""},
		{"good, later", "e", 5, []fray.EventRecord{ev(6)}, ""},
		{"bad id", "", 0, []fray.EventRecord{ev(1)}, fray.EINVALID},
		{"negative revision", "e", -1, []fray.EventRecord{ev(0)}, fray.EINVALID},
		{"none", "e", 0, nil, fray.EINVALID},
		{"gap", "e", 0, []fray.EventRecord{ev(1), ev(3)}, fray.EINVALID},
		{"wrong start", "e", 1, []fray.EventRecord{ev(1)}, fray.EINVALID},
		{"past MaxLogEvents", "e", fray.MaxLogEvents, []fray.EventRecord{ev(fray.MaxLogEvents + 1)}, fray.ETOOLARGE},
	}
	for _, tt := range tests {
		if got := fray.ErrorCode(fray.ValidateAppend(tt.id, tt.rev, tt.evs)); got != tt.code {
			t.Errorf("%s: code %q, want %q", tt.name, got, tt.code)
		}
	}
}

func TestTruncateTime(t *testing.T) {
	in := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("X", 3600)).Add(0)
	got := fray.TruncateTime(in)
	want := time.Date(2026, 1, 2, 2, 4, 5, 123456000, time.UTC)
	if got != want {
		t.Errorf("TruncateTime(%v) = %v, want %v", in, got, want)
	}
	if now := fray.TruncateTime(time.Now()); now != now.Round(0) {
		t.Errorf("TruncateTime kept a monotonic reading")
	}
}

// FuzzValidate checks that the store's input checks never panic and
// refuse only with the codes the Store contract names.
func FuzzValidate(f *testing.F) {
	f.Add("enc-1", "bpb", "Blueshift’s fight", "test.event", []byte(`{"a":1}`), 0, 1, "Blueshift")
	f.Add("", "", "", "", []byte(nil), -1, -1, "")
	f.Add("a b", "BPB", "a\x00b", "a b", []byte(`{`), 1<<20, 1<<20+1, "\xff")
	f.Fuzz(func(t *testing.T, id, rules, name, typ string, data []byte, rev, seq int, combatant string) {
		allowed := func(what string, err error) {
			switch fray.ErrorCode(err) {
			case "", fray.EINVALID, fray.ETOOLARGE:
			default:
				t.Errorf("%s: %v has a code the contract does not allow", what, err)
			}
		}
		at := time.Unix(1, 0)
		allowed("EncounterRecord", fray.EncounterRecord{ID: id, Rules: rules, Name: name, Created: at}.Validate())
		ev := fray.EventRecord{Seq: seq, Type: typ, Data: data, Time: at}
		allowed("EventRecord", ev.Validate())
		allowed("ValidateAppend", fray.ValidateAppend(id, rev, []fray.EventRecord{ev}))
		allowed("Token", fray.Token{Hash: fray.HashToken(id), Encounter: id, Role: fray.RolePlayer, Combatant: combatant, Created: at}.Validate())
		allowed("ValidateTokenHash", fray.ValidateTokenHash(id))
		allowed("EncounterFilter", fray.EncounterFilter{IDs: []string{id}, Offset: rev, Limit: seq}.Validate())
		if _, err := ev.Event(); err != nil {
			allowed("Event", err)
		}
	})
}
