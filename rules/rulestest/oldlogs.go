package rulestest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// OldLogs is the folder, under a rule package's directory, of logs written
// by earlier versions of fray (testdata/v2: format version 2, before
// payloads held ids), each NAME.jsonl with the view it ended in as
// NAME.view.json. They were written once and are never rewritten. Where
// the script a log was written from has changed since (a rule read
// better), the script as it was stands beside it as NAME.fray, and the
// log is compared with that.
const OldLogs = "testdata/v2"

// CheckOldLogs imports every log in dir (see OldLogs) under the system
// newSystem returns and checks that the import ends in the view the older
// fray recorded, that its events are all of format 3 (fray.FormatIDs,
// their names rewritten into ids by engine.Upgrade), and that replaying
// and exporting the upgraded log rebuild it exactly (CheckReplay). When
// a script of the same name is given, the script played now must give the
// same log, event for event, as the upgraded one: the rewriting is
// exactly what the rules would write today.
func CheckOldLogs(newSystem func() fray.System, dir string, scripts ...Script) error {
	logs, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		return fmt.Errorf("%s holds no logs", dir)
	}
	for _, path := range logs {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		if err := checkOldLog(newSystem, path, name, scripts); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func checkOldLog(newSystem func() fray.System, path, name string, scripts []Script) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	want, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".view.json")
	if err != nil {
		return err
	}
	e, err := engine.Import(bytes.NewReader(b), newSystem(), nil)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if err := sameJSON(e.View(), want); err != nil {
		return fmt.Errorf("the view after the import is not the one recorded: %w", err)
	}
	if err := checkState(e.System(), e.State()); err != nil {
		return err
	}
	for _, ev := range e.Log() {
		if ev.Format != fray.FormatIDs {
			return fmt.Errorf("event %d is of format %d after the import", ev.Seq, ev.Format)
		}
	}
	if err := CheckReplay(e); err != nil {
		return err
	}
	if old, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".fray"); err == nil {
		scripts = []Script{{Name: name, Text: string(old)}}
	}
	for _, s := range scripts {
		if s.Name != name {
			continue
		}
		now := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
		now.Seed = e.Seed
		// As RunScript played it when the log was written: each command
		// through Step, which undoes and redoes it.
		for _, line := range strings.Split(s.Text, "\n") {
			if cmd, err := engine.ParseCommand(line); err == nil && cmd.Name != "" {
				if err := Step(now, cmd); err != nil {
					return err
				}
			}
		}
		// What the encounter holds, step by step: the undos and redos
		// Step makes may differ (a command that settles a waiting hit
		// makes two steps now), and with them the numbering.
		got, old := now.Applied(), e.Applied()
		if len(got) != len(old) {
			return fmt.Errorf("the script played now applies %d events; the upgraded log %d", len(got), len(old))
		}
		for i, ev := range got {
			o := old[i]
			ev.Seq, ev.Step, ev.Command, o.Seq, o.Step, o.Command = 0, 0, "", 0, 0, ""
			// A roll says by id whom it is for where an older fray's said
			// it in words alone (a label, "Vile (might 3d)"), which the
			// upgrade cannot read back.
			if len(ev.Rolls) == len(o.Rolls) {
				ev.Rolls = slices.Clone(ev.Rolls)
				for j := range ev.Rolls {
					if o.Rolls[j].Who == "" {
						ev.Rolls[j].Who = ""
					}
				}
			}
			if err := sameEvent(ev, o); err != nil {
				return fmt.Errorf("applied event %d (%s): %w", i+1, ev.Type, err)
			}
		}
	}
	return nil
}

// sameEvent reports how two events differ, comparing payloads as JSON
// values (an upgraded payload's keys come in another order).
func sameEvent(a, b fray.Event) error {
	var da, db any
	if err := json.Unmarshal(a.Data, &da); len(a.Data) > 0 && err != nil {
		return err
	}
	if err := json.Unmarshal(b.Data, &db); len(b.Data) > 0 && err != nil {
		return err
	}
	if !reflect.DeepEqual(da, db) {
		return fmt.Errorf("payload %s now, %s upgraded", a.Data, b.Data)
	}
	a.Data, b.Data = nil, nil
	if a.Odds != nil && b.Odds != nil && sameOdds(*a.Odds, *b.Odds) {
		b.Odds = a.Odds
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		return fmt.Errorf("%s now, %s upgraded", ja, jb)
	}
	return nil
}

// oddsSlack is how far, relative to its size, a probability or mean a
// roll's event records now may stand from the one an older fray recorded:
// a few units in the last place, where the odds are now worked out in
// another order (Apply never reads them, and what fray prints of them is
// rounded far above this).
const oddsSlack = 1e-14

// sameOdds reports whether two roll's odds say the same to within
// oddsSlack in every number and exactly in everything else.
func sameOdds(a, b fray.Odds) bool {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if json.Unmarshal(ja, &x) != nil || json.Unmarshal(jb, &y) != nil {
		return false
	}
	return nearJSON(x, y)
}

// nearJSON reports whether two decoded JSON values are the same but for
// numbers within oddsSlack of each other.
func nearJSON(x, y any) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		return ok && math.Abs(x-y) <= oddsSlack*max(1, math.Abs(x), math.Abs(y))
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !nearJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !nearJSON(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}

// sameJSON reports whether the view v encodes to the JSON value want,
// leaving aside what views have said since the old logs were written:
// whom each history turn names (RoundTurns.Who, for every turn now).
func sameJSON(v any, want []byte) error {
	got, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var x, y any
	if err := json.Unmarshal(got, &x); err != nil {
		return err
	}
	if err := json.Unmarshal(want, &y); err != nil {
		return err
	}
	for _, z := range []any{x, y} {
		if m, ok := z.(map[string]any); ok {
			if hs, ok := m["history"].([]any); ok {
				for _, h := range hs {
					if r, ok := h.(map[string]any); ok {
						delete(r, "who")
					}
				}
			}
		}
	}
	if !reflect.DeepEqual(x, y) {
		gi, _ := json.MarshalIndent(x, "", "  ")
		return fmt.Errorf("\n%s", diffText(string(want), string(gi)))
	}
	return nil
}
