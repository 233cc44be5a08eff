package engine

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"fray"
	"fray/dice"
)

// Option keys for physical dice, accepted by every command that rolls.
const (
	// OptDice gives the faces the physical dice showed, in order: dice=6,3.
	OptDice = "dice"
	// OptRoll gives only the total the physical dice showed: roll=14. The
	// total is of the dice alone; the rules add modifiers to it as usual.
	OptRoll = "roll"
)

// MaxPhysicalDice is the most faces one dice= option may list.
const MaxPhysicalDice = 100

// roller is the fray.Roller the engine gives a command.
type roller struct {
	rng      *rand.Rand
	faces    []int
	total    int
	physical string // "", OptDice or OptRoll: what the command gave
	spec     string // the option as written, for messages
	used     int    // rolls made
	src      *dice.FaceSource
}

// newRoller takes dice= and roll= out of cmd and returns a roller that
// uses them, and the command without them.
func newRoller(rng *rand.Rand, cmd fray.Command) (*roller, fray.Command, error) {
	r := &roller{rng: rng}
	d, hasDice := cmd.Opts[OptDice]
	t, hasRoll := cmd.Opts[OptRoll]
	if !hasDice && !hasRoll {
		return r, cmd, nil
	}
	if hasDice && hasRoll {
		return nil, cmd, fray.Errorf(fray.EINVALID, "Give either dice= (the faces) or roll= (their total), not both.")
	}
	opts := make(map[string]string, len(cmd.Opts))
	for k, v := range cmd.Opts {
		if k != OptDice && k != OptRoll {
			opts[k] = v
		}
	}
	cmd.Opts = opts
	if hasDice {
		faces, err := ParseFaces(d)
		if err != nil {
			return nil, cmd, err
		}
		r.faces, r.physical, r.spec = faces, OptDice, "dice="+d
		return r, cmd, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(t))
	if err != nil {
		return nil, cmd, fray.Errorf(fray.EINVALID, "roll=%s is not a whole number; give the total the dice showed, such as roll=14.", t)
	}
	r.total, r.physical, r.spec = n, OptRoll, "roll="+t
	return r, cmd, nil
}

// ParseFaces parses a list of physical faces such as "6,3".
func ParseFaces(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > MaxPhysicalDice {
		return nil, fray.Errorf(fray.ETOOLARGE, "dice=%s lists %d dice; the limit (MaxPhysicalDice) is %d.", clip(s), len(parts), MaxPhysicalDice)
	}
	faces := make([]int, 0, len(parts))
	for _, p := range parts {
		f, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || f < 1 || f > 1000 {
			return nil, fray.Errorf(fray.EINVALID, "dice=%s: %q is not a die face; list the faces the dice showed, such as dice=6,3.", clip(s), clip(p))
		}
		faces = append(faces, f)
	}
	return faces, nil
}

// clip is Clip, for this package's messages.
func clip(s string) string { return Clip(s) }

// Roll rolls expr with the physical dice the command gave, if any, and
// with the seeded source otherwise.
func (r *roller) Roll(forWhom, expr string) (fray.Roll, error) {
	r.used++
	if r.physical == OptRoll && r.used > 1 {
		return fray.Roll{}, fray.Errorf(fray.EINVALID, "%s gives the total of one roll, but this command rolls more than once; give every face in order with dice= (or, for initiative, enter each combatant's dice with initiative NAME DIE first).", r.spec)
	}
	switch r.physical {
	case OptDice:
		// The faces serve the command's rolls in order: an attack and the
		// block it sets off take dice=3,2,6,4.
		return r.nextFaces(forWhom, expr)
	case OptRoll:
		return RollTotal(forWhom, expr, r.total)
	}
	return RollSeeded(forWhom, expr, r.rng)
}

// nextFaces rolls expr with the next of the physical faces given.
func (r *roller) nextFaces(forWhom, expr string) (fray.Roll, error) {
	x, err := parseExpr(expr)
	if err != nil {
		return fray.Roll{}, err
	}
	if r.src == nil {
		r.src = dice.Faces(r.faces...)
	}
	res, err := x.Roll(r.src)
	if err != nil {
		return fray.Roll{}, &fray.Error{Code: fray.EINVALID, Message: "The dice " + joinInts(r.faces) + " do not fit the command's rolls (" + x.String() + " for " + forWhom + "): " + err.Error() + ".", Err: err, Names: []string{forWhom}}
	}
	return fray.Roll{For: forWhom, Expr: res.Expr, Dice: faces(res), Total: res.Total, Source: fray.RollFaces}, nil
}

// FacesLeft returns how many of the faces the command gave (dice=) no
// roll has used yet; 0 when it gave none. A system may read it through
// a fray.Roller (interface{ FacesLeft() int }) to say why faces are too
// many before the engine says only that they are.
func (r *roller) FacesLeft() int {
	switch {
	case r.physical != OptDice:
		return 0
	case r.src == nil:
		return len(r.faces)
	}
	return r.src.Unused()
}

// finish reports physical dice the command gave but did not use.
func (r *roller) finish(name string) error {
	if r.physical != "" && r.used == 0 {
		return fray.Errorf(fray.EINVALID, "%s rolls no dice here, so %s has nothing to give; leave it out.", name, r.spec)
	}
	if r.src != nil && r.src.Unused() > 0 {
		return fray.Errorf(fray.EINVALID, "%s gives %d more dice than %s rolls.", r.spec, r.src.Unused(), name)
	}
	return nil
}

// exprCache keeps the parsed expressions systems roll again and again
// ("2d6+7"), up to maxCached of them; a parsed expression is never
// changed, so one may serve every roll.
var (
	exprCache  sync.Map // string → *dice.Expr
	exprCached atomic.Int32
)

const maxCached = 4096

func parseExpr(expr string) (*dice.Expr, error) {
	if x, ok := exprCache.Load(expr); ok {
		return x.(*dice.Expr), nil
	}
	x, err := dice.Parse(expr)
	if err != nil {
		return nil, &fray.Error{Code: fray.EINVALID, Message: "The dice expression " + strconv.Quote(expr) + " is not valid.", Err: err}
	}
	if len(expr) <= 64 && exprCached.Load() < maxCached {
		if _, loaded := exprCache.LoadOrStore(expr, x); !loaded {
			exprCached.Add(1)
		}
	}
	return x, nil
}

// RollSeeded rolls expr with src and records every face.
func RollSeeded(forWhom, expr string, src dice.Source) (fray.Roll, error) {
	x, err := parseExpr(expr)
	if err != nil {
		return fray.Roll{}, err
	}
	roll := fray.Roll{For: forWhom, Source: fray.RollSeeded}
	if err := x.RollWith(src, func(res *dice.Result) {
		roll.Expr, roll.Dice, roll.Total = res.Expr, faces(res), res.Total
	}); err != nil {
		return fray.Roll{}, &fray.Error{Code: fray.EINTERNAL, Message: "The dice could not be rolled.", Err: err}
	}
	return roll, nil
}

// RollFaces plays back the faces of physical dice for expr. The faces must
// be exactly the ones the expression rolls, in order.
func RollFaces(forWhom, expr string, fs []int) (fray.Roll, error) {
	x, err := parseExpr(expr)
	if err != nil {
		return fray.Roll{}, err
	}
	src := dice.Faces(fs...)
	res, err := x.Roll(src)
	if err != nil {
		return fray.Roll{}, &fray.Error{Code: fray.EINVALID, Message: "The dice " + joinInts(fs) + " do not fit " + x.String() + ": " + err.Error() + ".", Err: err}
	}
	if n := src.Unused(); n > 0 {
		return fray.Roll{}, fray.Errorf(fray.EINVALID, "The dice %s are %d more than %s rolls.", joinInts(fs), n, x.String())
	}
	return fray.Roll{For: forWhom, Expr: res.Expr, Dice: faces(res), Total: res.Total, Source: fray.RollFaces}, nil
}

// RollTotal records the total of physical dice for expr, which must be a
// plain NdS roll whose range holds the total.
func RollTotal(forWhom, expr string, total int) (fray.Roll, error) {
	x, err := parseExpr(expr)
	if err != nil {
		return fray.Roll{}, err
	}
	n, s, ok := plainPool(x.String())
	if !ok {
		return fray.Roll{}, fray.Errorf(fray.EINVALID, "roll= gives a total only for plain rolls such as 2d6; for %s give the faces with dice=.", x.String())
	}
	if total < n || total > n*s {
		return fray.Roll{}, fray.Errorf(fray.EINVALID, "roll=%d cannot come from %s, which gives %d to %d.", total, x.String(), n, n*s)
	}
	return fray.Roll{For: forWhom, Expr: x.String(), Total: total, Source: fray.RollTotal}, nil
}

// plainPool recognises "NdS" (N may be absent) and returns N and S.
func plainPool(s string) (n, sides int, ok bool) {
	a, b, found := strings.Cut(s, "d")
	if !found {
		return 0, 0, false
	}
	n = 1
	if a != "" {
		v, err := strconv.Atoi(a)
		if err != nil || v < 1 {
			return 0, 0, false
		}
		n = v
	}
	v, err := strconv.Atoi(b)
	if err != nil || v < 1 {
		return 0, 0, false
	}
	return n, v, true
}

// faces lists every physical face of a result in the order rolled.
func faces(res *dice.Result) []int {
	out := make([]int, 0, len(res.Dice))
	for _, d := range res.Dice {
		if len(d.Rolls) > 0 {
			out = append(out, d.Rolls...)
		} else {
			out = append(out, d.Face)
		}
	}
	return out
}

func joinInts(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}
