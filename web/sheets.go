package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"fray"
	"fray/engine"
	"fray/sheet"
)

// POST /api/encounters/{id}/sheets brings character sheets into an
// encounter, as `fray play --party FILE --foes FILE` does: the body is a
// sheet file (YAML or JSON), read by package sheet with the encounter's
// rules, and its characters join in one step (engine.Engine.Join), which
// one undo takes back whole. A sheet's powers, weapons and tracks have no
// add options, so the step is not a run of add commands: the log records
// it as "join NAME …", one added event per character carrying the whole
// sheet. Only the GM may send it.
//
// With preview=1 the server answers who would join, with the events and
// the view the step would give, and changes nothing. Without it the
// characters join all or none: every check is made before anything is
// written, the engine refuses the whole step on any error, and the step's
// events go to the store in one append.
//
// A file that does not read is refused with the sheet package's message
// (the file, the field and the line, as the command line prints it) and
// its problems as a list under "problems". The sheet package stops at the
// first problem of a file, so that list holds one; a file naming
// combatants the encounter already has lists every such name.

// sheetsDone answers POST /api/encounters/{id}/sheets. Field names are
// wire strings: never rename one.
type sheetsDone struct {
	// Preview reports whether this was a preview: nothing was changed.
	Preview bool `json:"preview"`
	// Revision is the encounter's revision after the step, or, for a
	// preview, its revision now.
	Revision int `json:"revision"`
	// Command is the step as the log records it: "join Blueshift
	// Monolith".
	Command string `json:"command"`
	// Joining lists the characters who join (or would), in the file's
	// order.
	Joining []joiner `json:"joining"`
	// Events are the step's events (for a preview, those it would
	// record), and View the view after it.
	Events []fray.Event `json:"events"`
	View   View         `json:"view"`
}

// joiner is one character of a sheet file as it joins.
type joiner struct {
	ID     fray.CombatantID `json:"id"`
	Name   string           `json:"name"`
	Side   string           `json:"side"`
	Kind   string           `json:"kind"`
	Group  string           `json:"group,omitempty"`
	Hidden bool             `json:"hidden,omitempty"`
}

// sheetErrorBody is the error envelope of a refused sheet file: the
// usual one, with the file's problems listed.
type sheetErrorBody struct {
	Error sheetErrorDetail `json:"error"`
}

type sheetErrorDetail struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Problems []sheetProblem `json:"problems"`
}

// sheetProblem is one problem of a sheet file.
type sheetProblem struct {
	// File is the file's name, as the messages name it.
	File string `json:"file"`
	// Path is the field the problem is at ("Monolith.stats.brawn",
	// "[2].name"); empty for a problem of the whole file.
	Path string `json:"path,omitempty"`
	// Line is the line of the file, from 1; 0 when it is not known (the
	// JSON reader keeps lines only for syntax errors).
	Line int `json:"line,omitempty"`
	// Message says what is wrong, without the file, path and line.
	Message string `json:"message"`
}

// sheetsError is a refusal of a sheet file with its problems.
type sheetsError struct {
	err      error // a *fray.Error: the code and the message
	problems []sheetProblem
}

func (e *sheetsError) Error() string { return e.err.Error() }
func (e *sheetsError) Unwrap() error { return e.err }

// maxSheetName is the longest file name a sheet request may give.
const maxSheetName = 64

// sheetParams are the query parameters of a sheet request.
type sheetParams struct {
	preview  bool
	side     string // the side of characters whose sheet names none
	name     string // the file's name for messages; its extension may say how to read it
	revision *int   // the revision the caller expects, when given
}

// readSheetParams reads and checks the query parameters, refusing any
// other: a mistyped preview must not add.
func readSheetParams(q url.Values) (sheetParams, error) {
	p := sheetParams{side: fray.SideNPC}
	for k := range q {
		if !slices.Contains([]string{"preview", "side", "name", "revision"}, k) {
			return p, fray.Errorf(fray.EINVALID, "The sheets endpoint takes the parameters preview, side, name and revision; %q is not one of them.", engine.Clip(k))
		}
	}
	if v := q.Get("preview"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return p, fray.Errorf(fray.EINVALID, "preview is 1 or 0 (true or false), not %q.", engine.Clip(v))
		}
		p.preview = b
	}
	switch v := q.Get("side"); v {
	case "":
	case fray.SidePC, fray.SideNPC:
		p.side = v
	default:
		return p, fray.Errorf(fray.EINVALID, "side is pc or npc (the side of characters whose sheet names none), not %q.", engine.Clip(v))
	}
	if v := q.Get("name"); v != "" {
		if len(v) > maxSheetName || !utf8.ValidString(v) || strings.ContainsAny(v, `/\`) || strings.ContainsFunc(v, unicode.IsControl) {
			return p, fray.Errorf(fray.EINVALID, "name is the sheet file's name: at most %d bytes of text, without / or \\.", maxSheetName)
		}
		p.name = v
	}
	if v := q.Get("revision"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, fray.Errorf(fray.EINVALID, "revision is the revision you last saw, a whole number, not %q.", engine.Clip(v))
		}
		p.revision = &n
	}
	return p, nil
}

// yamlTypes are the media types of YAML.
var yamlTypes = []string{"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"}

// sheetFileName returns the name under which package sheet reads the
// body, whose extension says how: the name given when it ends in .json,
// .yaml or .yml (as on the command line); else JSON for a JSON media
// type, YAML for a YAML one, and otherwise (none, text/plain,
// application/octet-stream) JSON for a body that is valid JSON starting
// with { or [, YAML for any other.
func sheetFileName(name, contentType string, body []byte) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return name, nil
	}
	asJSON := false
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.HasPrefix(mt, "multipart/"), mt == "application/x-www-form-urlencoded":
		return "", fray.Errorf(fray.EINVALID, "Send the sheet file itself as the body (YAML or JSON), not a form.")
	case mt == "application/json", strings.HasSuffix(mt, "+json"):
		asJSON = true
	case slices.Contains(yamlTypes, mt):
	default:
		t := bytes.TrimSpace(body)
		asJSON = len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
	}
	if name == "" {
		name = "sheet"
	}
	if asJSON {
		return name + ".json", nil
	}
	if filepath.Ext(name) == "" {
		name += ".yaml"
	}
	return name, nil
}

// readSheetBody reads the body, at most limit bytes (MaxBody).
func readSheetBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &fray.Error{Code: fray.ETOOLARGE, Message: fmt.Sprintf("The sheet file is larger than %d bytes (MaxBody).", limit), Err: err}
	case err != nil:
		return nil, &fray.Error{Code: fray.EINVALID, Message: "The sheet file could not be read.", Err: err}
	case len(bytes.TrimSpace(b)) == 0:
		return nil, fray.Errorf(fray.EINVALID, "The body is empty: send the sheet file (YAML or JSON) as the body.")
	}
	return b, nil
}

// postSheets answers POST /api/encounters/{id}/sheets.
func (s *Server) postSheets(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.gmOnly(r, id, "bring in character sheets"); err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.sheets(w, r, id)
	if err != nil {
		s.writeSheetsError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// sheets reads the sheet file of the request and previews or joins its
// characters.
func (s *Server) sheets(w http.ResponseWriter, r *http.Request, id string) (sheetsDone, error) {
	p, err := readSheetParams(r.URL.Query())
	if err != nil {
		return sheetsDone{}, err
	}
	body, err := readSheetBody(w, r, s.cfg.Limits.MaxBody)
	if err != nil {
		return sheetsDone{}, err
	}
	name, err := sheetFileName(p.name, r.Header.Get("Content-Type"), body)
	if err != nil {
		return sheetsDone{}, err
	}
	rec, err := s.store.Encounter(r.Context(), id)
	if err != nil {
		return sheetsDone{}, err
	}
	sys, err := s.system(rec.Rules)
	if err != nil {
		return sheetsDone{}, err
	}
	cs, err := sheet.Parse(name, body, sys, p.side)
	if err != nil {
		return sheetsDone{}, &sheetsError{err: err, problems: []sheetProblem{parseProblem(name, body, err)}}
	}
	if len(cs) == 0 {
		return sheetsDone{}, fray.Errorf(fray.EINVALID, "%s lists no characters.", name)
	}
	if len(cs) > fray.MaxAppend {
		return sheetsDone{}, fray.Errorf(fray.ETOOLARGE, "%s lists %d characters; one step adds at most %d (MaxAppend).", name, len(cs), fray.MaxAppend)
	}
	if p.preview {
		return s.previewSheets(r, id, name, body, p, cs)
	}
	return s.joinSheets(r, id, name, body, p, cs)
}

// checkJoin makes the server's checks of characters joining the locked
// entry e, which is at the store's revision: the revision expected,
// every name the encounter already has, and MaxCombatants. The engine
// checks the rest as it joins them.
func (s *Server) checkJoin(e *entry, name string, body []byte, p sheetParams, cs []fray.Combatant) error {
	if p.revision != nil && *p.revision != e.rev {
		return fray.ConflictError(e.rev, *p.revision)
	}
	if enc := e.eng.Encounter(); enc != nil {
		var lines map[string]int
		var problems []sheetProblem
		var taken, quoted []string
		for _, c := range cs {
			if enc.Find(fray.NormName(c.Name)) == nil {
				continue
			}
			if lines == nil {
				lines = nameLines(name, body)
			}
			problems = append(problems, sheetProblem{File: name, Path: c.Name, Line: lines[c.Name], Message: fmt.Sprintf("there is already a combatant named %q in the encounter", c.Name)})
			taken = append(taken, c.Name)
			quoted = append(quoted, strconv.Quote(c.Name))
		}
		if len(problems) > 0 {
			err := fray.Errorf(fray.ECONFLICT, "%s: the encounter already has a combatant named %s; rename them in the file, or remove those combatants first.", name, strings.Join(quoted, " or ")).Naming(taken...)
			return &sheetsError{err: err, problems: problems}
		}
	}
	if l := s.cfg.Limits.MaxCombatants; l > 0 {
		if n := len(e.eng.View().Combatants); n+len(cs) > l {
			return fray.Errorf(fray.ETOOLARGE, "The encounter has %d combatants; with the %d of %s it would have more than %d, the most it may hold here (MaxCombatants).", n, len(cs), name, l)
		}
	}
	return nil
}

// previewSheets answers who would join, by joining them on a copy of the
// encounter replayed from its log; the encounter itself is left alone,
// and is not locked while the copy is made. The replay counts against
// the client's MaxClientWork, as an import does.
func (s *Server) previewSheets(r *http.Request, id, name string, body []byte, p sheetParams, cs []fray.Combatant) (_ sheetsDone, err error) {
	client := s.clientAddr(r)
	if err := s.work().enter(client); err != nil {
		return sheetsDone{}, err
	}
	defer s.work().leave(client)
	e, err := s.lockEntry(r.Context(), id, true)
	if err != nil {
		return sheetsDone{}, err
	}
	if err := s.checkJoin(e, name, body, p, cs); err != nil {
		e.unlock()
		return sheetsDone{}, err
	}
	rec, rev, log := e.rec, e.rev, slices.Clone(e.eng.Log())
	e.unlock()
	defer func() {
		if v := recover(); v != nil {
			err = &fray.Error{Code: fray.EINTERNAL, Message: "The rules failed on this sheet file.", Err: fmt.Errorf("preview sheets %s panicked: %v", name, v)}
		}
	}()
	sys, err := s.system(rec.Rules)
	if err != nil {
		return sheetsDone{}, err
	}
	eng, err := engine.Replay(sys, rand.New(rand.NewPCG(rec.Seed, uint64(len(log)))), log)
	if err != nil {
		return sheetsDone{}, fmt.Errorf("replay encounter %s: %w", id, err)
	}
	eng.Seed = rec.Seed
	evs, err := eng.Join(cs)
	if err != nil {
		return sheetsDone{}, err
	}
	v, shown := Redact(fray.RoleGM, NewSight(eng.System(), eng.Encounter()), eng.View(), evs)
	return newSheetsDone(true, rev, v, shown), nil
}

// joinSheets joins the characters in one step, all or none.
func (s *Server) joinSheets(r *http.Request, id, name string, body []byte, p sheetParams, cs []fray.Combatant) (_ sheetsDone, err error) {
	e, err := s.lockEntry(r.Context(), id, true)
	if err != nil {
		return sheetsDone{}, err
	}
	defer e.unlock()
	defer func() {
		// A rule system that panics must not take the server down or
		// leave a half-applied engine behind.
		if v := recover(); v != nil {
			e.drop()
			err = &fray.Error{Code: fray.EINTERNAL, Message: "The rules failed on this sheet file.", Err: fmt.Errorf("join sheets %s panicked: %v", name, v)}
		}
	}()
	if err := s.checkJoin(e, name, body, p, cs); err != nil {
		return sheetsDone{}, err
	}
	evs, err := e.eng.Join(cs)
	if err != nil {
		return sheetsDone{}, err // the engine is as it was
	}
	now := s.now()
	recs := make([]fray.EventRecord, len(evs))
	for i, ev := range evs {
		if recs[i], err = fray.NewEventRecord(ev, now); err != nil {
			e.drop()
			return sheetsDone{}, err
		}
	}
	// Once decided, the append goes through even if the caller leaves:
	// the engine is already ahead. It is one append (at most MaxAppend
	// events), so the store takes the whole step or none of it.
	rev, err := s.store.AppendEvents(background(r.Context()), id, e.rev, recs)
	if err != nil {
		expected := e.rev
		e.drop()
		if cur, ok := fray.CurrentRevision(err); ok {
			return sheetsDone{}, fray.ConflictError(cur, expected)
		}
		return sheetsDone{}, fmt.Errorf("append events: %w", err)
	}
	e.rev = rev
	e.sight = e.look()
	view := e.eng.View()
	s.broker.Publish(&Change{Encounter: id, Revision: e.rev, Events: evs, View: &view, Sight: e.sight})
	v, shown := Redact(fray.RoleGM, e.sight, view, evs)
	return newSheetsDone(false, e.rev, v, shown), nil
}

// newSheetsDone makes the answer of a sheet request from the step's
// events.
func newSheetsDone(preview bool, rev int, v View, evs []fray.Event) sheetsDone {
	out := sheetsDone{Preview: preview, Revision: rev, Joining: []joiner{}, Events: evs, View: v}
	if out.Events == nil {
		out.Events = []fray.Event{}
	}
	for _, ev := range evs {
		if out.Command == "" {
			out.Command = ev.Command
		}
		if ev.Type != fray.EventAdded {
			continue
		}
		var d fray.AddedData
		if json.Unmarshal(ev.Data, &d) != nil {
			continue
		}
		c := d.Combatant
		out.Joining = append(out.Joining, joiner{ID: c.ID, Name: c.Name, Side: c.Side, Kind: c.Kind, Group: c.Group, Hidden: c.Hidden})
	}
	return out
}

// writeSheetsError answers with err; a refused sheet file gets its
// problems listed in the envelope.
func (s *Server) writeSheetsError(w http.ResponseWriter, r *http.Request, err error) {
	var se *sheetsError
	if !errors.As(err, &se) {
		s.writeError(w, r, err)
		return
	}
	code := fray.ErrorCode(se.err)
	writeJSON(w, Status(code), sheetErrorBody{Error: sheetErrorDetail{Code: code, Message: fray.ErrorMessage(se.err), Problems: se.problems}})
}

// The forms of the sheet package's messages, after the file's name: a
// problem with the text of the file ("line 3: a tab indents the line"),
// a JSON syntax error ("byte 40: invalid character…"), and a problem with
// a field, which ends with its line when the reader knows it
// ("Monolith.stats.brawn: must be from 1 to 14 (line 7)").
var (
	atLine    = regexp.MustCompile(`^(line|byte) (\d+): (.*)$`)
	lineAfter = regexp.MustCompile(`^(.*) \(line (\d+)\)$`)
)

// wholeFile are the openings of the sheet package's messages about a
// whole file rather than a field.
var wholeFile = []string{"a sheet file is", "there are no sheets", "the file is larger", "malformed YAML", "more than one JSON value", "anchors and aliases"}

// parseProblem reads the sheet package's error for the file name (whose
// contents are body) as a problem: its path, its line and what is wrong.
func parseProblem(name string, body []byte, err error) sheetProblem {
	msg := strings.TrimPrefix(fray.ErrorMessage(err), name+": ")
	p := sheetProblem{File: name, Message: msg}
	if m := atLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[2])
		if m[1] == "byte" {
			n = 1 + bytes.Count(body[:min(n, len(body))], []byte("\n"))
		}
		p.Line, p.Message = n, m[3]
		return p
	}
	if m := lineAfter.FindStringSubmatch(msg); m != nil {
		p.Line, _ = strconv.Atoi(m[2])
		msg = m[1]
	}
	p.Message = msg
	for _, w := range wholeFile {
		if strings.HasPrefix(msg, w) {
			return p
		}
	}
	if path, rest, ok := strings.Cut(msg, ": "); ok {
		p.Path, p.Message = path, rest
	}
	return p
}

// nameLines gives the line of each character's name in a YAML sheet
// file, by the name as written; nil for a JSON file, whose reader keeps
// no lines. The file has been read by package sheet already.
func nameLines(name string, body []byte) map[string]int {
	if strings.EqualFold(filepath.Ext(name), ".json") {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(body, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	list := doc.Content[0]
	if list.Kind == yaml.MappingNode {
		list = mappingValue(list, "characters")
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	lines := map[string]int{}
	for _, c := range list.Content {
		if n := mappingValue(c, "name"); n != nil && n.Kind == yaml.ScalarNode {
			lines[n.Value] = n.Line
		}
	}
	return lines
}

// mappingValue returns the value of key in the YAML mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
