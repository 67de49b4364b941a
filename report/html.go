package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// WriteHTML writes the report as one self-contained page: nothing fetched,
// its one script inline. A series leads with its summary (each player's
// standing with confidence intervals, and the distribution of their
// scores), then lists the games; a game has its result table and a chart
// per number the game exposes (for AjveCiv: every society's yield and
// population, and the world's yield), drawn in SVG across the page, where
// a pointer shows every line's name and value. A long series charts a
// sample of its games (see Charted), so that the page stays small.
func (r *Report) WriteHTML(w io.Writer) error { return r.writeTo(NewHTML(w)) }

// HTMLWriter writes the HTML form, one self-contained page (see
// Report.WriteHTML): its head with the first game, each game's section as
// it comes, and the series summary and the end of the page at Close. With
// a spool (SummaryFirst), the games wait in the spool and the page leads
// with the summary.
type HTMLWriter struct {
	w      io.Writer
	buf    bytes.Buffer
	series standings
	spool  io.ReadWriteSeeker
}

// NewHTML returns an HTMLWriter on w.
func NewHTML(w io.Writer) *HTMLWriter { return &HTMLWriter{w: w} }

// SummaryFirst makes the page lead with the series summary: the games are
// written to spool as they come (a temporary file: the report stays in
// constant memory), and Close writes the head and the summary to the
// writer, then the games from the spool. It must be called before the
// first game.
func (h *HTMLWriter) SummaryFirst(spool io.ReadWriteSeeker) { h.spool = spool }

// Charted reports whether game number n (from 1) of a series is charted in
// the HTML form: games 1 to 10, then every 10th to 100, every 100th to
// 1,000 and every 1,000th after; the others are listed with their results.
func Charted(n int) bool {
	return n <= 10 || n <= 100 && n%10 == 0 || n <= 1000 && n%100 == 0 || n%1000 == 0
}

// WriteGame writes g's section of the page, after the head for the first
// game (unless the page leads with its summary).
func (h *HTMLWriter) WriteGame(g *Game) error {
	h.buf.Reset()
	if h.series.games == 0 && h.spool == nil {
		if err := page.ExecuteTemplate(&h.buf, "head", nil); err != nil {
			return err
		}
	}
	h.series.add(g)
	name := "game"
	if !Charted(g.Number) {
		name = "listed"
	}
	if err := page.ExecuteTemplate(&h.buf, name, newGameView(g)); err != nil {
		return fmt.Errorf("report: game %d: %w", g.Number, err)
	}
	w := h.w
	if h.spool != nil {
		w = h.spool
	}
	_, err := w.Write(h.buf.Bytes())
	return err
}

// Close writes the series summary, when there was more than one game, and
// the end of the page; with a spool, the head and the summary first, then
// the games.
func (h *HTMLWriter) Close() error {
	h.buf.Reset()
	if h.series.games == 0 || h.spool != nil {
		if err := page.ExecuteTemplate(&h.buf, "head", nil); err != nil {
			return err
		}
	}
	if h.series.games > 1 {
		if err := page.ExecuteTemplate(&h.buf, "series", newSeriesView(&h.series, h.spool != nil)); err != nil {
			return err
		}
	}
	if h.spool != nil {
		if _, err := h.w.Write(h.buf.Bytes()); err != nil {
			return err
		}
		h.buf.Reset()
		if _, err := h.spool.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.Copy(h.w, h.spool); err != nil {
			return err
		}
	}
	if err := page.ExecuteTemplate(&h.buf, "tail", nil); err != nil {
		return err
	}
	_, err := h.w.Write(h.buf.Bytes())
	return err
}

// gameView is a game as its section of the page shows it.
type gameView struct {
	*Game
	Name   string
	Rows   []resultRow
	Charts []chartView
	Faults int
	// FaultRows tell the faults seat by seat, kind by kind, as the text
	// form does, and FaultKinds counts them by kind ("3 crash, 15
	// abandoned"), for a game listed without its section.
	FaultRows  []faultRow
	FaultKinds string
	Marked     int
	Winners    string
	Scores     string
	// OptionsLine lists the options as the text form does, and Settings
	// shows each option given as a document (a custom preset), key by key.
	OptionsLine string
	Settings    []documentView
}

// documentView is an option given as a document: the option's name, the
// document's label, and its members, nested keys joined by dots.
type documentView struct {
	Option, Label string
	Members       [][2]string
}

// newDocumentView reads a document's members in the order it gives them.
func newDocumentView(option string, d engine.OptionDocument) documentView {
	v := documentView{Option: option, Label: d.Label()}
	documentMembers(&v.Members, "", d.JSON)
	return v
}

// documentMembers appends an object's members to out, key and value, an
// inner object's keys after its own key and a dot.
func documentMembers(out *[][2]string, prefix string, object json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(object))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := t.(string)
		if prefix != "" {
			key = prefix + "." + key
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return
		}
		var text string
		switch {
		case len(value) > 0 && value[0] == '{':
			documentMembers(out, key, value)
			continue
		case json.Unmarshal(value, &text) != nil:
			text = string(value)
		}
		*out = append(*out, [2]string{key, text})
	}
}

// resultRow is a seat's line of a game's result table.
type resultRow struct {
	Seat   int
	Player string
	Score  int64
	Rank   int
	Marks  string
	Colour template.CSS
}

// faultRow is one kind of one seat's faults in a game: how many there
// were, and the move and the detail of the first.
type faultRow struct {
	Seat   int
	Player string
	Kind   engine.FaultKind
	Count  int
	Move   int
	Detail string
}

// faultRows groups g's faults by seat, then by kind in the order each
// kind first came.
func faultRows(g *Game) []faultRow {
	var rows []faultRow
	for s, p := range g.Players {
		from := len(rows)
		for _, f := range g.Faults {
			if f.Seat != s {
				continue
			}
			i := from
			for i < len(rows) && rows[i].Kind != f.Kind {
				i++
			}
			if i == len(rows) {
				rows = append(rows, faultRow{Seat: s + 1, Player: p, Kind: f.Kind, Move: f.Step + 1, Detail: f.Detail})
			}
			rows[i].Count++
		}
	}
	return rows
}

// faultKinds counts faults by kind, kinds in the order they first came:
// "3 crash, 15 abandoned".
func faultKinds(rows []faultRow) string {
	var kinds []FaultCount
	for _, r := range rows {
		kinds = AddFaults(kinds, FaultCount{Kind: r.Kind, Count: r.Count})
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = strconv.Itoa(k.Count) + " " + string(k.Kind)
	}
	return strings.Join(parts, ", ")
}

// seriesView is the series summary as the page shows it.
type seriesView struct {
	Count   string
	Score   string
	Players []*standing
	Chart   template.HTML
	// Sampled says that long series chart only some games.
	Sampled bool
	First   bool
}

func newSeriesView(s *standings, first bool) seriesView {
	return seriesView{Count: s.count(), Score: s.score, Players: s.order, Chart: distributionChart(s.order),
		Sampled: s.games > 10, First: first}
}

// chartView is one chart of a game, drawn.
type chartView struct {
	Title string
	SVG   template.HTML
}

func newGameView(g *Game) gameView {
	v := gameView{Game: g, Name: g.Ruleset, Faults: len(g.Faults), OptionsLine: optionsText(g.Options)}
	if len(g.Faults) > 0 {
		v.FaultRows = faultRows(g)
		v.FaultKinds = faultKinds(v.FaultRows)
	}
	if g.Variant != "" {
		v.Name += " (" + g.Variant + ")"
	}
	for _, name := range slices.Sorted(maps.Keys(g.Options)) {
		if d, ok := engine.ReadOptionDocument(g.Options[name]); ok {
			v.Settings = append(v.Settings, newDocumentView(name, d))
		}
	}
	if g.Result != nil {
		var winners, scores []string
		for s, score := range g.Result.Scores {
			marks := ""
			if g.Result.Won(s) {
				marks = "WINNER"
				winners = append(winners, fmt.Sprintf("%d %s", s+1, g.Players[s]))
			}
			if status := g.status(s); status != "" {
				marks = strings.TrimSpace(marks + " " + strings.ToUpper(status))
			}
			rank := 0
			if s < len(g.Result.Ranks) {
				rank = g.Result.Ranks[s]
			}
			v.Rows = append(v.Rows, resultRow{Seat: s + 1, Player: g.Players[s], Score: score, Rank: rank, Marks: marks, Colour: template.CSS(colour(s))})
			scores = append(scores, strconv.FormatInt(score, 10))
		}
		v.Winners, v.Scores = strings.Join(winners, ", "), strings.Join(scores, ", ")
		if v.Winners == "" {
			v.Winners = "nobody"
		}
	}
	if !Charted(g.Number) {
		return v
	}
	var marks []mark
	for _, e := range g.Events {
		if e.Mark {
			marks = append(marks, mark{e.Clock, e.Kind + ": " + e.Text})
		}
	}
	v.Marked = len(marks)
	for _, c := range g.Charts {
		v.Charts = append(v.Charts, chartView{Title: c.Title, SVG: svgChart(c, g.ClockName, marks)})
	}
	return v
}

// page is the HTML form in five parts: the head, a charted game's section,
// a listed game's line, the series summary and the tail.
var page = template.Must(template.New("head").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arbiter report</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 90em; color: #222; padding: 0 2em; }
h1 { font-size: 1.5em; }
h2 { font-size: 1.2em; margin-top: 2.5em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: .2em .8em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) { background: #f4f4f4; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .4em; }
figure { margin: 1em 0; width: 100%; position: relative; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-weight: 600; margin: .5em 0; }
svg text { font: 12px system-ui, sans-serif; fill: #444; }
ol.games { padding-left: 0; list-style: none; }
ol.games li { padding: .15em 0; border-bottom: 1px solid #eee; }
.tip { position: absolute; pointer-events: none; background: rgba(255,255,255,.95); border: 1px solid #999; border-radius: 4px; padding: .3em .6em; font-size: 13px; white-space: nowrap; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
.tip div { display: flex; justify-content: space-between; gap: 1.5em; }
</style>
</head>
<body>
<h1>Arbiter report</h1>
{{define "game"}}
<section id="game-{{.Number}}">
<h2>Game {{.Number}}: {{.Name}}, seed {{.Seed}}</h2>
{{if .OptionsLine}}<p>Options: {{.OptionsLine}}</p>
{{end}}{{range .Settings}}<details class="settings"><summary>{{.Option}}: {{.Label}}</summary>
<table>
<tr><th>key</th><th>value</th></tr>
{{range .Members}}<tr><td>{{index . 0}}</td><td class="n">{{index . 1}}</td></tr>
{{end}}</table>
</details>
{{end}}{{if .Result}}
<table>
<tr><th>seat</th><th>player</th><th>score</th><th>rank</th><th></th></tr>
{{range .Rows}}<tr><td class="n">{{.Seat}}</td><td><span class="swatch" style="background: {{.Colour}}"></span>{{.Player}}</td><td class="n">{{.Score}}</td><td class="n">{{.Rank}}</td><td>{{.Marks}}</td></tr>
{{end}}</table>
{{if .Result.Reason}}<p>Ended: {{.Result.Reason}}.{{if .ScoreName}} Score: {{.ScoreName}}.{{end}}</p>{{end}}
{{else}}
<p>Not finished{{if .Aborted}}: {{.Aborted}}{{end}}.</p>
{{end}}
<p>{{if .Faults}}{{.Faults}} fault{{if ne .Faults 1}}s{{end}} ({{.FaultKinds}}): the default move was played for a player that was slow, crashed or answered nonsense.{{else}}No faults.{{end}}</p>
{{if .FaultRows}}<table class="faults">
<tr><th>seat</th><th>player</th><th>faults</th><th>kind</th><th>first at move</th><th>what the first said</th></tr>
{{range .FaultRows}}<tr><td class="n">{{.Seat}}</td><td>{{.Player}}</td><td class="n">{{.Count}}</td><td>{{.Kind}}</td><td class="n">{{.Move}}</td><td>{{.Detail}}</td></tr>
{{end}}</table>
{{end}}{{range .Charts}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}
{{if .Events}}<details>
<summary>{{len .Events}} event{{if ne (len .Events) 1}}s{{end}}{{if .Marked}} ({{.Marked}} marked on the charts by a dashed line){{end}}</summary>
<table>
<tr><th>{{.ClockName}}</th><th>event</th></tr>
{{range .Events}}<tr><td class="n">{{.Clock}}</td><td>{{.Text}}</td></tr>
{{end}}</table>
</details>{{end}}
</section>
{{end}}{{define "listed"}}<ol class="games" start="{{.Number}}"><li id="game-{{.Number}}">Game {{.Number}}, seed {{.Seed}}: {{if .Result}}won by {{.Winners}}; scores {{.Scores}}{{else}}not finished{{end}}{{if .Faults}}; {{.Faults}} fault{{if ne .Faults 1}}s{{end}} ({{.FaultKinds}}){{end}}</li></ol>
{{end}}{{define "series"}}
<section id="series">
<h2>Series: {{.Count}}</h2>
<table>
<tr><th>player</th><th>games</th><th>wins</th><th>win rate (95% CI)</th><th>mean score (95% CI)</th><th>faults</th></tr>
{{range .Players}}<tr><td>{{.Player}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.WinText}}</td><td class="n">{{.MeanText}}</td><td class="n">{{.Faults}}</td></tr>
{{end}}</table>
<p>The intervals are 95% confidence intervals: Wilson's for the win rate, 1.96 standard errors for the mean score.{{if .Score}} Score: {{.Score}}.{{end}}</p>
{{range .Players}}{{if .Faults}}<p class="faults">Faults of {{.Player}}: {{.FaultsText}}</p>
{{end}}{{end}}<figure><figcaption>How each player's scores fall</figcaption>{{.Chart}}</figure>
{{if .Sampled}}<p>The games {{if .First}}follow{{else}}are above{{end}}: games 1 to 10 are charted, then every 10th to 100, every 100th to 1,000 and every 1,000th after; the others are listed with their results.</p>{{end}}
</section>
{{end}}{{define "tail"}}
<script>
// A pointer over a chart shows, at the nearest point of its time axis,
// every line's name and value, highest first.
for (const svg of document.querySelectorAll("svg[data-x]")) {
  const xs = svg.dataset.x.split(",").map(Number);
  const [left, width, xmin, xmax] = svg.dataset.geom.split(",").map(Number);
  const lines = [...svg.querySelectorAll("polyline[data-v]")].map(l => ({name: l.dataset.name, colour: l.getAttribute("stroke"), v: l.dataset.v.split(",")}));
  const guide = svg.querySelector(".guide");
  const tip = document.createElement("div");
  tip.className = "tip";
  tip.hidden = true;
  svg.parentNode.appendChild(tip);
  svg.addEventListener("pointermove", e => {
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const x = xmin + (p.x - left) / width * (xmax - xmin);
    let i = 0;
    for (let k = 1; k < xs.length; k++) if (Math.abs(xs[k] - x) < Math.abs(xs[i] - x)) i = k;
    const px = left + (xs[i] - xmin) / (xmax - xmin || 1) * width;
    guide.setAttribute("x1", px); guide.setAttribute("x2", px); guide.style.display = "";
    const rows = lines.map(l => ({name: l.name, colour: l.colour, v: l.v[i]})).sort((a, b) => b.v - a.v);
    tip.replaceChildren();
    const head = document.createElement("b");
    head.textContent = svg.dataset.clock + " " + xs[i];
    tip.appendChild(head);
    for (const r of rows) {
      const row = document.createElement("div");
      const name = document.createElement("span");
      name.textContent = "\u25a0 " + r.name;
      name.style.color = r.colour;
      const value = document.createElement("span");
      value.textContent = r.v;
      row.append(name, value);
      tip.appendChild(row);
    }
    tip.hidden = false;
    const box = svg.parentNode.getBoundingClientRect();
    const at = e.clientX - box.left;
    tip.style.left = (at + 16 + tip.offsetWidth < box.width ? at + 16 : at - 16 - tip.offsetWidth) + "px";
    tip.style.top = (e.clientY - box.top + 12) + "px";
  });
  svg.addEventListener("pointerleave", () => { tip.hidden = true; guide.style.display = "none"; });
}
</script>
</body>
</html>
{{end}}`))

// palette holds 20 colours, each far from the others (in CIELAB, see the
// test) and dark enough to read on white, for up to 20 seats; more repeat
// (with other dashes and markers).
var palette = []string{
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
	"#8a2be2", "#000000", "#000075", "#556b2f", "#ff1493", "#f032e6", "#8b008b", "#b8860b", "#1e90ff", "#800000",
}

func colour(seat int) string {
	if seat < 0 {
		return "#222"
	}
	return palette[seat%len(palette)]
}

// dashes are the lines' dash patterns, by seat, so that lines that overlap
// stay apart: the first seats plain, dashed, dotted, dash-dotted.
var dashes = []string{"", "8 4", "2 3", "10 3 2 3", "4 4", "12 3 2 3 2 3"}

// dash returns seat's dash pattern: seats after the palette's colours, whose
// colours repeat, take the next patterns.
func dash(seat int) string {
	if seat < 0 {
		return ""
	}
	return dashes[(seat+seat/len(palette))%len(dashes)]
}

// Chart geometry, in SVG units: a chart is drawn across the page.
const (
	chartW, chartH               = 960, 300
	padLeft, padRight, padTop    = 64, 16, 10
	padBottom                    = 36
	plotW, plotH                 = chartW - padLeft - padRight, chartH - padTop - padBottom
	legendRow                    = 20
	maxLegendWidth, legendColumn = chartW - padLeft, 220
	markersPerLine               = 12
)

// stepsUpTo is the longest clock (in its units) whose counts are drawn as
// steps: on a longer one a unit of the clock is a few pixels wide, where
// a slope between two samples cannot mislead, and steps would double the
// points of every line.
const stepsUpTo = 50

// mark is an event marked on a chart's time axis.
type mark struct {
	clock int
	title string
}

// svgChart draws c as an SVG line chart with axes, ticks and a legend, and
// a dashed line at each mark. The clock's ticks are whole numbers; a chart
// whose values are all whole (a count) has whole ticks too, and, on a
// clock of up to stepsUpTo, lines of steps: a value holds until the next
// sample. Each line has its colour, a dash pattern and
// markers of its own shape, offset from its neighbours', so that lines
// that overlap stay apart; the values and names are in data attributes,
// for the page's pointer to show.
func svgChart(c Chart, clock string, marks []mark) template.HTML {
	var b strings.Builder
	if len(c.X) == 0 {
		return ""
	}
	c = endOfEachClock(c)
	xmin, xmax := float64(c.X[0]), float64(c.X[len(c.X)-1])
	if xmax == xmin {
		xmax = xmin + 1
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	counts := true // every value whole: the chart counts something
	for _, l := range c.Lines {
		for _, y := range l.Y {
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
			counts = counts && y == math.Trunc(y)
		}
	}
	yticks := niceTicks(ymin, ymax, 5, counts)
	ymin, ymax = math.Min(ymin, yticks[0]), math.Max(ymax, yticks[len(yticks)-1])
	if ymax == ymin {
		ymax = ymin + 1
	}
	px := func(x float64) float64 { return padLeft + (x-xmin)/(xmax-xmin)*plotW }
	py := func(y float64) float64 { return padTop + (ymax-y)/(ymax-ymin)*plotH }
	steps := counts && xmax-xmin <= stepsUpTo

	perRow := max(1, maxLegendWidth/legendColumn)
	legendRows := (len(c.Lines) + perRow - 1) / perRow
	height := chartH + legendRows*legendRow + 6
	xs := make([]string, len(c.X))
	for i, x := range c.X {
		xs[i] = strconv.Itoa(x)
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" data-clock="%s" data-x="%s" data-geom="%d,%d,%s,%s">`,
		chartW, height, template.HTMLEscapeString(clock), strings.Join(xs, ","), padLeft, plotW, num(xmin), num(xmax))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fff" stroke="#ccc"/>`, padLeft, padTop, plotW, plotH)
	for i, label := range axisLabels(yticks) {
		y := num(py(yticks[i]))
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#eee"/>`, padLeft, padLeft+plotW, y, y)
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`, padLeft-6, y, label)
	}
	for _, t := range niceTicks(xmin, xmax, 10, true) {
		if t < xmin || t > xmax {
			continue
		}
		x := num(px(t))
		fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#ccc"/>`, x, x, padTop+plotH, padTop+plotH+4)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`, x, padTop+plotH+17, num(t))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, padLeft+plotW/2, padTop+plotH+32, template.HTMLEscapeString(clock))
	for _, m := range marks {
		if x := float64(m.clock); x >= xmin && x <= xmax {
			fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#c00" stroke-opacity=".5" stroke-dasharray="3 3"><title>%s %d: %s</title></line>`,
				num(px(x)), num(px(x)), padTop, padTop+plotH, template.HTMLEscapeString(clock), m.clock, template.HTMLEscapeString(m.title))
		}
	}
	every := max(1, len(c.X)/markersPerLine)
	for k, l := range c.Lines {
		fmt.Fprintf(&b, `<polyline fill="none" stroke-width="2" stroke="%s"`, colour(l.Seat))
		if d := dash(l.Seat); d != "" {
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, d)
		}
		fmt.Fprintf(&b, ` data-name="%s" data-v="`, template.HTMLEscapeString(lineName(l)))
		for i, y := range l.Y {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(num(y))
		}
		b.WriteString(`" points="`)
		for i, y := range l.Y {
			if i > 0 {
				b.WriteByte(' ')
				if steps {
					// A count holds from one sample of the clock to the
					// next, and steps there.
					b.WriteString(num(px(float64(c.X[i]))))
					b.WriteByte(',')
					b.WriteString(num(py(l.Y[i-1])))
					b.WriteByte(' ')
				}
			}
			b.WriteString(num(px(float64(c.X[i]))))
			b.WriteByte(',')
			b.WriteString(num(py(y)))
		}
		b.WriteString(`"/>`)
		// Markers every few points, each line's offset from the last one's.
		fmt.Fprintf(&b, `<g fill="%s">`, colour(l.Seat))
		for i := (k * every / max(len(c.Lines), 1)) % every; i < len(l.Y); i += every {
			marker(&b, l.Seat, px(float64(c.X[i])), py(l.Y[i]))
		}
		b.WriteString(`</g>`)
	}
	fmt.Fprintf(&b, `<line class="guide" x1="0" x2="0" y1="%d" y2="%d" stroke="#555" style="display: none"/>`, padTop, padTop+plotH)
	for i, l := range c.Lines {
		x := padLeft + (i%perRow)*legendColumn
		y := chartH + (i/perRow)*legendRow
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"`, x, x+28, y+6, y+6, colour(l.Seat))
		if d := dash(l.Seat); d != "" {
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, d)
		}
		b.WriteString(`/>`)
		fmt.Fprintf(&b, `<g fill="%s">`, colour(l.Seat))
		marker(&b, l.Seat, float64(x+14), float64(y+6))
		b.WriteString(`</g>`)
		fmt.Fprintf(&b, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`, x+34, y+6, template.HTMLEscapeString(lineName(l)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// endOfEachClock keeps, of the samples taken at one time of the game's
// clock (TNCC samples every round of a cycle), the last: the chart and its
// pointer show the game by its clock, one point a cycle. A chart whose
// clock moves at every sample is returned as it is.
func endOfEachClock(c Chart) Chart {
	n := 0
	for i := range c.X {
		if i == len(c.X)-1 || c.X[i+1] != c.X[i] {
			n++
		}
	}
	if n == len(c.X) {
		return c
	}
	out := Chart{Title: c.Title, X: make([]int, 0, n), Lines: make([]Line, len(c.Lines))}
	for k, l := range c.Lines {
		out.Lines[k] = Line{Name: l.Name, Seat: l.Seat, Y: make([]float64, 0, n)}
	}
	for i, x := range c.X {
		if i < len(c.X)-1 && c.X[i+1] == x {
			continue
		}
		out.X = append(out.X, x)
		for k, l := range c.Lines {
			out.Lines[k].Y = append(out.Lines[k].Y, l.Y[i])
		}
	}
	return out
}

// lineName is a line's name in the legend: the seat's number and player.
func lineName(l Line) string {
	if l.Seat >= 0 {
		return fmt.Sprintf("%d %s", l.Seat+1, l.Name)
	}
	return l.Name
}

// marker draws seat's marker at (x, y): a circle, a square, a triangle or
// a diamond, by seat.
func marker(b *strings.Builder, seat int, x, y float64) {
	switch max(seat, 0) % 4 {
	case 0:
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="3.5"/>`, num(x), num(y))
	case 1:
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="6" height="6"/>`, num(x-3), num(y-3))
	case 2:
		fmt.Fprintf(b, `<path d="M%s %sl4 7h-8z"/>`, num(x), num(y-4))
	default:
		fmt.Fprintf(b, `<path d="M%s %sl4 4-4 4-4-4z"/>`, num(x), num(y-4))
	}
}

// distributionChart draws how each player's scores fall: one row per
// player, a bar per bin of its histogram on a shared axis of scores, the
// bar's height its share of the player's games, and a tick at the mean.
func distributionChart(players []*standing) template.HTML {
	lo, hi, any := int64(0), int64(0), false
	for _, st := range players {
		if st.scores.n == 0 {
			continue
		}
		l, h := st.scores.span()
		if !any || l < lo {
			lo = l
		}
		if !any || h > hi {
			hi = h
		}
		any = true
	}
	if !any {
		return ""
	}
	const rowH, label = 34, 220
	left, width := padLeft+label, plotW-label
	span := float64(hi - lo + 1)
	px := func(x float64) float64 { return float64(left) + (x-float64(lo))/span*float64(width) }
	height := len(players)*rowH + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img">`, chartW, height)
	var ticks []float64
	for _, t := range niceTicks(float64(lo), float64(hi), 10, true) {
		if t >= float64(lo) && t <= float64(hi) {
			ticks = append(ticks, t)
		}
	}
	for i, label := range axisLabels(ticks) {
		x := num(px(ticks[i] + 0.5)) // under the middle of its bar, where the mean's tick counts it
		fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="0" y2="%d" stroke="#eee"/>`, x, x, len(players)*rowH)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`, x, len(players)*rowH+16, label)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">score</text>`, left+width/2, len(players)*rowH+34)
	for r, st := range players {
		y := r * rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`, left-10, y+rowH/2, template.HTMLEscapeString(st.Player))
		most := 0
		for _, c := range st.scores.bins {
			most = max(most, c)
		}
		h := &st.scores
		for i, c := range h.bins {
			if c == 0 {
				continue
			}
			from := h.lo + int64(i)*h.width
			x0, x1 := px(float64(from)), px(float64(from+h.width))
			bh := float64(rowH-6) * float64(c) / float64(most)
			games := "games"
			if c == 1 {
				games = "game"
			}
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s: %d %s scored %s</title></rect>`,
				num(x0), num(float64(y+rowH-3)-bh), num(math.Max(x1-x0, 1)), num(bh), colour(r), template.HTMLEscapeString(st.Player), c, games, binText(from, h.width))
		}
		if st.Games > 0 {
			m := num(px(st.mean() + 0.5))
			fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#000" stroke-width="2"><title>%s: mean %s</title></line>`, m, m, y+2, y+rowH-2, template.HTMLEscapeString(st.Player), st.Mean())
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// binText names a histogram bin's scores: "12", or "12 to 15".
func binText(from, width int64) string {
	if width == 1 {
		return strconv.FormatInt(from, 10)
	}
	return fmt.Sprintf("%d to %d", from, from+width-1)
}

// niceTicks returns about n round numbers covering [lo, hi]; whole ones
// (a step of 1 or more) when whole is set, for an axis of whole numbers (a
// game's clock, a count), as the live pages' charts tick them.
func niceTicks(lo, hi float64, n int, whole bool) []float64 {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return []float64{0, 1}
	}
	if hi == lo {
		return []float64{lo - 1, lo, lo + 1}
	}
	raw := (hi - lo) / float64(n)
	if whole {
		raw = math.Max(raw, 1)
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var ticks []float64
	for t := start; t <= hi+step/2 && len(ticks) < 3*n; t += step {
		ticks = append(ticks, t)
	}
	if ticks[len(ticks)-1] < hi {
		ticks = append(ticks, ticks[len(ticks)-1]+step)
	}
	return ticks
}

// maxAxisLabel is the most characters an axis's label has in full: seven
// fill the room left of a chart's plot (padLeft) and between two of a
// distribution's ticks.
const maxAxisLabel = 7

// axisLabels writes an axis's ticks: in full (num), unless one would take
// more than maxAxisLabel characters, cut off at the page's edge or run
// into the next (a long game's yields, a preset's large amounts); then
// all of them in one unit of thousands with its SI prefix, 20000000 as
// "20M" and 2500000 as "2.5M" beside it.
func axisLabels(ticks []float64) []string {
	labels := make([]string, len(ticks))
	most := 0.0
	long := false
	for i, t := range ticks {
		labels[i] = num(t)
		long = long || len(labels[i]) > maxAxisLabel
		most = math.Max(most, math.Abs(t))
	}
	if !long {
		return labels
	}
	unit, prefix := 1.0, ""
	for _, u := range []struct {
		size   float64
		prefix string
	}{{1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}} {
		if most >= u.size {
			unit, prefix = u.size, u.prefix
		}
	}
	for i, t := range ticks {
		v := math.Round(t/unit*1000) / 1000
		if v == 0 {
			labels[i] = "0"
			continue
		}
		labels[i] = strconv.FormatFloat(v, 'f', -1, 64) + prefix
	}
	return labels
}

// num formats a number for SVG with at most one decimal.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}
