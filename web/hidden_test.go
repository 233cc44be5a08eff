package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/web"
)

// secrets are strings no byte a player token can fetch may hold: a hidden
// NPC's name, a removed hidden NPC's name, GM notes and an NPC's exact hp.
var secrets = []string{"zzyzx-secret", "qqq-gone", "note-secret", "-987", "-913"}

func scan(t *testing.T, where string, b []byte) {
	t.Helper()
	low := bytes.ToLower(b)
	for _, s := range secrets {
		if bytes.Contains(low, []byte(s)) {
			i := bytes.Index(low, []byte(s))
			t.Errorf("%s holds %q: …%s…", where, s, b[max(0, i-80):min(len(b), i+80)])
		}
	}
}

// TestHiddenInformation plays an encounter with a hidden NPC, a removed
// hidden NPC, GM notes and NPC numbers, then fetches every endpoint a
// player token can reach and checks that no byte gives any of them away.
func TestHiddenInformation(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Heartbeat = 20 * time.Millisecond })
	enc := e.create(t, "queue", "Ambush")
	d := e.play(t, enc.ID, enc.Token, 0,
		"add Ann side=pc wits=2",
		"add Bear wits=1 hp=-987 notes=NOTE-SECRET",
	)
	var p struct{ Token string }
	e.send(t, "POST", "/api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "Ann"}).decode(t, &p)

	// The player watches from the start, and again later from revision 0.
	live := e.open(t, enc.ID, p.Token, "")
	d = e.play(t, enc.ID, enc.Token, d.Revision,
		"add Zzyzx-Secret hidden=yes wits=3 hp=-913 notes=NOTE-SECRET",
		"add Qqq-Gone hidden=yes",
		`note Ann "NOTE-SECRET about Ann"`,
		"note Zzyzx-Secret NOTE-SECRET",
		"remove Qqq-Gone",
		"initiative Zzyzx-Secret 17",
		"start",
	)
	var player [][]byte // every answer the player got
	ask := func(method, path string, body any) reply {
		var r reply
		if body == nil {
			r = e.do(t, method, path, p.Token, nil)
		} else {
			r = e.send(t, method, path, p.Token, body)
		}
		player = append(player, r.Body)
		return r
	}
	cmd := "/api/encounters/" + enc.ID + "/commands"
	for range 8 {
		if d.View.Current == "Ann" {
			r := ask("POST", cmd, map[string]any{"command": "act major", "revision": d.Revision})
			if r.Status != http.StatusOK {
				t.Fatalf("player act: %d %s", r.Status, r.Body)
			}
			r = ask("POST", cmd, map[string]any{"command": "next", "revision": d.Revision + 1})
			if r.Status != http.StatusOK {
				t.Fatalf("player next: %d %s", r.Status, r.Body)
			}
			d = done{}
			r.decode(t, &d)
			continue
		}
		// Not the player's turn: every try is refused without a name.
		for _, l := range []string{"next", "act major", "act Zzyzx-Secret major", "next Zzyzx-Secret", "react Ann to=Zzyzx-Secret", "undo", "show"} {
			if r := ask("POST", cmd, map[string]any{"command": l, "revision": d.Revision}); r.Status == http.StatusOK {
				var pd done
				r.decode(t, &pd)
				d.Revision = pd.Revision // react is Ann's to make
			}
		}
		ask("POST", cmd, map[string]any{"command": "next", "revision": d.Revision - 1})
		d = e.play(t, enc.ID, enc.Token, d.Revision, "next")
	}
	if d.View.Current == "" {
		// The dice may have ended a round with the last next (one seed
		// in some hundreds): the next begins another.
		d = e.play(t, enc.ID, enc.Token, d.Revision, "next")
	}
	if d.View.Current == "" {
		t.Fatal("nobody acts")
	}

	// Every other endpoint a player token reaches.
	r := ask("GET", "/api/encounters/"+enc.ID, nil)
	var got struct {
		Role      string    `json:"role"`
		Combatant string    `json:"combatant"`
		View      fray.View `json:"view"`
	}
	r.decode(t, &got)
	if got.Role != fray.RolePlayer || got.Combatant != "Ann" || len(got.View.Combatants) != 2 {
		t.Fatalf("player's view: %s", r.Body)
	}
	for _, c := range got.View.Combatants {
		if c.Name == "Bear" && (c.Stats != nil || c.Notes != "") {
			t.Errorf("the player sees Bear's numbers or notes: %+v", c)
		}
	}
	if r := ask("GET", "/api/encounters/"+enc.ID+"/log", nil); r.Status != http.StatusForbidden {
		t.Errorf("player log: %d", r.Status)
	}
	ask("GET", "/api/encounters", nil)
	ask("POST", "/api/encounters/"+enc.ID+"/players", map[string]string{"combatant": "Zzyzx-Secret"})
	from0 := e.open(t, enc.ID, p.Token, "0")
	ask("GET", "/", nil)
	ask("GET", "/play/"+enc.ID, nil)

	// The streams, once each has carried every change up to now.
	for _, s := range []*stream{live, from0} {
		for {
			if _, c := s.next(t); c.Revision >= d.Revision {
				break
			}
		}
	}
	live.close()
	from0.close()
	player = append(player, []byte(live.Raw.String()), []byte(from0.Raw.String()))
	if !strings.Contains(live.Raw.String(), "event: change") || !strings.Contains(from0.Raw.String(), `"seq":1`) {
		t.Fatalf("the streams carried no changes:\n%s", live.Raw.String())
	}
	for i, b := range player {
		scan(t, "answer "+string(rune('A'+i%26)), b)
	}
	// The GM does see them all (the scan would catch a filter that drops
	// everything).
	gm := e.log(t, enc.ID, enc.Token)
	for _, s := range secrets {
		if !strings.Contains(strings.ToLower(gm), s) {
			t.Errorf("the GM's log lacks %q", s)
		}
	}
}

// TestRedact checks the filter directly on a view and on events.
func TestRedact(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{
		{ID: "aaaaaaaa", Name: "Ann", Side: fray.SidePC, Notes: "n", Stats: map[string]int{"wits": 2}},
		{ID: "bbbbbbbb", Name: "Bear", Side: fray.SideNPC, Notes: "n", Stats: map[string]int{"hp": 5}, Tracks: map[string]fray.Track{"hp": {Value: 4, Max: 10}}},
		{ID: "zzzzzzzz", Name: "Zed", Side: fray.SideNPC, Hidden: true},
	}}
	v := fray.View{
		Current:    "Zed",
		Order:      []fray.Slot{{ID: "aaaaaaaa", Name: "Ann"}, {ID: "zzzzzzzz", Name: "Zed", Markers: []string{fray.MarkCurrent}}},
		History:    []fray.RoundTurns{{Round: 1, Turns: []string{"Zed (delayed)", "Ann"}}},
		Combatants: enc.CombatantList(),
	}
	add := func(c fray.Combatant) fray.Event {
		ev, _ := fray.NewEvent(fray.EventAdded, fray.AddedData{Combatant: c})
		ev.Command = "add " + c.Name + " notes=n"
		ev.About = []fray.CombatantID{c.ID}
		return ev
	}
	note, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Who: "aaaaaaaa", Note: "x"})
	note.About = []fray.CombatantID{"aaaaaaaa"}
	roll := fray.Event{Type: "queue.acted", Rolls: []fray.Roll{{For: "ZED", Who: "zzzzzzzz", Expr: "d20", Total: 3}}, About: []fray.CombatantID{"zzzzzzzz"}}
	evs := []fray.Event{add(v.Combatants[0]), add(v.Combatants[1]), add(v.Combatants[2]), note, roll}
	sight := web.NewSight(systems["queue"](), enc)

	gv, gevs := web.Redact(fray.RoleGM, sight, v, evs)
	if len(gv.Combatants) != 3 || len(gevs) != 5 {
		t.Fatalf("the GM sees %d combatants and %d events", len(gv.Combatants), len(gevs))
	}
	pv, pevs := web.Redact(fray.RolePlayer, sight, v, evs)
	b, _ := json.Marshal(pv)
	eb, _ := json.Marshal(pevs)
	for _, s := range []string{"Zed", "ZED", "zzzzzzzz", `"notes"`, `"hp"`, `"tracks"`} {
		if bytes.Contains(b, []byte(s)) || bytes.Contains(eb, []byte(s)) {
			t.Errorf("the player sees %s:\n%s\n%s", s, b, eb)
		}
	}
	if len(pevs) != 2 || pv.Current != "" || len(pv.Order) != 1 || pv.Combatants[0].Stats["wits"] != 2 || pv.Combatants[1].Band != web.BandBadlyHurt {
		t.Errorf("player view %s, events %s", b, eb)
	}
	for _, err := range []error{
		fray.Errorf(fray.EINVALID, "It is %s's turn.", fray.Mention("Zed")),
		fray.Errorf(fray.EINVALID, "It is %s's turn.", fray.Mention("zed")),
		fray.Errorf(fray.EINVALID, "%s cannot act: %s.", fray.Mention("Ann"), fray.Quote(fray.Errorf(fray.EINVALID, "%s holds the floor", fray.Mention("Zed")))),
		fray.Errorf(fray.EINVALID, "It is someone's turn.").Naming("Zed"),
	} {
		if got := web.RedactError(fray.RolePlayer, sight, err); strings.Contains(strings.ToLower(got), "zed") || got == fray.ErrorMessage(err) {
			t.Errorf("RedactError(%q) = %q, which keeps what the error declares hidden", fray.ErrorMessage(err), got)
		}
	}
	if got, want := web.RedactError(fray.RolePlayer, sight, fray.Errorf(fray.EINVALID, "%s cannot act.", fray.Mention("Ann"))), "Ann cannot act."; got != want {
		t.Errorf("RedactError of a refusal naming a visible combatant = %q, want %q", got, want)
	}
}
