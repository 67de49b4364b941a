package web_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/server"
)

func TestStreamComesBackAfterTheServerRestarts(t *testing.T) {
	// "The stream reconnects after the server restarts": the page notices,
	// comes back by itself with Last-Event-ID, and shows what happened
	// meanwhile, nothing lost.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": people(2), "options": map[string]any{"preset": `{"base":"default","max_cycles":3}`}})
	p1 := b.open("country 2", c.Seats[1].URL, phoneW, phoneH)
	p1.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	// Country 1 waits; country 2's page is told it owes its turn.
	_, m := s.api("GET", "/matches/"+c.ID, c.Seats[0].Secret, nil)
	req := m["requests"].([]any)[0].(map[string]any)["id"]
	if st, _ := s.api("POST", "/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": req, "move": map[string]any{"type": "wait"}}); st != 200 {
		t.Fatalf("country 1's wait: %d", st)
	}
	p1.until("country 2's turn", `document.querySelector(".request[data-kind=turn]")`)
	before := eval[string](p1, "document.body.dataset.seq")

	s.stop()
	p1.until("the page to notice", "document.body.dataset.stream !== 'live'")
	s.start()
	// Country 2 plays from its page as soon as the server is back; the
	// page follows the match again by itself.
	p1.until("the stream back", "document.body.dataset.stream === 'live'")
	p1.click(`input[name=action][value=recruit]`)
	p1.typeInto(`input[name=n]`, "25")
	p1.clickText(".request", "Play this action")
	p1.until("the move told after the restart", fmt.Sprintf(`+document.body.dataset.seq > %s && document.body.innerText.includes("recruited 25")`, before))
	var resumed bool
	for _, r := range p1.requests() {
		if strings.Contains(r.url, "/events") && fmt.Sprint(r.headers["Last-Event-ID"]) == before {
			resumed = true
		}
	}
	if !resumed {
		t.Errorf("the page did not come back with Last-Event-ID: %s; its requests: %v", before, p1.requests())
	}
	if strings.Contains(fmt.Sprint(p1.requests()), c.Seats[1].Secret+"&") || strings.Contains(p1.requests()[0].url, c.Seats[1].Secret) {
		t.Error("a request's address holds the seat's secret")
	}
	p1.noErrors()
}

func TestSeatPageIsQuickAndSmall(t *testing.T) {
	// "A seat's page interactive < 1 s on loopback, total transferred
	// bytes per page load < 300 KB", measured in the browser for every
	// game, on a first visit (nothing cached).
	s := newSite(t)
	b := newBrowser(t)
	bodies := map[string]map[string]any{
		"ajveciv":     {"game": "ajveciv", "seats": append(people(1), seat("basic"))},
		"reaj":        {"game": "reaj", "seats": append(people(1), seat("fixed"))},
		"tncc":        {"game": "tncc", "seats": append(people(1), seat("war"), seat("turtle"))},
		"territories": {"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy"))},
		"zombie":      {"game": "zombie", "mode": "party", "seats": people(6)},
	}
	for _, game := range []string{"ajveciv", "reaj", "tncc", "territories", "zombie"} {
		c := s.create(bodies[game])
		// The page's time is its own best of up to three first visits
		// (each tab a new browser context, nothing cached): a machine
		// busy with other work slows one visit, not the page.
		var times []float64
		for len(times) < 3 {
			p := b.open(game, c.Seats[0].URL, phoneW, phoneH)
			p.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
			p.until("its story", `document.getElementById("events").children.length > 0`)
			ready := eval[float64](p, "window.arbiterReady")
			times = append(times, ready)
			if len(times) == 1 {
				bytes := eval[float64](p, `performance.getEntriesByType("navigation")[0].transferSize + performance.getEntriesByType("resource").reduce((a, e) => a + e.transferSize, 0)`)
				files := eval[int](p, `performance.getEntriesByType("resource").length + 1`)
				t.Logf("%s: a seat's page: %d requests, %.1f KB", game, files, bytes/1024)
				if bytes >= 300*1024 {
					t.Errorf("%s: the seat's page transferred %.0f KB; want under 300 KB", game, bytes/1024)
				}
			}
			p.noErrors()
			if ready < 1000 {
				break
			}
		}
		t.Logf("%s: interactive after %.0f ms", game, times)
		if best := slices.Min(times); best >= 1000 {
			t.Errorf("%s: the seat's page took %.0f ms at best of %d visits to be interactive; want under 1 s", game, best, len(times))
		}
	}
}

func TestJudgeGivesASeatANewLink(t *testing.T) {
	// The judge re-issues a lost link from the console: the new link plays
	// the seat, the old one is refused with a word on what to do.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 2}, "judge": true})
	old := b.open("old link", c.Seats[1].URL, phoneW, phoneH)
	old.until("the page", "document.body.dataset.ready && document.querySelector('.request button.choice')")
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	judge.until("the console", "document.body.dataset.ready")
	judge.run(chromedp.Click(chromedp.JSPath(`document.querySelectorAll("#seats button")[1]`)))
	judge.until("the new link", `[...document.querySelectorAll("#judge-links input.link")].some(i => i.value.includes("#s="))`)
	url := eval[string](judge, `document.querySelector("#judge-links input.link").value`)
	if url == c.Seats[1].URL {
		t.Fatal("the new link is the old one")
	}
	// The old link's page is told by itself: its stream stops (the
	// server closes it, and the old secret opens it no more).
	old.until("the old link's stream stopped", `document.body.dataset.stream.startsWith("stopped: ") && document.body.dataset.stream.includes("secret")`)
	clickChoice(old)
	old.until("the refusal", `document.getElementById("refusal").innerText.includes("secret")`)
	fresh := b.open("new link", url, phoneW, phoneH)
	fresh.until("the seat", "document.body.dataset.ready && document.querySelector('.request button.choice')")
	clickChoice(fresh)
	fresh.until("the move played", `document.getElementById("refusal").innerText.startsWith("You played: ")`)
	judge.noErrors()
	fresh.noErrors()
}

func TestSeatPageGivesBackItsLink(t *testing.T) {
	// A seat's page takes its secret out of the address bar, so that a
	// bookmark or a copy of the address opens the spectator's page; the
	// page gives its own link back, to keep.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 2}})
	p := b.open("seat 2", c.Seats[1].URL, phoneW, phoneH)
	p.until("the page", "document.body.dataset.ready")
	if href := eval[string](p, "location.href"); strings.Contains(href, "#s=") {
		t.Errorf("the address bar shows the secret: %s", href)
	}
	if got := eval[string](p, `document.querySelector("#who .own-link input.link").value`); got != c.Seats[1].URL {
		t.Errorf("the page gives back %q; want its link %q", got, c.Seats[1].URL)
	}
	p.noErrors()
}

// stallingProxy passes connections through to a site until stall is
// called: from then on, the connections it passed go silent without being
// closed, as a phone's do when it sleeps or leaves a Wi-Fi network, and
// the ones opened afterwards pass again.
type stallingProxy struct {
	ln      net.Listener
	mu      sync.Mutex
	stalled map[net.Conn]bool // the connections of the client side, and whether they are silent
}

func newStallingProxy(t *testing.T, to string) *stallingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallingProxy{ln: ln, stalled: map[net.Conn]bool{}}
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for c := range p.stalled {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.stalled[c] = false
			p.mu.Unlock()
			go p.pump(c, up, c)
			go p.pump(c, c, up)
		}
	}()
	return p
}

// pump copies from src to dst until the connection c is stalled; then it
// holds what it read, and the connections stay open.
func (p *stallingProxy) pump(c, src, dst net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		p.mu.Lock()
		silent := p.stalled[c]
		p.mu.Unlock()
		if silent {
			return
		}
		if n > 0 {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

// stall silences every connection passed so far.
func (p *stallingProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.stalled {
		p.stalled[c] = true
	}
}

// url is u with the proxy's address for its host.
func (p *stallingProxy) url(u string) string {
	i := strings.Index(u[len("http://"):], "/") + len("http://")
	return "http://" + p.ln.Addr().String() + u[i:]
}

func TestStreamComesBackWhenItGoesSilent(t *testing.T) {
	// A phone that sleeps, or moves from one network to another, keeps
	// its page's event stream open on a connection that no longer
	// carries anything: no error, no end. The server's stream says how
	// often it speaks when idle (Arbiter-Keepalive-Ms); a page that hears
	// nothing for longer takes its stream for dead, opens it again with
	// Last-Event-ID, and shows the moves made meanwhile, by itself.
	s := newSiteWith(t, server.Limits{Heartbeat: 300 * time.Millisecond})
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": people(2), "options": map[string]any{"preset": `{"base":"default","max_cycles":3}`}})
	px := newStallingProxy(t, s.addr)
	p1 := b.open("country 2", px.url(c.Seats[1].URL), phoneW, phoneH)
	p1.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	before := eval[string](p1, "document.body.dataset.seq")
	px.stall()
	// Country 1 waits while country 2's phone hears nothing.
	_, m := s.api("GET", "/matches/"+c.ID, c.Seats[0].Secret, nil)
	q := m["requests"].([]any)[0].(map[string]any)
	if st, _ := s.api("POST", "/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": q["id"], "move": map[string]any{"type": "wait"}}); st != 200 {
		t.Fatalf("country 1's wait: %d", st)
	}
	p1.until("country 2's turn, told while the stream was silent", fmt.Sprintf(`+document.body.dataset.seq > %s && document.querySelector(".request[data-kind=turn]") && document.body.dataset.stream === 'live'`, before))
	var resumed bool
	for _, r := range p1.requests() {
		if strings.Contains(r.url, "/events") && fmt.Sprint(r.headers["Last-Event-ID"]) == before {
			resumed = true
		}
	}
	if !resumed {
		t.Errorf("the page did not open its stream again with Last-Event-ID: %s", before)
	}
	p1.noErrors()
}

func TestSeatPageAsksInFewRoundTrips(t *testing.T) {
	// On a slow connection each round trip costs: the page asks for what
	// it needs at once rather than one thing after another. At 300 ms a
	// round trip, the match page's modules are asked for while its first
	// script still loads (modulepreload), and a territories seat's map
	// while its game's module loads.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy"))})
	p := b.openTab("slow phone", "about:blank", phoneW, phoneH, false)
	p.run(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: 300, DownloadThroughput: -1, UploadThroughput: -1}}})
		return err
	}), chromedp.Navigate(c.Seats[0].URL))
	p.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	// (start, end) of each resource the page fetched, by its path.
	got := eval[map[string][]float64](p, `Object.fromEntries(performance.getEntriesByType("resource").map(e => [new URL(e.name).pathname, [e.startTime, e.responseEnd]]))`)
	at := func(suffix string) []float64 {
		for k, v := range got {
			if strings.HasSuffix(k, suffix) {
				return v
			}
		}
		t.Fatalf("the page did not fetch %s: %v", suffix, got)
		return nil
	}
	for _, m := range []string{"/dom.js", "/api.js", "/stream.js", "/chart.js", "/links.js"} {
		if at(m)[0] >= at("/match.js")[1] {
			t.Errorf("%s was asked for at %.0f ms, once match.js had come (%.0f ms)", m, at(m)[0], at("/match.js")[1])
		}
	}
	if at("/map.svg")[0] >= at("/games/territories.js")[1] {
		t.Errorf("the map was asked for at %.0f ms, once the game's module had come (%.0f ms)", at("/map.svg")[0], at("/games/territories.js")[1])
	}
	p.noErrors()
}

// offline takes the tab's network away (on) or gives it back, as a phone
// that loses its signal: the browser says it is offline, and every request
// fails.
func (tb *tab) offline(on bool) {
	tb.t.Helper()
	tb.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: on, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
			return err
		}
		var rules []*network.Conditions
		if on {
			rules = []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: rules})
		return err
	}))
}

func TestMoveNotSentIsToldAgainWhenTheConnectionIsBack(t *testing.T) {
	// A phone that loses its network says so at once (it said "live",
	// the stream's connection being kept by a device that can send
	// nothing); a move played meanwhile is told as not sent, and once
	// the stream is back the page says the move is still to play. Before,
	// the page kept "the server cannot be reached (Failed to fetch)" under
	// the decisions after it was live again, whether or not the move had
	// been played. The same when it is the server that is out of reach.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 4}})
	p := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
	ready := `document.body.dataset.stream === 'live' && document.querySelector('.request button.choice')`
	p.until("the page", "document.body.dataset.ready && "+ready)
	line := `document.getElementById("refusal").innerText`
	const again = "The connection is back; your move was not played: play it again."
	for _, how := range []string{"the network lost", "the server stopped"} {
		if how == "the network lost" {
			p.offline(true)
			p.until("the page to say it is offline", `document.body.dataset.stream.startsWith("offline")`)
		} else {
			s.stop()
			p.until("the page to notice", "document.body.dataset.stream !== 'live'")
		}
		before := eval[string](p, "document.body.dataset.seq")
		clickChoice(p)
		p.until("the move told as not sent", line+`.startsWith("Not sent: ")`)
		if how == "the network lost" {
			p.offline(false)
		} else {
			s.start()
		}
		p.until("the stream back", ready)
		p.until("the move told as still to play", line+` === "`+again+`"`)
		if got := eval[string](p, "document.body.dataset.seq"); got != before {
			t.Fatalf("%s: the match moved from %s to %s with the move not sent", how, before, got)
		}
		clickChoice(p)
		p.until("the move played", `document.body.dataset.seq !== "`+before+`"`)
		if got := eval[string](p, line); got == again || strings.HasPrefix(got, "Not sent") {
			t.Errorf("%s: once the move is played the page still says %q", how, got)
		}
	}
	p.noErrors()
}

func TestALinkCardWithNoQRCodeSaysWhy(t *testing.T) {
	// A link card whose QR code cannot be drawn says why in its place, and
	// that the link still copies, where it showed a broken picture: a link
	// too long for a code (the server's refusal), then a server that
	// cannot be reached.
	s := newSite(t)
	b := newBrowser(t)
	home := b.open("home", s.URL()+"/", 375, 667)
	home.until("the page", "document.body.dataset.ready")
	card := func(url string) string {
		return `import("/assets/js/links.js").then((m) => { document.body.append(m.linkCard("A seat", ` + url + `)); return true; })`
	}
	eval[bool](home, card(`"http://localhost/m/1#s=" + "x".repeat(1100)`))
	home.until("the long link's note", `document.querySelector(".qr-none")`)
	if got := eval[string](home, `document.querySelector(".qr-none").textContent`); !strings.Contains(got, "1 to 1024 bytes") || !strings.Contains(got, "Copy or share the link") {
		t.Errorf("a link too long for a code: %q; want the server's reason and what to do", got)
	}
	s.stop()
	eval[bool](home, card(`"http://localhost/m/2#s=abc"`))
	home.until("the unreachable server's note", `document.querySelectorAll(".qr-none").length == 2`)
	if got := eval[string](home, `document.querySelectorAll(".qr-none")[1].textContent`); !strings.Contains(got, "could not be reached") {
		t.Errorf("no server: %q; want it said", got)
	}
	if n := eval[int](home, `document.querySelectorAll("img[alt^='QR code']").length`); n != 0 {
		t.Errorf("%d QR pictures left broken", n)
	}
}
