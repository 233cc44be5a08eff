package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"fray"
)

// TestStreamUpgradesStoredEvents: events a store holds from an older fray
// (format version 2: payloads name combatants) reach a stream resumed from
// the start in format 3, as the engine reads them: with ids for names.
func TestStreamUpgradesStoredEvents(t *testing.T) {
	e := start(t, nil)
	f, err := os.Open("../cmd/fray/testdata/v2/queue/queue-brigands.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // the header
	var recs []fray.EventRecord
	for sc.Scan() {
		var ev fray.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Format != 0 {
			t.Fatalf("the old log's event %d is of format %d", ev.Seq, ev.Format)
		}
		recs = append(recs, fray.EventRecord{Seq: ev.Seq, Type: ev.Type, Data: append([]byte(nil), sc.Bytes()...), Time: time.Now()})
	}
	const token = "old-events-gm-token-0123456789abcdef"
	ctx := context.Background()
	rec := fray.EncounterRecord{ID: "oldlog", Rules: "queue", Seed: 1, Created: time.Now()}
	if err := e.store.CreateEncounter(ctx, rec, fray.Token{Hash: fray.HashToken(token), Encounter: rec.ID, Role: fray.RoleGM, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(recs); i += fray.MaxAppend {
		if _, err := e.store.AppendEvents(ctx, rec.ID, i, recs[i:min(i+fray.MaxAppend, len(recs))]); err != nil {
			t.Fatal(err)
		}
	}
	s := e.open(t, rec.ID, token, "0")
	defer s.close()
	ids := map[fray.CombatantID]bool{}
	acted := 0
	for seen := 0; seen < len(recs); {
		_, d := s.next(t)
		for _, ev := range d.Events {
			seen = ev.Seq
			if ev.Format != fray.FormatIDs {
				t.Fatalf("event %d (%s) reached the stream in format %d", ev.Seq, ev.Type, ev.Format)
			}
			if ev.Type == fray.EventAdded {
				var a fray.AddedData
				if err := json.Unmarshal(ev.Data, &a); err != nil {
					t.Fatal(err)
				}
				ids[a.Combatant.ID] = true
			}
			if ev.Type == "queue.acted" {
				var a struct {
					Name fray.CombatantID `json:"name"`
				}
				if err := json.Unmarshal(ev.Data, &a); err != nil {
					t.Fatal(err)
				}
				if !ids[a.Name] {
					t.Fatalf("event %d acts for %q, which is no combatant's id", ev.Seq, a.Name)
				}
				acted++
			}
		}
	}
	if acted == 0 {
		t.Fatal("the stream carried no queue.acted event (of " + strconv.Itoa(len(recs)) + ")")
	}
}
