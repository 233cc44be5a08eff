package fray

import (
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
)

// An event's payload is decoded from JSON once, where the event enters the
// engine: when it is made (NewEvent keeps the value it encodes) or read
// back from a log or a store (Preload, which the engine calls with the
// payload types each system declares). Every Decode after that copies the
// value, deeply, so that the rules may keep what they decode and change
// it without reaching the event: a replay, an undo or a redo applies the
// same event again and must find it as it was.

// Preload decodes the event's payload into a new value of the type of
// proto, a payload struct such as AddedData{}, and keeps it, so that a
// Decode into that type copies it instead of decoding Data. An event
// that already holds its payload, or has none, is left as it is; so is
// one whose type cannot be copied (see NewEvent). It reports an EINVALID
// error naming the event when the payload does not fit.
func (e *Event) Preload(proto any) error {
	if len(e.Data) == 0 || e.payload != nil {
		return nil
	}
	t := reflect.TypeOf(proto)
	if t == nil || !copyable(t) {
		return nil
	}
	p := reflect.New(t)
	if decodeFlat(e.Data, p.Interface()) {
		e.payload = p.Elem().Interface()
		return nil
	}
	p = reflect.New(t) // the fast path may have set part of it
	if err := json.Unmarshal(e.Data, p.Interface()); err != nil {
		return &Error{Code: EINVALID, Message: "Event " + strconv.Itoa(e.Seq) + " (" + e.Type + ") has malformed data.", Err: err}
	}
	e.payload = p.Elem().Interface()
	return nil
}

// Decode decodes the event's payload into v: a copy of the value it
// holds (see Preload) when v points to a value of its type (for an event
// marked LastUse, that value itself), else from Data, or from the
// payload's JSON made now for an event of NewUnrecordedEvent. Into a
// value already set, a fast path for flat payloads leaves fields Data
// does not name as they were, as encoding/json does. It reports an
// EINVALID error naming the event when the payload does not fit.
func (e Event) Decode(v any) error {
	if len(e.Data) == 0 && e.payload == nil {
		return Errorf(EINVALID, "Event %d (%s) has no data.", e.Seq, e.Type)
	}
	if e.payload != nil {
		if dst := reflect.ValueOf(v); dst.Kind() == reflect.Pointer && !dst.IsNil() {
			if src := reflect.ValueOf(e.payload); src.Type() == dst.Type().Elem() {
				if e.last || flat(src.Type()) {
					dst.Elem().Set(src)
				} else {
					dst.Elem().Set(deepCopy(src))
				}
				return nil
			}
		}
	}
	// A payload read into another type than the one it holds (a smaller
	// view of it, or an older shape) is decoded from Data (made now for
	// an event of NewUnrecordedEvent).
	data, err := e.JSON()
	if err != nil {
		return err
	}
	if decodeFlat(data, v) {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Error{Code: EINVALID, Message: "Event " + strconv.Itoa(e.Seq) + " (" + e.Type + ") has malformed data.", Err: err}
	}
	return nil
}

// Payload returns the event's payload as a T, as Decode into a new T
// gives it. An event that holds a T of no references (a flat payload,
// which Decode copies as it is) hands over that copy without
// allocating, which keeps a replay and a simulated fight fast.
func Payload[T any](e Event) (T, error) {
	if p, ok := e.payload.(T); ok && flat(reflect.TypeFor[T]()) {
		return p, nil
	}
	var v T
	err := e.Decode(&v)
	return v, err
}

// Holds reports whether the event holds its payload as a value of type
// T (see Preload), which Payload and Decode into a T copy.
func Holds[T any](e Event) bool {
	_, ok := e.payload.(T)
	return ok
}

// keep returns the value an event made of data keeps as its payload: data
// itself when it holds no references, else a deep copy (the caller may
// go on changing what data refers to), or nil when it cannot be copied.
func keep(data any) any {
	t := reflect.TypeOf(data)
	switch {
	case flat(t):
		return data
	case copyable(t):
		return deepCopy(reflect.ValueOf(data)).Interface()
	}
	return nil
}

// deepCopy returns a copy of v that shares no memory with it; v's type
// is copyable.
func deepCopy(v reflect.Value) reflect.Value {
	t := v.Type()
	switch t.Kind() {
	case reflect.Struct:
		// Copied whole, then each field that holds references copied
		// deeply over its shallow copy.
		out := reflect.New(t).Elem()
		out.Set(v)
		for _, i := range refFields(t) {
			out.Field(i).Set(deepCopy(v.Field(i)))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		if e := t.Elem(); flatElem(e) || flat(e) {
			reflect.Copy(out, v)
			return out
		}
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(deepCopy(it.Key()), deepCopy(it.Value()))
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(deepCopy(v.Elem()))
		return out
	}
	return v // a string, number or boolean
}

// flatTypes and copyableTypes cache flat's and copyable's answers by
// type, refTypes refFields'.
var flatTypes, copyableTypes, refTypes sync.Map // reflect.Type → bool, bool, []int

// refFields returns the indices of the fields of the struct type t that
// hold references: all but its strings, numbers, booleans and flat
// structs, which assigning the struct copies.
func refFields(t reflect.Type) []int {
	if v, ok := refTypes.Load(t); ok {
		return v.([]int)
	}
	var out []int
	for i := range t.NumField() {
		if f := t.Field(i).Type; !flatElem(f) && !flat(f) {
			out = append(out, i)
		}
	}
	refTypes.Store(t, out)
	return out
}

// flat reports whether values of t hold no references: a struct of
// strings, numbers and booleans (nested structs included). Such a payload
// is copied by assignment.
func flat(t reflect.Type) bool {
	if v, ok := flatTypes.Load(t); ok {
		return v.(bool)
	}
	ok := t.Kind() == reflect.Struct && flatStruct(t, 0)
	flatTypes.Store(t, ok)
	return ok
}

func flatStruct(t reflect.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			if !flatStruct(f.Type, depth+1) {
				return false
			}
		case !flatElem(f.Type):
			return false
		}
	}
	return true
}

// flatElem reports whether t is a string, number or boolean.
func flatElem(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// copyable reports whether deepCopy can copy values of the struct type t:
// every field exported, and of strings, numbers, booleans, structs,
// slices, arrays, maps and pointers of them, a few levels deep.
func copyable(t reflect.Type) bool {
	if v, ok := copyableTypes.Load(t); ok {
		return v.(bool)
	}
	ok := t.Kind() == reflect.Struct && copyableType(t, 0)
	copyableTypes.Store(t, ok)
	return ok
}

func copyableType(t reflect.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); !f.IsExported() || !copyableType(f.Type, depth+1) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return copyableType(t.Elem(), depth+1)
	case reflect.Map:
		return copyableType(t.Key(), depth+1) && copyableType(t.Elem(), depth+1)
	}
	return flatElem(t)
}
