package storetest

// This file holds the tests of creating, getting and listing encounters.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"fray"
)

func testCreateGet(t *testing.T, s fray.Store) {
	ctx := context.Background()
	enc := Encounter("a-1_Z")
	enc.Name = "Blueshift’s last stand ⚔"
	enc.Revision, enc.Updated = 99, base.Add(time.Hour) // ignored
	mustCreate(t, s, enc)
	got, err := s.Encounter(ctx, enc.ID)
	if err != nil {
		t.Fatalf("Encounter: %v", err)
	}
	want := enc
	want.Created = fray.TruncateTime(enc.Created)
	want.Revision, want.Updated = 0, want.Created
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Encounter (-want +got):\n%s", diff)
	}
	if got.Created.Location() != time.UTC || got.Updated.Location() != time.UTC {
		t.Errorf("times come back in %v and %v, want UTC", got.Created.Location(), got.Updated.Location())
	}
	if got.Created.Nanosecond()%1000 != 0 {
		t.Errorf("Created %v is not truncated to the microsecond", got.Created)
	}
	_, err = s.Encounter(ctx, "nobody")
	wantCode(t, "Encounter(unknown)", err, fray.ENOTFOUND)
	_, err = s.Encounter(ctx, "not an id")
	wantCode(t, "Encounter(bad id)", err, fray.EINVALID)
	_, err = s.Encounter(ctx, "")
	wantCode(t, "Encounter(empty id)", err, fray.EINVALID)
}

func testCreateTaken(t *testing.T, s fray.Store) {
	ctx := context.Background()
	enc := Encounter("taken")
	mustCreate(t, s, enc)
	mustAppend(t, s, "taken", 0, Events(1, 2, "w"))
	other := enc
	other.Name = "Another"
	other.Rules = "vv"
	wantCode(t, "CreateEncounter(taken id)", s.CreateEncounter(ctx, other), fray.ECONFLICT)
	got, err := s.Encounter(ctx, "taken")
	if err != nil {
		t.Fatalf("Encounter: %v", err)
	}
	if got.Name != enc.Name || got.Rules != enc.Rules || got.Revision != 2 {
		t.Errorf("after a refused create: %+v, want the original at revision 2", got)
	}
	checkLog(t, s, "taken", truncated(Events(1, 2, "w")))
}

func testCreateBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	long := strings.Repeat("x", fray.MaxNameLen+1)
	tests := []struct {
		name string
		edit func(e *fray.EncounterRecord)
		code string
	}{
		{"no id", func(e *fray.EncounterRecord) { e.ID = "" }, fray.EINVALID},
		{"space in id", func(e *fray.EncounterRecord) { e.ID = "a b" }, fray.EINVALID},
		{"slash in id", func(e *fray.EncounterRecord) { e.ID = "a/b" }, fray.EINVALID},
		{"unicode id", func(e *fray.EncounterRecord) { e.ID = "é" }, fray.EINVALID},
		{"long id", func(e *fray.EncounterRecord) { e.ID = strings.Repeat("a", fray.MaxIDLen+1) }, fray.ETOOLARGE},
		{"no rules", func(e *fray.EncounterRecord) { e.Rules = "" }, fray.EINVALID},
		{"upper-case rules", func(e *fray.EncounterRecord) { e.Rules = "BPB" }, fray.EINVALID},
		{"long rules", func(e *fray.EncounterRecord) { e.Rules = strings.Repeat("r", fray.MaxRulesLen+1) }, fray.ETOOLARGE},
		{"long name", func(e *fray.EncounterRecord) { e.Name = long }, fray.ETOOLARGE},
		{"very long name", func(e *fray.EncounterRecord) { e.Name = strings.Repeat(long, 5000) }, fray.ETOOLARGE},
		{"long name in runes", func(e *fray.EncounterRecord) { e.Name = strings.Repeat("⚔", fray.MaxNameLen/3+1) }, fray.ETOOLARGE},
		{"bad UTF-8 name", func(e *fray.EncounterRecord) { e.Name = "a\xffb" }, fray.EINVALID},
		{"control in name", func(e *fray.EncounterRecord) { e.Name = "a\nb" }, fray.EINVALID},
		{"NUL in name", func(e *fray.EncounterRecord) { e.Name = "a\x00b" }, fray.EINVALID},
		{"no time", func(e *fray.EncounterRecord) { e.Created = time.Time{} }, fray.EINVALID},
	}
	for _, tt := range tests {
		enc := Encounter("bad")
		tt.edit(&enc)
		wantCode(t, tt.name, s.CreateEncounter(ctx, enc), tt.code)
	}
	list, err := s.Encounters(ctx, fray.EncounterFilter{})
	if err != nil {
		t.Fatalf("Encounters: %v", err)
	}
	if len(list) != 0 {
		t.Errorf("refused creates left %d encounters: %+v", len(list), list)
	}
	// At the limits, a record is good.
	enc := Encounter(strings.Repeat("i", fray.MaxIDLen))
	enc.Rules = strings.Repeat("r", fray.MaxRulesLen)
	enc.Name = strings.Repeat("n", fray.MaxNameLen)
	mustCreate(t, s, enc)
	empty := Encounter("unnamed")
	empty.Name = ""
	mustCreate(t, s, empty)
}

func testCreateTokensAtomic(t *testing.T, s fray.Store) {
	ctx := context.Background()
	gm := GMToken("t1", "gm")
	p := PlayerToken("t1", "Blueshift", "player")
	mustCreate(t, s, Encounter("t1"), gm, p)
	for _, want := range []fray.Token{gm, p} {
		got, err := s.Token(ctx, want.Hash)
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		if diff := cmp.Diff(truncToken(want), got); diff != "" {
			t.Errorf("Token (-want +got):\n%s", diff)
		}
	}
	refused := []struct {
		name   string
		tokens []fray.Token
		code   string
	}{
		{"hash taken by another encounter", []fray.Token{GMToken("t2", "new"), PlayerToken("t2", "X", "gm")}, fray.ECONFLICT},
		{"hash twice", []fray.Token{GMToken("t2", "same"), PlayerToken("t2", "X", "same")}, fray.ECONFLICT},
		{"token for another encounter", []fray.Token{GMToken("t3", "other")}, fray.EINVALID},
		{"bad token", []fray.Token{{Hash: "abc", Encounter: "t2", Role: fray.RoleGM, Created: base}}, fray.EINVALID},
	}
	for _, tt := range refused {
		wantCode(t, tt.name, s.CreateEncounter(ctx, Encounter("t2"), tt.tokens...), tt.code)
		_, err := s.Encounter(ctx, "t2")
		wantCode(t, tt.name+": encounter after a refused create", err, fray.ENOTFOUND)
		for _, tok := range tt.tokens {
			if tok.Hash == gm.Hash || tok.Hash == "abc" {
				continue
			}
			_, err := s.Token(ctx, tok.Hash)
			wantCode(t, tt.name+": token after a refused create", err, fray.ENOTFOUND)
		}
	}
	// The encounter id is free again, and the first encounter untouched.
	mustCreate(t, s, Encounter("t2"), GMToken("t2", "new"))
	got, err := s.Token(ctx, gm.Hash)
	if err != nil || got.Encounter != "t1" {
		t.Errorf("Token(gm) = %+v, %v; want the token of t1", got, err)
	}
}

func testList(t *testing.T, s fray.Store) {
	ctx := context.Background()
	// Created: e3 newest; e1 and e2 tie and are listed by id; e0 oldest.
	recs := []fray.EncounterRecord{Encounter("e0"), Encounter("e2"), Encounter("e1"), Encounter("e3")}
	recs[0].Created = base.Add(-time.Hour)
	recs[3].Created = base.Add(time.Hour)
	for _, r := range recs {
		mustCreate(t, s, r)
	}
	mustAppend(t, s, "e1", 0, Events(1, 3, "w"))
	ids := func(list []fray.EncounterRecord) []string {
		var out []string
		for _, r := range list {
			out = append(out, r.ID)
		}
		return out
	}
	tests := []struct {
		name string
		f    fray.EncounterFilter
		want []string
	}{
		{"all", fray.EncounterFilter{}, []string{"e3", "e1", "e2", "e0"}},
		{"limit", fray.EncounterFilter{Limit: 2}, []string{"e3", "e1"}},
		{"offset", fray.EncounterFilter{Offset: 1, Limit: 2}, []string{"e1", "e2"}},
		{"offset to the end", fray.EncounterFilter{Offset: 3}, []string{"e0"}},
		{"offset past the end", fray.EncounterFilter{Offset: 4}, nil},
		{"limit past MaxListed", fray.EncounterFilter{Limit: fray.MaxListed + 1}, []string{"e3", "e1", "e2", "e0"}},
	}
	for _, tt := range tests {
		got, err := s.Encounters(ctx, tt.f)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got == nil {
			t.Errorf("%s: a nil list, want an empty one", tt.name)
		}
		if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	all, err := s.Encounters(ctx, fray.EncounterFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		want := r
		switch r.ID {
		case "e1":
			want.Revision, want.Updated = 3, fray.TruncateTime(Events(3, 1, "")[0].Time)
		default:
			want.Revision, want.Updated = 0, r.Created
		}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("listed %s (-want +got):\n%s", r.ID, diff)
		}
	}
}

func testListFilter(t *testing.T, s fray.Store) {
	ctx := context.Background()
	for i := range 5 {
		e := Encounter(fmt.Sprintf("f%d", i))
		e.Created = base.Add(time.Duration(i) * time.Second)
		mustCreate(t, s, e)
	}
	tests := []struct {
		name string
		ids  []string
		want []string
	}{
		{"some", []string{"f1", "f3"}, []string{"f3", "f1"}},
		{"unknown skipped", []string{"f0", "nobody", "f4"}, []string{"f4", "f0"}},
		{"repeated once", []string{"f2", "f2", "f2"}, []string{"f2"}},
		{"none known", []string{"x", "y"}, nil},
		{"empty, not nil", []string{}, nil},
	}
	for _, tt := range tests {
		got, err := s.Encounters(ctx, fray.EncounterFilter{IDs: tt.ids})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		if diff := cmp.Diff(tt.want, ids); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	got, err := s.Encounters(ctx, fray.EncounterFilter{IDs: []string{"f0", "f1", "f2", "f3"}, Offset: 1, Limit: 2})
	if err != nil || len(got) != 2 || got[0].ID != "f2" || got[1].ID != "f1" {
		t.Errorf("ids with offset and limit: %+v, %v; want f2, f1", got, err)
	}
}

func testListBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	tests := []struct {
		name string
		f    fray.EncounterFilter
		code string
	}{
		{"negative offset", fray.EncounterFilter{Offset: -1}, fray.EINVALID},
		{"negative limit", fray.EncounterFilter{Limit: -1}, fray.EINVALID},
		{"bad id", fray.EncounterFilter{IDs: []string{"ok", "not ok"}}, fray.EINVALID},
		{"too many ids", fray.EncounterFilter{IDs: make([]string, fray.MaxListed+1)}, fray.ETOOLARGE},
	}
	for _, tt := range tests {
		_, err := s.Encounters(ctx, tt.f)
		wantCode(t, tt.name, err, tt.code)
	}
}
