package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A duplicate is a key given twice in one JSON object: encoding/json keeps
// the last value and says nothing, so a world file with "yield" twice would
// play the second in silence.
type duplicate struct {
	key           string
	path          []string // where the object is, innermost first: pathKey(key)s and "[i]"
	first, second int      // the byte offsets of the two keys
}

// maxKeyScanDepth is as deep as the scan looks; encoding/json refuses a
// value nested deeper than 10,000 anyway.
const maxKeyScanDepth = 10000

// keyScan looks for a key given twice in the objects of one JSON value. It
// reads what it can and stops, finding nothing, at what is not JSON: the
// decoder that follows says what is wrong there.
type keyScan struct {
	data []byte
	i    int
	// The keys of the objects open, the innermost last: n of them, the
	// first in held (on the stack, for the scan of a small value costs no
	// allocation), the others in spill.
	n     int
	held  [32]objectKey
	spill []objectKey
}

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

// objectKey is a key of an object: its name as written between the quotes
// (or unescaped, when it has escapes) and where it starts.
type objectKey struct {
	name []byte
	at   int
}

// manyKeys is how many keys an object has before the scan keeps them in a
// map rather than looks through them one by one.
const manyKeys = 32

// UniqueKeys returns an error naming the first key given twice in an
// object of the JSON value data starts with, and where the object is; nil
// when there is none or data is not JSON. DecodeJSON checks it; a reader
// that decodes with encoding/json (a bot's protocol line) calls it.
func UniqueKeys(data []byte) error { return duplicateKey(data) }

// duplicateKey returns an error naming the first key given twice in an
// object of the JSON value data starts with, and where the object is; nil
// when there is none or the data is not JSON.
func duplicateKey(data []byte) error {
	s := keyScan{data: data}
	d, _ := s.value(0)
	if d == nil {
		return nil
	}
	where := ""
	for _, step := range d.path {
		where = under(step, where)
	}
	if where == "" {
		where = "the top level"
	}
	lines := ""
	if bytes.IndexByte(bytes.TrimSpace(data), '\n') >= 0 { // a document of lines
		first := 1 + bytes.Count(data[:d.first], []byte{'\n'})
		second := first + bytes.Count(data[d.first:d.second], []byte{'\n'})
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

// value reads one value; ok is false at what is not JSON.
func (s *keyScan) value(depth int) (d *duplicate, ok bool) {
	s.space()
	if s.i >= len(s.data) || depth > maxKeyScanDepth {
		return nil, false
	}
	switch s.data[s.i] {
	case '{':
		return s.object(depth)
	case '[':
		s.i++
		s.space()
		if s.i < len(s.data) && s.data[s.i] == ']' {
			s.i++
			return nil, true
		}
		for n := 0; ; n++ {
			if d, ok := s.value(depth + 1); d != nil || !ok {
				if d != nil {
					d.path = append(d.path, "["+strconv.Itoa(n)+"]")
				}
				return d, ok
			}
			if more, ok := s.after(']'); !more {
				return nil, ok
			}
		}
	case '"':
		_, _, ok := s.str()
		return nil, ok
	}
	// A number, true, false or null: what the decoder checks.
	start := s.i
	for ; s.i < len(s.data); s.i++ {
		switch s.data[s.i] {
		case ',', ']', '}', ' ', '\t', '\r', '\n', '{', '[', '"', ':':
			return nil, s.i > start
		}
	}
	return nil, s.i > start
}

// object reads an object whose "{" is at s.i.
func (s *keyScan) object(depth int) (*duplicate, bool) {
	s.i++
	first := s.n
	defer func() { s.n = first }()
	var seen map[string]int // the keys' offsets, once there are many
	s.space()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return nil, true
	}
	for {
		s.space()
		at := s.i
		if at >= len(s.data) || s.data[at] != '"' {
			return nil, false
		}
		name, escaped, ok := s.str()
		if !ok {
			return nil, false
		}
		// encoding/json reads escapes, and bytes that are not UTF-8 as
		// U+FFFD: "\xff" and "\xfe" are one key to it.
		if escaped || !utf8.Valid(name) {
			var text string
			if json.Unmarshal(s.data[at:s.i], &text) != nil {
				return nil, false
			}
			name = []byte(text)
		}
		if seen == nil && s.n-first >= manyKeys {
			seen = make(map[string]int, 2*manyKeys)
			for j := first; j < s.n; j++ {
				seen[string(s.key(j).name)] = s.key(j).at
			}
		}
		if seen != nil {
			if before, twice := seen[string(name)]; twice {
				return &duplicate{key: string(name), first: before, second: at}, true
			}
			seen[string(name)] = at
		} else {
			for j := first; j < s.n; j++ {
				if k := s.key(j); string(k.name) == string(name) {
					return &duplicate{key: string(name), first: k.at, second: at}, true
				}
			}
			s.push(objectKey{name, at})
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return nil, false
		}
		s.i++
		if d, ok := s.value(depth + 1); d != nil || !ok {
			if d != nil {
				d.path = append(d.path, pathKey(string(name)))
			}
			return d, ok
		}
		if more, ok := s.after('}'); !more {
			return nil, ok
		}
	}
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
