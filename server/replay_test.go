package server_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
	"github.com/arbiter-games/arbiter/server"
)

// viewerAnswer is GET /matches/{id}/replay.
type viewerAnswer struct {
	Moves   int
	Offered []string
	Views   []struct {
		ID    string
		Steps []struct {
			Seq  int
			Seat *int
			Move json.RawMessage
		}
		Frames *struct{ Keys []json.RawMessage }
	}
}

func (ts *testServer) viewer(id, secret, view string) (answer, viewerAnswer) {
	ts.t.Helper()
	path := "/api/v1/matches/" + id + "/replay"
	if view != "" {
		path += "?view=" + view
	}
	a := ts.call("GET", path, secret, nil)
	var v viewerAnswer
	json.Unmarshal(a.body, &v)
	return a, v
}

func TestReplayViewpointsAreTheCallersOnly(t *testing.T) {
	// The replay's views are redacted for their viewpoint, and a caller
	// gets only the viewpoints it may see: the judge every one; while the
	// match runs, a seat its own and the public one, anyone the public
	// one; once over, everyone every one.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "ajveciv", "seats": append(people(2), map[string]any{"player": "basic.conquer"}), "options": map[string]any{"turns": 3}, "judge": true})
	s0, s1 := c.Seats[0].Secret, c.Seats[1].Secret
	// Seat 1 plays its turn: seat 2 still owes its own.
	m := ts.state(c.ID, s0)
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s0, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Choices[1]}); a.status != 200 {
		t.Fatalf("move: %d %s", a.status, a.body)
	}
	for _, x := range []struct {
		who, secret, view string
		status            int
		offered           string
	}{
		{"seat 1", s0, "", 200, "seat:0,public"},
		{"seat 1", s0, "public", 200, "seat:0,public"},
		{"seat 1", s0, "seat:1", 403, ""},
		{"seat 1", s0, "judge", 403, "you may see seat:0, public ("},
		{"anyone", "", "", 200, "public"},
		{"anyone", "", "seat:0", 403, ""},
		{"the judge", c.Judge.Secret, "seat:1", 200, "judge,public,seat:0,seat:1,seat:2"},
		{"seat 2", s1, "everyone", 400, ""},
	} {
		a, v := ts.viewer(c.ID, x.secret, x.view)
		if a.status != x.status {
			t.Errorf("%s asks for %q: %d %s; want %d", x.who, x.view, a.status, a.body, x.status)
			continue
		}
		if x.status == 403 && !strings.Contains(string(a.body), x.offered) {
			t.Errorf("%s asks for %q: %s; want it to say %q", x.who, x.view, a.body, x.offered)
		}
		if x.status == 200 && strings.Join(v.Offered, ",") != x.offered {
			t.Errorf("%s is offered %v; want %s", x.who, v.Offered, x.offered)
		}
	}
	// Seat 2 sees neither seat 1's move nor that it was made: it left the
	// round open.
	_, v := ts.viewer(c.ID, s1, "")
	if len(v.Views) != 1 || v.Views[0].ID != "seat:1" || len(v.Views[0].Steps) != 1 {
		t.Errorf("seat 2's steps: %+v; want the start only", v.Views)
	}
	_, v = ts.viewer(c.ID, s0, "")
	if st := v.Views[0].Steps; len(st) != 2 || string(st[1].Move) != string(m.Requests[0].Choices[1]) {
		t.Errorf("seat 1's steps: %+v; want the start and its own move", st)
	}
	a, _ := ts.viewer(c.ID, s0, "")
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", c.Judge.Secret, nil)
	var h struct{ Setup struct{ Seed uint64 } }
	json.Unmarshal(bytes.SplitN(rec.body, []byte("\n"), 2)[0], &h)
	if bytes.Contains(a.body, []byte(strconv.FormatUint(h.Setup.Seed, 10))) {
		t.Error("a seat's replay holds the match's seed")
	}

	// Over: every viewpoint is everyone's, its frames and moves.
	ts.playDefaults(c)
	a, v = ts.viewer(c.ID, "", "seat:1")
	if a.status != 200 || strings.Join(v.Offered, ",") != "public,judge,seat:0,seat:1,seat:2" || v.Views[0].Frames == nil {
		t.Errorf("a finished match's seat 2, to anyone: %d %+v", a.status, v.Offered)
	}
	// Without frames: the steps, measures and events only.
	a = ts.call("GET", "/api/v1/matches/"+c.ID+"/replay?view=judge&frames=0", "", nil)
	if a.status != 200 || bytes.Contains(a.body, []byte(`"frames"`)) || !bytes.Contains(a.body, []byte(`"measures"`)) {
		t.Errorf("frames=0: %d %.200s", a.status, a.body)
	}
	// Gzipped for a client that takes it.
	req, _ := http.NewRequest("GET", ts.http.URL+"/api/v1/matches/"+c.ID+"/replay?view=judge", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("a viewer of %d bytes is not gzipped", resp.ContentLength)
	}
}

func TestReplayOfARecordSent(t *testing.T) {
	ts := newServer(t, server.Config{})
	_, rec := shortMatchPlayed(ts)
	a := ts.call("POST", "/api/v1/replay?view=seat:1", "", rec.body)
	var v viewerAnswer
	json.Unmarshal(a.body, &v)
	if a.status != 200 || v.Moves != 4 || v.Views[0].ID != "seat:1" || len(v.Offered) != 4 {
		t.Errorf("a record sent: %d %+v", a.status, v)
	}
	edited := bytes.Replace(rec.body, []byte(`"adapt"`), []byte(`"conquer"`), 1)
	if a := ts.call("POST", "/api/v1/replay", "", edited); a.status != 422 || a.code() != "does-not-replay" {
		t.Errorf("an edited record: %d %s; want 422 does-not-replay", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/replay", "", "not a record"); a.status != 400 {
		t.Errorf("not a record: %d %s; want 400", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/replay?view=seat:7", "", rec.body); a.status != 403 {
		t.Errorf("a seat the match does not have: %d %s; want 403", a.status, a.body)
	}
}

func TestMapOfABoard(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}})
	a := ts.call("GET", "/api/v1/matches/"+c.ID+"/map.svg", "", nil)
	if a.status != 200 || !bytes.Contains(a.body, []byte(`<path id="CA" data-name="California" data-neighbors="OR NV AZ"`)) {
		t.Errorf("the sample map: %d %.300s", a.status, a.body)
	}
	o := ts.create(map[string]any{"game": "reaj", "seats": append(people(1), map[string]any{"player": "adapt"})})
	if a := ts.call("GET", "/api/v1/matches/"+o.ID+"/map.svg", "", nil); a.status != 404 || a.code() != "no-map" || !bytes.Contains(a.body, []byte("a reaj board is not drawn on a map")) {
		t.Errorf("a game without a map: %d %s", a.status, a.body)
	}
	// The board as it stands, drawn on its map: a nation's territory in
	// its colour, as SVG and PNG, for an application to show.
	judge := ts.create(map[string]any{"game": "territories", "mode": "referee", "judge": true})
	join := map[string]any{"move": map[string]any{"player": "alice", "action": "join Amber CA"}}
	if a := ts.call("POST", "/api/v1/matches/"+judge.ID+"/moves", judge.Judge.Secret, join); a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	var m0 struct {
		View struct{ Nations []struct{ Color string } }
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+judge.ID, "", nil).body, &m0)
	if len(m0.View.Nations) != 1 {
		t.Fatalf("the board after a join: %+v", m0.View)
	}
	if a := ts.call("GET", "/api/v1/matches/"+judge.ID+"/board.svg", "", nil); a.status != 200 || !bytes.Contains(a.body, []byte(m0.View.Nations[0].Color)) || !bytes.Contains(a.body, []byte("Amber")) {
		t.Errorf("the board drawn: %d %.300s; want Amber in %s", a.status, a.body, m0.View.Nations[0].Color)
	}
	for range 2 { // drawn, then kept
		a := ts.call("GET", "/api/v1/matches/"+judge.ID+"/board.png", "", nil)
		if _, err := png.Decode(bytes.NewReader(a.body)); a.status != 200 || err != nil {
			t.Errorf("the board as a PNG: %d, %v", a.status, err)
		}
	}
	if a := ts.call("GET", "/api/v1/matches/"+o.ID+"/board.png", "", nil); a.status != 404 || a.code() != "no-map" {
		t.Errorf("the board of a reaj match drawn: %d %s; want 404 no-map", a.status, a.body)
	}
	// A referee's board of one's own with no map has none drawn, and is
	// told so, with what to do.
	board := `{"map": "none", "territories": [{"id": "WA", "name": "Washington", "neighbors": ["OR"]}, {"id": "OR", "name": "Oregon", "neighbors": ["WA"]}]}`
	own := ts.create(map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": board}, "judge": true})
	for _, call := range []string{"map.svg", "board.svg", "board.png"} {
		if a := ts.call("GET", "/api/v1/matches/"+own.ID+"/"+call, "", nil); a.status != 404 || a.code() != "no-map" || !bytes.Contains(a.body, []byte("with no map (its map left out, or none)")) || !bytes.Contains(a.body, []byte("the map's SVG itself as the value of the board's map")) {
			t.Errorf("%s of a board of one's own with no map: %d %s", call, a.status, a.body)
		}
	}
	// Its first nation is not the last: the game goes on to the second.
	for _, action := range []string{"join A WA", "join B OR"} {
		move := map[string]any{"move": map[string]any{"player": strings.ToLower(action[5:6]), "action": action}}
		a := ts.call("POST", "/api/v1/matches/"+own.ID+"/moves", own.Judge.Secret, move)
		if a.status != 200 {
			t.Fatalf("%s: %d %s", action, a.status, a.body)
		}
		// The answer says what the call did, as arbiter territories does.
		if o, _ := a.json["outcome"].(map[string]any); o["action"] != "join" || o["territory"] != action[7:] {
			t.Errorf("%s answered %s; want its outcome", action, a.body)
		}
	}
	// The board tells the application what its last call did.
	var m struct {
		Status string
		View   struct{ Last map[string]any }
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+own.ID, own.Judge.Secret, nil).body, &m)
	if m.Status != "running" || m.View.Last["action"] != "join" || m.View.Last["nation"] != "B" {
		t.Errorf("after two joins: %s, last %v; want running, the join of B", m.Status, m.View.Last)
	}
}

// twoLandsMap is the map of twoLandsBoard: Washington above Oregon.
const twoLandsMap = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="240">` +
	`<path d="M0,0 H200 V100 H0 Z" id="WA" fill="#eee"/><circle id="WA-armies" cx="100" cy="50" r="12"/>` +
	`<path id="OR" d="M0,100 H200 V200 H0 Z"/><circle id="OR-armies" cx="100" cy="150" r="12"/>` +
	`<g id="nations-list"><rect id="nations-list-bounds" x="0" y="200" width="200" height="40"/></g></svg>`

// twoLandsBoard is a board of one's own whose map is given as map, the
// SVG's text itself.
func twoLandsBoard(svg string) string {
	b, _ := json.Marshal(map[string]any{"map": svg, "territories": []map[string]any{
		{"id": "WA", "name": "Washington", "neighbors": []string{"OR"}}, {"id": "OR", "name": "Oregon", "neighbors": []string{"WA"}}}})
	return string(b)
}

// A board of one's own that carries its map (the SVG itself) is drawn on
// it, as arbiter territories draws a game's: the map, and the board as
// it stands, as SVG and PNG. The map is checked at creation as arbiter
// territories init checks it; a map named as a file is refused, and
// the file is never read.
func TestABoardOfOnesOwnIsDrawnOnItsMap(t *testing.T) {
	ts := newServer(t, server.Config{})
	own := ts.create(map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": twoLandsBoard(twoLandsMap)}, "judge": true})
	a := ts.call("GET", "/api/v1/matches/"+own.ID+"/map.svg", "", nil)
	if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("the map is served with Content-Security-Policy %q; want a sandbox that runs and fetches nothing", csp)
	}
	if a.status != 200 || !bytes.Contains(a.body, []byte(`<path id="OR" data-name="Oregon" data-neighbors="WA"`)) || !bytes.Contains(a.body, []byte(`id="WA" data-name="Washington" data-neighbors="OR"`)) {
		t.Errorf("the map of a board of one's own: %d %.400s", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/matches/"+own.ID+"/moves", own.Judge.Secret, map[string]any{"move": map[string]any{"player": "ann", "action": "join Amber OR"}}); a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	var m struct {
		View struct{ Nations []struct{ Color string } }
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+own.ID, "", nil).body, &m)
	if len(m.View.Nations) != 1 {
		t.Fatalf("the board after a join: %+v", m.View)
	}
	if a := ts.call("GET", "/api/v1/matches/"+own.ID+"/board.svg", "", nil); a.status != 200 || !bytes.Contains(a.body, []byte(`<path fill="`+m.View.Nations[0].Color+`" id="OR"`)) || !bytes.Contains(a.body, []byte("Amber")) {
		t.Errorf("the board drawn on its map: %d %.600s; want OR in %s and Amber listed", a.status, a.body, m.View.Nations[0].Color)
	}
	a = ts.call("GET", "/api/v1/matches/"+own.ID+"/board.png", "", nil)
	img, err := png.Decode(bytes.NewReader(a.body))
	if a.status != 200 || err != nil {
		t.Fatalf("the board as a PNG: %d, %v", a.status, err)
	}
	if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 240 {
		t.Errorf("the PNG is %v; want the map's 200×240", b)
	}
	if r, g, b, _ := img.At(100, 180).RGBA(); r>>8 == 0xff && g>>8 == 0xff && b>>8 == 0xff {
		t.Errorf("Oregon, held, is not filled in the PNG: %v", img.At(100, 180))
	}

	// A map named as a file is refused: the server reads no file of its
	// own at a client's word, not even one that is there.
	dir := t.TempDir()
	file := filepath.Join(dir, "map.svg")
	if err := os.WriteFile(file, []byte(twoLandsMap), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ svg, want string }{
		{file, "a match's board carries its map itself, the SVG's text as map's value"},
		{"map.svg", "the server reads no file of its own"},
		{strings.Replace(twoLandsMap, `id="OR-armies"`, `id="OR-army"`, 1), `map: `},
		{"<svg", "map: not a well-formed SVG file"},
		// What a page, a browser or a chat showing the map could run or
		// fetch is refused.
		{strings.Replace(twoLandsMap, `<path id="OR"`, `<path onmouseover="alert(1)" id="OR"`, 1), "an event handler is not allowed"},
		{strings.Replace(twoLandsMap, `</svg>`, `<script>alert(1)</script></svg>`, 1), "<script> is not allowed"},
		{strings.Replace(twoLandsMap, `</svg>`, `<image href="https://example.com/x.png" width="1" height="1"/></svg>`, 1), "a reference to anything but one of the map's own elements"},
		{strings.Replace(twoLandsMap, `fill="#eee"`, `style="fill: url( 'https://example.com/p' )"`, 1), "url() of anything but one of the map's own elements"},
		{`<!DOCTYPE svg [<!ENTITY a "aaaa">]>` + twoLandsMap, "a document type or declaration"},
	} {
		a := ts.call("POST", "/api/v1/matches", "", map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": twoLandsBoard(c.svg)}})
		e, _ := a.json["error"].(map[string]any)
		if msg, _ := e["message"].(string); a.status != 400 || !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "option board") {
			t.Errorf("a board whose map is %.40q: %d %s; want 400 saying %q", c.svg, a.status, a.body, c.want)
		}
	}
}

// The views of one replay viewer are bounded (Limits.ViewerBytes): a
// record whose views come to more is refused, saying what is allowed,
// before the server has spent more on it; its steps alone are made.
func TestAViewerIsBounded(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{ViewerBytes: 64 << 10}})
	long := ts.create(map[string]any{"game": "ajveciv", "seats": []map[string]any{{"player": "basic.conquer"}, {"player": "basic.develop"}, {"player": "basic.expand"}}, "options": map[string]any{"turns": 200}, "seed": 1}) // 420 moves, whose every view but the public one comes to more than 64 KiB
	short := ts.create(map[string]any{"game": "reaj", "seats": append(people(1), map[string]any{"player": "adapt"}), "options": map[string]any{"turns": 2}})
	ts.waitState(long.ID, "", func(m matchState) bool { return m.Status == "over" })
	ts.playDefaults(short)
	rec := ts.call("GET", "/api/v1/matches/"+long.ID+"/record", "", nil)
	for _, call := range []struct{ method, path string }{
		{"POST", "/api/v1/replay"},
		{"POST", "/api/v1/replay?view=seat:1"},
		{"GET", "/api/v1/matches/" + long.ID + "/replay?view=judge"},
		{"GET", "/api/v1/matches/" + long.ID + "/replay?view=seat:1"},
	} {
		var body any
		if call.method == "POST" {
			body = rec.body
		}
		a := ts.call(call.method, call.path, "", body)
		if a.status != 422 || a.code() != "views-too-large" || !strings.Contains(string(a.body), "more than 65536 bytes") || !strings.Contains(string(a.body), "frames=0") {
			t.Errorf("%s %s: %d %.300s; want 422 views-too-large, which says the most and what else to ask for", call.method, call.path, a.status, a.body)
		}
		// The steps alone are small.
		sep := "?"
		if strings.Contains(call.path, "?") {
			sep = "&"
		}
		if a := ts.call(call.method, call.path+sep+"frames=0", "", body); a.status != 200 {
			t.Errorf("%s %s, frames=0: %d %.300s", call.method, call.path, a.status, a.body)
		}
	}
	// A short match's views are made whole.
	if a, v := ts.viewer(short.ID, "", "judge"); a.status != 200 || v.Views[0].Frames == nil {
		t.Errorf("a short match's judge view: %d %.300s", a.status, a.body)
	}
}

// Replay viewers, and the events a resumed stream missed, are made again
// from the log a few at a time (Limits.Viewers): a call beyond waits until
// one being made is done, so that many calls at once take no more of the
// server's time and memory than a few.
func TestViewersAreMadeAFewAtATime(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{Viewers: 1}})
	c, rec := shortMatchPlayed(ts)
	for _, second := range []struct{ what, path string }{
		{"a match's viewer", "/api/v1/matches/" + c.ID + "/replay?view=judge"},
		{"a stream resumed", "/api/v1/matches/" + c.ID + "/events?after=0"},
	} {
		t.Run(second.what, func(t *testing.T) {
			seen := make(chan string, 8)
			release := make(chan struct{})
			made := 0
			var mu sync.Mutex
			ts.srv.OnViewer(func(what string) {
				seen <- what
				mu.Lock()
				made += map[bool]int{true: 1}[what == "make"]
				first := what == "make" && made == 1
				mu.Unlock()
				if first {
					<-release // the first viewer is being made until the test says
				}
			})
			done := make(chan answer, 2)
			go func() { done <- ts.call("POST", "/api/v1/replay", "", rec.body) }()
			if got := <-seen; got != "make" {
				t.Fatalf("the first call: %s", got)
			}
			go func() { done <- ts.call("GET", second.path, "", nil) }()
			answers := 0
			select {
			case got := <-seen:
				if got != "wait" {
					t.Errorf("%s while a viewer is being made: %s; want it to wait", second.what, got)
				}
			case a := <-done:
				answers++
				t.Errorf("%s was answered (%d) while a viewer was being made; want it to wait", second.what, a.status)
			}
			close(release)
			for ; answers < 2; answers++ {
				if a := <-done; a.status != 200 {
					t.Errorf("%d %.300s", a.status, a.body)
				}
			}
		})
	}
}

// A client has at most Limits.ViewersPerClient replays under way, the
// writing of their answers included: one more is refused 429, so that a
// client that asks for many long replays and reads none of the answers
// does not hold the server's memory with them.
func TestAClientHasAFewViewersUnderWay(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{ViewersPerClient: 1}})
	c, rec := shortMatchPlayed(ts)
	started := make(chan struct{})
	release := make(chan struct{})
	var first atomic.Bool
	ts.srv.OnViewer(func(what string) {
		if what == "make" && first.CompareAndSwap(false, true) {
			close(started)
			<-release // the first viewer is under way until the test says
		}
	})
	done := make(chan answer, 1)
	go func() { done <- ts.call("POST", "/api/v1/replay", "", rec.body) }()
	<-started
	a := ts.call("POST", "/api/v1/replay", "", rec.body)
	b := ts.call("GET", "/api/v1/matches/"+c.ID+"/replay", "", nil)
	close(release)
	for _, x := range []answer{a, b} {
		if x.status != http.StatusTooManyRequests || x.code() != "too-many-viewers" {
			t.Errorf("a second replay from the client while one is under way: %d %.300s; want 429 too-many-viewers", x.status, x.body)
		}
	}
	if a := <-done; a.status != 200 {
		t.Errorf("the first: %d %.300s", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/replay", "", rec.body); a.status != 200 {
		t.Errorf("a replay once the first is answered: %d %.300s", a.status, a.body)
	}
}

// shortMatchPlayed plays a Reaj match of two turns, a person (by its
// defaults) against adapt, to its end, and returns it with its record.
func shortMatchPlayed(ts *testServer) (created, answer) {
	ts.t.Helper()
	c := ts.create(map[string]any{"game": "reaj", "seats": append(people(1), map[string]any{"player": "adapt"}), "options": map[string]any{"turns": 2}})
	ts.playDefaults(c)
	return c, ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
}

// A board whose map covers its picture too many times to draw as a PNG
// (mapdraw.MaxCover) is told so, 404 no-map, and drawn as SVG still.
func TestABoardTooCostlyToDrawIsToldSo(t *testing.T) {
	ts := newServer(t, server.Config{})
	costly := strings.Replace(twoLandsMap, `</svg>`, strings.Repeat(`<path d="M0,0 L200,1 L0,240 Z"/>`, mapdraw.MaxCover+1)+`</svg>`, 1)
	own := ts.create(map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": twoLandsBoard(costly)}, "judge": true})
	for range 2 { // the second from what the first kept
		a := ts.call("GET", "/api/v1/matches/"+own.ID+"/board.png", "", nil)
		if a.status != 404 || a.code() != "no-map" || !bytes.Contains(a.body, []byte("is not drawn as a PNG")) || !bytes.Contains(a.body, []byte("times the picture's pixels")) {
			t.Errorf("board.png of a map too costly to draw: %d %s", a.status, a.body)
		}
	}
	if a := ts.call("GET", "/api/v1/matches/"+own.ID+"/board.svg", "", nil); a.status != 200 {
		t.Errorf("board.svg of a map too costly to draw as a PNG: %d %s", a.status, a.body)
	}
}
