package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"fray"
)

// DecodeEvent decodes one event encoded as JSON, such as a line of a log.
// Lines written by WriteEvents are read by a small parser that knows the
// event's shape; anything else (escapes in the type or command, unknown
// keys, …) goes to encoding/json, so the result is always what
// encoding/json would give.
func DecodeEvent(b []byte) (fray.Event, error) { return decodeEvent(b, nil) }

// decodeEvent is DecodeEvent sharing type names through names.
func decodeEvent(b []byte, names *interner) (fray.Event, error) {
	if ev, ok := fastEvent(b, names); ok {
		return ev, nil
	}
	var ev fray.Event
	err := json.Unmarshal(b, &ev)
	return ev, err
}

func fastEvent(b []byte, names *interner) (fray.Event, bool) {
	var ev fray.Event
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ev, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return ev, skipWS(b, i+1) == len(b)
	}
	for {
		key, j, ok := plainJSONString(b, i)
		if !ok {
			return ev, false
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return ev, false
		}
		i = skipWS(b, i+1)
		end, ok := skipValue(b, i, 0)
		if !ok {
			return ev, false
		}
		v := b[i:end]
		switch string(key) {
		case "seq", "step", "format":
			n, err := strconv.Atoi(string(v))
			if err != nil || len(v) > 1 && (v[0] == '0' || v[0] == '-' && v[1] == '0') {
				return ev, false
			}
			switch string(key) {
			case "seq":
				ev.Seq = n
			case "step":
				ev.Step = n
			default:
				ev.Format = n
			}
		case "type", "command":
			s, j, ok := plainJSONString(b, i)
			if !ok || j != end {
				return ev, false
			}
			if string(key) == "type" {
				ev.Type = names.intern(s)
			} else {
				ev.Command = string(s)
			}
		case "data":
			if !json.Valid(v) {
				return ev, false
			}
			ev.Data = bytes.Clone(v)
		case "rolls":
			ev.Rolls = nil
			if err := json.Unmarshal(v, &ev.Rolls); err != nil {
				return ev, false
			}
		case "odds":
			ev.Odds = nil
			if err := json.Unmarshal(v, &ev.Odds); err != nil {
				return ev, false
			}
		case "hidden":
			if string(v) != "true" && string(v) != "false" {
				return ev, false
			}
			ev.Hidden = string(v) == "true"
		case "about":
			a, ok := names.aboutList(v)
			if !ok {
				return ev, false
			}
			ev.About = a
		default:
			return ev, false
		}
		i = skipWS(b, end)
		if i >= len(b) {
			return ev, false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return ev, skipWS(b, i+1) == len(b)
		default:
			return ev, false
		}
	}
}

// interner shares one string per event type, and one About list per
// set of combatants, among a log's events (About lists are never changed
// once read). It keeps at most maxTypes of each.
type interner struct {
	types map[string]string
	about map[string][]fray.CombatantID
}

func newInterner() *interner {
	return &interner{types: map[string]string{}, about: map[string][]fray.CombatantID{}}
}

const maxTypes = 1024

func (m *interner) intern(b []byte) string {
	if m == nil {
		return string(b)
	}
	if s, ok := m.types[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(m.types) < maxTypes {
		m.types[s] = s
	}
	return s
}

// aboutList decodes an About list, shared with the events before it that
// concern the same combatants.
func (m *interner) aboutList(b []byte) ([]fray.CombatantID, bool) {
	if m != nil {
		if a, ok := m.about[string(b)]; ok {
			return a, true
		}
	}
	var a []fray.CombatantID
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, false
	}
	if m != nil && len(m.about) < maxTypes {
		m.about[string(b)] = a
	}
	return a, true
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainJSONString reads a JSON string without escapes or control
// characters at b[i] and returns it and the index after it.
func plainJSONString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			s := b[i+1 : j]
			if !utf8.Valid(s) {
				return nil, i, false // encoding/json would replace the bad bytes
			}
			return s, j + 1, true
		case c == '\\' || c < ' ':
			return nil, i, false
		}
	}
	return nil, i, false
}

// skipValue returns the index just after the JSON value at b[i]. It only
// finds the value's end; the caller validates what it needs.
func skipValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > 64 {
		return i, false
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, true
			}
		}
		return i, false
	case '{', '[':
		close := byte('}')
		if b[i] == '[' {
			close = ']'
		}
		j := skipWS(b, i+1)
		if j < len(b) && b[j] == close {
			return j + 1, true
		}
		for {
			end, ok := skipValue(b, j, depth+1)
			if !ok {
				return i, false
			}
			j = skipWS(b, end)
			if j >= len(b) {
				return i, false
			}
			switch b[j] {
			case close:
				return j + 1, true
			case ',', ':':
				j = skipWS(b, j+1)
			default:
				return i, false
			}
		}
	default:
		j := i
		for j < len(b) && !bytes.ContainsRune([]byte(" \t\r\n,:]}"), rune(b[j])) {
			j++
		}
		return j, j > i
	}
}
