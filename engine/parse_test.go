package engine_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

func TestParseCommandGood(t *testing.T) {
	tests := []struct {
		name, line string
		want       fray.Command
	}{
		{"blank", "   ", fray.Command{}},
		{"comment", "# add Ann", fray.Command{}},
		{"indented comment", "  \t# x", fray.Command{}},
		{"word", "next", fray.Command{Name: "next"}},
		{"upper case name", "NEXT", fray.Command{Name: "next"}},
		{"quoted name", `add "Brigand #2" side=npc group=Brigands`,
			fray.Command{Name: "add", Args: []string{"Brigand #2"}, Opts: map[string]string{"side": "npc", "group": "Brigands"}}},
		{"hash inside a line", `add Brigand #2`, fray.Command{Name: "add", Args: []string{"Brigand", "#2"}}},
		{"quoted value", `interrupt Blueshift before="Ganyeka's henchmen"`,
			fray.Command{Name: "interrupt", Args: []string{"Blueshift"}, Opts: map[string]string{"before": "Ganyeka's henchmen"}}},
		{"key upper case", `react Johann TO=Melvina`, fray.Command{Name: "react", Args: []string{"Johann"}, Opts: map[string]string{"to": "Melvina"}}},
		{"empty value", `next note=`, fray.Command{Name: "next", Opts: map[string]string{"note": ""}}},
		{"empty quoted value", `next note=""`, fray.Command{Name: "next", Opts: map[string]string{"note": ""}}},
		{"quoted equals is positional", `add "a=b"`, fray.Command{Name: "add", Args: []string{"a=b"}}},
		{"escapes", `note Ann "say \"hi\"\\ \n"`, fray.Command{Name: "note", Args: []string{"Ann", "say \"hi\"\\ \n"}}},
		{"dice", `initiative Ann 6,3 dice=6,3`, fray.Command{Name: "initiative", Args: []string{"Ann", "6,3"}, Opts: map[string]string{"dice": "6,3"}}},
		{"value with equals", `note Ann text=a=b`, fray.Command{Name: "note", Args: []string{"Ann"}, Opts: map[string]string{"text": "a=b"}}},
		{"tabs and crlf", "next\tAnn\r", fray.Command{Name: "next", Args: []string{"Ann"}}},
		{"unicode", `add Ganyeka’s`, fray.Command{Name: "add", Args: []string{"Ganyeka’s"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := engine.ParseCommand(tt.line)
			if err != nil {
				t.Fatalf("ParseCommand(%q): %v", tt.line, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseCommand(%q) = %#v, want %#v", tt.line, got, tt.want)
			}
		})
	}
}

func TestParseCommandBad(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"unclosed quote", `add "Brigand #2`, "Column 5: this quote is never closed"},
		{"quote inside word", `add Bri"gand`, "a quote may only start a word"},
		{"text after quote", `add "Bri"gand`, "a closing quote must end the word"},
		{"positional equals", `add a+b=3`, "is not a key=value pair"},
		{"duplicate key", `add Ann side=pc SIDE=npc`, "the key side is given twice"},
		{"no name", `=x`, "a command starts with its name"},
		{"quoted name", `"add" Ann`, "a command starts with its name"},
		{"bad name", `ad!d Ann`, "a command name is a word"},
		{"bad escape", `add "a\q"`, `unknown escape \q`},
		{"control character", "add a\x01b", "control character"},
		{"invalid utf-8", "add \xff", "not valid UTF-8"},
		{"too long", "add " + strings.Repeat("a", engine.MaxLineBytes), "MaxLineBytes"},
		{"too many words", "add" + strings.Repeat(" a", engine.MaxWords+1), "MaxWords"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.ParseCommand(tt.line)
			if err == nil {
				t.Fatalf("ParseCommand(%q) succeeded", tt.line)
			}
			if !strings.Contains(fray.ErrorMessage(err), tt.want) {
				t.Errorf("ParseCommand(%q) = %q, want it to contain %q", tt.line, fray.ErrorMessage(err), tt.want)
			}
			if c := fray.ErrorCode(err); c != fray.EINVALID && c != fray.ETOOLARGE {
				t.Errorf("code %s", c)
			}
		})
	}
}

// FuzzParseCommand checks that parsing never panics and that a parsed
// command prints (Command.String) to a line that parses back to it.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		`add "Brigand #2" side=npc group=Brigands`, `# comment`, `next note="a \"b\""`,
		`interrupt Blueshift before="Ganyeka's henchmen"`, `add "a=b" x=`, "note A \"\\n\\t\"", `react Johann to="Brigand #2"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := engine.ParseCommand(line)
		if err != nil || c.Name == "" {
			return
		}
		s := c.String()
		d, err := engine.ParseCommand(s)
		if err != nil {
			t.Fatalf("%q parsed to %#v, whose String %q does not parse: %v", line, c, s, err)
		}
		if !reflect.DeepEqual(c, d) {
			t.Fatalf("%q: %#v prints as %q, which parses to %#v", line, c, s, d)
		}
	})
}

// TestParseLongOrder checks that an order naming a hundred combatants
// (the server's default MaxCombatants) is within MaxWords.
func TestParseLongOrder(t *testing.T) {
	line := "order"
	for i := range 100 {
		line += fmt.Sprintf(` "Brigand #%d"`, i+1)
	}
	cmd, err := engine.ParseCommand(line)
	if err != nil || len(cmd.Args) != 100 || cmd.Args[99] != "Brigand #100" {
		t.Fatalf("ParseCommand(an order of 100) = %d words, %v", len(cmd.Args), err)
	}
}
