package web

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"fray"
	"fray/engine"
)

// The JSON of the API. Field names are wire strings: never rename one.

type createRequest struct {
	Rules string `json:"rules"`
	Name  string `json:"name"`
}

// created answers POST /api/encounters and POST /api/encounters/import.
type created struct {
	ID       string `json:"id"`
	Rules    string `json:"rules"`
	Name     string `json:"name"`
	Revision int    `json:"revision"`
	Token    string `json:"token"`
}

type playerRequest struct {
	Combatant string `json:"combatant"`
}

type playerCreated struct {
	Token     string `json:"token"`
	Combatant string `json:"combatant"`
	// CombatantID is the id of the character the token acts for: the
	// token lives as long as that combatant.
	CombatantID fray.CombatantID `json:"combatant_id"`
	// Handle names the token in the GM's list of player links (see
	// listPlayers) without giving the token away.
	Handle string `json:"handle"`
	Link   string `json:"link"`
}

// commandRequest is a command as a line ("command") or as an object
// ("name", "args", "options"), with the revision the caller expects.
type commandRequest struct {
	Command  *string           `json:"command"`
	Name     string            `json:"name"`
	Args     []string          `json:"args"`
	Options  map[string]string `json:"options"`
	Revision *int              `json:"revision"`
}

// commandDone answers a command; it is also the data of an event stream's
// change.
type commandDone struct {
	Revision int `json:"revision"`
	// Events are the events appended, as the caller may see them, each
	// with its words.
	Events []toldEvent `json:"events"`
	View   View        `json:"view"`
	// Odds answers an odds command.
	Odds *fray.Odds `json:"odds,omitempty"`
}

type encounterOut struct {
	ID        string `json:"id"`
	Rules     string `json:"rules"`
	Name      string `json:"name"`
	Revision  int    `json:"revision"`
	Role      string `json:"role"`
	Combatant string `json:"combatant,omitempty"`
	// CombatantID is the id of the character a player acts for.
	CombatantID fray.CombatantID `json:"combatant_id,omitempty"`
	View        View             `json:"view"`
}

type listed struct {
	ID       string    `json:"id"`
	Rules    string    `json:"rules"`
	Name     string    `json:"name"`
	Revision int       `json:"revision"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
}

type listOut struct {
	Encounters []listed `json:"encounters"`
}

func (s *Server) systemIDs() []string {
	ids := make([]string, 0, len(s.cfg.Systems))
	for id := range s.cfg.Systems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// newEncounter records a new encounter with a GM token and returns it.
// The server's store counts it against MaxEncounters and MaxStoredBytes;
// the caller has counted it against CreateRate.
func (s *Server) newEncounter(r *http.Request, rules, name string, seed uint64) (fray.EncounterRecord, string, error) {
	id, err := s.newID()
	if err != nil {
		return fray.EncounterRecord{}, "", err
	}
	tok, err := s.newToken()
	if err != nil {
		return fray.EncounterRecord{}, "", err
	}
	now := s.now()
	rec := fray.EncounterRecord{ID: id, Rules: rules, Name: name, Seed: seed, Created: now}
	if err := rec.Validate(); err != nil {
		return fray.EncounterRecord{}, "", err
	}
	gm := fray.Token{Hash: fray.HashToken(tok), Encounter: id, Role: fray.RoleGM, Created: now}
	if err := s.store.CreateEncounter(background(r.Context()), rec, gm); err != nil {
		return fray.EncounterRecord{}, "", err
	}
	return rec, tok, nil
}

func (s *Server) createEncounter(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req createRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Rules == "" {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "Choose the rules: \"rules\" is one of %s.", strings.Join(s.systemIDs(), ", ")))
		return
	}
	if _, err := s.system(req.Rules); err != nil {
		s.writeError(w, r, err)
		return
	}
	undo, err := s.allowCreate(s.clientAddr(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b [8]byte
	if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
		undo()
		s.writeError(w, r, fmt.Errorf("read random seed: %w", err))
		return
	}
	rec, tok, err := s.newEncounter(r, req.Rules, req.Name, binary.LittleEndian.Uint64(b[:]))
	if err != nil {
		undo()
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/encounters/"+rec.ID)
	writeJSON(w, http.StatusCreated, created{ID: rec.ID, Rules: rec.Rules, Name: rec.Name, Token: tok})
}

func (s *Server) listEncounters(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	toks, err := bearerTokens(r, false, s.cfg.Limits.MaxTokensListed)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(toks) == 0 {
		s.writeError(w, r, fray.Errorf(EUNAUTHORIZED, "Send the GM tokens you hold: \"Authorization: Bearer TOKEN, TOKEN\"."))
		return
	}
	ids := []string{}
	for _, tok := range toks {
		t, err := s.token(r.Context(), tok)
		if err != nil {
			if fray.ErrorCode(err) == EUNAUTHORIZED {
				continue // a token from a database since reset
			}
			s.writeError(w, r, err)
			return
		}
		if t.Role == fray.RoleGM && !slices.Contains(ids, t.Encounter) {
			ids = append(ids, t.Encounter)
		}
	}
	out := listOut{Encounters: []listed{}}
	if len(ids) > 0 {
		recs, err := s.store.Encounters(r.Context(), fray.EncounterFilter{IDs: ids})
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		for _, e := range recs {
			out.Encounters = append(out.Encounters, listed{ID: e.ID, Rules: e.Rules, Name: e.Name, Revision: e.Revision, Created: e.Created, Updated: e.Updated})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getEncounter(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.authorize(r, id, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e, err := s.lockFor(r.Context(), c, id, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, _ := Redact(c.Role, e.sight, e.eng.View(), nil)
	out := encounterOut{ID: id, Rules: e.rec.Rules, Name: e.rec.Name, Revision: e.rev, Role: c.Role, Combatant: e.eng.Encounter().NameOf(c.Combatant), CombatantID: c.Combatant, View: v}
	e.unlock()
	writeJSON(w, http.StatusOK, out)
}

// createPlayer makes a player link. Links give no more requests than the
// GM has: every request counts against its client's address as well as
// its token (authorize), and the store caps an encounter's tokens at
// fray.MaxTokens; a link counts against MaxStoredBytes like any write.
func (s *Server) createPlayer(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.gmOnly(r, id, "invite players"); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req playerRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	e, err := s.lockEntry(r.Context(), id, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var name string
	var cid fray.CombatantID
	if cb, err := e.eng.Encounter().Resolve(fray.GM, req.Combatant); err == nil {
		name, cid = cb.Name, cb.ID
	} else if fray.ErrorCode(err) != fray.ENOTFOUND {
		e.unlock()
		s.writeError(w, r, err)
		return
	}
	e.unlock()
	if name == "" {
		s.writeError(w, r, fray.Errorf(fray.ENOTFOUND, "There is no combatant named %q; add them first.", engine.Clip(req.Combatant)))
		return
	}
	tok, err := s.newToken()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t := fray.Token{Hash: fray.HashToken(tok), Encounter: id, Role: fray.RolePlayer, Combatant: string(cid), Created: s.now()}
	if err := s.store.CreateToken(background(r.Context()), t); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, playerCreated{Token: tok, Combatant: name, CombatantID: cid, Handle: handle(t.Hash), Link: "/play/" + id + "#token=" + tok})
}

// parseCommand reads the command of a request: a line, or an object that
// is put in canonical form and parsed again, so that both forms meet the
// same limits.
func parseCommand(req commandRequest) (fray.Command, error) {
	var line string
	switch {
	case req.Command != nil && (req.Name != "" || req.Args != nil || req.Options != nil):
		return fray.Command{}, fray.Errorf(fray.EINVALID, "Give the command as \"command\" (a line) or as \"name\", \"args\" and \"options\", not both.")
	case req.Command != nil:
		line = *req.Command
	case req.Name != "":
		if len(req.Args)+len(req.Options) > engine.MaxWords {
			return fray.Command{}, fray.Errorf(fray.ETOOLARGE, "The command has more than %d words (MaxWords).", engine.MaxWords)
		}
		cmd := fray.Command{Name: req.Name, Args: req.Args, Opts: req.Options}
		line = cmd.String()
		if strings.ContainsAny(req.Name, " \t\"=#") {
			return fray.Command{}, fray.Errorf(fray.EINVALID, "The command name %q is not a word.", engine.Clip(req.Name))
		}
	default:
		return fray.Command{}, fray.Errorf(fray.EINVALID, "The command is missing: send {\"command\":\"next\",\"revision\":N}.")
	}
	if strings.ContainsAny(line, "\n\r") {
		return fray.Command{}, fray.Errorf(fray.EINVALID, "The command is one line; it holds a line break.")
	}
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		return fray.Command{}, err
	}
	if cmd.Name == "" {
		return fray.Command{}, fray.Errorf(fray.EINVALID, "The command is empty.")
	}
	if req.Name != "" && (len(cmd.Args) != len(req.Args) || len(cmd.Opts) != len(req.Options)) {
		return fray.Command{}, fray.Errorf(fray.EINVALID, "The command's options must have keys that are words.")
	}
	return cmd, nil
}

func (s *Server) postCommand(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.authorize(r, id, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req commandRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd, err := parseCommand(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Revision == nil {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The revision is missing: send the revision you last saw, as \"revision\"."))
		return
	}
	out, err := s.do(r, c, id, cmd, *req.Revision)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// do carries out one command for the caller at the revision expected.
func (s *Server) do(r *http.Request, c caller, id string, cmd fray.Command, revision int) (_ commandDone, err error) {
	e, err := s.lockFor(r.Context(), c, id, false)
	if err != nil {
		return commandDone{}, err
	}
	defer e.unlock()
	defer func() {
		// A rule system that panics must not take the server down or
		// leave a half-applied engine behind.
		if p := recover(); p != nil {
			e.drop()
			err = &fray.Error{Code: fray.EINTERNAL, Message: "The rules failed on this command.", Err: fmt.Errorf("command %q panicked: %v", cmd.String(), p)}
		}
	}()
	if revision != e.rev {
		// Another process may have moved the encounter on: look again.
		if err := s.refresh(r.Context(), id, e); err != nil {
			e.drop()
			return commandDone{}, err
		}
		if revision != e.rev {
			return commandDone{}, fray.ConflictError(e.rev, revision)
		}
	}
	if c.Role != fray.RoleGM {
		if err := allowed(c, e.eng.Decls(), cmd, e.eng.View(), e.sight); err != nil {
			return commandDone{}, err
		}
	}
	if cmd.Name == engine.CmdAdd && len(e.eng.View().Combatants) >= s.cfg.Limits.MaxCombatants {
		return commandDone{}, fray.Errorf(fray.ETOOLARGE, "The encounter already has %d combatants, the most it may hold here (MaxCombatants).", s.cfg.Limits.MaxCombatants)
	}
	if cmd.Name == engine.CmdUndo || cmd.Name == engine.CmdRedo {
		// Either may reach before the snapshot the engine was resumed from.
		if err := s.complete(r.Context(), e); err != nil {
			e.drop()
			return commandDone{}, err
		}
	}
	var odds *fray.Odds
	if cmd.Name == engine.CmdOdds {
		o, err := e.eng.OddsAs(c.viewer(), cmd)
		if err != nil {
			return commandDone{}, redactErr(c.Role, e.sight, err)
		}
		if err := RedactOdds(c.Role, e.sight, e.eng.Decls(), cmd, o); err != nil {
			return commandDone{}, err
		}
		odds = &o
	}
	// The state before the command, for its events' words.
	var was fray.State
	if !engine.IsQuery(cmd.Name) {
		was = e.eng.State().Clone()
	}
	evs, err := e.eng.DoAs(c.viewer(), cmd)
	if err != nil {
		return commandDone{}, redactErr(c.Role, e.sight, err)
	}
	if len(evs) > 0 {
		now := s.now()
		recs := make([]fray.EventRecord, len(evs))
		for i, ev := range evs {
			if recs[i], err = fray.NewEventRecord(ev, now); err != nil {
				e.drop()
				return commandDone{}, err
			}
		}
		// Once decided, the append goes through even if the caller
		// leaves: the engine is already ahead.
		rev, err := s.store.AppendEvents(background(r.Context()), id, e.rev, recs)
		if err != nil {
			e.drop()
			if cur, ok := fray.CurrentRevision(err); ok {
				return commandDone{}, fray.ConflictError(cur, revision)
			}
			return commandDone{}, fmt.Errorf("append events: %w", err)
		}
		from := e.rev
		e.rev = rev
		e.sight = e.look()
		s.snapshot(background(r.Context()), e, from)
	}
	view := e.eng.View()
	var told []fray.Told
	if len(evs) > 0 {
		told = engine.TellEvents(e.eng.System(), was, evs, e.eng.Log(), e.sight.gmName)
		s.broker.Publish(&Change{Encounter: id, Revision: e.rev, Events: evs, Told: told, View: &view, Sight: e.sight})
	}
	v, shown := Redact(c.Role, e.sight, view, evs)
	return commandDone{Revision: e.rev, Events: tellShown(c.Role, e.sight, told, shown), View: v, Odds: odds}, nil
}

// redactErr returns a refusal as the caller's role may read it.
func redactErr(role string, s *Sight, err error) error {
	var fe *fray.Error
	if role == fray.RoleGM || !errors.As(err, &fe) {
		return err
	}
	return &fray.Error{Code: fe.Code, Message: RedactError(role, s, err), Err: err}
}

// exportLog answers GET /api/encounters/{id}/log. The log is read whole
// before the answer begins, up to the import budget (MaxImport: a longer
// log could not be imported here anyway), so that a store failing part-way
// is a plain error answer; a longer log is streamed, and a failure then
// ends it with an error line and a broken body (see abortStream), never
// with a 200 that looks complete.
func (s *Server) exportLog(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.authorize(r, id, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if c.Role != fray.RoleGM {
		s.writeError(w, r, fray.Errorf(fray.EFORBIDDEN, "Only the GM may read the log; it holds what players may not see."))
		return
	}
	rec, err := s.store.Encounter(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b bytes.Buffer
	if err := engine.WriteHeader(&b, engine.Header{Schema: engine.LogSchema, Version: engine.LogVersion, Rules: rec.Rules, Seed: rec.Seed}); err != nil {
		s.writeError(w, r, err)
		return
	}
	budget := s.cfg.Limits.MaxImport
	if budget <= 0 {
		budget = DefaultLimits().MaxImport
	}
	streaming := false
	begin := func() {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Disposition", `attachment; filename="`+id+`.jsonl"`)
		w.WriteHeader(http.StatusOK)
	}
	// The log up to the revision read above, in pages.
	for from := 1; from <= rec.Revision; {
		recs, err := s.store.Events(r.Context(), id, from, min(fray.MaxAppend, rec.Revision-from+1))
		if err == nil && len(recs) == 0 {
			err = fmt.Errorf("the log ends at %d, before revision %d", from-1, rec.Revision)
		}
		for i := 0; err == nil && i < len(recs); i++ {
			if recs[i].Seq != from+i {
				err = fmt.Errorf("event %d came back as event %d", from+i, recs[i].Seq)
			}
		}
		if err != nil {
			if r.Context().Err() != nil {
				return // the caller left
			}
			err = &fray.Error{Code: fray.EINTERNAL, Message: "The log could not be read to its end; try again.", Err: fmt.Errorf("export log %s from event %d: %w", id, from, err)}
			if streaming {
				s.abortStream(w, r, err)
			}
			s.writeError(w, r, err)
			return
		}
		for _, er := range recs {
			b.Write(er.Data)
			b.WriteByte('\n')
		}
		from += len(recs)
		if !streaming && int64(b.Len()) > budget {
			begin()
			streaming = true
		}
		if streaming {
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
			b.Reset()
		}
	}
	if !streaming {
		w.Header().Set("Content-Length", fmt.Sprint(b.Len()))
		begin()
		w.Write(b.Bytes())
	}
}

// importLog creates an encounter from an exported log. It counts against
// CreateRate, and a full store (MaxEncounters, MaxStoredBytes) or a
// client past its CreateRate is refused before the log is read; a log of
// more than MaxImportEvents events is refused before it is replayed.
// Every refusal writes nothing and gives back the CreateRate it took.
// logEvents counts the events of a log as engine.Import reads them: the
// lines after the header that are not empty.
func logEvents(data []byte) int {
	_, rest, _ := bytes.Cut(data, []byte("\n"))
	n := 0
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(line) > 0 && !(len(line) == 1 && line[0] == '\r') {
			n++
		}
	}
	return n
}

func (s *Server) importLog(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	undo, err := s.allowCreate(s.clientAddr(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	imported := false
	defer func() {
		if !imported {
			undo()
		}
	}()
	if err := s.reserve(r.Context(), 1, 0); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.unreserve(1, 0) // only a look: the encounter counts when it is created
	// Reading and replaying a log is expensive work: it counts against
	// the client's MaxClientWork, as a distribution does.
	client := s.clientAddr(r)
	if err := s.work().enter(client); err != nil {
		s.writeError(w, r, err)
		return
	}
	defer s.work().leave(client)
	name := r.URL.Query().Get("name")
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.Limits.MaxImport)
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The log is larger than %d bytes (MaxImport).", s.cfg.Limits.MaxImport))
			return
		}
		s.writeError(w, r, &fray.Error{Code: fray.EINVALID, Message: "The log could not be read.", Err: err})
		return
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var h engine.Header
	if json.Unmarshal(first, &h) != nil || h.Schema != engine.LogSchema {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The body is not a fray log: its first line must be a %s header.", engine.LogSchema))
		return
	}
	sys, err := s.system(h.Rules)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if n := logEvents(data); s.cfg.Limits.MaxImportEvents > 0 && n > s.cfg.Limits.MaxImportEvents {
		s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The log holds %d events, more than %d (MaxImportEvents).", n, s.cfg.Limits.MaxImportEvents))
		return
	}
	eng, err := engine.Import(bufio.NewReader(bytes.NewReader(data)), sys, nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if n := len(eng.View().Combatants); n > s.cfg.Limits.MaxCombatants {
		s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The log's encounter has %d combatants, more than %d (MaxCombatants).", n, s.cfg.Limits.MaxCombatants))
		return
	}
	now := s.now()
	evs := eng.Log()
	recs := make([]fray.EventRecord, len(evs))
	for i, ev := range evs {
		if recs[i], err = fray.NewEventRecord(ev, now); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	// The whole log is counted against MaxStoredBytes before anything is
	// written, so that a full store refuses it rather than keep part.
	size := eventsSize(newIDLen, recs)
	if err := s.reserve(r.Context(), 0, size); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, tok, err := s.newEncounter(r, h.Rules, name, h.Seed)
	if err != nil {
		s.unreserve(0, size)
		s.writeError(w, r, err)
		return
	}
	imported = true // the encounter exists: the CreateRate it took is spent
	rev := 0
	for len(recs) > 0 {
		n := min(len(recs), fray.MaxAppend)
		// Counted above: straight to the store under the budgets.
		if rev, err = s.budget.raw.AppendEvents(background(r.Context()), rec.ID, rev, recs[:n]); err != nil {
			s.unreserve(0, eventsSize(newIDLen, recs))
			s.writeError(w, r, fmt.Errorf("import events: %w", err))
			return
		}
		recs = recs[n:]
	}
	w.Header().Set("Location", "/api/encounters/"+rec.ID)
	writeJSON(w, http.StatusCreated, created{ID: rec.ID, Rules: rec.Rules, Name: rec.Name, Revision: rev, Token: tok})
}
