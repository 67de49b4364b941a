package engine_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// FuzzReadOptionDocument feeds ReadOptionDocument any option value (a
// custom preset or board given inline): it never panics, and a document
// it reads has a name and the same digest however often it is read.
func FuzzReadOptionDocument(f *testing.F) {
	for _, s := range []string{`{"base": "tribe", "gold": 50}`, `{"name": "mine"}`, `{}`, ` {"a": 1e400} `, `{"a": [1, {"b": null}]} x`, `default`, `{"name": 3}`, `{"\u0000": "\ud800"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := engine.ReadOptionDocument(s)
		if !ok {
			return
		}
		if d.Name == "" || len(d.Digest) != 8 {
			t.Fatalf("ReadOptionDocument(%q) = %+v: no name, or a digest that is not 8 hex digits", s, d)
		}
		if again, _ := engine.ReadOptionDocument(s); again.Digest != d.Digest || again.Name != d.Name {
			t.Fatalf("ReadOptionDocument(%q) read twice: %+v, then %+v", s, d, again)
		}
	})
}
