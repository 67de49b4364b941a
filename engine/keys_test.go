package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// The types FuzzUniqueKeys reads JSON as: structs in structs, in slices,
// arrays, maps and pointers, a type that contains itself, keys kept raw,
// types that read their own JSON, a field left out, a field named as in
// Go, an embedded struct and names that fold (the long s is an s).
type (
	fuzzSeat struct {
		Player string    `json:"player"`
		Name   string    `json:"name,omitempty"`
		Inner  *fuzzSeat `json:"inner"`
		secret int
	}
	fuzzWhen struct {
		Turn int `json:"turn"`
	}
	fuzzOwn  struct{ X int }
	fuzzText struct{ X int }
	fuzzBody struct {
		Game    string              `json:"game"`
		Seats   []fuzzSeat          `json:"seats"`
		ByName  map[string]fuzzSeat `json:"by_name"`
		Grid    [2][]*fuzzSeat      `json:"grid"`
		Move    json.RawMessage     `json:"move"`
		Own     fuzzOwn             `json:"own"`
		Text    *fuzzText           `json:"text"`
		Any     any                 `json:"any"`
		Skip    fuzzSeat            `json:"-"`
		Plain   int
		Long    string         `json:"\u017fk"`
		Options map[string]any `json:"options"`
		fuzzWhen
	}
)

func (o *fuzzOwn) UnmarshalJSON([]byte) error  { return nil }
func (t *fuzzText) UnmarshalText([]byte) error { return nil }

// FuzzUniqueKeys checks the one scan of keys (KeyFaults) against
// references that read the JSON as encoding/json does: a valid JSON value
// has a key given twice in one object exactly when encoding/json's tokens
// show one, whatever the escapes or bytes of its keys; and its first key
// that names a field of fuzzBody in another case is the one found by
// walking the tokens along the Go type with reflect.
func FuzzUniqueKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"a":{"":{"d":0,"d":1}}}`, `[{"x":1},{"x":2}]`,
		`{"a\u0062":1,"ab":2}`, "{\"\xff\":1,\"\xfe\":2}", `{"k":[1,{"k":2}],"j":{"k":3}}`, `{"a":{"b":1},"a":2}`, `{"a":{},"a":[]}`, `[]`, `"s"`, `{"a":1,"a":2`,
		`{"Game":"x"}`, `{"seats":[{"player":"a"},{"Player":"b"}]}`, `{"by_name":{"a.b":{"inner":{"NAME":1}}}}`, `{"grid":[[],[null,{"pLayer":1}],[{"Player":2}]]}`,
		`{"own":{"X":1},"text":{"x":1},"any":{"Game":1},"move":{"Game":1},"options":{"Game":1}}`, `{"plain":1,"Turn":2}`, `{"sk":1,"SK":2}`, `{"g\u0041me":1}`,
		`{"game":1,"game":2,"Seats":[]}`, `{"Seats":[],"seats":[],"seats":[]}`, `{"game":{"Game":1},"seats":{"Player":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzBody
		twice, cased := KeyFaults(data, &v)
		if exact := ExactFieldNames(data, &v); json.Valid(data) && fmt.Sprint(exact) != fmt.Sprint(cased) {
			t.Errorf("%q: ExactFieldNames says %v; KeyFaults %v", data, exact, cased)
		}
		if !json.Valid(data) {
			return // the scan stops at what is not JSON; the decoder says why
		}
		if want := keyTwice(data); (twice != nil) != want {
			t.Errorf("%q: KeyFaults says a key is given twice: %v; encoding/json's tokens: %v", data, twice, want)
		}
		want := caseReference(data, reflect.TypeOf(&v))
		var got *FieldCaseError
		if cased != nil {
			got = cased.(*FieldCaseError)
		}
		switch {
		case (got == nil) != (want == nil):
			t.Errorf("%q: KeyFaults says %v; reflect's reference %v", data, got, want)
		case got == nil:
		case got.Field != want.Field:
			t.Errorf("%q: KeyFaults says %v; reflect's reference %v", data, got, want)
		case utf8.Valid(data) && *got != *want:
			// (A key of bytes that are not UTF-8 is shown as written.)
			t.Errorf("%q: KeyFaults says %v; reflect's reference %v", data, got, want)
		}
	})
}

// keyTwice reads the valid JSON value data token by token and reports
// whether an object gives a key twice.
func keyTwice(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type open struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*open
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *open
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key && tok != json.Delim('}') {
			k := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('}'):
			stack = stack[:len(stack)-1]
		case json.Delim('{'):
			stack = append(stack, &open{object: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &open{})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: its object's next token is a key.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}

// caseReference reads the valid JSON value data token by token along the
// Go type t with reflect, and returns the first key that encoding/json
// would take for a field of a struct written in another case; nil for
// none.
func caseReference(data []byte, t reflect.Type) *FieldCaseError {
	r := caseWalk{dec: json.NewDecoder(bytes.NewReader(data))}
	r.value(t, "")
	return r.fault
}

// caseWalk walks the tokens of a JSON value along a Go type.
type caseWalk struct {
	dec   *json.Decoder
	fault *FieldCaseError
}

// value reads the next value, of type t (nil: of no type with fields), at
// path.
func (r *caseWalk) value(t reflect.Type, path string) {
	tok, err := r.dec.Token()
	if err != nil {
		return
	}
	t = withKeys(t)
	switch tok {
	case json.Delim('{'):
		for r.dec.More() {
			tok, err := r.dec.Token()
			if err != nil {
				return
			}
			key := tok.(string)
			var inner reflect.Type
			switch {
			case t == nil:
			case t.Kind() == reflect.Map:
				inner = t.Elem()
			case t.Kind() == reflect.Struct:
				name, ft, exact := fieldOf(t, key)
				if exact {
					inner = ft
				} else if ft != nil && r.fault == nil {
					r.fault = &FieldCaseError{Path: path, Key: key, Field: name}
				}
			}
			r.value(inner, step(path, pathKey(key)))
		}
		r.dec.Token() // the "}"
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem() // an array's extra values are read for keys too
		}
		for i := 0; r.dec.More(); i++ {
			r.value(elem, step(path, fmt.Sprintf("[%d]", i)))
		}
		r.dec.Token() // the "]"
	}
}

// step is the path of what is at s (a key or "[i]") inside path.
func step(path, s string) string {
	if path == "" || s[0] == '[' {
		return path + s
	}
	return path + "." + s
}

// withKeys returns what t (through pointers) is when its JSON values may
// have keys of fields: a struct, a map, a slice or an array; nil for
// other types, and for a type that reads its own JSON.
func withKeys(t reflect.Type) reflect.Type {
	for t != nil {
		if t.Implements(reflect.TypeFor[json.Unmarshaler]()) || t.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) ||
			reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
			return nil
		}
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
		case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
			return t
		default:
			return nil
		}
	}
	return nil
}

// fieldOf returns the field of struct t that key names in encoding/json,
// its name as written and its type, and whether key is that name exactly.
func fieldOf(t reflect.Type, key string) (name string, ft reflect.Type, exact bool) {
	fields := structFields(t)
	for _, f := range fields {
		if f.Name == key {
			return f.Name, f.Type, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.Name, key) {
			return f.Name, f.Type, false
		}
	}
	return "", nil, false
}

// fuzzFields holds the fields of each struct type, as structFields lists
// them.
var fuzzFields sync.Map

// structFields lists the fields of struct t that encoding/json reads, by
// their names in JSON, those of embedded structs in their place.
func structFields(t reflect.Type) []reflect.StructField {
	if fields, ok := fuzzFields.Load(t); ok {
		return fields.([]reflect.StructField)
	}
	var fields []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if len(f.Index) > 1 {
			continue // listed from its embedded struct
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			fields = append(fields, structFields(f.Type)...)
		case !f.IsExported():
		default:
			if tag != "" {
				f.Name = tag
			}
			fields = append(fields, f)
		}
	}
	fuzzFields.Store(t, fields)
	return fields
}
