package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"fray"
)

// The regression tests of the ways a player could learn what the GM
// hides, each found when names were identities and secrets were found by
// searching words. Each failed before combatants had ids and secrecy was
// declared.

// invite makes a player token for the named combatant.
func (e *env) invite(t testing.TB, id, gm, name string) string {
	t.Helper()
	r := e.send(t, "POST", "/api/encounters/"+id+"/players", gm, map[string]string{"combatant": name})
	if r.Status != http.StatusCreated {
		t.Fatalf("invite %s: %d %s", name, r.Status, r.Body)
	}
	var p struct{ Token string }
	r.decode(t, &p)
	return p.Token
}

// revision returns the encounter's revision as the GM reads it.
func (e *env) revision(t testing.TB, id, gm string) int {
	t.Helper()
	var got struct{ Revision int }
	e.do(t, "GET", "/api/encounters/"+id, gm, nil).decode(t, &got)
	return got.Revision
}

// sameAnswer fails unless two replies are the same to the byte.
func sameAnswer(t *testing.T, what string, a, b reply) {
	t.Helper()
	if a.Status != b.Status || !bytes.Equal(a.Body, b.Body) {
		t.Errorf("%s: the answers differ:\n%d %s\n%d %s", what, a.Status, a.Body, b.Status, b.Body)
	}
}

// TestLeakCaseFold: a player names a hidden NPC by a Unicode case-fold
// variant (ſilas for Silas): the rules answer exactly as for a name
// nobody has, and nothing changes. A visible NPC's odds, kept from
// players as Sam, are kept as ſam too.
func TestLeakCaseFold(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Fold")
	d := e.play(t, enc.ID, enc.Token, 0,
		"add Ann side=pc willpower=4",
		"add Silas hidden=yes willpower=3",
		"add Sam willpower=2",
		"start",
	)
	ann := e.invite(t, enc.ID, enc.Token, "Ann")
	for _, pair := range [][2]string{
		{"distract Ann ſilas", "distract Ann Nobody"},
		{"distract Ann SILAS", "distract Ann Nobody"},
		{"odds distract Ann ſilas", "odds distract Ann Nobody"},
		{"odds distract Ann silas", "odds distract Ann Nobody"},
	} {
		hidden := e.command(t, enc.ID, ann, pair[0], d.Revision)
		nobody := e.command(t, enc.ID, ann, pair[1], d.Revision)
		if hidden.Status == http.StatusOK {
			t.Errorf("%s was accepted: %s", pair[0], hidden.Body)
		}
		sameAnswer(t, pair[0], hidden, nobody)
	}
	if rev := e.revision(t, enc.ID, enc.Token); rev != d.Revision {
		t.Errorf("the encounter moved from %d to %d", d.Revision, rev)
	}
	sam := e.command(t, enc.ID, ann, "odds distract Ann Sam", d.Revision)
	fold := e.command(t, enc.ID, ann, "odds distract Ann ſam", d.Revision)
	if sam.Status != http.StatusForbidden {
		t.Errorf("odds against Sam: %d %s, want 403", sam.Status, sam.Body)
	}
	sameAnswer(t, "odds against ſam", sam, fold)
	// The GM names them as ever.
	e.play(t, enc.ID, enc.Token, d.Revision, "odds distract Ann ſilas")
}

// TestLeakRevealUndo: reveal then undo hides the NPC again from players,
// in their view and in everything their stream carries afterwards.
func TestLeakRevealUndo(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Reveal")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "add Silas hidden=yes", "start")
	ann := e.invite(t, enc.ID, enc.Token, "Ann")
	d = e.play(t, enc.ID, enc.Token, d.Revision, "reveal Silas", "undo")
	live := e.open(t, enc.ID, ann, "")
	d = e.play(t, enc.ID, enc.Token, d.Revision,
		"condition Silas marked by=Ann",
		"condition Ann shaken by=Silas",
		"next", "next", "next",
	)
	for {
		if _, c := live.next(t); c.Revision >= d.Revision {
			break
		}
	}
	live.close()
	view := e.do(t, "GET", "/api/encounters/"+enc.ID, ann, nil)
	from0 := e.open(t, enc.ID, ann, "0")
	for {
		if _, c := from0.next(t); c.Revision >= d.Revision {
			break
		}
	}
	from0.close()
	for what, b := range map[string][]byte{"view": view.Body, "live stream": []byte(live.Raw.String()), "resumed stream": []byte(from0.Raw.String())} {
		if bytes.Contains(bytes.ToLower(b), []byte("silas")) {
			t.Errorf("the player's %s names Silas:\n%s", what, b)
		}
	}
}

// TestLeakOverRedaction: a hidden NPC Ann does not make a visible PC
// Joanna vanish, and a hidden Kim added and undone does not make a later
// visible Kim vanish.
func TestLeakOverRedaction(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Over")
	d := e.play(t, enc.ID, enc.Token, 0, "add Joanna side=pc", "add Ann hidden=yes", "add Kim hidden=yes", "undo", "add Kim", "start")
	jo := e.invite(t, enc.ID, enc.Token, "Joanna")
	var got struct{ View fray.View }
	e.do(t, "GET", "/api/encounters/"+enc.ID, jo, nil).decode(t, &got)
	var order []string
	for _, s := range got.View.Order {
		order = append(order, s.Name)
	}
	if strings.Join(order, ",") != "Joanna,Kim" {
		t.Errorf("the player's order is %q, want Joanna,Kim", order)
	}
	d = e.play(t, enc.ID, enc.Token, d.Revision, "next")
	from0 := e.open(t, enc.ID, jo, "0")
	for {
		if _, c := from0.next(t); c.Revision >= d.Revision {
			break
		}
	}
	from0.close()
	raw := from0.Raw.String()
	if !strings.Contains(raw, `"name":"Joanna"`) || !strings.Contains(raw, `"name":"Kim"`) {
		t.Errorf("the player's stream lacks Joanna or Kim:\n%s", raw)
	}
	if strings.Contains(raw, `"name":"Ann"`) {
		t.Errorf("the player's stream names the hidden Ann:\n%s", raw)
	}
}

// TestLeakTokenOutlivesCombatant: a player token dies with its
// combatant; a later hidden NPC of the same name is someone else.
func TestLeakTokenOutlivesCombatant(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Tokens")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "add Bob side=pc")
	ann := e.invite(t, enc.ID, enc.Token, "Ann")
	d = e.play(t, enc.ID, enc.Token, d.Revision, "remove Ann")
	if r := e.do(t, "GET", "/api/encounters/"+enc.ID, ann, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the token of a removed combatant reads the encounter: %d %s", r.Status, r.Body)
	}
	d = e.play(t, enc.ID, enc.Token, d.Revision, "add Ann hidden=yes", "order Ann Bob", "start")
	if r := e.command(t, enc.ID, ann, "next", d.Revision); r.Status != http.StatusUnauthorized {
		t.Errorf("the old token controls the new Ann: %d %s", r.Status, r.Body)
	}
	if rev := e.revision(t, enc.ID, enc.Token); rev != d.Revision {
		t.Errorf("the encounter moved from %d to %d", d.Revision, rev)
	}
}

// TestLeakImportChecks: a log brings in no combatant that add would
// refuse.
func TestLeakImportChecks(t *testing.T) {
	e := start(t, nil)
	header := `{"schema":"fray.log","version":2,"rules":"bpb"}`
	for what, c := range map[string]string{
		"NUL":          `{"name":"A\u0000B","kind":"character","side":"npc"}`,
		"U+202E":       `{"name":"A\u202eB","kind":"character","side":"npc"}`,
		"U+200B":       `{"name":"A\u200bB","kind":"character","side":"npc"}`,
		"only spaces":  `{"name":"   ","kind":"character","side":"npc"}`,
		"150 bytes":    `{"name":"` + strings.Repeat("x", 150) + `","kind":"character","side":"npc"}`,
		"side=gm":      `{"name":"Gm","kind":"character","side":"gm"}`,
		"kind=wizard":  `{"name":"Wiz","kind":"wizard","side":"npc"}`,
		"not NFC":      `{"name":"Jose\u0301","kind":"character","side":"npc"}`,
		"a bad id":     `{"id":"Silas","name":"Silas","kind":"character","side":"npc"}`,
		"a huge stat":  `{"name":"Big","kind":"character","side":"npc","stats":{"brawn":99999}}`,
		"no name":      `{"name":"","kind":"character","side":"npc"}`,
		"a blank kind": `{"name":"Nokind","side":"npc"}`,
	} {
		for _, h := range []string{header, strings.Replace(header, `"version":2`, `"version":1`, 1)} {
			log := h + "\n" + `{"seq":1,"step":1,"type":"added","data":{"combatant":` + c + `}}` + "\n"
			r := e.do(t, "POST", "/api/encounters/import", "", []byte(log))
			if r.Status != http.StatusBadRequest && r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("%s: import of %s answered %d %s", what, h, r.Status, r.Body)
			}
		}
	}
	// The check refuses only what it must: the same log with a fair
	// combatant imports.
	for _, h := range []string{header, strings.Replace(header, `"version":2`, `"version":1`, 1)} {
		log := h + "\n" + `{"seq":1,"step":1,"type":"added","data":{"combatant":{"name":"José","kind":"character","side":"npc"}}}` + "\n"
		if r := e.do(t, "POST", "/api/encounters/import", "", []byte(log)); r.Status != http.StatusCreated {
			t.Errorf("a fair log of %s: import answered %d %s", h, r.Status, r.Body)
		}
	}
}

// TestLeakActsFor: whom a player's command acts for is read among the
// combatants players may know of, so a hidden name in the first word of
// act (which may also be major or minor) is answered as a word that names
// nobody.
func TestLeakActsFor(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "queue", "Acts")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=9", "add Zed hidden=yes wits=1", "initiative Ann 20", "initiative Zed 1", "start")
	ann := e.invite(t, enc.ID, enc.Token, "Ann")
	for _, pair := range [][2]string{
		{"act Zed major", "act Nobody major"},
		{"act zed major", "act Nobody major"},
		{"react Zed to=Ann", "react Nobody to=Ann"},
	} {
		hidden := e.command(t, enc.ID, ann, pair[0], d.Revision)
		nobody := e.command(t, enc.ID, ann, pair[1], d.Revision)
		sameAnswer(t, pair[0], hidden, nobody)
	}
	if rev := e.revision(t, enc.ID, enc.Token); rev != d.Revision {
		t.Errorf("the encounter moved from %d to %d", d.Revision, rev)
	}
}
