package storetest

// This file holds the tests of reading events back, of tokens, of usage,
// and of a cancelled context and a closed store.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"fray"
)

func testEvents(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("ev"))
	all := truncated(Events(1, 10, "w"))
	mustAppend(t, s, "ev", 0, Events(1, 10, "w"))
	tests := []struct {
		name        string
		from, limit int
		want        []fray.EventRecord
	}{
		{"all", 1, 0, all},
		{"from the middle", 4, 0, all[3:]},
		{"the last", 10, 0, all[9:]},
		{"past the end", 11, 0, []fray.EventRecord{}},
		{"far past the end", 1 << 40, 0, []fray.EventRecord{}},
		{"a page", 3, 4, all[2:6]},
		{"a page past the end", 8, 5, all[7:]},
		{"one", 5, 1, all[4:5]},
		{"a huge limit", 1, 1 << 40, all},
	}
	for _, tt := range tests {
		got, err := s.Events(ctx, "ev", tt.from, tt.limit)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got == nil {
			t.Errorf("%s: a nil list, want an empty one", tt.name)
		}
		if diff := cmp.Diff(tt.want, got, cmpData); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	mustCreate(t, s, Encounter("empty"))
	got, err := s.Events(ctx, "empty", 1, 0)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Events of an empty log = %v, %v; want an empty list", got, err)
	}
}

func testEventsBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("ev"))
	tests := []struct {
		name        string
		id          string
		from, limit int
		code        string
	}{
		{"from 0", "ev", 0, 0, fray.EINVALID},
		{"from below 0", "ev", -5, 0, fray.EINVALID},
		{"negative limit", "ev", 1, -1, fray.EINVALID},
		{"bad id", "e v", 1, 0, fray.EINVALID},
		{"unknown encounter", "nobody", 1, 0, fray.ENOTFOUND},
		{"unknown encounter past the end", "nobody", 100, 0, fray.ENOTFOUND},
	}
	for _, tt := range tests {
		_, err := s.Events(ctx, tt.id, tt.from, tt.limit)
		wantCode(t, tt.name, err, tt.code)
	}
}

func testTokens(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("tok"), GMToken("tok", "gm"))
	p1 := PlayerToken("tok", "Blueshift", "p1")
	p2 := PlayerToken("tok", "Ganyeka’s henchmen", "p2")
	for _, p := range []fray.Token{p1, p2} {
		if err := s.CreateToken(ctx, p); err != nil {
			t.Fatalf("CreateToken: %v", err)
		}
	}
	for _, want := range []fray.Token{GMToken("tok", "gm"), p1, p2} {
		got, err := s.Token(ctx, want.Hash)
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		if diff := cmp.Diff(truncToken(want), got); diff != "" {
			t.Errorf("Token (-want +got):\n%s", diff)
		}
	}
	wantCode(t, "CreateToken(taken hash)", s.CreateToken(ctx, PlayerToken("tok", "Other", "p1")), fray.ECONFLICT)
	got, err := s.Token(ctx, p1.Hash)
	if err != nil || got.Combatant != "Blueshift" {
		t.Errorf("after a refused token: %+v, %v; want Blueshift's", got, err)
	}
	if err := s.DeleteToken(ctx, p1.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	_, err = s.Token(ctx, p1.Hash)
	wantCode(t, "Token(deleted)", err, fray.ENOTFOUND)
	wantCode(t, "DeleteToken(deleted)", s.DeleteToken(ctx, p1.Hash), fray.ENOTFOUND)
	if _, err := s.Token(ctx, p2.Hash); err != nil {
		t.Errorf("Token(p2) after deleting p1: %v", err)
	}
	// A deleted token's hash may be issued again.
	if err := s.CreateToken(ctx, p1); err != nil {
		t.Errorf("CreateToken(p1 again): %v", err)
	}
}

func testTokensBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("tok"))
	tests := []struct {
		name string
		tok  fray.Token
		code string
	}{
		{"unknown encounter", GMToken("nobody", "a"), fray.ENOTFOUND},
		{"bad encounter id", GMToken("no body", "a"), fray.EINVALID},
		{"no hash", fray.Token{Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"short hash", fray.Token{Hash: "abcd", Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"upper-case hash", fray.Token{Hash: strings.ToUpper(fray.HashToken("a")), Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"not hex", fray.Token{Hash: strings.Repeat("g", 64), Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"no role", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Created: base}, fray.EINVALID},
		{"unknown role", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: "admin", Created: base}, fray.EINVALID},
		{"GM with a combatant", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: fray.RoleGM, Combatant: "X", Created: base}, fray.EINVALID},
		{"player without a combatant", PlayerToken("tok", "", "a"), fray.EINVALID},
		{"long combatant", PlayerToken("tok", strings.Repeat("c", fray.MaxNameLen+1), "a"), fray.ETOOLARGE},
		{"control in combatant", PlayerToken("tok", "a\tb", "a"), fray.EINVALID},
		{"no time", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: fray.RoleGM}, fray.EINVALID},
	}
	for _, tt := range tests {
		wantCode(t, tt.name, s.CreateToken(ctx, tt.tok), tt.code)
		if tt.tok.Hash != "" && fray.ValidateTokenHash(tt.tok.Hash) == nil {
			_, err := s.Token(ctx, tt.tok.Hash)
			wantCode(t, tt.name+": Token after a refused create", err, fray.ENOTFOUND)
		}
	}
	_, err := s.Token(ctx, "x")
	wantCode(t, "Token(malformed hash)", err, fray.EINVALID)
	_, err = s.Token(ctx, fray.HashToken("never issued"))
	wantCode(t, "Token(unknown hash)", err, fray.ENOTFOUND)
	wantCode(t, "DeleteToken(malformed hash)", s.DeleteToken(ctx, "x"), fray.EINVALID)
	wantCode(t, "DeleteToken(unknown hash)", s.DeleteToken(ctx, fray.HashToken("never issued")), fray.ENOTFOUND)
	// A token's secret is not its hash.
	_, err = s.Token(ctx, fray.HashToken(fray.HashToken("a")))
	wantCode(t, "Token(hash of the hash)", err, fray.ENOTFOUND)
}

// testTokensList checks Tokens: every token of one encounter and no
// other's, in the order of creation (then of hash), without the deleted.
func testTokensList(t *testing.T, s fray.Store) {
	ctx := context.Background()
	at := func(tok fray.Token, d time.Duration) fray.Token {
		tok.Created = base.Add(d)
		return tok
	}
	gm := GMToken("a", "gm a")
	// Made in this order, listed by time: gm, p2, p1; p3 and p4 share a
	// time and are listed by hash.
	p1 := at(PlayerToken("a", "c-blueshift", "p1"), 2*time.Second)
	p2 := at(PlayerToken("a", "c-ganyeka", "p2"), time.Second)
	p3 := at(PlayerToken("a", "c-monolith", "p3"), 3*time.Second)
	p4 := at(PlayerToken("a", "c-monolith", "p4"), 3*time.Second)
	mustCreate(t, s, Encounter("a"), gm)
	mustCreate(t, s, Encounter("b"), GMToken("b", "gm b"))
	mustCreate(t, s, Encounter("none"))
	for _, tok := range []fray.Token{p1, p2, p3, p4, at(PlayerToken("b", "c-blueshift", "b1"), time.Second)} {
		if err := s.CreateToken(ctx, tok); err != nil {
			t.Fatalf("CreateToken: %v", err)
		}
	}
	last := []fray.Token{p3, p4}
	if p4.Hash < p3.Hash {
		last = []fray.Token{p4, p3}
	}
	check := func(what, id string, want ...fray.Token) {
		t.Helper()
		got, err := s.Tokens(ctx, id)
		if err != nil {
			t.Fatalf("%s: Tokens(%q): %v", what, id, err)
		}
		if got == nil {
			t.Errorf("%s: Tokens(%q) = nil, want an empty list", what, id)
			return
		}
		truncated := make([]fray.Token, len(want))
		for i, tok := range want {
			truncated[i] = truncToken(tok)
		}
		if diff := cmp.Diff(truncated, got); diff != "" {
			t.Errorf("%s: Tokens(%q) (-want +got):\n%s", what, id, diff)
		}
	}
	check("listing", "a", append([]fray.Token{gm, p2, p1}, last...)...)
	check("another encounter", "b", GMToken("b", "gm b"), at(PlayerToken("b", "c-blueshift", "b1"), time.Second))
	check("no tokens", "none")

	if err := s.DeleteToken(ctx, p1.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	if err := s.DeleteToken(ctx, gm.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	check("after DeleteToken", "a", append([]fray.Token{p2}, last...)...)
	check("another encounter after DeleteToken", "b", GMToken("b", "gm b"), at(PlayerToken("b", "c-blueshift", "b1"), time.Second))
	// Listing gives the caller a copy.
	got, err := s.Tokens(ctx, "a")
	if err != nil || len(got) == 0 {
		t.Fatalf("Tokens: %v, %v", got, err)
	}
	got[0].Role = fray.RoleGM
	check("after the caller changed a list", "a", append([]fray.Token{p2}, last...)...)

	_, err = s.Tokens(ctx, "nobody")
	wantCode(t, "Tokens(unknown encounter)", err, fray.ENOTFOUND)
	_, err = s.Tokens(ctx, "no body")
	wantCode(t, "Tokens(bad id)", err, fray.EINVALID)
	_, err = s.Tokens(ctx, "")
	wantCode(t, "Tokens(no id)", err, fray.EINVALID)
}

func testTokenLimit(t *testing.T, s fray.Store) {
	ctx := context.Background()
	many := func(id string, n int) []fray.Token {
		toks := make([]fray.Token, n)
		for i := range toks {
			toks[i] = PlayerToken(id, fmt.Sprint("P", i), fmt.Sprint(id, "/", i))
		}
		return toks
	}
	wantCode(t, "CreateEncounter with MaxTokens+1 tokens", s.CreateEncounter(ctx, Encounter("over"), many("over", fray.MaxTokens+1)...), fray.ETOOLARGE)
	mustCreate(t, s, Encounter("full"), many("full", fray.MaxTokens)...)
	extra := PlayerToken("full", "Extra", "extra")
	wantCode(t, "CreateToken past MaxTokens", s.CreateToken(ctx, extra), fray.ETOOLARGE)
	if err := s.DeleteToken(ctx, fray.HashToken("full/0")); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	if err := s.CreateToken(ctx, extra); err != nil {
		t.Errorf("CreateToken after a delete made room: %v", err)
	}
}

// testUsage checks Usage: the number of encounters exactly, and bytes
// that are at least the event data held and grow by at least each
// append's data; a refused write changes neither.
func testUsage(t *testing.T, s fray.Store) {
	ctx := context.Background()
	usage := func(what string) (int, int64) {
		t.Helper()
		n, b, err := s.Usage(ctx)
		if err != nil {
			t.Fatalf("Usage %s: %v", what, err)
		}
		if b < 0 {
			t.Fatalf("Usage %s: %d bytes", what, b)
		}
		return n, b
	}
	if n, _ := usage("of a new store"); n != 0 {
		t.Errorf("a new store holds %d encounters, want 0", n)
	}
	for i := range 3 {
		id := fmt.Sprint("u", i)
		mustCreate(t, s, Encounter(id), GMToken(id, "gm "+id))
	}
	n, before := usage("after three creates")
	if n != 3 {
		t.Errorf("after three creates Usage reports %d encounters, want 3", n)
	}
	// Refusals add nothing.
	wantCode(t, "create of a taken id", s.CreateEncounter(ctx, Encounter("u0")), fray.ECONFLICT)
	_, err := s.AppendEvents(ctx, "u1", 5, Events(6, 1, "late"))
	wantCode(t, "stale append", err, fray.ECONFLICT)
	if n, _ := usage("after refusals"); n != 3 {
		t.Errorf("after refused writes Usage reports %d encounters, want 3", n)
	}
	// Large events, so that even a store counting pages sees them.
	const size, count = 64 << 10, 8
	filler := strings.Repeat("x", size)
	var data int64
	for i := range 3 {
		evs := make([]fray.EventRecord, count)
		for k := range evs {
			evs[k] = fray.EventRecord{Seq: k + 1, Type: "test.big", Data: json.RawMessage(fmt.Sprintf(`{"k":%d,"s":%q}`, k, filler)), Time: base}
			data += int64(len(evs[k].Data))
		}
		mustAppend(t, s, fmt.Sprint("u", i), 0, evs)
	}
	n, after := usage("after appends")
	if n != 3 {
		t.Errorf("after appends Usage reports %d encounters, want 3", n)
	}
	if after < data {
		t.Errorf("Usage reports %d bytes, less than the %d bytes of event data held", after, data)
	}
	if after-before < data {
		t.Errorf("Usage grew by %d bytes over appends of %d bytes of data", after-before, data)
	}
}

func testCanceled(t *testing.T, s fray.Store) {
	mustCreate(t, s, Encounter("c"))
	mustAppend(t, s, "c", 0, Events(1, 1, "w"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.CreateEncounter(ctx, Encounter("c2")); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateEncounter with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.AppendEvents(ctx, "c", 1, Events(2, 1, "w")); !errors.Is(err, context.Canceled) {
		t.Errorf("AppendEvents with a canceled context: %v, want context.Canceled", err)
	}
	if err := s.CreateToken(ctx, GMToken("c", "t")); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateToken with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.Events(ctx, "c", 1, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Events with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.Tokens(ctx, "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("Tokens with a canceled context: %v, want context.Canceled", err)
	}
	bg := context.Background()
	_, err := s.Encounter(bg, "c2")
	wantCode(t, "encounter created with a canceled context", err, fray.ENOTFOUND)
	_, err = s.Token(bg, fray.HashToken("t"))
	wantCode(t, "token created with a canceled context", err, fray.ENOTFOUND)
	checkLog(t, s, "c", truncated(Events(1, 1, "w")))
}

func testClose(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("c"), GMToken("c", "gm"))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"CreateEncounter", func() error { return s.CreateEncounter(ctx, Encounter("d")) }},
		{"Encounter", func() error { _, err := s.Encounter(ctx, "c"); return err }},
		{"Encounters", func() error { _, err := s.Encounters(ctx, fray.EncounterFilter{}); return err }},
		{"AppendEvents", func() error { _, err := s.AppendEvents(ctx, "c", 0, Events(1, 1, "w")); return err }},
		{"Events", func() error { _, err := s.Events(ctx, "c", 1, 0); return err }},
		{"CreateToken", func() error { return s.CreateToken(ctx, GMToken("c", "x")) }},
		{"Token", func() error { _, err := s.Token(ctx, fray.HashToken("gm")); return err }},
		{"Tokens", func() error { _, err := s.Tokens(ctx, "c"); return err }},
		{"DeleteToken", func() error { return s.DeleteToken(ctx, fray.HashToken("gm")) }},
		{"PutSnapshot", func() error { return s.PutSnapshot(ctx, "c", Snapshot(1, "x")) }},
		{"Snapshot", func() error { _, err := s.Snapshot(ctx, "c"); return err }},
		{"Usage", func() error { _, _, err := s.Usage(ctx); return err }},
	}
	for _, c := range calls {
		if err := c.call(); err == nil {
			t.Errorf("%s after Close: no error", c.name)
		}
	}
}
