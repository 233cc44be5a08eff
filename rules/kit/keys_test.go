package kit_test

import (
	"testing"

	"fray/rules/kit"
)

func TestKeyConstructors(t *testing.T) {
	tests := []struct {
		name string
		got  kit.RollKey
		want kit.RollKey
	}{
		{"key", kit.Key("difficulty", "N|challenging", "the total to reach"), kit.RollKey{Name: "difficulty", Value: "N|challenging", Help: "the total to reach"}},
		{"number", kit.NumberKey("resolve", "Resolve spent"), kit.RollKey{Name: "resolve", Value: "N", Help: "Resolve spent"}},
		{"required", kit.RequiredKey("value", "action value"), kit.RollKey{Name: "value", Value: "N", Help: "action value (required)"}},
		{"yes or no", kit.YesNoKey("expertise", "+3 to the value"), kit.RollKey{Name: "expertise", Value: "yes|no", Help: "+3 to the value"}},
		{"at the table", kit.TableKey("roll", "1-20", "the d20 rolled at the table"), kit.RollKey{Name: "roll", Value: "1-20", Help: "the d20 rolled at the table", RollOnly: true}},
		{"along", kit.AlongKey("vs-mod", "-4..+4", "the opponent's mod=", "vs"), kit.RollKey{Name: "vs-mod", Value: "-4..+4", Help: "the opponent's mod=", Along: "vs"}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
}

// Each kind of key is read by its getter: a required number is refused
// when absent, in the words its help gives; a yes/no key reads yes.
func TestKeyKindsRead(t *testing.T) {
	var got struct {
		n   int
		yes bool
	}
	n := kit.NamedRoll{
		Title: "test roll",
		Keys:  []kit.RollKey{kit.RequiredKey("value", "the value"), kit.YesNoKey("expertise", "expertise"), kit.TableKey("roll", "1-6", "the die rolled at the table")},
		Prob: func(a *kit.RollArgs) ([]any, string, error) {
			var err error
			if got.n, err = a.Required("value", -9, 9); err != nil {
				return nil, "", err
			}
			got.yes, err = a.Bool("expertise")
			return nil, "", err
		},
		Roll: func(a *kit.RollArgs) (kit.RollMaker, error) { return kit.RollMaker{}, nil },
	}
	if err := n.Check("test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := n.Odds("test", []string{"value=4", "expertise=yes"}); err != nil || got.n != 4 || !got.yes {
		t.Errorf("value=4 expertise=yes: %v, read %+v", err, got)
	}
	if _, _, err := n.Odds("test", []string{"expertise=no"}); err == nil || err.Error() != "value= is required: a whole number from -9 to 9" {
		t.Errorf("no value: %v", err)
	}
	if _, _, err := n.Odds("test", []string{"value=1", "roll=3"}); err == nil {
		t.Error("odds took roll=, a die rolled at the table")
	}
}
