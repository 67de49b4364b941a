package web_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// advance has the people of a match answer their requests with their
// defaults, through the API, until it has moved n times or is over.
func (s *site) advance(c created, n int) {
	s.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, m := s.api("GET", "/matches/"+c.ID, "", nil)
		if m["status"] != "running" || m["seq"].(float64) >= float64(n) || time.Now().After(deadline) {
			return
		}
		moved := false
		for _, st := range c.Seats {
			if st.Secret == "" {
				continue
			}
			_, mine := s.api("GET", "/matches/"+c.ID, st.Secret, nil)
			for _, q := range mine["requests"].([]any) {
				r := q.(map[string]any)
				if code, _ := s.api("POST", "/matches/"+c.ID+"/moves", st.Secret, map[string]any{"request": r["id"], "move": r["default"]}); code == 200 {
					moved = true
				}
			}
		}
		if !moved {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestScreenshots(t *testing.T) {
	// "Screenshots of each page at phone (360×740) and desktop sizes,
	// written by the tests to a folder": ARBITER_SCREENSHOTS=DIR go test
	// ./web -run Screenshots writes them (docs/screenshots holds two, for
	// the README).
	dir := os.Getenv("ARBITER_SCREENSHOTS")
	if dir == "" {
		t.Skip("ARBITER_SCREENSHOTS=DIR writes the screenshots to DIR")
	}
	dir = shots(t)
	s := newSite(t)
	b := newBrowser(t)
	sizes := []struct {
		name string
		w, h int64
	}{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}}
	shoot := func(name, url, ready string) {
		for _, z := range sizes {
			tb := b.open(name+"-"+z.name, url, z.w, z.h)
			tb.until(name, "document.body.dataset.ready && "+ready)
			time.Sleep(800 * time.Millisecond) // the story's charts
			tb.shot(dir, name+"-"+z.name)
			tb.noErrors()
		}
	}
	shoot("home", s.URL()+"/", "true")
	for _, g := range showcase() {
		c := s.create(g.body)
		s.advance(c, g.moves)
		shoot(g.name+"-seat", c.Seats[0].URL, "(document.body.dataset.stream === 'live' || document.body.dataset.status !== 'running')")
		shoot(g.name+"-spectator", c.Watch, "true")
		shoot(g.name+"-judge", c.Judge.URL, "true")
		shoot(g.name+"-replay", s.URL()+"/replay?match="+c.ID+"#s="+c.Judge.Secret, "true")
	}
	t.Logf("screenshots in %s", dir)
}

// showcased is a match of each game with a person in seat 1 and a judge, and
// how many moves to play into it before it is shown.
type showcased struct {
	name  string
	body  map[string]any
	moves int
}

// showcase returns a showcased match of every game.
func showcase() []showcased {
	return []showcased{
		{"ajveciv", map[string]any{"game": "ajveciv", "seats": append(people(1), seat("basic.conquer"), seat("random"), seat("basic.develop")), "options": map[string]any{"turns": 30}, "judge": true}, 60},
		{"reaj", map[string]any{"game": "reaj", "seats": append(people(1), seat("steward"), seat("conquer"), seat("adapt")), "options": map[string]any{"turns": 30}, "judge": true}, 60},
		{"tncc", map[string]any{"game": "tncc", "seats": append(people(1), seat("trader"), seat("war"), seat("turtle")), "options": map[string]any{"preset": "tribe"}, "judge": true}, 40},
		{"territories", map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy"), seat("greedy"), seat("random")), "options": map[string]any{"turns": 40}, "judge": true}, 20},
		{"zombie", map[string]any{"game": "zombie", "mode": "party", "seats": people(6), "options": map[string]any{"antibodies": 2, "zombies": 1, "turns": 6}, "judge": true}, 6},
	}
}

func TestMatchBoardShowsWhole(t *testing.T) {
	// At a desktop's width nothing on a match's board scrolls sideways, as
	// a seat, a spectator and the judge see it: a board wider than its
	// column (AjveCiv's table) takes the page's width, with the decisions
	// owed still above it; the others keep their column.
	s := newSite(t)
	b := newBrowser(t)
	for _, g := range showcase() {
		c := s.create(g.body)
		s.advance(c, g.moves)
		for _, p := range []struct{ who, url string }{{"seat 1", c.Seats[0].URL}, {"a spectator", c.Watch}, {"the judge", c.Judge.URL}} {
			r := b.open(g.name+" "+p.who, p.url, desktopW, desktopH)
			r.until(g.name+"'s board", `document.body.dataset.ready && document.querySelector("#board *")`)
			if wide := eval[string](r, `[...document.querySelectorAll("#board, #board *")].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + "." + e.className + " " + e.scrollWidth + " > " + e.clientWidth).join(", ")`); wide != "" {
				t.Errorf("%s as %s: at %d pixels the board scrolls sideways: %s", g.name, p.who, desktopW, wide)
			}
			wide := eval[bool](r, `document.getElementById("layout").classList.contains("wide")`)
			if want := g.name == "ajveciv"; wide != want {
				t.Errorf("%s as %s: the board spans the page: %v; want %v", g.name, p.who, wide, want)
			}
			if above := eval[bool](r, `document.getElementById("owed").getBoundingClientRect().bottom <= document.getElementById("board-panel").getBoundingClientRect().top`); !above {
				t.Errorf("%s as %s: the decisions owed are not above the board", g.name, p.who)
			}
			// (A match may be over by now: AjveCiv's societies may all die.)
			// A game played one seat at a time tells whose turn it is.
			want := "decide in private"
			if g.name == "tncc" || g.name == "territories" {
				want = "'s turn."
			}
			if owed := eval[string](r, `document.getElementById("requests").innerText`); p.who == "a spectator" && eval[string](r, "document.body.dataset.status") == "running" && !strings.Contains(owed, want) {
				t.Errorf("%s as %s: the decisions owed say %q; want %q", g.name, p.who, owed, want)
			}
			if p.who == "a spectator" && (g.name == "ajveciv" || g.name == "reaj") && !strings.Contains(eval[string](r, `document.getElementById("board").innerText`), "Turns played: ") {
				t.Errorf("%s as %s: the board does not say how many turns were played", g.name, p.who)
			}
			// The story says what it tells, before it has told anything.
			if told := map[string]string{"ajveciv": "no events", "reaj": "no events", "territories": "conquests"}[g.name]; told != "" {
				r.until(g.name+"'s story", `document.getElementById("events").innerText.includes(`+strconv.Quote(told)+`) || document.querySelectorAll("#events li:not(.muted)").length > 0`)
			}
			if g.name == "territories" {
				// The charts name and colour a seat as the map does: by its nation.
				r.until("the charts by nation", `[...document.querySelectorAll("#charts .legend li")].some(li => li.innerText.includes("1 · Amber"))`)
				if line, swatch := eval[string](r, `[...document.querySelectorAll("#charts .legend li")].find(li => li.innerText.includes("1 · Amber")).querySelector("line").getAttribute("stroke")`),
					eval[string](r, `[...document.querySelectorAll("#board tr")].find(tr => tr.innerText.includes("Amber")).querySelector(".swatch").dataset.colour`); line != swatch {
					t.Errorf("%s as %s: seat 1's line is %q; want Amber's colour on the board, %q", g.name, p.who, line, swatch)
				}
			}
			r.noErrors()
		}
		if g.name == "territories" {
			r := b.open("the replay", s.URL()+"/replay?match="+c.ID+"#s="+c.Judge.Secret, desktopW, desktopH)
			r.until("the replay's charts by nation", `document.body.dataset.ready && [...document.querySelectorAll("#charts .legend li")].some(li => li.innerText.includes("1 · Amber"))`)
			r.noErrors()
		}
	}
}

func TestChartsAreReadableAtTheirSize(t *testing.T) {
	// A chart is drawn at the width it is shown: its numbers are as large
	// as the page's small print (11 px) on a phone and on a desktop, on a
	// match's page and in the replay viewer, and none is cut off. (Drawn
	// 640 wide and shrunk into a phone's column, they were 6 px.)
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": append(people(1), seat("trader"), seat("war")), "options": map[string]any{"preset": "tribe"}, "judge": true})
	s.advance(c, 30)
	for _, z := range []struct {
		name string
		w, h int64
	}{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		for _, p := range []struct{ name, url string }{{"the spectator's page", c.Watch}, {"the replay viewer", s.URL() + "/replay?match=" + c.ID + "#s=" + c.Judge.Secret}} {
			r := b.open(p.name+" on a "+z.name, p.url, z.w, z.h)
			r.until("the charts", `document.querySelectorAll("#charts svg.chart text").length > 0`)
			// The size of the smallest number of the charts, and those that
			// stick out of their chart.
			r.until("the charts drawn at their size", `[...document.querySelectorAll("#charts svg.chart")].every(g => Math.abs(g.viewBox.baseVal.width - g.getBoundingClientRect().width) < 4)`)
			small := eval[float64](r, `Math.min(...[...document.querySelectorAll("#charts svg.chart text")].map(e => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a))`)
			if small < 10.5 {
				t.Errorf("%s on a %s: the charts' numbers are %.1f px", p.name, z.name, small)
			}
			if out := eval[string](r, `[...document.querySelectorAll("#charts svg.chart text")].filter(e => { const a = e.getBoundingClientRect(), b = e.ownerSVGElement.getBoundingClientRect(); return a.left < b.left - 0.5 || a.right > b.right + 0.5 || a.top < b.top - 0.5 || a.bottom > b.bottom + 0.5; }).map(e => e.textContent).join(", ")`); out != "" {
				t.Errorf("%s on a %s: numbers cut off by their chart: %s", p.name, z.name, out)
			}
			// Counts (whole numbers) over up to 50 cycles are drawn in steps,
			// as the HTML report draws them: each line's second point is at
			// the next cycle with the value before (they were slopes).
			if bad := eval[string](r, `[...document.querySelectorAll("#charts svg.chart polyline")].filter(p => { const pts = p.getAttribute("points").split(" ").map(q => q.split(",")); return pts.length > 2 && !(pts[1][0] === pts[2][0] && pts[1][1] === pts[0][1]); }).map(p => p.dataset.name).join(", ")`); bad != "" {
				t.Errorf("%s on a %s: lines of counts not drawn in steps: %s", p.name, z.name, bad)
			}
			r.noErrors()
		}
	}
}

func TestChartsOfLargeNumbersKeepTheirLabels(t *testing.T) {
	// The room left of a chart holds six characters: on the crazy preset
	// a country's gold passes a million in some forty cycles, and the
	// axis read "000,000", cut at the chart's edge. Its labels are then in one
	// unit with its SI prefix (300k, 1M), none cut off, the table keeping
	// each value in full.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": append(people(1), seat("trader"), seat("nothing")), "options": map[string]any{"preset": "crazy"}, "judge": true})
	s.advance(c, 150) // 50 cycles: above a million gold
	for _, p := range []struct{ name, url string }{{"the spectator's page", c.Watch}, {"the replay viewer", s.URL() + "/replay?match=" + c.ID + "#s=" + c.Judge.Secret}} {
		r := b.open(p.name, p.url, desktopW, desktopH)
		r.until("the charts drawn at their size", `document.querySelectorAll("#charts svg.chart text").length > 0 && [...document.querySelectorAll("#charts svg.chart")].every(g => Math.abs(g.viewBox.baseVal.width - g.getBoundingClientRect().width) < 4)`)
		if out := eval[string](r, `[...document.querySelectorAll("#charts svg.chart text")].filter(e => { const a = e.getBoundingClientRect(), b = e.ownerSVGElement.getBoundingClientRect(); return a.left < b.left - 0.5 || a.right > b.right + 0.5; }).map(e => e.textContent).join(", ")`); out != "" {
			t.Errorf("%s: numbers cut off by their chart: %s", p.name, out)
		}
		if !eval[bool](r, `[...document.querySelectorAll("#charts svg.chart text")].some(e => /^[0-9.]+[kM]$/.test(e.textContent))`) {
			t.Errorf("%s: no axis in thousands or millions: %s", p.name, eval[string](r, `[...document.querySelectorAll("#charts svg.chart text")].map(e => e.textContent).join(" ")`))
		}
		r.noErrors()
	}
}

func TestTicksKeepTheirShapeOnAPhone(t *testing.T) {
	// A checkbox or a radio button beside words that wrap keeps its size
	// on a phone: it was squeezed by its words to two thirds of its width
	// (TNCC's "go to war: needs 1,600 gold ..." and "recruit soldiers (or
	// send them home)", the zombie plan's "end your turn after the
	// touches ..."), a narrow oval among round ones.
	s := newSite(t)
	b := newBrowser(t)
	for _, g := range []map[string]any{
		{"game": "tncc", "seats": append(people(1), seat("turtle"))},
		{"game": "zombie", "mode": "party", "seats": append(people(1), seat("sensible"), seat("sensible"), seat("cautious")), "options": map[string]any{"antibodies": 2, "turns": 4}},
	} {
		c := s.create(g)
		p := b.open(g["game"].(string)+" seat", c.Seats[0].URL, phoneW, phoneH)
		p.until("the decision's form", `document.body.dataset.ready && document.querySelector(".request input[type=checkbox], .request input[type=radio]")`)
		if bad := eval[string](p, `[...document.querySelectorAll("input[type=checkbox], input[type=radio]")].filter(e => e.offsetParent).map(e => [e.name + "=" + e.value, e.getBoundingClientRect()]).filter(([, r]) => r.width < 19.5 || Math.abs(r.width - r.height) > 0.5).map(([n, r]) => n + " " + r.width.toFixed(1) + "×" + r.height.toFixed(1)).join(", ")`); bad != "" {
			t.Errorf("%s on a phone: ticks squeezed out of shape: %s", g["game"], bad)
		}
		p.noErrors()
	}
}

// smallTargets returns the controls matched by sel on the page that are
// smaller than 44 × 44 CSS pixels to a finger: a tick box by its label
// (a tap on the label ticks it), anything else by itself.
func smallTargets(tb *tab, sel string) string {
	return eval[string](tb, `[...document.querySelectorAll(`+strconv.Quote(sel)+`)].filter(e => e.getClientRects().length).map(e => {
	  const tick = e.matches("input[type=checkbox], input[type=radio]");
	  const t = (tick && e.closest("label")) || e;
	  const r = t.getBoundingClientRect();
	  return [(e.name || e.getAttribute("aria-label") || e.textContent.trim()) + (tick && t === e ? " (no label)" : ""), r];
	}).filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => n + " " + r.width.toFixed(0) + "×" + r.height.toFixed(0)).join(", ")`)
}

func TestTapTargetsAreLargeEnoughOnAPhone(t *testing.T) {
	// On a phone (375 × 667) every control a finger taps is at least 44
	// × 44 CSS pixels, or a tick box within a label that is: the home
	// page's link cards ("open" was a link of 40 × 23) and every tick of
	// its form, the zombie plan's ticks (its precaution boxes were 20 ×
	// 20, with no label around them).
	s := newSite(t)
	b := newBrowser(t)
	home := b.open("home", s.URL()+"/", 375, 667)
	home.until("the form", "document.body.dataset.ready")
	home.choose("#game", "zombie")
	if bad := smallTargets(home, "#create input[type=checkbox], #create input[type=radio], #create button, #create select"); bad != "" {
		t.Errorf("the home page's form has small targets: %s", bad)
	}
	home.click("#start")
	home.until("the links", `document.querySelectorAll("#link-cards .card").length > 1`)
	if bad := smallTargets(home, "#link-cards a, #link-cards button, #link-cards input"); bad != "" {
		t.Errorf("the link cards have small targets: %s", bad)
	}
	home.shot(shots(t), "home-link-cards-phone")
	home.noErrors()
	// A human's plan, which has precautions to tick.
	var c created
	for seed := 1; ; seed++ {
		c = s.create(map[string]any{"game": "zombie", "mode": "party", "seed": seed, "seats": append(people(1), seat("sensible"), seat("sensible"), seat("cautious")), "options": map[string]any{"antibodies": 2, "turns": 4}})
		_, m := s.api("GET", "/matches/"+c.ID, c.Seats[0].Secret, nil)
		if m["view"].(map[string]any)["me"].(map[string]any)["identity"] == "human" {
			break
		}
		if seed == 50 {
			t.Fatal("no human seat 1 in 50 seeds")
		}
	}
	p := b.open("zombie seat", c.Seats[0].URL, 375, 667)
	p.until("the plan", `document.body.dataset.ready && document.querySelector("form.plan input[name^=precaution]")`)
	if bad := smallTargets(p, "form.plan input[type=checkbox], form.plan select, form.plan button"); bad != "" {
		t.Errorf("the zombie plan has small targets: %s", bad)
	}
	// A tap beside a precaution's box, within its label, ticks it.
	p.click("form.plan input[name^=touch]")
	q := `document.querySelector("form.plan input[name^=precaution]")`
	xy := eval[[]float64](p, `(() => { const l = `+q+`.closest("label"); l.scrollIntoView({block: "center"}); const r = l.getBoundingClientRect(); return [r.left + 3, r.top + 3]; })()`)
	p.run(chromedp.MouseClickXY(xy[0], xy[1]))
	if !eval[bool](p, q+`.checked`) {
		t.Error("a tap within a precaution's label does not tick it")
	}
	p.shot(shots(t), "zombie-plan-targets-phone")
	p.noErrors()
}
