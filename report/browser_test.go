package report

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/chromiumtest"
	"github.com/chromedp/chromedp"
)

// browse opens the page at path in a headless browser of the given width,
// and returns its context.
func browse(t *testing.T, path string, width int64) context.Context {
	t.Helper()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumtest.Options(chromiumtest.Path(t))...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	abs, _ := filepath.Abs(path)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// eval evaluates a JavaScript expression on the page, with a time limit.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func TestChartsInABrowser(t *testing.T) {
	// "Charts fill the page width, a hover shows each line's value and
	// name, overlapping lines stay distinguishable (markers or dashes),
	// and colours are distinct"; the page leads with the series' summary.
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	spool, err := os.CreateTemp(dir, "spool")
	if err != nil {
		t.Fatal(err)
	}
	w := NewHTML(f)
	w.SummaryFirst(spool)
	r := series(t)
	for i := range r.Games {
		if err := w.WriteGame(&r.Games[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ctx := browse(t, page, 1400)

	// The summary, with its distribution chart, comes before the games.
	if !eval[bool](t, ctx, `!!(document.querySelector("#series").compareDocumentPosition(document.querySelector("#game-1")) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Error("the series' summary does not lead the page")
	}
	// Every game's chart is as wide as its section.
	ratio := eval[float64](t, ctx, `Math.min(...[...document.querySelectorAll("section[id^=game-] figure svg")].map(s => s.getBoundingClientRect().width / s.closest("section").getBoundingClientRect().width))`)
	if ratio < 0.95 {
		t.Errorf("a chart fills %.0f%% of its section's width; want all of it", 100*ratio)
	}
	// Every line of a chart differs from the others in colour or dash.
	same := eval[int](t, ctx, `[...document.querySelectorAll("svg[data-x]")].map(s => { const k = [...s.querySelectorAll("polyline")].map(l => l.getAttribute("stroke") + "/" + l.getAttribute("stroke-dasharray")); return k.length - new Set(k).size }).reduce((a, b) => a + b, 0)`)
	if same != 0 {
		t.Errorf("%d lines look like another of their chart", same)
	}

	// A pointer over the first chart shows, for the turn under it, every
	// line's name and value.
	box := eval[[]float64](t, ctx, `(() => { const s = document.querySelector("svg[data-x]"); s.scrollIntoView(); const r = s.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	x, y := box[0]+box[2]*0.6, box[1]+box[3]*0.4
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)); err != nil {
		t.Fatal(err)
	}
	tip := eval[string](t, ctx, `(() => { const t = document.querySelector(".tip"); return t && !t.hidden ? t.innerText : ""; })()`)
	want := eval[[]string](t, ctx, `(() => { const s = document.querySelector("svg[data-x]"); const xs = s.dataset.x.split(","); const [left, width, xmin, xmax] = s.dataset.geom.split(",").map(Number);
		const p = new DOMPoint(`+ftoa(x)+`, `+ftoa(y)+`).matrixTransform(s.getScreenCTM().inverse()); const at = xmin + (p.x - left) / width * (xmax - xmin);
		let i = 0; xs.forEach((v, k) => { if (Math.abs(v - at) < Math.abs(xs[i] - at)) i = k; });
		return [s.dataset.clock + " " + xs[i], ...[...s.querySelectorAll("polyline")].map(l => l.dataset.name + "\t" + l.dataset.v.split(",")[i])]; })()`)
	if tip == "" {
		t.Fatal("no tip under the pointer")
	}
	flat := strings.Join(strings.Fields(tip), " ")
	for _, w := range want {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("the tip lacks %q:\n%s", w, tip)
		}
	}
	if shot := os.Getenv("ARBITER_SCREENSHOT"); shot != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(shot, png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
