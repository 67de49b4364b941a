package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Names are the names of a game's small enumerations (AjveCiv's values, a
// request's kinds), in order: value i is called Names[i]. They give the
// enumeration its text and JSON forms, so that each game need not write them
// again.
type Names []string

// Parse returns the index of name, in any case, or an error that lists the
// names; what says what is named ("value").
func (n Names) Parse(name, what string) (int, error) {
	for i, x := range n {
		if strings.EqualFold(x, name) {
			return i, nil
		}
	}
	if near := Nearest(name, n); near != "" {
		return -1, fmt.Errorf("unknown %s %q: did you mean %s? The %ss are %s", what, name, near, what, strings.Join(n, ", "))
	}
	return -1, fmt.Errorf("unknown %s %q; the %ss are %s", what, name, what, strings.Join(n, ", "))
}

// AppendObject appends the JSON object {name: value, ...} in the names'
// order.
func (n Names) AppendObject(b []byte, values []int) []byte {
	b = append(b, '{')
	for i, name := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(values[i]), 10)
	}
	return append(b, '}')
}

// ParseObject reads a JSON object {name: whole number, ...} into values: every
// name must be given, exactly as named, and no other key; what names the
// object in errors ("values").
func (n Names) ParseObject(data []byte, values []int, what string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return fmt.Errorf("%s: want an object of %s to whole numbers", what, strings.Join(n, ", "))
	}
	for key, raw := range m {
		i, err := n.Parse(key, "name")
		if err != nil || key != n[i] {
			return fmt.Errorf("%s: unknown key %q; the keys are %s", what, key, strings.Join(n, ", "))
		}
		if err := json.Unmarshal(raw, &values[i]); err != nil {
			return fmt.Errorf("%s.%s: want a whole number, got %s", what, key, raw)
		}
	}
	for _, name := range n {
		if _, ok := m[name]; !ok {
			return fmt.Errorf("%s: %s is missing; all of %s are required", what, name, strings.Join(n, ", "))
		}
	}
	return nil
}

// NullMove reports whether data, a move's JSON, is null. No game's move is
// null, whatever the game's Go type would make of it (a value's zero, an
// empty plan): every boundary that takes a move from outside (the external
// player protocol, the HTTP API) refuses it as not a move of the game, the
// same way in every game, before the game reads it.
func NullMove(data []byte) bool {
	return string(bytes.TrimSpace(data)) == "null"
}

// RefuseNullMove is the refusal of a move that is JSON null: "not-a-move",
// as any other JSON that is not a move of the game.
func RefuseNullMove() *RuleError {
	return Refuse("not-a-move", `null is not a move of this game: a move is the game's own JSON, as a request's "default" is`)
}

// DecodeJSON decodes one JSON value from data into v, refusing unknown fields
// (a field's name in another case among them: ExactFieldNames), a key given
// twice in an object (which encoding/json would take the last of in silence)
// and trailing data, with errors worded for people: the field, what it wants
// and what it got.
func DecodeJSON(data []byte, v any) error {
	// A file some editors save as "UTF-8 with BOM": encoding/json would
	// say only "invalid character 'ï'".
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\ufeff")) {
		return errors.New("the JSON begins with a byte order mark (U+FEFF), which JSON does not take; write it without one (UTF-8 without BOM)")
	}
	// One scan for both faults of keys, before decoding. A key given
	// twice is told before all else, so that the outermost reader names
	// the whole path (a type that reads its own JSON with DecodeJSON sees
	// only its part); a field in another case after what the decoder
	// finds, as an unknown field is.
	twice, cased := KeyFaults(data, v)
	if twice != nil {
		return twice
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			// encoding/json names the field but not where it was: find
			// the object that has it, and say what that object takes.
			var tree any
			name, _ := strconv.Unquote(quoted)
			if json.Unmarshal(data, &tree) == nil {
				if where, fields, found := unknownField(reflect.TypeOf(v), tree, name, ""); found {
					if where != "" {
						where += ": "
					}
					if near := Nearest(name, strings.Split(fields, ", ")); near != "" {
						return fmt.Errorf("%sunknown field %s; did you mean %s? The fields are %s", where, quoted, near, fields)
					}
					return fmt.Errorf("%sunknown field %s; the fields are %s", where, quoted, fields)
				}
			}
			return fmt.Errorf("unknown field %s", quoted)
		}
		return jsonProblem(err)
	}
	// What follows the value may be space only. (The decoder's More
	// takes a stray "}" or "]" after it for the end of nothing.)
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return errors.New("trailing data after the JSON value")
	}
	// A key that is a field's name in another case is no field either:
	// encoding/json took it for the field.
	return cased
}

// jsonProblem rewords encoding/json's errors for people.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the top level"
		}
		want := kindName(te.Type.Kind().String())
		if reflect.PointerTo(te.Type).Implements(textUnmarshaler) || te.Type.Implements(textUnmarshaler) {
			want = "a string"
		} else if fields := jsonFields(te.Type); fields != "" {
			want += " with the fields " + fields
		}
		return fmt.Errorf("%s: want %s, got a JSON %s", field, want, te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("not valid JSON at byte %d: %v", se.Offset, err)
	case errors.Is(err, io.EOF):
		return errors.New("empty input; want a JSON value")
	}
	return err
}

// unknownField finds the object in tree (data decoded as any) that has the
// field name which its type in t does not: the path to it ("seats[0]", ""
// for the top level) and the fields that type has. It looks no further
// than types that read their own JSON.
func unknownField(t reflect.Type, tree any, name, path string) (where, fields string, found bool) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "", "", false
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, _ := tree.(map[string]any)
		known := jsonFieldTypes(t)
		for _, key := range slices.Sorted(maps.Keys(obj)) {
			i := slices.IndexFunc(known, func(f jsonField) bool { return strings.EqualFold(f.name, key) })
			if i < 0 {
				if key == name {
					return path, jsonFields(t), true
				}
				continue
			}
			if where, fields, found := unknownField(known[i].t, obj[key], name, joinPath(path, key)); found {
				return where, fields, true
			}
		}
	case reflect.Slice, reflect.Array:
		list, _ := tree.([]any)
		for i, item := range list {
			if where, fields, found := unknownField(t.Elem(), item, name, fmt.Sprintf("%s[%d]", path, i)); found {
				return where, fields, true
			}
		}
	case reflect.Map:
		obj, _ := tree.(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(obj)) {
			if where, fields, found := unknownField(t.Elem(), obj[key], name, joinPath(path, key)); found {
				return where, fields, true
			}
		}
	}
	return "", "", false
}

// joinPath is the path to key in the object at path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonField is a field of a struct as encoding/json reads it.
type jsonField struct {
	name string
	t    reflect.Type
}

// jsonFieldTypes lists the fields of struct t as encoding/json reads them,
// those of embedded structs among them.
func jsonFieldTypes(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			out = append(out, jsonFieldTypes(f.Type)...)
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, jsonField{name, f.Type})
	}
	return out
}

// jsonUnmarshaler is the type of what reads its own JSON.
var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// textUnmarshaler is the type of what reads itself from a JSON string.
var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// jsonFields lists the JSON names of the fields of a struct t (or of what
// t points to), as encoding/json reads them: "" for another type.
func jsonFields(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	var names []string
	for _, f := range jsonFieldTypes(t) {
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// JSONKind names the kind of the JSON value that data begins with, for a
// refusal that says what came instead of what was wanted: "object",
// "array", "string", "bool", "null" or "number"; "" for no value at all.
// It looks at the first byte only, after spaces: a value cut short, or not
// JSON, is named by how it begins.
func JSONKind(data []byte) string {
	b := bytes.TrimLeft(data, " \t\r\n")
	if len(b) == 0 {
		return ""
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

func kindName(k string) string {
	switch k {
	case "int", "int64", "int32":
		return "a whole number"
	case "uint", "uint64", "uint32", "uint8":
		return "a whole number, 0 or more"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	}
	return k
}

// MarshalNullable writes an enumeration value as JSON: its text (the
// value's MarshalText) as a string, or null when none is set.
func MarshalNullable(none bool, v encoding.TextMarshaler) ([]byte, error) {
	if none {
		return []byte("null"), nil
	}
	b, err := v.MarshalText()
	if err != nil {
		return nil, err
	}
	return json.Marshal(string(b))
}

// UnmarshalNullable reads what MarshalNullable writes into v: a string, read
// by v's UnmarshalText, or null, for which it reports none and leaves v
// alone. what names the enumeration in errors ("value").
func UnmarshalNullable(b []byte, what string, v encoding.TextUnmarshaler) (none bool, err error) {
	if string(b) == "null" {
		return true, nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return false, &NameWanted{What: what, Got: string(b)}
	}
	return false, v.UnmarshalText([]byte(s))
}

// NameWanted is UnmarshalNullable's error for JSON that is neither a name
// nor null: "want a value name or null, got 5".
type NameWanted struct {
	What string // the enumeration ("value")
	Got  string // the JSON given
}

func (e *NameWanted) Error() string {
	return fmt.Sprintf("want a %s name or null, got %s", e.What, e.Got)
}

// AsMove words err, an error of reading a move's JSON, for a move: null,
// which a world's JSON takes for none (a dead society's choice), is no
// move of any game (NullMove), so a move that should have been a name is
// told to be one, without "or null".
func AsMove(err error) error {
	var nw *NameWanted
	if errors.As(err, &nw) {
		return fmt.Errorf("want a %s name, got %s", nw.What, nw.Got)
	}
	return err
}

// Or joins words as people list choices: "a, b or c" ("a" alone, "" for
// none).
func Or(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Nearest returns the name nearest to s in edit distance, in any case, when
// it is near enough to be a typo (at most a third of its letters, and at
// least one, differ, in a name of three letters or more): what a "did you
// mean" offers. It returns "" when none is.
func Nearest(s string, names []string) string {
	best, bestD := "", -1
	a := []rune(strings.ToLower(s))
	for _, n := range names {
		b := []rune(strings.ToLower(n))
		d := EditDistance(a, b)
		if (d == 0 || len(b) >= 3 && d <= max(1, len(b)/3)) && (bestD < 0 || d < bestD) {
			best, bestD = n, d
		}
	}
	return best
}

// EditDistance is the number of edits that turn a into b: a letter
// inserted, deleted or changed, or two neighbours swapped ("adpat" is one
// edit from "adapt"), each once at most (the optimal string alignment
// distance).
func EditDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1) // the row before prev
	prev := make([]int, len(b)+1)
	row := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				row[j] = min(row[j], prev2[j-2]+1)
			}
		}
		prev2, prev, row = prev, row, prev2
	}
	return prev[len(b)]
}
