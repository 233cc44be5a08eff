package engine_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
)

// TestCheckPlayerOptions: a player's option that sets an outcome is
// refused with EFORBIDDEN, naming it; one that chooses what to do passes;
// dice= passes once player_dice=yes, and nothing else does.
func TestCheckPlayerOptions(t *testing.T) {
	yes := map[string]string{engine.SettingPlayerDice: "yes"}
	no := map[string]string{engine.SettingPlayerDice: "no"}
	tests := []struct {
		name     string
		settings map[string]string
		line     string
		want     string // "" means allowed
	}{
		{"mod", nil, "attack Ann Zed with=punch mod=+20", "Only the GM may set mod= (a modifier to the roll)"},
		{"first of several, by key", nil, "attack Ann Zed with=punch dice=6,6 mod=+20 rank=30", "set dice="},
		{"rank", nil, "attack Ann Zed with=punch rank=30", "set rank="},
		{"difficulty", nil, "check Ann difficulty=2", "set difficulty="},
		{"chance", nil, "check Ann chance=100", "set chance="},
		{"noticed", nil, "attack Ann Zed with=Claws unaware=yes noticed=45%", "set noticed="},
		{"dice", nil, "check Ann agility dice=6,6", "the GM may let players enter theirs with set player_dice=yes"},
		{"dice, player_dice=no", no, "check Ann agility dice=6,6", "set dice="},
		{"dice, player_dice=yes", yes, "check Ann agility dice=6,6", ""},
		{"roll, player_dice=yes", yes, "check Ann agility roll=12", "set roll= (the total of the dice); give the faces you rolled with dice= instead"},
		{"roll", nil, "check Ann agility roll=12", "set roll= (the total of the dice); the server rolls your dice"},
		{"successes, player_dice=yes", yes, "check Ann might vs=Bear successes=3", "set successes="},
		{"mod, player_dice=yes", yes, "check Ann agility dice=6,6 mod=+1", "set mod="},
		{"vs a rank", nil, "check Ann agility vs=12", "set vs=12 (an opposing rank or value)"},
		{"vs a signed value", nil, "check Ann dexterity vs=+3", "set vs=+3"},
		{"vs a name", nil, "check Ann might vs=Bear", ""},
		{"vs names", nil, "check Ann might vs=Bear,Cleo same=yes", ""},
		{"expertise=yes", nil, "check Ann agility expertise=yes", "set expertise=yes"},
		{"expertise=no", nil, "check Ann agility expertise=no", "set expertise=no"},
		{"expertise in a skill", nil, "check Ann agility expertise=Stealth", ""},
		{"a bare word of attack", nil, "attack Ann Zed with=Claws range=3 unaware", "Only the GM may set unaware (a target unaware of the attacker)"},
		{"a bare word in any case", nil, "attack Ann Zed with=Claws Immobile", "set immobile"},
		{"a word that is a name elsewhere", nil, "group agility Ann Unaware threshold=hard", "set threshold="},
		{"a word that is a name, no option", nil, "interrupt Ann Unaware", ""},
		{"the same word as an option", nil, "attack Ann Zed with=Claws unaware=no", "set unaware="},
		{"initiative die", nil, "initiative Ann 6,3", "Only the GM may enter initiative dice; the server rolls your dice"},
		{"initiative die, player_dice=yes", yes, "initiative Ann 6,3", "give the faces you rolled with dice=, such as initiative Ann dice=6,3"},
		{"initiative die of a quoted name", yes, `initiative "Ann B" 9`, `initiative "Ann B" dice=9`},
		{"initiative faces, player_dice=yes", yes, "initiative Ann dice=6,3", ""},
		{"initiative rolled", nil, "initiative Ann", ""},
		{"with, range, defence, shots", nil, "attack Ann Zed with=pistol range=close defence=dodge shots=3", ""},
		{"vv position and choices", nil, "attack Ann Zed with=Claws range=3 facing=rear attacker-facing=side pull=1 special effect divert=2", ""},
		{"pp choices", nil, "attack Ann Zed with=might def=agility auto=2 vs_auto=1", ""},
		{"spending", nil, "spend Ann resolve=2", ""},
		{"notes and targets", nil, "react Ann to=Zed note=parries", ""},
		{"no options", nil, "next", ""},
		{"odds with a modifier", nil, "odds attack Ann Zed with=punch mod=+20 rank=30", ""},
		{"odds with a bare word", nil, "odds attack Ann Zed with=Claws unaware", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd, err := engine.ParseCommand(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			err = engine.CheckPlayerOptions(tc.settings, cmd)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if fray.ErrorCode(err) != fray.EFORBIDDEN || !strings.Contains(fray.ErrorMessage(err), tc.want) {
				t.Fatalf("got %v, want EFORBIDDEN saying %q", err, tc.want)
			}
		})
	}
}

// TestOutcomeKeys: every key is refused from a player, naming it; each
// says what it sets and where from; the list is sorted, one entry a key.
func TestOutcomeKeys(t *testing.T) {
	from := []string{engine.FromGM, engine.FromSheet, engine.FromDice}
	var keys []string
	for _, o := range engine.OutcomeKeys {
		keys = append(keys, o.Key)
		if o.Sets == "" || !slices.Contains(from, o.From) {
			t.Errorf("%s= says %q, from %q", o.Key, o.Sets, o.From)
		}
		v := "2"
		if o.Values == engine.YesNoValue {
			v = "yes"
		}
		cmd := fray.Command{Name: "attack", Args: []string{"Ann", "Zed"}, Opts: map[string]string{o.Key: v}}
		err := engine.CheckPlayerOptions(nil, cmd)
		if fray.ErrorCode(err) != fray.EFORBIDDEN || !strings.Contains(fray.ErrorMessage(err), "Only the GM may set "+o.Key+"=") || !strings.Contains(fray.ErrorMessage(err), o.Sets) {
			t.Errorf("%s=%s: got %v", o.Key, v, err)
		}
		if err := engine.CheckPlayerOptions(map[string]string{engine.SettingPlayerDice: "yes"}, cmd); (err == nil) != o.Table {
			t.Errorf("%s=%s with player_dice=yes: got %v", o.Key, v, err)
		}
		if err := engine.CheckPlayerOptions(nil, fray.Command{Name: "odds", Args: []string{"attack", "Ann", "Zed"}, Opts: cmd.Opts}); err != nil {
			t.Errorf("odds with %s=%s: %v", o.Key, v, err)
		}
	}
	if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
		t.Errorf("the keys are not sorted, one each: %q", keys)
	}
	for _, k := range []string{engine.OptDice, engine.OptRoll, "mod", "rank", "difficulty", "chance", "noticed"} {
		if !slices.Contains(keys, k) {
			t.Errorf("%s= is missing", k)
		}
	}
}

// TestPlayerDiceSetting: every system's set takes player_dice=yes|no, the
// default no, and lists it in its help; a system's own settings stay.
func TestPlayerDiceSetting(t *testing.T) {
	for _, sys := range []fray.System{bpb.New(), cinematic.New(), vv.New(), pp.New(), queue.New()} {
		t.Run(sys.ID(), func(t *testing.T) {
			e := engine.New(sys, rand.New(rand.NewPCG(1, 1)))
			if engine.PlayerDice(e.View().Settings) {
				t.Fatal("players enter their dice by default")
			}
			refuse(t, e, "set player_dice=maybe", "player_dice=maybe is not allowed; use one of no, yes")
			do(t, e, "set player_dice=yes")
			if v := e.View(); !engine.PlayerDice(v.Settings) {
				t.Fatalf("settings after set player_dice=yes: %v", v.Settings)
			}
			do(t, e, "set player_dice=no")
			if engine.PlayerDice(e.View().Settings) {
				t.Fatal("set player_dice=no left it yes")
			}
			refuse(t, e, "set nonsense=1", "player_dice")
			set, _ := fray.FindDecl(sys.Commands(), engine.CmdSet)
			if !strings.Contains(set.Summary, "player_dice=no|yes") || !strings.Contains(set.Usage(), "[player_dice=no|yes]") {
				t.Errorf("help for set: %s — %s", set.Usage(), set.Summary)
			}
		})
	}
	// A system's own setting is merged with the shared one, not replaced.
	s := engine.Spec{Settings: map[string][]string{"order": {"declared", "rolled"}}}
	for _, line := range []string{"set order=rolled", "set player_dice=yes"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := engine.DecideShared(&fray.Encounter{}, cmd, s); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	cmd, _ := engine.ParseCommand("set")
	if _, _, err := engine.DecideShared(&fray.Encounter{}, cmd, engine.Spec{}); err == nil || !strings.Contains(err.Error(), "set player_dice=no") {
		t.Errorf("set without a setting: %v", err)
	}
}
