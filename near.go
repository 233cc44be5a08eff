package fray

import "strings"

// Nearest returns the word of words nearest to w without regard to case:
// one edit away for a word of four bytes or fewer, at most two for a
// longer one; "" when none is that near. It serves the "did you mean"
// of an unknown command word or name.
func Nearest(words []string, w string) string {
	w = strings.ToLower(w)
	best, bestD := "", 3
	if len(w) <= 4 {
		bestD = 2
	}
	for _, x := range words {
		if k := editDistance(w, strings.ToLower(x)); k < bestD {
			best, bestD = x, k
		}
	}
	return best
}

// editDistance returns the Levenshtein distance between a and b, in
// bytes; words longer than 64 bytes are far from every other.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
