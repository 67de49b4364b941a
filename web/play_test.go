package web_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The pages are tested as people use them: in Chromium, against a real
// server over a real SQLite file, by clicks and typing alone. Every game
// is played to its end by people on their pages while a spectator follows
// and the judge acts.

// Screen sizes: a phone's and a desktop's.
const (
	phoneW, phoneH     = 360, 740
	desktopW, desktopH = 1280, 900
)

// shots is where the tests write screenshots: $ARBITER_SCREENSHOTS, or
// nowhere.
func shots(t *testing.T) string {
	dir := os.Getenv("ARBITER_SCREENSHOTS")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func seat(player string) map[string]any { return map[string]any{"player": player} }

func people(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = seat("person")
	}
	return out
}

// owes returns the kind of the first decision the page shows as owed, or
// "" when none is.
func (tb *tab) owes() string {
	return eval[string](tb, `(() => { const r = document.querySelector(".request"); return r ? r.dataset.kind : ""; })()`)
}

// request returns the id of the first decision the page shows as owed.
func (tb *tab) request() string {
	return eval[string](tb, `document.querySelector(".request")?.dataset.request || ""`)
}

// answered waits until the page no longer shows request id as owed.
func (tb *tab) answered(id string) {
	tb.t.Helper()
	tb.until("request "+id+" to be answered", fmt.Sprintf(`!document.querySelector('.request[data-request="%s"]') || document.getElementById("refusal").classList.contains("error")`, id))
}

// status returns the match's status as the page shows it.
func (tb *tab) status() string { return eval[string](tb, "document.body.dataset.status || ''") }

// playAll has the people play, each with act when their page shows a
// decision owed, until the match is over; judge, if not nil, is called
// after every round of the people.
func playAll(t *testing.T, watcher *tab, players []*tab, act func(i int, tb *tab, kind string), judge func(round int)) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for round := 0; watcher.status() == "running"; round++ {
		moved := false
		for i, tb := range players {
			kind := tb.owes()
			if kind == "" {
				continue
			}
			id := tb.request()
			act(i, tb, kind)
			tb.answered(id)
			moved = true
		}
		if judge != nil {
			judge(round)
		}
		if !moved {
			time.Sleep(30 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match is not over after 3 minutes; the spectator sees:\n%s", watcher.text())
		}
	}
}

// over checks that a seat's page, once the match is over, says only that:
// no decision owed or awaited, no move of its own told.
func over(t *testing.T, tb *tab) {
	t.Helper()
	tb.until("the end", `document.body.dataset.status === "over" && document.getElementById("result").innerText.includes("The match is over")`)
	if got := eval[string](tb, `document.getElementById("requests").innerText`); got != "Nothing more is owed: the match is over." {
		t.Errorf("%s: once over, the decisions say %q", tb.name, got)
	}
	if got := eval[string](tb, `document.getElementById("refusal").innerText + document.getElementById("announce").innerText`); got != "" {
		t.Errorf("%s: once over, the page still tells %q", tb.name, got)
	}
}

// clickChoice clicks the first choice the page offers.
func clickChoice(tb *tab) { tb.click(".request button.choice") }

func TestPeoplePlayAjveCivAndReaj(t *testing.T) {
	// "For every game, people play complete matches through the pages
	// alone (clicks and typing), a spectator follows, the judge acts."
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	for _, g := range []struct{ game, bot string }{{"ajveciv", "basic.conquer"}, {"reaj", "adapt"}} {
		t.Run(g.game, func(t *testing.T) {
			c := s.create(map[string]any{"game": g.game, "seats": append(people(2), seat(g.bot)), "options": map[string]any{"turns": 4}, "judge": true})
			watch := b.open("spectator", c.Watch, desktopW, desktopH)
			p0 := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
			p1 := b.open("seat 2", c.Seats[1].URL, desktopW, desktopH)
			judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
			for _, tb := range []*tab{watch, p0, p1, judge} {
				tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
			}
			p0.shot(dir, g.game+"-seat-phone")
			p1.shot(dir, g.game+"-seat-desktop")
			judged := false
			playAll(t, watch, []*tab{p0, p1}, func(i int, tb *tab, kind string) {
				if !judged && i == 1 {
					// The judge ends this turn: the defaults of the
					// open requests, seat 2's included.
					judged = true
					judge.until("seat 2's request on the judge's console", `document.querySelector('.request[data-request="`+p1.request()+`"]')`)
					judge.shot(dir, g.game+"-judge-desktop")
					judge.clickText("#judge", "Play the defaults")
					judge.until("the defaults played", `document.getElementById("refusal").textContent.includes("Played")`)
					return
				}
				clickChoice(tb)
			}, nil)
			watch.until("the end on the spectator's page", `document.getElementById("result").innerText.includes("over")`)
			watch.until("the charts", `document.querySelector("#charts svg.chart")`)
			watch.shot(dir, g.game+"-spectator-desktop")
			if got := watch.text(); !strings.Contains(got, "winner") {
				t.Errorf("the spectator's page tells no winner:\n%s", got)
			}
			// A seat's last board names no turn past the last ("Turn 5 of 4").
			p0.until("the seat's page at the end", `document.getElementById("result").innerText.includes("over")`)
			for _, m := range regexp.MustCompile(`Turn (\d+) of (\d+)`).FindAllStringSubmatch(p0.text(), -1) {
				if now, _ := strconv.Atoi(m[1]); now > 4 {
					t.Errorf("the seat's last board says %q", m[0])
				}
			}
			for _, p := range []*tab{p0, p1} {
				over(t, p)
			}
			// An AjveCiv seat's board says what each society chose last,
			// as the terminal's does.
			if g.game == "ajveciv" && !strings.Contains(p0.text(), "last turn") {
				t.Errorf("the seat's board does not say what each society chose last:\n%s", p0.text())
			}
			for _, tb := range []*tab{watch, p0, p1, judge} {
				tb.noErrors()
			}
		})
	}
}

func TestPeoplePlayTNCC(t *testing.T) {
	// TNCC through the pages: a trade offered in its form and accepted, a
	// war declared and defended in the defence form, a refused action
	// with the rules' reason on the page.
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	c := s.create(map[string]any{"game": "tncc", "seats": append(people(2), seat("nothing")),
		"options": map[string]any{"preset": `{"base":"default","gold_for_war":100,"max_cycles":3}`}, "judge": true})
	watch := b.open("spectator", c.Watch, desktopW, desktopH)
	p0 := b.open("country 1", c.Seats[0].URL, desktopW, desktopH)
	p1 := b.open("country 2", c.Seats[1].URL, phoneW, phoneH)
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	for _, tb := range []*tab{watch, p0, p1, judge} {
		tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	}
	// Every page names the custom preset alike and offers its numbers: the
	// spectator's and the judge's, from the public view, as a seat's.
	for _, tb := range []*tab{watch, p0, judge} {
		tb.until("the preset named, its numbers offered", `document.body.innerText.includes("preset custom (default)") && document.body.innerText.includes("the preset's numbers")`)
	}
	// A refused action: a trade of food for food.
	p0.until("the turn's form", `document.querySelector("form.action")`)
	// Whose turn it is, on the pages of those who owe nothing: TNCC is
	// played one country at a time (they said only "the others are
	// playing").
	p1.until("whose turn", `document.getElementById("not-owed")?.innerText === "Nothing is owed by you now. It is 1 · person's turn."`)
	watch.until("whose turn", `document.getElementById("not-owed")?.innerText.startsWith("It is 1 · person's turn.")`)
	if got := eval[string](watch, `[...document.querySelectorAll("#seats .turn-of")].map(e => e.closest("tr").querySelector("th").innerText).join(",")`); got != "1" {
		t.Errorf("the seats table marks seats %q to play; want 1", got)
	}
	// The judge, who may act for the country, sees its form in the third
	// person; the country sees its own in the second.
	judge.until("the judge's form", `document.querySelector("#requests form.action")`)
	if got := eval[string](judge, `document.getElementById("requests").innerText`); !strings.Contains(got, "country 1's action this turn") || strings.Contains(got, "Your action") {
		t.Errorf("the judge's form for country 1:\n%s", got)
	}
	if got := eval[string](p0, `document.getElementById("requests").innerText`); !strings.Contains(got, "Your action this turn") {
		t.Errorf("country 1's own form:\n%s", got)
	}
	p0.click(`input[name=action][value=trade]`)
	p0.choose(`select[name=give]`, "food")
	p0.typeInto(`input[name=give_n]`, "10")
	p0.choose(`select[name=take]`, "food")
	p0.typeInto(`input[name=take_n]`, "5")
	p0.clickText(".request", "Play this action")
	p0.until("the refusal", `document.getElementById("refusal").innerText.includes("must be gold")`)
	p0.shot(dir, "tncc-refused-desktop")
	// The trade, as the rules allow it: 10 gold for 5 food.
	p0.choose(`select[name=give]`, "gold")
	id := p0.request()
	p0.clickText(".request", "Play this action")
	p0.answered(id)
	// While country 2 owes its answer, the turn is still country 1's:
	// nobody else is told that an answer is owed.
	p1.until("the offer", `document.querySelector("#requests .request")`)
	if _, v := s.api("GET", "/matches/"+c.ID, "", nil); v["turn_of"] != float64(0) {
		t.Errorf("while country 2 owes its answer, the spectator's match says turn_of %v; want 0", v["turn_of"])
	}
	if got := eval[string](watch, `document.getElementById("not-owed")?.innerText || ""`); !strings.HasPrefix(got, "It is 1 · person's turn.") {
		t.Errorf("while country 2 owes its answer, the spectator is told %q", got)
	}
	// The move in words, until a decision is owed again.
	p0.until("the trade told", `document.getElementById("refusal").innerText.startsWith("You played")`)
	if got := eval[string](p0, `document.getElementById("refusal").innerText`); got != "You played: offer country 2 · person 10 gold for 5 food." {
		t.Errorf("country 1's page tells its trade as %q", got)
	}
	step := 0
	playAll(t, watch, []*tab{p0, p1}, func(i int, tb *tab, kind string) {
		step++
		if got := eval[string](tb, `document.getElementById("refusal").innerText`); strings.HasPrefix(got, "You played") {
			t.Errorf("%s owes a decision and is still told %q", tb.name, got)
		}
		switch {
		case kind == "trade answer":
			tb.shot(dir, "tncc-offer-phone")
			tb.clickText(".request", "Accept the trade")
		case kind == "war answer":
			// The decision itself says who attacks, with how many in
			// all: the attacker's flanks are hidden.
			tb.until("the attack told", `document.getElementById("requests").innerText.includes("country 1 · person attacks you with 29 soldiers in all")`)
			tb.shot(dir, "tncc-defence-phone")
			tb.typeInto(`input[name=d-left]`, "0")
			tb.typeInto(`input[name=d-front]`, "20")
			tb.typeInto(`input[name=d-right]`, "0")
			tb.clickText(".request", "Defend")
		case i == 1 && step < 4:
			// Country 2 recruits, typing the number.
			tb.click(`input[name=action][value=recruit]`)
			tb.typeInto(`input[name=n]`, "40")
			tb.clickText(".request", "Play this action")
		case i == 0 && step >= 2 && step < 6:
			// Country 1 recruits, then goes to war against country 2.
			if eval[bool](tb, `!document.querySelector("input[name=action][value=war]").disabled && +document.querySelector("tbody tr.you td:nth-child(5)").innerText > 0`) {
				tb.click(`input[name=action][value=war]`)
				tb.choose(`select[name=target]`, "1")
				tb.typeInto(`input[name=f-left]`, "7")
				tb.typeInto(`input[name=f-front]`, "13")
				tb.typeInto(`input[name=f-right]`, "9")
			} else {
				tb.click(`input[name=action][value=recruit]`)
				tb.typeInto(`input[name=n]`, "30")
			}
			tb.clickText(".request", "Play this action")
		default:
			tb.clickText(".request", "Play this action") // wait
		}
	}, nil)
	watch.until("the end", `document.getElementById("result").innerText.includes("over")`)
	// What happened, told to everyone: the trade and the war.
	watch.until("the trade and the war told", `document.getElementById("events").innerText.includes("offered country 2") && document.getElementById("events").innerText.includes("attacked country 2")`)
	watch.shot(dir, "tncc-spectator-desktop")
	over(t, p0)
	over(t, p1)
	for _, tb := range []*tab{watch, p0, p1, judge} {
		tb.noErrors()
	}
}

func TestPeoplePlayTerritories(t *testing.T) {
	// Territories in seats: each person joins by clicking the map, then
	// raises, attacks and passes through the action form.
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	seats := people(2)
	seats[0] = map[string]any{"player": "person", "name": "Ann"}
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": seats, "options": map[string]any{"turns": 3}, "judge": true})
	watch := b.open("spectator", c.Watch, desktopW, desktopH)
	p0 := b.open("Amber", c.Seats[0].URL, desktopW, desktopH)
	p1 := b.open("Basalt", c.Seats[1].URL, phoneW, phoneH)
	for _, tb := range []*tab{watch, p0, p1} {
		tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	}
	joins := map[int]string{0: "CA", 1: "NV"}
	playAll(t, watch, []*tab{p0, p1}, func(i int, tb *tab, kind string) {
		switch kind {
		case "join":
			tb.shot(dir, fmt.Sprintf("territories-join-%d", i))
			tb.clickMap(joins[i])
		case "action":
			tb.until("the map drawn", `document.querySelector(".map path#CA[fill]")`)
			opts := eval[string](tb, `[...document.querySelector("select[name=kind]").options].map(o => o.value).join(",")`)
			switch {
			case strings.Contains(opts, "attack") && i == 0:
				tb.choose("select[name=kind]", "attack")
				tb.clickMap(joins[1-i]) // the target, on the map
			case strings.Contains(opts, "raise"):
				tb.choose("select[name=kind]", "raise")
				tb.clickMap(joins[i])
			default:
				tb.choose("select[name=kind]", "pass")
			}
			if i == 0 {
				tb.shot(dir, "territories-seat-desktop")
			} else {
				tb.shot(dir, "territories-seat-phone")
			}
			tb.clickText(".request", "Send the action")
		default:
			clickChoice(tb)
		}
	}, nil)
	watch.until("the end", `document.getElementById("result").innerText.includes("over")`)
	watch.shot(dir, "territories-spectator-desktop")
	// The nations table names a seat's player by the name it was given.
	if got := eval[string](watch, `document.querySelector("table[aria-label='the nations']").innerText`); !strings.Contains(got, "Ann (seat 1)") {
		t.Errorf("the nations table:\n%s\nwant Ann's seat named Ann (seat 1)", got)
	}
	for _, tb := range []*tab{watch, p0, p1} {
		tb.noErrors()
	}
}

func TestTerritoriesMapMakesTheAction(t *testing.T) {
	// On a phone, a territory of the seat's tapped first (its armies'
	// circle, which sits over its middle), then a neighbour (its label,
	// or its circle) makes the action the rules allow: a move to an
	// unclaimed neighbour, an attack on another nation's, whatever the
	// form's action was.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2)})
	p0 := b.open("Amber", c.Seats[0].URL, 390, 844)
	p0.until("the join", `document.body.dataset.ready && document.querySelector('.request[data-kind="join"]')`)
	p0.clickMap("OR")
	p0.until("OR joined", `document.querySelector(".map path#OR[fill]")`)
	// Seat 2 joins CA, through the API.
	_, m := s.api("GET", "/matches/"+c.ID, c.Seats[1].Secret, nil)
	q := m["requests"].([]any)[0].(map[string]any)
	if code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Seats[1].Secret, map[string]any{"request": q["id"], "move": "join Basalt CA"}); code != 200 {
		t.Fatalf("seat 2's join: %d %v", code, out)
	}
	p0.until("the action form, CA held", `document.querySelector("form.action") && document.querySelector(".map path#CA[fill]")`)
	circle := func(id string) string { return `document.querySelector('.map circle[id="` + id + `-armies"]')` }
	label := func(id string) string {
		return `[...document.querySelectorAll(".map text")].find(t => t.textContent === "` + id + `")`
	}
	action := `document.querySelector("form.action output").textContent`
	p0.tap("OR's armies", circle("OR"))
	p0.until("OR chosen", action+` === "raise OR"`)
	p0.tap("WA's label", label("WA"))
	p0.until("a move to WA", action+`.startsWith("move OR:") && `+action+`.endsWith(" WA") && document.querySelector("select[name=kind]").value === "move"`)
	p0.tap("OR's armies", circle("OR"))
	p0.tap("CA's armies", circle("CA"))
	p0.until("an attack on CA", action+` === "attack OR CA" && document.querySelector("select[name=kind]").value === "attack"`)
	p0.choose("select[name=kind]", "raise")
	p0.tap("OR's label", label("OR"))
	p0.tap("WA's armies: none, its shape", `document.querySelector(".map path#WA")`)
	p0.until("a move to WA again", action+`.startsWith("move OR:") && `+action+`.endsWith(" WA")`)
	seq := eval[string](p0, "document.body.dataset.seq")
	p0.clickText(".request", "Send the action")
	p0.until("the move made", `document.body.dataset.seq !== "`+seq+`" && document.querySelector(".map path#WA[fill]")`)
	p0.noErrors()
}

func TestTerritoriesReferee(t *testing.T) {
	// The referee's judge makes players join (one with a link of their
	// own), acts for a nation; the player acts for themself on the map;
	// the match ends when one nation is left.
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	c := s.create(map[string]any{"game": "territories", "mode": "referee", "seats": []any{}})
	watch := b.open("spectator", c.Watch, phoneW, phoneH)
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	judge.until("the console", `document.body.dataset.ready && document.querySelector("select[name=player]")`)
	// alice joins Pacifica on CA, with a link of her own.
	judge.typeInto(`input[name=new-player]`, "alice")
	judge.typeInto(`input[name=nation]`, "Pacifica")
	judge.choose(`#judge select[name=from]`, "CA")
	judge.clickText("#judge", "Send the action")
	judge.until("alice's link", `[...document.querySelectorAll("#judge input.link")].some(i => i.value.includes("#s="))`)
	aliceURL := eval[string](judge, `[...document.querySelectorAll("#judge input.link")].find(i => i.value.includes("#s=")).value`)
	// bob joins Desert on NV, by a click on the map.
	judge.choose(`select[name=player]`, "")
	judge.typeInto(`input[name=new-player]`, "bob")
	judge.typeInto(`input[name=nation]`, "Desert")
	judge.clickMap("NV")
	judge.until("NV chosen", `document.querySelector("#judge select[name=from]").value === "NV"`)
	judge.clickText("#judge", "Send the action")
	judge.until("bob on the map", `document.querySelector(".map path#NV[fill]")`)
	judge.shot(dir, "territories-referee-desktop")
	// The judge acts for a player who has joined: bob raises an army on NV.
	judge.until("bob offered", `[...document.querySelectorAll("#judge select[name=player] option")].some(o => o.value === "bob")`)
	judge.choose(`#judge select[name=player]`, "bob")
	judge.until("bob's actions", `document.querySelector("#judge select[name=kind] option[value=raise]")`)
	judge.choose(`#judge select[name=kind]`, "raise")
	judge.choose(`#judge select[name=from]`, "NV")
	judge.clickText("#judge", "Send the action")
	judge.until("bob's army raised", `document.body.dataset.seq === "3" && /4 arm/.test(document.querySelector(".map path#NV title").textContent)`)
	alice := b.open("alice", aliceURL, phoneW, phoneH)
	alice.until("alice's actions", `document.body.dataset.ready && document.querySelector("#player form.action")`)
	// On her phone the map leaves its list of nations to the table below
	// it, and may be drawn larger, to scroll across; it stays so as the
	// board changes.
	if vb := eval[string](alice, `document.querySelector(".map svg").getAttribute("viewBox")`); vb != "0 0 740 590" || eval[bool](alice, `!!document.querySelector(".map #nations-list")`) {
		t.Errorf("the map on a phone: viewBox %q; want the map without its list of nations (0 0 740 590)", vb)
	}
	alice.clickText("#board", "Enlarge the map")
	alice.until("the map enlarged", `document.querySelector(".map svg").getBoundingClientRect().width > 1.5 * document.querySelector(".map").clientWidth`)
	for k := 0; alice.status() == "running"; k++ {
		if k > 80 {
			t.Fatalf("alice has not won after 80 actions:\n%s", alice.text())
		}
		armies := eval[int](alice, `(() => { const h = document.querySelector(".map path#CA title").textContent.match(/(\d+) arm/); return h ? +h[1] : 0; })()`)
		seq := eval[string](alice, "document.body.dataset.seq")
		if armies < 5 {
			alice.choose(`#player select[name=kind]`, "raise")
		} else {
			alice.choose(`#player select[name=kind]`, "attack")
			alice.clickMap("NV")
		}
		alice.clickText("#player", "Send the action")
		alice.until("the action told", `document.body.dataset.seq !== "`+seq+`" || document.getElementById("refusal").classList.contains("error")`)
		if k == 2 {
			alice.shot(dir, "territories-player-phone")
		}
	}
	if !eval[bool](alice, `document.querySelector(".map").classList.contains("enlarged")`) {
		t.Error("alice's enlarged map is drawn small again after her actions")
	}
	alice.clickText("#board", "Fit the map to the screen")
	// Once the match is over, nobody is offered an action.
	alice.until("alice's actions gone", `document.body.dataset.status === "over" && !document.querySelector("#player form")`)
	judge.until("the judge's tools gone", `document.body.dataset.status === "over" && !document.querySelector("#judge form, #judge button") && document.getElementById("judge").innerText.includes("The match has ended")`)
	watch.until("the end", `document.body.dataset.status === "over"`)
	if !strings.Contains(watch.text(), "Pacifica (alice) is the last nation") {
		t.Errorf("the spectator is not told who won:\n%s", watch.text())
	}
	// The home page lists the referee's match, which has no seats.
	home := b.open("home", s.URL()+"/", desktopW, desktopH)
	home.until("the match listed", `document.querySelector('#match-list a[href="/m/`+c.ID+`"]') && document.getElementById("match-list").innerText.includes("players join as they come")`)
	for _, tb := range []*tab{watch, judge, alice, home} {
		tb.noErrors()
	}
}

func TestZombiePartyFromTheHomePage(t *testing.T) {
	// "A newcomer runs arbiter serve, opens the home page, starts a zombie
	// game for five friends, and each plays from their phone's link."
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	home := b.open("home", s.URL()+"/", phoneW, phoneH)
	home.until("the form", "document.body.dataset.ready")
	home.shot(dir, "home-phone")
	home.choose("#game", "zombie")
	home.choose("#mode", "party")
	// Each seat of the form is numbered on the page (a phone showed an
	// indented list, which seat first nobody could tell).
	if got := eval[string](home, `[...document.querySelectorAll("#seats li")].map(li => li.querySelector(".seat-no").innerText).join(",")`); got != "Seat 1,Seat 2,Seat 3,Seat 4,Seat 5" {
		t.Errorf("the form's seats are numbered %q", got)
	}
	names := []string{"Ann", "Bob", "Cy", "Di", "Eve"}
	for i, n := range names {
		home.typeInto(fmt.Sprintf("#seats li:nth-child(%d) input[name=name]", i+1), n)
	}
	home.typeInto("#opt-turns", "2")
	home.typeInto("#opt-antibodies", "1")
	home.click("#judge")
	home.click("#start")
	home.until("the links", `document.querySelectorAll("#link-cards .card img[src^=blob]").length === 7`)
	home.shot(dir, "home-links-phone")
	links := eval[[]string](home, `[...document.querySelectorAll("#link-cards input.link")].map(i => i.value)`)
	if len(links) != 7 {
		t.Fatalf("%d links; want five seats', the judge's and the spectators'", len(links))
	}
	var friends []*tab
	for i, n := range names {
		friends = append(friends, b.open(n, links[i], phoneW, phoneH))
	}
	judge := b.open("judge", links[5], desktopW, desktopH)
	watch := b.open("spectator", links[6], desktopW, desktopH)
	for _, tb := range append(friends, judge, watch) {
		tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	}
	for i, tb := range friends {
		if strings.Contains(eval[string](tb, "location.href"), "#s=") {
			t.Errorf("%s's page keeps the secret in its address", names[i])
		}
	}
	friends[0].until("the plan", `document.querySelector("form.plan")`)
	friends[0].shot(dir, "zombie-seat-phone")
	// The plan in words names the players as the table beside it does
	// (the default read "P2" where the button beside it said "touch Bob").
	friends[0].click(`input[name=touch-2]`)
	if got := eval[string](friends[0], `document.querySelector("form.plan").innerText`); !strings.Contains(got, "the plan: Cy") || !strings.Contains(got, "plan is the default: Bob.") {
		t.Errorf("Ann's plan does not name the players:\n%s", got)
	}
	friends[0].click(`input[name=touch-2]`)
	judge.shot(dir, "zombie-judge-desktop")
	// The judge may decide for any seat: each form speaks of its seat by
	// name, never as "you" or "my".
	judge.until("the seats' forms", `document.querySelectorAll("#requests form.plan").length === 5`)
	forms := eval[string](judge, `document.getElementById("requests").innerText`)
	for _, n := range names {
		if !strings.Contains(forms, "Send "+n+"'s plan") || !strings.Contains(forms, n+"'s plan for turn 1") {
			t.Errorf("the judge's form for %s does not name them:\n%s", n, forms)
		}
	}
	for _, first := range []string{"You are", "Send my plan", "Your plan", "my turn", "you hold"} {
		if strings.Contains(forms, first) {
			t.Errorf("the judge's forms speak as the seat (%q):\n%s", first, forms)
		}
	}
	ended, told := false, false
	playAll(t, watch, friends, func(i int, tb *tab, kind string) {
		if i == 4 && !ended {
			// Eve is slow: the judge ends the turn without her.
			ended = true
			judge.clickText("#judge", "Play the defaults")
			judge.until("the defaults played", `document.getElementById("refusal").textContent.includes("Played")`)
			return
		}
		next := (i + 1) % 5
		tb.click(fmt.Sprintf(`input[name=touch-%d]`, next))
		if eval[bool](tb, `!!document.querySelector("input[name=precaution-`+fmt.Sprint(next)+`]:not(:disabled)")`) {
			tb.click(fmt.Sprintf(`input[name=precaution-%d]`, next))
		}
		id := tb.request()
		tb.clickText(".request", "Send my plan")
		if i == 0 && !told {
			// Ann's plan, in words, while the others plan.
			told = true
			tb.answered(id)
			tb.until("Ann's plan told", `document.getElementById("refusal").innerText.startsWith("You played")`)
			if got := eval[string](tb, `document.getElementById("refusal").innerText`); !strings.HasPrefix(got, "You played: touch Bob") {
				t.Errorf("Ann's page tells her plan as %q; want it in words", got)
			}
		}
	}, nil)
	watch.until("the end", `document.getElementById("result").innerText.includes("over")`)
	// The story tells what the judge announced to everyone, to the end.
	watch.until("the announcements in the story", `document.getElementById("events").innerText.includes("at the start") && document.getElementById("events").innerText.includes("GAME OVER")`)
	watch.shot(dir, "zombie-spectator-desktop")
	for i, tb := range friends {
		tb.until("the end on "+names[i]+"'s phone", `document.body.dataset.status === "over"`)
		if !strings.Contains(tb.text(), "You are") {
			t.Errorf("%s's page does not tell them who they are", names[i])
		}
		tb.noErrors()
	}
	judge.noErrors()
	watch.noErrors()
}

func TestZombieJudgeScript(t *testing.T) {
	// The zombie judge's console: the roster and the script's commands
	// typed in, a refused line with its reason, the script so far; the
	// players' sheets follow.
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	names := []string{"Ann", "Bob", "Cy", "Di"}
	var seats []any
	for _, n := range names {
		seats = append(seats, map[string]any{"player": "person", "name": n})
	}
	c := s.create(map[string]any{"game": "zombie", "mode": "judge", "seats": seats})
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	ann := b.open("Ann", c.Seats[0].URL, phoneW, phoneH)
	watch := b.open("spectator", c.Watch, phoneW, phoneH)
	for _, tb := range []*tab{judge, ann, watch} {
		tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	}
	judge.clickText("#judge", "Write a roster")
	judge.until("the roster", `document.querySelector("textarea[name=script]").value.includes("GAME_START")`)
	judge.typeInto("textarea[name=script]", "ZOMBIE Bob\nHUMAN Ann\nHUMAN Cy\nHUMAN Di\nGAME_START 2\n")
	judge.clickText("#judge", "Enter them all")
	judge.until("the game started", `document.body.innerText.includes("in progress")`)
	command := func(line string) string {
		judge.typeInto("input[name=command]", line)
		judge.clickText("#judge", "Enter")
		judge.until("the line judged", `document.getElementById("refusal").textContent.includes(`+fmt.Sprintf("%q", line)+`) || document.getElementById("refusal").classList.contains("error")`)
		return eval[string](judge, `document.getElementById("refusal").innerText`)
	}
	if got := command("INTERACT Ann Ann"); !strings.Contains(got, "E_SELF_INTERACTION") {
		t.Errorf("a refused line shows %q; want the rules' reason, E_SELF_INTERACTION", got)
	}
	for _, l := range []string{"INTERACT Ann Cy", "INTERACT Bob Di", "NEXT_TURN", "INTERACT Ann/p Bob", "INTERACT Cy Di", "NEXT_TURN"} {
		if got := command(l); !strings.Contains(got, "done") {
			t.Fatalf("%s: %s", l, got)
		}
	}
	judge.until("the script so far", `document.querySelectorAll("#judge ol li").length >= 11`)
	judge.shot(dir, "zombie-judge-script-desktop")
	for _, tb := range []*tab{judge, ann, watch} {
		tb.until("the end", `document.body.dataset.status === "over"`)
	}
	// Over: the judge keeps the script to read, and nothing to enter.
	judge.until("the script kept", `document.querySelectorAll("#judge ol li").length >= 11 && !document.querySelector("#judge input[name=command], #judge textarea")`)
	ann.until("Ann's sheet", `document.body.innerText.includes("after turn 2")`)
	ann.shot(dir, "zombie-sheet-phone")
	for _, tb := range []*tab{judge, ann, watch} {
		tb.noErrors()
	}
}

func TestZombieJudgeConsoleNamesUnnamedSeats(t *testing.T) {
	// A judge's game made from the home page with no names typed (they
	// are optional): the seats are P1, P2, ... in the script, as the
	// rules refuse "person" (no seat), and the console writes its roster
	// and offers its commands with those names, so that the roster it
	// writes starts the game.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "zombie", "mode": "judge", "seats": []any{
		map[string]any{"player": "person"}, map[string]any{"player": "person"}, map[string]any{"player": "person", "name": "Cy"}}})
	judge := b.open("judge", c.Judge.URL, desktopW, desktopH)
	judge.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
	if got := eval[string](judge, `[...document.querySelectorAll("#zombie-commands option")].map((o) => o.value).filter((v) => v.startsWith("INTERACT")).join(", ")`); !strings.Contains(got, "INTERACT P1 P2") || !strings.Contains(got, "INTERACT P2 Cy") {
		t.Errorf("the commands offered: %q; want the seats by their script's names, INTERACT P1 P2 and INTERACT P2 Cy among them", got)
	}
	judge.clickText("#judge", "Write a roster")
	judge.until("the roster", `document.querySelector("textarea[name=script]").value.includes("GAME_START")`)
	if got := eval[string](judge, `document.querySelector("textarea[name=script]").value`); got != "ZOMBIE P1\nHUMAN P2\nHUMAN Cy\nGAME_START" {
		t.Errorf("the roster written: %q; want the seats by their script's names", got)
	}
	judge.clickText("#judge", "Enter them all")
	judge.until("the game started", `document.body.innerText.includes("in progress")`)
	judge.noErrors()
}

func TestZombiePartyNamesItsLastSurvivor(t *testing.T) {
	// Friends who gave their names see who won by name: the rules' "P2 is
	// the last survivor" is told as Bob's, on his phone and in the replay
	// viewer, as the rest of their pages name him. (Seed 3 with every plan
	// its default ends with P2 the last survivor.)
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "zombie", "mode": "party", "seed": 3,
		"seats":   []any{map[string]any{"player": "person", "name": "Ann"}, map[string]any{"player": "person", "name": "Bob"}, map[string]any{"player": "person", "name": "Cy"}},
		"options": map[string]any{"turns": 3, "antibodies": 1, "zombies": 1}})
	s.advance(c, 1000)
	bob := b.open("Bob", c.Seats[1].URL, phoneW, phoneH)
	bob.until("the end", `document.getElementById("result").innerText.includes("last survivor")`)
	if got := eval[string](bob, `document.getElementById("result").innerText`); !strings.Contains(got, "humans win: Bob is the last survivor") {
		t.Errorf("Bob's page tells the end as:\n%s\nwant Bob named the last survivor", got)
	}
	bob.noErrors()
	r := b.open("the replay", s.URL()+"/replay?match="+c.ID, phoneW, phoneH)
	r.until("how it ended", `document.getElementById("result").innerText.includes("last survivor")`)
	if got := eval[string](r, `document.getElementById("result").innerText`); !strings.Contains(got, "humans win: Bob is the last survivor") {
		t.Errorf("the replay viewer tells the end as:\n%s\nwant Bob named the last survivor", got)
	}
	r.noErrors()
}

func TestTerritoriesBoardAtTheEndSaysItIsOver(t *testing.T) {
	// Once a territories match is over, its board says so, on a seat's page
	// and at the replay's last move: not "Turn 3 · 1 action left" after
	// the 2 turns it was to last, as if a turn were under way.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy")), "options": map[string]any{"turns": 2}})
	s.advance(c, 1000)
	p := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
	p.until("the end", `document.body.dataset.status === "over" && document.querySelector("#board p")`)
	if got := eval[string](p, `document.querySelector("#board p").innerText`); strings.Contains(got, "left") || !strings.HasPrefix(got, "The match is over") {
		t.Errorf("the seat's board, once the match is over, says %q", got)
	}
	// The results table says what breaks a tie of scores: two seats of the
	// same territories ranked apart with no reason shown.
	if got := eval[string](p, `document.getElementById("ranked-by")?.innerText || ""`); !strings.Contains(got, "then by armies when territories are level") {
		t.Errorf("the results say of the ranking %q", got)
	}
	// The line at the top tells the end once: it said "the match is over
	// · over · move 4".
	p.until("the stream's end", `document.getElementById("live").innerText === "the match is over"`)
	if got := eval[string](p, `document.getElementById("live").parentElement.innerText`); strings.Count(got, "over") != 1 || !strings.Contains(got, "the match is over · move ") {
		t.Errorf("the status line of a match over says %q", got)
	}
	p.noErrors()
	r := b.open("the replay", s.URL()+"/replay?match="+c.ID, phoneW, phoneH)
	r.until("the viewer", `document.body.dataset.ready && document.querySelector("#board p")`)
	r.click("#last")
	r.until("the last move", `document.getElementById("where").innerText.includes("Move " + document.getElementById("goto").max) || +document.getElementById("seek").value === +document.getElementById("seek").max`)
	if got := eval[string](r, `document.querySelector("#board p").innerText`); strings.Contains(got, "left") || !strings.HasPrefix(got, "The match is over") {
		t.Errorf("the replay's board at the last move says %q", got)
	}
	r.click("#first")
	r.until("the first move", `+document.getElementById("seek").value === 0`)
	if got := eval[string](r, `document.querySelector("#board p").innerText`); strings.HasPrefix(got, "The match is over") {
		t.Errorf("the replay's board at the start says %q", got)
	}
	r.noErrors()
}

func TestTNCCBoardAtTheEndSaysItIsOver(t *testing.T) {
	// Once every cycle of a TNCC match is played, its board says so, on a
	// seat's page, the spectator's and at the replay's last move: not
	// "Cycle 3 of 2" (the view's cycle is one past the last), as if a
	// cycle were under way after the last.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": append(people(1), seat("turtle")), "options": map[string]any{"preset": `{"base":"default","max_cycles":2}`}})
	s.advance(c, 1000)
	cycle := `document.querySelector("#board p").innerText`
	p := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
	p.until("the end", `document.body.dataset.status === "over" && document.querySelector("#board p")`)
	if got := eval[string](p, cycle); !strings.HasPrefix(got, "All 2 cycles played") {
		t.Errorf("the seat's board, once every cycle is played, says %q", got)
	}
	p.noErrors()
	w := b.open("spectator", c.Watch, phoneW, phoneH)
	w.until("the end", `document.body.dataset.status === "over" && document.querySelector("#board p")`)
	if got := eval[string](w, cycle); strings.Contains(got, "Cycle") || !strings.HasPrefix(got, "The match is over") {
		t.Errorf("the spectator's board, once the match is over, says %q", got)
	}
	w.noErrors()
	r := b.open("the replay", s.URL()+"/replay?match="+c.ID+"#s="+c.Seats[0].Secret, phoneW, phoneH)
	r.until("the viewer", `document.body.dataset.ready && document.querySelector("#board p")`)
	r.click("#last")
	r.until("the last move", `+document.getElementById("seek").value === +document.getElementById("seek").max`)
	if got := eval[string](r, cycle); !strings.HasPrefix(got, "All 2 cycles played") {
		t.Errorf("the replay's board at the last move says %q", got)
	}
	r.click("#first")
	r.until("the first move", `+document.getElementById("seek").value === 0`)
	if got := eval[string](r, cycle); !strings.HasPrefix(got, "Cycle 1 of 2") {
		t.Errorf("the replay's board at the start says %q", got)
	}
	r.noErrors()
}

func TestSeatIsToldHowItDid(t *testing.T) {
	// At the end, a seat's page says in words how the match went for it:
	// that it won (and with whom), or its rank and who won; its row of
	// the results says "(you)". Before, a person read a table of ranks
	// and scores in which nothing but bold type told which row was theirs.
	s := newSite(t)
	b := newBrowser(t)
	for _, g := range []struct {
		name string
		body map[string]any
	}{
		{"reaj", map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 3}}},
		{"tncc", map[string]any{"game": "tncc", "seats": append(people(1), seat("turtle")), "options": map[string]any{"preset": `{"base":"default","max_cycles":2}`}}},
	} {
		c := s.create(g.body)
		s.advance(c, 1000)
		_, m := s.api("GET", "/matches/"+c.ID, "", nil)
		res := m["result"].(map[string]any)
		var want string
		winners := fmt.Sprint(res["winners"])
		switch {
		case winners == "[0]":
			want = "You won."
		case winners == "[0 1]":
			want = "You won, with 2 · " + c.Seats[1].Player + "."
		default:
			want = fmt.Sprintf("You did not win: your rank is %v of 2; the winner is 2 · %s.", res["ranks"].([]any)[0], c.Seats[1].Player)
		}
		p := b.open(g.name+" seat 1", c.Seats[0].URL, phoneW, phoneH)
		p.until("the end", `document.body.dataset.status === "over" && document.getElementById("result").innerText.includes("The match is over")`)
		if got := eval[string](p, `document.getElementById("you-did")?.innerText || ""`); got != want {
			t.Errorf("%s (winners %s): the seat is told %q; want %q", g.name, winners, got, want)
		}
		if got := eval[string](p, `document.querySelector("#result tr.you th")?.innerText || ""`); got != "1 · person (you)" {
			t.Errorf("%s: the seat's row of the results is %q", g.name, got)
		}
		p.noErrors()
		// The spectator is told no "you".
		w := b.open(g.name+" spectator", c.Watch, phoneW, phoneH)
		w.until("the end", `document.getElementById("result").innerText.includes("The match is over")`)
		if got := eval[string](w, `document.getElementById("result").innerText`); strings.Contains(got, "You ") || strings.Contains(got, "(you)") {
			t.Errorf("%s: the spectator's results say %q", g.name, got)
		}
	}
}

func TestDoubleTapSendsOneMove(t *testing.T) {
	// Two taps on a decision's button before its answer is back (a double
	// tap, or an impatient one on a slow network) send one move: the
	// second sent the same request again, the server refused it as no
	// longer open (409), and the page told that refusal ("request 1 is not
	// open ...") over the move just played.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "tncc", "seats": append(people(1), seat("turtle")), "options": map[string]any{"preset": "tribe"}})
	p := b.open("country 1", c.Seats[0].URL, phoneW, phoneH)
	p.until("the action's form", `document.body.dataset.stream === 'live' && document.querySelector(".request[data-kind=turn] button.primary")`)
	before := eval[string](p, "document.body.dataset.seq")
	eval[bool](p, `(() => { const b = document.querySelector(".request[data-kind=turn] button.primary"); b.click(); b.click(); return true; })()`)
	p.until("the move played", `document.body.dataset.seq !== "`+before+`" && !document.getElementById("refusal").innerText.startsWith("Sending")`)
	time.Sleep(300 * time.Millisecond) // a second answer, if one was sent
	if got := eval[string](p, `document.getElementById("refusal").innerText`); got != "" && !strings.HasPrefix(got, "You played: ") {
		t.Errorf("after a double tap the page says %q", got)
	}
	for _, f := range p.failures() {
		if strings.Contains(f, "/moves") {
			t.Errorf("a move the page sent failed: %s", f)
		}
	}
	p.noErrors()
}

// twoLands is a board of one's own of two territories, A and B,
// neighbours: a seat that joins one has the other's nation next to it.
const twoLands = `{"map":"none","territories":[{"id":"A","name":"Alpha","neighbors":["B"]},{"id":"B","name":"Beta","neighbors":["A"]}]}`

func TestTerritoriesSeatIsToldWhatItsActionDid(t *testing.T) {
	// A person attacks from their seat's page while a bot plays at once
	// after them: the page tells, until their next action, what their
	// attack did (its roll, the losses) and what the bot did since, as
	// the terminal's "Since your last action" does. Before, "You played:
	// attack ..." gave way to the next decision at once, and the roll and
	// the losses were never shown: only a conquest reached "What
	// happened".
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), seat("greedy")), "seed": 1,
		"options": map[string]any{"board": twoLands, "turns": 30}, "time": map[string]any{"decision_ms": 60000}})
	p := b.open("Amber", c.Seats[0].URL, 375, 667)
	p.until("the join", `document.body.dataset.stream === "live" && document.querySelector('.request[data-kind="join"] button.choice')`)
	p.clickText(".request", "A")
	p.until("the action form", `document.querySelector('.request[data-kind="action"] select[name=kind]')`)
	p.choose("select[name=kind]", "attack")
	p.until("the attack", `document.querySelector("form.action output").textContent === "attack A B"`)
	p.clickText(".request", "Send the action")
	// The bot plays its action at once; then the seat owes its next one,
	// or the match is over.
	p.until("the next decision", `document.querySelector('.request[data-kind="action"]') && !document.getElementById("refusal").innerText.startsWith("Sending") || document.body.dataset.status === "over"`)
	since := `document.getElementById("since")`
	p.until("what the attack did, and what the bot did", since+`.checkVisibility() && `+since+`.innerText.includes("seat 2 (Basalt)")`)
	p.shot(shots(t), "territories-since-phone")
	got := eval[string](p, since+`.innerText`)
	if !strings.HasPrefix(got, "Since your last action\n") || strings.Contains(got, "not shown") || !regexp.MustCompile(`turn 1 · your action: seat 1 \(Amber\) attacks Basalt in B from A: 3 against 3, roll \d+ (>|≤) 10: (success; Basalt|failure; Amber) loses \d+ arm`).MatchString(got) {
		t.Errorf("the seat is told:\n%s\nwant its attack with its roll and losses", got)
	}
	if n := strings.Count(got, "your action: "); n != 1 {
		t.Errorf("the seat is told of %d actions of its own since its last:\n%s", n, got)
	}
	// It stays while the seat thinks about its next action.
	time.Sleep(1500 * time.Millisecond)
	if again := eval[string](p, since+`.innerText`); !strings.Contains(again, "your action: seat 1 (Amber) attacks") {
		t.Errorf("a moment later the seat is told:\n%s", again)
	}
	p.noErrors()
}

func TestTerritoriesFromTheHomePageIsPlayedAgainstTheAI(t *testing.T) {
	// A newcomer who chooses territories on the home page and clicks
	// Start plays a seat against the AI: the way of playing starts as
	// seats (a person and bots), the referee one choice away, and a line
	// says what each is for. Before, it started as the referee: no seats,
	// no AI, and the links were a judge's console's and a spectator's.
	s := newSite(t)
	b := newBrowser(t)
	home := b.open("home", s.URL()+"/", 375, 667)
	home.until("the form", "document.body.dataset.ready")
	home.choose("#game", "territories")
	if got := eval[string](home, `document.getElementById("mode").value`); got != "seats" {
		t.Errorf("territories' way of playing starts as %q; want seats", got)
	}
	lines := eval[string](home, `document.getElementById("modes-for").checkVisibility() ? document.getElementById("modes-for").innerText : ""`)
	if !regexp.MustCompile(`(?m)^referee: for a game master or a program .*\n(?s:.*)^seats: to play it: you against the AI`).MatchString(lines) {
		t.Errorf("the ways of playing are told:\n%s\nwant a line for each, what it is for", lines)
	}
	seats := eval[string](home, `[...document.querySelectorAll("#seats select[name=player]")].map(s => s.value).join(",")`)
	if !strings.HasPrefix(seats, "person,") || !strings.Contains(seats, "greedy") {
		t.Errorf("the seats start as %q; want a person and bots", seats)
	}
	home.click("#start")
	home.until("the links", `document.body.dataset.created`)
	cards := eval[string](home, `[...document.querySelectorAll("#link-cards .card")].map(c => c.innerText.split("\n")[0]).join(",")`)
	if !strings.HasPrefix(cards, "Seat 1") || strings.Contains(cards, "judge") {
		t.Errorf("the links are %q; want seat 1's, to play, and no judge's", cards)
	}
	id := eval[string](home, "document.body.dataset.created")
	if _, m := s.api("GET", "/matches/"+id, "", nil); m["mode"] != "seats" || len(m["seats"].([]any)) < 2 {
		t.Errorf("the match started is %v with seats %v", m["mode"], m["seats"])
	}
	// The referee is one choice away, and says it has no seats.
	home.choose("#mode", "referee")
	if got := eval[string](home, `document.getElementById("seats").closest("fieldset").hidden + " " + document.getElementById("judge").checked`); got != "true true" {
		t.Errorf("as the referee, the seats are hidden and the judge ticked: %q", got)
	}
	// A game of one way of playing lists none.
	home.choose("#game", "tncc")
	if got := eval[bool](home, `document.getElementById("modes-for").hidden && document.getElementById("mode-label").hidden`); !got {
		t.Error("tncc, of one way of playing, lists ways of playing")
	}
	home.noErrors()
}

func TestLateMoveIsToldPlainly(t *testing.T) {
	// A move sent after its decision was played for the seat (its time
	// ran out, or the judge played the defaults) while the page had not
	// heard of it yet is told in plain words, and the page moves on to
	// the decision owed now. Before, it showed the server's words for
	// programs: "request 1 is not open; ... read the match again for the
	// requests open now".
	s := newSite(t)
	b := newBrowser(t)
	for _, x := range []struct {
		how, want string
		body      map[string]any
	}{
		{"the judge", `^Too late: the judge already played this decision for you, with its default: .+\. Here is your next one\.$`,
			map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 4}, "judge": true}},
		{"the deadline", `^Too late: this decision was already played for you \(time ran out\), with its default: .+\. Here is your next one\.$`,
			map[string]any{"game": "reaj", "seats": append(people(1), seat("adapt")), "options": map[string]any{"turns": 4}, "time": map[string]any{"people_ms": 2500}}},
	} {
		c := s.create(x.body)
		p := b.openHeld("seat 1, "+x.how, c.Seats[0].URL, 375, 667)
		p.until("the decision", `document.body.dataset.stream === "live" && document.querySelector(".request button.choice")`)
		// The page hears nothing more for now, and owes what it shows then
		// (held first: with a deadline of 2.5 s, a default played between
		// the two would have the page move on to a request that is open,
		// and its move played, not late).
		eval[bool](p, "window.__hold = true")
		first := p.request()
		if x.how == "the judge" {
			if code, out := s.api("POST", "/matches/"+c.ID+"/defaults", c.Judge.Secret, nil); code != 200 {
				t.Fatalf("the judge's defaults: %d %v", code, out)
			}
		} else {
			deadline := time.Now().Add(30 * time.Second)
			for {
				_, m := s.api("GET", "/matches/"+c.ID, c.Seats[0].Secret, nil)
				if q, _ := m["requests"].([]any); len(q) > 0 && fmt.Sprint(q[0].(map[string]any)["id"]) != first {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the deadline played nothing")
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		clickChoice(p)
		line := `document.getElementById("refusal").innerText`
		p.until("the refusal told", line+`.startsWith("Too late") || `+line+`.includes("not open")`)
		got := eval[string](p, line)
		t.Logf("%s: %s", x.how, got)
		if !regexp.MustCompile(x.want).MatchString(got) {
			t.Errorf("%s: the late move is told %q; want %s", x.how, got, x.want)
		}
		if eval[bool](p, `document.getElementById("refusal").classList.contains("error")`) {
			t.Errorf("%s: the late move is told as an error", x.how)
		}
		if id := p.request(); id == "" || id == first {
			t.Errorf("%s: the page owes request %q; want the next one, not %s", x.how, id, first)
		}
		eval[bool](p, "window.__hold = false")
		p.noErrors()
	}
}
