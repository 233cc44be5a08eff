package sheet_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
	"fray/sheet"
)

// systems are the rule systems whose sheets the tests read, by id.
var systems = map[string]fray.System{
	bpb.ID:       bpb.New(),
	cinematic.ID: cinematic.New(),
	vv.ID:        vv.New(),
	pp.ID:        pp.New(),
	queue.ID:     queue.New(),
}

func TestLoadExamples(t *testing.T) {
	party, err := sheet.Load("../examples/bpb-party.yaml", bpb.New(), fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	foes, err := sheet.Load("../examples/bpb-foes.yaml", bpb.New(), fray.SideNPC)
	if err != nil {
		t.Fatal(err)
	}
	if len(party) != 2 || len(foes) != 2 {
		t.Fatalf("%d heroes and %d foes, want 2 and 2", len(party), len(foes))
	}
	g := foes[0]
	want := fray.Power{Name: "Blast", Kind: fray.PowerKindWeapon, Rank: 9, Range: "ranged", Notes: "a sinister-looking weapon"}
	if diff := cmp.Diff(want, *g.Power("blast")); diff != "" {
		t.Errorf("Ganyeka's Blast (-want +got):\n%s", diff)
	}
	if !g.HasExpertise("dodging") || g.Side != fray.SideNPC || g.Stat("agility") != 7 {
		t.Errorf("Ganyeka: %+v", g)
	}
	if tr, _ := party[1].Track("endurance"); tr != (fray.Track{Value: 30, Max: 30}) {
		t.Errorf("Monolith's Endurance: %+v", tr)
	}
	if foes[1].Kind != fray.KindGroup || foes[1].Name != "Ganyeka's henchmen" {
		t.Errorf("henchmen: %+v", foes[1])
	}
}

const bpbOK = `- name: A
  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}
  tracks: {endurance: 10}
`

// JSON and YAML give the same characters.
func TestJSONAndYAML(t *testing.T) {
	y, err := sheet.Parse("a.yaml", []byte(bpbOK+"  powers:\n    - name: \"Blast # 2\"   # a comment\n      rank: 9\n      expertise: yes\n"), bpb.New(), fray.SideNPC)
	if err != nil {
		t.Fatal(err)
	}
	j, err := sheet.Parse("a.json", []byte(`[{"name":"A","stats":{"brawn":1,"agility":2,"accuracy":3,"prowess":4,"perception":5,"willpower":6},
		"tracks":{"endurance":{"max":10}},"powers":[{"name":"Blast # 2","rank":9,"expertise":true}]}]`), bpb.New(), fray.SideNPC)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(y, j); diff != "" {
		t.Errorf("YAML and JSON differ (-yaml +json):\n%s", diff)
	}
	if len(y[0].Expertise) != 1 || y[0].Expertise[0] != "blast # 2" {
		t.Errorf("expertise %v", y[0].Expertise)
	}
}

// Derived values are worked out when a sheet leaves them out.
func TestDerived(t *testing.T) {
	tests := []struct {
		rules, text, track string
		want               int
	}{
		{"cinematic", "- name: Bernie\n  stats: {strength: 3, dexterity: 2, constitution: 4, intelligence: 2, perception: 2, willpower: 2}\n", "life points", (3+4)*4 + 10},
		{"pp", "- name: Gatecrasher\n  stats: {agility: 3, intellect: 2, might: 6, perception: 3, toughness: 5, willpower: 2}\n", "health", 6},
		{"pp", "- name: Mind\n  stats: {agility: 3, intellect: 2, might: 1, perception: 3, toughness: 2, willpower: 5}\n", "health", 4},
		{"vv", "- name: Jack\n  stats: {strength: 10, endurance: 12, agility: 17, intelligence: 11, charisma: 10, level: 3}\n  tracks: {hit points: 9}\n", "power", 50},
		{"vv", "- name: Jill\n  stats: {strength: 10, endurance: 12, agility: 17, intelligence: 11, charisma: 10, level: 3}\n  tracks: {hit points: 9, power: {value: 20, max: 44}}\n", "power", 44},
	}
	for _, tt := range tests {
		cs, err := sheet.Parse("x.yaml", []byte(tt.text), systems[tt.rules], fray.SidePC)
		if err != nil {
			t.Errorf("%s: %v", tt.rules, err)
			continue
		}
		if tr, _ := cs[0].Track(tt.track); tr.Max != tt.want {
			t.Errorf("%s %s: %s = %+v, want max %d", tt.rules, cs[0].Name, tt.track, tr, tt.want)
		}
	}
}

// A weapon's skill, damage dice and clip are read as given.
func TestPowerFields(t *testing.T) {
	cs, err := sheet.Parse("party.yaml", []byte(bpbOK+"  powers:\n    - {name: Pistol, rank: 3, skill: Gun Fu, dice: 2d6+1, clip: 6}\n"), bpb.New(), "")
	if err != nil {
		t.Fatal(err)
	}
	if p := cs[0].Power("pistol"); p == nil || p.Skill != "Gun Fu" || p.Dice != "2d6+1" || p.Clip != 6 {
		t.Errorf("pistol = %+v, want skill Gun Fu, dice 2d6+1, clip 6", p)
	}
}

// Every error names the file and the field.
func TestErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"rank", bpbOK + "  powers:\n    - {name: Blast, rank: 15}\n", "foes.yaml: A.powers[0].rank: must be from 1 to 14 (line 5)"},
		{"stat", "- name: Ganyeka\n  stats: {brawn: 0}\n", "foes.yaml: Ganyeka.stats.brawn: must be from 1 to 14"},
		{"unknown stat", "- name: G\n  stats: {luck: 3}\n", "G.stats.luck: unknown stat"},
		{"missing stat", "- name: G\n  stats: {brawn: 3}\n", "G.stats.agility: missing"},
		{"missing track", "- name: A\n  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n", "A.tracks.endurance: missing"},
		{"unknown field", bpbOK + "  luck: 3\n", "A.luck: unknown field"},
		{"no name", "- stats: {}\n", "[0].name: missing"},
		{"twice", bpbOK + bpbOK, "A: the name is used twice"},
		{"side", bpbOK + "  side: gm\n", "A.side: must be one of pc, npc"},
		{"rules", "rules: vv\ncharacters: []\n", "rules: the file is for the rules \"vv\""},
		{"power twice", bpbOK + "  powers:\n    - {name: Blast, rank: 3}\n    - {name: blast, rank: 4}\n", "A.powers[1].name: \"blast\" is listed twice"},
		{"quoted number", bpbOK + "  powers:\n    - {name: Blast, rank: \"3\"}\n", "A.powers[0].rank: must be a whole number"},
		{"damage", bpbOK + "  powers:\n    - {name: Blast, rank: 3, damage: fire}\n", "damage: must be one of stunning, lethal"},
		{"dice", bpbOK + "  powers:\n    - {name: Blast, rank: 3, dice: 2d}\n", "A.powers[0].dice: not dice notation"},
		{"clip", bpbOK + "  powers:\n    - {name: Pistol, rank: 3, clip: 0}\n", "A.powers[0].clip: must be from 1 to 1000"},
	}
	for _, tt := range tests {
		_, err := sheet.Parse("foes.yaml", []byte(tt.text), bpb.New(), fray.SideNPC)
		if err == nil || !strings.Contains(fray.ErrorMessage(err), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := sheet.Parse("f.json", []byte(`[{"name":[1]}]`), bpb.New(), ""); err == nil || !strings.Contains(err.Error(), "[0].name: must be a text") {
		t.Errorf("JSON name: %v", err)
	}
}

// noSheets is a system without sheets: it has every method of its
// System but Sheet.
type noSheets struct{ fray.System }

// A system that is not a fray.Sheeter has no sheets, whatever the file.
func TestNotSheeter(t *testing.T) {
	sys := noSheets{queue.New()}
	if _, ok := fray.System(sys).(fray.Sheeter); ok {
		t.Fatal("noSheets is a fray.Sheeter")
	}
	for _, text := range []string{"", "- name: A\n  stats: {wits: 3}\n  tracks: {hp: 5}\n", "rules: queue\ncharacters: []\n", "{]"} {
		_, err := sheet.Parse("f.yaml", []byte(text), sys, fray.SidePC)
		if want := `f.yaml: there are no sheets for the rules "queue"`; fray.ErrorCode(err) != fray.EINVALID || fray.ErrorMessage(err) != want {
			t.Errorf("%q: error %v, want %s %s", text, err, fray.EINVALID, want)
		}
	}
}

// ownSheets is a system whose sheets hold what a test says.
type ownSheets struct {
	fray.System
	schema fray.SheetSchema
}

func (s ownSheets) Sheet() fray.SheetSchema { return s.schema }

// A sheet is read against whatever schema its system declares: the
// reader knows no system of its own.
func TestOwnSchema(t *testing.T) {
	luck := fray.SheetSchema{
		Stats: []fray.SheetRange{{Name: "luck", Min: 1, Max: 3, Required: true}},
		Tracks: []fray.SheetRange{{Name: "fortune", Min: 0, Max: 50, Required: true, Derive: func(c *fray.Combatant) (int, bool) {
			return 10 * c.Stat("luck"), c.Stat("luck") > 1
		}}},
		Rank:  fray.SheetRange{Name: "rank", Min: 0, Max: 5},
		Kinds: []string{fray.PowerKindTalent},
	}
	sys := ownSheets{queue.New(), luck}
	cs, err := sheet.Parse("f.yaml", []byte("rules: queue\ncharacters:\n  - name: A\n    stats: {luck: 3}\n    powers: [{name: Charm, rank: 5}]\n"), sys, fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	want := fray.Combatant{Name: "A", Kind: fray.KindCharacter, Side: fray.SidePC, Stats: map[string]int{"luck": 3},
		Tracks: map[string]fray.Track{"fortune": {Value: 30, Max: 30}}, Powers: []fray.Power{{Name: "Charm", Kind: fray.PowerKindTalent, Rank: 5}}}
	if diff := cmp.Diff([]fray.Combatant{want}, cs); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
	bad := []struct{ name, text, want string }{
		{"another system's stat", "- name: A\n  stats: {wits: 3}\n", "f.yaml: A.stats.wits: unknown stat; queue sheets have luck (line 2)"},
		{"not derived", "- name: A\n  stats: {luck: 1}\n", "f.yaml: A.tracks.fortune: missing (line 1)"},
		{"rank", "- name: A\n  stats: {luck: 2}\n  powers: [{name: Charm, rank: 6}]\n", "f.yaml: A.powers[0].rank: must be from 0 to 5 (line 3)"},
		{"kind", "- name: A\n  stats: {luck: 2}\n  weapons: [{name: Knife, rank: 1}]\n", "f.yaml: A.weapons[0]: queue sheets have no weapons (line 3)"},
		{"weight", "- name: A\n  stats: {luck: 2}\n  powers: [{name: Charm, rank: 1, weight: light}]\n", "f.yaml: A.powers[0].weight: queue weapons have no weight (line 3)"},
		{"rules", "rules: bpb\ncharacters: []\n", `f.yaml: rules: the file is for the rules "bpb", not "queue" (line 1)`},
	}
	for _, tt := range bad {
		_, err := sheet.Parse("f.yaml", []byte(tt.text), sys, fray.SidePC)
		if err == nil || fray.ErrorMessage(err) != tt.want {
			t.Errorf("%s: error %v\nwant %s", tt.name, err, tt.want)
		}
	}
	// A schema with no kinds of power takes no powers (and does not
	// panic for want of a first kind).
	luck.Kinds = nil
	_, err = sheet.Parse("f.yaml", []byte("- name: A\n  stats: {luck: 2}\n  powers: [{name: Charm, rank: 1}]\n"), ownSheets{queue.New(), luck}, fray.SidePC)
	if want := "f.yaml: A.powers[0]: queue sheets have no powers (line 3)"; err == nil || fray.ErrorMessage(err) != want {
		t.Errorf("no kinds: error %v\nwant %s", err, want)
	}
}

// FuzzParse checks that no input panics the reader, and that every
// error in a YAML file names a line of the file.
func FuzzParse(f *testing.F) {
	f.Add(bpbOK)
	f.Add("rules: bpb\ncharacters:\n  - name: 'A'\n    powers: [{name: x, rank: 2}]\n")
	f.Add(bpbOK + "  notes: |\n    two\n    lines\n")
	f.Add("a: &a [x, y]\nb: [*a, *a]\n")
	f.Add("- name: !!binary aGVsbG8=\n")
	f.Add("- name: A\n  stats: {brawn: 1,\n    agility: 2\n")
	f.Add("# c\n- name: A\n  expertise:\n    - x\n   side: pc\n")
	f.Add(`[{"name":"A","stats":{"brawn":1},"tracks":{"endurance":{"max":10}}}]`)
	f.Fuzz(func(t *testing.T, s string) {
		_, err := sheet.Parse("f.yaml", []byte(s), bpb.New(), fray.SideNPC)
		lines := 1 + strings.Count(s, "\n") + strings.Count(s, "\r") + strings.Count(s, "\u0085") + strings.Count(s, "\u2028") + strings.Count(s, "\u2029")
		if err != nil && !namesLine(fray.ErrorMessage(err), lines) {
			t.Errorf("%q: the error %q names no line from 1 to %d", s, fray.ErrorMessage(err), lines)
		}
		sheet.Parse("f.json", []byte(s), bpb.New(), fray.SideNPC)
	})
}

var lineRE = regexp.MustCompile(`line (\d+)`)

// namesLine reports whether msg names a line from 1 to lines.
func namesLine(msg string, lines int) bool {
	m := lineRE.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[1])
	return 1 <= n && n <= lines
}

// Every example sheet loads for its system.
func TestExampleSheets(t *testing.T) {
	for _, rules := range []string{"bpb", "cinematic", "vv", "pp", "queue"} {
		for _, f := range []string{"party", "foes"} {
			path := "../examples/" + rules + "-" + f + ".yaml"
			cs, err := sheet.Load(path, systems[rules], fray.SidePC)
			if err != nil || len(cs) == 0 {
				t.Errorf("%s: %v (%d characters)", path, err, len(cs))
			}
		}
	}
	cs, err := sheet.Load("../examples/cinematic-party.yaml", cinematic.New(), fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	if lp, _ := cs[0].Track("life points"); lp.Max != (3+3)*4+10 || cs[0].Qualities["Hard to Kill"] != 3 {
		t.Errorf("Bernie: %+v", cs[0])
	}
}

// TestTactic checks a character's tactic: in every system's sheets: read
// by ParseTactics, by name, in any case; left out of the combatant, which
// is the same as without it; an unknown tactic refused with its field
// path and line.
func TestTactic(t *testing.T) {
	const text = "- name: A\n  tactic: Cautious\n  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n  tracks: {endurance: 10}\n- name: B\n  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n  tracks: {endurance: 10}\n"
	cs, tac, err := sheet.ParseTactics("party.yaml", []byte(text), bpb.New(), fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	if len(tac) != 1 || tac["A"] != "cautious" {
		t.Errorf("tactics = %v, want A's cautious alone", tac)
	}
	plain, err := sheet.Parse("party.yaml", []byte(strings.Replace(text, "  tactic: Cautious\n", "", 1)), bpb.New(), fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(plain, cs); diff != "" {
		t.Errorf("the tactic changed the combatants (-without +with):\n%s", diff)
	}
	_, err = sheet.Parse("party.yaml", []byte(strings.Replace(text, "Cautious", "cowardly", 1)), bpb.New(), fray.SidePC)
	if want := "party.yaml: A.tactic: must be one of focus-weakest, focus-strongest, random, cautious (line 2)"; err == nil || fray.ErrorMessage(err) != want {
		t.Errorf("unknown tactic: %v\nwant %s", err, want)
	}
	// Every system's sheets take it: the example party with a tactic
	// added to each character.
	for id, sys := range systems {
		b, err := os.ReadFile("../examples/" + id + "-party.yaml")
		if err != nil {
			t.Fatal(err)
		}
		withTactic := regexp.MustCompile(`(?m)^(\s*)- name: (.*)$`).ReplaceAllString(string(b), "$1- name: $2\n$1  tactic: random")
		cs, tac, err := sheet.ParseTactics(id+"-party.yaml", []byte(withTactic), sys, fray.SidePC)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if len(cs) == 0 || len(tac) != len(cs) {
			t.Errorf("%s: %d tactics for %d characters", id, len(tac), len(cs))
		}
	}
}
