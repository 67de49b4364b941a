package mapdraw

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/games/territories"
)

// tinyMap is a map of tinyConfig.
const tinyMap = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">
<path id="A" d="M0,0 L20,0 L20,30 L0,30 Z"/><path id="B" d="M20,0 L40,0 L40,30 L20,30 Z"/>
<circle id="A-armies" cx="10" cy="15" r="4"/><circle id="B-armies" cx="30" cy="15" r="4"/>
<g id="nations-list"><rect id="nations-list-bounds" x="0" y="0" width="40" height="10"/></g>
</svg>`

// FuzzParse feeds Parse any bytes as a map of a board of two territories
// (init reads the map from a file anyone may write): it never panics,
// and a map it accepts is drawn, as SVG and PNG, with a nation on it,
// without a panic, and what SVG draws is a map Parse accepts again.
func FuzzParse(f *testing.F) {
	f.Add([]byte(tinyMap))
	f.Add([]byte(strings.Replace(tinyMap, `width="40" height="30" `, ``, 1)))
	f.Add([]byte(strings.Replace(tinyMap, `d="M0,0 L20,0 L20,30 L0,30 Z"`, `d="M0,0 A5,5 0 1 1 3 3 Q 1 2 C1,2,3"`, 1)))
	f.Add([]byte(strings.Replace(tinyMap, `<g id="nations-list">`, `<g id="nations-list"><text x="1" y="2" font-size="1e9">x<tspan>y</tspan></text>`, 1)))
	f.Add([]byte(`<svg viewBox="0 0 1e-300 1"/>`))
	f.Add([]byte(`<svg width="4096" height="4096"><g id="nations-list"/></svg>`))
	cfg, err := territories.ReadConfig(strings.NewReader(tinyConfig))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, svg []byte) {
		m, err := Parse(svg, cfg)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if w, h := m.Size(); w < 1 || h < 1 || w > MaxPixels || h > MaxPixels {
			t.Fatalf("accepted a map of %d×%d pixels; allowed 1 to %d", w, h, MaxPixels)
		}
		w := territories.NewWorld(cfg)
		a, err := territories.ParseAction("join Nation<&> A")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Apply("p", a); err != nil {
			t.Fatal(err)
		}
		drawn := m.SVG(w)
		if _, err := Parse(drawn, cfg); err != nil {
			t.Fatalf("the drawn map does not parse: %v\n%s", err, drawn)
		}
		if w, h := m.Size(); w*h > 256*256 {
			return // large pictures cost the fuzzer more than they find
		}
		if _, err := m.PNGOf(drawn); err != nil && err.Error() == "" {
			t.Fatal("an empty error")
		}
	})
}
