package kit

// BandP returns the probability of band b among the bands of a roll's
// odds, 0 for a band the roll cannot have: what the P method of each
// system's odds answers. of gives a band's name and probability.
func BandP[T any, B comparable](bands []T, b B, of func(T) (B, float64)) float64 {
	for _, x := range bands {
		if name, p := of(x); name == b {
			return p
		}
	}
	return 0
}
