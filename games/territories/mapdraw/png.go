package mapdraw

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
)

// Image rasterises the map of w: the picture SVG(w) describes.
func (m *Map) Image(w *territories.World) (*image.RGBA, error) {
	return m.Rasterize(m.SVG(w))
}

// PNG writes the map of w as a PNG image.
func (m *Map) PNG(out io.Writer, w *territories.World) error {
	img, err := m.Image(w)
	if err != nil {
		return err
	}
	return Encode(out, img)
}

// Rasterize draws an SVG of this map (the template, or what SVG made of
// it) at the map's size in pixels: the shapes with oksvg, then every
// <text> element with the Go fonts, since oksvg draws no text.
func (m *Map) Rasterize(svg []byte) (*image.RGBA, error) {
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg))
	if err != nil {
		return nil, fmt.Errorf("map: drawing the SVG: %w", err)
	}
	sx, sy := float64(m.width)/m.view[2], float64(m.height)/m.view[3]
	icon.Transform = rasterx.Identity.Scale(sx, sy).Translate(-m.view[0], -m.view[1])
	img := image.NewRGBA(image.Rect(0, 0, m.width, m.height))
	budget := &pixelBudget{left: MaxCover * int64(m.width) * int64(m.height)}
	scanner := newBoxScanner(img)
	scanner.budget = budget
	icon.Draw(rasterx.NewDasher(m.width, m.height, scanner), 1)
	if err := budget.err(); err != nil {
		return nil, err
	}
	if err := m.drawTexts(img, svg, sx, sy, budget); err != nil {
		return nil, err
	}
	return img, budget.err()
}

// MaxCover bounds the pixels a map's PNG draws, its shapes' boxes and its
// texts' glyphs, as so many times the picture's own: a map of a few
// kilobytes whose shapes each cover the picture, or whose texts are larger
// than it, would take minutes to draw.
const MaxCover = 40

// pixelBudget is what is left of the pixels a drawing may cover.
type pixelBudget struct {
	left int64
	over bool // a shape or a text was not drawn for want of it
}

// spend takes n pixels, and reports whether there were as many left.
func (b *pixelBudget) spend(n int64) bool {
	if b == nil {
		return true
	}
	if b.over || n > b.left {
		b.over = true
		return false
	}
	b.left -= n
	return true
}

func (b *pixelBudget) err() error {
	if b.over {
		return fmt.Errorf("map: its shapes and texts cover more than %d times the picture's pixels; draw fewer or smaller", MaxCover)
	}
	return nil
}

// textStyle is what a <text> element inherits from its groups.
type textStyle struct {
	fill     color.RGBA
	size     float64
	bold     bool
	anchor   string // start, middle, end
	baseline string // auto, central, middle
	hidden   bool
}

// drawTexts draws every <text> element of svg (its x and y, fill,
// font-size, font-weight, text-anchor and dominant-baseline, inherited
// from groups or given on it; tspans are written as part of their text).
func (m *Map) drawTexts(img *image.RGBA, svg []byte, sx, sy float64, budget *pixelBudget) error {
	d := xml.NewDecoder(bytes.NewReader(svg))
	stack := []textStyle{{fill: color.RGBA{0, 0, 0, 255}, size: 16, anchor: "start", baseline: "auto"}}
	faces := faceCache{}
	var (
		inText int // depth inside a <text>, 0 outside
		x, y   float64
		buf    strings.Builder
	)
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("map: reading the SVG's text: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			st := stack[len(stack)-1]
			attr := attrs(t.Attr)
			applyStyle(&st, attr)
			stack = append(stack, st)
			if inText > 0 {
				inText++
				continue
			}
			if t.Name.Local == "text" {
				inText = 1
				buf.Reset()
				x, _ = number(attr, "x", 0, false)
				y, _ = number(attr, "y", 0, false)
			}
		case xml.CharData:
			if inText > 0 {
				buf.Write(t)
			}
		case xml.EndElement:
			st := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if inText == 0 {
				continue
			}
			inText--
			if inText == 0 && !st.hidden {
				text := unescapeText(buf.String())
				// Each glyph covers about a square of the font's size,
				// drawn whole before it is clipped to the picture.
				size := math.Ceil(st.size * sy)
				if !budget.spend(int64(min(size*size, 1<<40)) * int64(utf8.RuneCountInString(text))) {
					return budget.err()
				}
				if err := drawText(img, faces, text, (x-m.view[0])*sx, (y-m.view[1])*sy, st, sy); err != nil {
					return err
				}
			}
		}
	}
}

// applyStyle reads the text properties of an element's attributes and of
// its style attribute.
func applyStyle(st *textStyle, attr map[string]string) {
	props := map[string]string{}
	for _, k := range []string{"fill", "font-size", "font-weight", "text-anchor", "dominant-baseline", "display", "visibility"} {
		if v, ok := attr[k]; ok {
			props[k] = v
		}
	}
	for _, decl := range strings.Split(attr["style"], ";") {
		if k, v, ok := strings.Cut(decl, ":"); ok {
			props[strings.TrimSpace(strings.ToLower(k))] = strings.TrimSpace(v)
		}
	}
	for k, v := range props {
		switch k {
		case "fill":
			if c, err := territories.ParseColor(v); err == nil {
				r, g, b := c.RGB()
				st.fill = color.RGBA{r, g, b, 255}
			} else if v == "none" {
				st.hidden = true
			}
		case "font-size":
			if s, err := strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64); err == nil && s > 0 && s < 1000 {
				st.size = s
			}
		case "font-weight":
			st.bold = v == "bold" || v == "bolder" || v >= "600" && v <= "999"
		case "text-anchor":
			st.anchor = v
		case "dominant-baseline":
			st.baseline = v
		case "display":
			st.hidden = st.hidden || v == "none"
		case "visibility":
			st.hidden = v == "hidden"
		}
	}
}

func unescapeText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'")
	return r.Replace(s)
}

// drawText draws s at pixel (x, y) with its anchor and baseline.
func drawText(img *image.RGBA, faces faceCache, s string, x, y float64, st textStyle, scale float64) error {
	if s == "" {
		return nil
	}
	face, err := faces.face(st.size*scale, st.bold)
	if err != nil {
		return err
	}
	if s, err = faces.drawable(s, st.bold); err != nil {
		return err
	}
	dr := font.Drawer{Dst: img, Src: image.NewUniform(st.fill), Face: face}
	adv := float64(dr.MeasureString(s)) / 64
	switch st.anchor {
	case "middle":
		x -= adv / 2
	case "end":
		x -= adv
	}
	switch st.baseline {
	case "central", "middle":
		// The middle of the digits and capitals: half the cap height.
		mt := face.Metrics()
		y += float64(mt.CapHeight) / 64 / 2
	}
	dr.Dot = fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}
	dr.DrawString(s)
	return nil
}

var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

type faceKey struct {
	size float64
	bold bool
}

// faceCache keeps the faces of one drawing: a face is not safe for
// concurrent use, and a map uses a few sizes over and over.
type faceCache map[faceKey]font.Face

// face returns the Go font at size pixels, regular or bold.
func (c faceCache) face(size float64, bold bool) (font.Face, error) {
	k := faceKey{size, bold}
	if f, ok := c[k]; ok {
		return f, nil
	}
	fs, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("map: the Go fonts: %w", err)
	}
	f := fs[0]
	if bold {
		f = fs[1]
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("map: a face of %v pixels: %w", size, err)
	}
	c[k] = face
	return face, nil
}

// Missing is what the PNG draws for a character that the Go fonts have
// no glyph for (an emoji, a Chinese character), where the font would draw
// an empty box: U+FFFD, the replacement character, once for each
// character as a reader sees it (an emoji of several code points, a flag
// or a family, is one). Marks and selectors the fonts lack that change a
// character they have (an emoji's variation selector after ♥) are left
// out. The SVG keeps the text as it is, for a browser to draw with its
// own fonts.
const Missing = '\uFFFD'

// drawable returns s as the Go fonts can draw it: composed (NFC), so that
// an e and its combining accent are é, which the fonts have, and each
// character they lack shown as Missing.
func (c faceCache) drawable(s string, bold bool) (string, error) {
	fs, err := fonts()
	if err != nil {
		return "", fmt.Errorf("map: the Go fonts: %w", err)
	}
	f := fs[0]
	if bold {
		f = fs[1]
	}
	s = norm.NFC.String(s)
	var buf sfnt.Buffer
	has := func(r rune) bool {
		i, err := f.GlyphIndex(&buf, r)
		return err == nil && i != 0
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return !has(r) }) {
		return s, nil
	}
	var b strings.Builder
	for g := graphemes.FromString(s); g.Next(); {
		for i, r := range g.Value() {
			if has(r) {
				b.WriteRune(r)
			} else if i == 0 {
				b.WriteRune(Missing) // for the whole character
				break
			}
		}
	}
	return b.String(), nil
}

// PNGOf draws svg, an SVG this map drew (Map.SVG), as the bytes of a PNG
// file, as PNG does the map of a world: for an SVG drawn under a lock
// that the rasterizing need not hold.
func (m *Map) PNGOf(svg []byte) ([]byte, error) {
	img, err := m.Rasterize(svg)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
