package fray_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
)

// attack is a declaration with every sort of parameter.
var attack = fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Summary: "Attack.",
	Args: []fray.Param{
		{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true},
		{Name: "TARGET", Kind: fray.KindCombatant, Optional: true},
	},
	Opts: []fray.Param{
		{Name: "with", Kind: fray.KindPower, Required: true},
		{Name: "range", Kind: fray.KindChoice, Choices: []string{"close", "ranged"}, Also: []string{"melee"}},
		{Name: "mod", Kind: fray.KindNumber, Min: -10, Max: 10, Hint: "±N"},
		{Name: "threshold", Kind: fray.KindNumber, Choices: []string{"hard"}},
		{Name: "brawn", Kind: fray.KindNumber},
		{Name: "agility", Kind: fray.KindNumber, Folded: true},
	}}

func TestDeclUsage(t *testing.T) {
	tests := []struct {
		d    fray.CommandDecl
		want string
	}{
		{attack, "attack ATTACKER [TARGET] with=POWER [range=close|ranged] [mod=±N] [threshold=hard|N] [brawn=N …]"},
		{fray.CommandDecl{Name: "next"}, "next"},
		{fray.CommandDecl{Name: "interrupt", Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}}}, "interrupt NAME …"},
		{fray.CommandDecl{Name: "injury", Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant}, {Name: "INJURY", Kind: fray.KindChoice, Choices: []string{"scarred", "dead"}, Repeat: true}}}, "injury NAME scarred|dead …"},
		{fray.CommandDecl{Name: "check", Args: []fray.Param{{Name: "STAT", Kind: fray.KindStat, Hint: "STAT[+SKILL]"}}, Opts: []fray.Param{{Name: "note", Kind: fray.KindText}, {Name: "by", Kind: fray.KindCombatant}}}, "check STAT[+SKILL] [note=TEXT] [by=NAME]"},
	}
	for _, tt := range tests {
		if got := tt.d.Usage(); got != tt.want {
			t.Errorf("Usage:\n got %s\nwant %s", got, tt.want)
		}
	}
	if doc := attack.Doc(); doc.Summary != "Attack." || doc.Usage != attack.Usage() {
		t.Errorf("Doc: %+v", doc)
	}
}

func TestDeclBind(t *testing.T) {
	d := fray.CommandDecl{Name: "act", Args: []fray.Param{
		{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true},
		{Name: "ACTION", Kind: fray.KindChoice, Choices: []string{"major", "minor"}},
		{Name: "MORE", Kind: fray.KindText, Optional: true, Repeat: true},
	}}
	tests := []struct {
		n    int
		want []int
		ok   bool
	}{
		{0, nil, false},
		{1, []int{1}, true},
		{2, []int{0, 1}, true},
		{4, []int{0, 1, 2, 2}, true},
	}
	for _, tt := range tests {
		got, ok := d.Bind(tt.n)
		if ok != tt.ok || !cmp.Equal(got, tt.want) {
			t.Errorf("Bind(%d) = %v, %v; want %v, %v", tt.n, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := (fray.CommandDecl{Name: "next"}).Bind(1); ok {
		t.Error("a command without arguments took one")
	}
	who, ok := d.Actors(fray.Command{Name: "act", Args: []string{"major"}})
	if !ok || len(who) != 0 {
		t.Errorf("act major acts for %v (%v); want the current combatant (none named)", who, ok)
	}
	who, ok = d.Actors(fray.Command{Name: "act", Args: []string{"Ann", "major"}})
	if !ok || !cmp.Equal(who, []string{"Ann"}) {
		t.Errorf("act Ann major acts for %v (%v)", who, ok)
	}
}

func TestDeclCheck(t *testing.T) {
	cmd := func(args []string, opts map[string]string) fray.Command {
		return fray.Command{Name: "attack", Args: args, Opts: opts}
	}
	with := func(kv ...string) map[string]string {
		m := map[string]string{"with": "blast"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name string
		cmd  fray.Command
		want string // "" accepts
	}{
		{"fits", cmd([]string{"Ann", "Bob"}, with("range", "CLOSE", "mod", "+3", "threshold", "hard", "agility", "4")), ""},
		{"alias", cmd([]string{"Ann"}, with("range", "melee")), ""},
		{"too few", cmd(nil, with()), "Usage: attack ATTACKER [TARGET] with=POWER"},
		{"too many", cmd([]string{"a", "b", "c"}, with()), "Usage: attack"},
		{"unknown key", cmd([]string{"Ann"}, with("rank", "5")), "attack does not know the key rank=; it takes with=, range=, mod=, threshold=, brawn=, agility=."},
		{"required", cmd([]string{"Ann"}, nil), "attack needs with=POWER."},
		{"choice", cmd([]string{"Ann"}, with("range", "far")), "attack: range=far is not allowed; use one of close, ranged."},
		{"bounds", cmd([]string{"Ann"}, with("mod", "11")), "attack: mod=11 is not a whole number from -10 to 10."},
		{"number", cmd([]string{"Ann"}, with("threshold", "easy")), "attack: threshold=easy is not a whole number or hard."},
		{"unbounded", cmd([]string{"Ann"}, with("brawn", "x")), "attack: brawn=x is not a whole number."},
	}
	for _, tt := range tests {
		err := attack.Check(tt.cmd)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		case err != nil && fray.ErrorCode(err) != fray.EINVALID:
			t.Errorf("%s: code %s", tt.name, fray.ErrorCode(err))
		}
	}
	none := fray.CommandDecl{Name: "next"}
	if err := none.Check(fray.Command{Name: "next", Opts: map[string]string{"x": "1"}}); err == nil || !strings.Contains(err.Error(), "next takes no key=value options; x= is unknown.") {
		t.Errorf("next x=1: %v", err)
	}
	pos := fray.CommandDecl{Name: "full", Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant}, {Name: "STANCE", Kind: fray.KindChoice, Choices: []string{"defence", "offence"}}}}
	if err := pos.Check(fray.Command{Name: "full", Args: []string{"Ann", "attack"}}); err == nil || !strings.Contains(err.Error(), `full STANCE: "attack" is not allowed; use one of defence, offence.`) {
		t.Errorf("full Ann attack: %v", err)
	}
	long := strings.Repeat("é", 40)
	err := pos.Check(fray.Command{Name: "full", Args: []string{"Ann", long}})
	if err == nil || strings.Contains(err.Error(), long) || !strings.Contains(err.Error(), "…") {
		t.Errorf("a long word is quoted back whole: %v", err)
	}
}

func TestDeclCompletions(t *testing.T) {
	got := attack.Completions()
	want := []string{"with=", "range=close", "range=ranged", "mod=", "threshold=hard", "threshold=", "brawn=", "agility="}
	if !cmp.Equal(got, want) {
		t.Errorf("Completions:\n got %v\nwant %v", got, want)
	}
	if d, ok := fray.FindDecl([]fray.CommandDecl{attack}, "ATTACK"); !ok || d.Name != "attack" {
		t.Error("FindDecl does not find ATTACK")
	}
}

// BenchmarkDeclCheck checks a command whose words fit, as the engine does
// before every Decide: it should allocate nothing.
//
//	go test -run '^$' -bench DeclCheck -benchmem .
func BenchmarkDeclCheck(b *testing.B) {
	cmd := fray.Command{Name: "attack", Args: []string{"Ann", "Bob"}, Opts: map[string]string{"with": "blast", "range": "close", "mod": "+3"}}
	for b.Loop() {
		if err := attack.Check(cmd); err != nil {
			b.Fatal(err)
		}
	}
}
