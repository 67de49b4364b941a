package mapdraw

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

// sampleWorld plays a short game on the sample map: Pacifica (alice) in CA
// with 5 armies, red; Deseret (bob) in UT with 3, NV with 1; Cascadia
// (carol) in WA with 2, blue.
func sampleWorld(t testing.TB) (*territories.World, *Map) {
	t.Helper()
	cfg := territories.Sample()
	w := territories.NewWorld(cfg)
	for _, s := range []struct{ player, action string }{
		{"alice", "join Pacifica CA"}, {"bob", "join Deseret UT"}, {"carol", "join Cascadia WA"},
		{"alice", "color red"}, {"carol", "color #0000ff"}, {"bob", "color rgb(0, 160, 0)"},
		{"alice", "raise CA"}, {"alice", "raise CA"}, {"bob", "move UT:1 NV"}, {"bob", "raise UT"},
		{"carol", "move WA:1 OR"}, {"carol", "move OR ID"},
	} {
		a, err := territories.ParseAction(s.action)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Apply(s.player, a); err != nil {
			t.Fatalf("%s %s: %v", s.player, s.action, err)
		}
	}
	m, err := Parse(territories.SampleMap(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w, m
}

// tinyConfig is a board of two neighbours, A and B.
const tinyConfig = `territories:
  - {id: A, name: Alpha, neighbors: [B]}
  - {id: B, name: Beta, neighbors: [A]}
`

func TestSampleMapParses(t *testing.T) {
	// "The SVG has, for each territory, a path whose id is the territory
	// id, and a circle whose id is <id>-armies where the army count is
	// drawn; a group nations-list with a rect nations-list-bounds where the
	// nations, their players and colours are listed."
	m, err := Parse(territories.SampleMap(), territories.Sample())
	if err != nil {
		t.Fatal(err)
	}
	if w, h := m.Size(); w != 1020 || h != 590 {
		t.Errorf("size %d×%d; want 1020×590", w, h)
	}
	if x, y, w, h := m.ListBounds(); x != 740 || y != 56 || w != 260 || h != 320 {
		t.Errorf("list bounds %v %v %v %v", x, y, w, h)
	}
}

func TestParseRefusesIncompleteMaps(t *testing.T) {
	cfg := territories.Sample()
	svg := string(territories.SampleMap())
	for _, c := range []struct {
		name, svg, want string
	}{
		{"no path", strings.Replace(svg, `id="NV"`, `id="XX"`, 1), `missing a path with id "NV"`},
		{"no circle", strings.Replace(svg, `id="CA-armies"`, `id="CA-army"`, 1), `a circle with id "CA-armies"`},
		{"circle not a circle", strings.Replace(svg, `<circle id="UT-armies"`, `<ellipse id="UT-armies"`, 1), `"UT-armies" is a <ellipse>`},
		{"circle without r", strings.Replace(svg, `cy="308" r="13"`, `cy="308"`, 1), "no r"},
		{"no list", strings.Replace(svg, `id="nations-list"`, `id="nations"`, 1), `"nations-list"`},
		{"no bounds", strings.Replace(svg, `id="nations-list-bounds"`, `id="bounds"`, 1), `a rect with id "nations-list-bounds"`},
		{"transformed", strings.Replace(svg, `<g id="armies"`, `<g id="armies" transform="scale(2)"`, 1), "inside a transform"},
		{"not xml", svg[:len(svg)/2], "not a well-formed SVG"},
		{"not svg", `<html></html>`, "want <svg>"},
		{"empty", ``, "no <svg> element"},
		{"twice", strings.Replace(svg, `id="OR"`, `id="CA"`, 1), `two elements have the id "CA"`},
		{"huge", strings.Replace(svg, `width="1020" height="590"`, `width="100000" height="590"`, 1), "allowed 1 to 4096"},
		// Parse reads raw tokens, which the XML decoder does not match up:
		// these were accepted, and drawing them wrote the counts and the
		// nations where no element ends (or panicked).
		{"unclosed", strings.TrimSpace(svg)[:len(strings.TrimSpace(svg))-len("</svg>")], "<svg> is not closed"},
		{"closed by another's end tag", strings.Replace(svg, "</g>", "</svg>", 1), "</svg> closes <g>"},
		{"second root", svg + `<svg width="1" height="1"/>`, "a second root element <svg>"},
		{"circles never closed", `<svg viewBox="0 0 1 1" id="NV"><A id="UT"><circle id="NV-armies" r="1"><circle id="UT-armies" r="1"><g id="nations-list"><rect id="nations-list-bounds" width="1" height="1"></A></A>`, "</A> closes <rect>"},
	} {
		_, err := Parse([]byte(c.svg), cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
	}
}

// A map whose uses would have the PNG draw without end is refused: a use
// inside a definition (which could draw itself, or others many times
// over), and uses that draw more than MaxDrawn elements in all. A use of
// a definition outside it is drawn.
func TestParseRefusesMapsThatDrawWithoutEnd(t *testing.T) {
	cfg := territories.Sample()
	svg := string(territories.SampleMap())
	with := func(extra string) string { return strings.Replace(svg, "</svg>", extra+"</svg>", 1) }
	nested := `<defs><g id="l0"><path d="M0,0 H9 V9 Z"/></g></defs>`
	for i := 1; i < 9; i++ {
		nested += fmt.Sprintf(`<defs><g id="l%d">%s</g></defs>`, i, strings.Repeat(fmt.Sprintf(`<use href="#l%d"/>`, i-1), 10))
	}
	many := `<defs><g id="many">` + strings.Repeat(`<path d="M0,0 H9 V9 Z"/>`, 1000) + `</g></defs>` + strings.Repeat(`<use href="#many"/>`, 100)
	for _, c := range []struct{ name, svg, want string }{
		{"itself", with(`<defs><g id="loop"><use xlink:href="#loop" xmlns:xlink="http://www.w3.org/1999/xlink"/></g></defs><use href="#loop"/>`), "a <use> inside a <defs>"},
		{"nested", with(nested + `<use href="#l8"/>`), "a <use> inside a <defs>"},
		{"many", with(many), "allowed 100000"},
	} {
		if _, err := Parse([]byte(c.svg), cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
	}
	once := with(`<defs><g id="dot"><circle cx="5" cy="5" r="2"/></g></defs><use href="#dot" x="20"/><use href="#dot" x="40"/>`)
	m, err := Parse([]byte(once), cfg)
	if err != nil {
		t.Fatalf("a map with uses of a definition: %v", err)
	}
	if _, err := m.PNGOf([]byte(once)); err != nil {
		t.Errorf("drawing a map with uses: %v", err)
	}
}

func TestSVGColoursAndArmies(t *testing.T) {
	// "the referee writes the map SVG with each held territory filled in
	// its nation's colour and its armies drawn"
	w, m := sampleWorld(t)
	out := m.SVG(w)
	type elem struct {
		id, fill, class, text string
	}
	var elems []elem
	d := xml.NewDecoder(bytes.NewReader(out))
	var cur *elem
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := elem{}
			for _, a := range t.Attr {
				switch a.Name.Local {
				case "id":
					e.id = a.Value
				case "fill":
					e.fill = a.Value
				case "class":
					e.class = a.Value
				}
			}
			elems = append(elems, e)
			cur = &elems[len(elems)-1]
		case xml.CharData:
			if cur != nil {
				cur.text += strings.TrimSpace(string(t))
			}
		case xml.EndElement:
			cur = nil
		}
	}
	fills := map[string]string{}
	var counts []string
	for _, e := range elems {
		if e.id != "" {
			fills[e.id] = e.fill
		}
		if e.class == "armies" {
			counts = append(counts, e.text)
		}
	}
	for id, want := range map[string]string{"CA": "#ff0000", "UT": "#00a000", "NV": "#00a000", "WA": "#0000ff", "ID": "#0000ff", "OR": ""} {
		if fills[id] != want {
			t.Errorf("%s is filled %q; want %q", id, fills[id], want)
		}
	}
	// In the map's order: WA 2, CA 5, NV 1, ID 1, UT 3.
	if got := strings.Join(counts, " "); got != "2 5 1 1 3" {
		t.Errorf("army counts %q; want 2 5 1 1 3 (WA, CA, NV, ID, UT)", got)
	}
	for _, want := range []string{">Pacifica (alice)<", ">1 territory, 5 armies<", ">Deseret (bob)<", ">2 territories, 4 armies<", ">Cascadia (carol)<", ">2 territories, 3 armies<"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the nations list lacks %q", want)
		}
	}
}

func TestSVGCircleEndingWhereAShapeStarts(t *testing.T) {
	// A map written without space between its elements: B's circle ends
	// where A's path begins. Both held, the count written after the
	// circle and A's colour set in its start tag are two edits at one
	// place (drawing it panicked, after every action of the game).
	cfg, err := territories.ReadConfig(strings.NewReader(tinyConfig))
	if err != nil {
		t.Fatal(err)
	}
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">` +
		`<circle id="B-armies" cx="30" cy="15" r="4"/><path id="A" d="M0,0 L20,0 L20,30 L0,30 Z"/>` +
		`<path id="B" d="M20,0 L40,0 L40,30 L20,30 Z"/><circle id="A-armies" cx="10" cy="15" r="4"/>` +
		`<g id="nations-list"><rect id="nations-list-bounds" x="0" y="0" width="40" height="10"/></g></svg>`
	m, err := Parse([]byte(svg), cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := territories.NewWorld(cfg)
	for _, s := range []struct{ player, action string }{{"a", "join Na A"}, {"b", "join Nb B"}, {"a", "color #102030"}} {
		a, err := territories.ParseAction(s.action)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Apply(s.player, a); err != nil {
			t.Fatal(err)
		}
	}
	out := string(m.SVG(w))
	want := `<circle id="B-armies" cx="30" cy="15" r="4"/><text class="armies" x="30" y="15"`
	if !strings.Contains(out, want) {
		t.Errorf("B's count is not written after its circle:\n%s", out)
	}
	if !strings.Contains(out, `dominant-baseline="central">3</text><path fill="#102030" id="A"`) {
		t.Errorf("A is not filled right after B's count:\n%s", out)
	}
	if _, err := Parse([]byte(out), cfg); err != nil {
		t.Errorf("the drawn map does not parse: %v", err)
	}
}

func TestSetFillReplacesStyle(t *testing.T) {
	for in, want := range map[string]string{
		`<path id="a" d="M0,0"/>`:                              `<path fill="#123456" id="a" d="M0,0"/>`,
		`<path id="a" fill="red" d="M0,0">`:                    `<path id="a" fill="#123456" d="M0,0">`,
		`<path style="fill:red;stroke:blue" id='a' fill='x'/>`: `<path style="stroke:blue" id='a' fill='#123456'/>`,
		"<path\n style=\"stroke:blue; FILL : red\" id=\"a\"/>": "<path fill=\"#123456\"\n style=\"stroke:blue\" id=\"a\"/>",
	} {
		if got := string(setFill([]byte(in), "#123456")); got != want {
			t.Errorf("setFill(%s) = %s; want %s", in, got, want)
		}
	}
}

// pixel returns the colour at SVG point (x, y).
func pixel(m *Map, img *image.RGBA, x, y float64) color.RGBA {
	px, py := m.Point(x, y)
	return img.RGBAAt(int(px), int(py))
}

func TestPNGColoursAndArmies(t *testing.T) {
	// "a PNG rendered in-process (no external program needed)": the
	// territories in their nations' colours, the armies written in the
	// circles, the nations listed with their colours.
	w, m := sampleWorld(t)
	img, err := m.Image(w)
	if err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("MAPDRAW_PNG"); p != "" { // to look at it
		f, _ := os.Create(p)
		Encode(f, img)
		f.Close()
	}
	red, green, blue := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 160, 0, 255}, color.RGBA{0, 0, 255, 255}
	land, white := color.RGBA{0xec, 0xe6, 0xd3, 255}, color.RGBA{255, 255, 255, 255}
	// Points inside each territory, clear of its label and circle.
	for _, c := range []struct {
		id   string
		x, y float64
		want color.RGBA
	}{
		{"CA", 100, 300, red}, {"CA", 250, 480, red}, {"NV", 300, 280, green}, {"UT", 470, 360, green},
		{"WA", 120, 60, blue}, {"ID", 285, 130, blue}, {"OR", 120, 150, land}, {"CO", 650, 300, land},
	} {
		if got := pixel(m, img, c.x, c.y); got != c.want {
			t.Errorf("%s at (%v, %v) is %v; want %v", c.id, c.x, c.y, got, c.want)
		}
	}
	// Each held territory's circle has ink in it (the count), around a
	// white centre ring; an unheld one is white all through.
	ink := func(i int) int {
		cx, cy, r := m.Circle(i)
		n := 0
		for dy := -r * 0.6; dy <= r*0.6; dy++ {
			for dx := -r * 0.6; dx <= r*0.6; dx++ {
				p := pixel(m, img, cx+dx, cy+dy)
				if int(p.R)+int(p.G)+int(p.B) < 200 {
					n++
				}
			}
		}
		return n
	}
	cfg := w.Config()
	for i := range cfg.Len() {
		id := cfg.Territory(i).ID
		held := w.Holding(i).Nation >= 0
		n := ink(i)
		if held && n < 10 || !held && n != 0 {
			t.Errorf("%s (held %v): %d ink pixels in its circle", id, held, n)
		}
		cx, cy, r := m.Circle(i)
		if p := pixel(m, img, cx-r*0.8, cy); p != white {
			t.Errorf("%s: the circle's edge at %v is not white", id, p)
		}
	}
	// Different counts are drawn differently: the "5" of CA and the "1" of NV.
	ca, _ := cfg.Lookup("CA")
	nv, _ := cfg.Lookup("NV")
	if ink(ca) == ink(nv) {
		t.Errorf("CA's 5 and NV's 1 have the same ink (%d pixels)", ink(ca))
	}
	// The nations list: a swatch of each colour, in join order.
	x, y, _, _ := m.ListBounds()
	for k, want := range []color.RGBA{red, green, blue} {
		if got := pixel(m, img, x+8+4, y+8+float64(k)*44+11); got != want {
			t.Errorf("swatch %d is %v; want %v", k, got, want)
		}
	}
}

func TestPNGEncodes(t *testing.T) {
	w, m := sampleWorld(t)
	var b bytes.Buffer
	if err := m.PNG(&b, w); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1020 || img.Bounds().Dy() != 590 {
		t.Errorf("bounds %v", img.Bounds())
	}
}

// BenchmarkRender draws the sample map of a game under way: the SVG, the
// PNG image and its encoding, as the referee does after every action.
func BenchmarkRender(b *testing.B) {
	w, m := sampleWorld(b)
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := m.PNG(&out, w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVG draws the SVG alone.
func BenchmarkSVG(b *testing.B) {
	w, m := sampleWorld(b)
	b.ReportAllocs()
	for b.Loop() {
		m.SVG(w)
	}
}

// BenchmarkRasterize draws the PNG image alone, without encoding it.
func BenchmarkRasterize(b *testing.B) {
	w, m := sampleWorld(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Image(w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode encodes the map's image alone, and image/png's
// encoder at its fastest level for comparison.
func BenchmarkEncode(b *testing.B) {
	w, m := sampleWorld(b)
	img, err := m.Image(w)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []struct {
		name   string
		encode func(io.Writer, image.Image) error
	}{
		{"Encode", Encode},
		{"image-png", (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode},
	} {
		b.Run(e.name, func(b *testing.B) {
			var out bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				if err := e.encode(&out, img); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "bytes")
		})
	}
}

func TestEncodeIsExact(t *testing.T) {
	// The map's PNG decodes to exactly the picture drawn, and an image with
	// transparency is written too.
	w, m := sampleWorld(t)
	img, err := m.Image(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range []*image.RGBA{img, image.NewRGBA(image.Rect(0, 0, 3, 2)), img.SubImage(image.Rect(10, 20, 500, 300)).(*image.RGBA)} {
		var b bytes.Buffer
		if err := Encode(&b, im); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		bb := im.Bounds()
		if back.Bounds().Dx() != bb.Dx() || back.Bounds().Dy() != bb.Dy() {
			t.Fatalf("bounds %v; want the size of %v", back.Bounds(), bb)
		}
		for y := range bb.Dy() {
			for x := range bb.Dx() {
				r1, g1, b1, a1 := im.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
				r2, g2, b2, a2 := back.At(back.Bounds().Min.X+x, back.Bounds().Min.Y+y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
					t.Fatalf("pixel (%d, %d) differs", x, y)
				}
			}
		}
	}
}

func TestBoxScannerDrawsAsScannerGV(t *testing.T) {
	// The box scanner is an optimisation of rasterx's ScannerGV: the same
	// shapes. Edges may be shaded a little differently (a shape's box
	// small enough is accumulated in fixed point, the whole image in
	// floating point), nothing more.
	w, m := sampleWorld(t)
	svg := m.SVG(w)
	fast, err := m.Rasterize(svg)
	if err != nil {
		t.Fatal(err)
	}
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg))
	if err != nil {
		t.Fatal(err)
	}
	icon.SetTarget(0, 0, float64(m.width), float64(m.height))
	slow := image.NewRGBA(fast.Bounds())
	scanner := rasterx.NewScannerGV(m.width, m.height, slow, slow.Bounds())
	icon.Draw(rasterx.NewDasher(m.width, m.height, scanner), 1)
	if err := m.drawTexts(slow, svg, 1, 1, nil); err != nil {
		t.Fatal(err)
	}
	worst, off := 0, 0
	for i := 0; i < len(fast.Pix); i += 4 {
		d := 0
		for c := range 3 {
			x := int(fast.Pix[i+c]) - int(slow.Pix[i+c])
			d = max(d, x, -x)
		}
		worst = max(worst, d)
		if d > 2 {
			off++
		}
	}
	if n := len(fast.Pix) / 4; worst > 32 || off*200 > n {
		t.Errorf("the box scanner differs from ScannerGV by up to %d in a channel, by more than 2 at %d of %d pixels", worst, off, n)
	}
}

func TestRectangleOnWholePixels(t *testing.T) {
	// A rectangle whose sides lie between pixels (the map's background) is
	// painted without the rasteriser, exactly as the rasteriser paints it;
	// any other path is rasterised.
	px := func(x, y int) fixed.Point26_6 { return fixed.P(x, y) }
	half := fixed.Point26_6{X: 10*64 + 32, Y: 5 * 64}
	for _, c := range []struct {
		name string
		path []fixed.Point26_6
		rect bool
	}{
		{"clockwise", []fixed.Point26_6{px(3, 2), px(40, 2), px(40, 30), px(3, 30), px(3, 2)}, true},
		{"anticlockwise", []fixed.Point26_6{px(3, 2), px(3, 30), px(40, 30), px(40, 2), px(3, 2)}, true},
		{"half a pixel", []fixed.Point26_6{half, px(40, 5), px(40, 30), {X: half.X, Y: 30 * 64}, half}, false},
		{"a diagonal", []fixed.Point26_6{px(3, 2), px(40, 30), px(40, 2), px(3, 30), px(3, 2)}, false},
		{"back and forth", []fixed.Point26_6{px(3, 2), px(40, 2), px(3, 2), px(40, 2), px(3, 2)}, false},
		{"a triangle", []fixed.Point26_6{px(3, 2), px(40, 2), px(40, 30), px(3, 2)}, false},
	} {
		draw := func(src any) (*image.RGBA, bool) {
			img := image.NewRGBA(image.Rect(0, 0, 50, 40))
			s := newBoxScanner(img)
			s.SetColor(src)
			s.Start(c.path[0])
			for _, p := range c.path[1:] {
				s.Line(p)
			}
			_, fast := s.pixelRect()
			s.Draw()
			return img, fast
		}
		blue := color.RGBA{10, 20, 200, 255}
		painted, fast := draw(blue)
		rasterised, _ := draw(rasterx.ColorFunc(func(int, int) color.Color { return blue }))
		if fast != c.rect {
			t.Errorf("%s: painted as a rectangle: %v; want %v", c.name, fast, c.rect)
		}
		if !bytes.Equal(painted.Pix, rasterised.Pix) {
			for y := range 40 {
				for x := range 50 {
					if painted.RGBAAt(x, y) != rasterised.RGBAAt(x, y) {
						t.Errorf("%s: pixel (%d, %d) painted %v, rasterised %v", c.name, x, y, painted.RGBAAt(x, y), rasterised.RGBAAt(x, y))
						break
					}
				}
			}
		}
	}
}

func TestClipCutsBetweenCharacters(t *testing.T) {
	// A label cut to fit keeps a letter with its accents and an emoji
	// with its joined parts.
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"Washington", 20, "Washington"},
		{"Washington", 5, "Wash…"},
		{"Jose\u0301 Island", 5, "Jos…"},
		{"ab👩\u200d🚀cd", 4, "ab…"},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// Annotated writes each territory's name and neighbours on its element,
// after its id, in place of any the file gave, escaped in either quote.
func TestAnnotated(t *testing.T) {
	cfg, err := territories.ReadConfig(strings.NewReader(`{"territories": [{"id": "A", "name": "Ay's & <A>", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">` +
		`<path d="M0,0 L20,0 L20,30 L0,30 Z" id='A' data-name='old'/><circle id="A-armies" cx="10" cy="15" r="4"/>` +
		`<path id="B" d="M20,0 L40,0 L40,30 L20,30 Z"/><circle id="B-armies" cx="30" cy="15" r="4"/>` +
		`<g id="nations-list"><rect id="nations-list-bounds" x="0" y="0" width="40" height="10"/></g></svg>`
	m, err := Parse([]byte(svg), cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := m.Annotated(cfg)
	for _, want := range []string{
		`<path d="M0,0 L20,0 L20,30 L0,30 Z" id='A' data-neighbors="B" data-name='Ay&#39;s &amp; &lt;A&gt;'/>`,
		`<path id="B" data-name="Bee" data-neighbors="A" d=`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("annotated: %s\nwant %s", out, want)
		}
	}
	if _, err := Parse(out, cfg); err != nil {
		t.Errorf("the annotated map does not parse: %v", err)
	}
}

// A map whose shapes or texts would cover the picture many times over (a
// few kilobytes that took minutes to draw) is refused when its PNG is
// drawn, before it has drawn them all; the sample map covers its picture
// a few times.
func TestAPNGDrawsNoMoreThanMaxCover(t *testing.T) {
	cfg, err := territories.ParseConfig([]byte(`{"territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const head = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 40 40">` +
		`<path id="A" d="M0,0 H20 V30 H0 Z"/><circle id="A-armies" cx="10" cy="15" r="4"/>` +
		`<path id="B" d="M20,0 H40 V30 H20 Z"/><circle id="B-armies" cx="30" cy="15" r="4"/>` +
		`<g id="nations-list"><rect id="nations-list-bounds" x="0" y="30" width="40" height="10"/></g>`
	for name, body := range map[string]string{
		"shapes": strings.Repeat(`<path d="M0,0 L40,1 L0,40 Z"/>`, MaxCover+1),
		"text":   `<text x="0" y="20" font-size="900">W</text>`,
	} {
		svg := []byte(head + body + `</svg>`)
		m, err := Parse(svg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.PNGOf(svg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d times the picture's pixels", MaxCover)) {
			t.Errorf("%s covering the picture over and over: %v; want it refused", name, err)
		}
	}
	svg := []byte(head + strings.Repeat(`<path d="M0,0 L40,1 L0,40 Z"/>`, 3) + `<text x="0" y="20" font-size="9">Ay</text></svg>`)
	m, err := Parse(svg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.PNGOf(svg); err != nil {
		t.Errorf("a map that covers its picture a few times: %v", err)
	}
}
