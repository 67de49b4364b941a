package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/web"
)

// record plays one match of game among bots and returns its record.
func record(t *testing.T, game string, players []string, options map[string]string) []byte {
	t.Helper()
	g, err := catalog.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = g.Series(context.Background(), catalog.SeriesOptions{Players: players, Seed: 0x51ab1e5eed, Games: 1, Options: options,
		Played: func(p catalog.Played) error { return p.WriteRecord(&b) }})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// page writes the replay viewer of rec, for viewpoints, as one file and
// returns its file:// address.
func viewerPage(t *testing.T, rec []byte, points []catalog.Viewpoint) string {
	t.Helper()
	v, err := catalog.ReplayViewer(rec, catalog.ViewerOptions{Viewpoints: points})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(v)
	file := filepath.Join(t.TempDir(), "replay.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := web.WriteReplay(f, "a replay", data); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return "file://" + file
}

func TestReplayViewerSeeksALongMatchAtOnce(t *testing.T) {
	// "The replay viewer seeks to any move of a 10,000-move record in
	// under 100 ms (measured in the browser)."
	rec := record(t, "tncc", []string{"nothing", "nothing", "turtle", "nothing"}, map[string]string{"preset": `{"base":"default","max_cycles":2500}`})
	if n := bytes.Count(rec, []byte("\n")) - 2; n < 10000 {
		t.Fatalf("the record has %d moves; want 10,000", n)
	}
	url := viewerPage(t, rec, []catalog.Viewpoint{catalog.JudgeView, catalog.SeatView(2)})
	b := newBrowser(t)
	r := b.open("viewer", url, desktopW, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	// Seeks far apart, each away from the view made last. The slowest
	// seek of a round counts, and the best of three rounds: a machine
	// busy with other work slows a round, not the viewer.
	worst := eval[float64](r, `(() => { const n = +document.getElementById("seek").max; let best = Infinity;
		for (let round = 0; round < 3; round++) { let worst = 0;
			for (const i of [9999, 17, 5003, n, 2500, 7777, 1, 8191, 4096, 6400]) worst = Math.max(worst, arbiterSeek(Math.min(i, n)));
			best = Math.min(best, worst); }
		return best; })()`)
	t.Logf("the slowest of 10 seeks over %d moves took %.1f ms", bytes.Count(rec, []byte("\n"))-2, worst)
	if worst >= 100 {
		t.Errorf("a seek took %.1f ms; want under 100", worst)
	}
	r.choose("#viewpoint", "seat:2")
	r.until("seat 3's view", `document.body.dataset.view === "seat:2" && document.querySelector("#board tr.you")`)
	worst = eval[float64](r, `Math.min(...[0, 1, 2].map(() => Math.max(...[10, 9000, 3000, 6000].map(i => arbiterSeek(i)))))`)
	if worst >= 100 {
		t.Errorf("a seek as seat 3 took %.1f ms; want under 100", worst)
	}
	r.noErrors()
}

func TestReplayBoardShowsWhole(t *testing.T) {
	// At a desktop's width the viewer's board spans the page, so that the
	// widest of them (AjveCiv's table of every society and value, as the
	// judge sees it) shows whole: nothing in it scrolls sideways.
	rec := record(t, "ajveciv", []string{"basic", "random", "basic.conquer", "basic.develop"}, map[string]string{"turns": "12"})
	url := viewerPage(t, rec, []catalog.Viewpoint{catalog.JudgeView})
	b := newBrowser(t)
	r := b.open("viewer", url, desktopW, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	r.run(keys("End"))
	r.until("the board", `document.querySelector("#board table")`)
	if wide := eval[string](r, `[...document.querySelectorAll("#board, #board *")].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + "." + e.className + " " + e.scrollWidth + " > " + e.clientWidth).join(", ")`); wide != "" {
		t.Errorf("at %d pixels the replay's board scrolls sideways: %s", desktopW, wide)
	}
	r.noErrors()
}

func TestReplayViewerOfAMatch(t *testing.T) {
	// The viewer of a match of the server: step, play, seek by keyboard,
	// choose the viewpoint (every one once the match is over), faults and
	// events marked on the timeline, charts with a cursor; and of a
	// record file.
	s := newSite(t)
	b := newBrowser(t)
	dir := shots(t)
	// A person who never answers in time: every decision of theirs is a
	// fault, its default played.
	c := s.create(map[string]any{"game": "tncc", "seats": []any{seat("person"), seat("war"), seat("blitz")},
		"options": map[string]any{"preset": `{"base":"default","gold_for_war":100,"max_cycles":4}`}, "time": map[string]any{"people_ms": 20}})
	deadline := time.Now().Add(time.Minute)
	for {
		_, m := s.api("GET", "/matches/"+c.ID, "", nil)
		if m["status"] != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the match does not end")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := b.open("viewer", s.URL()+"/replay?match="+c.ID, desktopW, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	offered := eval[string](r, `[...document.getElementById("viewpoint").options].map(o => o.value).join(",")`)
	if offered != "public,judge,seat:0,seat:1,seat:2" {
		t.Errorf("a finished match's viewpoints: %s; want every one", offered)
	}
	r.until("a fault on the timeline", `document.querySelector("#marked button.danger") && document.querySelector("#marks rect")`)
	r.until("a war on the timeline", `document.getElementById("marked").innerText.includes("attacked")`)
	r.until("a chart's cursor", `document.querySelector("#charts line.cursor")`)
	// Keyboard: End, then back one step, then the start.
	r.click("#first")
	r.run(keys("End"))
	last := eval[string](r, "document.body.dataset.step")
	r.run(keys("ArrowLeft"))
	if got := eval[string](r, "document.body.dataset.step"); got == last {
		t.Errorf("ArrowLeft did not step back from %s", last)
	}
	// At the start, the board tells the cycle under way, and nothing says
	// otherwise (the charts count the cycles played: 0).
	r.click("#first")
	if where, board := eval[string](r, `document.getElementById("where").innerText`), eval[string](r, `document.getElementById("board").innerText`); !strings.HasPrefix(where, "Move 0 of ") || strings.Contains(where, "cycle") || !strings.Contains(board, "Cycle 1") {
		t.Errorf("the start: %q, and a board of %.60q; want the move and the board's own cycle, 1", where, board)
	}
	r.run(keys("End"))
	r.shot(dir, "replay-desktop")
	// Seek with the slider to a fault, as the public sees it: who, not what.
	r.clickText("#marked", "fault")
	step := eval[string](r, `document.getElementById("step").innerText`)
	if !strings.Contains(step, "fault: timeout") || strings.Contains(step, ") played ") {
		t.Errorf("the public sees a fault as %q; want its kind and no move", step)
	}
	seq := eval[string](r, "document.body.dataset.seq")
	r.choose("#viewpoint", "judge")
	r.until("the judge's view", `document.body.dataset.view === "judge" && document.getElementById("step").innerText.includes(" played ")`)
	if step := eval[string](r, `document.getElementById("step").innerText`); !strings.Contains(step, "Seat 1 (person) played wait") || strings.Contains(step, "{") {
		t.Errorf("the judge sees the fault's move as %q; want it in words (played wait)", step)
	}
	// Every seat's move is told in words.
	if got := eval[string](r, `(() => { const w = []; const seek = document.getElementById("seek"); for (let i = 0; i <= +seek.max; i += 1) { seek.value = String(i); seek.dispatchEvent(new Event("input", {bubbles: true})); w.push(document.getElementById("step").innerText); } return w.filter((s) => s.includes("{")).join("\n"); })()`); got != "" {
		t.Errorf("moves the judge sees as JSON:\n%s", got)
	}
	r.clickText("#marked", "fault")
	if got := eval[string](r, "document.body.dataset.seq"); got != seq {
		t.Errorf("switching to the judge moved from move %s to %s", seq, got)
	}
	r.choose("#viewpoint", "seat:0")
	r.until("seat 1's view", `document.body.dataset.view === "seat:0" && document.querySelector("#board tr.you")`)
	// Play, then pause.
	r.click("#first")
	r.click("#play")
	r.until("play", `+document.body.dataset.step > 2`)
	r.click("#play")
	at := eval[string](r, "document.body.dataset.step")
	time.Sleep(600 * time.Millisecond)
	if got := eval[string](r, "document.body.dataset.step"); got != at {
		t.Errorf("paused at step %s, the viewer went on to %s", at, got)
	}
	// A viewpoint chosen while the one chosen before is still on its way
	// is the one shown: the earlier answer, come late, is not.
	eval[bool](r, `(() => { const real = window.fetch; window.lateAnswered = false;
		window.fetch = async (url, opts) => {
			const answer = await real(url, opts);
			if (String(url).includes("view=judge")) { await new Promise((ok) => setTimeout(ok, 500)); setTimeout(() => { window.lateAnswered = true; }, 0); }
			return answer;
		};
		return true; })()`)
	r.choose("#viewpoint", "judge")
	r.choose("#viewpoint", "seat:1")
	r.until("the judge's late answer", "window.lateAnswered")
	r.until("seat 2's view", `document.body.dataset.view === "seat:1" && document.querySelector("#board tr.you")`)
	time.Sleep(100 * time.Millisecond) // the late answer's turn to be drawn, were it drawn
	if got := eval[string](r, "document.body.dataset.view"); got != "seat:1" {
		t.Errorf("after judge then seat 2 were chosen, the late answer for the judge is shown: %s", got)
	}
	ph := b.open("phone", s.URL()+"/replay?match="+c.ID, phoneW, phoneH)
	ph.until("the viewer", "document.body.dataset.ready")
	ph.shot(dir, "replay-phone")
	r.noErrors()
	ph.noErrors()

	// A record file, opened in the viewer: sent to the server, which
	// replays it.
	file := filepath.Join(t.TempDir(), "match.jsonl")
	os.WriteFile(file, record(t, "ajveciv", []string{"basic.conquer", "random", "basic.develop"}, map[string]string{"turns": "12"}), 0o644)
	f := b.open("file", s.URL()+"/replay", desktopW, desktopH)
	f.until("the form", "document.body.dataset.ready")
	f.run(setFile("#file", file))
	f.clickText("#open-form", "Open")
	f.until("the viewer", `!document.getElementById("viewer").hidden`)
	f.choose("#viewpoint", "seat:1")
	f.until("seat 2's view", `document.body.dataset.view === "seat:1" && document.querySelector("#board tr.you")`)
	if got := eval[string](f, `document.querySelector("#board tr.you th").innerText`); !strings.Contains(got, "2 · random") {
		t.Errorf("seat 2's view marks %q as the viewer's own", got)
	}
	f.noErrors()
}

func TestReplayPageStandsAlone(t *testing.T) {
	// arbiter replay --html: one file, nothing fetched, every viewpoint in
	// it.
	rec := record(t, "zombie", []string{"sensible", "random", "spreader", "cautious", "sensible"}, map[string]string{"turns": "4"})
	url := viewerPage(t, rec, nil)
	b := newBrowser(t)
	r := b.open("file", url, phoneW, phoneH)
	r.until("the viewer", "document.body.dataset.ready")
	if got := eval[int](r, `performance.getEntriesByType("resource").length`); got != 0 {
		t.Errorf("the page fetched %d files; want none", got)
	}
	// Its icon is in it too: no request fails.
	if !eval[bool](r, `document.querySelector("link[rel=icon]").href.startsWith("data:image/svg+xml")`) {
		t.Error("the page's icon is not in the page")
	}
	time.Sleep(300 * time.Millisecond)
	if f := r.failures(); len(f) > 0 {
		t.Errorf("failed requests: %v", f)
	}
	r.choose("#viewpoint", "seat:3")
	r.run(keys("End"))
	r.until("P4's sheet", `document.getElementById("board").innerText.includes("You are P4")`)
	r.choose("#viewpoint", "judge")
	r.until("every sheet", `document.getElementById("board").innerText.includes("Every player")`)
	r.noErrors()
}

func TestReplaySaysHowItEndedAndWhatItCannotShow(t *testing.T) {
	// The end is told in words, not the rules' code ("turns"); a match the
	// server does not have is named in the refusal.
	rec := record(t, "ajveciv", []string{"basic", "random", "basic.conquer", "basic.develop"}, map[string]string{"turns": "12"})
	b := newBrowser(t)
	r := b.open("viewer", viewerPage(t, rec, []catalog.Viewpoint{catalog.JudgeView}), desktopW, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	r.until("how it ended", `/It ended (after its last turn|when every society had died)\./.test(document.getElementById("result").innerText)`)
	r.noErrors()
	s := newSite(t)
	r = b.open("no match", s.URL()+"/replay?match=nosuch", desktopW, desktopH)
	r.until("the refusal", `document.getElementById("open-error").innerText.includes("The match nosuch cannot be shown: no such match")`)
}

func TestReplayFileChooserFitsAPhone(t *testing.T) {
	// On a phone, the record file's chooser stays within its label and its
	// panel.
	s := newSite(t)
	b := newBrowser(t)
	r := b.open("phone", s.URL()+"/replay", 390, 844)
	r.until("the form", "document.body.dataset.ready && document.getElementById('file')")
	r.shot(shots(t), "replay-open-phone")
	out := eval[string](r, `(() => {
		const f = document.getElementById("file").getBoundingClientRect();
		const bad = [];
		for (const sel of ["#open-form label", "#open-form", "#open"]) {
			const p = document.querySelector(sel).getBoundingClientRect();
			if (f.left < p.left - 0.5 || f.right > p.right + 0.5) bad.push(sel + " " + Math.round(p.left) + " to " + Math.round(p.right));
		}
		return bad.length ? "the chooser, " + Math.round(f.left) + " to " + Math.round(f.right) + ", sticks out of " + bad.join(", ") : "";
	})()`)
	if out != "" {
		t.Error(out)
	}
	r.noErrors()
}

func TestReplayViewerOfARefereeMatch(t *testing.T) {
	// A territories referee match, which has no seats (its players join
	// by name), is shown by the viewer as any other, to its judge: the
	// board, the judge's steps and their notes, the turns on its clock.
	s := newSite(t)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "territories"})
	for _, body := range []map[string]any{
		{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}},
		{"move": map[string]any{"player": "bob", "action": "join Desert NV"}},
	} {
		if code, out := s.api("POST", "/matches/"+c.ID+"/moves", c.Judge.Secret, body); code != 200 {
			t.Fatalf("%s: %d %v", body, code, out)
		}
	}
	r := b.open("viewer", s.URL()+"/replay?match="+c.ID+"#s="+c.Judge.Secret, desktopW, desktopH)
	r.until("the viewer", "document.body.dataset.ready")
	r.click("#first")
	r.run(keys("End"))
	r.until("the board at its end", `document.querySelector("#board .map path#NV[fill]")`)
	if got := eval[string](r, `document.getElementById("summary").textContent`); !strings.Contains(got, "players join by name") {
		t.Errorf("the summary: %q", got)
	}
	r.noErrors()
}

func TestReplayTellsZombiePlansApartAmongBotsOfOneKind(t *testing.T) {
	// Five bots of one kind ("sensible") play the zombie game: a plan told
	// in the viewer names whom it touches by P1, P2, ..., which tells them
	// apart, not by the name they all share ("touch sensible").
	rec := record(t, "zombie", []string{"sensible", "sensible", "sensible", "sensible", "sensible"}, map[string]string{"turns": "3"})
	b := newBrowser(t)
	r := b.open("viewer", viewerPage(t, rec, []catalog.Viewpoint{catalog.JudgeView}), phoneW, phoneH)
	r.until("the viewer", "document.body.dataset.ready")
	r.click("#next")
	r.until("the first plan", `document.getElementById("step").innerText.includes("played")`)
	if got := eval[string](r, `document.getElementById("step").innerText`); !regexp.MustCompile(`played touch P\d`).MatchString(got) {
		t.Errorf("the first plan is told %q; want whom it touches as P1, P2, ...", got)
	}
	r.noErrors()
}

func TestReplayTellsTerritoriesActionsToEveryone(t *testing.T) {
	// Territories' actions are public: seen as the public or as another
	// seat, the viewer tells each one and what it did ("Seat 2 (greedy)
	// played attack NV from UT: ... roll 14 > 8: success ..."), where it
	// said "Seat 2 (greedy) moved". The moves a game hides stay hidden:
	// a zombie plan, seen as the public, is a move, no more.
	b := newBrowser(t)
	rec := record(t, "territories", []string{"greedy", "greedy"}, map[string]string{"turns": "12"})
	for _, p := range []catalog.Viewpoint{catalog.PublicView, catalog.SeatView(0)} {
		r := b.open("viewer as "+p.String(), viewerPage(t, rec, []catalog.Viewpoint{p}), phoneW, phoneH)
		r.until("the viewer", "document.body.dataset.ready")
		battle := -1
		for i := 1; i < 400 && battle < 0; i++ {
			r.click("#next")
			r.until("the next step", `document.body.dataset.step === "`+strconv.Itoa(i)+`"`)
			got := eval[string](r, `document.getElementById("step").innerText`)
			if strings.HasSuffix(got, " moved") || !strings.Contains(got, " played ") {
				t.Fatalf("as %s, step %d is told %q; want the action and what it did", p, i, got)
			}
			if strings.HasPrefix(got, "Seat 2 (greedy) played attack ") && strings.Contains(got, ": seat 2 (Basalt) attacks ") && strings.Contains(got, "roll ") {
				battle = i
			}
		}
		if battle < 0 {
			t.Errorf("as %s, no attack of seat 2 is told with its roll", p)
		}
		r.noErrors()
	}
	zr := record(t, "zombie", []string{"sensible", "cautious", "spreader", "random", "sensible"}, map[string]string{"turns": "3"})
	r := b.open("zombie viewer as the public", viewerPage(t, zr, []catalog.Viewpoint{catalog.PublicView}), phoneW, phoneH)
	r.until("the viewer", "document.body.dataset.ready")
	r.click("#next")
	r.until("the first step", `document.body.dataset.step === "1"`)
	if got := eval[string](r, `document.getElementById("step").innerText`); !strings.HasSuffix(got, " moved") || strings.Contains(got, "played") {
		t.Errorf("a zombie plan seen as the public is told %q; want that a seat moved, no more", got)
	}
	r.noErrors()
}
