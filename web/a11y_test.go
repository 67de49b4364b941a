package web_test

import (
	"strings"
	"testing"
)

// plain checks what every page must be: one h1, a main landmark, a
// language, a name for every control and image; and, at 200% zoom (a
// desktop's width halved), no page wider than its window.
func plain(t *testing.T, tb *tab) {
	t.Helper()
	problems := eval[[]string](tb, `(() => {
		const out = [];
		if (document.querySelectorAll("h1").length !== 1) out.push(document.querySelectorAll("h1").length + " h1");
		if (!document.querySelector("main")) out.push("no main");
		if (!document.documentElement.lang) out.push("no lang");
		for (const e of document.querySelectorAll("input, select, textarea")) {
			if (e.type === "hidden" || e.closest("[hidden]")) continue;
			if (!(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !e.getAttribute("aria-labelledby")) out.push("a control without a name: " + e.outerHTML.slice(0, 80));
		}
		for (const b of document.querySelectorAll("button, a")) {
			if (b.closest("[hidden]")) continue;
			if (!b.textContent.trim() && !b.getAttribute("aria-label")) out.push("a button or link without a name: " + b.outerHTML.slice(0, 80));
		}
		for (const i of document.querySelectorAll("img")) if (!i.alt) out.push("an image without alt");
		return out;
	})()`)
	for _, p := range problems {
		t.Errorf("%s: %s", tb.name, p)
	}
	tb.noErrors()
}

func TestPagesArePlainAndWorkByKeyboard(t *testing.T) {
	// "Accessible and plain: semantic HTML, keyboard use, colour never the
	// only signal, readable at 200% zoom."
	s := newSite(t)
	b := newBrowser(t)
	const zoomed = desktopW / 2 // a desktop's window at 200%

	home := b.open("home", s.URL()+"/", zoomed, desktopH)
	home.until("the home page", "document.body.dataset.ready")
	plain(t, home)

	c := s.create(map[string]any{"game": "ajveciv", "seats": append(people(1), seat("basic.conquer")), "options": map[string]any{"turns": 3}, "judge": true})
	p := b.open("AjveCiv seat", c.Seats[0].URL, zoomed, desktopH)
	p.until("the page", "document.body.dataset.ready && document.querySelector('.request button.choice')")
	plain(t, p)
	// By keyboard alone: Tab to the first choice, Enter plays it.
	for i := 0; i < 30 && !eval[bool](p, `document.activeElement.classList.contains("choice")`); i++ {
		p.run(keys("Tab"))
	}
	if !eval[bool](p, `document.activeElement.classList.contains("choice")`) {
		t.Fatal("Tab never reaches a choice")
	}
	before := eval[string](p, "document.body.dataset.seq")
	p.run(keys("Enter"))
	p.until("the choice played", `document.getElementById("refusal").innerText.startsWith("You played: ") || document.body.dataset.seq !== "`+before+`"`)
	// Colour is never the only sign: feelings carry their sign.
	if got := eval[string](p, `document.querySelector(".matrix").innerText`); !strings.ContainsAny(got, "+−0") {
		t.Errorf("feelings without signs: %s", got)
	}
	judge := b.open("judge", c.Judge.URL, zoomed, desktopH)
	judge.until("the console", "document.body.dataset.ready")
	plain(t, judge)
	watch := b.open("spectator", c.Watch, zoomed, desktopH)
	watch.until("the page", "document.body.dataset.ready")
	plain(t, watch)

	// The map by keyboard: a territory focused, Enter joins there; each
	// held territory names its nation beside its armies.
	ct := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy"))})
	m := b.open("territories seat", ct.Seats[0].URL, zoomed, desktopH)
	m.until("the map", "document.body.dataset.ready && document.querySelector('.map path#UT[tabindex]')")
	plain(t, m)
	eval[bool](m, `document.querySelector(".map path#UT").focus() || true`)
	m.run(keys("Enter"))
	m.until("the join", `document.querySelector(".map path#UT[fill]")`)
	m.until("the nation on the map", `[...document.querySelectorAll(".map text")].some(e => e.textContent === "Amber")`)
	if got := eval[string](m, `document.querySelector(".map path#UT title").textContent`); !strings.Contains(got, "Amber") {
		t.Errorf("the held territory says %q; want its nation's name", got)
	}

	r := b.open("replay", s.URL()+"/replay?match="+c.ID, zoomed, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	plain(t, r)
}

func TestKeyboardKeepsItsPlaceAfterAMove(t *testing.T) {
	// A move by keyboard draws the decisions anew: the focus, on the
	// button just pressed, is then on the new decision's heading (one Tab
	// from its first choice), not thrown back to the top of the page,
	// from where a keyboard or a screen reader had to find the decisions
	// again after every move. A territory of the map chosen by keyboard
	// keeps the focus when the map is drawn anew.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 3}})
	p := b.open("Reaj seat", c.Seats[0].URL, desktopW, desktopH)
	p.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live' && document.querySelector('.request button.choice')")
	for i := 0; i < 30 && !eval[bool](p, `document.activeElement.classList.contains("choice")`); i++ {
		p.run(keys("Tab"))
	}
	if !eval[bool](p, `document.activeElement.classList.contains("choice")`) {
		t.Fatal("Tab never reaches a choice")
	}
	for turn := 1; turn <= 3; turn++ {
		before := eval[string](p, "document.body.dataset.seq")
		p.run(keys("Enter"))
		p.until("the move played", `document.body.dataset.seq !== "`+before+`" && !document.getElementById("refusal").innerText.startsWith("Sending")`)
		if turn == 3 {
			p.until("the end", `document.body.dataset.status === "over"`)
			if got := eval[string](p, `document.activeElement.id`); got != "not-owed" {
				t.Errorf("at the end the focus is on %s; want the words that nothing more is owed", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
			}
			break
		}
		p.until("the next turn's choices", `document.querySelector('.request button.choice')`)
		if got := eval[string](p, `document.activeElement.closest("#owed") ? document.activeElement.tagName : document.activeElement.outerHTML.slice(0, 60)`); got != "H3" {
			t.Fatalf("turn %d: after the move the focus is on %s; want the new decision's heading", turn, got)
		}
		p.run(keys("Tab"))
		if !eval[bool](p, `document.activeElement.classList.contains("choice")`) {
			t.Fatalf("turn %d: one Tab from the new decision's heading is %s; want its first choice", turn, eval[string](p, `document.activeElement.outerHTML.slice(0, 60)`))
		}
	}
	p.noErrors()

	ct := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy"))})
	m := b.open("territories seat", ct.Seats[0].URL, desktopW, desktopH)
	m.until("the map", "document.body.dataset.ready && document.querySelector('.map path#UT[tabindex]')")
	eval[bool](m, `document.querySelector(".map path#UT").focus() || true`)
	m.run(keys("Enter"))
	m.until("the join", `document.querySelector(".map path#UT[fill]") && document.querySelector(".request[data-kind=action]")`)
	if got := eval[string](m, `document.activeElement.id + " " + document.activeElement.isConnected`); got != "UT true" {
		t.Errorf("after the join by keyboard the focus is on %q; want the map's UT, drawn anew", got)
	}
	m.noErrors()
}
