package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// encoding/json matches an object's keys to a struct's fields in any case
// ("Type" fills the field "type") when no key is the field's name as
// written. The formats of Arbiter (the protocol's messages, the HTTP API's
// bodies, moves, records) name their fields in one case only, so that a
// program written against Arbiter keeps working on a strict reader:
// ExactFieldNames finds a key that encoding/json would take for a field in
// another case.

// FieldCaseError is a key of a JSON object that names a field in another
// case than the field's own.
type FieldCaseError struct {
	// Path is where the object is ("seats[1]"), "" at the top level.
	Path string
	// Key is the key as written ("Type"), Field the field's name ("type").
	Key, Field string
}

func (e *FieldCaseError) Error() string {
	where := ""
	if e.Path != "" {
		where = e.Path + ": "
	}
	return fmt.Sprintf("%sfield %q is written %q: names of fields are read exactly as written, in their case", where, e.Key, e.Field)
}

// ExactFieldNames checks that every key of the JSON value data that
// encoding/json would take for a field of v (a pointer to what data was
// decoded into) names it exactly, in its case, in objects at any depth;
// other keys (a message's fields of a bot's own) are left alone, as are
// the values of types that read their own JSON, which check their own
// keys. data must be valid JSON: what was just decoded without error.
func ExactFieldNames(data []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil {
		return nil
	}
	if _, err := checkCase(data, skipSpace(data, 0), shapeOf(t)); err != nil {
		return err
	}
	return nil
}

// checkCase checks the value at data[i:] against shape s, and returns the
// index after it. A key in another case is reported with its path from
// this value.
func checkCase(data []byte, i int, s *shape) (int, *FieldCaseError) {
	if i >= len(data) || s == nil {
		return skipValue(data, i), nil
	}
	switch {
	case data[i] == '{' && (s.kind == reflect.Struct || s.kind == reflect.Map):
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			return i + 1, nil
		}
		for i < len(data) {
			end := skipString(data, i)
			key := data[i+1 : max(end-1, i+1)]
			i = skipSpace(data, end)
			i = skipSpace(data, i+1) // the colon
			inner := s.elem
			if s.kind == reflect.Struct {
				f, exact := s.find(key)
				if f != nil && !exact {
					return i, &FieldCaseError{Key: unquoteKey(key), Field: f.name}
				}
				inner = nil
				if f != nil {
					inner = f.shape
				}
			}
			var err *FieldCaseError
			if i, err = checkCase(data, i, inner); err != nil {
				err.Path = under(pathKey(unquoteKey(key)), err.Path)
				return i, err
			}
			i = skipSpace(data, i)
			if i >= len(data) || data[i] == '}' {
				return i + 1, nil
			}
			i = skipSpace(data, i+1) // the comma
		}
		return i, nil
	case data[i] == '[' && s.kind == reflect.Slice:
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		for n := 0; i < len(data); n++ {
			var err *FieldCaseError
			if i, err = checkCase(data, i, s.elem); err != nil {
				err.Path = under("["+strconv.Itoa(n)+"]", err.Path)
				return i, err
			}
			i = skipSpace(data, i)
			if i >= len(data) || data[i] == ']' {
				return i + 1, nil
			}
			i = skipSpace(data, i+1)
		}
		return i, nil
	}
	return skipValue(data, i), nil
}

// under is the path of what is at path inside step (a pathKey, or an
// index "[2]").
func under(step, path string) string {
	switch {
	case path == "":
		return step
	case path[0] == '[':
		return step + path
	}
	return step + "." + path
}

// pathKey is a key as a step of a path: as it is when it reads as a name,
// quoted when it could be taken for something else (no key at all, an
// index, two keys) or is not all visible.
func pathKey(key string) string {
	if key == "" {
		return `""`
	}
	for _, r := range key {
		if r == '.' || r == '[' || r == ']' || r == '"' || r == ' ' || r == utf8.RuneError || !unicode.IsGraphic(r) {
			return strconv.Quote(key)
		}
	}
	return key
}

// shape is what of a Go type decides which keys name its fields: the
// fields of a struct, and the values of a map, a slice or an array. A
// type of no such keys (a number, a string, one that reads its own JSON)
// has no shape (nil).
type shape struct {
	kind   reflect.Kind // Struct, Map or Slice (for arrays too)
	fields []caseField  // a struct's
	elem   *shape       // a map's, a slice's or an array's values
}

// caseField is a field of a struct as encoding/json reads it.
type caseField struct {
	name  string
	shape *shape
}

// find returns the field key names, and whether exactly, in its case; nil
// when key names none.
func (s *shape) find(key []byte) (*caseField, bool) {
	for i := range s.fields {
		if string(key) == s.fields[i].name {
			return &s.fields[i], true
		}
	}
	k := unquoteKey(key)
	var folded *caseField
	for i := range s.fields {
		switch {
		case k == s.fields[i].name:
			return &s.fields[i], true // written with escapes
		case folded == nil && strings.EqualFold(k, s.fields[i].name):
			folded = &s.fields[i]
		}
	}
	return folded, false
}

var shapes sync.Map // reflect.Type → *shape, or noShape

// noShape stands for a type of no shape in shapes.
var noShape = new(shape)

// shapeOf returns t's shape, made once per type.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		if s == noShape {
			return nil
		}
		return s.(*shape)
	}
	s := makeShape(t, map[reflect.Type]*shape{})
	if s == nil {
		shapes.Store(t, noShape)
	} else {
		shapes.Store(t, s)
	}
	return s
}

// makeShape makes t's shape; making holds those under way, for types
// that contain themselves.
func makeShape(t reflect.Type, making map[reflect.Type]*shape) *shape {
	for t.Kind() == reflect.Pointer {
		if t.Implements(jsonUnmarshaler) || t.Implements(textUnmarshaler) {
			return nil
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	if s, ok := making[t]; ok {
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		s := &shape{kind: reflect.Struct}
		making[t] = s
		for _, f := range jsonFieldTypes(t) {
			s.fields = append(s.fields, caseField{name: f.name, shape: makeShape(f.t, making)})
		}
		return s
	case reflect.Map, reflect.Slice, reflect.Array:
		s := &shape{kind: t.Kind()}
		if s.kind == reflect.Array {
			s.kind = reflect.Slice
		}
		making[t] = s
		s.elem = makeShape(t.Elem(), making)
		if s.elem == nil {
			return nil // nothing in it has keys to check
		}
		return s
	}
	return nil
}

// unquoteKey is a key's text, its escapes read (a key is rarely written
// with them).
func unquoteKey(key []byte) string {
	for _, c := range key {
		if c == '\\' {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) == nil {
				return s
			}
			break
		}
	}
	return string(key)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at data[i].
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index after the value that starts at data[i].
func skipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i = skipString(data, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of what holds a number, true, false or null
			}
			depth--
			if depth <= 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}
