package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ownBoard is a board of one's own, with no map: A - B - C.
func ownBoard(extra string) string {
	return `{"map":"none",` + extra + `"min_nations":2,"territories":[{"id":"A","name":"Alpha","neighbors":["B"]},{"id":"B","name":"Beta","neighbors":["A","C"]},{"id":"C","name":"Gamma","neighbors":["B"]}]}`
}

// options returns the values of the select sel, in order, joined by
// spaces.
func (tb *tab) options(sel string) string {
	return eval[string](tb, `[...document.querySelectorAll("`+sel+` option")].map(o => o.value).join(" ")`)
}

func TestTerritoriesRefereeOnABoardOfOnesOwn(t *testing.T) {
	// A board of one's own has no map drawn: the judge's console and a
	// named player's page still know its territories and their
	// neighbours, offer the free ones to join on and the moves the rules
	// allow, and say nothing of a map to click.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}, "judge": true,
		"options": map[string]any{"board": ownBoard(`"turn_management":true,"turn_duration":"1h",`)}})
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	judge.until("the console", `document.body.dataset.ready && document.querySelector("#judge select[name=from]")`)
	if got := judge.options("#judge select[name=from]"); got != "A B C" {
		t.Errorf("the join's territories: %q; want A B C", got)
	}
	if txt := eval[string](judge, `document.getElementById("judge").innerText`); strings.Contains(txt, "on the map") {
		t.Errorf("the console speaks of a map it has not:\n%s", txt)
	}
	// alice joins on A, with a link of her own.
	judge.typeInto(`input[name=new-player]`, "alice")
	judge.typeInto(`input[name=nation]`, "Amber")
	judge.choose(`#judge select[name=from]`, "A")
	judge.clickText("#judge", "Send the action")
	judge.until("alice's link", `[...document.querySelectorAll("#judge input.link")].some(i => i.value.includes("#s="))`)
	aliceURL := eval[string](judge, `[...document.querySelectorAll("#judge input.link")].find(i => i.value.includes("#s=")).value`)
	judge.until("A taken", `document.body.dataset.seq === "1" && document.querySelector("#judge select[name=from]")`)
	if got := judge.options("#judge select[name=from]"); got != "B C" {
		t.Errorf("the join's territories once A is held: %q; want B C", got)
	}
	// bob joins on C.
	judge.typeInto(`input[name=new-player]`, "bob")
	judge.typeInto(`input[name=nation]`, "Basalt")
	judge.choose(`#judge select[name=from]`, "C")
	judge.clickText("#judge", "Send the action")
	judge.until("bob joined", `document.body.dataset.seq === "2"`)
	// The judge acts for alice: she may move to B, next to A.
	judge.until("alice offered", `[...document.querySelectorAll("#judge select[name=player] option")].some(o => o.value === "alice")`)
	judge.choose(`#judge select[name=player]`, "alice")
	judge.until("alice's actions", `document.querySelector("#judge select[name=kind] option[value=raise]")`)
	if got := judge.options("#judge select[name=kind]"); !strings.Contains(got, "move") {
		t.Errorf("alice's actions in the console: %q; want a move among them", got)
	}
	judge.choose(`#judge select[name=kind]`, "move")
	if got := judge.options("#judge select[name=to]"); got != "B" {
		t.Errorf("alice's move from A may go to %q; want B", got)
	}
	if txt := judge.text(); !strings.Contains(txt, "A · Alpha") {
		t.Errorf("the console does not name the territories:\n%s", txt)
	}
	// On her own page, alice moves to B, and then may attack C from it.
	alice := b.open("alice", aliceURL, phoneW, phoneH)
	alice.until("alice's actions", `document.body.dataset.ready && document.querySelector("#player form.action")`)
	if txt := eval[string](alice, `document.getElementById("player").innerText`); strings.Contains(txt, "on the map") {
		t.Errorf("alice's page speaks of a map it has not:\n%s", txt)
	}
	alice.choose(`#player select[name=kind]`, "move")
	alice.until("the move to B", `document.querySelector("#player select[name=to]").value === "B"`)
	alice.clickText("#player", "Send the action")
	alice.until("the move made", `document.body.dataset.seq === "3" && document.querySelector("#player select[name=kind]")`)
	alice.until("an attack on C offered", `document.querySelector("#player select[name=kind] option[value=attack]")`)
	alice.choose(`#player select[name=kind]`, "attack")
	if got := alice.options("#player select[name=to]"); got != "C" {
		t.Errorf("alice's attack from B may go to %q; want C", got)
	}
	for _, tb := range []*tab{judge, alice} {
		tb.noErrors()
	}
}

func TestTerritoriesRefereeOffersPassUnderTurnManagementOnly(t *testing.T) {
	// pass ends a nation's actions of a turn: the judge's console and a
	// named player's page offer it under turn management only, where the
	// rules take it.
	s := newSite(t)
	b := newBrowser(t)
	for _, turns := range []bool{false, true} {
		extra := ""
		if turns {
			extra = `"turn_management":true,"turn_duration":"1h",`
		}
		c := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}, "judge": true, "options": map[string]any{"board": ownBoard(extra)}})
		code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "alice", "action": "join Amber A"}, "issue_secret": true})
		if code != 200 {
			t.Fatalf("alice's join: %d %v", code, out)
		}
		aliceURL := out["player"].(map[string]any)["url"].(string)
		if code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "bob", "action": "join Basalt C"}}); code != 200 {
			t.Fatalf("bob's join: %d %v", code, out)
		}
		judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
		judge.until("alice offered", `document.body.dataset.ready && [...document.querySelectorAll("#judge select[name=player] option")].some(o => o.value === "alice")`)
		judge.choose(`#judge select[name=player]`, "alice")
		judge.until("alice's actions", `document.querySelector("#judge select[name=kind] option[value=raise]")`)
		alice := b.open("alice", aliceURL, phoneW, phoneH)
		alice.until("alice's actions", `document.body.dataset.ready && document.querySelector("#player select[name=kind]")`)
		for _, tb := range []*tab{judge, alice} {
			sel := map[*tab]string{judge: "#judge select[name=kind]", alice: "#player select[name=kind]"}[tb]
			if got := tb.options(sel); strings.Contains(got, "pass") != turns {
				t.Errorf("turn management %v: %s is offered %q", turns, tb.name, got)
			}
			tb.noErrors()
		}
	}
}

// holder is a script run before a page's own: while window.__hold is true,
// what the match's event stream brings waits, as a slow connection keeps
// it, and comes once it is false again.
const holder = `(() => {
  window.__hold = false;
  const fetch0 = window.fetch;
  window.fetch = async (...args) => {
    const r = await fetch0(...args);
    if (!String(args[0]).includes("/events") || !r.body) return r;
    const reader = r.body.getReader();
    const body = new ReadableStream({
      start(ctrl) {
        const held = [];
        let ended = false;
        const flush = () => {
          while (!window.__hold && held.length) ctrl.enqueue(held.shift());
          if (ended && !held.length) { clearInterval(timer); ctrl.close(); }
        };
        const timer = setInterval(flush, 20);
        (async () => {
          try {
            for (;;) { const { value, done } = await reader.read(); if (done) break; held.push(value); flush(); }
          } catch (e) { clearInterval(timer); ctrl.error(e); return; }
          ended = true;
          flush();
        })();
      },
      cancel(why) { return reader.cancel(why); },
    });
    return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
  };
})();`

// openHeld opens a tab whose event stream the test may hold (see holder).
func (b *browser) openHeld(name, url string, width, height int64) *tab {
	b.t.Helper()
	tb := b.open(name, "about:blank", width, height)
	tb.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holder})
		return err
	}), chromedp.Navigate(url))
	return tb
}

func TestTerritoriesRefereeJudgeEndsTheTurnAndGivesNewLinks(t *testing.T) {
	// Under turn management the judge's console ends the turn, sent with
	// the move the page last saw: a turn that ended meanwhile is not ended
	// twice, and the judge is told why. A player who has joined is given a
	// new link there; their old one stops working.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}, "judge": true,
		"options": map[string]any{"board": ownBoard(`"turn_management":true,"turn_duration":"1h",`)}})
	move := func(m map[string]any) map[string]any {
		t.Helper()
		code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Judge.Secret, m)
		if code != 200 {
			t.Fatalf("%v: %d %v", m, code, out)
		}
		return out
	}
	turnOf := func() float64 {
		_, m := s.api("GET", "/matches/"+c.ID, c.Judge.Secret, nil)
		return m["view"].(map[string]any)["turn"].(float64)
	}
	alice := move(map[string]any{"move": map[string]any{"player": "alice", "action": "join Amber A"}, "issue_secret": true})["player"].(map[string]any)
	move(map[string]any{"move": map[string]any{"player": "bob", "action": "join Basalt C"}})
	judge := b.openHeld("judge", c.Judge.URL, desktopW, desktopH)
	judge.until("the console", `document.body.dataset.ready && document.body.dataset.stream === "live" && document.body.dataset.seq === "2"`)
	judge.clickText("#judge", "End the turn")
	judge.until("turn 2", `document.body.dataset.seq === "3" && /Turn 2/.test(document.getElementById("board").innerText)`)
	if got := turnOf(); got != 2 {
		t.Fatalf("the turn after the judge ended it: %v; want 2", got)
	}
	// The turn ends meanwhile (another of the judge's programs, say),
	// while the page has not heard of it yet: the page's end-turn is
	// refused, and the judge told.
	eval[bool](judge, "window.__hold = true")
	move(map[string]any{"move": map[string]any{"action": "end-turn"}})
	judge.clickText("#judge", "End the turn")
	judge.until("the refusal", `document.getElementById("refusal").classList.contains("error") && document.getElementById("refusal").innerText.includes("Turn 2 was not ended") && document.querySelector("#judge [role=alert]").innerText.includes("Turn 2 was not ended")`)
	if got := turnOf(); got != 3 {
		t.Errorf("the turn after a stale end-turn: %v; want 3", got)
	}
	eval[bool](judge, "window.__hold = false")
	judge.until("turn 3", `/Turn 3/.test(document.getElementById("board").innerText)`)
	// No end-turn button without turn management.
	plain := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}, "judge": true})
	pj := b.open("judge of a game without turns", plain.Judge.URL, desktopW, desktopH)
	pj.until("the console", `document.body.dataset.ready && document.querySelector("#judge select[name=player]")`)
	if eval[bool](pj, `[...document.querySelectorAll("#judge button")].some(b => b.innerText.includes("End the turn") && b.offsetParent)`) {
		t.Error("the console offers to end a turn without turn management")
	}
	// A new link for alice, and for bob, who had none.
	for _, name := range []string{"alice", "bob"} {
		judge.click(`#judge button[data-player="` + name + `"]`)
		judge.until(name+"'s new link", `[...document.querySelectorAll("#judge .card h3")].some(h => h.textContent === "`+name+`'s new link")`)
	}
	url := eval[string](judge, `[...document.querySelectorAll("#judge .card")].find(c => c.querySelector("h3").textContent === "alice's new link").querySelector("input.link").value`)
	secret := url[strings.Index(url, "#s=")+3:]
	if code, _ := s.api("GET", "/matches/"+c.ID, alice["secret"].(string), nil); code != 401 {
		t.Errorf("alice's old link: %d; want 401", code)
	}
	if code, m := s.api("GET", "/matches/"+c.ID, secret, nil); code != 200 || m["you"].(map[string]any)["name"] != "alice" {
		t.Errorf("alice's new link: %d %v", code, m["you"])
	}
	judge.shot(shots(t), "territories-referee-turns")
	judge.noErrors()
	pj.noErrors()
}

func TestTerritoriesSeatsOnABoardOfOnesOwnNameTheTerritories(t *testing.T) {
	// A game of seats on a board of one's own: the spectator's page names
	// the territories as the seats' pages do (it showed their ids alone,
	// the public board carrying no territories).
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy")),
		"options": map[string]any{"board": ownBoard(""), "turns": 20}})
	s.advance(c, 4)
	if _, v := s.api("GET", "/matches/"+c.ID, "", nil); v["view"] == nil || v["view"].(map[string]any)["map"] == nil {
		t.Fatalf("the public board has no territories: %v", v["view"])
	}
	watch := b.open("spectator", c.Watch, desktopW, desktopH)
	watch.until("the board", `document.body.dataset.ready && document.querySelector("#board table")`)
	if got := eval[string](watch, `document.getElementById("board").textContent`); !strings.Contains(got, " · Alpha") && !strings.Contains(got, " · Beta") && !strings.Contains(got, " · Gamma") {
		t.Errorf("the spectator's board names no territory:\n%s", got)
	}
	watch.noErrors()
}

func TestTerritoriesNamedPlayerPageIsTheirOwnNationInAnyCase(t *testing.T) {
	// Players' names are read exactly as written: Ann and ann are two
	// players. ann's page offers ann's nation's actions, not those of the
	// first nation whose player is named so in another case.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}, "judge": true,
		"options": map[string]any{"board": ownBoard("")}})
	move := func(m map[string]any) map[string]any {
		t.Helper()
		code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Judge.Secret, m)
		if code != 200 {
			t.Fatalf("%v: %d %v", m, code, out)
		}
		return out
	}
	move(map[string]any{"move": map[string]any{"player": "Ann", "action": "join Amber A"}})
	ann := move(map[string]any{"move": map[string]any{"player": "ann", "action": "join Basalt C"}, "issue_secret": true})["player"].(map[string]any)
	page := b.open("ann", ann["url"].(string), desktopW, desktopH)
	page.until("ann's actions", `document.body.dataset.ready && document.querySelector("#player h2")`)
	if got := eval[string](page, `document.querySelector("#player h2").innerText`); got != "Your actions: Basalt" {
		t.Errorf("ann's page: %q; want Your actions: Basalt", got)
	}
}
