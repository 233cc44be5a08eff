package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// toldEvent is an event as a page receives it, with its words.
type toldEvent struct {
	Seq    int    `json:"seq"`
	Type   string `json:"type"`
	Text   string `json:"text"`
	Detail string `json:"detail"`
}

// told returns the encounter's log in words as the token's holder reads
// it (GET /api/encounters/{id}/told).
func (e *env) told(t testing.TB, id, token string) []toldEvent {
	t.Helper()
	r := e.do(t, "GET", "/api/encounters/"+id+"/told", token, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("told: %d %s", r.Status, r.Body)
	}
	var out struct {
		Revision int         `json:"revision"`
		Events   []toldEvent `json:"events"`
	}
	r.decode(t, &out)
	return out.Events
}

// TestToldWords checks the log in words for the GM and for a player, in
// the answer to a command, the event stream and GET …/told: the GM reads
// the attack's dice, total against the difficulty and odds (checked by
// hand: Ann's Accuracy 4 against 8 + Sam's Agility 2 = 10 with 2d6 6, 1:
// 11, a hit); the player reads the same attack by name and band without
// an NPC's numbers; neither log nor stream gives the player a hidden
// combatant's name or id, or the dice rolled for an NPC.
func TestToldWords(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Words")
	d := e.play(t, enc.ID, enc.Token, 0,
		"add Ann side=pc accuracy=4 agility=3 endurance=20",
		"add Sam agility=2 accuracy=3 endurance=15",
		"add Zorvath hidden=yes agility=1 accuracy=5 endurance=12",
		"order Ann Sam Zorvath",
		"start",
	)
	ann := e.invite(t, enc.ID, enc.Token, "Ann")
	gmStream := e.open(t, enc.ID, enc.Token, "")
	gmStream.next(t)
	pStream := e.open(t, enc.ID, ann, "")
	pStream.next(t)

	var zid string
	for _, c := range d.View.Combatants {
		if c.Name == "Zorvath" {
			zid = string(c.ID)
		}
	}
	if zid == "" {
		t.Fatal("Zorvath has no id")
	}

	r := e.command(t, enc.ID, enc.Token, "attack Ann Sam with=bolt rank=3 range=ranged dice=6,1", d.Revision)
	if r.Status != http.StatusOK {
		t.Fatalf("attack: %d %s", r.Status, r.Body)
	}
	var answer struct {
		Revision int         `json:"revision"`
		Events   []toldEvent `json:"events"`
	}
	r.decode(t, &answer)
	gmLine := "Ann attacks Sam with bolt: 2d6 6, 1 + 4 = 11 against 10 — hit"
	if len(answer.Events) != 1 || !strings.HasPrefix(answer.Events[0].Text, gmLine) || !strings.Contains(answer.Events[0].Text, "(odds: ") {
		t.Fatalf("the GM's answer says %+v, want %q and the odds", answer.Events, gmLine)
	}
	if !strings.Contains(answer.Events[0].Detail, "Ann rolls 2d6 6, 1 = 7") {
		t.Errorf("the GM's breakdown lacks the dice: %q", answer.Events[0].Detail)
	}
	_, gm := gmStream.next(t)
	m, _ := pStream.next(t)
	var frame struct {
		Events []toldEvent `json:"events"`
	}
	if err := json.Unmarshal([]byte(m.Data), &frame); err != nil {
		t.Fatal(err)
	}
	if len(gm.Events) != 1 {
		t.Fatalf("the GM's stream carries %d events", len(gm.Events))
	}
	playerLine := "Ann attacks Sam with bolt: hit (2d6 6, 1)."
	if len(frame.Events) != 1 || frame.Events[0].Text != playerLine {
		t.Errorf("the player's stream says %+v, want %q", frame.Events, playerLine)
	}

	// Zorvath, hidden, attacks Ann: the GM's words name him; a player's
	// log never does, nor holds his id or his dice.
	e.play(t, enc.ID, enc.Token, answer.Revision, "take Sam", "next Ann", "next Sam", "attack Zorvath Ann with=claw rank=2 range=ranged dice=5,5", "take Ann", "damage Zorvath 2")
	gmTold := e.told(t, enc.ID, enc.Token)
	all := func(evs []toldEvent) string {
		var b strings.Builder
		for _, ev := range evs {
			b.WriteString(ev.Text + "\n" + ev.Detail + "\n")
		}
		return b.String()
	}
	if g := all(gmTold); !strings.Contains(g, "Zorvath attacks Ann with claw: 2d6 5, 5 + 5 = 15") || !strings.Contains(g, "Sam takes ") {
		t.Errorf("the GM's log in words lacks Zorvath's attack or Sam's damage:\n%s", g)
	}
	pTold := e.told(t, enc.ID, ann)
	p := all(pTold)
	if !strings.Contains(p, playerLine) {
		t.Errorf("the player's log lacks %q:\n%s", playerLine, p)
	}
	raw, _ := json.Marshal(pTold)
	for _, secret := range []string{"Zorvath", zid, "5, 5"} {
		if strings.Contains(p, secret) || strings.Contains(string(raw), secret) {
			t.Errorf("the player's log in words gives away %q:\n%s", secret, raw)
		}
	}
	pStream.close()
	for _, secret := range []string{"Zorvath", zid, "5, 5"} {
		if strings.Contains(pStream.Raw.String(), secret) {
			t.Errorf("the player's stream gives away %q:\n%s", secret, pStream.Raw.String())
		}
	}
}
