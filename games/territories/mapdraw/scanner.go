package mapdraw

import (
	"image"
	"image/color"
	"image/draw"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// boxScanner is a rasterx.Scanner over golang.org/x/image/vector that
// rasterises each path within its own bounding box. rasterx's ScannerGV
// composites the whole image for every path (its mask does not move with
// the target), which costs a map of forty shapes some 200 ms; this one
// costs what the shapes cover.
type boxScanner struct {
	dst  *image.RGBA
	mask image.Alpha // a path's coverage, kept from path to path
	r    vector.Rasterizer
	ops  []scanOp
	min  fixed.Point26_6
	max  fixed.Point26_6
	src  image.Image
	clip image.Rectangle
	// budget bounds the pixels the paths' boxes cover (nil: no bound);
	// a path beyond it is not drawn.
	budget *pixelBudget
}

type scanOp struct {
	move bool
	p    fixed.Point26_6
}

var _ rasterx.Scanner = (*boxScanner)(nil)

func newBoxScanner(dst *image.RGBA) *boxScanner {
	s := &boxScanner{dst: dst, src: image.NewUniform(color.Black)}
	s.Clear()
	return s
}

func (s *boxScanner) extend(p fixed.Point26_6) {
	s.min.X, s.min.Y = min(s.min.X, p.X), min(s.min.Y, p.Y)
	s.max.X, s.max.Y = max(s.max.X, p.X), max(s.max.Y, p.Y)
}

// Start begins a sub-path at a.
func (s *boxScanner) Start(a fixed.Point26_6) {
	s.extend(a)
	s.ops = append(s.ops, scanOp{true, a})
}

// Line adds a segment to b.
func (s *boxScanner) Line(b fixed.Point26_6) {
	s.extend(b)
	s.ops = append(s.ops, scanOp{false, b})
}

// Draw fills the path so far, within its bounding box (and the clip).
func (s *boxScanner) Draw() {
	if len(s.ops) == 0 {
		return
	}
	box := image.Rect(s.min.X.Floor(), s.min.Y.Floor(), s.max.X.Ceil()+1, s.max.Y.Ceil()+1).Intersect(s.dst.Bounds())
	if !s.clip.Empty() {
		box = box.Intersect(s.clip)
	}
	if box.Empty() || !s.budget.spend(int64(box.Dx())*int64(box.Dy())) {
		return
	}
	if r, ok := s.pixelRect(); ok && s.fillRect(r.Intersect(box)) {
		return
	}
	s.r.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for _, op := range s.ops {
		x, y := float32(op.p.X)/64-ox, float32(op.p.Y)/64-oy
		if op.move {
			s.r.MoveTo(x, y)
		} else {
			s.r.LineTo(x, y)
		}
	}
	// The coverage into a mask (vector's fast path), then the colour
	// over the destination where the mask covers it.
	n := box.Dx() * box.Dy()
	if cap(s.mask.Pix) < n {
		s.mask.Pix = make([]uint8, n)
	}
	s.mask.Pix, s.mask.Stride, s.mask.Rect = s.mask.Pix[:n], box.Dx(), image.Rect(0, 0, box.Dx(), box.Dy())
	s.r.DrawOp = draw.Src
	s.r.Draw(&s.mask, s.mask.Rect, image.Opaque, image.Point{})
	u, ok := s.src.(*image.Uniform)
	if !ok {
		draw.DrawMask(s.dst, box, s.src, box.Min, &s.mask, image.Point{}, draw.Over)
		return
	}
	over(s.dst, box, &s.mask, u.C)
}

// pixelRect returns the path's rectangle when the path is one closed
// rectangle whose sides lie between pixels (as a map's background is):
// its coverage is whole inside and none outside, as rasterising it would
// find, without rasterising it.
func (s *boxScanner) pixelRect() (image.Rectangle, bool) {
	ops := s.ops
	if len(ops) != 5 || ops[4].p != ops[0].p || ops[4].move || !ops[0].move || s.min.X == s.max.X || s.min.Y == s.max.Y {
		return image.Rectangle{}, false
	}
	ops = ops[:4]
	corners := [4]fixed.Point26_6{s.min, {X: s.max.X, Y: s.min.Y}, s.max, {X: s.min.X, Y: s.max.Y}}
	var seen [4]bool
	for i, op := range ops {
		if i > 0 && op.move {
			return image.Rectangle{}, false
		}
		if op.p.X&63 != 0 || op.p.Y&63 != 0 {
			return image.Rectangle{}, false // not on whole pixels
		}
		next := ops[(i+1)%4].p
		if op.p.X != next.X && op.p.Y != next.Y {
			return image.Rectangle{}, false // a diagonal side
		}
		for k, c := range corners {
			if op.p == c {
				seen[k] = true
			}
		}
	}
	if seen != [4]bool{true, true, true, true} {
		return image.Rectangle{}, false
	}
	return image.Rect(s.min.X.Floor(), s.min.Y.Floor(), s.max.X.Floor(), s.max.Y.Floor()), true
}

// fillRect paints r with the path's colour when it is a plain, opaque one,
// and reports whether it did.
func (s *boxScanner) fillRect(r image.Rectangle) bool {
	u, ok := s.src.(*image.Uniform)
	if !ok {
		return false
	}
	cr, cg, cb, ca := u.C.RGBA()
	if ca != 0xffff {
		return false
	}
	px := [4]uint8{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0xff}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := s.dst.Pix[s.dst.PixOffset(r.Min.X, y):s.dst.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			copy(row[i:i+4], px[:])
		}
	}
	return true
}

// over composites colour c onto dst within box through mask (whose origin
// is box.Min): Porter and Duff's over, as image/draw computes it.
func over(dst *image.RGBA, box image.Rectangle, mask *image.Alpha, c color.Color) {
	sr, sg, sb, sa := c.RGBA()
	opaque := sa == 0xffff
	r8, g8, b8 := uint8(sr>>8), uint8(sg>>8), uint8(sb>>8)
	w := box.Dx()
	for y := range box.Dy() {
		row := mask.Pix[y*mask.Stride : y*mask.Stride+w]
		pix := dst.Pix[dst.PixOffset(box.Min.X, box.Min.Y+y):]
		for x, m8 := range row {
			if m8 == 0 {
				continue
			}
			i := 4 * x
			if m8 == 0xff && opaque {
				pix[i], pix[i+1], pix[i+2], pix[i+3] = r8, g8, b8, 0xff
				continue
			}
			ma := uint32(m8) * 0x101
			a := 0xffff - (sa * ma / 0xffff)
			pix[i+0] = uint8(((uint32(pix[i+0])*0x101*a + sr*ma) / 0xffff) >> 8)
			pix[i+1] = uint8(((uint32(pix[i+1])*0x101*a + sg*ma) / 0xffff) >> 8)
			pix[i+2] = uint8(((uint32(pix[i+2])*0x101*a + sb*ma) / 0xffff) >> 8)
			pix[i+3] = uint8(((uint32(pix[i+3])*0x101*a + sa*ma) / 0xffff) >> 8)
		}
	}
}

// GetPathExtent returns the path's bounds so far.
func (s *boxScanner) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: s.min, Max: s.max}
}

// SetBounds does nothing: the bounds are the destination's.
func (s *boxScanner) SetBounds(int, int) {}

// SetColor sets a plain colour or a rasterx.ColorFunc (a gradient).
func (s *boxScanner) SetColor(c any) {
	switch c := c.(type) {
	case color.Color:
		s.src = image.NewUniform(c)
	case rasterx.ColorFunc:
		s.src = funcImage(c)
	}
}

// SetWinding does nothing: the vector rasterizer fills non-zero only.
func (s *boxScanner) SetWinding(bool) {}

// Clear forgets the path.
func (s *boxScanner) Clear() {
	s.ops = s.ops[:0]
	const far = fixed.Int26_6(1 << 30)
	s.min, s.max = fixed.Point26_6{X: far, Y: far}, fixed.Point26_6{X: -far, Y: -far}
}

// SetClip restricts drawing to rect; an empty rect clears it.
func (s *boxScanner) SetClip(rect image.Rectangle) { s.clip = rect }

// funcImage is a gradient as an image.
type funcImage rasterx.ColorFunc

func (f funcImage) ColorModel() color.Model { return color.RGBAModel }
func (f funcImage) Bounds() image.Rectangle {
	return image.Rect(-1<<20, -1<<20, 1<<20, 1<<20)
}
func (f funcImage) At(x, y int) color.Color { return f(x, y) }
