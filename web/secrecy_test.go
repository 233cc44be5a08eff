package web_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"fray"
	"fray/engine"
	"fray/sheet"
)

// secrecyWords lists, per system, command lines (with A and B standing
// for combatants' names) that reach the system's own rules; the property
// test below plays them at random, refusals and all.
var secrecyWords = map[string][]string{
	"bpb":       {"distract A B", "check A agility", "attack A B rank=3 range=close with=punch", "block A", "take A", "take", "damage A 2", "heal A 1", "delay", "force A", "interrupt A", "next"},
	"queue":     {"act major", "act minor", "react A to=B", "attack A B with=sword", "damage A 2", "heal A 1", "check A vs=B", "injury A maimed", "next"},
	"vv":        {"move 3", "hold", "decline", "attack A B chance=12", "damage A 2", "heal A 1", "check A chance=40", "interrupt A B", "facing A B", "next"},
	"cinematic": {"attack B", "attack A B", "damage A 3", "heal A 2", "test A consciousness", "complication A down", "full defence A", "dodge A", "parry A", "take A", "next"},
	"pp":        {"check A might", "contest A B might", "damage A 1", "heal A 1", "assist A B", "spend A reroll", "defining A", "next"},
}

// secrecyStats gives an NPC of each system numbers that are its alone: n
// is unique to the NPC (901 to 999), so that any occurrence of it in what
// a player fetches is a leak of the NPC's sheet.
func secrecyStats(rules string, n int) string {
	switch rules {
	case "bpb":
		return fmt.Sprintf("endurance=%d agility=%d", n, n-1)
	case "queue":
		return fmt.Sprintf("hp=%d wits=%d", n, n-1)
	case "vv":
		return fmt.Sprintf("hp=%d strength=%d", n, n-1)
	case "cinematic":
		return fmt.Sprintf("strength=%d dexterity=%d", n, n-1)
	case "pp":
		return fmt.Sprintf("health=%d might=%d", n, n-1)
	}
	return ""
}

// foldForScan returns s folded and normalised (NFKC), as the scan reads
// both what a player fetched and the secrets it looks for, so that
// case-fold and compatibility variants of a secret count as the secret.
func foldForScan(s string) string {
	return strings.ToLower(strings.ToUpper(norm.NFKC.String(s)))
}

// TestSecrecyProperty plays random encounters in all five systems with
// hidden and visible NPCs, sheets (the examples' party and foes, brought
// in by an imported log), tracks, conditions, notes, reveals, renames,
// removals, undo and redo, and after every step fetches everything a
// player token can reach — the view, answers to commands and odds,
// refusals, the live stream and a stream resumed from the start — and
// scans every byte for every hidden combatant's id and name, and every
// name a combatant had while hidden that players never saw (folded and
// NFKC-normalised, so case-fold and compatibility variants count), and
// for every NPC's own numbers. Nothing may be found, and everything
// visible must be there.
func TestSecrecyProperty(t *testing.T) {
	steps := 70
	if testing.Short() {
		steps = 25
	}
	for _, rules := range []string{"bpb", "queue", "vv", "cinematic", "pp"} {
		for seed := range uint64(2) {
			t.Run(rules+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				secrecyRun(t, rules, seed, steps)
			})
		}
	}
}

type secrecyModel struct {
	ids        map[string]fray.CombatantID          // every name ever seen → its latest id
	goneSecret map[fray.CombatantID]string          // removed while hidden: id → name
	hiddenAs   map[fray.CombatantID]map[string]bool // every name a combatant had while hidden
	shownAs    map[fray.CombatantID]map[string]bool // every name a combatant had while players saw it
	numbers    map[int]bool                         // every NPC's own numbers
}

// see records the names the combatants of v have, hidden or shown.
func (m *secrecyModel) see(v fray.View) {
	for _, c := range v.Combatants {
		m.ids[c.Name] = c.ID
		at := m.shownAs
		if c.Hidden {
			at = m.hiddenAs
		}
		if at[c.ID] == nil {
			at[c.ID] = map[string]bool{}
		}
		at[c.ID][c.Name] = true
	}
}

// secrets returns what players may not learn when the GM's view is v,
// each word to look for with what it is: the ids and names of the hidden
// combatants, present or removed while hidden, and the names combatants
// had while hidden that players never saw them under.
func (m *secrecyModel) secrets(v fray.View) map[string]string {
	m.see(v)
	out := map[string]string{}
	for id, n := range m.goneSecret {
		out[string(id)], out[n] = "the id of the removed "+n, "the removed "+n
	}
	for _, c := range v.Combatants {
		if c.Hidden {
			out[string(c.ID)], out[c.Name] = "the id of the hidden "+c.Name, "the hidden "+c.Name
		}
	}
	for id, names := range m.hiddenAs {
		for n := range names {
			if !m.shownAs[id][n] {
				out[n] = "a name " + string(id) + " had while hidden"
			}
		}
	}
	return out
}

// renumber gives a foe loaded from a sheet numbers that are its alone
// (from *next on, as secrecyStats does for added NPCs), so that a scan can
// tell them anywhere: its stats and tracks, at most six of them.
func renumber(rules string, c *fray.Combatant, next *int, m *secrecyModel) {
	n := 0
	take := func() int {
		v := *next
		*next++
		m.numbers[v] = true
		n++
		return v
	}
	// Only the stats an added NPC gets numbers of its own for (see
	// secrecyStats): others, such as vv's Agility or pp's edge, set the
	// order of play, which everyone sees.
	for _, k := range sortedKeys(c.Stats) {
		if n < 3 && strings.Contains(secrecyStats(rules, 0), k+"=") {
			c.Stats[k] = take()
		}
	}
	for _, k := range sortedKeys(c.Tracks) {
		if n < 6 {
			v := take()
			c.Tracks[k] = fray.Track{Value: v, Max: v}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sheetLog returns an exported log of an encounter under rules with Pat
// and Robin and the examples' party and foes, renamed to names of rare
// letters (so that a scan for one never finds another) and the foes
// hidden but the first, each with numbers of its own (see renumber).
func sheetLog(t *testing.T, rules string, rng *rand.Rand, next *int, m *secrecyModel) []byte {
	t.Helper()
	eng := engine.New(systems[rules](), rand.New(rand.NewPCG(5, 5)))
	if _, err := eng.Do(fray.Command{Name: "add", Args: []string{"Pat"}, Opts: map[string]string{"side": "pc"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Do(fray.Command{Name: "add", Args: []string{"Robin"}, Opts: map[string]string{"side": "pc"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ file, side string }{{"party", fray.SidePC}, {"foes", fray.SideNPC}} {
		cs, err := sheet.Load("../examples/"+rules+"-"+f.file+".yaml", eng.System(), f.side)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) > 3 {
			cs = cs[:3]
		}
		for i := range cs {
			name := newName(rng)
			for clash(name, m.ids) {
				name = newName(rng)
			}
			m.ids[name] = ""
			cs[i].Name = name
			if !cs[i].IsPC() {
				cs[i].Hidden = i > 0
				renumber(rules, &cs[i], next, m)
			}
		}
		if _, err := eng.Join(cs); err != nil {
			t.Fatalf("%s %s: %v", rules, f.file, err)
		}
	}
	var b bytes.Buffer
	if err := eng.Export(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func secrecyRun(t *testing.T, rules string, seed uint64, steps int) {
	e := start(t, nil)
	rng := rand.New(rand.NewPCG(seed, 99))
	m := &secrecyModel{ids: map[string]fray.CombatantID{}, goneSecret: map[fray.CombatantID]string{},
		hiddenAs: map[fray.CombatantID]map[string]bool{}, shownAs: map[fray.CombatantID]map[string]bool{}, numbers: map[int]bool{}}
	pool := []string{"Qorvath", "Zelmira", "Xantor", "Vhiskel", "Mordrax", "Ynnefel", "Kestrith", "Wulfgarn"}
	next := 901
	// Odd seeds begin from sheets, brought in by an imported log; even
	// ones from an empty encounter.
	var enc created
	rev := 0
	if seed%2 == 1 {
		r := e.do(t, "POST", "/api/encounters/import?name=Secrecy", "", sheetLog(t, rules, rng, &next, m))
		if r.Status != http.StatusCreated {
			t.Fatalf("import: %d %s", r.Status, r.Body)
		}
		r.decode(t, &enc)
		rev = enc.Revision
	} else {
		enc = e.create(t, rules, "Secrecy")
		rev = e.play(t, enc.ID, enc.Token, 0, "add Pat side=pc", "add Robin side=pc").Revision
	}
	pat := e.invite(t, enc.ID, enc.Token, "Pat")
	live := e.open(t, enc.ID, pat, "")
	defer live.close()
	var players [][]byte

	gmView := func() fray.View {
		var got struct{ View fray.View }
		e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil).decode(t, &got)
		return got.View
	}
	secrets := m.secrets
	scan := func(where string, b []byte, secret map[string]string) {
		t.Helper()
		low := foldForScan(string(b))
		for w, what := range secret {
			if i := strings.Index(low, foldForScan(w)); i >= 0 {
				t.Fatalf("%s holds %s (%q): …%s…", where, what, w, low[max(0, i-120):min(len(low), i+120)])
			}
		}
		// Numbers as whole words: the digits inside an id or a token are
		// not numbers.
		for _, f := range strings.FieldsFunc(low, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r == '_') }) {
			if n, err := strconv.Atoi(f); err == nil && m.numbers[n] {
				i := strings.Index(low, f)
				t.Fatalf("%s holds an NPC's number %d: …%s…", where, n, low[max(0, i-120):min(len(low), i+120)])
			}
		}
	}
	// drain reads the live stream up to the revision, scanning each
	// message against what was secret when it was sent.
	drained := -1
	drain := func(upTo int, secret map[string]string) {
		if upTo <= drained {
			return
		}
		drained = upTo
		for {
			msg, c := live.next(t)
			scan("the live stream", []byte(msg.Data), secret)
			if c.Revision >= upTo {
				return
			}
		}
	}
	drain(rev, secrets(gmView()))

	names := func(v fray.View, pred func(fray.Combatant) bool) []string {
		var out []string
		for _, c := range v.Combatants {
			if pred(c) {
				out = append(out, c.Name)
			}
		}
		return out
	}
	pick := func(xs []string) string {
		if len(xs) == 0 {
			return "Nobody"
		}
		return xs[rng.IntN(len(xs))]
	}
	fill := func(line string, v fray.View) string {
		all := names(v, func(fray.Combatant) bool { return true })
		line = strings.ReplaceAll(line, " A", " "+quote(pick(all)))
		return strings.ReplaceAll(line, " B", " "+quote(pick(all)))
	}
	for range steps {
		v := gmView()
		var line string
		npcs := names(v, func(c fray.Combatant) bool { return !c.IsPC() })
		hidden := names(v, func(c fray.Combatant) bool { return c.Hidden })
		switch k := rng.IntN(20); {
		case k < 4 && len(v.Combatants) < 9:
			// A name no other name holds, nor is held by, so that a
			// scan for one never finds another.
			name := pool[rng.IntN(len(pool))]
			for clash(name, m.ids) {
				name = newName(rng)
			}
			hide := ""
			if rng.IntN(3) > 0 {
				hide = " hidden=yes"
			}
			m.numbers[next], m.numbers[next-1] = true, true
			line = "add " + name + hide + " " + secrecyStats(rules, next) + " notes=" + name + "-gm-note"
			next += 2
		case k == 4 && len(npcs) > 0:
			line = "remove " + quote(pick(npcs))
		case k == 5 && len(hidden) > 0:
			line = "reveal " + quote(pick(hidden))
		case k == 6:
			line = "undo"
		case k == 7:
			line = "redo"
		case k == 8:
			line = "note " + quote(pick(names(v, func(fray.Combatant) bool { return true }))) + " secret-words"
		case k == 9:
			line = fill("condition A marked by=B", v)
		case k == 10:
			line = "start"
		case k == 11 && len(v.Combatants) > 0:
			// A new name of rare letters: while hidden, the old and the
			// new are both secrets; once shown, the names it had
			// unseen stay so.
			name := newName(rng)
			for clash(name, m.ids) {
				name = newName(rng)
			}
			m.ids[name] = ""
			line = "rename " + quote(pick(names(v, func(fray.Combatant) bool { return true }))) + " " + name
		default:
			line = fill(secrecyWords[rules][rng.IntN(len(secrecyWords[rules]))], v)
		}
		if strings.HasPrefix(line, "remove ") {
			name := strings.Trim(strings.TrimPrefix(line, "remove "), `"`)
			for _, c := range v.Combatants {
				if c.Name == name && c.Hidden {
					m.goneSecret[c.ID] = c.Name
				}
			}
		}
		r := e.command(t, enc.ID, enc.Token, line, rev)
		if r.Status == http.StatusOK {
			var got done
			r.decode(t, &got)
			rev = got.Revision
		}
		after := gmView()
		secret := secrets(after)
		// The step's changes are scanned against what is secret after it
		// (an event about a combatant the step revealed is fine; one about
		// a combatant the step hid again is not).
		drain(rev, secret)

		// The player's own view, and everything visible is in it.
		pv := e.do(t, "GET", "/api/encounters/"+enc.ID, pat, nil)
		scan("the player's view after "+line, pv.Body, secret)
		var got struct{ View fray.View }
		pv.decode(t, &got)
		wantCs := names(after, func(c fray.Combatant) bool { return !c.Hidden })
		if gotCs := names(got.View, func(fray.Combatant) bool { return true }); !slices.Equal(gotCs, wantCs) {
			t.Fatalf("after %s the player sees %q, want %q", line, gotCs, wantCs)
		}
		var wantOrder, gotOrder []string
		for _, s := range after.Order {
			if !slices.Contains(wantCs, s.Name) {
				continue
			}
			wantOrder = append(wantOrder, s.Name)
		}
		for _, s := range got.View.Order {
			gotOrder = append(gotOrder, s.Name)
		}
		if !slices.Equal(gotOrder, wantOrder) {
			t.Fatalf("after %s the player's order is %q, want %q", line, gotOrder, wantOrder)
		}
		players = append(players, pv.Body)

		// The player tries commands and odds naming those players may
		// know of, in any case, and a name nobody has: every answer is
		// scanned. (Words a player types may spell a hidden name anywhere
		// the rules take free text, and come back to them as typed; that
		// tells them nothing, so such words are probed below instead.)
		visible := fray.View{Combatants: got.View.Combatants}
		for _, c := range after.Combatants {
			if c.Hidden {
				// A hidden name where a combatant is expected: the answer
				// is the one a name nobody has gets, to the byte.
				line := strings.ReplaceAll(secrecyWords[rules][rng.IntN(len(secrecyWords[rules]))], " A", " Pat")
				probe := func(name string) reply {
					return e.command(t, enc.ID, pat, "odds "+strings.ReplaceAll(line, " B", " "+quote(name)), rev)
				}
				h, n := probe(strings.ToUpper(c.Name)), probe("Nobodyx")
				hb := strings.ReplaceAll(string(h.Body), strings.ToUpper(c.Name), "Nobodyx")
				if h.Status != n.Status || hb != string(n.Body) {
					t.Fatalf("odds %s naming the hidden %s: %d %s\nnaming nobody: %d %s", line, c.Name, h.Status, h.Body, n.Status, n.Body)
				}
				break
			}
		}
		for _, w := range []string{"Pat", "Robin", "Nobody"} {
			for _, pl := range []string{
				"odds " + fill(secrecyWords[rules][rng.IntN(len(secrecyWords[rules]))], visible),
				strings.ReplaceAll(fill(secrecyWords[rules][rng.IntN(len(secrecyWords[rules]))], visible), quote(w), quote(strings.ToUpper(w))),
				"next " + quote(w),
			} {
				pr := e.command(t, enc.ID, pat, pl, rev)
				scan("the answer to the player's "+pl, pr.Body, secret)
				if pr.Status == http.StatusOK {
					var got done
					pr.decode(t, &got)
					if got.Revision != rev {
						rev = got.Revision
						drain(rev, secrets(gmView()))
					}
				}
			}
		}
		if r := e.do(t, "GET", "/api/encounters/"+enc.ID+"/log", pat, nil); r.Status != http.StatusForbidden {
			t.Fatalf("the player read the log: %d", r.Status)
		}
	}
	// A stream resumed from the start carries the whole log as players
	// may see it now.
	final := secrets(gmView())
	from0 := e.open(t, enc.ID, pat, "0")
	for {
		msg, c := from0.next(t)
		scan("the resumed stream", []byte(msg.Data), final)
		if c.Revision >= rev {
			break
		}
	}
	from0.close()
	// The scan could pass by seeing nothing: the GM's log does hold the
	// secrets.
	gm := foldForScan(e.log(t, enc.ID, enc.Token))
	found := false
	for w := range final {
		found = found || strings.Contains(gm, foldForScan(w))
	}
	if len(final) > 0 && !found {
		t.Errorf("the GM's log holds none of the secrets %v", final)
	}
}

// clash reports whether name holds, or is held in, a name already seen
// (or the names the test itself uses), without regard to case.
func clash(name string, seen map[string]fray.CombatantID) bool {
	n := strings.ToLower(name)
	for _, o := range append([]string{"pat", "robin", "nobody", "nobodyx"}, keys(seen)...) {
		o = strings.ToLower(o)
		if strings.Contains(n, o) || strings.Contains(o, n) {
			return true
		}
	}
	return false
}

func keys(m map[string]fray.CombatantID) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// newName makes up a name of rare letters, such as "Qazuvex".
func newName(rng *rand.Rand) string {
	const cons, vows = "qxzvkwj", "aeiouy"
	b := []byte{cons[rng.IntN(len(cons))] - 'a' + 'A'}
	for i := range 6 {
		if i%2 == 0 {
			b = append(b, vows[rng.IntN(len(vows))])
		} else {
			b = append(b, cons[rng.IntN(len(cons))])
		}
	}
	return string(b)
}

// quote quotes a name as a command word when it needs it.
func quote(name string) string {
	return fray.Command{Name: "x", Args: []string{name}}.String()[2:]
}
