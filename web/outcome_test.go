package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"fray"
)

// The GM's lines that set up each system's fight between Ann, the
// player's character (side=pc), and Bear; after them it is Ann's turn.
var (
	bpbAdded = []string{
		"add Ann side=pc prowess=7 agility=5 accuracy=4 willpower=4 perception=3 endurance=20",
		"add Bear prowess=8 agility=9 willpower=7 endurance=37",
	}
	bpbFight = with(bpbAdded, "order Ann Bear", "start")
	// Bear hits Ann with his maul: her block or dodge answers it.
	bpbHit = with(bpbFight, "next Ann", "attack Bear Ann with=maul rank=11 range=close dice=6,6")

	cinFight = []string{
		"add Ann side=pc strength=3 dexterity=4 constitution=3 intelligence=2 perception=3 willpower=3",
		"add Bear strength=4 dexterity=1 constitution=4 intelligence=1 perception=1 willpower=1",
		"start",
	}
	// Bear acts first and his punch waits for Ann's answer.
	cinWaits = []string{
		"add Ann side=pc strength=3 dexterity=4 constitution=3 intelligence=2 perception=3 willpower=3",
		"add Bear strength=4 dexterity=5 constitution=4 intelligence=1 perception=4 willpower=1",
		"start",
		"attack Bear Ann with=punch defence=wait dice=7",
	}

	vvFight = []string{
		"add Ann side=pc agility=15 level=3 hp=20 hits=3 attack=Claws:1d6:kinetic:10:close",
		"add Bear agility=5 level=2 hp=20 hits=3 power=10",
		"initiative Ann 10",
		"initiative Bear 1",
		"start",
	}

	ppFight = []string{
		"add Ann side=pc agility=3 intellect=2 might=3 perception=2 toughness=2 willpower=2 edge=3 health=5 resolve=3",
		"add Cleo side=pc agility=2 intellect=2 might=2 perception=2 toughness=2 willpower=2 edge=1 health=5 resolve=3",
		"add Bear agility=2 intellect=1 might=4 perception=1 toughness=3 willpower=1 edge=1 health=6",
		"start",
	}

	queueAdded = []string{
		"add Ann side=pc wits=2 hp=6 weapon=sword:medium",
		"add Bear wits=1 hp=6 weapon=claw:light",
	}
	queueFight = with(queueAdded, "initiative Ann 20", "initiative Bear 1", "start")
)

// with returns lines followed by more, in a new slice.
func with(lines []string, more ...string) []string {
	return append(append([]string(nil), lines...), more...)
}

// outcomeCase is a player's command that sets an outcome.
type outcomeCase struct {
	name  string
	rules string
	gm    []string // the GM's lines first
	line  string   // the player's command, refused
	want  string   // what the refusal says: "set mod="
	base  string   // the same command without the option
	// baseStatus is the answer to base (0: 200); a refusal is for the
	// rules' own reason, or another option's, never for this one.
	baseStatus int
	// gmStatus is the answer to the GM's line (0: 200), on a new
	// encounter set up alike.
	gmStatus int
}

var outcomeCases = []outcomeCase{
	{name: "check mod", rules: "bpb", gm: bpbFight, line: "check Ann agility mod=+2", want: "set mod=", base: "check Ann agility"},
	{name: "check difficulty", rules: "bpb", gm: bpbFight, line: "check Ann agility difficulty=2", want: "set difficulty=", base: "check Ann agility"},
	{name: "check vs a rank", rules: "bpb", gm: bpbFight, line: "check Ann agility vs=3", want: "set vs=3", base: "check Ann agility"},
	{name: "check expertise=yes", rules: "bpb", gm: bpbFight, line: "check Ann agility expertise=yes", want: "set expertise=yes", base: "check Ann agility"},
	{name: "check dice", rules: "bpb", gm: bpbFight, line: "check Ann agility dice=6,6", want: "set dice=", base: "check Ann agility"},
	{name: "check roll", rules: "bpb", gm: bpbFight, line: "check Ann agility roll=12", want: "set roll=", base: "check Ann agility"},
	{name: "attack rank", rules: "bpb", gm: bpbFight, line: "attack Ann Bear with=claw rank=30", want: "set rank=", base: "attack Ann Bear with=claw", baseStatus: 404},
	{name: "attack endurance", rules: "bpb", gm: bpbFight, line: "attack Ann Bear with=mind rank=5 endurance=no", want: "set endurance=", base: "attack Ann Bear with=mind rank=5", baseStatus: 403},
	{name: "distract mod", rules: "bpb", gm: bpbFight, line: "distract Ann Bear mod=+2", want: "set mod=", base: "distract Ann Bear"},
	{name: "block mod", rules: "bpb", gm: bpbHit, line: "block Ann mod=+2", want: "set mod=", base: "block Ann"},
	{name: "dodge similar", rules: "bpb", gm: bpbHit, line: "dodge Ann with=maul similar=yes", want: "set similar=", base: "dodge Ann with=maul", baseStatus: 404, gmStatus: 404},
	{name: "initiative die", rules: "bpb", gm: bpbAdded, line: "initiative Ann 6,6", want: "enter initiative dice", base: "initiative Ann", baseStatus: 400},

	{name: "attack mod", rules: "cinematic", gm: cinFight, line: "attack Ann Bear with=punch mod=+2", want: "set mod=", base: "attack Ann Bear with=punch"},
	{name: "attack dmod", rules: "cinematic", gm: cinFight, line: "attack Ann Bear with=punch dmod=-3", want: "set dmod=", base: "attack Ann Bear with=punch"},
	{name: "attack unaware", rules: "cinematic", gm: cinFight, line: "attack Ann Bear with=punch unaware=yes", want: "set unaware=", base: "attack Ann Bear with=punch"},
	{name: "check vs a value", rules: "cinematic", gm: cinFight, line: "check Ann dexterity vs=3", want: "set vs=3", base: "check Ann dexterity"},
	{name: "check dice", rules: "cinematic", gm: cinFight, line: "check Ann dexterity dice=10", want: "set dice=", base: "check Ann dexterity"},
	{name: "check roll", rules: "cinematic", gm: cinFight, line: "check Ann dexterity roll=9", want: "set roll=", base: "check Ann dexterity"},
	{name: "survival minutes", rules: "cinematic", gm: with(cinFight, "damage Ann 45"), line: "test Ann survival minutes=0", want: "set minutes=", base: "test Ann survival"},
	{name: "dodge dmod", rules: "cinematic", gm: cinWaits, line: "dodge Ann dmod=+3", want: "set dmod=", base: "dodge Ann"},

	{name: "attack mod", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws mod=+5", want: "set mod=", base: "attack Ann Bear with=Claws"},
	{name: "attack unaware, bare", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws unaware", want: "set unaware (", base: "attack Ann Bear with=Claws"},
	{name: "attack immobile, bare", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws IMMOBILE", want: "set immobile (", base: "attack Ann Bear with=Claws"},
	{name: "attack inanimate", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws inanimate=yes", want: "set inanimate=", base: "attack Ann Bear with=Claws"},
	{name: "attack nonsentient, bare", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws nonsentient", want: "set nonsentient (", base: "attack Ann Bear with=Claws"},
	{name: "attack noticed", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws unaware=yes noticed=no", want: "set noticed=", base: "attack Ann Bear with=Claws unaware=yes", baseStatus: 403},
	{name: "attack cover", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws cover=50", want: "set cover=", base: "attack Ann Bear with=Claws"},
	{name: "attack muscle", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws divert=1 muscle=yes", want: "set muscle=", base: "attack Ann Bear with=Claws divert=1"},
	{name: "attack knockback", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws knockback=no", want: "set knockback=", base: "attack Ann Bear with=Claws"},
	{name: "attack dice", rules: "vv", gm: vvFight, line: "attack Ann Bear with=Claws dice=1,3", want: "set dice=", base: "attack Ann Bear with=Claws"},
	{name: "check chance", rules: "vv", gm: vvFight, line: "check Ann chance=100", want: "set chance=", base: "check Ann", baseStatus: 400},
	{name: "initiative roll", rules: "vv", gm: vvFight, line: "initiative Ann roll=7", want: "set roll=", base: "initiative Ann"},
	{name: "initiative die", rules: "vv", gm: vvFight, line: "initiative Ann 7", want: "enter initiative dice", base: "initiative Ann"},

	{name: "check mod", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear mod=+1d", want: "set mod=", base: "check Ann might vs=Bear"},
	{name: "check vs_mod", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear vs_mod=-1d", want: "set vs_mod=", base: "check Ann might vs=Bear"},
	{name: "check threshold", rules: "pp", gm: ppFight, line: "check Ann might threshold=hard", want: "set threshold=", base: "check Ann might", baseStatus: 400},
	{name: "check successes", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear successes=3", want: "set successes=", base: "check Ann might vs=Bear"},
	{name: "check vs_successes", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear vs_successes=0", want: "set vs_successes=", base: "check Ann might vs=Bear"},
	{name: "check dice", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear dice=6,6,6,1,1,1,1", want: "set dice=", base: "check Ann might vs=Bear"},
	{name: "check roll", rules: "pp", gm: ppFight, line: "check Ann might vs=Bear roll=3", want: "set roll=", base: "check Ann might vs=Bear", gmStatus: 400},
	{name: "attack mod", rules: "pp", gm: ppFight, line: "attack Ann Bear with=might mod=+2d", want: "set mod=", base: "attack Ann Bear with=might"},
	{name: "assist mod", rules: "pp", gm: ppFight, line: "assist Ann for=Cleo might mod=+1d", want: "set mod=", base: "assist Ann for=Cleo might"},

	{name: "attack mod", rules: "queue", gm: queueFight, line: "attack Ann Bear mod=+20", want: "set mod=", base: "attack Ann Bear"},
	{name: "attack hit", rules: "queue", gm: queueFight, line: "attack Ann Bear hit=yes", want: "set hit=", base: "attack Ann Bear"},
	{name: "attack injury", rules: "queue", gm: with(queueFight, "damage Bear 6"), line: "attack Ann Bear injury=dead", want: "set injury=", base: "attack Ann Bear"},
	{name: "attack dice", rules: "queue", gm: queueFight, line: "attack Ann Bear dice=20,6,6", want: "set dice=", base: "attack Ann Bear"},
	{name: "check difficulty", rules: "queue", gm: queueFight, line: "check Ann difficulty=2", want: "set difficulty=", base: "check Ann", baseStatus: 400},
	{name: "check mod", rules: "queue", gm: queueFight, line: "check Ann vs=Bear mod=+3", want: "set mod=", base: "check Ann vs=Bear"},
	{name: "check roll", rules: "queue", gm: queueFight, line: "check Ann vs=Bear roll=12", want: "set roll=", base: "check Ann vs=Bear"},
	{name: "initiative die", rules: "queue", gm: queueAdded, line: "initiative Ann 20", want: "enter initiative dice", base: "initiative Ann", baseStatus: 400},
}

// fight creates an encounter of rules, plays the GM's lines and invites
// the player of Ann; it returns the encounter, the player's token and the
// revision.
func (e *env) fight(t *testing.T, rules string, gm []string) (created, string, int) {
	t.Helper()
	enc := e.create(t, rules, "")
	d := e.play(t, enc.ID, enc.Token, 0, gm...)
	r := e.send(t, "POST", "/api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "Ann"})
	if r.Status != http.StatusCreated {
		t.Fatalf("invite Ann: %d %s", r.Status, r.Body)
	}
	var p struct{ Token string }
	r.decode(t, &p)
	return enc, p.Token, d.Revision
}

// message returns the message of a refusal, "" for any other answer.
func (r reply) message() string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	json.Unmarshal(r.Body, &e)
	return e.Error.Message
}

// TestPlayersDoNotSetOutcomes: a player sending an option that sets an
// outcome is refused with EFORBIDDEN, naming it, and nothing changes; the
// same command without it is not refused for it; the GM may send it.
func TestPlayersDoNotSetOutcomes(t *testing.T) {
	e := start(t, nil)
	for _, tc := range outcomeCases {
		t.Run(tc.rules+"/"+tc.name, func(t *testing.T) {
			enc, player, rev := e.fight(t, tc.rules, tc.gm)
			before := e.log(t, enc.ID, enc.Token)
			r := e.command(t, enc.ID, player, tc.line, rev)
			if r.Status != http.StatusForbidden || r.code() != fray.EFORBIDDEN {
				t.Fatalf("player %s: %d %s, want 403 forbidden", tc.line, r.Status, r.Body)
			}
			if msg := r.message(); !strings.Contains(msg, "Only the GM may "+tc.want) {
				t.Errorf("player %s: %q does not say %q", tc.line, msg, "Only the GM may "+tc.want)
			}
			var got struct{ Revision int }
			e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil).decode(t, &got)
			if got.Revision != rev {
				t.Errorf("the revision moved from %d to %d", rev, got.Revision)
			}
			if after := e.log(t, enc.ID, enc.Token); after != before {
				t.Errorf("the log changed:\n%s", after)
			}

			b := e.command(t, enc.ID, player, tc.base, rev)
			if want := status(tc.baseStatus); b.Status != want {
				t.Errorf("player %s: %d %s, want %d", tc.base, b.Status, b.Body, want)
			}
			if strings.Contains(b.message(), tc.want) {
				t.Errorf("player %s is refused for what it leaves out: %s", tc.base, b.Body)
			}

			other, _, rev := e.fight(t, tc.rules, tc.gm)
			g := e.command(t, other.ID, other.Token, tc.line, rev)
			if want := status(tc.gmStatus); g.Status != want || strings.Contains(g.message(), "Only the GM") {
				t.Errorf("GM %s: %d %s, want %d", tc.line, g.Status, g.Body, want)
			}
		})
	}
}

func status(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

// TestPlayersChooseWhatToDo: options that choose what to do, not how it
// comes out, stay a player's; a refusal among them is the rules' own.
func TestPlayersChooseWhatToDo(t *testing.T) {
	e := start(t, nil)
	tests := []struct {
		rules string
		gm    []string
		line  string
		want  int
	}{
		{"bpb", bpbFight, "attack Ann Bear with=claw", http.StatusNotFound}, // no such power: rank= is the GM's
		{"bpb", bpbFight, "check Ann agility expertise=Stealth", http.StatusBadRequest},
		{"bpb", bpbFight, "next Ann note=fast", http.StatusOK},
		{"bpb", bpbHit, "block Ann", http.StatusOK},
		{"cinematic", cinFight, "attack Ann Bear with=punch defence=dodge", http.StatusOK},
		{"cinematic", cinFight, "attack Ann Bear with=punch defence=wait", http.StatusOK},
		{"cinematic", cinFight, "check Ann dexterity+Kung_Fu", http.StatusOK},
		{"vv", vvFight, "attack Ann Bear with=Claws range=3 facing=rear attacker-facing=front pull=1 special divert=1", http.StatusOK},
		{"vv", vvFight, "initiative Ann", http.StatusOK},
		{"pp", ppFight, "attack Ann Bear with=might def=agility", http.StatusOK},
		{"pp", ppFight, "check Ann might vs=Cleo same=yes auto=1 vs_auto=1", http.StatusOK},
		{"pp", ppFight, "assist Ann for=Cleo might auto=2", http.StatusOK},
		{"queue", queueFight, "attack Ann Bear with=sword", http.StatusOK},
		{"queue", queueFight, "check Ann vs=Bear", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.rules+"/"+tc.line, func(t *testing.T) {
			enc, player, rev := e.fight(t, tc.rules, tc.gm)
			r := e.command(t, enc.ID, player, tc.line, rev)
			if r.Status != tc.want || strings.Contains(r.message(), "Only the GM") {
				t.Fatalf("player %s: %d %s, want %d", tc.line, r.Status, r.Body, tc.want)
			}
		})
	}
}

// TestPlayerDice: with set player_dice=yes, which only the GM may send,
// a player enters the faces rolled at the table with dice=, in every
// system; a total (roll=, successes=) and a modifier stay the GM's.
func TestPlayerDice(t *testing.T) {
	e := start(t, nil)
	tests := []struct {
		rules              string
		gm                 []string
		dice, total, mod   string
		totalWant, modWant string
	}{
		{"bpb", bpbFight, "check Ann agility dice=6,6", "check Ann agility roll=12", "check Ann agility mod=+2", "roll=", "mod="},
		{"cinematic", cinFight, "check Ann dexterity dice=10", "check Ann dexterity roll=9", "check Ann dexterity mod=+1", "roll=", "mod="},
		{"vv", vvFight, "attack Ann Bear with=Claws dice=1,3", "initiative Ann roll=7", "attack Ann Bear with=Claws mod=+5", "roll=", "mod="},
		{"pp", ppFight, "check Ann might vs=Bear dice=6,6,6,1,1,1,1", "check Ann might vs=Bear successes=3", "check Ann might vs=Bear mod=+1d", "successes=", "mod="},
		{"queue", queueFight, "check Ann vs=Bear dice=12", "check Ann vs=Bear roll=12", "check Ann vs=Bear mod=+3", "roll=", "mod="},
	}
	for _, tc := range tests {
		t.Run(tc.rules, func(t *testing.T) {
			// Only the GM sets it, and before the start (bpb fixes its
			// settings then).
			enc, player, rev := e.fight(t, tc.rules, with([]string{"set player_dice=yes"}, tc.gm...))
			if r := e.command(t, enc.ID, player, "set player_dice=no", rev); r.Status != http.StatusForbidden {
				t.Fatalf("player set: %d %s", r.Status, r.Body)
			}
			for _, l := range []struct{ line, want string }{{tc.total, tc.totalWant}, {tc.mod, tc.modWant}} {
				r := e.command(t, enc.ID, player, l.line, rev)
				if r.Status != http.StatusForbidden || !strings.Contains(r.message(), "Only the GM may set "+l.want) {
					t.Errorf("player %s: %d %s, want a refusal naming %s", l.line, r.Status, r.Body, l.want)
				}
			}
			r := e.command(t, enc.ID, player, tc.dice, rev)
			if r.Status != http.StatusOK {
				t.Fatalf("player %s: %d %s", tc.dice, r.Status, r.Body)
			}
			if log := e.log(t, enc.ID, enc.Token); !strings.Contains(log, `"source":"faces"`) {
				t.Errorf("the player's faces are not in the log:\n%s", log)
			}
		})
	}
	// Without the setting the same dice are refused (see outcomeCases),
	// and the hint says who may allow them.
	enc, player, rev := e.fight(t, "queue", queueFight)
	r := e.command(t, enc.ID, player, "check Ann vs=Bear dice=12", rev)
	if r.Status != http.StatusForbidden || !strings.Contains(r.message(), "set player_dice=yes") {
		t.Errorf("dice= without player_dice: %d %s", r.Status, r.Body)
	}
}

// TestPlayerOddsWithOutcomes: odds roll, change and log nothing, so a
// player may ask what a modifier or a difficulty would make of their roll.
func TestPlayerOddsWithOutcomes(t *testing.T) {
	e := start(t, nil)
	enc, player, rev := e.fight(t, "bpb", bpbFight)
	for _, l := range []string{"odds check Ann agility mod=+2", "odds check Ann agility difficulty=10", "odds check Ann agility expertise=yes"} {
		r := e.command(t, enc.ID, player, l, rev)
		var a struct{ Odds *fray.Odds }
		if r.Status == http.StatusOK {
			r.decode(t, &a)
		}
		if r.Status != http.StatusOK || a.Odds == nil {
			t.Errorf("player %s: %d %s", l, r.Status, r.Body)
		}
	}
}
