package web

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"rsc.io/qr"

	"github.com/arbiter-games/arbiter/engine"
)

// maxQRText bounds the text of a QR code: a link.
const maxQRText = 1024

// QRSVG returns a QR code of text as an SVG image: a square of dark modules
// on a white ground with the four-module quiet zone readers need, one path,
// scaled by its viewBox. level M survives a smudged phone screen.
func QRSVG(text string) ([]byte, error) {
	c, err := qr.Encode(text, qr.M)
	if err != nil {
		return nil, fmt.Errorf("qr: %w", err)
	}
	const quiet = 4
	n := c.Size + 2*quiet
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y := range c.Size {
		for x := 0; x < c.Size; {
			if !c.Black(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < c.Size && c.Black(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+quiet, y+quiet, run, run)
			x += run
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}

// qrCode answers POST /qr {"text": LINK} with the QR code of the link, as
// SVG. The link travels in the body, never the address, since a seat's
// link carries its secret.
func qrCode(w http.ResponseWriter, r *http.Request) {
	secure(w)
	var body struct {
		Text string `json:"text"`
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4*maxQRText))
	if err == nil {
		err = engine.DecodeJSON(data, &body) // "Text" is not "text" either
	}
	if err != nil || body.Text == "" || len(body.Text) > maxQRText {
		problem := ""
		if err != nil {
			problem = " (" + err.Error() + ")"
		}
		http.Error(w, fmt.Sprintf(`the body is {"text": "..."}: a link of 1 to %d bytes%s`, maxQRText, problem), http.StatusBadRequest)
		return
	}
	svg, err := QRSVG(body.Text)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(svg)
}
