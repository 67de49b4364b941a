package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteHTML writes the report as one self-contained page: no scripts, no
// links, nothing fetched. Each game has its result table and a chart per
// number the game exposes (for AjveCiv: every society's yield and
// population, and the world's yield), drawn in SVG; a series ends with each
// player's standing.
func (r *Report) WriteHTML(w io.Writer) error { return r.writeTo(NewHTML(w)) }

// HTMLWriter writes the HTML form, one self-contained page (see
// Report.WriteHTML): its head with the first game, each game's section as
// it comes, and the series standings and the end of the page at Close.
type HTMLWriter struct {
	w      io.Writer
	buf    bytes.Buffer
	series standings
}

// NewHTML returns an HTMLWriter on w.
func NewHTML(w io.Writer) *HTMLWriter { return &HTMLWriter{w: w} }

// WriteGame writes g's section of the page, after the head for the first
// game.
func (h *HTMLWriter) WriteGame(g *Game) error {
	h.buf.Reset()
	if h.series.games == 0 {
		if err := page.ExecuteTemplate(&h.buf, "head", nil); err != nil {
			return err
		}
	}
	h.series.add(g)
	if err := page.ExecuteTemplate(&h.buf, "game", newGameView(g)); err != nil {
		return fmt.Errorf("report: game %d: %w", g.Number, err)
	}
	_, err := h.w.Write(h.buf.Bytes())
	return err
}

// Close writes the series standings, when there was more than one game,
// and the end of the page.
func (h *HTMLWriter) Close() error {
	h.buf.Reset()
	if h.series.games == 0 {
		if err := page.ExecuteTemplate(&h.buf, "head", nil); err != nil {
			return err
		}
	}
	if h.series.games > 1 {
		v := seriesView{Count: h.series.count(), Players: h.series.order}
		if err := page.ExecuteTemplate(&h.buf, "series", v); err != nil {
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
	Total  int64
	Charts []chartView
	Faults int
	Marked int
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

// seriesView is the series standings as the end of the page shows them.
type seriesView struct {
	Count   string
	Players []*standing
}

// chartView is one chart of a game, drawn.
type chartView struct {
	Title string
	SVG   template.HTML
}

func newGameView(g *Game) gameView {
	v := gameView{Game: g, Name: g.Ruleset, Faults: len(g.Faults)}
	if g.Variant != "" {
		v.Name += " (" + g.Variant + ")"
	}
	if g.Result != nil {
		for s, score := range g.Result.Scores {
			marks := ""
			if g.Result.Won(s) {
				marks = "WINNER"
			}
			if s < len(g.Result.Status) && g.Result.Status[s] != "" {
				marks = strings.TrimSpace(marks + " " + strings.ToUpper(g.Result.Status[s]))
			}
			rank := 0
			if s < len(g.Result.Ranks) {
				rank = g.Result.Ranks[s]
			}
			v.Rows = append(v.Rows, resultRow{Seat: s + 1, Player: g.Players[s], Score: score, Rank: rank, Marks: marks, Colour: template.CSS(colour(s))})
			v.Total += score
		}
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

// page is the HTML form in four parts: the head, a game's section, the
// series standings and the tail.
var page = template.Must(template.New("head").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Arbiter report</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; }
h2 { font-size: 1.2em; margin-top: 2.5em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: .2em .8em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) { background: #f4f4f4; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .4em; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; }
figcaption { font-weight: 600; margin: .5em 0; }
svg text { font: 11px system-ui, sans-serif; fill: #444; }
</style>
</head>
<body>
<h1>Arbiter report</h1>
{{define "game"}}
<section>
<h2>Game {{.Number}}: {{.Name}}, seed {{.Seed}}</h2>
{{if .Result}}
<table>
<tr><th>seat</th><th>player</th><th>score</th><th>rank</th><th></th></tr>
{{range .Rows}}<tr><td class="n">{{.Seat}}</td><td><span class="swatch" style="background: {{.Colour}}"></span>{{.Player}}</td><td class="n">{{.Score}}</td><td class="n">{{.Rank}}</td><td>{{.Marks}}</td></tr>
{{end}}<tr><td></td><td>total</td><td class="n">{{.Total}}</td><td></td><td></td></tr>
</table>
{{else}}
<p>Not finished{{if .Aborted}}: {{.Aborted}}{{end}}.</p>
{{end}}
<p>{{if .Faults}}{{.Faults}} fault{{if ne .Faults 1}}s{{end}}: the default move was played for a player that was slow, crashed or answered nonsense.{{else}}No faults.{{end}}</p>
<div class="charts">
{{range .Charts}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}</div>
{{if .Events}}<details>
<summary>{{len .Events}} event{{if ne (len .Events) 1}}s{{end}}{{if .Marked}} ({{.Marked}} marked on the charts by a dashed line){{end}}</summary>
<table>
<tr><th>{{.ClockName}}</th><th>event</th></tr>
{{range .Events}}<tr><td class="n">{{.Clock}}</td><td>{{.Text}}</td></tr>
{{end}}</table>
</details>{{end}}
</section>
{{end}}{{define "series"}}
<section>
<h2>Series: {{.Count}}</h2>
<table>
<tr><th>player</th><th>games</th><th>wins</th><th>mean score</th></tr>
{{range .Players}}<tr><td>{{.Player}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.Mean}}</td></tr>
{{end}}</table>
</section>
{{end}}{{define "tail"}}
</body>
</html>
{{end}}`))

// palette holds distinguishable colours for up to 20 seats; more repeat.
var palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	"#393b79", "#ad494a", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1",
}

func colour(seat int) string {
	if seat < 0 {
		return "#222"
	}
	return palette[seat%len(palette)]
}

// Chart geometry, in SVG units.
const (
	chartW, chartH               = 460, 260
	padLeft, padRight, padTop    = 56, 12, 10
	padBottom                    = 34
	plotW, plotH                 = chartW - padLeft - padRight, chartH - padTop - padBottom
	legendRow                    = 16
	maxLegendWidth, legendColumn = chartW - padLeft, 150
)

// mark is an event marked on a chart's time axis.
type mark struct {
	clock int
	title string
}

// svgChart draws c as an SVG line chart with axes, ticks and a legend, and
// a dashed line at each mark.
func svgChart(c Chart, clock string, marks []mark) template.HTML {
	var b strings.Builder
	if len(c.X) == 0 {
		return ""
	}
	xmin, xmax := float64(c.X[0]), float64(c.X[len(c.X)-1])
	if xmax == xmin {
		xmax = xmin + 1
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, l := range c.Lines {
		for _, y := range l.Y {
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
	}
	yticks := niceTicks(ymin, ymax, 5)
	ymin, ymax = math.Min(ymin, yticks[0]), math.Max(ymax, yticks[len(yticks)-1])
	if ymax == ymin {
		ymax = ymin + 1
	}
	px := func(x float64) float64 { return padLeft + (x-xmin)/(xmax-xmin)*plotW }
	py := func(y float64) float64 { return padTop + (ymax-y)/(ymax-ymin)*plotH }

	perRow := max(1, maxLegendWidth/legendColumn)
	legendRows := (len(c.Lines) + perRow - 1) / perRow
	height := chartH + legendRows*legendRow + 6
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">`, chartW, height, chartW, height)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fff" stroke="#ccc"/>`, padLeft, padTop, plotW, plotH)
	for _, t := range yticks {
		y := num(py(t))
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#eee"/>`, padLeft, padLeft+plotW, y, y)
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`, padLeft-6, y, num(t))
	}
	for _, t := range niceTicks(xmin, xmax, 6) {
		if t < xmin || t > xmax {
			continue
		}
		x := num(px(t))
		fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#ccc"/>`, x, x, padTop+plotH, padTop+plotH+4)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`, x, padTop+plotH+16, num(t))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, padLeft+plotW/2, padTop+plotH+30, template.HTMLEscapeString(clock))
	for _, m := range marks {
		if x := float64(m.clock); x >= xmin && x <= xmax {
			fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#c00" stroke-opacity=".5" stroke-dasharray="3 3"><title>%s %d: %s</title></line>`,
				num(px(x)), num(px(x)), padTop, padTop+plotH, template.HTMLEscapeString(clock), m.clock, template.HTMLEscapeString(m.title))
		}
	}
	for _, l := range c.Lines {
		b.WriteString(`<polyline fill="none" stroke-width="1.5" stroke="`)
		b.WriteString(colour(l.Seat))
		b.WriteString(`" points="`)
		for i, y := range l.Y {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(num(px(float64(c.X[i]))))
			b.WriteByte(',')
			b.WriteString(num(py(y)))
		}
		b.WriteString(`"/>`)
	}
	for i, l := range c.Lines {
		x := padLeft + (i%perRow)*legendColumn
		y := chartH + (i/perRow)*legendRow
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/>`, x, y, colour(l.Seat))
		name := l.Name
		if l.Seat >= 0 {
			name = fmt.Sprintf("%d %s", l.Seat+1, l.Name)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`, x+14, y+5, template.HTMLEscapeString(name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// niceTicks returns about n round numbers covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return []float64{0, 1}
	}
	if hi == lo {
		return []float64{lo - 1, lo, lo + 1}
	}
	raw := (hi - lo) / float64(n)
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

// num formats a number for SVG with at most one decimal.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}
