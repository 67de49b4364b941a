package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// encoding/json passes over two things in the keys of JSON objects in
// silence: a key given twice in one object, of which it keeps the last
// value (a world file with "yield" twice would play the second), and a
// key that names a field of a struct in another case, which it takes for
// the field (ExactFieldNames). One scan of the bytes, keyScan, finds both.

// KeyFaults reads the JSON value data starts with, once, for what
// encoding/json would pass over in silence in its keys, and returns the
// first fault of each kind. twice is a key given twice in one object, at
// any depth, named with where the object is (and its lines, in a document
// of more than one line). cased, a *FieldCaseError, is a key that
// encoding/json would take for a field of v (a pointer to what data is
// decoded into) written in another case, in objects at any depth where
// v's type has a struct; other keys (a message's fields of a bot's own)
// are left alone, as are the values of types that read their own JSON,
// which check their own keys. Either is nil when there is none. The scan
// stops, finding nothing more, at what is not JSON: the decoder that
// follows says what is wrong there. DecodeJSON checks both; a reader that
// decodes with encoding/json (a bot's protocol line) calls it.
func KeyFaults(data []byte, v any) (twice, cased error) {
	return scanKeys(data, v, twiceFault|caseFault)
}

// ExactFieldNames checks that every key of the JSON value data that
// encoding/json would take for a field of v (a pointer to what data was
// decoded into) names it exactly, in its case, in objects at any depth,
// as KeyFaults does, and looks for nothing else. data must be valid JSON:
// what was just decoded without error.
func ExactFieldNames(data []byte, v any) error {
	_, cased := scanKeys(data, v, caseFault)
	return cased
}

// The faults of keys a scan looks for, and finds.
const (
	twiceFault uint8 = 1 << iota // a key given twice in one object
	caseFault                    // a key that is a field's name in another case
)

// scanKeys looks for the faults look in the keys of the JSON value data
// starts with; v is what data is decoded into.
func scanKeys(data []byte, v any, look uint8) (twice, cased error) {
	var top *shape
	if t := reflect.TypeOf(v); t != nil {
		top = shapeOf(t)
	}
	if top == nil {
		look &^= caseFault // no key of v's is a field's
	}
	if look == 0 {
		return nil, nil
	}
	s := keyScan{data: data, want: look}
	found, _ := s.value(0, top)
	if found&twiceFault != 0 {
		twice = s.twiceError()
	}
	if found&caseFault != 0 {
		e := s.cased
		cased = &e
	}
	return twice, cased
}

// maxKeyScanDepth is as deep as the scan looks; encoding/json refuses a
// value nested deeper than 10,000 anyway.
const maxKeyScanDepth = 10000

// keyScan reads one JSON value, each byte once, for a key given twice in
// one of its objects and for a key that names a field of the value's Go
// type (its shape) in another case. It reads what it can and stops at
// what is not JSON, or once it has found all it looks for.
type keyScan struct {
	data []byte
	i    int
	want uint8 // the faults still looked for
	// The first key given twice, and the first field named in another
	// case; the paths to their objects are built as the scan comes back
	// out of the values around them.
	twice duplicate
	cased FieldCaseError
	// The keys of the objects open, the innermost last: n of them, the
	// first in held (on the stack, for the scan of a small value costs no
	// allocation), the others in spill.
	n     int
	held  [32]objectKey
	spill []objectKey
}

// A duplicate is a key given twice in one JSON object.
type duplicate struct {
	key           string
	path          string // where the object is: pathKey(key)s and "[i]"
	first, second int    // the byte offsets of the two keys
}

// objectKey is a key of an object: its name as encoding/json reads it
// (as written between the quotes, when that has no escapes and is UTF-8)
// and where it starts.
type objectKey struct {
	name []byte
	at   int
}

// manyKeys is how many keys an object has before the scan keeps them in a
// map rather than looks through them one by one.
const manyKeys = 32

// key is the jth key held.
func (s *keyScan) key(j int) *objectKey {
	if j < len(s.held) {
		return &s.held[j]
	}
	return &s.spill[j-len(s.held)]
}

// push holds one more key.
func (s *keyScan) push(k objectKey) {
	if s.n < len(s.held) {
		s.held[s.n] = k
	} else {
		s.spill = append(s.spill[:s.n-len(s.held)], k)
	}
	s.n++
}

// twiceError words the key found given twice.
func (s *keyScan) twiceError() error {
	d := &s.twice
	where := d.path
	if where == "" {
		where = "the top level"
	}
	lines := ""
	if bytes.IndexByte(bytes.TrimSpace(s.data), '\n') >= 0 { // a document of lines
		first := 1 + bytes.Count(s.data[:d.first], []byte{'\n'})
		second := first + bytes.Count(s.data[d.first:d.second], []byte{'\n'})
		if first == second {
			lines = fmt.Sprintf(" (line %d)", first)
		} else {
			lines = fmt.Sprintf(" (lines %d and %d)", first, second)
		}
	}
	return fmt.Errorf("%s: key %s is given twice%s; give each key once", where, strconv.Quote(d.key), lines)
}

func (s *keyScan) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// value reads one value, whose Go type has the shape sh (nil for one
// whose keys name no fields). found says which faults were found in it;
// more is false where the scan stops: at what is not JSON, or once it has
// found all it looks for.
func (s *keyScan) value(depth int, sh *shape) (found uint8, more bool) {
	s.space()
	if s.i >= len(s.data) || depth > maxKeyScanDepth {
		return 0, false
	}
	if s.want&caseFault == 0 {
		sh = nil
	}
	if sh == nil && s.want&twiceFault == 0 {
		return 0, s.skip() // nothing to look for in it
	}
	switch s.data[s.i] {
	case '{':
		if sh != nil && sh.kind == reflect.Slice {
			sh = nil // an object where an array goes: the decoder refuses it
		}
		return s.object(depth, sh)
	case '[':
		var elem *shape
		if sh != nil && sh.kind == reflect.Slice {
			elem = sh.elem
		}
		return s.array(depth, elem)
	case '"':
		_, _, ok := s.str()
		return 0, ok
	}
	// A number, true, false or null: what the decoder checks.
	start := s.i
	for ; s.i < len(s.data); s.i++ {
		switch s.data[s.i] {
		case ',', ']', '}', ' ', '\t', '\r', '\n', '{', '[', '"', ':':
			return 0, s.i > start
		}
	}
	return 0, s.i > start
}

// array reads an array whose "[" is at s.i, its values of the shape elem.
func (s *keyScan) array(depth int, elem *shape) (found uint8, more bool) {
	s.i++
	s.space()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return 0, true
	}
	for n := 0; ; n++ {
		f, more := s.value(depth+1, elem)
		if f != 0 {
			step := "[" + strconv.Itoa(n) + "]"
			if f&twiceFault != 0 {
				s.twice.path = under(step, s.twice.path)
			}
			if f&caseFault != 0 {
				s.cased.Path = under(step, s.cased.Path)
			}
			found |= f
		}
		if !more || s.want == 0 {
			return found, false
		}
		if more, ok := s.after(']'); !more {
			return found, ok
		}
	}
}

// object reads an object whose "{" is at s.i, of the shape sh: a struct's
// (its keys name fields) or a map's (its values are of sh.elem).
func (s *keyScan) object(depth int, sh *shape) (found uint8, more bool) {
	s.i++
	first := s.n
	found, more = s.members(depth, sh)
	s.n = first // its keys are let go
	return found, more
}

// members reads the members of an object after its "{", whose keys are
// held from s.n on.
func (s *keyScan) members(depth int, sh *shape) (found uint8, more bool) {
	first := s.n
	var seen map[string]int // the keys' offsets, once there are many
	s.space()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return 0, true
	}
	for {
		s.space()
		at := s.i
		if at >= len(s.data) || s.data[at] != '"' {
			return found, false
		}
		raw, escaped, ok := s.str()
		if !ok {
			return found, false
		}
		if s.want&caseFault == 0 {
			sh = nil
		}
		// name is the key as encoding/json reads it: its escapes read,
		// and bytes that are not UTF-8 as U+FFFD ("\xff" and "\xfe" are
		// one key to it). It is needed only for what is looked for here.
		name := raw
		var inner *shape // the shape of the key's value
		if s.want&twiceFault != 0 || sh != nil {
			if !asWritten(raw, escaped) {
				var text string
				if json.Unmarshal(s.data[at:s.i], &text) != nil {
					return found, false
				}
				name = []byte(text)
			}
			if s.want&twiceFault != 0 && s.givenTwice(name, at, first, &seen) {
				found |= twiceFault
			}
			if sh != nil && sh.kind == reflect.Map {
				inner = sh.elem
			} else if sh != nil {
				f, exact := sh.find(name)
				switch {
				case f == nil: // a key of no field: the caller's own
				case exact:
					inner = f.shape
				default:
					s.cased = FieldCaseError{Key: caseKey(raw, name, escaped), Field: f.name}
					s.want &^= caseFault
					found |= caseFault
				}
			}
			if s.want == 0 {
				return found, false
			}
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return found, false
		}
		s.i++
		if inner == nil && s.want&twiceFault == 0 {
			// Nothing to look for in the value, as value would find:
			// the most common value when only fields are checked.
			if s.space(); !s.skip() {
				return found, false
			}
		} else {
			f, more := s.value(depth+1, inner)
			if f&twiceFault != 0 {
				s.twice.path = under(pathKey(string(name)), s.twice.path)
			}
			if f&caseFault != 0 {
				s.cased.Path = under(pathKey(caseKey(raw, name, escaped)), s.cased.Path)
			}
			found |= f
			if !more || s.want == 0 {
				return found, false
			}
		}
		if more, ok := s.after('}'); !more {
			return found, ok
		}
	}
}

// givenTwice reports whether the key name, at offset at, was given before
// in the object whose keys are held from first on (or in seen, once they
// are many), and keeps the first such key; otherwise it holds the key.
func (s *keyScan) givenTwice(name []byte, at, first int, seen *map[string]int) bool {
	if *seen == nil && s.n-first >= manyKeys {
		*seen = make(map[string]int, 2*manyKeys)
		for j := first; j < s.n; j++ {
			(*seen)[string(s.key(j).name)] = s.key(j).at
		}
	}
	before := -1 // where the key was given before
	if *seen != nil {
		if k, twice := (*seen)[string(name)]; twice {
			before = k
		} else {
			(*seen)[string(name)] = at
		}
	} else {
		for j := first; j < s.n; j++ {
			if k := s.key(j); string(k.name) == string(name) {
				before = k.at
				break
			}
		}
		if before < 0 {
			s.push(objectKey{name, at})
		}
	}
	if before < 0 {
		return false
	}
	s.twice = duplicate{key: string(name), first: before, second: at}
	s.want &^= twiceFault
	return true
}

// caseKey is a key as a FieldCaseError shows it: as encoding/json reads
// it (name) when it has escapes, else as written (raw).
func caseKey(raw, name []byte, escaped bool) string {
	if escaped {
		return string(name)
	}
	return string(raw)
}

// skip passes over the value at s.i, whose keys nothing is looked for
// in, without reading them.
func (s *keyScan) skip() bool {
	start, depth := s.i, 0
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case '"':
			if _, _, ok := s.str(); !ok || depth == 0 {
				return ok
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of what holds a number, true, false or null
				return s.i > start
			}
			if depth--; depth == 0 {
				s.i++
				return true
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return s.i > start
			}
		}
		s.i++
	}
	return depth == 0 && s.i > start
}

// after reads what follows a member of an array or an object: a comma,
// and more to come, or end, which closes it (ok); anything else is not
// JSON (not ok).
func (s *keyScan) after(end byte) (more, ok bool) {
	s.space()
	if s.i >= len(s.data) {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		return true, true
	case end:
		s.i++
		return false, true
	}
	return false, false
}

// str reads a string whose opening quote is at s.i: what is between the
// quotes, and whether it has escapes.
func (s *keyScan) str() (text []byte, escaped, ok bool) {
	start := s.i + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			s.i = i + 1
			return s.data[start:i], escaped, true
		}
	}
	return nil, false, false
}

// asWritten reports whether encoding/json reads a string, text between
// its quotes, as written: with no escapes, and UTF-8.
func asWritten(text []byte, escaped bool) bool {
	if escaped {
		return false
	}
	for _, c := range text {
		if c >= utf8.RuneSelf {
			return utf8.Valid(text)
		}
	}
	return true
}
