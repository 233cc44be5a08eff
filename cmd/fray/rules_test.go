package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"fray/dice"
)

// The expected text below was worked out by hand from the rules (SPEC §1)
// and the dice given, not copied from the program's output.

func TestRulesRollGood(t *testing.T) {
	tests := []struct {
		name string
		id   string
		args []string
		want []string
	}{
		{"bpb extreme with expertise", "bpb", []string{"value=4", "difficulty=12", "expertise=yes", "mode=expertise", "faces=6,5"},
			[]string{"2d6+7 against difficulty 12", "dice: 6 5 = 11, + 7 = 18", "extreme success", "6 over 12"}},
		{"bpb remarkable without expertise", "bpb", []string{"value=4", "difficulty=challenging", "mode=expertise", "faces=6,5"},
			[]string{"6 5 = 11, + 4 = 15", "remarkable success", "3 over 12"}},
		{"bpb opposed by rank 9", "bpb", []string{"value=4", "vs=9", "roll=12"},
			[]string{"against difficulty 17", "12 (sum given), + 4 = 16", "failure: 1 under 17"}},
		{"bpb exactly the difficulty", "bpb", []string{"value=3", "difficulty=11", "faces=4,4"},
			[]string{"4 4 = 8, + 3 = 11", "success: 0 over 11"}},
		{"cinematic alone", "cinematic", []string{"value=7", "roll=2"},
			[]string{"D10 2 + 7 = 9: 1 success level"}},
		{"cinematic D10 0 is 10", "cinematic", []string{"value=7", "roll=0"},
			[]string{"D10 10 + 7 = 17: 5 success levels"}},
		{"cinematic attack hits", "cinematic", []string{"value=7", "vs=5", "roll=6", "vs-roll=3"},
			[]string{"attacker: D10 6 + 7 = 13 (3 success levels)", "defender: D10 3 + 5 = 8", "hit, 3 success levels"}},
		{"cinematic tie to the defender", "cinematic", []string{"value=7", "vs=5", "roll=4", "vs-roll=6"},
			[]string{"= 11", "defended"}},
		{"vv hit at the chance", "vv", []string{"chance=12", "roll=12"}, []string{"hits on 1 to 12", "d20: 12: hit"}},
		{"vv miss over the chance", "vv", []string{"chance=12", "roll=13"}, []string{"d20: 13: miss"}},
		{"vv 1 always hits", "vv", []string{"chance=-3", "roll=1"}, []string{"d20: 1: hit"}},
		{"vv 20 always misses", "vv", []string{"chance=30", "roll=20"}, []string{"d20: 20: miss on a 20", "astray"}},
		{"vv defenceless", "vv", []string{"chance=2", "defenceless=yes", "roll=19"}, []string{"cannot defend", "d20: 19: hit"}},
		{"pp the seed's example", "pp", []string{"dice=12", "faces=1,2,2,2,3,3,3,5,5,5,6,6", "vs=12", "vs-auto=all"},
			[]string{"actor rolled 1 2 2 2 3 3 3 5 5 5 6 6: 7 successes", "opponent took 6 automatic successes: 6 successes",
				"net 7 − 6 = +1: actor narrates, opponent embellishes (success with a complication)"}},
		{"pp static threshold by name", "pp", []string{"dice=3", "threshold=hard", "faces=6,1,4"},
			[]string{"threshold: Hard (2)", "rolled 6 1 4: 3 successes", "net 3 − 2 = +1"}},
		{"pp fewer than one die", "pp", []string{"dice=1", "mod=-2", "faces=6"},
			[]string{"fewer than one", "only a 6 counts: 6: 1 success", "net 1 − 0 = +1"}},
		{"pp defining moment and Resolve", "pp", []string{"dice=2", "defining=yes", "resolve=1", "faces=6,5,1,6,2,3,4"},
			// 6 explodes into 5: 2 + 0; 1: 0; Resolve dice 6 (explodes into 2): 2 + 1; 3: 0; 4: 1.
			[]string{"1 Resolve for 3 more dice", "rolled 6! 5 1, then Resolve dice 6! 2 3 4: 6 successes", "net 6 − 0 = +6: actor narrates (success)"}},
		{"pp checking your swing", "pp", []string{"dice=3", "swing=yes", "faces=6,2,5", "threshold=2"},
			[]string{"checking your swing", "rolled 6 2 5: 2 successes", "net 2 − 2 = +0: opponent narrates, actor embellishes (failure with a silver lining)"}},
		{"pp successes counted", "pp", []string{"dice=6", "auto=2", "successes=1", "vs=4", "vs-successes=5"},
			[]string{"actor counted 1 success at the table + 1 automatic success: 2 successes", "net 2 − 5 = -3: opponent narrates (failure)"}},
		{"pp reroll keeps the better", "pp", []string{"dice=2", "reroll=yes", "faces=1,3,6,2"},
			[]string{"1 Resolve to reroll", "actor rolled 6 2: 3 successes (kept)", "the other roll, not kept: rolled 1 3: 0 successes", "net 3 − 0 = +3"}},
		{"queue light", "queue", []string{"weapon=light", "red=2", "black=6"},
			[]string{"Red 2, Black 6", "2 damage; Black 6: the weapon's special effect triggers"}},
		{"queue medium", "queue", []string{"weapon=medium", "red=5", "black=3"}, []string{"Red 5, Black 3", "5 damage\n"}},
		{"queue heavy", "queue", []string{"weapon=heavy", "red=2", "black=4"}, []string{"4 damage\n"}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := runRulesRoll(tt.id, tt.args, rand.New(rand.NewPCG(1, 2)), 1, false, &out, &errOut)
		if code != 0 || errOut.Len() > 0 {
			t.Errorf("%s: exit %d, stderr %q", tt.name, code, errOut.String())
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(rulesSquash(out.String()), rulesSquash(w)) {
				t.Errorf("%s: output lacks %q:\n%s", tt.name, w, out.String())
			}
		}
	}
}

func TestRulesProbGood(t *testing.T) {
	tests := []struct {
		name string
		id   string
		args []string
		want []string
	}{
		// 2d6 ≥ 8 in 15 of 36 (41.667%), of which 11 and 12 (3/36) are extreme.
		{"bpb 4 against 12", "bpb", []string{"value=4", "difficulty=challenging"},
			[]string{"failure", "58.333%", "success", "33.333%", "extreme", "8.333%", "total ≥ 15"}},
		{"bpb remarkable band", "bpb", []string{"value=4", "difficulty=12", "mode=expertise"}, []string{"remarkable", "8.333%"}},
		{"cinematic alone", "cinematic", []string{"value=7"},
			[]string{"failure", "10.000%", "1 success level", "20.000%", "5 success levels"}},
		{"cinematic attack", "cinematic", []string{"value=7", "vs=5"},
			[]string{"defended", "36.000%", "hit, 0 success levels", "2.000%", "hit, 4 success levels", "19.000%", "success 64.000%"}},
		{"vv", "vv", []string{"chance=12"}, []string{"hit", "60.000%", "miss", "35.000%", "astray", "5.000%"}},
		// Two dice against Average (1): see ExampleChallenge_Odds in rules/pp.
		{"pp two dice against average", "pp", []string{"dice=2", "threshold=average"},
			[]string{"Average (1)", "58.333%", "38.889%", "2.778%", "-1    25.000%", "+3     2.778%", "mean net +0.333"}},
		// 12 dice average 8 successes; less 6 automatic, 2 net. −6 needs twelve odd faces: 2^-12 = 0.024%.
		{"pp the seed's contest", "pp", []string{"dice=12", "vs=12", "vs-auto=yes"}, []string{"12d{0,1,0,1,0,2} − 6", "-6     0.024%", "mean net +2.000"}},
		// One die is 0, 1, 2 with P 1/2, 1/3, 1/6; the better of two is 0
		// with P 1/4, 1 or 2 with 3/4 (2 with 1 − (5/6)² = 11/36).
		{"pp reroll", "pp", []string{"dice=1", "reroll=yes"},
			[]string{"best of two (1d{0,1,0,1,0,2}) − 0", "failure with a silver lining", "25.000%", "75.000%", "+2 30.556%"}},
		{"queue heavy", "queue", []string{"weapon=heavy"},
			[]string{"heavy weapon", "6 damage   30.556%", "with the special effect 16.667%", "mean damage 4.472"}},
		{"queue all weights", "queue", nil, []string{"light weapon", "medium weapon", "heavy weapon", "1 damage   30.556%"}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := runRulesProb(tt.id, tt.args, false, &out, &errOut)
		if code != 0 || errOut.Len() > 0 {
			t.Errorf("%s: exit %d, stderr %q", tt.name, code, errOut.String())
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(rulesSquash(out.String()), rulesSquash(w)) {
				t.Errorf("%s: output lacks %q:\n%s", tt.name, w, out.String())
			}
		}
	}
}

// rulesSquash collapses runs of spaces, so that tests do not depend on the
// width of table columns.
func rulesSquash(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

func TestRulesBad(t *testing.T) {
	tests := []struct {
		name string
		prob bool
		id   string
		args []string
		want []string
	}{
		{"unknown system", false, "dnd", nil, []string{`"dnd"`, "bpb, cinematic, vv, pp or queue"}},
		{"unknown key", false, "bpb", []string{"value=3", "diff=12"}, []string{`"diff"`, "value, difficulty, vs, expertise, mode, faces or roll"}},
		{"prob lists no dice keys", true, "bpb", []string{"diff=12"}, []string{`"diff"`, "expertise or mode"}},
		{"not key=value", false, "vv", []string{"12"}, []string{`"12"`, "key=value"}},
		{"empty value", false, "vv", []string{"chance="}, []string{"chance=", "N"}},
		{"twice", false, "vv", []string{"chance=3", "chance=4"}, []string{"chance=", "twice"}},
		{"value not a number", false, "bpb", []string{"value=high", "difficulty=12"}, []string{"value=high", "whole number"}},
		{"value missing", false, "bpb", []string{"difficulty=12"}, []string{"value=", "required"}},
		{"difficulty missing", false, "bpb", []string{"value=3"}, []string{"difficulty=", "vs="}},
		{"difficulty and vs", false, "bpb", []string{"value=3", "difficulty=12", "vs=3"}, []string{"difficulty=", "vs=", "one"}},
		{"bad difficulty", true, "bpb", []string{"value=3", "difficulty=hard"}, []string{"difficulty=hard", "challenging"}},
		{"bad mode", true, "bpb", []string{"value=3", "difficulty=12", "mode=strict"}, []string{"mode=strict", "open or expertise"}},
		{"bad yes/no", true, "bpb", []string{"value=3", "difficulty=12", "expertise=sure"}, []string{"expertise=sure", "yes or no"}},
		{"three faces", false, "bpb", []string{"value=3", "difficulty=12", "faces=1,2,3"}, []string{"faces=", "two dice"}},
		{"face 7", false, "bpb", []string{"value=3", "difficulty=12", "faces=1,7"}, []string{"faces=1,7", "1 to 6"}},
		{"sum 13", false, "bpb", []string{"value=3", "difficulty=12", "roll=13"}, []string{"roll=13", "2 to 12"}},
		{"faces in prob", true, "bpb", []string{"value=3", "difficulty=12", "faces=1,2"}, []string{`"faces"`, "fray roll"}},
		{"cinematic D10 11", false, "cinematic", []string{"value=3", "roll=11"}, []string{"roll=11", "1 to 10"}},
		{"cinematic defender's die alone", false, "cinematic", []string{"value=3", "vs-roll=4"}, []string{"vs-roll=", "vs="}},
		{"vv chance missing", true, "vv", nil, []string{"chance=", "required"}},
		{"vv d20 21", false, "vv", []string{"chance=3", "roll=21"}, []string{"roll=21", "1 to 20"}},
		{"pp modifier 5", true, "pp", []string{"dice=4", "mod=+5"}, []string{"mod=+5", "-4 to 4"}},
		{"pp set aside too many", true, "pp", []string{"dice=4", "mod=-1", "auto=4"}, []string{"auto=4", "0 to 3", "all"}},
		{"pp threshold name", true, "pp", []string{"dice=4", "threshold=tough"}, []string{"threshold=tough", "godlike"}},
		{"pp threshold and vs", true, "pp", []string{"dice=4", "threshold=2", "vs=3"}, []string{"threshold=", "vs="}},
		{"pp opponent key without vs", true, "pp", []string{"dice=4", "vs-auto=all"}, []string{"vs-auto=", "vs="}},
		{"pp opponent modifier", true, "pp", []string{"dice=4", "vs=3", "vs-mod=9"}, []string{"vs-mod=9", "-4 to 4"}},
		{"pp too few faces", false, "pp", []string{"dice=4", "faces=2,4"}, []string{"faces=", "2 given"}},
		{"pp too many faces", false, "pp", []string{"dice=2", "faces=2,4,6"}, []string{"faces=", "1 more"}},
		{"pp too many successes", false, "pp", []string{"dice=2", "successes=5"}, []string{"successes=", "0 to 4"}},
		{"pp faces and successes", false, "pp", []string{"dice=2", "faces=1,2", "successes=1"}, []string{"faces=", "successes=", "one"}},
		{"queue weapon missing", false, "queue", nil, []string{"weapon=", "light, medium or heavy"}},
		{"queue bad weapon", true, "queue", []string{"weapon=big"}, []string{"weapon=big", "light, medium or heavy"}},
		{"queue Red 7", false, "queue", []string{"weapon=light", "red=7"}, []string{"red=7", "1 to 6"}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		var code int
		if tt.prob {
			code = runRulesProb(tt.id, tt.args, false, &out, &errOut)
		} else {
			code = runRulesRoll(tt.id, tt.args, rand.New(rand.NewPCG(1, 2)), 1, false, &out, &errOut)
		}
		if code != 2 || out.Len() > 0 {
			t.Errorf("%s: exit %d, stdout %q; want exit 2 and nothing printed", tt.name, code, out.String())
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut.String(), w) {
				t.Errorf("%s: error %q lacks %q", tt.name, errOut.String(), w)
			}
		}
	}
}

func TestRulesRollJSON(t *testing.T) {
	tests := []struct {
		id    string
		args  []string
		key   string // "total" or "successes"
		value float64
		band  string
		dice  int
	}{
		{"bpb", []string{"value=4", "difficulty=12", "faces=6,5"}, "total", 15, "extreme", 2},
		{"cinematic", []string{"value=7", "vs=5", "roll=6", "vs-roll=3"}, "total", 13, "hit, 3 success levels", 2},
		{"vv", []string{"chance=12", "roll=20"}, "total", 20, "astray", 1},
		{"pp", []string{"dice=12", "faces=1,2,2,2,3,3,3,5,5,5,6,6", "vs=12", "vs-auto=all"}, "successes", 7, "actor narrates, opponent embellishes", 12},
		{"queue", []string{"weapon=heavy", "red=2", "black=6"}, "total", 6, "6 damage + special", 2},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if code := runRulesRoll(tt.id, tt.args, rand.New(rand.NewPCG(1, 2)), 1, true, &out, &errOut); code != 0 {
			t.Errorf("%s: exit %d: %s", tt.id, code, errOut.String())
			continue
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Errorf("%s: %v in %s", tt.id, err, out.String())
			continue
		}
		dice, _ := got["dice"].([]any)
		if got["rules"] != tt.id || got[tt.key] != tt.value || got["band"] != tt.band || len(dice) != tt.dice {
			t.Errorf("%s: got %s; want rules %q, %s %v, band %q, %d dice", tt.id, out.String(), tt.id, tt.key, tt.value, tt.band, tt.dice)
		}
		if !strings.HasPrefix(out.String(), `{"rules":"`+tt.id+`",`) || strings.Count(out.String(), "\n") != 1 {
			t.Errorf("%s: want one line starting with rules: %s", tt.id, out.String())
		}
	}
}

func TestRulesProbJSON(t *testing.T) {
	tests := []struct {
		id    string
		args  []string
		lines int
		first map[string]float64 // band → p
	}{
		{"bpb", []string{"value=4", "difficulty=12"}, 1, map[string]float64{"failure": 21.0 / 36, "success": 12.0 / 36, "extreme": 3.0 / 36}},
		{"cinematic", []string{"value=7"}, 1, map[string]float64{"failure": 0.1, "1 success level": 0.2, "5 success levels": 0.1}},
		{"vv", []string{"chance=12"}, 1, map[string]float64{"hit": 0.6, "miss": 0.35, "astray": 0.05}},
		{"pp", []string{"dice=2", "threshold=1"}, 1, map[string]float64{"opponent narrates": 0, "opponent narrates, actor embellishes": 21.0 / 36, "actor narrates": 1.0 / 36}},
		{"queue", nil, 3, map[string]float64{"1 damage": 11.0 / 36, "6 damage": 1.0 / 36}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if code := runRulesProb(tt.id, tt.args, true, &out, &errOut); code != 0 {
			t.Errorf("%s: exit %d: %s", tt.id, code, errOut.String())
			continue
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != tt.lines {
			t.Errorf("%s: %d lines, want %d", tt.id, len(lines), tt.lines)
		}
		for i, line := range lines {
			var got struct {
				Rules string `json:"rules"`
				Bands []struct {
					Band string  `json:"band"`
					P    float64 `json:"p"`
				} `json:"bands"`
			}
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatalf("%s: %v in %s", tt.id, err, line)
			}
			sum := 0.0
			for _, b := range got.Bands {
				sum += b.P
				if want, ok := tt.first[b.Band]; ok && i == 0 && math.Abs(b.P-want) > 1e-12 {
					t.Errorf("%s: P(%s) = %v, want %v", tt.id, b.Band, b.P, want)
				}
			}
			if got.Rules != tt.id || math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s: rules %q, bands sum to %v", tt.id, got.Rules, sum)
			}
		}
	}
}

func TestRulesRollSeededAndRepeated(t *testing.T) {
	run := func(n int) string {
		var out, errOut bytes.Buffer
		if code := runRulesRoll("pp", []string{"dice=6", "vs=5"}, rand.New(rand.NewPCG(7, 9)), n, true, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		return out.String()
	}
	a, b := run(3), run(3)
	if a != b {
		t.Errorf("the same seed gave different rolls:\n%s\n%s", a, b)
	}
	if n := strings.Count(a, "\n"); n != 3 {
		t.Errorf("-n 3 printed %d lines", n)
	}
}

func TestRulesRollFlagDice(t *testing.T) {
	// fray roll --rules bpb … --dice 6,5 hands the faces in as the source.
	var out, errOut bytes.Buffer
	code := runRulesRoll("bpb", []string{"value=4", "difficulty=12"}, dice.Faces(6, 5), 1, false, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "6 5 = 11, + 4 = 15") {
		t.Errorf("exit %d, %q, %q", code, out.String(), errOut.String())
	}
	for _, tc := range []struct {
		name  string
		args  []string
		faces []int
		n     int
		want  string
	}{
		{"-n with dice", []string{"value=4", "difficulty=12"}, []int{6, 5}, 2, "-n 2"},
		{"dice and faces=", []string{"value=4", "difficulty=12", "faces=1,1"}, []int{6, 5}, 1, "--dice: 2"},
		{"too few", []string{"value=4", "difficulty=12"}, []int{6}, 1, "physical dice"},
	} {
		out.Reset()
		errOut.Reset()
		code := runRulesRoll("bpb", tc.args, dice.Faces(tc.faces...), tc.n, false, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%s: exit %d, error %q; want exit 2 and %q", tc.name, code, errOut.String(), tc.want)
		}
	}
	// pp: the actor's faces as faces=, the opponent's from --dice.
	out.Reset()
	errOut.Reset()
	code = runRulesRoll("pp", []string{"dice=2", "faces=6,6", "vs=2"}, dice.Faces(2, 1), 1, false, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "opponent rolled 2 1: 1 success") || !strings.Contains(out.String(), "net 4 − 1 = +3") {
		t.Errorf("pp with --dice for the opponent: exit %d, %q, %q", code, out.String(), errOut.String())
	}
}

func TestRulesHelp(t *testing.T) {
	h := rulesHelp()
	for _, s := range rulesSpecs {
		if !strings.Contains(h, "  "+s.id+" — ") {
			t.Errorf("help lacks system %s", s.id)
		}
		for _, k := range s.roll.Keys {
			if !strings.Contains(h, k.Name+"=") {
				t.Errorf("help lacks %s key %s", s.id, k.Name)
			}
		}
	}
	// Every example in the help runs.
	for _, ex := range rulesExamples {
		f := strings.Fields(ex)
		var out, errOut bytes.Buffer
		var code int
		if f[1] == "roll" {
			code = runRulesRoll(f[3], f[4:], rand.New(rand.NewPCG(1, 2)), 1, false, &out, &errOut)
		} else {
			code = runRulesProb(f[3], f[4:], false, &out, &errOut)
		}
		if code != 0 {
			t.Errorf("%s: exit %d: %s", ex, code, errOut.String())
		}
	}
}
