package bpb_test

import (
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// Issue 14, "Help and wording seen wrong". The dice= help says that an
// attack a standing block or dodge meets takes all four faces (B-8); the
// attack's help says a hit waits for a defence except against a defender
// already blocking or dodging; until=end's help says that set during the
// holder's own turn it ends that turn (E-4, as fray does).
func TestB8_HelpWording(t *testing.T) {
	docs := engine.HelpDocs(bpb.New())
	help := func(usage string) string {
		i := slices.IndexFunc(docs, func(d fray.CommandDoc) bool { return strings.HasPrefix(d.Usage, usage) })
		if i < 0 {
			t.Fatalf("no help line for %s", usage)
		}
		return docs[i].Summary
	}
	for _, c := range []struct{ usage, want string }{
		{"… dice=", "dice=3,2,6,4 in bpb against a defender already blocking or dodging"},
		{"attack ", "a hit waits for block, dodge or take, but a target already blocking (dodging) blocks (dodges) it at once (dice= then takes all four faces)"},
	} {
		if got := help(c.usage); !strings.Contains(got, c.want) {
			t.Errorf("help %s: %q lacks %q", c.usage, got, c.want)
		}
	}
	d, _ := fray.FindDecl(engine.Decls(bpb.New()), engine.CmdCondition)
	i := slices.IndexFunc(d.Opts, func(p fray.Param) bool { return p.Name == engine.KeyUntil })
	if i < 0 || !strings.Contains(d.Opts[i].Help, "set during the holder's own turn, that turn's end") {
		t.Errorf("until= help: %+v", d.Opts)
	}
	// And fray does what the help says: set during Blueshift's own turn,
	// until=end ends with that turn.
	e := seeded(t)
	run(t, e, "condition Blueshift braced until=end")
	run(t, e, "next Blueshift")
	if condition(e, "Blueshift", "braced") != nil {
		t.Errorf("until=end set during the holder's turn outlived it")
	}
}

// Issue 14, "Help and wording seen wrong" (E-6): the odds of an attack by
// someone whose turn it is not are given, and say that the attack itself
// would be refused now, and why.
func TestE6_OddsSayWhenRefused(t *testing.T) {
	e := seeded(t) // Blueshift's turn
	o, err := e.Odds(fray.Command{Name: engine.CmdOdds, Args: []string{"attack", "Ganyeka", "Monolith"}, Opts: map[string]string{"with": "blast"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Refused != "It is Blueshift's turn, not Ganyeka's; attacks are made on one's turn." || len(o.Bands) == 0 {
		t.Errorf("off-turn odds: refused %q, bands %v", o.Refused, o.Bands)
	}
	if len(o.RefusedAbout)+len(o.RefusedNames) == 0 {
		t.Errorf("the refusal declares nobody it names: %+v", o)
	}
	o, err = e.Odds(fray.Command{Name: engine.CmdOdds, Args: []string{"attack", "Blueshift", "Ganyeka"}, Opts: map[string]string{"with": "sweep"}})
	if err != nil || o.Refused != "" {
		t.Errorf("on-turn odds: refused %q, %v", o.Refused, err)
	}
	if n := len(e.Log()); n == 0 {
		t.Fatal("no log")
	}
}
