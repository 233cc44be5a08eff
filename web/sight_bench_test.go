package web_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/web"
)

// BenchmarkPlayerView builds a player's view of a bpb fight of 20
// combatants (5 PCs, 15 NPCs of whom 5 are hidden, conditions by others,
// three rounds of history): what players may know (web.NewSight) and the
// redacted view, the work of every player's GET and of every change's
// frame. The goal is under 50 µs.
func BenchmarkPlayerView(b *testing.B) {
	e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 2)))
	var names []string
	for i := range 20 {
		name := "Fighter " + strconv.Itoa(i)
		line := "add " + strconv.Quote(name) + " agility=3 prowess=4 endurance=20"
		switch {
		case i < 5:
			line += " side=pc"
		case i%3 == 0:
			line += " hidden=yes"
		}
		names = append(names, name)
		mustDo(b, e, line)
	}
	for i := range 10 {
		mustDo(b, e, "condition "+strconv.Quote(names[i])+" marked by="+strconv.Quote(names[19-i]))
	}
	mustDo(b, e, "start")
	for range 3 * 20 {
		mustDo(b, e, "next")
	}
	v := e.View()
	for b.Loop() {
		web.Redact(fray.RolePlayer, web.NewSight(e.System(), e.Encounter()), v, nil)
	}
}

func mustDo(b *testing.B, e *engine.Engine, line string) {
	b.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Do(cmd); err != nil {
		b.Fatalf("%s: %v", line, err)
	}
}
