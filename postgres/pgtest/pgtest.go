// Package pgtest gives each test of fray's PostgreSQL store a database of
// its own, on the server the environment variable FRAY_TEST_POSTGRES names
// (./scripts/test starts a throwaway one and sets it). Without the
// variable a test is skipped, or fails when CI=true.
package pgtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the environment variable that holds the URL of the server
// the tests use, such as
// postgres://postgres:secret@127.0.0.1:5432/postgres?sslmode=disable: a
// user there who may CREATE DATABASE.
const EnvURL = "FRAY_TEST_POSTGRES"

// Budgets of the database a test gets.
const (
	// SetupTimeout bounds creating the database, and dropping it.
	SetupTimeout = 2 * time.Minute
)

// ServerURL returns the URL in FRAY_TEST_POSTGRES. When it is unset it
// skips the test with a message saying how to get a server, and fails it
// instead when the environment variable CI is "true".
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u != "" {
		return u
	}
	const how = EnvURL + " is not set: ./scripts/test starts a throwaway PostgreSQL and sets it; or set it to the URL of a server " +
		"where you may CREATE DATABASE, such as postgres://postgres:secret@127.0.0.1:5432/postgres?sslmode=disable"
	if os.Getenv("CI") == "true" {
		t.Fatal(how + " (CI=true: the PostgreSQL tests must run)")
	}
	t.Skip(how)
	return ""
}

// NewDatabase creates a database with a random name on the server of
// ServerURL, drops it when the test ends (closing the connections left
// to it), and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	server := ServerURL(t)
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s does not parse as a URL: %v", EnvURL, err)
	}
	name := "fray_test_" + strings.ToLower(rand.Text())
	ctx, cancel := context.WithTimeout(context.Background(), SetupTimeout)
	defer cancel()
	exec(t, ctx, server, `CREATE DATABASE `+name+` TEMPLATE template0 ENCODING 'UTF8'`)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), SetupTimeout)
		defer cancel()
		exec(t, ctx, server, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	})
	u.Path = "/" + name
	return u.String()
}

// exec runs one statement on a connection of its own to the server.
func exec(t testing.TB, ctx context.Context, server, sql string) {
	t.Helper()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("connect to the server of %s: %v", EnvURL, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		if ctx.Err() != nil {
			t.Fatalf("%s: not done within %v (SetupTimeout): %v", sql, SetupTimeout, err)
		}
		t.Fatalf("%s: %v", sql, err)
	}
}
