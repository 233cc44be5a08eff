package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"fray"
)

var _ fray.Notifier = (*Store)(nil)

// notifyChannel is the PostgreSQL channel every append notifies, in its
// own transaction, with the payload "ID REVISION": at most MaxIDLen and
// seven digits, far within the 8000 bytes PostgreSQL allows.
const notifyChannel = "fray_appends"

// listenApp is the application_name of a listening connection, as
// pg_stat_activity shows it.
const listenApp = "fray listen"

// Budgets of a listening connection (Store.Notify).
const (
	// ListenTimeout bounds connecting and starting to listen, and each
	// check that a quiet connection is alive.
	ListenTimeout = 10 * time.Second
	// ListenCheck is how long a listening connection may stay quiet
	// before it is checked, so that one lost without a word (a dead
	// network) is found and replaced.
	ListenCheck = 30 * time.Second
	// ListenRetryMin is the wait before connecting again after the
	// listening connection is lost; each failure doubles it up to
	// ListenRetryMax, and a connection made resets it.
	ListenRetryMin = 100 * time.Millisecond
	// ListenRetryMax is the longest wait between two attempts to connect.
	ListenRetryMax = 5 * time.Second
	// NoticeBuffer is how many notices a channel of Notify holds for a
	// reader; past them the notifier waits, and PostgreSQL keeps the
	// notifications meanwhile.
	NoticeBuffer = 1024
)

// Notify announces appends by every server on the database; see
// fray.Notifier. Each append notifies in the transaction that writes it,
// so PostgreSQL delivers the notification only once the append has
// committed, in the order of the commits. Each call holds one connection
// of its own, outside the pool, that LISTENs; when it is lost, Notify
// connects again with a growing wait (ListenRetryMin to ListenRetryMax),
// then sends a notice for every encounter, since appends may have been
// missed meanwhile. The first notice is such a notice too, sent once the
// connection listens. Failures to connect are logged to slog.Default().
func (s *Store) Notify(ctx context.Context) (<-chan fray.Notice, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return nil, fmt.Errorf("notify: %w", errClosed)
	}
	ch := make(chan fray.Notice, NoticeBuffer)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.stopping, cancel)
	s.listeners.Add(1)
	go func() {
		defer s.listeners.Done()
		defer close(ch)
		defer stop()
		defer cancel()
		s.listen(ctx, ch)
	}()
	return ch, nil
}

// listen keeps a listening connection until ctx is done, relaying its
// notifications to ch.
func (s *Store) listen(ctx context.Context, ch chan<- fray.Notice) {
	wait := ListenRetryMin
	for {
		conn, err := s.listenConn(ctx)
		if err == nil {
			wait = ListenRetryMin
			if send(ctx, ch, fray.Notice{}) {
				err = relay(ctx, conn, ch)
			}
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ListenTimeout)
			conn.Close(cctx)
			cancel()
		}
		if ctx.Err() != nil {
			return
		}
		slog.Warn("postgres: listen for appends; connecting again", "db", s.url, "in", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait = min(2*wait, ListenRetryMax)
	}
}

// listenConn connects to the database apart from the pool and LISTENs on
// notifyChannel, within ListenTimeout.
func (s *Store) listenConn(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, ListenTimeout)
	defer cancel()
	cfg := s.connCfg.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["application_name"] = listenApp
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, listenErr(ctx, "connect", err)
	}
	if _, err := conn.Exec(ctx, `LISTEN `+notifyChannel); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, listenErr(ctx, "listen", err)
	}
	return conn, nil
}

// listenErr wraps an error of the listening connection's setup, naming
// ListenTimeout when that is what ended it.
func listenErr(ctx context.Context, action string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s: not done within %v (ListenTimeout): %w", action, ListenTimeout, err)
	}
	return fmt.Errorf("%s: %w", action, err)
}

// relay sends the notifications conn receives to ch until ctx is done or
// the connection fails, checking a connection quiet for ListenCheck.
func relay(ctx context.Context, conn *pgx.Conn, ch chan<- fray.Notice) error {
	for {
		wctx, cancel := context.WithTimeout(ctx, ListenCheck)
		n, err := conn.WaitForNotification(wctx)
		quiet := wctx.Err() != nil
		cancel()
		switch {
		case err == nil:
			if !send(ctx, ch, parseNotice(n.Payload)) {
				return ctx.Err()
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case quiet && !conn.IsClosed():
			pctx, cancel := context.WithTimeout(ctx, ListenTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return listenErr(pctx, "check the listening connection", err)
			}
		default:
			return fmt.Errorf("wait for notifications: %w", err)
		}
	}
}

// send gives n to ch, waiting for room, unless ctx is done first.
func send(ctx context.Context, ch chan<- fray.Notice, n fray.Notice) bool {
	select {
	case ch <- n:
		return true
	case <-ctx.Done():
		return false
	}
}

// noticePayload is the payload of an append's notification.
func noticePayload(id string, revision int) string {
	return id + " " + strconv.Itoa(revision)
}

// parseNotice reads a notification's payload; one it cannot read (sent
// by someone else on the channel) stands for every encounter, which is
// always safe.
func parseNotice(payload string) fray.Notice {
	id, rev, ok := strings.Cut(payload, " ")
	n, err := strconv.Atoi(rev)
	if !ok || err != nil || n < 1 || fray.ValidateID(id) != nil {
		return fray.Notice{}
	}
	return fray.Notice{Encounter: id, Revision: n}
}
