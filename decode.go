package fray

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A fast path for Event.Decode: most payloads are flat JSON objects of
// strings and numbers ({"name":"Blueshift"}), which this small decoder
// reads without encoding/json's reflection-heavy machinery. Anything it is
// not sure of (escapes in strings, null, nested values, unknown keys,
// numbers that do not fit) makes it give up, and encoding/json decodes the
// payload instead, so the result is always what encoding/json would give.

// flatFields maps the JSON names of a flat struct's fields to their
// indexes; it is cached per type.
var flatFieldsCache sync.Map // reflect.Type → map[string]int

func flatFields(t reflect.Type) map[string]int {
	if v, ok := flatFieldsCache.Load(t); ok {
		return v.(map[string]int)
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
				m = nil
				break
			}
			if n != "" {
				name = n
			}
		}
		switch f.Type.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			m[name] = i
		default:
			m = nil // not handled here: always decode with encoding/json
		}
		if m == nil {
			break
		}
	}
	flatFieldsCache.Store(t, m)
	return m
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
	st := dst.Elem()
	fields := flatFields(st.Type())
	if fields == nil {
		return false
	}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		key, j, ok := plainBytes(data, i)
		if !ok {
			return false
		}
		i = skipSpace(data, j)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		fi, ok := fields[string(key)]
		if !ok {
			return false
		}
		f := st.Field(fi)
		switch f.Kind() {
		case reflect.String:
			s, j, ok := plainBytes(data, i)
			if !ok {
				return false
			}
			f.SetString(string(s))
			i = j
		case reflect.Bool:
			switch {
			case bytes.HasPrefix(data[i:], []byte("true")):
				f.SetBool(true)
				i += 4
			case bytes.HasPrefix(data[i:], []byte("false")):
				f.SetBool(false)
				i += 5
			default:
				return false
			}
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
				return false
			}
			f.SetInt(n)
			i = j
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
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
