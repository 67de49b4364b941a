package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
)

// The replay viewer's calls: a match's steps and views through one
// viewpoint, made in Go by replaying its log (the browser is never given
// the state or its generator); the same for a record the caller sends; and
// a game's map, on which pages draw the board.

// maxRecordBody bounds a record sent to be viewed.
const maxRecordBody = 64 << 20

// Pages serves h at every path outside the API: the web pages.
func (s *Server) Pages(h http.Handler) { s.mux.Handle("/", h) }

// viewpoints returns the viewpoints c may see of a match of seats players
// in status: everything once it is over (its record is everyone's then);
// while it runs, the judge sees every one, a seat its own and the public
// one, anyone else the public one. The first is the caller's own.
func viewpoints(c caller, status store.Status, seats int) []catalog.Viewpoint {
	all := []catalog.Viewpoint{catalog.JudgeView, catalog.PublicView}
	for s := range seats {
		all = append(all, catalog.SeatView(s))
	}
	switch {
	case c.role == store.JudgeRole:
		return all
	case c.role == store.SeatRole && status == store.Running:
		return []catalog.Viewpoint{catalog.SeatView(c.seat), catalog.PublicView}
	case status == store.Running:
		return []catalog.Viewpoint{catalog.PublicView}
	case c.role == store.SeatRole:
		// Over: the seat's own first.
		own := catalog.SeatView(c.seat)
		return append([]catalog.Viewpoint{own}, slices.DeleteFunc(all, func(v catalog.Viewpoint) bool { return v == own })...)
	}
	return append([]catalog.Viewpoint{catalog.PublicView, catalog.JudgeView}, all[2:]...)
}

// viewerOptions reads a viewer call's query: view (a viewpoint; the
// caller's own when left out) and frames=0 (steps, measures and events
// only), among the viewpoints allowed.
func viewerOptions(r *http.Request, allowed []catalog.Viewpoint) (catalog.ViewerOptions, []string, error) {
	var o catalog.ViewerOptions
	want := allowed[0]
	if q := r.URL.Query().Get("view"); q != "" {
		v, err := catalog.ParseViewpoint(q)
		if err != nil {
			return o, nil, refuse(http.StatusBadRequest, "invalid", "%v", err)
		}
		want = v
	}
	names := make([]string, len(allowed))
	for i, v := range allowed {
		names[i] = v.String()
	}
	if !slices.Contains(allowed, want) {
		return o, nil, refuse(http.StatusForbidden, "viewpoint", "the viewpoint %s is not yours to see now; you may see %s (the judge sees every one; once the match is over, everyone does)", want, strings.Join(names, ", "))
	}
	switch f := r.URL.Query().Get("frames"); f {
	case "", "1":
	case "0":
		o.NoFrames = true
	default:
		return o, nil, refuse(http.StatusBadRequest, "invalid", "frames %q: give 0 (no views) or 1", f)
	}
	o.Viewpoints = []catalog.Viewpoint{want}
	return o, names, nil
}

// replayMatch answers a match as the replay viewer shows it through one
// viewpoint (GET /matches/{id}/replay?view=).
func (s *Server) replayMatch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.who(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if wait := s.limiter.move("view:" + c.key); wait > 0 {
		s.writeError(w, r, rateLimited(wait, "more than %g replays a second", s.cfg.Limits.Moves))
		return
	}
	done, err := s.limiter.view(c.key)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	var buf bytes.Buffer
	var o catalog.ViewerOptions
	var offered []string
	var key string
	var cached []byte
	err = s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
		var err error
		o, offered, err = viewerOptions(r, viewpoints(c, row.Status, len(row.Setup.Players)))
		if err != nil {
			return err
		}
		// The viewpoint's moves: of a match under way, those it is told
		// of (a seat's own, or the public's), as its reader's GET.
		as := caller{role: store.JudgeRole}
		if p := o.Viewpoints[0]; !p.Judge {
			as = caller{}
			if p.IsSeat() {
				as = caller{role: store.SeatRole, seat: p.Seat}
			}
		}
		upTo := seqFor(as, row, live.(catalog.Live))
		if o.NoFrames {
			// The pages' story after every move: the same for all who
			// ask at this move.
			key = fmt.Sprintf("%s|%d|%s|%s|%s", id, upTo, row.Status, o.Viewpoints[0], strings.Join(offered, ","))
			if cached = stories.get(key); cached != nil {
				return nil
			}
		}
		return s.writeRecordFor(r.Context(), &buf, row, live.(catalog.Live), as)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cached != nil {
		writeBody(w, r, cached)
		return
	}
	if d, err := s.drawingOf(r.Context(), id); err == nil {
		// The map a game file keeps beside its board, which the record's
		// options name by a path only.
		o.Map = string(d.SVG())
	}
	b, ok := s.viewerJSON(w, r, buf.Bytes(), o, offered, nil)
	if ok && key != "" {
		stories.put(key, b)
	}
}

// stories keeps the last viewers without frames made (small: the steps,
// measures and events), which every page of a match asks for after each
// move.
var stories = &viewerCache{m: map[string][]byte{}}

// viewerCache is a small cache of answers, the oldest dropped first.
type viewerCache struct {
	mu    sync.Mutex
	m     map[string][]byte
	order []string
}

const storiesKept = 256

func (c *viewerCache) get(key string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

func (c *viewerCache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	if len(c.order) >= storiesKept {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[key] = b
	c.order = append(c.order, key)
}

// replayRecord answers a record the caller sends as the replay viewer shows
// it (POST /replay?view=): every viewpoint is theirs, since the record
// holds everything.
func (s *Server) replayRecord(w http.ResponseWriter, r *http.Request) {
	if wait := s.limiter.move(s.clientKey(r)); wait > 0 {
		s.writeError(w, r, rateLimited(wait, "too many calls from this address; at most %g a second", s.cfg.Limits.Moves))
		return
	}
	done, err := s.limiter.view(s.clientKey(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	data, release, err := s.readRecord(w, r)
	defer release()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	hd, err := engine.ReadHeader(bytes.NewReader(data))
	if err != nil {
		s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", "not a match record: %v", err))
		return
	}
	all := viewpoints(caller{role: store.JudgeRole}, store.Over, len(hd.Setup.Players))
	o, offered, err := viewerOptions(r, all)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The record's bytes are let go once its viewer is made, before the
	// answer is written (as slowly as the client reads it).
	s.viewerJSON(w, r, data, o, offered, release)
}

// readRecord reads the body of POST /replay, a record of up to
// maxRecordBody bytes, as readAll does, within the server's bound on the
// bytes of records read and held at once, in all (Limits.UploadBytes):
// each address may have several uploads under way (ViewersPerClient), and
// a few addresses could otherwise make the server hold a gigabyte. A
// record's bytes are held as they come (its buffer, grown as they come,
// to its Content-Length at most) until release (once its viewer is made,
// or the call ends): a sender that sends nothing holds next to nothing,
// whatever Content-Length it gave. A record that would pass the bound is
// refused 503 too-many-uploads, to be sent again after a wait: before it
// is read when its Content-Length already would (with Expect:
// 100-continue, before it is sent), else as it comes. release may be
// called more than once.
func (s *Server) readRecord(w http.ResponseWriter, r *http.Request) (data []byte, release func(), err error) {
	const what = "the record"
	var held int64
	release = func() {
		if held > 0 {
			s.uploads.give(held)
			held = 0
			if s.uploadHook != nil {
				s.uploadHook("release")
			}
		}
	}
	if r.ContentLength > maxRecordBody {
		return nil, release, tooLarge(what, maxRecordBody)
	}
	bound := s.cfg.Limits.UploadBytes
	end := int64(maxRecordBody + 1) // the most its buffer holds: the record, and the byte after
	if r.ContentLength >= 0 {
		end = r.ContentLength + 1
		if err := s.uploads.fits(end, r.ContentLength, bound); err != nil {
			return nil, release, err
		}
	}
	take := func(n, size int64) error {
		if err := s.uploads.take(n, size, bound); err != nil {
			return err
		}
		held += n
		if s.uploadHook != nil {
			s.uploadHook("take")
		}
		return nil
	}
	size := min(64<<10, end) // grown as the bytes come
	if err := take(size, max(0, r.ContentLength)); err != nil {
		return nil, release, err
	}
	rc := http.NewResponseController(w)
	timed := rc.SetReadDeadline(time.Now().Add(s.cfg.Limits.BodyTime)) == nil
	body := http.MaxBytesReader(w, r.Body, maxRecordBody)
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			next := min(2*int64(cap(buf)), end)
			if err := take(next-int64(cap(buf)), max(r.ContentLength, int64(len(buf)))); err != nil {
				return nil, release, err
			}
			buf = append(make([]byte, 0, next), buf...)
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if timed {
				rc.SetReadDeadline(time.Time{}) // the connection's next requests
			}
			return buf, release, nil
		}
		if err != nil {
			return nil, release, s.bodyError(err, what, len(buf))
		}
	}
}

// viewerJSON answers a record as the viewer shows it, and returns the
// answer's JSON. made, if not nil, is called once the viewer is made (or
// refused), before the answer is written: the record is not needed then.
func (s *Server) viewerJSON(w http.ResponseWriter, r *http.Request, record []byte, o catalog.ViewerOptions, offered []string, made func()) ([]byte, bool) {
	// Viewers are made a few at a time, each within its bytes: a long
	// record (a hundred kilobytes can make a hundred megabytes of views)
	// takes no more than its share of the server's time and memory.
	if err := s.viewTurn(r); err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	o.MaxBytes = s.cfg.Limits.ViewerBytes
	var b []byte
	v, err := func() (*catalog.Viewer, error) {
		defer s.viewDone() // its JSON made; written as fast as the client takes it
		if made != nil {
			defer made()
		}
		v, err := catalog.ReplayViewer(record, o)
		if err == nil {
			v.Offered = offered
			b, err = json.Marshal(v)
		}
		return v, err
	}()
	if v == nil {
		var re *engine.ReplayError
		var big *catalog.ViewsTooLargeError
		switch {
		case errors.As(err, &big):
			err = refuse(http.StatusUnprocessableEntity, "views-too-large", "viewpoint %s: %v; ask for the steps alone (frames=0), or view the record with arbiter replay --html", o.Viewpoints[0], err)
		case errors.As(err, &re), errors.Is(err, engine.ErrEdited):
			err = refuse(http.StatusUnprocessableEntity, "does-not-replay", "%v", err)
		case catalog.IsInvalid(err):
			err = refuse(http.StatusBadRequest, "invalid", "%v", err)
		}
		s.writeError(w, r, err)
		return nil, false
	}
	if err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	writeBody(w, r, b)
	return b, true
}

// viewTurn waits for a turn to make views again from a match's log (a
// replay viewer, the events a stream missed): Limits.Viewers are made at
// once. viewDone ends the turn.
func (s *Server) viewTurn(r *http.Request) error {
	select {
	case s.viewing <- struct{}{}:
	default:
		if s.viewerHook != nil {
			s.viewerHook("wait")
		}
		select {
		case s.viewing <- struct{}{}:
		case <-r.Context().Done():
			return r.Context().Err()
		}
	}
	if s.viewerHook != nil {
		s.viewerHook("make")
	}
	return nil
}

func (s *Server) viewDone() { <-s.viewing }

// writeBody answers JSON, gzipped when it is long and the client takes it:
// a long match's views repeat themselves.
func writeBody(w http.ResponseWriter, r *http.Request, b []byte) {
	// A client has 10 s, and one more for each 64 KiB, to take the
	// answer; one that does not read it is cut off, and its memory freed.
	rc := http.NewResponseController(w)
	if rc.SetWriteDeadline(time.Now().Add(10*time.Second+time.Duration(len(b)>>16)*time.Second)) == nil {
		defer rc.SetWriteDeadline(time.Time{})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Vary", "Accept-Encoding")
	if len(b) > 4096 && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		zw.Write(b)
		zw.Close()
		return
	}
	w.Write(b)
}

// gameMap answers the map a match's board is drawn on (GET
// /matches/{id}/map.svg): the game's SVG, whose territories are paths with
// their ids. The board itself is in every view.
func (s *Server) gameMap(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, err := s.who(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.drawingOf(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	svg := d.SVG()
	inertImage(w)
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("Content-Length", strconv.Itoa(len(svg)))
	w.Write(svg)
}

// drawingOf is what the server keeps of the map a match's board is drawn
// on: the map, or why there is none.
type drawingOf struct {
	d   *catalog.Drawing
	err error
}

// drawingOf returns the map match id's board is drawn on, from what the
// match stores (catalog.MapOf), read once: a board never changes. A match
// with none is refused 404 no-map, saying why and what to do.
func (s *Server) drawingOf(ctx context.Context, id string) (*catalog.Drawing, error) {
	if v, ok := s.drawings.Load(id); ok {
		return v.(*drawingOf).d, v.(*drawingOf).err
	}
	var game string
	var options map[string]string
	err := s.ref.With(ctx, id, func(row *store.Match, _ store.Live) error {
		game, options = row.Game, row.Setup.Options
		return nil
	})
	if err != nil {
		return nil, err
	}
	d, err := catalog.MapOf(ctx, s.cfg.Store, id, game, options)
	var none *catalog.NoMapError
	switch {
	case errors.As(err, &none):
		err = refuse(http.StatusNotFound, "no-map", "%s", none.Msg)
	case err != nil:
		return nil, err // the store's failure, not kept
	}
	s.drawings.Store(id, &drawingOf{d, err})
	return d, err
}

// board answers the match's board drawn as it stands now (GET
// /matches/{id}/board.svg and board.png): the map with each held territory
// in its nation's colour, the armies and the nations, as arbiter
// territories redraws a game file's, for an application (a chat bot) to
// show. A PNG is drawn once for each move: the last is kept. A few are
// drawn at once (Limits.Viewers); the calls beyond wait their turn.
func (s *Server) board(png bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, err := s.who(r, id); err != nil {
			s.writeError(w, r, err)
			return
		}
		d, err := s.drawingOf(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var svg []byte
		var seq int64
		ok := false
		err = s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
			seq = row.Seq
			svg, ok = d.Board(live.(catalog.Live))
			return nil
		})
		if err == nil && !ok {
			err = refuse(http.StatusNotFound, "no-map", "this match's board is not drawn on a map; the board is in the match's view")
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		body, mime := svg, "image/svg+xml"
		if png {
			mime = "image/png"
			if v, found := s.boards.Load(id); found && v.(*drawnBoard).seq == seq {
				body, err = v.(*drawnBoard).png, v.(*drawnBoard).err
			} else {
				select {
				case s.drawing <- struct{}{}:
				case <-r.Context().Done():
					return
				}
				body, err = d.PNG(svg)
				<-s.drawing
				if err != nil {
					// The map's own fault (it covers too much to draw),
					// told as such, and not tried again at this move.
					err = refuse(http.StatusNotFound, "no-map", "this match's board is not drawn as a PNG: %v; board.svg draws it", err)
				}
				s.boards.Store(id, &drawnBoard{seq: seq, png: body, err: err})
			}
			if err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		inertImage(w)
		w.Header().Set("Content-Type", mime)
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}
}

// inertImage has a browser that opens a map or a board by itself (an SVG
// is a document, which may hold scripts) run nothing in it and fetch
// nothing for it, in a sandbox of no origin: a map may come from a
// client, which the server checks (see catalog.MapOf), and this holds
// whatever the check misses.
func inertImage(w http.ResponseWriter) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	w.Header().Set("X-Content-Type-Options", "nosniff")
}

// drawnBoard is a match's board drawn as a PNG after move seq, or why it
// could not be.
type drawnBoard struct {
	seq int64
	png []byte
	err error
}

// viewerJSON is the schema of a viewer, for the OpenAPI document.
var viewerJSON = obj(nil, map[string]any{
	"game": str, "mode": str, "title": str, "clock": str, "players": array(str), "moves": integer,
	"result": anyJSON, "aborted": str, "map": str,
	"measures": obj(nil, map[string]any{"names": array(obj(nil, map[string]any{"name": str, "per_seat": boolean})),
		"points": array(obj(nil, map[string]any{"seq": integer, "clock": integer})), "values": array(array(array(map[string]any{"type": "number"})))}),
	"events": array(obj(nil, map[string]any{"seq": integer, "clock": integer, "kind": str, "text": str, "seats": array(integer), "mark": boolean})),
	"views": array(obj(nil, map[string]any{"id": str, "label": str,
		"steps": array(obj(nil, map[string]any{"seq": integer, "clock": integer, "seat": integer, "move": anyJSON, "told": toldJSON,
			"fault": obj(nil, map[string]any{"kind": str, "detail": str})})),
		"frames": obj(nil, map[string]any{"every": integer, "keys": array(anyJSON), "deltas": array(array(anyJSON))})})),
	"offered": array(str),
})
