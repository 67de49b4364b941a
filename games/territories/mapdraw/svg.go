package mapdraw

import (
	"bytes"
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

// Colours of what the referee writes on the map.
const (
	InkColor     = "#1a1a1a" // the armies and the nations' names
	OutInkColor  = "#8a8a8a" // a nation out of the game
	fontFamily   = "Go, sans-serif"
	listFontSize = 15.0
)

// edit replaces the bytes of a span with text, or inserts text at a point
// (a span whose start and end are the same).
type edit struct {
	at   span
	text []byte
}

// SVG returns the map of w: each held territory filled in its nation's
// colour, its armies written in its circle, and every nation listed in the
// nations' box with its player, colour, territories and armies.
func (m *Map) SVG(w *territories.World) []byte {
	var edits []edit
	for i := range m.shapes {
		h := w.Holding(i)
		if h.Nation < 0 {
			continue
		}
		c := string(w.Nation(h.Nation).Color)
		s := m.shapes[i]
		edits = append(edits, edit{s, setFill(m.svg[s.start:s.end], c)})
		ci := m.circles[i]
		edits = append(edits, edit{span{ci.after, ci.after}, m.count(ci, h.Armies)})
	}
	edits = append(edits, edit{span{m.list.insert, m.list.insert}, m.nations(w)})
	// By where they start; at one place an insertion (a circle's count
	// written after it ends) comes before a start tag replaced there (the
	// next element's), so that no edit starts before the last one ended.
	sort.SliceStable(edits, func(a, b int) bool {
		if edits[a].at.start != edits[b].at.start {
			return edits[a].at.start < edits[b].at.start
		}
		return edits[a].at.end < edits[b].at.end
	})
	return m.edited(edits, 4096)
}

// edited returns the map with edits made, in the order of where they
// start, none before the last one ended; more is the room to make for
// what they add.
func (m *Map) edited(edits []edit, more int) []byte {
	var out bytes.Buffer
	out.Grow(len(m.svg) + more)
	at := 0
	for _, e := range edits {
		out.Write(m.svg[at:e.at.start])
		out.Write(e.text)
		at = e.at.end
	}
	out.Write(m.svg[at:])
	return out.Bytes()
}

// count writes the armies in a circle.
func (m *Map) count(c circle, armies int) []byte {
	size := c.r * 1.25
	return fmt.Appendf(nil, `<text class="armies" x="%s" y="%s" font-family="%s" font-size="%s" font-weight="bold" fill="%s" text-anchor="middle" dominant-baseline="central">%d</text>`,
		num(c.cx), num(c.cy), fontFamily, num(size), InkColor, armies)
}

// nations lists the nations in the box, two lines each: a swatch of its
// colour, its name and player; then its territories and armies, or when it
// went out.
func (m *Map) nations(w *territories.World) []byte {
	var b bytes.Buffer
	n := w.Nations()
	x, y, bw, bh := m.list.x, m.list.y, m.list.w, m.list.h
	pad := 8.0
	row := min(44.0, (bh-2*pad)/float64(max(n, 1)))
	shown := n
	if row < 20 { // too many to list: as many as fit at 20 units a row, and a count
		row = 20
		shown = max(int((bh-2*pad)/row)-1, 0)
	}
	size := row * 0.36
	room := bw - 2*pad - size*1.6
	nameChars, statChars := int(room/(size*0.62)), int(room/(size*0.9*0.55))
	b.WriteString("\n<g class=\"nations\">")
	for k := range min(shown, n) {
		nat := w.Nation(k)
		top := y + pad + float64(k)*row
		name := fmt.Sprintf("%s (%s)", nat.Name, nat.Player)
		stats := fmt.Sprintf("%s, %s", plural(w.Holdings(k), "territory", "territories"), plural(w.Armies(k), "army", "armies"))
		ink := InkColor
		if !nat.In() {
			stats = fmt.Sprintf("out at action %d", nat.Out)
			ink = OutInkColor
		}
		fmt.Fprintf(&b, `<rect class="swatch" x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#333333" stroke-width="1"/>`,
			num(x+pad), num(top+row/4-size/2), num(size), num(size), nat.Color)
		fmt.Fprintf(&b, `<text class="nation" x="%s" y="%s" font-family="%s" font-size="%s" font-weight="bold" fill="%s" dominant-baseline="central">%s</text>`,
			num(x+pad+size*1.6), num(top+row/4), fontFamily, num(size), ink, escape(clip(name, nameChars)))
		fmt.Fprintf(&b, `<text class="holdings" x="%s" y="%s" font-family="%s" font-size="%s" fill="%s" dominant-baseline="central">%s</text>`,
			num(x+pad+size*1.6), num(top+row*0.7), fontFamily, num(size*0.9), ink, escape(clip(stats, statChars)))
	}
	if shown < n {
		top := y + pad + float64(shown)*row
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="%s" font-size="%s" fill="%s" dominant-baseline="central">and %d more</text>`,
			num(x+pad), num(top+row/2), fontFamily, num(size), InkColor, n-shown)
	}
	b.WriteString("</g>\n")
	return b.Bytes()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// clip shortens s to n characters, ending it with an ellipsis, cut
// between grapheme clusters (a letter keeps its accents).
func clip(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	return wrap.FirstRunes(s, n-1) + "…"
}

func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// setFill returns a start tag with its fill set to c: the fill attribute
// replaced (or added), and any fill in its style attribute dropped.
func setFill(tag []byte, c string) []byte {
	out := tag
	if v, ok := findAttr(out, "style"); ok {
		style := dropProperty(string(out[v.start:v.end]), "fill")
		out = concat(out[:v.start], []byte(style), out[v.end:])
	}
	if v, ok := findAttr(out, "fill"); ok {
		return concat(out[:v.start], []byte(c), out[v.end:])
	}
	// Add it after the element's name.
	i := 1
	for i < len(out) && !isSpace(out[i]) && out[i] != '/' && out[i] != '>' {
		i++
	}
	return concat(out[:i], []byte(` fill="`+c+`"`), out[i:])
}

func concat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// findAttr finds attribute name in a start tag: the span of its value,
// inside the quotes.
func findAttr(tag []byte, name string) (value span, ok bool) {
	i := 1
	for i < len(tag) && !isSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
		i++
	}
	for i < len(tag) {
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] == '/' || tag[i] == '>' {
			return span{}, false
		}
		start := i
		for i < len(tag) && tag[i] != '=' && !isSpace(tag[i]) && tag[i] != '>' {
			i++
		}
		attr := string(tag[start:i])
		for i < len(tag) && (isSpace(tag[i]) || tag[i] == '=') {
			i++
		}
		if i >= len(tag) || (tag[i] != '"' && tag[i] != '\'') {
			return span{}, false
		}
		q := tag[i]
		vs := i + 1
		ve := bytes.IndexByte(tag[vs:], q)
		if ve < 0 {
			return span{}, false
		}
		ve += vs
		i = ve + 1
		if attr == name {
			return span{vs, ve}, true
		}
	}
	return span{}, false
}

// dropProperty removes a property from a CSS declaration list.
func dropProperty(style, prop string) string {
	var keep []string
	for _, d := range strings.Split(style, ";") {
		k, _, _ := strings.Cut(d, ":")
		if strings.TrimSpace(d) == "" || strings.EqualFold(strings.TrimSpace(k), prop) {
			continue
		}
		keep = append(keep, strings.TrimSpace(d))
	}
	return strings.Join(keep, ";")
}

// Annotated returns the map's SVG with each territory's element telling
// its name (data-name) and its neighbours' ids (data-neighbors), from cfg,
// the configuration the map was parsed with: what a page reads to offer a
// territory's actions. Either attribute the file gave is replaced; one it
// did not is written after the element's id.
func (m *Map) Annotated(cfg *territories.Config) []byte {
	edits := make([]edit, 0, len(m.shapes))
	for i, s := range m.shapes {
		var ns []string
		for _, n := range cfg.Neighbors(i) {
			ns = append(ns, cfg.Territory(n).ID)
		}
		tag := m.svg[s.start:s.end]
		tag = setAttr(tag, "data-neighbors", html.EscapeString(strings.Join(ns, " ")))
		tag = setAttr(tag, "data-name", html.EscapeString(cfg.Territory(i).Name)) // before the neighbours
		edits = append(edits, edit{s, tag})
	}
	sort.Slice(edits, func(a, b int) bool { return edits[a].at.start < edits[b].at.start })
	return m.edited(edits, 64*len(edits))
}

// setAttr returns a start tag with attribute name set to value (escaped
// already): its value replaced, or the attribute added after the id (after
// the element's name when it has none).
func setAttr(tag []byte, name, value string) []byte {
	if v, ok := findAttr(tag, name); ok {
		return concat(tag[:v.start], []byte(value), tag[v.end:])
	}
	i := 1
	if v, ok := findAttr(tag, "id"); ok {
		i = v.end + 1 // after its closing quote
	} else {
		for i < len(tag) && !isSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
			i++
		}
	}
	return concat(tag[:i], []byte(` `+name+`="`+value+`"`), tag[i:])
}
