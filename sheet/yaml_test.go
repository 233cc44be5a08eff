package sheet_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/bpb"
	"fray/sheet"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.golden (check every change by hand)")

// What YAML gives a sheet beyond the old one-line subset: these read.
func TestYAMLGood(t *testing.T) {
	tests := []struct {
		name, text string
		check      func(c fray.Combatant) bool
	}{
		{"literal block notes", bpbOK + "  notes: |\n    Fast.\n    Sneaky.\n", func(c fray.Combatant) bool { return c.Notes == "Fast.\nSneaky.\n" }},
		{"folded block notes", bpbOK + "  notes: >-\n    Fast\n    and sneaky.\n", func(c fray.Combatant) bool { return c.Notes == "Fast and sneaky." }},
		{"flow over lines", "- name: A\n  stats: {brawn: 1, agility: 2,\n    accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n  tracks: {endurance: 10}\n", func(c fray.Combatant) bool { return c.Stat("willpower") == 6 }},
		{"quoted key", "- \"name\": A\n  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n  tracks: {'endurance': 10}\n", func(c fray.Combatant) bool { return c.Name == "A" }},
		{"explicit key", "- ? name\n  : A\n  stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}\n  tracks: {endurance: 10}\n", func(c fray.Combatant) bool { return c.Name == "A" }},
		{"document markers", "---\n" + bpbOK + "...\n", func(c fray.Combatant) bool { return c.Name == "A" }},
		{"yes and no", bpbOK + "  hidden: Yes\n  aware: no\n", func(c fray.Combatant) bool { return c.Hidden && c.Unaware }},
		{"CRLF", strings.ReplaceAll(bpbOK, "\n", "\r\n"), func(c fray.Combatant) bool { return c.Name == "A" }},
		{"plus sign", bpbOK + "  powers:\n    - {name: Blast, rank: +9}\n", func(c fray.Combatant) bool { return c.Power("blast").Rank == 9 }},
	}
	for _, tt := range tests {
		cs, err := sheet.Parse("party.yaml", []byte(tt.text), bpb.New(), fray.SidePC)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if len(cs) != 1 || !tt.check(cs[0]) {
			t.Errorf("%s: read %+v", tt.name, cs)
		}
	}
	for _, text := range []string{"", "# nothing yet\n", "---\n", "characters:\n"} {
		if cs, err := sheet.Parse("party.yaml", []byte(text), bpb.New(), fray.SidePC); err != nil || len(cs) != 0 {
			t.Errorf("%q: %v, %d characters; want none and no error", text, err, len(cs))
		}
	}
}

// What a sheet has no use for is refused, and each refusal names its line.
func TestYAMLRefused(t *testing.T) {
	deep := strings.Repeat("[", sheet.MaxDepth+1) + strings.Repeat("]", sheet.MaxDepth+1)
	laughs := "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	tests := []struct{ name, text, want string }{
		{"anchor", "- name: &a A\n", "line 1: anchors and aliases (& and *) are not supported in sheet files"},
		{"anchor on a mapping", bpbOK + "  qualities: &q\n    fast: 1\n", "line 4: anchors and aliases (& and *) are not supported in sheet files"},
		{"alias", bpbOK + "  notes: *x\n", "line 4: anchors and aliases (& and *) are not supported in sheet files"},
		{"alias in a list", "- name: A\n  expertise: [blocking, *x]\n", "line 2: anchors and aliases (& and *) are not supported in sheet files"},
		{"billion laughs", laughs, "line 1: anchors and aliases (& and *) are not supported in sheet files"},
		{"merge", "- name: A\n  <<: *x\n", "line 2: anchors and aliases (& and *) are not supported in sheet files"},
		{"binary tag", bpbOK + "  notes: !!binary aGVsbG8=\n", "line 4: tags (!!binary) are not supported in sheet files"},
		{"str tag", bpbOK + "  powers:\n    - {name: Blast, rank: !!str 9}\n", "line 5: tags (!!str) are not supported in sheet files"},
		{"custom tag", bpbOK + "  notes: !secret text\n", "line 4: tags (!secret) are not supported in sheet files"},
		{"tag on a mapping", bpbOK + "  qualities: !!map {fast: 1}\n", "line 4: tags (!!map) are not supported in sheet files"},
		{"tag on the file", "--- !party\n" + bpbOK, "line 1: tags (!party) are not supported in sheet files"},
		{"tag on a key", "- !!str name: A\n", "line 1: tags (!!str) are not supported in sheet files"},
		{"second document", bpbOK + "---\n" + bpbOK, "line 4: a second document (---); a sheet file holds one"},
		{"key twice", "- name: A\n  name: B\n", "line 2: the key \"name\" is given twice"},
		{"key twice in { }", "- name: A\n  stats: {brawn: 1, brawn: 2}\n", "line 2: the key \"brawn\" is given twice"},
		{"list as a key", "- name: A\n  ? [a, b]\n  : 1\n", "line 2: a key is a list or a mapping; keys are texts"},
		{"empty key", "- name: A\n  \"\": 1\n", "line 2: a key is empty"},
		{"too deep", "- name: A\n  notes: " + deep + "\n", "line 2: the sheet nests deeper than 32 levels (MaxDepth)"},
		{"deeper than yaml/v3 goes", "- name: A\n  notes: " + strings.Repeat("[", 10001) + "\n", "line 2: the sheet nests deeper than 32 levels (MaxDepth)"},
		{"tab", "- name: A\n\tstats: {}\n", "line 2: a tab indents the line; indent with spaces"},
		{"tab after text", "- name: A\n  notes: some\n \tmore\n", "line 3: a tab indents the line; indent with spaces"},
		{"unclosed {", "- name: A\n  stats: {brawn: 1\n  tracks: {}\n", "line 2: a { is never closed, or a comma is missing (did not find expected ',' or '}')"},
		{"unclosed [", "- name: A\n  expertise: [a, b\n", "line 2: a [ is never closed, or a comma is missing (did not find expected ',' or ']')"},
		{"indented too far", "- name: A\n     stats: {}\n", "line 2: malformed YAML: mapping values are not allowed in this context"},
		{"indented too little", "characters:\n  - name: A\n    side: pc\n    stats: {}\n   tracks: {}\n", "line 5: malformed YAML: did not find expected '-' indicator"},
		{"key after a list", "# a\nrules: bpb\ncharacters:\n  - name: A\n    expertise:\n      - blocking\n     side: pc\n", "line 7: malformed YAML: did not find expected key"},
		{"after the list", "# a\n- name: A\nrules: bpb\n", "line 3: malformed YAML: did not find expected '-' indicator"},
		{"unclosed quote", "- name: A\n  notes: \"A\n  side: pc\n", "line 2: malformed YAML: found unexpected end of stream"},
		{"bad escape", "- name: \"\\q\"\n", "line 1: malformed YAML: found unknown escape character"},
		{"two values", "- name: A: B\n", "line 1: malformed YAML: mapping values are not allowed in this context"},
		{"not UTF-8", "- name: A\n  notes: \xff\n", "line 2: the file is not UTF-8 text"},
		{"control character", "- name: A\n\n  notes: a\x01b\n", "line 3: a control character (U+0001); a sheet file is text"},
	}
	for _, tt := range tests {
		_, err := sheet.Parse("foes.yaml", []byte(tt.text), bpb.New(), fray.SideNPC)
		if want := "foes.yaml: " + tt.want; err == nil || fray.ErrorMessage(err) != want {
			t.Errorf("%s: error %v\nwant %s", tt.name, err, want)
		}
	}
}

// A bad field is reported with its path and line, however deep it sits.
func TestFieldPathAndLine(t *testing.T) {
	const party = `# three characters
rules: bpb
characters:
  - name: A
    stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}
    tracks: {endurance: 10}
  - name: B
    stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}
    tracks: {endurance: 10}
  - name: C
    stats: {brawn: 1, agility: 2, accuracy: 3, prowess: 4, perception: 5, willpower: 6}
    tracks:
      endurance:
        max: 10
        value: %s
    powers:
      - name: Blast
        range: ranged
        rank: %s
`
	tests := []struct{ name, value, rank, want string }{
		{"rank", "5", "15", "party.yaml: C.powers[0].rank: must be from 1 to 14 (line 19)"},
		{"quoted rank", "5", `"9"`, "party.yaml: C.powers[0].rank: must be a whole number from 1 to 14 (line 19)"},
		{"track value", "11", "9", "party.yaml: C.tracks.endurance.value: must be from 0 to 10 (line 15)"},
		{"null value", "~", "9", "party.yaml: C.tracks.endurance.value: must be a whole number from 0 to 10 (line 15)"},
		{"empty value", "", "9", "party.yaml: C.tracks.endurance.value: must be a whole number from 0 to 10 (line 15)"},
		{"list for a number", "5", "[9]", "party.yaml: C.powers[0].rank: must be a whole number from 1 to 14 (line 19)"},
	}
	for _, tt := range tests {
		text := strings.Replace(strings.Replace(party, "%s", tt.value, 1), "%s", tt.rank, 1)
		_, err := sheet.Parse("party.yaml", []byte(text), bpb.New(), fray.SidePC)
		if err == nil || fray.ErrorMessage(err) != tt.want {
			t.Errorf("%s: error %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// Every example sheet reads to the combatants in testdata/examples.golden,
// written first by the hand-made reader that yaml/v3 replaced. When an
// example changes, run go test ./sheet -run TestExamplesGolden -update and
// check the difference by hand.
func TestExamplesGolden(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	got := map[string][]fray.Combatant{}
	for _, f := range files {
		base := filepath.Base(f)
		rules, _, _ := strings.Cut(base, "-")
		side := fray.SidePC
		if strings.Contains(base, "foes") {
			side = fray.SideNPC
		}
		sys, ok := systems[rules]
		if !ok {
			t.Errorf("%s: no system %q", base, rules)
			continue
		}
		cs, err := sheet.Load(f, sys, side)
		if err != nil {
			t.Errorf("%s: %v", base, err)
		}
		got[base] = cs
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	const golden = "testdata/examples.golden"
	if *update {
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update and check the new file by hand)", err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("examples differ from %s (-want +got):\n%s", golden, cmp.Diff(string(want), string(b)))
	}
}
