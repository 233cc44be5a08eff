package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module version or VCS revision recorded by the Go tool is shown.
var version = ""

func cmdVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", stderr, "fray version\n\nPrints fray's version, the VCS revision it was built from and the Go version.\n")
	if _, code := parseArgs(fs, args); code >= 0 {
		return code
	}
	v := version
	rev := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	if rev != "" {
		v += " (" + rev + ")"
	}
	fmt.Fprintf(stdout, "fray %s %s\n", v, runtime.Version())
	return 0
}
