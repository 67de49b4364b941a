package web

import (
	"bytes"
	"encoding/json"
	"errors"
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
// link carries its secret. The pages fetch it (links.js), as they call the
// API, and it refuses as the API does: JSON, {"error": {"code",
// "message"}}, with the API's statuses and codes.
func qrCode(w http.ResponseWriter, r *http.Request) {
	secure(w)
	var body struct {
		Text string `json:"text"`
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4*maxQRText))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refuse(w, http.StatusRequestEntityTooLarge, "too-large", fmt.Sprintf(`the body is over %d bytes; it is {"text": "..."}: a link of 1 to %d bytes`, tooLarge.Limit, maxQRText))
		return
	case err != nil:
		refuse(w, http.StatusBadRequest, "bad-body", fmt.Sprintf("the body could not be read: %v", err))
		return
	}
	if err := engine.DecodeJSON(data, &body); err != nil { // "Text" is not "text" either
		refuse(w, http.StatusBadRequest, "bad-json", fmt.Sprintf(`the body is {"text": "..."}: a link of 1 to %d bytes (%v)`, maxQRText, err))
		return
	}
	if body.Text == "" || len(body.Text) > maxQRText {
		refuse(w, http.StatusBadRequest, "invalid", fmt.Sprintf(`"text" has %d bytes: the body is {"text": "..."}: a link of 1 to %d bytes`, len(body.Text), maxQRText))
		return
	}
	svg, err := QRSVG(body.Text)
	if err != nil {
		refuse(w, http.StatusBadRequest, "invalid", fmt.Sprintf("no QR code holds this text: %v", err))
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(svg)
}

// qrMethods refuses /qr by another method than POST, as the API refuses a
// call by a method it does not take.
func qrMethods(w http.ResponseWriter, r *http.Request) {
	secure(w)
	w.Header().Set("Allow", http.MethodPost)
	refuse(w, http.StatusMethodNotAllowed, "method-not-allowed", fmt.Sprintf(`%s is not a call of /qr; it is POST {"text": LINK}, the link in the body (never the address)`, r.Method))
}

// refuse answers a refusal in the API's shape (docs/api.md, Errors):
// {"error": {"code", "message"}} with its HTTP status.
func refuse(w http.ResponseWriter, status int, code, message string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": message}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
