package web_test

import (
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/web"
)

func TestActsFor(t *testing.T) {
	v := fray.View{Current: "Ann", Combatants: []fray.Combatant{{Name: "Ann"}, {Name: "Bear"}}}
	tests := []struct {
		rules, line string
		who         []string
		gmOnly      bool
	}{
		{"bpb", "next", []string{"Ann"}, false},
		{"bpb", "next bear", []string{"Bear"}, false},
		{"bpb", "delay", []string{"Ann"}, false},
		{"bpb", "force Bear", []string{"Bear"}, false},
		{"bpb", "interrupt Bear", []string{"Bear"}, false},
		{"vv", "interrupt Ann Bear", []string{"Ann", "Bear"}, false},
		{"bpb", "interrupt Ann Bear", nil, false}, // fits no declaration: refused for anyone
		{"queue", "act major", []string{"Ann"}, false},
		{"queue", "act Bear minor", []string{"Bear"}, false},
		{"queue", "react Bear to=Ann", []string{"Bear"}, false},
		{"vv", "move 3", []string{"Ann"}, false},
		{"vv", "facing Nobody north", []string{"Nobody"}, false},
		{"bpb", "attack Bear Ann", []string{"Bear"}, false},
		{"cinematic", "attack Bear", []string{"Ann"}, false},
		{"cinematic", "test Bear consciousness", []string{"Bear"}, false},
		{"cinematic", "kipup Ann", []string{"Ann"}, false},
		{"cinematic", "free Bear with=Crime", []string{"Bear"}, false},
		{"queue", "injury Bear maimed", []string{"Bear"}, false},
		{"bpb", "take Bear", []string{"Bear"}, false},
		{"bpb", "take", nil, false},
		{"cinematic", "stabilise Bear", nil, true},
		{"cinematic", "complication Bear down", nil, true},
		{"vv", "protect Bear energy 3", nil, true},
		{"bpb", "damage Bear 3", nil, true},
		{"pp", "contest Ann Bear might", nil, true},
		{"bpb", "show", nil, false},
		{"bpb", "odds attack Bear Ann", []string{"Bear"}, false},
		{"bpb", "odds add Cat", nil, true},
		{"bpb", "add Cat", nil, true},
		{"bpb", "start", nil, true},
		{"bpb", "undo", nil, true},
		{"bpb", "reorder Ann after=Bear", nil, true},
		{"vv", "surprise Ann", nil, true},
		{"bpb", "set mode=open", nil, true},
		{"bpb", "frobnicate Ann", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.rules+" "+tc.line, func(t *testing.T) {
			cmd, err := parse(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			who, gm := web.ActsFor(engine.Decls(systems[tc.rules]()), cmd, v)
			if !slices.Equal(who, tc.who) || gm != tc.gmOnly {
				t.Fatalf("got %q, GM only %v; want %q, %v", who, gm, tc.who, tc.gmOnly)
			}
		})
	}
}

func parse(line string) (fray.Command, error) { return engine.ParseCommand(line) }
