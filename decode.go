package fray

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A fast path for Event.Preload, where an event read back from a log or a
// store has its payload decoded once, and for Event.Decode into another
// type than the one an event holds: most payloads are flat JSON objects of
// strings and numbers ({"name":"Blueshift"}), or of lists of them or of
// such objects ({"turn":3,"chars":[{"name":"A","init":36,"lost":[36]}]}),
// which this small decoder reads without encoding/json's reflection-heavy
// machinery; like encoding/json it ignores keys no field has, when their
// values are plain. Anything it is not sure of (escapes in strings, null,
// nested objects other than list items, numbers that do not fit or are not
// whole, types that decode themselves) makes it give up, and encoding/json
// decodes the payload instead, so the result is always what encoding/json
// would give.

// maxFlatDepth is how deeply lists of objects may nest in a payload the
// fast path reads.
const maxFlatDepth = 4

// flatFields maps the JSON names of a flat struct's fields to their
// indexes; it is cached per type.
var flatFieldsCache sync.Map // reflect.Type → map[string]int

func flatFields(t reflect.Type) map[string]int {
	if v, ok := flatFieldsCache.Load(t); ok {
		return v.(map[string]int)
	}
	m := buildFlatFields(t, 0)
	flatFieldsCache.Store(t, m)
	return m
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether encoding/json would hand values of t to
// their own UnmarshalJSON or UnmarshalText method.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshaler) || p.Implements(jsonUnmarshaler) || t.Implements(textUnmarshaler) || p.Implements(textUnmarshaler)
}

// buildFlatFields returns the field map of the struct type t, or nil when
// a field is not one the fast path reads: a string, bool or signed
// integer, or a list of them or of such structs (depth counts the lists
// of structs around t).
func buildFlatFields(t reflect.Type, depth int) map[string]int {
	if t.Kind() != reflect.Struct || depth > maxFlatDepth || decodesItself(t) {
		return nil
	}
	m := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, opts, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if strings.Contains(opts, "string") {
				return nil
			}
			if n != "" {
				name = n
			}
		}
		ft := f.Type
		if ft.Kind() == reflect.Slice && !decodesItself(ft) {
			ft = ft.Elem()
			if ft.Kind() == reflect.Struct && buildFlatFields(ft, depth+1) != nil {
				m[name] = i
				continue
			}
		}
		if !flatScalar(ft) {
			return nil // not handled here: always decode with encoding/json
		}
		m[name] = i
	}
	return m
}

// flatScalar reports whether the fast path reads values of t: strings,
// bools and signed integers that do not decode themselves.
func flatScalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return !decodesItself(t)
	}
	return false
}

// decodeFlat decodes a flat JSON object into the struct v points to and
// reports whether it could; when it reports false, v may be partly set
// and must be decoded again by encoding/json. Like encoding/json, it
// leaves fields the object does not name as they were.
func decodeFlat(data []byte, v any) bool {
	dst := reflect.ValueOf(v)
	if dst.Kind() != reflect.Pointer || dst.IsNil() || dst.Elem().Kind() != reflect.Struct {
		return false
	}
	i, ok := decodeObject(data, skipSpace(data, 0), dst.Elem())
	return ok && skipSpace(data, i) == len(data)
}

// decodeObject decodes the JSON object at data[i] into the struct st and
// returns the index after it.
func decodeObject(data []byte, i int, st reflect.Value) (int, bool) {
	fields := flatFields(st.Type())
	if fields == nil || i >= len(data) || data[i] != '{' {
		return i, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		key, j, ok := plainBytes(data, i)
		if !ok {
			return i, false
		}
		i = skipSpace(data, j)
		if i >= len(data) || data[i] != ':' {
			return i, false
		}
		i = skipSpace(data, i+1)
		if fi, known := fields[string(key)]; known {
			f := st.Field(fi)
			if f.Kind() == reflect.Slice {
				i, ok = decodeList(data, i, f)
			} else {
				i, ok = decodeScalar(data, i, f)
			}
		} else if ignored(key, fields) {
			i, ok = skipScalar(data, i)
		} else {
			ok = false
		}
		if !ok {
			return i, false
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// decodeList decodes the JSON array at data[i] into the nil slice f and
// returns the index after it. A slice already holding a value, which
// encoding/json would reuse, is left to encoding/json.
func decodeList(data []byte, i int, f reflect.Value) (int, bool) {
	if !f.IsNil() || i >= len(data) || data[i] != '[' {
		return i, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		f.Set(reflect.MakeSlice(f.Type(), 0, 0)) // [] is an empty slice, not nil
		return i + 1, true
	}
	for n := 0; ; n++ {
		if n == f.Cap() {
			f.Grow(max(n, 4))
		}
		f.SetLen(n + 1)
		var ok bool
		if e := f.Index(n); e.Kind() == reflect.Struct {
			i, ok = decodeObject(data, i, e)
		} else {
			i, ok = decodeScalar(data, i, e)
		}
		if !ok {
			return i, false
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// decodeScalar decodes the JSON string, boolean or whole number at data[i]
// into f, a string, bool or signed integer, and returns the index after it.
func decodeScalar(data []byte, i int, f reflect.Value) (int, bool) {
	switch f.Kind() {
	case reflect.String:
		s, j, ok := plainBytes(data, i)
		if !ok {
			return i, false
		}
		f.SetString(string(s))
		return j, true
	case reflect.Bool:
		switch {
		case bytes.HasPrefix(data[i:], []byte("true")):
			f.SetBool(true)
			return i + 4, true
		case bytes.HasPrefix(data[i:], []byte("false")):
			f.SetBool(false)
			return i + 5, true
		}
		return i, false
	default:
		j := i
		if j < len(data) && data[j] == '-' {
			j++
		}
		for j < len(data) && data[j] >= '0' && data[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(string(data[i:j]), 10, f.Type().Bits())
		if err != nil || (j-i > 1 && data[i] == '0') || (j-i > 2 && data[i] == '-' && data[i+1] == '0') {
			return i, false
		}
		f.SetInt(n)
		return j, true
	}
}

// ignored reports whether encoding/json ignores the key: an ASCII key that
// names no field, not even when case is ignored, as encoding/json's
// matching does. Such keys are in payloads decoded into a smaller type
// ({"name":"A","nth":2} into NameData).
func ignored(key []byte, fields map[string]int) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	k := string(key)
	for name := range fields {
		for j := 0; j < len(name); j++ {
			if name[j] >= utf8.RuneSelf {
				return false
			}
		}
		if strings.EqualFold(name, k) {
			return false
		}
	}
	return true
}

// skipScalar returns the index after the JSON string (without escapes),
// boolean, null or whole number at b[i].
func skipScalar(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		_, j, ok := plainBytes(b, i)
		return j, ok
	case 't':
		return i + 4, bytes.HasPrefix(b[i:], []byte("true"))
	case 'f':
		return i + 5, bytes.HasPrefix(b[i:], []byte("false"))
	case 'n':
		return i + 4, bytes.HasPrefix(b[i:], []byte("null"))
	}
	j := i
	if b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	default:
		return i, false
	}
	return j, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainBytes reads a JSON string at b[i] that has no escapes, no control
// characters and only valid UTF-8, and returns its bytes and the index
// after its closing quote.
func plainBytes(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			s := b[i+1 : j]
			return s, j + 1, utf8.Valid(s)
		case c == '\\' || c < ' ':
			return nil, i, false
		}
	}
	return nil, i, false
}
