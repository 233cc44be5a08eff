package pp_test

import (
	"math/rand/v2"
	"testing"

	"fray/dice"
	"fray/rules/pp"
)

// Playback counts the same successes from the same faces as Roll, which
// plays them through package dice, and uses as many of them; the notation
// it reports (Pool.Expr) is the one package dice writes back.
func TestPlaybackAgreesWithRoll(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for i := range 20000 {
		p := pp.Pool{Dice: r.IntN(8), Modifier: r.IntN(9) - 4, Resolve: r.IntN(3), DefiningMoment: r.IntN(4) == 0, Explode: r.IntN(4) == 0, Reroll: r.IntN(4) == 0}
		if n := p.Count(); n > 0 && r.IntN(3) == 0 {
			p.SetAside = r.IntN(n + 1)
		}
		swing := r.IntN(2) == 0
		if p.Check() != nil {
			continue
		}
		fs := make([]int, 60)
		for j := range fs {
			fs[j] = 1 + r.IntN(6)
			if j%3 == 0 && r.IntN(2) == 0 {
				fs[j] = 6 // explosions, often
			}
		}
		src := dice.Faces(fs...)
		want, err := p.RollSome(src, swing)
		if err != nil {
			continue // 60 faces were not enough for a long explosion
		}
		got, used, err := p.Playback(fs, swing)
		if err != nil || got != want.Successes || used != len(fs)-src.Unused() {
			t.Fatalf("#%d %+v swing=%v faces %v: playback %d successes from %d faces (%v), Roll %d from %d", i, p, swing, fs, got, used, err, want.Successes, len(fs)-src.Unused())
		}
		if e, err := dice.Parse(p.Expr(swing)); err != nil || e.String() != p.Expr(swing) {
			t.Fatalf("%+v: Expr %q is written back as %v (%v)", p, p.Expr(swing), e, err)
		}
	}
	if _, _, err := (pp.Pool{Dice: 3}).Playback([]int{2, 6}, false); err == nil {
		t.Error("3 dice from 2 faces")
	}
	if _, _, err := (pp.Pool{Dice: 1}).Playback([]int{7}, false); err == nil {
		t.Error("a face of 7")
	}
}
