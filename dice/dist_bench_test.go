package dice_test

import (
	"testing"

	"fray/dice"
)

// Run with: go test -run '^$' -bench Dist -benchmem ./dice
func benchDist(b *testing.B, src string, depth int) {
	e := dice.MustParse(src)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Dist(dice.DistOptions{Depth: depth}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDistPool200(b *testing.B)         { benchDist(b, "200d{0,1,0,1,0,2}", 0) }
func BenchmarkDistPool200Explode3(b *testing.B) { benchDist(b, "200d{0,1,0,1,0,2}!", 3) }
func BenchmarkDistOpposed50(b *testing.B) {
	benchDist(b, "50d{0,1,0,1,0,2}-50d{0,1,0,1,0,2}", 0)
}
func BenchmarkDist100d6kh50(b *testing.B)  { benchDist(b, "100d6kh50", 0) }
func BenchmarkDist4d6kh3(b *testing.B)     { benchDist(b, "4d6kh3", 0) }
func BenchmarkDist3d6Explode(b *testing.B) { benchDist(b, "3d6!", 0) }

// BenchmarkDistRefusal measures how fast an expression past the limits is
// refused: the work is estimated before any is done.
func BenchmarkDistRefusal(b *testing.B) {
	for _, src := range []string{"10000d100000", "1d100000*1d100000", "10000d1000!"} {
		e := dice.MustParse(src)
		b.Run(src, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Dist(dice.DistOptions{}); err == nil {
					b.Fatal("not refused")
				}
			}
		})
	}
}
