package engine

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
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

// Error says where the key is, how it is written and how the field is.
func (e *FieldCaseError) Error() string {
	where := ""
	if e.Path != "" {
		where = e.Path + ": "
	}
	return fmt.Sprintf("%sfield %q is written %q: names of fields are read exactly as written, in their case", where, e.Key, e.Field)
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
	bytes []byte // name, to compare in any case with a key's bytes
	shape *shape
}

// find returns the field that key (as encoding/json reads it) names, and
// whether exactly, in its case; nil when key names none. Like
// encoding/json, it takes the field of key's exact name first, else the
// first in any case.
func (s *shape) find(key []byte) (*caseField, bool) {
	for i := range s.fields {
		if string(key) == s.fields[i].name {
			return &s.fields[i], true
		}
	}
	for i := range s.fields {
		if bytes.EqualFold(key, s.fields[i].bytes) {
			return &s.fields[i], false
		}
	}
	return nil, false
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
			s.fields = append(s.fields, caseField{name: f.name, bytes: []byte(f.name), shape: makeShape(f.t, making)})
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
