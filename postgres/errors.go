package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"fray"
)

// The SQLSTATE codes the store tells apart (PostgreSQL's appendix
// "PostgreSQL Error Codes").
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	codeReadOnly            = "25006" // read_only_sql_transaction: a standby
	codeDiskFull            = "53100"
	codeDeadlock            = "40P01" // deadlock_detected: the victim's work is rolled back
	codeSerialization       = "40001" // serialization_failure: likewise
	classProgramLimit       = "54"    // program_limit_exceeded and its kin
)

// pgCode returns the SQLSTATE of the PostgreSQL error err wraps, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// mapErr returns err, met doing action, as the store reports it:
// refusals (a *fray.Error already) unchanged; a full disk as an
// ESTORAGEFULL *fray.Error and a write past one of PostgreSQL's own limits
// as an ETOOLARGE one, with nothing written either way; a failure once
// ctx is done wrapping ctx.Err(); anything else wrapped with the action.
func mapErr(ctx context.Context, action string, err error) error {
	var fe *fray.Error
	if errors.As(err, &fe) {
		return err
	}
	code := pgCode(err)
	switch {
	case code == codeDiskFull:
		return &fray.Error{Code: fray.ESTORAGEFULL, Message: "The database server's disk is full: nothing was written.", Err: fmt.Errorf("%s: %w", action, err)}
	case len(code) == 5 && code[:2] == classProgramLimit:
		return &fray.Error{Code: fray.ETOOLARGE, Message: "The write is larger than the database allows: nothing was written.", Err: fmt.Errorf("%s: %w", action, err)}
	}
	return ctxErr(ctx, action, err)
}

// ctxErr wraps err, met doing action, with the action, and with ctx.Err()
// too when ctx is done and err does not say so already: a query cut short
// by a done context may fail with a network error.
func ctxErr(ctx context.Context, action string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%s: %w (%w)", action, cerr, err)
	}
	return fmt.Errorf("%s: %w", action, err)
}
