package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

// forms makes a GameWriter of each form on w.
var forms = []struct {
	name string
	open func(w io.Writer) GameWriter
}{
	{"text", func(w io.Writer) GameWriter { return NewText(w, false) }},
	{"summary", func(w io.Writer) GameWriter { return NewSummary(w) }},
	{"json", func(w io.Writer) GameWriter { return NewJSON(w) }},
	{"html", func(w io.Writer) GameWriter { return NewHTML(w) }},
}

// writes counts the calls to Write and the bytes written.
type writes struct {
	calls, bytes int
}

func (w *writes) Write(p []byte) (int, error) {
	w.calls++
	w.bytes += len(p)
	return len(p), nil
}

func TestWritersWriteEachGameAtOnce(t *testing.T) {
	// "A report writer per form (text, JSON, HTML) that takes each game as
	// it is played and writes it out at once".
	r := series(t)
	for _, f := range forms {
		var out writes
		w := f.open(&out)
		for i := range r.Games {
			before := out.bytes
			if err := w.WriteGame(&r.Games[i]); err != nil {
				t.Fatal(err)
			}
			wrote := out.bytes > before
			if f.name == "summary" && wrote {
				t.Errorf("summary: game %d written; the summary writes the standings only", i+1)
			}
			if f.name != "summary" && (!wrote || out.calls != i+1) {
				t.Errorf("%s: after game %d, %d writes of %d bytes; want one write per game", f.name, i+1, out.calls, out.bytes)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStreamsAreTheReport(t *testing.T) {
	// Same records, same bytes: a report written game by game is the
	// report of the whole series.
	r := series(t)
	for _, f := range forms {
		if f.name == "summary" {
			continue
		}
		var streamed bytes.Buffer
		w := f.open(&streamed)
		for i := range r.Games {
			g := r.Games[i]
			if err := w.WriteGame(&g); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		golden := map[string]string{"text": "series.txt", "json": "series.json", "html": "series.html"}[f.name]
		want, err := os.ReadFile(filepath.Join("testdata", golden))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(streamed.Bytes(), want) {
			t.Errorf("%s: the streamed report differs from %s", f.name, golden)
		}
	}
}

func TestSummary(t *testing.T) {
	// "--report summary: only the series standings", after what the
	// series played, named as the text report's games name it: a summary
	// of one preset is not taken for another's.
	r := series(t)
	summary := summaryOf(t, r.Games)
	text, err := os.ReadFile(filepath.Join("testdata", "series.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const played = "game: ajveciv (original)\noptions: turns=12\n"
	if !bytes.Contains(text, []byte("game 2: ajveciv (original), seed ")) || !bytes.Contains(text, []byte("\noptions: turns=12\n")) {
		t.Fatalf("the text report does not name the game and options as %q", played)
	}
	standings := string(text[bytes.LastIndex(text, []byte("\nseries: "))+1:])
	const ended = "  ended: turns (2)\n" // the series' games, by how they ended
	if summary != played+standings+ended {
		t.Errorf("the summary:\n%s\nwant what was played, then the text report's standings, then how the games ended:\n%s%s%s", summary, played, standings, ended)
	}

	// One game is a series of one.
	if one := summaryOf(t, r.Games[:1]); !strings.HasPrefix(one, played+"series: 1 game, 1 finished\n") {
		t.Errorf("the summary of one game:\n%s", one)
	}

	// Games of other options are not passed off as the first's.
	other := r.Games[1]
	other.Options = Options{"turns": "13"}
	if mixed := summaryOf(t, []Game{r.Games[0], other}); !strings.HasPrefix(mixed, "games: not all of one game, variant and options\nseries: 2 games") {
		t.Errorf("the summary of games of two options:\n%s", mixed)
	}
}

// summaryOf is the summary of games, as NewSummary writes it.
func summaryOf(t *testing.T, games []Game) string {
	t.Helper()
	var b bytes.Buffer
	w := NewSummary(&b)
	for i := range games {
		if err := w.WriteGame(&games[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSummaryWithFaultsFits80Columns(t *testing.T) {
	// With the faults column, the summary's names once had room for 12
	// letters: "python starter", a program's name, made every line 82
	// columns, a name of 24 letters 92, and each player's faults were one
	// line of 150. The names' column narrows to fit, the faults wrap, and
	// the lines of faults name the player whole.
	r := series(t)
	long := map[string]string{"basic.conquer": "basic2.develop-consent", "stubborn": "python starter", "failing": "exec:python3 /home/someone/bots/failing.py"}
	for i := range r.Games {
		for s, p := range r.Games[i].Players {
			if l, ok := long[p]; ok {
				r.Games[i].Players[s] = l
			}
		}
	}
	summary := summaryOf(t, r.Games)
	for line := range strings.SplitSeq(strings.TrimRight(summary, "\n"), "\n") {
		if n := wrap.Cells(line); n > 80 {
			t.Errorf("a line of %d columns: %q\nin\n%s", n, line, summary)
		}
	}
	words := strings.Join(strings.Fields(summary), " ")
	for _, want := range []string{
		"Faults of python starter: 11 illegal (develop was not offered",
		"Faults of exec:python3 /home/someone/bots/failing.py: 13 error (no idea)",
		"\n  basic2…elop-consent     2     0 0.0% (0.0–65.8)",
	} {
		if !strings.Contains(summary, want) && !strings.Contains(words, want) {
			t.Errorf("the summary has no %q:\n%s", want, summary)
		}
	}
}

func TestSummaryEndingsStayBounded(t *testing.T) {
	// The endings counted each way a game ended by its whole reason up to
	// a colon: a game whose reasons differ game by game (a count, a name,
	// with no colon) made a summary's endings grow with the series, one
	// entry and one long line of text per game. A summary names the first
	// 12 ways, each in at most 60 characters, and counts the games of any
	// further way together, last.
	r := series(t)
	var games []Game
	for i := range 1000 {
		g := r.Games[i%len(r.Games)]
		res := *g.Result
		res.Reason = fmt.Sprintf("round %d ended the game", i%100)
		if i%100 == 7 {
			res.Reason = strings.Repeat("Wintermärchen", 20) // 260 runes, no space
		}
		g.Result = &res
		games = append(games, g)
	}
	var b bytes.Buffer
	w := NewSummaryJSON(&b)
	for i := range games {
		if err := w.WriteGame(&games[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(b.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, e := range s.Endings {
		sum += e.Games
		if n := len([]rune(e.Reason)); n > 60 {
			t.Errorf("an ending of %d characters: %q", n, e.Reason)
		}
	}
	if len(s.Endings) != 13 || sum != s.Finished || s.Endings[0] != (Ending{"round 0 ended the game", 10}) ||
		s.Endings[12] != (Ending{"other endings", 880}) {
		t.Errorf("%d endings adding up to %d of %d finished games: %+v; want 12 ways of 10 games, then other endings of 880", len(s.Endings), sum, s.Finished, s.Endings)
	}
	summary := summaryOf(t, games)
	for line := range strings.SplitSeq(strings.TrimRight(summary, "\n"), "\n") {
		if n := wrap.Cells(line); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	if words := strings.Join(strings.Fields(summary), " "); !strings.HasSuffix(words, "round 11 ended the game (10), other endings (880)") {
		t.Errorf("the summary does not end with the other endings:\n%s", summary)
	}
}

func TestSummaryTellsFaults(t *testing.T) {
	// The summary, the form of long series, counts each player's faults
	// and tells them kind by kind, with what the first of each said, as
	// tournament standings do.
	r := series(t)
	summary := summaryOf(t, r.Games)
	for _, want := range []string{
		"mean score (95% CI) faults\n", // one space apart: two made 81 columns
		"31.0 (1 game)           11\n",
		"  Faults of stubborn: 11 illegal (develop was not offered to society 3; choose\n    exchange, consent or expand)\n",
		"  Faults of failing: 13 error (no idea)\n",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary has no %q:\n%s", want, summary)
		}
	}
	if strings.Contains(summary, "Faults of basic") {
		t.Errorf("the summary tells faults of players without any:\n%s", summary)
	}
}

func TestOutcomeIsWhatTheSummaryNeeds(t *testing.T) {
	// A summary from the records alone, without replaying them, is the
	// summary from the full games.
	s := ajveciv.NewSeries(ajveciv.Original(), 42)
	s.Options = map[string]string{"turns": "12"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), ajveciv.Priority(ajveciv.Develop), stubborn{})...)
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), failing{}, ajveciv.Priority(ajveciv.Consent), ajveciv.Priority(ajveciv.Expand))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var full, brief bytes.Buffer
	fw, bw := NewSummary(&full), NewSummary(&brief)
	for k, rec := range recs {
		g, err := BuildGame(s.Ruleset, rec, k+1)
		if err != nil {
			t.Fatal(err)
		}
		o := Outcome(rec, k+1)
		o.ScoreName = s.Ruleset.Info().Score // the ruleset's word, not the record's
		if o.Number != k+1 || o.Seed != g.Seed || len(o.Faults) != len(g.Faults) || len(o.History) != 0 {
			t.Errorf("game %d: the outcome %+v", k+1, o)
		}
		if err := fw.WriteGame(&g); err != nil {
			t.Fatal(err)
		}
		if err := bw.WriteGame(&o); err != nil {
			t.Fatal(err)
		}
	}
	fw.Close()
	bw.Close()
	if full.String() != brief.String() || full.Len() == 0 {
		t.Errorf("summary of the outcomes:\n%s\nof the games:\n%s", brief.String(), full.String())
	}
}

func TestClosedAfterAnyGameIsComplete(t *testing.T) {
	// An interrupted series leaves a complete, valid report of the games
	// played so far.
	r := series(t)
	for _, f := range forms {
		for n := 0; n <= len(r.Games); n++ {
			var b bytes.Buffer
			w := f.open(&b)
			for i := range n {
				if err := w.WriteGame(&r.Games[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			switch f.name {
			case "json":
				var games []Game
				if err := json.Unmarshal(b.Bytes(), &games); err != nil || len(games) != n {
					t.Errorf("json after %d games: %d games, %v:\n%s", n, len(games), err, out)
				}
			case "html":
				if err := balanced(out); err != nil {
					t.Errorf("html after %d games: %v", n, err)
				}
				if got := strings.Count(out, "<h2>Game "); got != n {
					t.Errorf("html after %d games: %d game sections", n, got)
				}
				if got := strings.Contains(out, "<h2>Series: "); got != (n > 1) {
					t.Errorf("html after %d games: standings %v; want them for a series only", n, got)
				}
			case "text":
				if got := strings.Count(out, "\nfinal scores"); got != n {
					t.Errorf("text after %d games: %d games", n, got)
				}
				if got := strings.Contains(out, "\nseries: "); got != (n > 1) {
					t.Errorf("text after %d games: standings %v; want them for a series only", n, got)
				}
			case "summary":
				want := fmt.Sprintf("series: %d game", n)
				if n > 0 {
					want = "game: ajveciv (original)\noptions: turns=12\n" + want
				}
				if !strings.HasPrefix(out, want) {
					t.Errorf("summary after %d games:\n%s", n, out)
				}
			}
		}
	}
}

// tag is an HTML tag: its slash when it closes, its name, and its slash
// when it closes itself.
var tag = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>`)

// balanced checks that page is one html element whose tags all close, in
// order (void elements aside).
func balanced(page string) error {
	if !strings.HasPrefix(page, "<!DOCTYPE html>\n<html") || !strings.HasSuffix(page, "</html>\n") {
		return fmt.Errorf("the page is not one html element")
	}
	var open []string
	for _, m := range tag.FindAllStringSubmatch(page, -1) {
		closing, name, self := m[1] == "/", strings.ToLower(m[2]), m[3] == "/"
		switch {
		case self || name == "meta" || name == "br":
		case !closing:
			open = append(open, name)
		case len(open) == 0 || open[len(open)-1] != name:
			return fmt.Errorf("</%s> closes %v", name, open)
		default:
			open = open[:len(open)-1]
		}
	}
	if len(open) != 0 {
		return fmt.Errorf("unclosed: %v", open)
	}
	return nil
}

// liveHeap collects the garbage and returns the bytes of the heap's live
// objects.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// sampler is an output that forgets what is written, as a file does, and
// measures the live heap at every write of a game (or every so many, for a
// collection at each of thousands of games is slow on a busy machine) and
// at the report's end.
type sampler struct {
	base, peak int64
	every      int
	writes     int
	closing    bool
}

func (s *sampler) Write(p []byte) (int, error) {
	s.writes++
	if s.closing || s.writes%s.every == 0 {
		s.peak = max(s.peak, liveHeap()-s.base)
	}
	return len(p), nil
}

// peakHeap builds n games from rec, one by one as a series plays them,
// writes them with a GameWriter of the form open makes, closes it, and
// returns the most live heap seen at a write, above what was live before
// the first game. At a write the game's part of the report is in hand and
// all that the writer keeps is live; what it keeps from game to game would
// be live at its last write, at Close.
func peakHeap(t testing.TB, rec *engine.Record[ajveciv.Value], n int, open func(io.Writer) GameWriter) int64 {
	t.Helper()
	s := &sampler{every: max(1, n/100)}
	w := open(s)
	s.base = liveHeap()
	for k := range n {
		g, err := BuildGame(ajveciv.Original(), rec, k+1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteGame(&g); err != nil {
			t.Fatal(err)
		}
	}
	s.closing = true
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return s.peak
}

// holder is a GameWriter that keeps every game in a Report and writes it at
// the end: what a report that does not stream costs.
type holder struct {
	w io.Writer
	r Report
}

func (h *holder) WriteGame(g *Game) error {
	h.r.Games = append(h.r.Games, *g)
	return nil
}

func (h *holder) Close() error { return h.r.WriteJSON(h.w) }

// oneGame plays a game of twelve turns among four basic AIs.
func oneGame(t testing.TB) *engine.Record[ajveciv.Value] {
	t.Helper()
	s := ajveciv.NewSeries(ajveciv.Original(), 42)
	s.Options = map[string]string{"turns": "12"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), ajveciv.Priority(ajveciv.Develop), ajveciv.Priority(ajveciv.Consent), ajveciv.Priority(ajveciv.Expand))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return recs[0]
}

func TestStreamsInConstantMemory(t *testing.T) {
	// "Reports stream game by game in constant memory (a benchmark or test
	// that measures peak memory for 1 and 2,000 games)."
	if testing.Short() {
		t.Skip("reports 2,000 games")
	}
	rec := oneGame(t)
	const many = 2000
	// The heap a game holds while it is written, and what the standings
	// and the writers' buffers may add over a series: far less than a
	// second game.
	const allowance = 64 << 10

	// What holding the games would cost: the measure sees it (over fewer
	// games, for a growing heap is slow to collect at every game).
	const few = 200
	held := peakHeap(t, rec, few, func(w io.Writer) GameWriter { return &holder{w: w} })
	t.Logf("a Report holding %d games: peak live heap %d KB", few, held>>10)
	if held < 10*allowance {
		t.Fatalf("holding %d games adds only %d KB, against an allowance of %d KB; the measure does not see the games", few, held>>10, allowance>>10)
	}

	for _, f := range forms {
		one := peakHeap(t, rec, 1, f.open)
		series := peakHeap(t, rec, many, f.open)
		t.Logf("%-7s peak live heap: 1 game %4d KB, %d games %4d KB", f.name, one>>10, many, series>>10)
		if series > one+allowance {
			t.Errorf("%s: %d games take %d KB of heap at the peak, one game %d KB: the report grows with the series", f.name, many, series>>10, one>>10)
		}
	}
}

// BenchmarkWriteGame writes a twelve-turn AjveCiv game in each form.
func BenchmarkWriteGame(b *testing.B) {
	rec := oneGame(b)
	g, err := BuildGame(ajveciv.Original(), rec, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range forms {
		b.Run(f.name, func(b *testing.B) {
			w := f.open(io.Discard)
			b.ReportAllocs()
			for b.Loop() {
				if err := w.WriteGame(&g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBriefGameIsTheReplayedGame(t *testing.T) {
	// The text report of a match just played, from the match as play left
	// it, is the text report of its record replayed: for a match that
	// ended, one with faults, and one interrupted mid-round and before its
	// first move.
	s := ajveciv.NewSeries(ajveciv.Original(), 42)
	s.Options = map[string]string{"turns": "12"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), ajveciv.Priority(ajveciv.Develop), stubborn{})...)
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), failing{}, ajveciv.Priority(ajveciv.Consent), ajveciv.Priority(ajveciv.Expand))...)
	var full, brief bytes.Buffer
	fw, bw := NewText(&full, false), NewText(&brief, false)
	check := func(k int, rec *engine.Record[ajveciv.Value], m engine.Match[ajveciv.Value, ajveciv.View]) error {
		g, err := BuildGame(s.Ruleset, rec, k+1)
		if err != nil {
			return err
		}
		b, err := BriefGame(s.Ruleset, rec, m, k+1)
		if err != nil {
			return err
		}
		g.Brief()
		if len(b.History) != len(g.History) || b.Clock != g.Clock || len(b.Events) != len(g.Events) {
			t.Errorf("game %d: brief history %d, clock %d; replayed %d, %d", k+1, len(b.History), b.Clock, len(g.History), g.Clock)
		}
		if err := fw.WriteGame(&g); err != nil {
			return err
		}
		return bw.WriteGame(&b)
	}
	s.Played = check
	if _, err := s.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Interrupted: after 7 moves (mid-round), and before any.
	for k, stop := range []int{7, 0} {
		ctx, cancel := context.WithCancel(context.Background())
		moves := 0
		stopper := engine.PlayerFunc[ajveciv.Value, ajveciv.View](func(_ context.Context, req *engine.Request[ajveciv.Value], _ ajveciv.View) (ajveciv.Value, error) {
			if moves++; moves > stop {
				cancel()
				return ajveciv.None, ctx.Err()
			}
			return req.Default, nil
		})
		i := ajveciv.NewSeries(ajveciv.Original(), 7)
		i.Game(engine.Seat[ajveciv.Value, ajveciv.View]{Name: "stopper", Player: stopper}, engine.Seat[ajveciv.Value, ajveciv.View]{Name: "b", Player: ajveciv.Player(ajveciv.Priority(ajveciv.Expand))})
		i.Played = func(_ int, rec *engine.Record[ajveciv.Value], m engine.Match[ajveciv.Value, ajveciv.View]) error {
			return check(2+k, rec, m)
		}
		if _, err := i.Play(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted series: %v", err)
		}
		cancel()
	}
	fw.Close()
	bw.Close()
	if full.String() != brief.String() || !strings.Contains(full.String(), "not finished: interrupted") {
		t.Errorf("brief text report:\n%s\nreplayed:\n%s", brief.String(), full.String())
	}
}

func TestHTMLTellsFaults(t *testing.T) {
	// A game's section tells its faults seat by seat, kind by kind, with
	// the move and the detail of the first, as the text form does; a
	// listed game counts them by kind; the summary tells each player's.
	r := series(t)
	var b bytes.Buffer
	w := NewHTML(&b)
	for i := range r.Games {
		if err := w.WriteGame(&r.Games[i]); err != nil {
			t.Fatal(err)
		}
	}
	listed := r.Games[1]
	listed.Number = 11
	if err := w.WriteGame(&listed); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"11 faults (11 illegal): the default move was played",
		`<tr><td class="n">3</td><td>stubborn</td><td class="n">11</td><td>illegal</td><td class="n">3</td><td>develop was not offered to society 3; choose exchange, consent or expand</td></tr>`,
		`<tr><td class="n">2</td><td>failing</td><td class="n">13</td><td>error</td><td class="n">2</td><td>no idea</td></tr>`,
		"; 13 faults (13 error)</li>",
		"<p class=\"faults\">Faults of failing: 26 error (no idea)</p>",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

func TestSummaryJSON(t *testing.T) {
	// --report summary-json: the standings for programs, as one object
	// whose numbers are the summary's.
	r := series(t)
	var b bytes.Buffer
	w := NewSummaryJSON(&b)
	for i := range r.Games {
		if err := w.WriteGame(&r.Games[i]); err != nil {
			t.Fatal(err)
		}
	}
	if b.Len() != 0 {
		t.Fatalf("%d bytes written before Close", b.Len())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var s Summary
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if s.Games != 2 || s.Finished != 2 || s.Score != "yield plus population" || len(s.Standings) != 6 {
		t.Fatalf("summary %+v", s)
	}
	if s.Ruleset != "ajveciv" || s.Variant != "original" || fmt.Sprint(s.Options) != "map[turns:12]" {
		t.Errorf("the summary says it played %q (%q), options %v; want ajveciv (original), turns=12", s.Ruleset, s.Variant, s.Options)
	}
	conquer, stubborn := s.Standings[0], s.Standings[2]
	if conquer.Player != "basic.conquer" || conquer.Games != 2 || conquer.Wins != 0 || conquer.MeanScore != 49 ||
		math.Abs(conquer.WinRateHigh-0.658) > 0.001 || conquer.WinRateLow != 0 || conquer.WinRate != 0 ||
		conquer.MeanScoreCI == nil || math.Abs(*conquer.MeanScoreCI-3.92) > 0.01 || conquer.Faults != 0 || conquer.FaultKinds == nil {
		t.Errorf("basic.conquer %+v", conquer)
	}
	want := []FaultCount{{Kind: engine.FaultIllegal, Count: 11, First: "develop was not offered to society 3; choose exchange, consent or expand"}}
	if stubborn.Player != "stubborn" || stubborn.Faults != 11 || fmt.Sprint(stubborn.FaultKinds) != fmt.Sprint(want) {
		t.Errorf("stubborn %+v", stubborn)
	}
	if basic := s.Standings[1]; basic.WinRate != 1 || basic.WinRateHigh != 1 || math.Abs(basic.WinRateLow-0.207) > 0.001 {
		t.Errorf("basic.develop %+v", basic)
	}
}

func TestSummaryTellsLongNamesApart(t *testing.T) {
	// Two programs of one directory, given by their commands, differ at
	// the end of their names: the summary's table keeps that end.
	g := Game{Number: 1, Players: []string{"exec:python3 mybots/bad_one.py", "exec:python3 mybots/bad_two.py"},
		Result: &engine.Result{Scores: []int64{1, 0}, Ranks: []int{1, 2}, Winners: []int{0}}}
	var b bytes.Buffer
	w := NewSummary(&b)
	if err := w.WriteGame(&g); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 4 {
		t.Fatalf("the summary:\n%s", b.String())
	}
	one, two := strings.Fields(lines[2])[0], strings.Fields(lines[3])[0]
	if one == two || !strings.HasSuffix(one, "bad_one.py") || !strings.HasSuffix(two, "bad_two.py") || !strings.HasPrefix(one, "exec:") {
		t.Errorf("the players are shown as %q and %q:\n%s", one, two, b.String())
	}
	if n := wrap.Cells(one); n != 24 {
		t.Errorf("%q is %d cells; want 24", one, n)
	}
}
