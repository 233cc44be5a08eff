package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// systemsOut answers GET /api/systems. Field names are wire strings:
// never rename one.
type systemsOut struct {
	Systems []systemOut `json:"systems"`
}

// systemOut is one rule system the server runs, with every command a
// table may type under it (SPEC E-7: the words of `fray play` help), its
// settings and its named roll.
type systemOut struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Commands []commandOut `json:"commands"`
	// Words lists every command word, sorted, for completion.
	Words []string `json:"words"`
	// Settings lists what set takes: each key, its values, its default.
	Settings []settingOut `json:"settings"`
	// Dice says how the table's own dice are given on a command that
	// rolls (dice=, roll=).
	Dice fray.CommandDoc `json:"dice"`
	// Roll is the system's named roll, which POST /api/roll and GET
	// /api/prob take with rules; absent when the system offers none.
	Roll *namedRollOut `json:"roll,omitempty"`
	// Hints are the buttons and forms the system's page shows
	// (fray.Hinter). A system that gives none gets no buttons and no
	// forms of its own: empty lists, and no declared order.
	Hints fray.Hints `json:"hints"`
	// Stats lists the options add takes as whole numbers, in the order
	// add declares them: the stats of the page's add form.
	Stats []string `json:"stats"`
	// Sheet is what the system's character sheets hold (fray.Sheeter),
	// for a page that reads or writes them; absent when it takes none.
	Sheet *fray.SheetSchema `json:"sheet,omitempty"`
	// Place reports whether add takes before= and after=, a place in the
	// order of play.
	Place bool `json:"place"`
}

// namedRollOut is a system's named roll (kit.NamedRoll), for a front end
// to build a form for it.
type namedRollOut struct {
	Title string       `json:"title"`
	Keys  []rollKeyOut `json:"keys"`
	// Examples are "roll KEY=VALUE…" or "prob KEY=VALUE…": the endpoint,
	// then args.
	Examples []string `json:"examples"`
}

// rollKeyOut is one key=value argument of a named roll (kit.RollKey).
type rollKeyOut struct {
	Name string `json:"name"`
	// Value shows what may follow "=": "N", "yes|no", "light|medium|heavy".
	Value string `json:"value"`
	Help  string `json:"help"`
	// Along names the key this one goes with (vs-mod goes with vs).
	Along string `json:"along,omitempty"`
	// RollOnly marks dice rolled at the table: POST /api/roll takes them,
	// GET /api/prob does not.
	RollOnly bool `json:"roll_only"`
}

// newNamedRollOut returns the JSON form of sys's named roll, or nil.
func newNamedRollOut(sys fray.System) *namedRollOut {
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		return nil
	}
	d := nr.NamedRoll()
	out := &namedRollOut{Title: d.Title, Keys: make([]rollKeyOut, len(d.Keys)), Examples: slices.Clone(d.Examples)}
	if out.Examples == nil {
		out.Examples = []string{}
	}
	for i, k := range d.Keys {
		out.Keys[i] = rollKeyOut{Name: k.Name, Value: k.Value, Help: k.Help, Along: k.Along, RollOnly: k.RollOnly}
	}
	return out
}

// commandOut is one command the system accepts: its declaration
// (fray.CommandDecl: name, summary, args and opts with their kinds, who
// may send it, whether it rolls or answers a waiting roll, examples),
// with its usage line and what the page completes after its word.
type commandOut struct {
	fray.CommandDecl
	Usage string `json:"usage"`
	// Words holds the command word, for pages written when one line of
	// help could document several.
	Words []string `json:"words"`
	// Options are the words that may follow it
	// (fray.CommandDecl.Completions): positional choices ("major") and
	// options, with a value ("choose=smashing") or with none to fill in
	// ("mod=").
	Options []string `json:"options"`
}

// settingOut is one setting of a system: set KEY=VALUE takes one of
// Values; Default holds until it is set.
type settingOut struct {
	Key     string   `json:"key"`
	Values  []string `json:"values"`
	Default string   `json:"default"`
}

// describeSystems returns the answer to GET /api/systems for the systems
// by id, in the order of their ids. Everything in it is read from the
// systems' declarations (engine.Decls, kit.NamedRoller, fray.Hinter): the
// web keeps no table of its own.
func describeSystems(systems map[string]func() fray.System) systemsOut {
	ids := make([]string, 0, len(systems))
	for id := range systems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := systemsOut{Systems: make([]systemOut, 0, len(ids))}
	for _, id := range ids {
		sys := systems[id]()
		ds := engine.Decls(sys)
		so := systemOut{ID: id, Name: sys.Name(), Commands: make([]commandOut, 0, len(ds)), Words: []string{},
			Settings: []settingOut{}, Roll: newNamedRollOut(sys), Dice: engine.DiceHelp, Hints: hintsOf(sys)}
		so.Stats, so.Place = addForm(ds)
		if sh, ok := sys.(fray.Sheeter); ok {
			schema := sh.Sheet()
			so.Sheet = &schema
		}
		for _, d := range ds {
			d.Args, d.Opts = nonNil(d.Args), nonNil(d.Opts)
			so.Commands = append(so.Commands, commandOut{CommandDecl: d, Usage: d.Usage(), Words: []string{d.Name}, Options: d.Completions()})
			so.Words = append(so.Words, d.Name)
			if d.Name == engine.CmdSet {
				for _, p := range d.Opts {
					so.Settings = append(so.Settings, settingOut{Key: p.Name, Values: p.Choices, Default: p.Default})
				}
			}
		}
		slices.Sort(so.Words)
		out.Systems = append(out.Systems, so)
	}
	return out
}

// hintsOf returns sys's view hints, with lists rather than nulls; none
// when sys is no fray.Hinter.
func hintsOf(sys fray.System) fray.Hints {
	var h fray.Hints
	if hs, ok := sys.(fray.Hinter); ok {
		h = hs.Hints()
	}
	if h.Buttons == nil {
		h.Buttons = []fray.Button{}
	}
	if h.Forms == nil {
		h.Forms = []string{}
	}
	return h
}

// addForm reads the page's add form from add's declaration among ds: the
// options it takes as whole numbers, and whether it takes before= and
// after=.
func addForm(ds []fray.CommandDecl) (stats []string, place bool) {
	stats = []string{}
	add, ok := fray.FindDecl(ds, engine.CmdAdd)
	if !ok {
		return stats, false
	}
	has := map[string]bool{}
	for _, p := range add.Opts {
		has[p.Name] = true
		if p.Kind == fray.KindNumber {
			stats = append(stats, p.Name)
		}
	}
	return stats, has[engine.KeyBefore] && has[engine.KeyAfter]
}

// nonNil returns ps, or an empty list for none, so that JSON says [].
func nonNil(ps []fray.Param) []fray.Param {
	if ps == nil {
		return []fray.Param{}
	}
	return ps
}

// systemsBody is the answer to GET /api/systems, worked out once: the
// systems do not change while the server runs.
type systemsBody struct {
	json []byte
	etag string
}

func newSystemsBody(systems map[string]func() fray.System) (systemsBody, error) {
	b, err := json.Marshal(describeSystems(systems))
	if err != nil {
		return systemsBody{}, err
	}
	sum := sha256.Sum256(b)
	return systemsBody{json: append(b, '\n'), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}, nil
}

// listSystems answers GET /api/systems: every rule system the server runs,
// with its commands, for help screens and completion, its named roll, and
// what its page shows: the buttons and forms (hints), the add form's stats
// and whether add takes a place.
func (s *Server) listSystems(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", s.systems.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(s.systems.json))
}
