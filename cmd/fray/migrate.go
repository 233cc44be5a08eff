package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"fray"
	"fray/postgres"
)

const migrateHelp = `fray migrate copies every encounter of one database into another: its
record, its whole event log byte for byte, its GM and player tokens (so the
links already handed out keep working) and its newest snapshot. Either side
is an SQLite file or a postgres:// URL, so it moves a server from SQLite to
PostgreSQL (or back).

Usage:
  fray migrate --from SOURCE --to TARGET [--dry-run]

Examples:
  fray migrate --from fray.db --to postgres://fray:secret@db.example/fray
  fray migrate --from fray.db --to copy.db --dry-run

Stop the fray serve that writes to SOURCE first. A copy can be run again:
an encounter already in TARGET with the same log is left alone, one whose
log is a shorter start of SOURCE's gets the events it lacks (so a copy that
was interrupted, or a second run after the old server took more commands,
finishes the job), and one whose log differs is reported and left as it is.
The source is only read. It exits 0 when every encounter is in TARGET, 1 when
any could not be copied (each is named), 2 for bad usage.
`

// migrateBatch is how many encounters one listing of the source reads,
// and how many events one read or one append moves (within the store's
// MaxAppend).
const migrateBatch = 1000

// migrateStats counts what a migration did.
type migrateStats struct {
	copied, extended, same, failed int
	events                         int
}

func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("migrate", stderr, migrateHelp)
	from := fs.String("from", "", "the `database` to copy from: an SQLite file or a postgres:// URL (only read)")
	to := fs.String("to", "", "the `database` to copy into: an SQLite file (created if missing) or a postgres:// URL")
	dry := fs.Bool("dry-run", false, "say what would be copied, and write nothing")
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		return code
	}
	switch {
	case len(pos) > 0:
		fmt.Fprintf(stderr, "fray migrate: unexpected argument %q; name the databases with --from and --to (see fray migrate --help)\n", pos[0])
		return 2
	case *from == "" || *to == "":
		fmt.Fprintln(stderr, "fray migrate: name both databases: fray migrate --from SOURCE --to TARGET (see fray migrate --help)")
		return 2
	case *from == *to:
		fmt.Fprintf(stderr, "fray migrate: --from and --to both name %s; name two databases\n", postgres.Redacted(*from))
		return 2
	}
	if !postgres.IsURL(*from) {
		// Opening an SQLite file creates it: a mistyped source must not
		// become an empty database that copies nothing.
		if _, err := os.Stat(*from); err != nil {
			fmt.Fprintf(stderr, "fray migrate: the source %s cannot be read: %v\n", *from, errors.Unwrap(err))
			return 1
		}
	}
	src, srcName, code := openStoreFor(ctx, "fray migrate", "--from", *from, stderr)
	if code != 0 {
		return code
	}
	defer src.Close()
	var dst fray.Store
	dstName := *to
	if !*dry || postgres.IsURL(*to) || fileExists(*to) {
		if dst, dstName, code = openStoreFor(ctx, "fray migrate", "--to", *to, stderr); code != 0 {
			return code
		}
		defer dst.Close()
	}
	verb := "copying"
	if *dry {
		verb = "would copy"
	}
	fmt.Fprintf(stdout, "fray migrate: %s the encounters of %s into %s\n", verb, srcName, dstName)
	st, err := migrate(ctx, src, dst, *dry, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "fray migrate: %v\n", err)
		return 1
	}
	what := "copied"
	if *dry {
		what = "would copy"
	}
	fmt.Fprintf(stdout, "fray migrate: %s %s (%s); %d extended, %d already there, %d failed\n",
		what, plural(st.copied, "encounter", "encounters"), plural(st.events, "event", "events"), st.extended, st.same, st.failed)
	if st.failed > 0 {
		return 1
	}
	return 0
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// migrate copies every encounter of src into dst (nil in a dry run of a
// target that does not exist yet), saying a line per encounter to out.
// It returns an error only when the source cannot be listed; a failure of
// one encounter is said and counted, and the others go on.
func migrate(ctx context.Context, src, dst fray.Store, dry bool, out io.Writer) (migrateStats, error) {
	var st migrateStats
	// The source is listed newest first; an encounter created while the
	// copy runs shifts the listing by one, and is then listed twice: the
	// second time it is already there.
	for offset := 0; ; offset += migrateBatch {
		recs, err := src.Encounters(ctx, fray.EncounterFilter{Offset: offset, Limit: migrateBatch})
		if err != nil {
			return st, fmt.Errorf("list the source's encounters: %w", err)
		}
		for _, rec := range recs {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			res, n, err := migrateOne(ctx, src, dst, rec, dry)
			switch {
			case err != nil:
				st.failed++
				fmt.Fprintf(out, "  %s (%s): not copied: %v\n", rec.ID, rec.Rules, fray.ErrorMessage(err))
				continue
			case res == "same":
				st.same++
			case res == "extended":
				st.extended++
				st.events += n
			default:
				st.copied++
				st.events += n
			}
			fmt.Fprintf(out, "  %s (%s, %q): %s\n", rec.ID, rec.Rules, rec.Name, migrateSaid(res, n, dry))
		}
		if len(recs) < migrateBatch {
			return st, nil
		}
	}
}

func migrateSaid(res string, n int, dry bool) string {
	switch {
	case res == "same":
		return "already there"
	case dry && res == "extended":
		return "would get its " + plural(n, "new event", "new events")
	case dry:
		return "would be copied, " + plural(n, "event", "events")
	case res == "extended":
		return plural(n, "new event", "new events") + " added"
	}
	return "copied, " + plural(n, "event", "events")
}

// migrateOne copies one encounter: "copied" (new in dst), "extended" (dst
// had a start of its log) or "same", with the number of events moved.
func migrateOne(ctx context.Context, src, dst fray.Store, rec fray.EncounterRecord, dry bool) (string, int, error) {
	have := 0
	res := "copied"
	var cur fray.EncounterRecord
	var err error
	if dst != nil {
		cur, err = dst.Encounter(ctx, rec.ID)
	}
	switch {
	case dst == nil || fray.ErrorCode(err) == fray.ENOTFOUND:
		if dry {
			return res, rec.Revision, nil
		}
		toks, err := src.Tokens(ctx, rec.ID)
		if err != nil {
			return "", 0, fmt.Errorf("read its tokens: %w", err)
		}
		if err := dst.CreateEncounter(ctx, rec, toks...); err != nil {
			return "", 0, fmt.Errorf("create it: %w", err)
		}
	case err != nil:
		return "", 0, fmt.Errorf("look it up in the target: %w", err)
	default:
		if cur.Rules != rec.Rules || cur.Seed != rec.Seed || !cur.Created.Equal(rec.Created) {
			return "", 0, fray.Errorf(fray.ECONFLICT, "The target holds another encounter with this id (%s rules, created %s).", cur.Rules, cur.Created.Format(time.RFC3339))
		}
		if cur.Revision > rec.Revision {
			return "", 0, fray.Errorf(fray.ECONFLICT, "The target's log is longer than the source's (%d events against %d).", cur.Revision, rec.Revision)
		}
		if cur.Revision > 0 {
			if err := sameEvent(ctx, src, dst, rec.ID, cur.Revision); err != nil {
				return "", 0, err
			}
		}
		if !dry {
			if err := copyTokens(ctx, src, dst, rec.ID); err != nil {
				return "", 0, err
			}
		}
		have = cur.Revision
		res = "extended"
		if have == rec.Revision {
			res = "same"
		}
	}
	if dry {
		return res, rec.Revision - have, nil
	}
	n, err := copyEvents(ctx, src, dst, rec.ID, have)
	if err != nil {
		return "", 0, err
	}
	if snap, err := src.Snapshot(ctx, rec.ID); err == nil {
		if err := dst.PutSnapshot(ctx, rec.ID, snap); err != nil {
			return "", 0, fmt.Errorf("copy its snapshot: %w", err)
		}
	} else if fray.ErrorCode(err) != fray.ENOTFOUND {
		return "", 0, fmt.Errorf("read its snapshot: %w", err)
	}
	if res == "same" && n > 0 {
		res = "extended"
	}
	return res, n, nil
}

// sameEvent checks that the event seq is the same in both stores: a log
// that ends the same way began the same way (each event is appended at the
// revision its writer read, and the seed and the rules match).
func sameEvent(ctx context.Context, src, dst fray.Store, id string, seq int) error {
	a, err := src.Events(ctx, id, seq, 1)
	if err != nil {
		return fmt.Errorf("read event %d: %w", seq, err)
	}
	b, err := dst.Events(ctx, id, seq, 1)
	if err != nil {
		return fmt.Errorf("read the target's event %d: %w", seq, err)
	}
	if len(a) != 1 || len(b) != 1 || a[0].Type != b[0].Type || !bytes.Equal(a[0].Data, b[0].Data) {
		return fray.Errorf(fray.ECONFLICT, "The target's log differs from the source's at event %d: it was written by another server.", seq)
	}
	return nil
}

// copyTokens creates in dst the tokens of src it does not hold: a player
// token issued after an earlier copy.
func copyTokens(ctx context.Context, src, dst fray.Store, id string) error {
	toks, err := src.Tokens(ctx, id)
	if err != nil {
		return fmt.Errorf("read its tokens: %w", err)
	}
	for _, t := range toks {
		if _, err := dst.Token(ctx, t.Hash); err == nil {
			continue
		} else if fray.ErrorCode(err) != fray.ENOTFOUND {
			return fmt.Errorf("look up a token in the target: %w", err)
		}
		if err := dst.CreateToken(ctx, t); err != nil {
			return fmt.Errorf("copy a token: %w", err)
		}
	}
	return nil
}

// copyEvents appends to dst the events of src after have, in batches, and
// returns how many it appended.
func copyEvents(ctx context.Context, src, dst fray.Store, id string, have int) (int, error) {
	n := 0
	for {
		evs, err := src.Events(ctx, id, have+1, migrateBatch)
		if err != nil {
			return n, fmt.Errorf("read events from %d: %w", have+1, err)
		}
		if len(evs) == 0 {
			return n, nil
		}
		if _, err := dst.AppendEvents(ctx, id, have, evs); err != nil {
			return n, fmt.Errorf("append events %d to %d: %w", have+1, have+len(evs), err)
		}
		have += len(evs)
		n += len(evs)
	}
}
