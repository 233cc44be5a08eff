package sqlite

import (
	"context"
	"fmt"
)

// usageQuery reads the count and the pages in one statement, so in one
// snapshot: they agree.
const usageQuery = `SELECT
	(SELECT count(*) FROM encounters),
	(SELECT page_count FROM pragma_page_count()),
	(SELECT freelist_count FROM pragma_freelist_count()),
	(SELECT page_size FROM pragma_page_size())`

// Usage reports the number of encounters and the bytes of the database
// file in use: its pages less the free ones, times the page size, which
// counts every table and index as the file holds them, the pages not yet
// checkpointed from the WAL included; see fray.Store. The pages cost
// nothing to read; the encounters are counted on the smallest index of
// their table, a few milliseconds per hundred thousand.
func (s *Store) Usage(ctx context.Context) (encounters int, bytes int64, err error) {
	if s.isClosed() {
		return 0, 0, fmt.Errorf("usage: %w", errClosed)
	}
	var pages, free, size int64
	if err := s.r.QueryRowContext(ctx, usageQuery).Scan(&encounters, &pages, &free, &size); err != nil {
		return 0, 0, fmt.Errorf("usage: %w", err)
	}
	return encounters, (pages - free) * size, nil
}
