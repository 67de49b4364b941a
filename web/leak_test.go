package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// seen is everything a page holds: its DOM, its scripts, the addresses it
// asked for, and every answer its scripts were given (see keeper).
func (tb *tab) seen() string {
	return eval[string](tb, `[document.documentElement.outerHTML,
		[...document.scripts].map(s => s.src + s.textContent).join("\n"),
		performance.getEntriesByType("resource").map(e => e.name).join("\n"),
		(window.__received || []).join("")].join("\n")`)
}

// seedOf returns a match's seed, from its record (the judge's).
func (s *site) seedOf(id, judge string) string {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/matches/"+id+"/record", nil)
	req.Header.Set("Authorization", "Bearer "+judge)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var h struct{ Setup struct{ Seed uint64 } }
	json.Unmarshal(bytes.SplitN(b, []byte("\n"), 2)[0], &h)
	if h.Setup.Seed == 0 {
		s.t.Fatalf("no seed in the record: %s", b)
	}
	return strconv.FormatUint(h.Setup.Seed, 10)
}

func TestNoPageHoldsWhatItsReaderMayNotKnow(t *testing.T) {
	// "A seat's page never holds another seat's secret state in its DOM,
	// scripts or network responses (check from the browser)": zombie
	// identities and sheets, TNCC flanks before and after their battle,
	// other seats' secrets, the match's seed.
	s := newSite(t)
	b := newBrowser(t)

	t.Run("zombie", func(t *testing.T) {
		c := s.create(map[string]any{"game": "zombie", "mode": "party", "seats": people(5), "judge": true,
			"options": map[string]any{"zombies": 2, "turns": 3, "antibodies": 1, "viruses": 1}})
		watch := b.openWatched("spectator", c.Watch, desktopW, desktopH)
		var tabs []*tab
		for i := range 5 {
			tabs = append(tabs, b.openWatched(fmt.Sprintf("P%d", i+1), c.Seats[i].URL, phoneW, phoneH))
		}
		for _, tb := range append(tabs, watch) {
			tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
		}
		// Two turns, planned on the pages.
		for turn := 0; turn < 2 && watch.status() == "running"; turn++ {
			for i, tb := range tabs {
				tb.until("the plan", `document.querySelector("form.plan") || document.body.dataset.status !== "running"`)
				if tb.status() != "running" {
					break
				}
				id := tb.request()
				tb.click(fmt.Sprintf(`input[name=touch-%d]`, (i+2)%5))
				tb.clickText(".request", "Send my plan")
				tb.answered(id)
			}
		}
		seed := s.seedOf(c.ID, c.Judge.Secret)
		_, judged := s.api("GET", "/matches/"+c.ID, c.Judge.Secret, nil)
		sheets := judged["view"].(map[string]any)["seats"].([]any)
		for i, tb := range tabs {
			got := tb.seen()
			if !strings.Contains(got, `"you":`+strconv.Itoa(i)) {
				t.Fatalf("P%d's page holds nothing of its own view: the check sees nothing", i+1)
			}
			for j := range tabs {
				if j == i {
					continue
				}
				if strings.Contains(got, fmt.Sprintf(`"you":%d,"name":"P%d"`, j, j+1)) {
					t.Errorf("P%d's page holds P%d's sheet", i+1, j+1)
				}
				if strings.Contains(got, c.Seats[j].Secret) {
					t.Errorf("P%d's page holds P%d's secret", i+1, j+1)
				}
			}
			if strings.Contains(got, c.Judge.Secret) || strings.Contains(got, `"seats":[{"you"`) {
				t.Errorf("P%d's page holds the judge's secret or view", i+1)
			}
			if strings.Contains(got, seed) {
				t.Errorf("P%d's page holds the match's seed", i+1)
			}
			own := sheets[i].(map[string]any)["me"].(map[string]any)["identity"].(string)
			ids := eval[[]string](tb, `[...document.querySelectorAll(".identity")].map(e => e.textContent)`)
			for _, id := range ids {
				if !strings.Contains(strings.ToLower(id), own) {
					t.Errorf("P%d (a %s) is shown %q", i+1, own, id)
				}
			}
		}
		got := watch.seen()
		if strings.Contains(got, `"me":`) || regexp.MustCompile(`"you":\d`).MatchString(got) || strings.Contains(got, seed) || eval[int](watch, `document.querySelectorAll(".identity").length`) > 0 {
			t.Error("the spectator's page holds a player's sheet or the seed")
		}
	})

	t.Run("tncc", func(t *testing.T) {
		c := s.create(map[string]any{"game": "tncc", "seats": append(people(2), seat("nothing")), "judge": true,
			"options": map[string]any{"preset": `{"base":"default","gold_for_war":100,"max_cycles":3}`}})
		watch := b.openWatched("spectator", c.Watch, desktopW, desktopH)
		p0 := b.openWatched("country 1", c.Seats[0].URL, desktopW, desktopH)
		p1 := b.openWatched("country 2", c.Seats[1].URL, desktopW, desktopH)
		for _, tb := range []*tab{watch, p0, p1} {
			tb.until("the page", "document.body.dataset.ready && document.body.dataset.stream === 'live'")
		}
		act := func(tb *tab, fill func()) {
			tb.until("a turn", `document.querySelector("form.action, form.defence")`)
			id := tb.request()
			fill()
			tb.answered(id)
		}
		// Country 1 recruits, country 2 too; then country 1 attacks with
		// 3, 17 and 11 on its flanks, and country 2 defends with 5, 19, 2.
		act(p0, func() {
			p0.click(`input[name=action][value=recruit]`)
			p0.typeInto(`input[name=n]`, "31")
			p0.clickText(".request", "Play this action")
		})
		act(p1, func() {
			p1.click(`input[name=action][value=recruit]`)
			p1.typeInto(`input[name=n]`, "26")
			p1.clickText(".request", "Play this action")
		})
		act(p0, func() {
			p0.click(`input[name=action][value=war]`)
			p0.choose(`select[name=target]`, "1")
			p0.typeInto(`input[name=f-left]`, "3")
			p0.typeInto(`input[name=f-front]`, "17")
			p0.typeInto(`input[name=f-right]`, "11")
			p0.clickText(".request", "Play this action")
		})
		p1.until("the attack", `document.querySelector("form.defence")`)
		before := p1.seen()
		// Country 1 is told its own move, flanks and all, until it owes
		// another decision.
		p0.until("its war told", `document.getElementById("refusal").innerText.startsWith("You played")`)
		own := p0.seen()
		act(p1, func() {
			p1.typeInto(`input[name=d-left]`, "5")
			p1.typeInto(`input[name=d-front]`, "19")
			p1.typeInto(`input[name=d-right]`, "2")
			p1.clickText(".request", "Defend")
		})
		watch.until("the war told", `document.body.innerText.includes("attacked country 2")`)
		p0.until("the war told", `document.body.innerText.includes("attacked country 2")`)
		attack, defence := "[3,17,11]", "[5,19,2]"
		attackWords, defenceWords := "3 left, 17 front, 11 right", "5 left, 19 front, 2 right"
		if !strings.Contains(own, attackWords) {
			t.Fatal("country 1's page does not hold its own flanks: the check sees nothing")
		}
		holds := func(got, split, words string) bool {
			return strings.Contains(got, split) || strings.Contains(got, words) || strings.Contains(got, strings.Trim(strings.ReplaceAll(split, ",", ", "), "[]"))
		}
		for name, got := range map[string]string{"country 2 before the battle": before, "country 2": p1.seen()} {
			if holds(got, attack, attackWords) {
				t.Errorf("%s's page holds the attacker's flanks", name)
			}
		}
		for _, got := range []string{own, p0.seen()} {
			if holds(got, defence, defenceWords) {
				t.Error("country 1's page holds the defender's flanks")
			}
		}
		if got := watch.seen(); holds(got, attack, attackWords) || holds(got, defence, defenceWords) {
			t.Error("the spectator's page holds a flank split")
		}
		seed := s.seedOf(c.ID, c.Judge.Secret)
		for _, tb := range []*tab{watch, p0, p1} {
			if got := tb.seen(); strings.Contains(got, seed) || strings.Contains(got, c.Judge.Secret) {
				t.Errorf("%s's page holds the seed or the judge's secret", tb.name)
			}
		}
	})
}
