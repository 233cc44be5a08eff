package kit

import "strconv"

// Count says n of a thing: "1 point", "3 points", "0 points"; one and
// many are the thing's words for one and for any other number.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
