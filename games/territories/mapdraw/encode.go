package mapdraw

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// Encode writes img as a PNG, fast, which is what a referee that redraws
// the map after every action wants. An opaque *image.RGBA (every map
// drawn) is written as 8-bit RGB, each row filtered by its difference from
// the row above, and compressed by zlib at its fastest level: about twice
// as fast as image/png, which tries five filters on every row, for a file
// of the same size. Any other image goes to image/png at its fastest
// level.
func Encode(out io.Writer, img image.Image) error {
	if rgba, ok := img.(*image.RGBA); ok && rgba.Opaque() && !rgba.Bounds().Empty() {
		return encodeRGB(out, rgba)
	}
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(out, img)
}

// pngSignature begins every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// PNG's colour type of 8-bit RGB, and its filter that subtracts the byte
// above.
const (
	colorRGB = 2
	filterUp = 2
)

// encodeRGB writes an opaque image as an 8-bit RGB PNG.
func encodeRGB(out io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	bw := bufio.NewWriter(out)
	bw.WriteString(pngSignature)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, colorRGB // bit depth, colour type; compression, filter and interlace 0
	writeChunk(bw, "IHDR", ihdr[:])

	var idat bytes.Buffer
	z, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	row := make([]byte, 1+3*w) // the filter's byte, then the row
	above := make([]byte, 3*w) // the row above, unfiltered: zero above the first
	here := make([]byte, 3*w)
	row[0] = filterUp
	for y := range h {
		pix := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
		for x := range w {
			here[3*x], here[3*x+1], here[3*x+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
		}
		for i, v := range here {
			row[1+i] = v - above[i]
		}
		if _, err := z.Write(row); err != nil {
			return err
		}
		above, here = here, above
	}
	if err := z.Close(); err != nil {
		return err
	}
	writeChunk(bw, "IDAT", idat.Bytes())
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

// writeChunk writes one PNG chunk: its length, type, data and CRC.
func writeChunk(w *bufio.Writer, kind string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	w.Write(head[:])
	w.Write(data)
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc.Sum32())
	w.Write(sum[:])
}
