// Package web is Arbiter's web pages: the home page (the games, their
// rules, a form that starts a match, the links to share with their QR
// codes), a match's page (a seat's board and the decisions it owes, the
// spectator's view, the judge's console, live over the match's event
// stream) and the replay viewer. They are plain HTML, CSS and ES modules
// embedded in the binary and served by arbiter serve beside its API: no
// network is needed, nothing is fetched from elsewhere.
//
// The pages speak the API of docs/api.md only. A seat's secret travels in
// its link's fragment (/m/ID#s=SECRET), which never reaches the server; a
// page keeps it for its tab (sessionStorage), takes it out of the address
// and the history, and sends it as Authorization: Bearer. Pages send no
// Referer.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
)

//go:embed assets
var assets embed.FS

// files returns the assets, rooted at the assets directory.
func files() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the directory is embedded
	}
	return sub
}

// asset is one file as it is served: its bytes, gzipped bytes when they
// are smaller, type and tag.
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

// served are the assets, read and compressed once.
var served = sync.OnceValue(func() map[string]*asset {
	out := map[string]*asset{}
	fs.WalkDir(files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files(), p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		a := &asset{body: b, ctype: mime.TypeByExtension(path.Ext(p)), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if strings.HasSuffix(p, ".js") {
			a.ctype = "text/javascript; charset=utf-8"
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(b)
		w.Close()
		if z.Len() < len(b) {
			a.gz = z.Bytes()
		}
		out[p] = a
		return nil
	})
	return out
})

// The pages' security headers: scripts, styles and connections from this
// origin only; no Referer; no framing.
const contentPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func secure(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
}

// Handler serves the pages: / (home), /m/{id} (a match: a seat's, the
// judge's or a spectator's page, by the secret in the link's fragment),
// /replay (the replay viewer), /assets/ (their files), /favicon.ico (the
// pages' icon, as SVG, for whoever asks for it there) and POST /qr (a QR
// code of a link, as SVG).
func Handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", page("index.html"))
	m.HandleFunc("GET /m/{id}", page("match.html"))
	m.HandleFunc("GET /replay", page("replay.html"))
	m.HandleFunc("GET /assets/{file...}", func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, r.PathValue("file"), false)
	})
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, "favicon.svg", false)
	})
	m.HandleFunc("POST /qr", qrCode)
	m.HandleFunc("/qr", qrMethods)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		secure(w)
		http.Error(w, "no such page: the pages are / (home), /m/ID (a match) and /replay (the replay viewer)", http.StatusNotFound)
	})
	return m
}

// page serves one of the pages.
func page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { serve(w, r, name, true) }
}

// serve answers an asset: gzipped when the client takes it, revalidated by
// its tag (assets change only with the binary).
func serve(w http.ResponseWriter, r *http.Request, name string, isPage bool) {
	secure(w)
	a, ok := served()[name]
	if !ok || (!isPage && strings.HasSuffix(name, ".html")) {
		http.Error(w, "no such file", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", a.etag)
	h.Set("Vary", "Accept-Encoding")
	if isPage {
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Cache-Control", "public, max-age=300, must-revalidate")
	}
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	w.Write(body)
}
