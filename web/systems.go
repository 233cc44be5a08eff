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
)

// systemsOut answers GET /api/systems. Field names are wire strings:
// never rename one.
type systemsOut struct {
	Systems []systemOut `json:"systems"`
}

// systemOut is one rule system the server runs, with every command a
// table may type under it (SPEC E-7: the words of `fray play` help).
type systemOut struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Commands []commandOut `json:"commands"`
	// Words lists every command word, sorted, for completion.
	Words []string `json:"words"`
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

// engineDocs lists the commands the engine handles itself, which no
// system documents (the same lines `fray play` adds to a system's help).
var engineDocs = []fray.CommandDoc{
	{Usage: "undo", Summary: "Take back the last step, exactly."},
	{Usage: "redo", Summary: "Restore the last step taken back."},
	{Usage: "show", Summary: "Show the order of play: this round with markers, the next round, the history."},
	{Usage: "history", Summary: "Show the turns taken, round by round."},
	{Usage: "log", Summary: "Show the event log, dice included."},
	{Usage: "… dice=6,3 | roll=9", Summary: "On any command that rolls: the faces rolled at the table, or their total before bonuses, instead of the seeded roll."},
}

// oddsDoc documents the odds command for a system whose own list does not.
var oddsDoc = fray.CommandDoc{Usage: engine.CmdOdds + " COMMAND …", Summary: "The exact odds of a command's roll with every modifier, without rolling."}

// helpDoc documents the help command.
var helpDoc = fray.CommandDoc{Usage: engine.CmdHelp, Summary: "List the commands."}

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
		docs := slices.Clone(sys.Commands())
		if !slices.ContainsFunc(docs, func(d fray.CommandDoc) bool { return slices.Contains(usageWords(d.Usage), engine.CmdOdds) }) {
			docs = append(docs, oddsDoc)
		}
		docs = append(append(docs, engineDocs...), helpDoc)
		so := systemOut{ID: id, Name: sys.Name(), Commands: make([]commandOut, 0, len(docs)), Words: []string{}}
		for _, d := range docs {
			c := commandOut{Usage: d.Usage, Summary: d.Summary, Words: usageWords(d.Usage), Options: usageOptions(d)}
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

// alternatives splits a usage at its top-level " | " and " / ", the
// separators of whole commands: "block NAME | dodge NAME [mod=N]" is two,
// "scene / story" too, but "[before=NAME|after=NAME]" stays one.
func alternatives(usage string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(usage); i++ {
		switch usage[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '|', '/':
			if depth == 0 && i > 0 && usage[i-1] == ' ' && i+1 < len(usage) && usage[i+1] == ' ' {
				out = append(out, usage[from:i])
				from = i + 1
			}
		}
	}
	return append(out, usage[from:])
}

// usageWords returns the command words a usage documents, in order: the
// first word of each of its alternatives that is a plain word.
func usageWords(usage string) []string {
	words := []string{}
	for _, alt := range alternatives(usage) {
		if f := strings.Fields(alt); len(f) > 0 && isWord(f[0]) && !slices.Contains(words, f[0]) {
			words = append(words, f[0])
		}
	}
	return words
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
					if !isWord(k) {
						continue
					}
					switch {
					case isWord(v):
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
				case key != "" && keyed && isWord(piece):
					add(key + "=" + piece)
				case key != "" && keyed && isPlaceholder(piece):
					add(key + "=")
				case key == "" && !keyedOnly && isWord(piece):
					add(piece)
				}
			}
		}
	}
	for _, alt := range alternatives(d.Usage) {
		f := strings.Fields(alt)
		if len(f) > 0 && isWord(f[0]) {
			f = f[1:] // the command word itself
		}
		read(f, false)
		if slices.Contains(f, "KEY=VALUE") {
			read(strings.Fields(d.Summary), true)
		}
	}
	return out
}

// isWord reports whether s is a literal word of a usage: lower case
// letters, digits, _ and -, starting with a letter.
func isWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
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
// with its commands, for help screens and completion.
func (s *Server) listSystems(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", s.systems.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(s.systems.json))
}
