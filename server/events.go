package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
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

// The event stream of a match (GET /matches/{id}/events) is Server-Sent
// Events: after every move, an event "move" with id SEQ whose data is the
// match as the caller sees it then (the same object GET /matches/{id}
// answers); when the match ends, an event "end"; when the server shuts
// down, an event "shutdown". A client that comes back with Last-Event-ID
// (or ?after=SEQ) gets every event after that one, nothing lost or
// repeated: the events it missed are made again from the log.

// hub hands each match's events to its streams.
type hub struct {
	mu sync.Mutex
	// streams are each match's streams. A match's slice is never changed
	// once made (a stream that comes or goes makes a new one), so that a
	// move reads it without copying.
	streams map[string][]*stream
}

func newHub() *hub {
	return &hub{streams: map[string][]*stream{}}
}

// tells reports whether c is told of a move by actor that left its round
// open: only the mover and the judge are.
func tells(c caller, actor int) bool {
	return c.role == store.JudgeRole || c.role == store.SeatRole && c.seat == actor
}

// stream is one open event stream.
type stream struct {
	caller caller
	events chan []byte // whole SSE events, ready to write
	// lost is closed when the stream falls too far behind: it closes,
	// and the client comes back for what it missed.
	lost chan struct{}
	once sync.Once
	// revoked is closed when the secret the stream was opened with stops
	// working (the judge gave its seat or player a new one): the stream
	// closes, and tells no more to whoever had the old link.
	revoked    chan struct{}
	revokeOnce sync.Once
}

// revoke closes the stream: its secret no longer works.
func (st *stream) revoke() { st.revokeOnce.Do(func() { close(st.revoked) }) }

// secretGone reports whether the secret that c was told by no longer
// works: the judge gave its seat or player a new one. A caller with no
// secret has none to lose.
func (s *Server) secretGone(ctx context.Context, c caller) bool {
	hash, ok := strings.CutPrefix(c.key, "secret:")
	if !ok || c.anyone() {
		return false
	}
	_, err := s.cfg.Store.Secret(ctx, hash)
	return errors.Is(err, store.ErrNoSecret)
}

// revokeStreams closes the streams of match id opened with a secret that
// no longer works, once a secret of the match was issued again: whoever
// holds the old link is told nothing more, as the old secret opens
// nothing more.
func (s *Server) revokeStreams(ctx context.Context, id string) {
	for _, st := range s.hub.listeners(id) {
		if s.secretGone(ctx, st.caller) {
			st.revoke()
		}
	}
}

// streamBuffer is how many events a stream may have waiting.
const streamBuffer = 64

func (h *hub) add(id string, st *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[id] = append(slices.Clip(h.streams[id]), st)
}

func (h *hub) remove(id string, st *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	left := slices.DeleteFunc(slices.Clone(h.streams[id]), func(x *stream) bool { return x == st })
	if len(left) == 0 {
		delete(h.streams, id)
		return
	}
	h.streams[id] = left
}

// matches returns the matches that have streams open.
func (h *hub) matches() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Collect(maps.Keys(h.streams))
}

// listeners returns the streams of match id, which the caller must not
// change.
func (h *hub) listeners(id string) []*stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[id]
}

// send queues an event on the stream, or gives it up as lost.
func (st *stream) send(ev []byte) {
	select {
	case st.events <- ev:
	default:
		st.once.Do(func() { close(st.lost) })
	}
}

// committed is the referee's word that a move is stored: the match's
// streams get its event, each as its caller sees the match, and its driver
// is woken. It runs under the match's lock.
func (s *Server) committed(row *store.Match, live store.Live, mv store.Move) {
	l := live.(catalog.Live)
	if d := s.driverOf(row.ID); d != nil {
		d.moved(row)
	}
	streams := s.hub.listeners(row.ID)
	// A move that leaves the rest of its round open changes nothing any
	// seat sees but the mover's own requests (the engine's contract for
	// simultaneous requests): only the mover and the judge are told, and
	// the views made for the move before still hold.
	quiet := l.Quiet()
	views := s.viewsOf(row.ID)
	views.moved(row.Seq, quiet)
	// Each event is made once for all the streams of its audience.
	type madeEvent struct {
		audience string
		ev       []byte
	}
	var buf [8]madeEvent
	made := buf[:0]
	for _, st := range streams {
		if quiet && !tells(st.caller, mv.Actor) || owedHides(st.caller, l) {
			continue
		}
		key := audience(st.caller)
		i := slices.IndexFunc(made, func(m madeEvent) bool { return m.audience == key })
		if i < 0 {
			made = append(made, madeEvent{key, s.event(row, l, st.caller, views)})
			i = len(made) - 1
		}
		st.send(made[i].ev)
	}
	if row.Status != store.Running {
		s.ended(row.ID)
		s.views.Delete(row.ID)
	}
}

// views are the views of a match made at one of its moves, by audience:
// made once for every stream and call that may see each, and kept over the
// moves that leave their round open, which change no view.
type views struct {
	mu   sync.Mutex
	seq  int64 // the move they are of
	made map[string]json.RawMessage
}

// viewsOf returns the views kept of match id.
func (s *Server) viewsOf(id string) *views {
	if v, ok := s.views.Load(id); ok {
		return v.(*views)
	}
	v, _ := s.views.LoadOrStore(id, &views{seq: -1})
	return v.(*views)
}

// moved takes the match's move seq: the views made at the move before
// hold still if the move left its round open (quiet), and are made again
// otherwise.
func (vs *views) moved(seq int64, quiet bool) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if !quiet || vs.seq != seq-1 {
		clear(vs.made)
	}
	vs.seq = seq
}

// of returns the view of the match at move seq for c, made by live: kept
// from before if it was made at seq, and kept for later. A nil vs keeps
// nothing.
func (vs *views) of(seq int64, c caller, live catalog.Live) json.RawMessage {
	var key string
	if vs != nil {
		vs.mu.Lock()
		defer vs.mu.Unlock()
		if vs.seq != seq {
			clear(vs.made)
			vs.seq = seq
		}
		key = audience(c)
		if v, ok := vs.made[key]; ok {
			return v
		}
	}
	var v json.RawMessage
	switch c.role {
	case store.SeatRole:
		v = live.View(c.seat)
	case store.JudgeRole:
		v = live.View(engine.Judge)
	default:
		v = live.Public()
	}
	if vs != nil {
		if vs.made == nil {
			vs.made = map[string]json.RawMessage{}
		}
		vs.made[key] = v
	}
	return v
}

// audience is what a caller may see, as a key: callers who see alike share
// their events.
func audience(c caller) string {
	switch c.role {
	case store.SeatRole:
		if c.seat >= 0 && c.seat < len(seatAudiences) {
			return seatAudiences[c.seat]
		}
		return "seat:" + strconv.Itoa(c.seat)
	case store.JudgeRole:
		return "judge"
	case store.PlayerRole:
		return "player:" + c.name
	}
	return "public"
}

// seatAudiences are the audiences of the first seats, made once.
var seatAudiences = func() []string {
	out := make([]string, 32)
	for i := range out {
		out[i] = "seat:" + strconv.Itoa(i)
	}
	return out
}()

// event is the "move" event of the match as it stands, for c; views, if
// not nil, are the match's views kept (viewOf).
func (s *Server) event(row *store.Match, live catalog.Live, c caller, views *views) []byte {
	v := s.viewOf(row, live, c, views)
	b := make([]byte, 0, 64+v.sizeJSON())
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, v.Seq, 10)
	b = append(b, "\nevent: move\ndata: "...)
	b = v.appendJSON(b)
	return append(b, "\n\n"...)
}

// sse writes one Server-Sent Event.
func sse(name string, id int64, data []byte) []byte {
	var b bytes.Buffer
	if id >= 0 {
		fmt.Fprintf(&b, "id: %d\n", id)
	}
	fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data)
	return b.Bytes()
}

// isEnd reports whether ev is the event that ends a stream.
func isEnd(ev []byte) bool { return bytes.HasPrefix(ev, []byte("event: end")) }

// ended tells the streams of match id that it has ended.
func (s *Server) ended(id string) {
	for _, st := range s.hub.listeners(id) {
		st.send(sse("end", -1, []byte(`{}`)))
	}
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	gen := s.secretsGeneration()
	c, err := s.who(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	after := int64(-1)
	last := r.Header.Get("Last-Event-ID")
	if q := r.URL.Query().Get("after"); q != "" {
		last = q
	}
	if last != "" {
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n < 0 {
			s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", "Last-Event-ID or after %q: give the id (a move's number, 0 or more) of the last event received", last))
			return
		}
		after = n
	}
	rc := http.NewResponseController(w)
	if err := s.limiter.openStream(c.key); err != nil {
		s.writeError(w, r, err)
		return
	}
	defer s.limiter.closeStream(c.key)
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		s.writeError(w, r, refuse(http.StatusServiceUnavailable, "shutting-down", "the server is shutting down; come back in a moment"))
		return
	}
	s.streams.Add(1)
	s.mu.Unlock()
	defer s.streams.Done()

	st := &stream{caller: c, events: make(chan []byte, streamBuffer), lost: make(chan struct{}), revoked: make(chan struct{})}
	var first [][]byte // what the stream starts with
	var row store.Match
	var seen int64 // the last move the caller is told of
	err = s.ref.With(r.Context(), id, func(m *store.Match, live store.Live) error {
		row = *m
		seen = seqFor(c, m, live.(catalog.Live))
		if after > seen {
			return refuse(http.StatusBadRequest, "invalid", "after %d: the match is at move %d", after, seen)
		}
		if after < 0 {
			// No resumption: the match as it is.
			first = append(first, s.event(m, live.(catalog.Live), c, s.viewsOf(id)))
		}
		s.hub.add(id, st) // under the lock: no move slips between
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer s.hub.remove(id, st)
	if s.secretsGeneration() != gen && s.secretGone(r.Context(), c) {
		// The secret was issued again while the stream opened, after
		// revokeStreams looked at the match's streams, perhaps.
		s.writeError(w, r, errNoSecret)
		return
	}
	if after >= 0 && after < seen {
		// The events missed, made again from the log: a few streams at a
		// time, as replay viewers are, for a long match's whole log may
		// be asked for again and again.
		if err := s.viewTurn(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		missed, err := s.replayEvents(r.Context(), &row, after, c)
		s.viewDone()
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		first = append(missed, first...)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	// How often an idle stream speaks: a client that hears nothing for
	// longer may take its connection for dead and open the stream again.
	w.Header().Set("Arbiter-Keepalive-Ms", strconv.FormatInt(s.cfg.Limits.Heartbeat.Milliseconds(), 10))
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.Limits.StreamWrite))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	for _, ev := range first {
		if !write(ev) {
			return
		}
	}
	if row.Status != store.Running {
		write(sse("end", -1, []byte(`{}`)))
		return
	}
	if !write([]byte(": streaming\n\n")) {
		return
	}
	beat := time.NewTicker(s.cfg.Limits.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case ev := <-st.events:
			// The events queued meanwhile go out with it, in one write.
			_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.Limits.StreamWrite))
			for more := true; more; {
				if _, err := w.Write(ev); err != nil || isEnd(ev) {
					rc.Flush()
					return
				}
				select {
				case ev = <-st.events:
				default:
					more = false
				}
			}
			if rc.Flush() != nil {
				return
			}
		case <-beat.C:
			if !write([]byte(": keepalive\n\n")) {
				return
			}
		case <-st.revoked:
			write(sse("revoked", -1, []byte(`{"message":"the secret of this stream was replaced (the judge gave a new link in its place): this stream no longer follows the match"}`)))
			return
		case <-st.lost:
			write(sse("lost", -1, []byte(`{"message":"the stream fell behind; reconnect with Last-Event-ID to get what it missed"}`)))
			return
		case <-s.closing:
			write(sse("shutdown", -1, []byte(`{"message":"the server is shutting down; reconnect with Last-Event-ID"}`)))
			return
		case <-r.Context().Done():
			return
		}
	}
}

// replayEvents makes again the events of match row after seq after, as c
// sees them: the log replayed on a match without bots.
func (s *Server) replayEvents(ctx context.Context, row *store.Match, after int64, c caller) ([][]byte, error) {
	live, err := s.rules.quiet(ctx, row)
	if err != nil {
		return nil, err
	}
	defer live.Close()
	moves, err := s.cfg.Store.Moves(ctx, row.ID, 0)
	if err != nil {
		return nil, err
	}
	if int64(len(moves)) < row.Seq {
		return nil, errors.New("the log is shorter than the match")
	}
	at := *row
	at.Status, at.Result, at.Opened = store.Running, nil, nil
	store.NoteOpened(&at, live, row.Created) // the requests' times as they were
	var out [][]byte
	for _, mv := range moves[:row.Seq] {
		if err := store.Apply(live, mv.Actor, mv.Move, mv.Fault); err != nil {
			return nil, fmt.Errorf("move %d does not replay: %w", mv.Seq, err)
		}
		store.NoteOpened(&at, live, mv.At)
		if live.Quiet() && !tells(c, mv.Actor) || owedHides(c, live) {
			continue // nothing this caller sees changed
		}
		at.Seq = mv.Seq
		if mv.Seq == row.Seq {
			at.Status, at.Result = row.Status, row.Result
		}
		if seqFor(c, &at, live) <= after {
			continue // before the resumption, as the caller counts
		}
		out = append(out, s.event(&at, live, c, nil))
	}
	return out, nil
}
