// Package qr draws QR codes (ISO/IEC 18004), so that the page can show a
// player link as a code a phone camera opens, with no network service and
// no library: text in byte mode, error correction level M (a code stays
// readable with up to 15% of it damaged or glared), versions 1 to 10.
//
// Encode returns the symbol as a grid of modules; Symbol.SVG and
// Symbol.Lines draw it for a page and for a terminal.
package qr

import (
	"errors"
	"fmt"
)

// MaxText is the most bytes Encode takes: what a version 10 symbol at level
// M holds in byte mode. A player link is about 120 bytes.
const MaxText = 213

// ErrTooLong is the error for text over MaxText bytes.
var ErrTooLong = errors.New("qr: text too long")

// Symbol is a QR code: Size×Size modules, true for dark.
type Symbol struct {
	// Version is the symbol's version, 1 to 10: its size is 17 + 4×Version.
	Version int
	// Size is the width and height in modules, without the quiet zone.
	Size int
	// Mask is the data mask chosen, 0 to 7.
	Mask    int
	modules []bool
	// fnMap marks the modules of the function patterns (finders, timing,
	// alignment, format and version information) while the symbol is
	// drawn: the data goes around them.
	fnMap []bool
}

// Dark reports whether the module in row y, column x is dark; outside the
// symbol (its quiet zone) every module is light.
func (s *Symbol) Dark(x, y int) bool {
	if x < 0 || y < 0 || x >= s.Size || y >= s.Size {
		return false
	}
	return s.modules[y*s.Size+x]
}

// block describes the error correction blocks of one version at level M:
// ec codewords per block, then the count and data codewords of each group.
type block struct{ ec, n1, d1, n2, d2 int }

// levelM lists versions 1 to 10 at level M (ISO/IEC 18004, table 9).
var levelM = [...]block{
	{10, 1, 16, 0, 0},
	{16, 1, 28, 0, 0},
	{26, 1, 44, 0, 0},
	{18, 2, 32, 0, 0},
	{24, 2, 43, 0, 0},
	{16, 4, 27, 0, 0},
	{18, 4, 31, 0, 0},
	{22, 2, 38, 2, 39},
	{22, 3, 36, 2, 37},
	{26, 4, 43, 1, 44},
}

// alignment lists the centres of the alignment patterns of versions 2 to 10.
var alignment = [...][]int{
	nil, {6, 18}, {6, 22}, {6, 26}, {6, 30}, {6, 34},
	{6, 22, 38}, {6, 24, 42}, {6, 26, 46}, {6, 28, 50},
}

func (b block) data() int { return b.n1*b.d1 + b.n2*b.d2 }

// countBits is the width of byte mode's character count in version v.
func countBits(v int) int {
	if v <= 9 {
		return 8
	}
	return 16
}

// Encode returns the smallest symbol that holds text, with the mask that
// the standard's penalty rules prefer. Text over MaxText bytes is
// ErrTooLong.
func Encode(text string) (*Symbol, error) {
	if len(text) > MaxText {
		return nil, fmt.Errorf("%w: %d bytes, more than %d (MaxText)", ErrTooLong, len(text), MaxText)
	}
	v := 1
	for ; v <= len(levelM); v++ {
		if 4+countBits(v)+8*len(text) <= 8*levelM[v-1].data() {
			break
		}
	}
	if v > len(levelM) {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLong, len(text))
	}
	words := codewords(v, text)
	best, bestScore := (*Symbol)(nil), 0
	for mask := range 8 {
		s := newSymbol(v)
		s.place(words, mask)
		if score := s.penalty(); best == nil || score < bestScore {
			best, bestScore = s, score
		}
	}
	best.drop()
	return best, nil
}

// codewords returns the data of text in version v, with its error
// correction, interleaved as the symbol holds them.
func codewords(v int, text string) []byte {
	b := levelM[v-1]
	var bits bitBuffer
	bits.put(0b0100, 4) // byte mode
	bits.put(len(text), countBits(v))
	for i := 0; i < len(text); i++ {
		bits.put(int(text[i]), 8)
	}
	capacity := 8 * b.data()
	bits.put(0, min(4, capacity-bits.n)) // terminator
	bits.put(0, (8-bits.n%8)%8)
	for pad := 0xEC; bits.n < capacity; pad ^= 0xEC ^ 0x11 {
		bits.put(pad, 8)
	}
	data := bits.bytes
	var blocks, ecs [][]byte
	for i := range b.n1 + b.n2 {
		n := b.d1
		if i >= b.n1 {
			n = b.d2
		}
		blocks = append(blocks, data[:n])
		ecs = append(ecs, reedSolomon(data[:n], b.ec))
		data = data[n:]
	}
	var out []byte
	for i := range max(b.d1, b.d2) {
		for _, blk := range blocks {
			if i < len(blk) {
				out = append(out, blk[i])
			}
		}
	}
	for i := range b.ec {
		for _, ec := range ecs {
			out = append(out, ec[i])
		}
	}
	return out
}

// bitBuffer collects bits, most significant first.
type bitBuffer struct {
	bytes []byte
	n     int
}

func (b *bitBuffer) put(v, width int) {
	for i := width - 1; i >= 0; i-- {
		if b.n%8 == 0 {
			b.bytes = append(b.bytes, 0)
		}
		if v>>i&1 == 1 {
			b.bytes[len(b.bytes)-1] |= 0x80 >> (b.n % 8)
		}
		b.n++
	}
}
