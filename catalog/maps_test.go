package catalog_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
)

// A board's map that did not come through a creation's check, such as
// the board of a record sent to be replayed, is drawn only when it is
// shapes and text: the replay viewer and arbiter replay --html show it
// as it is.
func TestAMapThatCouldRunIsNotDrawn(t *testing.T) {
	const clean = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">` +
		`<path id="A" d="M0,0 H20 V30 H0 Z"/><circle id="A-armies" cx="10" cy="15" r="4"/>` +
		`<path id="B" d="M20,0 H40 V30 H20 Z"/><circle id="B-armies" cx="30" cy="15" r="4"/>` +
		`<g id="nations-list"><rect id="nations-list-bounds" x="0" y="0" width="40" height="10"/></g></svg>`
	board := func(svg string) map[string]string {
		b, _ := json.Marshal(map[string]any{"map": svg, "territories": []map[string]any{
			{"id": "A", "name": "Ay", "neighbors": []string{"B"}}, {"id": "B", "name": "Bee", "neighbors": []string{"A"}}}})
		return map[string]string{"board": string(b)}
	}
	for _, fine := range []string{
		clean,
		// An animation of a colour; an editor's attribute with a
		// backslash, which is no CSS.
		strings.Replace(clean, `<path id="A"`, `<path id="A" fill="#eee"><set attributeName="fill" to="#ddd"/></path><path id="A-edge" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" sodipodi:docname="C:\maps\two.svg"`, 1),
	} {
		if svg, ok := catalog.Map("territories", board(fine)); !ok || !strings.Contains(string(svg), `data-name="Ay"`) {
			t.Errorf("a clean map: %v %.200s", ok, svg)
		}
	}
	for _, bad := range []string{
		strings.Replace(clean, `<path id="A"`, `<path id="A" onclick="alert(1)"`, 1),
		strings.Replace(clean, `</svg>`, `<script>alert(1)</script></svg>`, 1),
		strings.Replace(clean, `</svg>`, `<foreignObject width="9" height="9"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`, 1),
		strings.Replace(clean, `</svg>`, `<a href="javascript:alert(1)"><text>x</text></a></svg>`, 1),
		strings.Replace(clean, `</svg>`, `<style>@import "https://example.com/x.css";</style></svg>`, 1),
		// An animation that sets a link, a presentation attribute that
		// spells url() with an escape, a page's refresh.
		strings.Replace(clean, `</svg>`, `<a href="#A"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`, 1),
		strings.Replace(clean, `</svg>`, `<image href="#A" width="1" height="1"><animate attributeName="xlink:href" values="https://example.com/x.png"/></image></svg>`, 1),
		strings.Replace(clean, `<path id="A"`, `<path id="A" fill="\75rl(https://example.com/p)"`, 1),
		strings.Replace(clean, `</svg>`, `<meta xmlns="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=https://example.com"/></svg>`, 1),
	} {
		if svg, ok := catalog.Map("territories", board(bad)); ok {
			t.Errorf("a map that could run or fetch is drawn: %.300s", svg)
		}
	}
}
