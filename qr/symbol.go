package qr

// newSymbol returns a symbol of version v with its function patterns
// drawn and the format and version areas reserved.
func newSymbol(v int) *Symbol {
	size := 17 + 4*v
	s := &Symbol{Version: v, Size: size, modules: make([]bool, size*size)}
	s.fnMap = make([]bool, size*size)
	for i := range size { // timing patterns
		s.setFn(6, i, i%2 == 0)
		s.setFn(i, 6, i%2 == 0)
	}
	s.finder(3, 3)
	s.finder(size-4, 3)
	s.finder(3, size-4)
	if v >= 2 {
		centres := alignment[v-1]
		last := len(centres) - 1
		for i, y := range centres {
			for j, x := range centres {
				if i == 0 && j == 0 || i == 0 && j == last || i == last && j == 0 {
					continue // under a finder
				}
				s.alignmentAt(x, y)
			}
		}
	}
	s.format(0) // reserves the format areas; drawn again with the mask
	if v >= 7 {
		s.version()
	}
	return s
}

func (s *Symbol) setFn(x, y int, dark bool) {
	s.modules[y*s.Size+x] = dark
	s.fnMap[y*s.Size+x] = true
}

// finder draws a finder pattern centred on (x, y) with its light
// separator.
func (s *Symbol) finder(x, y int) {
	for dy := -4; dy <= 4; dy++ {
		for dx := -4; dx <= 4; dx++ {
			xx, yy := x+dx, y+dy
			if xx < 0 || yy < 0 || xx >= s.Size || yy >= s.Size {
				continue
			}
			d := max(abs(dx), abs(dy))
			s.setFn(xx, yy, d != 2 && d != 4)
		}
	}
}

func (s *Symbol) alignmentAt(x, y int) {
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			s.setFn(x+dx, y+dy, max(abs(dx), abs(dy)) != 1)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// format draws the format information of level M and mask, twice, and the
// dark module beside it.
func (s *Symbol) format(mask int) {
	data := 0b00<<3 | mask // level M is 00
	rem := data
	for range 10 {
		rem = rem<<1 ^ (rem>>9)*0x537
	}
	bits := (data<<10 | rem) ^ 0x5412
	bit := func(i int) bool { return bits>>i&1 == 1 }
	for i := range 6 {
		s.setFn(8, i, bit(i))
	}
	s.setFn(8, 7, bit(6))
	s.setFn(8, 8, bit(7))
	s.setFn(7, 8, bit(8))
	for i := 9; i < 15; i++ {
		s.setFn(14-i, 8, bit(i))
	}
	for i := range 8 {
		s.setFn(s.Size-1-i, 8, bit(i))
	}
	for i := 8; i < 15; i++ {
		s.setFn(8, s.Size-15+i, bit(i))
	}
	s.setFn(8, s.Size-8, true)
}

// version draws the version information of versions 7 and up, twice.
func (s *Symbol) version() {
	rem := s.Version
	for range 12 {
		rem = rem<<1 ^ (rem>>11)*0x1F25
	}
	bits := s.Version<<12 | rem
	for i := range 18 {
		dark := bits>>i&1 == 1
		a, b := s.Size-11+i%3, i/3
		s.setFn(a, b, dark)
		s.setFn(b, a, dark)
	}
}

// place lays the codewords in the modules the function patterns leave,
// in the standard's zigzag from the bottom right, masked by mask, and
// draws the format information of that mask.
func (s *Symbol) place(words []byte, mask int) {
	i := 0
	for right := s.Size - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5 // the vertical timing pattern
		}
		upward := (right+1)&2 == 0
		for vert := range s.Size {
			y := vert
			if upward {
				y = s.Size - 1 - vert
			}
			for j := range 2 {
				x := right - j
				if s.fnMap[y*s.Size+x] {
					continue
				}
				dark := false
				if i < len(words)*8 {
					dark = words[i>>3]>>(7-i&7)&1 == 1
					i++
				}
				s.modules[y*s.Size+x] = dark != masked(mask, x, y)
			}
		}
	}
	s.Mask = mask
	s.format(mask)
}

// masked reports whether mask inverts the module at (x, y).
func masked(mask, x, y int) bool {
	switch mask {
	case 0:
		return (x+y)%2 == 0
	case 1:
		return y%2 == 0
	case 2:
		return x%3 == 0
	case 3:
		return (x+y)%3 == 0
	case 4:
		return (x/3+y/2)%2 == 0
	case 5:
		return x*y%2+x*y%3 == 0
	case 6:
		return (x*y%2+x*y%3)%2 == 0
	default:
		return ((x+y)%2+x*y%3)%2 == 0
	}
}

// penalty scores the symbol by the standard's four rules: runs of five or
// more alike, 2×2 blocks alike, finder-like patterns, and the share of
// dark modules away from half. The mask with the lowest score is kept.
func (s *Symbol) penalty() int {
	n := s.Size
	score := 0
	at := func(x, y int, cols bool) bool {
		if cols {
			return s.Dark(y, x)
		}
		return s.Dark(x, y)
	}
	for _, cols := range []bool{false, true} {
		for y := range n {
			run := 1
			for x := 1; x <= n; x++ {
				if x < n && at(x, y, cols) == at(x-1, y, cols) {
					run++
					continue
				}
				if run >= 5 {
					score += 3 + run - 5
				}
				run = 1
			}
			for x := 0; x+11 <= n+4; x++ {
				// 1:1:3:1:1 with four light modules on either side (the
				// quiet zone counts as light).
				if finderLike(func(i int) bool { return at(x+i-4, y, cols) }) {
					score += 40
				}
			}
		}
	}
	dark := 0
	for y := range n {
		for x := range n {
			d := s.Dark(x, y)
			if d {
				dark++
			}
			if x+1 < n && y+1 < n && d == s.Dark(x+1, y) && d == s.Dark(x, y+1) && d == s.Dark(x+1, y+1) {
				score += 3
			}
		}
	}
	// 10 points for each whole 5% the dark share is away from 50%.
	score += 10 * (abs(dark*100/(n*n)-50) / 5)
	return score
}

// finderLike reports whether the 11 modules at(0…10) read 00001011101 or
// 10111010000.
func finderLike(at func(int) bool) bool {
	const a, b = "00001011101", "10111010000"
	ma, mb := true, true
	for i := range 11 {
		c := byte('0')
		if at(i) {
			c = '1'
		}
		ma = ma && a[i] == c
		mb = mb && b[i] == c
	}
	return ma || mb
}

// drop forgets the function map, which only drawing needs.
func (s *Symbol) drop() { s.fnMap = nil }
