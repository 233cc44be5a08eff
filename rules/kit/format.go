package kit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"fray/dice"
)

// Band is one row of a table of odds: an outcome, its probability and a
// note.
type Band struct {
	Name string
	P    float64
	Note string
}

// Table writes rows as lines of a table: name, percentage, a bar scaled to
// the likeliest row, note.
func Table(b *strings.Builder, rows []Band) {
	w, peak := 0, 0.0
	for _, r := range rows {
		w = max(w, len([]rune(r.Name)))
		peak = max(peak, r.P)
	}
	for _, r := range rows {
		pad := strings.Repeat(" ", w-len([]rune(r.Name)))
		line := fmt.Sprintf("  %s%s  %8s  %-40s", r.Name, pad, Pct(r.P), Bar(r.P, peak, 40))
		if r.Note != "" {
			line += "  " + r.Note
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// TailCut is the probability under which a table of odds may leave out
// the values at either end of a distribution.
const TailCut = 1e-6

// Pct formats a probability as a percentage with three decimals, or in
// scientific notation when it is too small for that.
func Pct(p float64) string {
	switch {
	case p == 0:
		return "0%"
	case p < 5e-6:
		return fmt.Sprintf("%.2g%%", p*100)
	default:
		return fmt.Sprintf("%.3f%%", p*100)
	}
}

// Bar draws p as a horizontal bar, width cells for peak, in eighths.
func Bar(p, peak float64, width int) string {
	if peak <= 0 {
		return ""
	}
	eighths := int(math.Round(p / peak * float64(width*8)))
	if eighths == 0 && p > 0 {
		eighths = 1
	}
	parts := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + parts[eighths%8]
}

// Dice writes dice as rolled, separated by spaces: exploded dice marked
// "!", dice stopped by the depth limit "^"; rerolled dice are left out.
func Dice(ds []dice.Die) string {
	var parts []string
	for _, d := range ds {
		if d.Rerolled {
			continue
		}
		s := strconv.Itoa(d.Face)
		if d.Exploded {
			s += "!"
		}
		if d.Capped {
			s += "^"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// Signed writes "+ n" or "− n", to follow a sum.
func Signed(n int) string {
	if n < 0 {
		return "− " + strconv.Itoa(-n)
	}
	return "+ " + strconv.Itoa(n)
}

// Mixed returns a dice source that plays back the faces given at the
// table, fixed[i] for the i-th die where it is above 0, and rolls the
// others from src.
func Mixed(fixed []int, src dice.Source) dice.Source {
	return &mixed{fixed: fixed, src: src}
}

type mixed struct {
	fixed []int
	next  int
	src   dice.Source
}

// IntN returns the next given face minus one, or a roll from src.
func (m *mixed) IntN(n int) int {
	i := m.next
	m.next++
	if i < len(m.fixed) && m.fixed[i] > 0 {
		return m.fixed[i] - 1
	}
	return m.src.IntN(n)
}

// FixedDist returns the exact distribution of notation, a system's own
// fixed dice such as "2d6", to work out once when the package loads. It
// panics when notation does not parse or has no distribution: a mistake
// in the system's code, not in anything a user typed.
func FixedDist(notation string) *dice.Dist {
	e, err := dice.Parse(notation)
	if err != nil {
		panic(err)
	}
	d, err := e.Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	return d
}
