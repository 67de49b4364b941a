package catalog_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
)

// FuzzParseViewpoint feeds ParseViewpoint any ?view= of the API and
// --view of the CLI: it never panics, and a viewpoint it accepts is
// written back (String) as one it reads the same.
func FuzzParseViewpoint(f *testing.F) {
	for _, s := range []string{"judge", "public", "seat:0", "seat:12", "3", "seat:-1", "seat:", "seat:99999999999999999999", "Judge"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := catalog.ParseViewpoint(s)
		if err != nil {
			return
		}
		if again, err := catalog.ParseViewpoint(v.String()); err != nil || again != v {
			t.Fatalf("ParseViewpoint(%q) = %v, which reads back as %v, %v", s, v, again, err)
		}
	})
}
