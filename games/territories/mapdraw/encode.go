package mapdraw

import (
	"image"
	"image/png"
	"io"
)

// Encode writes img as a PNG at the fastest compression, which is what a
// referee that redraws the map after every action wants: the map's flat
// colours compress well at any level.
func Encode(out io.Writer, img image.Image) error {
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(out, img)
}
