package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"fray"
)

// Events of format 3 (fray.FormatIDs) identify combatants by id in every
// declared field of their payloads (see fray.TagWho); older events name
// them. Upgrade rewrites older events into format 3 as the engine reads
// them, so that the rules only ever apply events of one format.
//
// The names of an older event are resolved as the rules resolved them
// when the event was made: against the combatants present then (by name,
// without regard to case), else the last to leave by that name. Which
// combatants were present follows from the log itself, step by step,
// undo and redo included (see names).

// Payloads is what a System implements to declare the payload type of
// each of its event types, so that events written in an older format can
// be rewritten (see Upgrade). The values are zero values of the payload
// types, such as {"bpb.delayed": delayedData{}}. The engine knows the
// shared events' payloads itself.
type Payloads interface {
	Payloads() map[string]any
}

// sharedPayloads are the payload types of the events every system shares.
var sharedPayloads = map[string]any{
	fray.EventAdded:     fray.AddedData{},
	fray.EventRemoved:   fray.NameData{},
	fray.EventRevealed:  fray.NameData{},
	fray.EventNoted:     fray.NoteData{},
	fray.EventCondition: fray.ConditionData{},
	fray.EventCleared:   fray.ClearedData{},
	fray.EventRenamed:   fray.RenamedData{},
}

// SharedEvent reports whether typ is an event type every system shares,
// whose payload the engine knows (or which has none a system declares:
// set, undo, redo).
func SharedEvent(typ string) bool {
	switch typ {
	case fray.EventSet, fray.EventUndo, fray.EventRedo:
		return true
	}
	_, ok := sharedPayloads[typ]
	return ok
}

// payloadTypes returns the payload types of sys's events by event type.
func payloadTypes(sys fray.System) map[string]reflect.Type {
	out := make(map[string]reflect.Type, len(sharedPayloads))
	for k, v := range sharedPayloads {
		out[k] = reflect.TypeOf(v)
	}
	if p, ok := sys.(Payloads); ok {
		for k, v := range p.Payloads() {
			out[k] = reflect.TypeOf(v)
		}
	}
	return out
}

// Upgrade rewrites the events of evs (read back from a log, not made by
// fray.NewEvent in this process) that are older than format 3 into
// format 3, in place, resolving their names as described above. An event
// whose payload type sys does not declare keeps its payload (its names,
// if any, stay names: the rules will refuse it where they need an id).
func Upgrade(sys fray.System, evs []fray.Event) error {
	types := payloadTypes(sys)
	n := newNames()
	for i := range evs {
		ev := &evs[i]
		switch ev.Type {
		case fray.EventUndo, fray.EventRedo:
			var d fray.StepData
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return fray.Errorf(fray.EINVALID, "Event %d is not an %s event.", ev.Seq, ev.Type)
			}
			n.turn(d.Step, ev.Type == fray.EventUndo)
			ev.Format = fray.FormatIDs
			continue
		}
		if ev.Format < fray.FormatIDs {
			if err := n.giveID(ev); err != nil {
				return err
			}
			if err := upgradeEvent(ev, types[ev.Type], n.id); err != nil {
				return err
			}
		}
		n.follow(ev)
	}
	return nil
}

// upgradeEvent rewrites one event's payload of type t with ids for names,
// and gives its rolls for combatants their ids. (Odds keep their words:
// they show a roll as it stood.)
func upgradeEvent(ev *fray.Event, t reflect.Type, id func(string) fray.CombatantID) error {
	ref := func(s string) string {
		if x := id(s); x != "" {
			return string(x)
		}
		return s // not a combatant (a group's name): left as it is
	}
	if t != nil && len(ev.Data) > 0 {
		dec := json.NewDecoder(bytes.NewReader(ev.Data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fray.Errorf(fray.EINVALID, "Event %d (%s) has a payload that is not JSON.", ev.Seq, ev.Type)
		}
		b, err := json.Marshal(rewrite(t, v, false, ref, 0))
		if err != nil {
			return &fray.Error{Code: fray.EINVALID, Message: "Event " + ev.Type + " could not be rewritten.", Err: err}
		}
		ev.Data = b
	}
	for i := range ev.Rolls {
		if ev.Rolls[i].Who == "" {
			ev.Rolls[i].Who = id(ev.Rolls[i].For)
		}
	}
	ev.Format = fray.FormatIDs
	return nil
}

// rewrite returns the decoded JSON v, of Go type t, with every string
// that a field tagged fray:"who" holds passed through ref (and the keys
// of a map so tagged), at any depth.
func rewrite(t reflect.Type, v any, tagged bool, ref func(string) string, depth int) any {
	if depth > 16 || v == nil {
		return v
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		if s, ok := v.(string); ok && (tagged || t == reflect.TypeFor[fray.CombatantID]()) {
			return ref(s)
		}
	case reflect.Slice, reflect.Array:
		if xs, ok := v.([]any); ok {
			for i, x := range xs {
				xs[i] = rewrite(t.Elem(), x, tagged, ref, depth+1)
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			return v
		}
		keys := tagged || t.Key() == reflect.TypeFor[fray.CombatantID]()
		out := make(map[string]any, len(m))
		for k, x := range m {
			if keys {
				k = ref(k)
			}
			out[k] = rewrite(t.Elem(), x, false, ref, depth+1)
		}
		return out
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for _, f := range jsonFields(t) {
			if x, ok := m[f.name]; ok {
				m[f.name] = rewrite(f.typ, x, f.who, ref, depth+1)
			}
			// A name kept as words beside its id (fray.TagName with id=):
			// the id is the name's, as the rules meant it then.
			if name, ok := m[f.name].(string); ok && f.idKey != "" && name != "" {
				if id, _ := m[f.idKey].(string); id == "" {
					if x := ref(name); x != name {
						m[f.idKey] = x
					}
				}
			}
		}
	}
	return v
}

// jsonField is one field of a struct as encoding/json names it.
type jsonField struct {
	name  string
	typ   reflect.Type
	who   bool   // tagged fray:"who": a reference, rewritten
	idKey string // tagged fray:"name,id=KEY": the key of its id
}

var fieldCache sync.Map // reflect.Type → []jsonField

// jsonFields returns the fields of the struct type t under their JSON
// names, the fields of embedded structs among them (a field of t hides an
// embedded one of the same name, as in encoding/json).
func jsonFields(t reflect.Type) []jsonField {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]jsonField)
	}
	fs := ownFields(t)
	fieldCache.Store(t, fs)
	return fs
}

func ownFields(t reflect.Type) []jsonField {
	var fs, embedded []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				embedded = append(embedded, jsonFields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		opts := strings.Split(f.Tag.Get("fray"), ",")
		jf := jsonField{name: name, typ: f.Type, who: opts[0] == fray.TagWho}
		if opts[0] == fray.TagName {
			for _, opt := range opts[1:] {
				if k, ok := strings.CutPrefix(opt, "id="); ok {
					jf.idKey = k
				}
			}
		}
		fs = append(fs, jf)
	}
	for _, e := range embedded {
		if !slices.ContainsFunc(fs, func(f jsonField) bool { return f.name == e.name }) {
			fs = append(fs, e)
		}
	}
	return fs
}

// names is who is present, step by step, as a log of older events tells
// it: enough to resolve those events' names as the rules did.
type names struct {
	present map[string]namedID // by folded name
	gone    []namedID          // the removed, in the order they left
	steps   map[int][]change   // each step's changes, to undo and redo
}

type namedID struct {
	name string
	id   fray.CombatantID
}

// A change is one combatant coming, going or changing its name.
type change struct {
	kind     string // fray.EventAdded, EventRemoved or EventRenamed
	id       fray.CombatantID
	from, to string // the name before and after (a rename), or the name
}

func newNames() *names {
	return &names{present: map[string]namedID{}, steps: map[int][]change{}}
}

func fold(s string) string { return strings.ToLower(strings.ToUpper(fray.NormName(s))) }

// id resolves a name as fray.Encounter.IDOf would have.
func (n *names) id(name string) fray.CombatantID {
	if name == "" {
		return ""
	}
	if x, ok := n.present[fold(name)]; ok {
		return x.id
	}
	for i := len(n.gone) - 1; i >= 0; i-- {
		if fray.SameName(n.gone[i].name, name) {
			return n.gone[i].id
		}
	}
	return ""
}

// follow records the change an event (already in format 3) makes to who
// is present.
func (n *names) follow(ev *fray.Event) {
	c := change{kind: ev.Type}
	switch ev.Type {
	case fray.EventAdded:
		var d fray.AddedData
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		c.id, c.to = d.Combatant.ID, d.Combatant.Name
	case fray.EventRemoved:
		var d fray.NameData
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		c.id = d.Who
		c.from = n.nameOf(c.id)
	case fray.EventRenamed:
		var d fray.RenamedData
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		c.id, c.from, c.to = d.ID, n.nameOf(d.ID), d.To
	default:
		return
	}
	n.apply(c, true)
	n.steps[ev.Step] = append(n.steps[ev.Step], c)
}

// giveID gives a combatant that a log of format version 1 added without
// an id the id the rules give it (see freeID): derived from the event,
// the first that no combatant present or gone has.
func (n *names) giveID(ev *fray.Event) error {
	if ev.Type != fray.EventAdded {
		return nil
	}
	var d map[string]json.RawMessage
	if json.Unmarshal(ev.Data, &d) != nil {
		return nil // the rules will refuse it
	}
	var c map[string]json.RawMessage
	if json.Unmarshal(d["combatant"], &c) != nil {
		return nil
	}
	if id, ok := c["id"]; ok && string(id) != `""` {
		return nil
	}
	taken := func(id fray.CombatantID) bool {
		for _, x := range n.present {
			if x.id == id {
				return true
			}
		}
		for _, g := range n.gone {
			if g.id == id {
				return true
			}
		}
		return false
	}
	for try := 0; ; try++ {
		if id := NewCombatantID(0, ev.Seq, try); !taken(id) {
			c["id"], _ = json.Marshal(id)
			break
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	d["combatant"] = b
	if ev.Data, err = json.Marshal(d); err != nil {
		return err
	}
	return nil
}

// nameOf returns the name of the present combatant id.
func (n *names) nameOf(id fray.CombatantID) string {
	for _, x := range n.present {
		if x.id == id {
			return x.name
		}
	}
	return ""
}

// apply makes the change c, or takes it back.
func (n *names) apply(c change, forward bool) {
	switch {
	case c.kind == fray.EventAdded && forward, c.kind == fray.EventRemoved && !forward:
		if !forward {
			for i := len(n.gone) - 1; i >= 0; i-- {
				if n.gone[i].id == c.id {
					n.gone = append(n.gone[:i], n.gone[i+1:]...)
					break
				}
			}
		}
		name := c.to
		if c.kind == fray.EventRemoved {
			name = c.from
		}
		n.present[fold(name)] = namedID{name, c.id}
	case c.kind == fray.EventAdded: // taken back
		delete(n.present, fold(c.to))
	case c.kind == fray.EventRemoved:
		delete(n.present, fold(c.from))
		n.gone = append(n.gone, namedID{c.from, c.id})
	case c.kind == fray.EventRenamed:
		from, to := c.from, c.to
		if !forward {
			from, to = to, from
		}
		delete(n.present, fold(from))
		n.present[fold(to)] = namedID{to, c.id}
	}
}

// turn undoes (or redoes) the step's changes.
func (n *names) turn(step int, undo bool) {
	cs := n.steps[step]
	if undo {
		for i := len(cs) - 1; i >= 0; i-- {
			n.apply(cs[i], false)
		}
		return
	}
	for _, c := range cs {
		n.apply(c, true)
	}
}
