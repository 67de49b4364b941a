package engine

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUniqueKeys checks the scan against encoding/json's own reading of
// the keys: a valid JSON value has a key given twice in one object exactly
// when UniqueKeys says so, whatever the escapes or bytes of its keys.
func FuzzUniqueKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"a":{"":{"d":0,"d":1}}}`, `[{"x":1},{"x":2}]`,
		`{"a\u0062":1,"ab":2}`, "{\"\xff\":1,\"\xfe\":2}", `{"k":[1,{"k":2}],"j":{"k":3}}`, `{"a":{"b":1},"a":2}`, `{"a":{},"a":[]}`, `[]`, `"s"`, `{"a":1,"a":2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := UniqueKeys(data) != nil
		if !json.Valid(data) {
			return // the scan stops at what is not JSON; the decoder says why
		}
		if want := keyTwice(data); got != want {
			t.Errorf("%q: UniqueKeys says a key is given twice: %v; encoding/json's tokens: %v", data, got, want)
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
