package catalog

import (
	"encoding/xml"
	"strings"
	"testing"
)

func FuzzInert(f *testing.F) {
	// A map a client sends is drawn in the pages and served: inert never
	// panics, and a map it lets through has no element that runs or
	// directs the page, and no attribute that handles an event.
	for _, svg := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg"><path id="CA" d="M0 0h1v1z"/></svg>`,
		`<svg><script>alert(1)</script></svg>`,
		`<svg><rect onload="x()"/></svg>`,
		`<svg><a href="http://evil.example/">x</a></svg>`,
		`<svg><style>@import url(x.css);</style></svg>`,
		`<!DOCTYPE svg [<!ENTITY a "b">]><svg/>`,
		`<svg><set attributeName="href" to="javascript:x()"/></svg>`,
		`<svg><foreignObject><div/></foreignObject></svg>`,
	} {
		f.Add(svg)
	}
	f.Fuzz(func(t *testing.T, svg string) {
		if inert(svg) != nil {
			return
		}
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			tok, err := d.RawToken()
			if err != nil {
				return
			}
			el, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			switch strings.ToLower(el.Name.Local) {
			case "script", "foreignobject", "iframe", "meta", "link", "base", "form":
				t.Fatalf("inert let through <%s> in %q", el.Name.Local, svg)
			}
			for _, a := range el.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Fatalf("inert let through the handler %s in %q", a.Name.Local, svg)
				}
			}
		}
	})
}
