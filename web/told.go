package web

import (
	"net/http"

	"fray"
	"fray/engine"
)

// toldEvent is an event as a page receives it: the event as the caller
// may see it, and its words (fray.Told) worked out from that alone. The
// fields text and detail are additions to the event's own.
type toldEvent struct {
	fray.Event
	Text   string `json:"text,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// MaxTold is the most events GET /api/encounters/{id}/told answers with:
// the last ones of the log.
const MaxTold = 300

// gmName names a combatant, present or gone, as the GM knows them now.
func (s *Sight) gmName(id fray.CombatantID) string { return s.names[id] }

// playerName names a combatant players may know of, "" for any other.
func (s *Sight) playerName(id fray.CombatantID) string {
	if !s.visible[id] {
		return ""
	}
	return s.names[id]
}

// tellShown returns the events shown to a caller with the given role (as
// Redact returned them) with their words. The GM's are gm when given (one
// for each event, told in the state before it: engine.TellEvents), else
// told from the events alone. A player's are told from the redacted
// event alone, with only the names players may know of, and without
// numbers where Redact took them out: a player's words never hold more
// than the player's event.
func tellShown(role string, s *Sight, gm []fray.Told, shown []fray.Event) []toldEvent {
	out := make([]toldEvent, len(shown))
	for i, ev := range shown {
		var told fray.Told
		switch {
		case s == nil || s.sys == nil:
		case role == fray.RoleGM && len(gm) == len(shown):
			told = gm[i]
		case role == fray.RoleGM:
			told = engine.Tell(s.sys, fray.Tale{Event: ev, Name: s.gmName})
		default:
			told = engine.Tell(s.sys, fray.Tale{Event: ev, Name: s.playerName, Redacted: !s.pcsOnly(ev)})
		}
		out[i] = toldEvent{Event: ev, Text: told.Text, Detail: told.Detail}
	}
	return out
}

// toldOut answers GET /api/encounters/{id}/told.
type toldOut struct {
	Revision int         `json:"revision"`
	Events   []toldEvent `json:"events"`
}

// getTold answers GET /api/encounters/{id}/told: the last MaxTold events
// of the log as the caller may see them, each with its words. The GM's
// are told in the state before each event, as it happened; a player's
// from their redacted events alone (tellShown).
func (s *Server) getTold(w http.ResponseWriter, r *http.Request) {
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
	defer e.unlock()
	if err := s.complete(r.Context(), e); err != nil {
		s.writeError(w, r, err)
		return
	}
	log := e.eng.Log()
	from := max(0, len(log)-MaxTold)
	tail := log[from:]
	var out []toldEvent
	if c.Role == fray.RoleGM {
		out = tellShown(c.Role, e.sight, engine.TellLog(e.eng.System(), log, from, e.sight.gmName), tail)
	} else {
		_, shown := Redact(c.Role, e.sight, fray.View{}, tail)
		out = tellShown(c.Role, e.sight, nil, shown)
	}
	writeJSON(w, http.StatusOK, toldOut{Revision: e.rev, Events: out})
}
