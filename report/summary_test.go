package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestHistogramKeepsEveryScore(t *testing.T) {
	// Any number of scores, of any spread, in a fixed number of bins: every
	// score is counted once, in the bin that holds it.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spread := range []int64{1, 10, 1000, 1 << 40} {
		var h histogram
		scores := make([]int64, 5000)
		for i := range scores {
			scores[i] = rng.Int64N(spread) - spread/3
			h.add(scores[i])
		}
		total := 0
		for _, c := range h.bins {
			total += c
		}
		if total != len(scores) || h.n != len(scores) {
			t.Fatalf("spread %d: %d scores counted of %d", spread, total, len(scores))
		}
		for _, s := range scores {
			if s < h.lo || s >= h.lo+histBins*h.width {
				t.Fatalf("spread %d: score %d outside the bins [%d, %d)", spread, s, h.lo, h.lo+histBins*h.width)
			}
		}
		lo, hi := h.span()
		if lo > slicesMin(scores) || hi < slicesMax(scores) {
			t.Errorf("spread %d: span [%d, %d] misses the scores", spread, lo, hi)
		}
	}
}

func slicesMin(s []int64) int64 {
	m := s[0]
	for _, x := range s {
		m = min(m, x)
	}
	return m
}

func slicesMax(s []int64) int64 {
	m := s[0]
	for _, x := range s {
		m = max(m, x)
	}
	return m
}

func TestConfidenceIntervals(t *testing.T) {
	// Wilson's interval for 5 wins in 50 games is 4.3% to 21.4%; a mean of
	// scores 1 and 3 over 2 games is 2 ± 1.96·√2/√2.
	st := &standing{Games: 50, Wins: 5}
	if got := st.WinText(); got != "10.0% (4.3–21.4)" {
		t.Errorf("win rate %s", got)
	}
	st = &standing{Games: 2, Total: 4, squares: 1 + 9}
	if ci := st.MeanCI(); math.Abs(ci-1.96) > 1e-9 {
		t.Errorf("mean score's interval ±%v; want ±1.96", ci)
	}
	if (&standing{Games: 1, Total: 3, squares: 9}).MeanCI() != 0 {
		t.Error("one game has an interval")
	}
}

func TestOneGameHasNoInterval(t *testing.T) {
	// One score has no spread: the text (and the HTML page, which shows
	// the same) says the mean is of one game, not "± 0.0", and the JSON
	// gives null, not an interval of 0. Two games of one score have an
	// interval of 0, and say so.
	var s standings
	s.add(&Game{Players: []string{"a", "b"}, Result: &engine.Result{Scores: []int64{5, 3}, Ranks: []int{1, 2}, Winners: []int{0}}})
	s.add(&Game{Players: []string{"a", "c"}, Result: &engine.Result{Scores: []int64{5, 4}, Ranks: []int{1, 2}, Winners: []int{0}}})
	a, b := s.players["a"], s.players["b"]
	if got := b.MeanText(); got != "3.0 (1 game)" {
		t.Errorf("one game's mean reads %q; want 3.0 (1 game)", got)
	}
	if got := a.MeanText(); got != "5.0 ± 0.0" {
		t.Errorf("two games' mean reads %q; want 5.0 ± 0.0", got)
	}
	var text bytes.Buffer
	s.writeText(&text)
	if strings.Contains(text.String(), "3.0 ±") || !strings.Contains(text.String(), "3.0 (1 game)") {
		t.Errorf("the summary gives one game an interval:\n%s", text.String())
	}
	sum := s.summary()
	if ci := sum.Standings[1].MeanScoreCI; ci != nil {
		t.Errorf("JSON gives one game an interval of %v; want none", *ci)
	}
	if ci := sum.Standings[0].MeanScoreCI; ci == nil || *ci != 0 {
		t.Errorf("JSON gives two equal scores the interval %v; want 0", ci)
	}
	js, err := json.Marshal(sum.Standings[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"mean_score_ci":null`) {
		t.Errorf("JSON of one game: %s", js)
	}
	// A player whose only game did not finish has neither a mean nor a
	// win rate.
	var u standings
	u.add(&Game{Players: []string{"a"}, Faults: []engine.SeatFault{{Seat: 0, Fault: engine.Fault{Kind: engine.FaultCrash}}}})
	if a := u.players["a"]; a.MeanText() != "–" || a.WinText() != "–" {
		t.Errorf("no finished game reads %q, %q; want –, –", a.WinText(), a.MeanText())
	}
}

func TestPaletteIsDistinct(t *testing.T) {
	// "colours are distinct for up to 20 seats": every two of the 20
	// colours are far apart in CIELAB (ΔE 25 or more), and every one has a
	// contrast of 2 or more against the white page.
	if len(palette) < 20 {
		t.Fatalf("%d colours", len(palette))
	}
	for i, a := range palette {
		if c := contrastOnWhite(a); c < 2 {
			t.Errorf("%s: contrast %.2f on white", a, c)
		}
		for _, b := range palette[i+1:] {
			if d := deltaE(a, b); d < 25 {
				t.Errorf("%s and %s: ΔE %.1f", a, b, d)
			}
		}
	}
	// Lines past the colours' end repeat a colour with another dash.
	for s := range 20 {
		if colour(s) == colour(s+20) && dash(s) == dash(s+20) {
			t.Errorf("seats %d and %d look the same", s+1, s+21)
		}
	}
}

// lab returns the CIELAB coordinates and the relative luminance of #rrggbb.
func lab(hex string) (l, a, b, y float64) {
	lin := func(s string) float64 {
		v, _ := strconv.ParseUint(s, 16, 8)
		c := float64(v) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	r, g, bl := lin(hex[1:3]), lin(hex[3:5]), lin(hex[5:7])
	x := (0.4124*r + 0.3576*g + 0.1805*bl) / 0.95047
	y = 0.2126*r + 0.7152*g + 0.0722*bl
	z := (0.0193*r + 0.1192*g + 0.9505*bl) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return 116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)), y
}

func deltaE(p, q string) float64 {
	l1, a1, b1, _ := lab(p)
	l2, a2, b2, _ := lab(q)
	return math.Sqrt((l1-l2)*(l1-l2) + (a1-a2)*(a1-a2) + (b1-b2)*(b1-b2))
}

func contrastOnWhite(hex string) float64 {
	_, _, _, y := lab(hex)
	return 1.05 / (y + 0.05)
}

func TestFilesLeadWithTheSummary(t *testing.T) {
	// "files lead with the summary (score distributions as a chart), then
	// the games", written game by game through a spool.
	r := series(t)
	for _, form := range []string{"text", "html"} {
		spool, err := os.CreateTemp(t.TempDir(), "spool")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		var w GameWriter
		if form == "text" {
			tw := NewText(&b, false)
			tw.SummaryFirst(spool)
			w = tw
		} else {
			hw := NewHTML(&b)
			hw.SummaryFirst(spool)
			w = hw
		}
		for i := range r.Games {
			if err := w.WriteGame(&r.Games[i]); err != nil {
				t.Fatal(err)
			}
			if form == "text" && b.Len() != 0 {
				t.Fatalf("text: %d bytes written before the summary", b.Len())
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		series, first := strings.Index(out, "eries"), strings.Index(out, "ame 1")
		if series < 0 || first < 0 || series > first {
			t.Errorf("%s: the summary (at %d) does not lead the games (at %d):\n%.3000s", form, series, first, out)
		}
		if form == "html" {
			if !strings.Contains(out, "How each player's scores fall") || strings.Count(out, "<html") != 1 || strings.Count(out, "</html>") != 1 {
				t.Errorf("html: no distribution chart, or a broken page:\n%.2000s", out)
			}
			if err := balanced(out); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestLongSeriesPageStaysSmall(t *testing.T) {
	// "HTML pages stay small (one chart per game on demand, or sampled)":
	// of 1,000 games, 28 are charted (1 to 10, every 10th to 100, every
	// 100th to 1,000); the others are a line each.
	g := series(t).Games[0]
	var b bytes.Buffer
	w := NewHTML(&b)
	for n := 1; n <= 1000; n++ {
		g.Number = n
		if err := w.WriteGame(&g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	charted := 0
	for n := 1; n <= 1000; n++ {
		if Charted(n) {
			charted++
		}
	}
	sections := strings.Count(b.String(), "<section id=\"game-")
	if charted != 28 || sections != 28 || strings.Count(b.String(), "<li id=\"game-") != 972 {
		t.Errorf("%d games charted, %d sections; want 28 charted and 972 listed", charted, sections)
	}
	perGame := b.Len() / 1000
	t.Logf("1,000 games: %d KB, %d bytes a game", b.Len()>>10, perGame)
	if b.Len() > 2<<20 {
		t.Errorf("the page of 1,000 games is %d KB", b.Len()>>10)
	}
}

func TestWholeClocksTickWhole(t *testing.T) {
	// A game's clock counts whole turns: its axis is ticked 0, 1, 2, never
	// 0.2. A count (every value whole) is ticked whole and drawn as steps,
	// a value holding until the next turn; other numbers slope.
	tickLabels := func(svg string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`<text x="[0-9.]+" y="[0-9]+" text-anchor="middle">([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
			out = append(out, m[1])
		}
		return out
	}
	points := func(svg string) int {
		m := regexp.MustCompile(`points="([^"]*)"`).FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no line in %s", svg)
		}
		return len(strings.Fields(m[1]))
	}
	count := Chart{Title: "zombies", X: []int{0, 1, 2}, Lines: []Line{{Name: "zombies", Seat: -1, Y: []float64{1, 3, 4}}}}
	svg := string(svgChart(count, "turn", nil))
	if got := strings.Join(tickLabels(svg), " "); got != "0 1 2 turn" {
		t.Errorf("the clock's ticks: %s; want 0 1 2 turn", got)
	}
	if n := points(svg); n != 5 {
		t.Errorf("a count of 3 samples is drawn with %d points; want 5, in steps", n)
	}
	if !strings.Contains(svg, ">2</text>") || strings.Contains(svg, ">2.5</text>") || strings.Contains(svg, ">3.5</text>") {
		t.Errorf("a count's axis is not ticked whole: %s", svg)
	}
	share := Chart{Title: "share", X: []int{0, 1, 2}, Lines: []Line{{Name: "share", Seat: -1, Y: []float64{0.5, 1.25, 2}}}}
	if n := points(string(svgChart(share, "turn", nil))); n != 3 {
		t.Errorf("a fractional number is drawn with %d points; want 3", n)
	}
	long := Chart{Title: "yield", X: make([]int, 101), Lines: []Line{{Name: "yield", Seat: -1, Y: make([]float64, 101)}}}
	for i := range long.X {
		long.X[i], long.Lines[0].Y[i] = i, float64(i*i)
	}
	if n := points(string(svgChart(long, "turn", nil))); n != 101 {
		t.Errorf("a count over 100 turns is drawn with %d points; want one a turn", n)
	}
}

func TestChartsShowOnePointAClock(t *testing.T) {
	// TNCC samples every round of a cycle; a chart shows the game by its
	// clock, the last sample of each cycle, and its pointer reaches every
	// point: the page keeps one point a cycle, not one a round.
	c := Chart{Title: "gold", X: []int{0, 0, 0, 1, 1, 1, 2}, Lines: []Line{{Name: "turtle", Seat: 0, Y: []float64{0, 5, 7, 7, 9, 11, 12.5}}}}
	svg := string(svgChart(c, "cycle", nil))
	for _, want := range []string{`data-x="0,1,2"`, `data-v="7,11,12.5"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart has no %s: %s", want, svg)
		}
	}
	if m := regexp.MustCompile(`points="([^"]*)"`).FindStringSubmatch(svg); m == nil || len(strings.Fields(m[1])) != 3 {
		t.Errorf("the line is not drawn through 3 points: %v", m)
	}
}

func TestSummaryCountsLineUp(t *testing.T) {
	// A series of a million games: its counts line up under their heads,
	// as those of a few games do.
	for _, games := range []int{3, 1_234_567} {
		s := standings{games: games, finished: games, players: map[string]*standing{}}
		a, b := s.player("steward"), s.player("adapt")
		a.Games, a.Wins, b.Games = games, games, games
		var out bytes.Buffer
		s.writeText(&out)
		lines := strings.Split(out.String(), "\n")
		head := lines[1]
		for _, row := range lines[2:4] {
			for _, col := range []string{"games", "wins"} {
				end := strings.Index(head, col) + len(col)
				if len(row) < end || row[end-1] == ' ' || row[end] != ' ' {
					t.Errorf("%d games: the %s column does not line up:\n%s\n%s", games, col, head, row)
				}
			}
		}
	}
}

func TestHistogramWidensOnlyWhenItMust(t *testing.T) {
	// Scores of a few values each keep a bin of their own, in whatever
	// order they come: a zombie game's 1 then 0 are not drawn as bins of
	// -1 to 0 and 1 to 2.
	for _, scores := range [][]int64{{1, 0}, {0, 1}, {5, 1, 3, -2}, {60, 0}, {0, 63}, {63, 0}} {
		var h histogram
		for _, x := range scores {
			h.add(x)
		}
		lo, hi := h.span()
		if h.width != 1 || lo != slicesMin(scores) || hi != slicesMax(scores) {
			t.Errorf("scores %v: bins of width %d spanning %d to %d", scores, h.width, lo, hi)
			continue
		}
		for _, x := range scores {
			if h.bins[x-h.lo] == 0 {
				t.Errorf("scores %v: %d is not in its bin", scores, x)
			}
		}
	}
	// A spread wider than the bins still widens them.
	var h histogram
	h.add(0)
	h.add(64)
	if lo, hi := h.span(); h.width != 2 || lo > 0 || hi < 64 {
		t.Errorf("0 and 64: bins of width %d spanning %d to %d", h.width, lo, hi)
	}
}

func TestDistributionChartNamesScoresUnderTheirBars(t *testing.T) {
	// Each score on the axis is under the middle of its bar, as the mean's
	// tick counts it: a zombie game's 0 and 1 are under theirs, not at
	// their edges.
	s := standings{players: map[string]*standing{}}
	st := s.player("searcher")
	for _, x := range []int64{1, 0, 0, 1, 1} {
		st.scores.add(x)
		st.Games++
		st.Total += x
	}
	svg := string(distributionChart(s.order))
	for _, score := range []string{"0", "1"} {
		bar := regexp.MustCompile(`<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*><title>searcher: \d+ games? scored ` + score + `</title>`).FindStringSubmatch(svg)
		label := regexp.MustCompile(`<text x="([\d.]+)" y="\d+" text-anchor="middle">` + score + `</text>`).FindStringSubmatch(svg)
		if bar == nil || label == nil {
			t.Fatalf("no bar or label for %s:\n%s", score, svg)
		}
		x, _ := strconv.ParseFloat(bar[1], 64)
		w, _ := strconv.ParseFloat(bar[2], 64)
		at, _ := strconv.ParseFloat(label[1], 64)
		if math.Abs(at-(x+w/2)) > 0.5 {
			t.Errorf("score %s is labelled at %v; its bar spans %v to %v", score, at, x, x+w)
		}
	}
}

func TestLongAxisLabelsStayInTheirRoom(t *testing.T) {
	// Seven characters fill the room left of a chart's plot: a preset of
	// large amounts or a long game charted 20000000 cut to "0000000" at
	// the page's edge. An axis with a longer label is labelled in one unit
	// with its SI prefix; one of seven or fewer stays in full.
	labels := func(svg string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`text-anchor="end" dominant-baseline="middle">([^<]*)<`).FindAllStringSubmatch(svg, -1) {
			out = append(out, m[1])
		}
		return out
	}
	chart := func(top float64) Chart {
		return Chart{Title: "food", X: []int{0, 1, 2}, Lines: []Line{{Name: "turtle", Seat: 0, Y: []float64{0, top / 2, top}}}}
	}
	if got := strings.Join(labels(string(svgChart(chart(6e6), "cycle", nil))), " "); got != "0 2000000 4000000 6000000" {
		t.Errorf("an axis to 6000000: %s; want it in full", got)
	}
	if got := strings.Join(labels(string(svgChart(chart(2e7), "cycle", nil))), " "); got != "0 5M 10M 15M 20M" {
		t.Errorf("an axis to 20000000: %s; want 0 5M 10M 15M 20M", got)
	}
	for _, top := range []float64{2.5e7, 3e9, 7e12, math.MaxInt64} {
		for _, l := range labels(string(svgChart(chart(top), "cycle", nil))) {
			if len(l) > 7 {
				t.Errorf("an axis to %g has the label %q, of more than 7 characters", top, l)
			}
		}
	}
	// A distribution of scores is labelled the same way under its bars.
	st := &standing{Player: "guide", Games: 2}
	st.scores.add(10)
	st.scores.add(40_000_000)
	svg := string(distributionChart([]*standing{st}))
	for _, m := range regexp.MustCompile(`text-anchor="middle">([^<]*)<`).FindAllStringSubmatch(svg, -1) {
		if len(m[1]) > 7 && m[1] != "score" {
			t.Errorf("the distribution has the label %q", m[1])
		}
	}
}

// teller tells "out (action N)" as the turn it came in.
type teller map[int]int

func (t teller) TellStatus(seat int, status string) string {
	if turn, ok := t[seat]; ok && status != "" {
		return fmt.Sprintf("out at turn %d (%s)", turn, strings.TrimPrefix(strings.TrimSuffix(status, ")"), "out ("))
	}
	return ""
}

func TestStatusAsTheMatchTellsIt(t *testing.T) {
	// A match that tells its statuses to people (engine.StatusTeller) has
	// them so in the text and the HTML report; the result, as a record
	// keeps it, is unchanged, and a status the match does not retell
	// stands.
	g := Game{Number: 1, Ruleset: "territories", Players: []string{"a", "b", "c"},
		Result: &engine.Result{Scores: []int64{0, 4, 0}, Ranks: []int{3, 1, 2}, Winners: []int{1}, Status: []string{"out (action 18)", "", "out (action 50)"}}}
	g.tellStatuses(teller{0: 3})
	if g.Result.Status[0] != "out (action 18)" {
		t.Errorf("the result's status became %q", g.Result.Status[0])
	}
	var text, page bytes.Buffer
	if err := (&Report{Games: []Game{g}}).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := (&Report{Games: []Game{g}}).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rank 3  OUT AT TURN 3 (ACTION 18)\n", "rank 2  OUT (ACTION 50)\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text has no %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(page.String(), "OUT AT TURN 3 (ACTION 18)") || !strings.Contains(page.String(), "OUT (ACTION 50)") {
		t.Error("the page does not tell the statuses as the match does")
	}
}
