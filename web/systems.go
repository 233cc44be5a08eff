package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
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
// table may type under it (SPEC E-7: the words of `fray play` help) and
// its named roll.
type systemOut struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Commands []commandOut `json:"commands"`
	// Words lists every command word, sorted, for completion.
	Words []string `json:"words"`
	// Roll is the system's named roll, which POST /api/roll and GET
	// /api/prob take with rules; absent when the system offers none.
	Roll *namedRollOut `json:"roll,omitempty"`
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

// commandOut is one line of help: the system's own fray.CommandDoc, with
// what the page completes read from its usage.
type commandOut struct {
	Usage   string `json:"usage"`
	Summary string `json:"summary"`
	// Words are the command words the usage documents ("block NAME |
	// dodge NAME" documents block and dodge).
	Words []string `json:"words"`
	// Options are the words that may follow them: literal words
	// ("major") and options, with a value when the usage names one
	// ("choose=smashing") or with none to fill in ("mod=").
	Options []string `json:"options"`
}

// describeSystems returns the answer to GET /api/systems for the systems
// by id, in the order of their ids.
func describeSystems(systems map[string]func() fray.System) systemsOut {
	ids := make([]string, 0, len(systems))
	for id := range systems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := systemsOut{Systems: make([]systemOut, 0, len(ids))}
	for _, id := range ids {
		sys := systems[id]()
		docs := engine.HelpDocs(sys)
		so := systemOut{ID: id, Name: sys.Name(), Commands: make([]commandOut, 0, len(docs)), Words: []string{}, Roll: newNamedRollOut(sys)}
		for _, d := range docs {
			c := commandOut{Usage: d.Usage, Summary: d.Summary, Words: d.Words(), Options: usageOptions(d)}
			for _, w := range c.Words {
				if !slices.Contains(so.Words, w) {
					so.Words = append(so.Words, w)
				}
			}
			so.Commands = append(so.Commands, c)
		}
		slices.Sort(so.Words)
		out.Systems = append(out.Systems, so)
	}
	return out
}

// usageOptions returns what may follow a command's word, read from its
// usage: "act [NAME] major|minor [note=TEXT]" gives major, minor and
// note=; "[choose=overwhelming|smashing]" gives choose=overwhelming and
// choose=smashing; "[mod=N]" gives mod=. A usage's KEY=VALUE (set) takes
// its keys and values from the summary ("held=house|raw").
func usageOptions(d fray.CommandDoc) []string {
	out := []string{}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	read := func(tokens []string, keyedOnly bool) {
		for _, tok := range tokens {
			// Brackets only group: "[until=cleared|start][@ROUND]" reads
			// as until=cleared|start|@ROUND.
			tok = strings.NewReplacer("[", "|", "]", "|").Replace(tok)
			key, keyed := "", false
			for _, piece := range strings.Split(tok, "|") {
				piece = strings.Trim(piece, ",.;:()")
				if k, v, ok := strings.Cut(piece, "="); ok {
					key, keyed = "", false
					if !fray.UsageWord(k) {
						continue
					}
					switch {
					case fray.UsageWord(v):
						add(k + "=" + v)
						key, keyed = k, true
					case isPlaceholder(v):
						add(k + "=")
						key, keyed = k, true
					default: // "weapon=NAME:light|medium": fill in the whole value
						add(k + "=")
						key = k
					}
					continue
				}
				switch {
				case key != "" && keyed && fray.UsageWord(piece):
					add(key + "=" + piece)
				case key != "" && keyed && isPlaceholder(piece):
					add(key + "=")
				case key == "" && !keyedOnly && fray.UsageWord(piece):
					add(piece)
				}
			}
		}
	}
	for _, alt := range d.Forms() {
		f := strings.Fields(alt)
		if len(f) > 0 && fray.UsageWord(f[0]) {
			f = f[1:] // the command word itself
		}
		read(f, false)
		if slices.Contains(f, "KEY=VALUE") {
			read(strings.Fields(d.Summary), true)
		}
	}
	return out
}

// isPlaceholder reports whether s is what a usage writes for a value to
// fill in: N, NAME, ±N, ±Nd, ROUND.
func isPlaceholder(s string) bool {
	s = strings.TrimLeft(s, "±+-")
	return s != "" && s[0] >= 'A' && s[0] <= 'Z' && !strings.ContainsAny(s, ":=@,")
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
// with its commands, for help screens and completion, and its named roll.
func (s *Server) listSystems(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", s.systems.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(s.systems.json))
}
