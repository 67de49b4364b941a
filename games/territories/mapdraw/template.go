// Package mapdraw draws a game of territories on its map: the SVG with each
// held territory filled in its nation's colour, the armies written in the
// territory's circle and the nations listed in their box; and the same
// picture as a PNG, rasterised in-process (oksvg and rasterx for the shapes,
// the Go fonts for the text, which oksvg does not draw).
package mapdraw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/games/territories"
)

// The ids a map must have besides one per territory.
const (
	ListID       = "nations-list"        // the group the nations are listed in
	ListBoundsID = "nations-list-bounds" // the rect, inside it, they are listed within
	ArmiesSuffix = "-armies"             // a territory's circle: "CA-armies"
)

// MaxPixels bounds the PNG's width and height.
const MaxPixels = 4096

// MaxDrawn bounds the elements a map has drawn, each <use> counting as the
// elements of the definition it draws again: the PNG draws every one.
const MaxDrawn = 100_000

// Map is a map's SVG, checked against a game's territories and indexed
// for drawing. It is read-only once parsed and safe for concurrent use.
type Map struct {
	svg    []byte
	width  int        // the PNG's size in pixels
	height int        //
	view   [4]float64 // the viewBox: x, y, width, height
	// By territory: the start tag of its element, and its circle.
	shapes  []span
	circles []circle
	list    listBox
}

// span is a stretch of the SVG's bytes.
type span struct{ start, end int }

type circle struct {
	tag       span // the start tag
	after     int  // where the element ends: the count is written after it
	cx, cy, r float64
}

type listBox struct {
	insert     int // before the group's end tag
	x, y, w, h float64
}

// Parse reads an SVG map and checks it against cfg: every territory has an
// element (a path) whose id is the territory's id and a circle with id
// "<id>-armies" (with cx, cy and r), and there is a group "nations-list"
// with a rect "nations-list-bounds" (x, y, width, height). The circles and
// the list may not be transformed, nor be inside a transformed group.
func Parse(svg []byte, cfg *territories.Config) (*Map, error) {
	m := &Map{svg: svg, shapes: make([]span, cfg.Len()), circles: make([]circle, cfg.Len())}
	ids := make(map[string]int, cfg.Len())
	for i := range cfg.Len() {
		ids[cfg.Territory(i).ID] = i
		m.shapes[i].start, m.circles[i].after = -1, -1
	}
	type open struct {
		name        xml.Name
		transformed bool // it or an ancestor has a transform
		circle      int  // the territory whose circle this is, or -1
		list        bool
		defs        bool // it or an ancestor is a <defs>
	}
	var stack []open
	// What the PNG draws (see drawn): the elements outside <defs>, and the
	// definitions, by id, that each <use> draws again.
	var draw drawn
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	rootSeen, listSeen, boundsSeen, listClosed := false, false, false, false
	for {
		start := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF {
			if len(stack) > 0 {
				return nil, fmt.Errorf("map: not a well-formed SVG file: <%s> is not closed", xmlName(stack[len(stack)-1].name))
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("map: not a well-formed SVG file: %v", err)
		}
		end := int(d.InputOffset())
		switch t := tok.(type) {
		case xml.StartElement:
			attr := attrs(t.Attr)
			o := open{name: t.Name, circle: -1}
			if len(stack) > 0 {
				o.transformed = stack[len(stack)-1].transformed
			}
			if _, ok := attr["transform"]; ok {
				o.transformed = true
			}
			if len(stack) > 0 {
				o.defs = stack[len(stack)-1].defs
			}
			if err := draw.element(t, o.defs); err != nil {
				return nil, err
			}
			o.defs = o.defs || t.Name.Local == "defs"
			if len(stack) == 0 {
				if rootSeen {
					return nil, fmt.Errorf("map: not a well-formed SVG file: a second root element <%s> after </svg>; a file has one", t.Name.Local)
				}
				if t.Name.Local != "svg" {
					return nil, fmt.Errorf("map: the root element is <%s>; want <svg>", t.Name.Local)
				}
				rootSeen = true
				if err := m.size(attr); err != nil {
					return nil, err
				}
			}
			id := attr["id"]
			if i, ok := ids[id]; ok {
				if m.shapes[i].start >= 0 {
					return nil, fmt.Errorf("map: two elements have the id %q", id)
				}
				m.shapes[i] = span{start, end}
			}
			if i, ok := ids[strings.TrimSuffix(id, ArmiesSuffix)]; ok && strings.HasSuffix(id, ArmiesSuffix) {
				c, err := readCircle(t.Name.Local, id, attr, o.transformed)
				if err != nil {
					return nil, err
				}
				if m.circles[i].tag.end > 0 {
					return nil, fmt.Errorf("map: two elements have the id %q", id)
				}
				c.tag, c.after = span{start, end}, -1 // after: set at its end tag
				m.circles[i] = c
				o.circle = i
			}
			switch id {
			case ListID:
				if listSeen {
					return nil, fmt.Errorf("map: two elements have the id %q", id)
				}
				if t.Name.Local != "g" || o.transformed {
					return nil, fmt.Errorf("map: %q is a <%s>%s; want a <g> group without a transform", id, t.Name.Local, transformNote(o.transformed))
				}
				listSeen, o.list = true, true
			case ListBoundsID:
				if boundsSeen {
					return nil, fmt.Errorf("map: two elements have the id %q", id)
				}
				if len(stack) == 0 || !stack[len(stack)-1].list || t.Name.Local != "rect" {
					return nil, fmt.Errorf("map: %q must be a <rect> directly inside the group %q", id, ListID)
				}
				var err error
				if m.list.x, m.list.y, m.list.w, m.list.h, err = readRect(attr); err != nil {
					return nil, fmt.Errorf("map: %q: %w", id, err)
				}
				boundsSeen = true
			}
			stack = append(stack, o)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, errors.New("map: an end tag without its start")
			}
			o := stack[len(stack)-1]
			if t.Name != o.name {
				return nil, fmt.Errorf("map: not a well-formed SVG file: </%s> closes <%s>; each element ends with its own end tag", xmlName(t.Name), xmlName(o.name))
			}
			stack = stack[:len(stack)-1]
			if o.circle >= 0 {
				m.circles[o.circle].after = end
			}
			if o.list {
				// Before "</g>"; a self-closing group has no room, and no rect.
				m.list.insert = start
				listClosed = true
			}
		}
	}
	if !rootSeen {
		return nil, errors.New("map: no <svg> element")
	}
	if err := draw.check(); err != nil {
		return nil, err
	}
	var missing []string
	for i := range cfg.Len() {
		id := cfg.Territory(i).ID
		if m.shapes[i].start < 0 {
			missing = append(missing, fmt.Sprintf("a path with id %q", id))
		}
		if m.circles[i].tag.end == 0 {
			missing = append(missing, fmt.Sprintf("a circle with id %q", id+ArmiesSuffix))
		}
	}
	if !listSeen {
		missing = append(missing, fmt.Sprintf("a group with id %q", ListID))
	} else if !boundsSeen {
		missing = append(missing, fmt.Sprintf("a rect with id %q inside the group %q", ListBoundsID, ListID))
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 6 {
			more = fmt.Sprintf(" and %d more", len(missing)-6)
			missing = missing[:6]
		}
		return nil, fmt.Errorf("map: missing %s%s", strings.Join(missing, ", "), more)
	}
	if !listClosed {
		return nil, fmt.Errorf("map: the group %q is not closed", ListID)
	}
	return m, nil
}

// drawn counts what the PNG of a map draws. The rasterizer draws a <use>
// by drawing again the definition it names: the elements of a <defs> from
// one with that id to the next with an id. A <use> inside a <defs> would
// have a use draw uses, each many times over, or itself for ever (a map of
// a few kilobytes that takes hours to draw, or ends the program): it is
// refused. The rest is counted, and bounded by MaxDrawn.
type drawn struct {
	n    int            // the elements, uses aside
	defs map[string]int // a definition's id → its elements
	last string         // the id of the definition being read
	uses []string       // the ids that uses draw again
}

// rawAttr is the value of an element's last attribute named name in any
// namespace, as the rasterizer reads it.
func rawAttr(t xml.StartElement, name string) string {
	v := ""
	for _, a := range t.Attr {
		if a.Name.Local == name {
			v = a.Value
		}
	}
	return v
}

// element counts an element, inside a <defs> or not.
func (d *drawn) element(t xml.StartElement, inDefs bool) error {
	switch {
	case t.Name.Local == "use" && inDefs:
		return errors.New("map: a <use> inside a <defs>: what a <use> draws may not hold another; put the <use> outside the <defs>")
	case t.Name.Local == "use":
		d.uses = append(d.uses, strings.TrimPrefix(rawAttr(t, "href"), "#"))
		return nil
	case t.Name.Local == "defs" && !inDefs:
		d.last = ""
	case inDefs:
		if id := rawAttr(t, "id"); id != "" {
			d.last = id
		}
		if d.defs == nil {
			d.defs = make(map[string]int)
		}
		d.defs[d.last]++
	}
	d.n++
	return nil
}

// check refuses a map that draws more than MaxDrawn elements.
func (d *drawn) check() error {
	n := d.n
	for _, id := range d.uses {
		n += max(d.defs[id], 1)
	}
	if n > MaxDrawn {
		return fmt.Errorf("map: %d elements drawn, each <use> counting those it draws again; allowed %d", n, MaxDrawn)
	}
	return nil
}

// xmlName is an element's name as its tag writes it: prefix:local.
func xmlName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

func transformNote(t bool) string {
	if t {
		return " inside a transform"
	}
	return ""
}

func attrs(as []xml.Attr) map[string]string {
	m := make(map[string]string, len(as))
	for _, a := range as {
		if a.Name.Space == "" || a.Name.Space == "svg" {
			m[a.Name.Local] = a.Value
		}
	}
	return m
}

// size reads the root's width, height and viewBox.
func (m *Map) size(attr map[string]string) error {
	w, wok := length(attr["width"])
	h, hok := length(attr["height"])
	if vb, ok := attr["viewBox"]; ok {
		f := strings.FieldsFunc(vb, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
		if len(f) != 4 {
			return fmt.Errorf("map: viewBox %q: want four numbers, x y width height", vb)
		}
		for k, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("map: viewBox %q: %q is not a number", vb, s)
			}
			m.view[k] = v
		}
		if m.view[2] <= 0 || m.view[3] <= 0 {
			return fmt.Errorf("map: viewBox %q: the width and height must be positive", vb)
		}
		switch {
		case wok && hok:
		case wok:
			h = w * m.view[3] / m.view[2]
		case hok:
			w = h * m.view[2] / m.view[3]
		default:
			w, h = m.view[2], m.view[3]
		}
	} else {
		if !wok || !hok {
			return errors.New("map: the <svg> element has no viewBox and no width and height in pixels; give a viewBox")
		}
		m.view = [4]float64{0, 0, w, h}
	}
	m.width, m.height = int(math.Round(w)), int(math.Round(h))
	if m.width < 1 || m.height < 1 || m.width > MaxPixels || m.height > MaxPixels {
		return fmt.Errorf("map: %d×%d pixels; allowed 1 to %d each way", m.width, m.height, MaxPixels)
	}
	return nil
}

// length reads an SVG length in pixels: a number, or one ending in px.
func length(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, false
	}
	return v, true
}

func number(attr map[string]string, name string, def float64, required bool) (float64, error) {
	s, ok := attr[name]
	if !ok {
		if required {
			return 0, fmt.Errorf("no %s", name)
		}
		return def, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %q is not a number", name, s)
	}
	return v, nil
}

func readCircle(elem, id string, attr map[string]string, transformed bool) (circle, error) {
	if elem != "circle" || transformed {
		return circle{}, fmt.Errorf("map: %q is a <%s>%s; want a <circle> without a transform", id, elem, transformNote(transformed))
	}
	var c circle
	var err error
	if c.cx, err = number(attr, "cx", 0, false); err == nil {
		if c.cy, err = number(attr, "cy", 0, false); err == nil {
			c.r, err = number(attr, "r", 0, true)
		}
	}
	if err == nil && c.r <= 0 {
		err = errors.New("r must be positive")
	}
	if err != nil {
		return circle{}, fmt.Errorf("map: circle %q: %w", id, err)
	}
	return c, nil
}

func readRect(attr map[string]string) (x, y, w, h float64, err error) {
	if _, ok := attr["transform"]; ok {
		return 0, 0, 0, 0, errors.New("a transform is not supported here")
	}
	if x, err = number(attr, "x", 0, false); err != nil {
		return
	}
	if y, err = number(attr, "y", 0, false); err != nil {
		return
	}
	if w, err = number(attr, "width", 0, true); err != nil {
		return
	}
	if h, err = number(attr, "height", 0, true); err != nil {
		return
	}
	if w <= 0 || h <= 0 {
		err = errors.New("width and height must be positive")
	}
	return
}

// Size returns the PNG's size in pixels.
func (m *Map) Size() (width, height int) { return m.width, m.height }

// Point returns where the SVG point (x, y) falls in the PNG, in pixels.
func (m *Map) Point(x, y float64) (px, py float64) {
	return (x - m.view[0]) * float64(m.width) / m.view[2], (y - m.view[1]) * float64(m.height) / m.view[3]
}

// Circle returns the centre and radius of territory i's army circle, in
// the SVG's units.
func (m *Map) Circle(i int) (cx, cy, r float64) {
	c := m.circles[i]
	return c.cx, c.cy, c.r
}

// ListBounds returns the box the nations are listed in, in the SVG's units.
func (m *Map) ListBounds() (x, y, w, h float64) { return m.list.x, m.list.y, m.list.w, m.list.h }
