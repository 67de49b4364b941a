package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/chromiumtest"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/web"
)

// site is a real arbiter server (its API and its pages) over a real SQLite
// file on loopback, which a test can stop and start again on the same
// address.
type site struct {
	t      *testing.T
	db     string
	addr   string
	limits server.Limits // the server's, the defaults where unset
	busy   time.Duration // how long a write waits for the file's lock: the store's default when 0
	st     *store.Store
	srv    *server.Server
	hs     *http.Server
	done   chan struct{}
}

func newSite(t *testing.T) *site {
	t.Helper()
	return newSiteWith(t, server.Limits{})
}

// newSiteWith is a site whose server has the limits l.
func newSiteWith(t *testing.T, l server.Limits) *site {
	t.Helper()
	return newSiteBusy(t, l, 0)
}

// newSiteBusy is a site whose server has the limits l, and whose writes
// wait busy for the SQLite file's lock while another process holds it,
// then are answered 503 unavailable.
func newSiteBusy(t *testing.T, l server.Limits, busy time.Duration) *site {
	t.Helper()
	s := &site{t: t, db: filepath.Join(t.TempDir(), "live.db"), addr: "127.0.0.1:0", limits: l, busy: busy}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// URL is the site's origin.
func (s *site) URL() string { return "http://" + s.addr }

func (s *site) start() {
	s.t.Helper()
	st, err := store.Open(context.Background(), s.db, store.Options{Synchronous: "NORMAL", BusyTimeout: s.busy})
	if err != nil {
		s.t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, NoAccessLog: true, Limits: s.limits})
	if err != nil {
		s.t.Fatal(err)
	}
	srv.Pages(web.Handler())
	if err := srv.Start(context.Background()); err != nil {
		s.t.Fatal(err)
	}
	var ln net.Listener
	for try := 0; ; try++ {
		ln, err = net.Listen("tcp", s.addr)
		if err == nil || try > 100 {
			break
		}
		time.Sleep(50 * time.Millisecond) // the old listener's port, being let go
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.st, s.srv = st, srv
	s.hs = &http.Server{Handler: srv.Handler()}
	s.done = make(chan struct{})
	go func() { s.hs.Serve(ln); close(s.done) }()
}

// stop shuts the server down: its streams are told, its database closed.
func (s *site) stop() {
	if s.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
	s.hs.Shutdown(ctx)
	s.hs.Close()
	<-s.done
	s.st.Close()
	s.srv = nil
}

// api calls the API; secret may be empty.
func (s *site) api(method, path, secret string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL()+"/api/v1"+path, rd)
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// created is a match as its creation answered.
type created struct {
	ID    string
	Seats []struct {
		Seat   int
		Player string
		Secret string
		URL    string
	}
	Judge *struct{ Secret, URL string }
	Watch string `json:"watch_url"`
}

func (s *site) create(body map[string]any) created {
	s.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(s.URL()+"/api/v1/matches", "application/json", bytes.NewReader(b))
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var c created
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 {
		s.t.Fatalf("create: %d %s", resp.StatusCode, raw)
	}
	json.Unmarshal(raw, &c)
	return c
}

// browser is one headless Chromium; each tab it opens is a person of its
// own (a browser context apart: their own storage and connections, as
// their own phone would have).
type browser struct {
	t   *testing.T
	ctx context.Context
}

// shared is the one Chromium the tests of this package drive, started by
// the first that needs it and stopped by TestMain.
var shared struct {
	once   sync.Once
	ctx    context.Context
	err    error
	cancel []context.CancelFunc
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, c := range shared.cancel {
		c()
	}
	os.Exit(code)
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumtest.Path(t)
	shared.once.Do(func() {
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumtest.Options(path)...)
		ctx, cancel := chromedp.NewContext(actx)
		shared.ctx, shared.cancel = ctx, []context.CancelFunc{cancel, cancelAlloc}
		shared.err = chromedp.Do(ctx)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &browser{t: t, ctx: shared.ctx}
}

// tab is one person's page.
type tab struct {
	t     *testing.T
	name  string
	width int64
	ctx   context.Context
	mu    sync.Mutex
	errs  []string
	sent  []sent // the requests the page sent
	// failed are the requests of the page that failed or were answered
	// 400 or more: their address, status or error, and kind.
	failed []string
}

// failures returns the page's failed requests.
func (tb *tab) failures() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.failed...)
}

// requests returns the requests the page has sent.
func (tb *tab) requests() []sent {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]sent(nil), tb.sent...)
}

// open opens a person's tab at url, width × height pixels.
func (b *browser) open(name, url string, width, height int64) *tab {
	b.t.Helper()
	return b.openTab(name, url, width, height, false)
}

// keeper is a script run before a page's own: it keeps the body of every
// answer the page's scripts fetch (event streams included, as they come)
// in window.__received, so that a test reads what the page was given.
const keeper = `(() => {
  const got = window.__received = [];
  const fetch0 = window.fetch;
  window.fetch = async (...args) => {
    const r = await fetch0(...args);
    try {
      const reader = r.clone().body.getReader();
      const dec = new TextDecoder();
      (async () => { for (;;) { const { value, done } = await reader.read(); if (done) break; got.push(dec.decode(value, { stream: true })); } })().catch(() => {});
    } catch (e) { /* no body */ }
    return r;
  };
})();`

// openWatched opens a tab whose every fetched answer is kept (see keeper).
func (b *browser) openWatched(name, url string, width, height int64) *tab {
	b.t.Helper()
	return b.openTab(name, url, width, height, true)
}

// sent is a request a page sent: its address and headers.
type sent struct {
	url     string
	headers map[string]any
}

func (b *browser) openTab(name, url string, width, height int64, keep bool) *tab {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	tb := &tab{t: b.t, name: name, ctx: ctx, width: width}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			// A person who confirms what they asked for.
			go chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
				return err
			}))
		case *network.EventRequestWillBeSent:
			tb.mu.Lock()
			tb.sent = append(tb.sent, sent{e.Request.URL, e.Request.Headers})
			tb.mu.Unlock()
		case *network.EventResponseReceived:
			if e.Response.Status >= 400 {
				tb.mu.Lock()
				tb.failed = append(tb.failed, fmt.Sprintf("%s: %d (%s)", e.Response.URL, e.Response.Status, e.Type))
				tb.mu.Unlock()
			}
		case *network.EventLoadingFailed:
			if !e.Canceled {
				tb.mu.Lock()
				tb.failed = append(tb.failed, fmt.Sprintf("request %s: %s (%s)", e.RequestID, e.ErrorText, e.Type))
				tb.mu.Unlock()
			}
		case *runtime.EventExceptionThrown:
			tb.mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			tb.errs = append(tb.errs, fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber+1))
			tb.mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				tb.mu.Lock()
				tb.errs = append(tb.errs, strings.Join(parts, " "))
				tb.mu.Unlock()
			}
		}
	})
	if err != nil {
		b.t.Fatal(err)
	}
	setup := []chromedp.Action[chromedp.Void]{chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{})
		return err
	})}
	if keep {
		setup = append(setup, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: keeper})
			return err
		}))
	}
	tb.run(append(setup, chromedp.EmulateViewport(width, height), chromedp.Navigate(url))...)
	return tb
}

// run runs actions on the tab, with a time limit.
func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v (page errors: %v)", tb.name, err, tb.errors())
	}
}

func (tb *tab) errors() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errs...)
}

// eval evaluates a JavaScript expression on the tab's page.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %s: %v (page errors: %v)", tb.name, expr, err, tb.errors())
	}
	return v
}

// until waits for a JavaScript condition to hold on the page.
func (tb *tab) until(what, cond string) {
	tb.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if eval[bool](tb, "!!("+cond+")") {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("%s: waited in vain for %s (%s); the page says:\n%s\npage errors: %v", tb.name, what, cond, eval[string](tb, "document.body.innerText.slice(0, 3000)"), tb.errors())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// click clicks the first element that matches sel.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.clickWhen("a "+sel+" to click", fmt.Sprintf("document.querySelector(%q)", sel), chromedp.Click(chromedp.CSS(sel)))
}

// clickText clicks the first button or link, within sel, whose text holds text.
func (tb *tab) clickText(sel, text string) {
	tb.t.Helper()
	q := fmt.Sprintf("[...document.querySelectorAll(%q)].find(b => b.innerText.includes(%q) && !b.disabled)", sel+" button, "+sel+" a", text)
	tb.clickWhen(fmt.Sprintf("%q to click", text), q, chromedp.Click(chromedp.JSPath(q)))
}

// clickWhen waits until cond holds, then clicks: again, from the wait, when
// the page drew the element anew between the finding and the click (a
// stream's event redraws a form), which the browser tells as a node that
// is gone. Any other failure fails the test.
func (tb *tab) clickWhen(what, cond string, click chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	for attempt := 0; ; attempt++ {
		tb.until(what, cond)
		ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
		err := chromedp.Do(ctx, click)
		cancel()
		if err == nil {
			return
		}
		if attempt == 50 || !strings.Contains(err.Error(), "node with given id") {
			tb.t.Fatalf("%s: %v (page errors: %v)", tb.name, err, tb.errors())
		}
	}
}

// clickMap clicks territory id on the page's map, as a finger would.
func (tb *tab) clickMap(id string) {
	tb.t.Helper()
	sel := fmt.Sprintf(".map path[id=%q]", id)
	tb.until("the map's "+id, fmt.Sprintf("document.querySelector(%q)", sel))
	eval[bool](tb, fmt.Sprintf("document.querySelector(%q).dispatchEvent(new MouseEvent('click', {bubbles: true})) || true", sel))
}

// tap clicks with the mouse, as a finger taps, the middle of the element
// the expression q returns: whatever lies on top there takes the tap.
func (tb *tab) tap(what, q string) {
	tb.t.Helper()
	tb.clickWhen(what+" to tap", q, chromedp.Click(chromedp.JSPath(q)))
}

// keys presses keys on the page (names of chromedp/kb: "End",
// "ArrowLeft", "Enter", "Tab", or text).
func keys(names ...string) chromedp.Action[chromedp.Void] {
	var b strings.Builder
	for _, n := range names {
		switch n {
		case "End":
			b.WriteString(kb.End)
		case "Home":
			b.WriteString(kb.Home)
		case "ArrowLeft":
			b.WriteString(kb.ArrowLeft)
		case "ArrowRight":
			b.WriteString(kb.ArrowRight)
		case "Enter":
			b.WriteString(kb.Enter)
		case "Tab":
			b.WriteString(kb.Tab)
		default:
			b.WriteString(n)
		}
	}
	return chromedp.KeyEvent(b.String())
}

// setFile chooses file in the file input sel.
func setFile(sel, file string) chromedp.Action[chromedp.Void] {
	return chromedp.SetUploadFiles(chromedp.CSS(sel), []string{file})
}

// typeInto empties the field sel and types text into it.
func (tb *tab) typeInto(sel, text string) {
	tb.t.Helper()
	tb.until("a field "+sel, fmt.Sprintf("document.querySelector(%q)", sel))
	eval[bool](tb, fmt.Sprintf("(() => { const e = document.querySelector(%q); e.focus(); e.value = ''; return true; })()", sel))
	tb.run(chromedp.SendKeys(chromedp.CSS(sel), text))
}

// choose sets the select sel to value, as a person picks it.
func (tb *tab) choose(sel, value string) {
	tb.t.Helper()
	tb.until("a select "+sel, fmt.Sprintf("document.querySelector(%q)", sel))
	tb.run(chromedp.SetValue(chromedp.CSS(sel), value))
	eval[bool](tb, fmt.Sprintf("document.querySelector(%q).dispatchEvent(new Event('change', {bubbles: true}))", sel))
}

// text returns the page's visible text.
func (tb *tab) text() string { return eval[string](tb, "document.body.innerText") }

// shot writes a screenshot of the whole page to dir/name.png.
func (tb *tab) shot(dir, name string) {
	tb.t.Helper()
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// noErrors fails the test if the page threw or logged an error, or is
// wider than its screen.
func (tb *tab) noErrors() {
	tb.t.Helper()
	if errs := tb.errors(); len(errs) > 0 {
		tb.t.Errorf("%s: the page's errors: %v", tb.name, errs)
	}
	if w := eval[int](tb, "document.documentElement.scrollWidth"); int64(w) > tb.width {
		wide := eval[string](tb, fmt.Sprintf(`[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > %d && !e.closest(".scroll")).map(e => e.tagName + "." + e.className).slice(0, 5).join(", ")`, tb.width+1))
		tb.t.Errorf("%s: the page is %d pixels wide on a screen of %d: %s", tb.name, w, tb.width, wide)
	}
}
