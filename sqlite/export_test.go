package sqlite

import "context"

// Pragma returns the value of a pragma on the store's write connection
// and on one of its read connections.
func Pragma(s *Store, name string) (w, r string, err error) {
	ctx := context.Background()
	if err := s.w.QueryRowContext(ctx, "PRAGMA "+name).Scan(&w); err != nil {
		return "", "", err
	}
	if err := s.r.QueryRowContext(ctx, "PRAGMA "+name).Scan(&r); err != nil {
		return "", "", err
	}
	return w, r, nil
}
