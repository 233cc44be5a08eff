// Command fray runs tabletop role-playing combat: dice rolls that show their
// work, exact odds, and encounters played by the rules of five systems.
//
// Usage:
//
//	fray roll EXPR [--seed N] [--json] [-n COUNT] [--explain]
//	fray prob EXPR [--depth N] [--json] [--exact]
//	fray serve [--addr :8080] [--db fray.db]
//	fray play --rules ID [--seed N] [--json] [--log FILE] [SCRIPT]
//	fray sim --rules ID [--party FILE] [--foes FILE] [SCRIPT] [-n N] [--json]
//	fray migrate --from SOURCE --to TARGET [--dry-run]
//	fray version
//
// Run "fray help" or "fray COMMAND --help" for more.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"fray/rules/kit"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := MainContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Main runs the fray command line with the given arguments (without the
// program name) and streams, and returns the process exit code: 0 for
// success, 1 for a failure while running, 2 for bad usage or input.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainContext(context.Background(), args, stdin, stdout, stderr)
}

// MainContext is Main for a command that runs until ctx is done: serve, and
// play at a terminal, which gives the terminal back when ctx is done.
func MainContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "roll":
		return cmdRoll(rest, stdout, stderr)
	case "prob":
		return cmdProb(rest, stdout, stderr)
	case "play":
		return cmdPlay(ctx, rest, stdin, stdout, stderr)
	case "sim":
		return cmdSim(ctx, rest, stdout, stderr)
	case "serve":
		return cmdServe(ctx, rest, stdout, stderr)
	case "migrate":
		return cmdMigrate(ctx, rest, stdout, stderr)
	case "version", "--version":
		return cmdVersion(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			return MainContext(ctx, []string{rest[0], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage())
		return 0
	default:
		fmt.Fprintf(stderr, "fray: unknown command %q\n\n%s", cmd, usage())
		return 2
	}
}

// usage returns fray's help, which names the systems of systemList.
func usage() string { return fmt.Sprintf(usageText, kit.Or(systemIDs())) }

// usageText is fray's help, with a %s for the systems' ids.
const usageText = `fray runs tabletop role-playing combat.

Usage:
  fray roll EXPR      roll dice and show every die (fray roll 4d6kh3)
  fray prob EXPR      exact odds of every total (fray prob '2d6+3')
  fray play           run an encounter by the rules of %s
  fray sim            how a fight is likely to go, played 10,000 times by the rules
  fray serve          the web page and HTTP API on a SQLite file (fray serve --addr :8080)
  fray migrate        copy every encounter into another database (SQLite to PostgreSQL)
  fray version        print the version

Run "fray COMMAND --help" for a command's options and examples.
`
