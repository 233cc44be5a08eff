package pp

import "fray/dice"

// Playback is Pool.playback, for the package's external tests.
func (p Pool) Playback(fs []int, swing bool) (successes, used int, err error) {
	return p.playback(fs, swing)
}

// RollSome is Pool.Roll without its check that every face was used.
func (p Pool) RollSome(src dice.Source, swing bool) (*PoolResult, error) { return p.roll(src, swing) }
