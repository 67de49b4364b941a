// Package report turns match records into reports: text for people, JSON for
// programs, and a self-contained HTML page with charts.
//
// A report is derived from records alone: Build replays each record through
// its ruleset, sampling what a spectator may see (engine.Publisher) and the
// numbers the game exposes (engine.Measurer) after every round. Reports hold
// no wall-clock timings, so the same records give the same bytes.
//
// A Report holds its games; a GameWriter (NewText, NewSummary,
// NewSummaryJSON, NewJSON, NewHTML) takes them one at a time, as a series plays them, and writes each
// at once, so that a series of any length is reported in constant memory.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// Report is what a series of matches came to.
type Report struct {
	Games []Game
	// Verbose asks the text form for the world at every step of the game's
	// clock (every turn, every cycle), not only the first and the last.
	Verbose bool
}

// Game is one match of a report.
type Game struct {
	Number  int      `json:"game"` // from 1
	Ruleset string   `json:"ruleset"`
	Variant string   `json:"variant,omitempty"`
	Seed    uint64   `json:"seed"`
	Players []string `json:"players"`
	// Specs is, for players that named themselves (an external program's
	// ready), how each seat's player was given on the command line; "" for
	// the others. Nil when no player named itself.
	Specs []string `json:"specs,omitempty"`
	// Options are the match's options as its record gives them; in JSON a
	// value given as a document (a custom preset) is written as its label
	// (see Options), and the document itself is in Documents.
	Options Options `json:"options,omitempty"`
	// Documents holds, by option name, each option whose value is a JSON
	// object (a custom preset's numbers, a board) as that object.
	Documents map[string]json.RawMessage `json:"option_documents,omitempty"`
	Faults    []engine.SeatFault         `json:"faults"`
	// Result is nil when the match did not end.
	Result *engine.Result `json:"result"`
	// Aborted says why play stopped early, when it did.
	Aborted string `json:"aborted,omitempty"`
	// History is what a spectator saw at the start and after every round,
	// in the game's own JSON shape.
	History []any `json:"history"`
	// Events are what happened that everyone may know, for games that tell
	// them (see engine.Chronicler): wars, trades, deaths.
	Events []engine.Event `json:"events,omitempty"`
	// Clocks are the game's time at each sample of History.
	Clocks []int `json:"-"`
	// Charts are the game's numbers over time.
	Charts []Chart `json:"-"`
	// Statuses are the seats' statuses (Result.Status) as the match tells
	// them to people (engine.StatusTeller), "" where the result's word
	// stands: "out at turn 12 (action 48)" for "out (action 48)".
	Statuses []string `json:"-"`
	// Clock is the game's time at the end, and ClockName its word ("turn").
	Clock     int    `json:"-"`
	ClockName string `json:"-"`
	// ScoreName says what a score counts ("cycles survived"), as the
	// game's rules say (engine.Info.Score).
	ScoreName string `json:"-"`
}

// Chart is one number of a game over time: one line per seat, or one line
// for the whole match.
type Chart struct {
	Title string
	X     []int // the game's clock at each sample
	Lines []Line
}

// Line is one series of a chart.
type Line struct {
	Name string
	Seat int // -1 for a line of the whole match
	Y    []float64
}

// Build replays every record through rs and gathers the report. A record the
// rules do not reproduce is an error.
func Build[M, V any](rs engine.Ruleset[M, V], recs []*engine.Record[M]) (*Report, error) {
	r := &Report{Games: make([]Game, 0, len(recs))}
	for k, rec := range recs {
		g, err := BuildGame(rs, rec, k+1)
		if err != nil {
			return nil, err
		}
		r.Games = append(r.Games, g)
	}
	return r, nil
}

// BuildGame replays one record through rs and makes its part of a report,
// numbered number. Long series build their report game by game and hand
// each game to a GameWriter, so that they keep neither the records nor the
// games.
func BuildGame[M, V any](rs engine.Ruleset[M, V], rec *engine.Record[M], number int) (Game, error) {
	g, err := build(rs, rec)
	if err != nil {
		return Game{}, fmt.Errorf("report: game %d: %w", number, err)
	}
	g.Number = number
	return g, nil
}

// Rename gives the seats the names in names (the names external programs
// gave themselves), keeping how each was given on the command line in
// specs; nil specs leave g as it is. Charts' lines are renamed too, and
// the worlds of the history that name the players (engine.Renamer).
func (g *Game) Rename(names, specs []string) {
	if specs == nil {
		return
	}
	g.Players, g.Specs = names, specs
	for i, h := range g.History {
		if r, ok := h.(engine.Renamer); ok {
			g.History[i] = r.Renamed(names)
		}
	}
	for k := range g.Charts {
		for i := range g.Charts[k].Lines {
			if l := &g.Charts[k].Lines[i]; l.Seat >= 0 && l.Seat < len(names) {
				l.Name = names[l.Seat]
			}
		}
	}
}

// Brief drops what only the JSON and HTML forms show (the history between
// the first and the last world, and the charts), keeping what the text form
// prints. A Report that holds a long series for its text form keeps little
// per game; a GameWriter keeps no game at all.
func (g *Game) Brief() {
	if len(g.History) > 2 {
		g.History = []any{g.History[0], g.History[len(g.History)-1]}
		g.Clocks = []int{g.Clocks[0], g.Clocks[len(g.Clocks)-1]}
	}
	g.Charts = nil
}

// BriefGame makes the part of a report that the text form prints (see
// Brief) for a match just played, numbered number, without replaying its
// record: the world at the start is a new match's of the same setup, and
// the world at the end is m's, which must be the match rec records, as play
// left it. A game whose matches do not measure their clock (engine.Measurer)
// is replayed, as BuildGame does.
func BriefGame[M, V any](rs engine.Ruleset[M, V], rec *engine.Record[M], m engine.Match[M, V], number int) (Game, error) {
	meas, ok := m.(engine.Measurer)
	pub, ok2 := m.(engine.Publisher)
	if !ok || !ok2 {
		g, err := BuildGame(rs, rec, number)
		g.Brief()
		return g, err
	}
	start, err := rs.New(rec.Header.Setup)
	if err != nil {
		return Game{}, fmt.Errorf("report: game %d: %w", number, err)
	}
	g := Outcome(rec, number)
	g.ScoreName, g.ClockName = rs.Info().Score, clockName(rs.Info())
	g.History = append(g.History, start.(engine.Publisher).Public())
	g.Clock = start.(engine.Measurer).Clock()
	g.Clocks = append(g.Clocks, g.Clock)
	if len(rec.Steps) > 0 {
		g.History = append(g.History, pub.Public())
		g.Clocks = append(g.Clocks, meas.Clock())
		g.Clock = meas.Clock()
	}
	if c, ok := m.(engine.Chronicler); ok {
		g.Events = c.Chronicle()
	}
	g.tellStatuses(m)
	return g, nil
}

// clockName is the word for a game's clock: "turn" unless it says.
func clockName(info engine.Info) string {
	if info.Clock == "" {
		return "turn"
	}
	return info.Clock
}

// Outcome makes a record's part of a report, numbered number, without
// replaying it: its setup, faults and result, but no history, events or
// charts. It is all the series standings need (see SummaryWriter), at a
// fraction of BuildGame's cost.
func Outcome[M any](rec *engine.Record[M], number int) Game {
	h := rec.Header
	g := Game{
		Number: number, Ruleset: h.Ruleset, Variant: h.Variant, Seed: h.Setup.Seed,
		Players: h.Setup.Players, Options: h.Setup.Options,
		Faults: rec.Faults(), History: []any{},
	}
	for name, v := range h.Setup.Options {
		if d, ok := engine.ReadOptionDocument(v); ok {
			if g.Documents == nil {
				g.Documents = map[string]json.RawMessage{}
			}
			g.Documents[name] = d.JSON
		}
	}
	if g.Faults == nil {
		g.Faults = []engine.SeatFault{}
	}
	if rec.End != nil {
		g.Result, g.Aborted = adjudicated(rec), rec.End.Aborted
	}
	return g
}

// adjudicated is a finished record's result as reports count it: a seat
// that never answered cannot win (engine.Result.Adjudicated).
func adjudicated[M any](rec *engine.Record[M]) *engine.Result {
	if rec.End == nil || rec.End.Result == nil {
		return nil
	}
	res := rec.End.Result.Adjudicated(rec.Absent())
	return &res
}

func build[M, V any](rs engine.Ruleset[M, V], rec *engine.Record[M]) (Game, error) {
	h := rec.Header
	g := Outcome(rec, 0)
	g.ScoreName = rs.Info().Score
	g.ClockName = clockName(rs.Info())
	seats := len(h.Setup.Players)
	var sampled bool
	m, err := engine.Replay(rs, rec, func(m engine.Match[M, V]) {
		meas, ok := m.(engine.Measurer)
		if p, ok := m.(engine.Publisher); ok {
			g.History = append(g.History, p.Public())
			clock := len(g.Clocks)
			if meas != nil {
				clock = meas.Clock()
			}
			g.Clocks = append(g.Clocks, clock)
		}
		if !ok {
			return
		}
		if !sampled {
			sampled = true
			for _, ms := range meas.Measures() {
				c := Chart{Title: ms.Name}
				if ms.PerSeat {
					for s := range seats {
						c.Lines = append(c.Lines, Line{Name: h.Setup.Players[s], Seat: s})
					}
				} else {
					c.Lines = []Line{{Name: ms.Name, Seat: -1}}
				}
				g.Charts = append(g.Charts, c)
			}
		}
		clock := meas.Clock()
		for k := range g.Charts {
			c := &g.Charts[k]
			c.X = append(c.X, clock)
			for i := range c.Lines {
				l := &c.Lines[i]
				l.Y = append(l.Y, meas.Measure(k, max(l.Seat, 0)))
			}
		}
		g.Clock = clock
	})
	if err != nil {
		return Game{}, err
	}
	if c, ok := m.(engine.Chronicler); ok {
		g.Events = c.Chronicle()
	}
	g.tellStatuses(m)
	return g, nil
}

// tellStatuses asks m, the match of g as it ended, to tell the statuses of
// g's result to people (engine.StatusTeller).
func (g *Game) tellStatuses(m any) {
	t, ok := m.(engine.StatusTeller)
	if !ok || g.Result == nil {
		return
	}
	for s, status := range g.Result.Status {
		if status == "" {
			continue
		}
		if told := t.TellStatus(s, status); told != "" {
			if g.Statuses == nil {
				g.Statuses = make([]string, len(g.Result.Status))
			}
			g.Statuses[s] = told
		}
	}
}

// status is seat s's status for people: as the match told it, else the
// result's word; "" for none.
func (g *Game) status(s int) string {
	if s < len(g.Statuses) && g.Statuses[s] != "" {
		return g.Statuses[s]
	}
	if g.Result != nil && s < len(g.Result.Status) {
		return g.Result.Status[s]
	}
	return ""
}

// WriteJSON writes the report as a JSON array, one object per game: seed,
// players, faults, result and history.
func (r *Report) WriteJSON(w io.Writer) error { return r.writeTo(NewJSON(w)) }

// WriteText writes the report for people: per game its seed and players,
// the world at the start and at the end, the final scores with WINNER and
// status marks (DEAD), what a score counts and the faults; then, for a series,
// each player's record.
func (r *Report) WriteText(w io.Writer) error { return r.writeTo(NewText(w, r.Verbose)) }

// writeTo writes every game of the report to gw, then its end.
func (r *Report) writeTo(gw GameWriter) error {
	for i := range r.Games {
		if err := gw.WriteGame(&r.Games[i]); err != nil {
			return err
		}
	}
	return gw.Close()
}

func (g *Game) writeText(b *bytes.Buffer, verbose bool) {
	var digits [24]byte
	name := g.Ruleset
	if g.Variant != "" {
		name += " (" + g.Variant + ")"
	}
	fmt.Fprintf(b, "game %d: %s, seed %d\n", g.Number, name, g.Seed)
	var players strings.Builder
	players.WriteString("players:")
	for s, p := range g.Players {
		if s > 0 {
			players.WriteByte(',')
		}
		players.WriteByte(' ')
		players.Write(strconv.AppendInt(digits[:0], int64(s+1), 10))
		players.WriteRune(wrap.NoBreak) // a seat's number stays with its player
		players.WriteString(p)
	}
	wrap.Write(b, players.String(), "", "  ", wrap.Width)
	if opts := optionsText(g.Options); opts != "" {
		wrap.Write(b, "options: "+opts, "", "  ", wrap.Width)
	}
	if len(g.History) > 0 {
		b.WriteString("at the start\n")
		indent(b, text(g.History[0]), "  ")
		last := len(g.History) - 1
		if verbose && len(g.Clocks) == len(g.History) {
			// The world each time the clock moves on.
			for i := 1; i < last; i++ {
				if g.Clocks[i-1] != g.Clocks[i] {
					fmt.Fprintf(b, "%s %d\n", g.ClockName, g.Clocks[i])
					indent(b, fmt.Sprint(g.History[i]), "  ")
				}
			}
		}
		if last > 0 {
			b.WriteString("at the end (")
			b.WriteString(g.ClockName)
			b.WriteByte(' ')
			b.Write(strconv.AppendInt(digits[:0], int64(g.Clock), 10))
			b.WriteString(")\n")
			indent(b, text(g.History[last]), "  ")
		}
	}
	if len(g.Events) > 0 {
		b.WriteString("events\n")
		for _, e := range g.Events {
			wrap.Write(b, fmt.Sprintf("%s %d: %s", g.ClockName, e.Clock, e.Text), "  ", "    ", wrap.Width)
		}
	}
	switch {
	case g.Result != nil:
		if g.Result.Reason != "" {
			fmt.Fprintf(b, "ended: %s\n", g.Result.Reason)
		}
		if g.ScoreName != "" {
			fmt.Fprintf(b, "final scores (score: %s)\n", g.ScoreName)
		} else {
			b.WriteString("final scores\n")
		}
		width := 0 // the names' column, in a terminal's cells
		for _, p := range g.Players {
			width = max(width, wrap.Cells(p))
		}
		var held [16]string // on the stack: the report costs no allocation a game for it
		marks := held[:0]
		if len(g.Result.Scores) > len(held) {
			marks = make([]string, 0, len(g.Result.Scores))
		}
		marks = marks[:len(g.Result.Scores)]
		rest := 0       // the widest row's columns after the name
		scoreWidth := 8 // as wide as the widest score, so that they line up
		for _, score := range g.Result.Scores {
			scoreWidth = max(scoreWidth, len(strconv.AppendInt(digits[:0], score, 10)))
		}
		for s := range g.Result.Scores {
			if g.Result.Won(s) {
				marks[s] = "  WINNER"
			}
			if status := g.status(s); status != "" {
				marks[s] += "  " + strings.ToUpper(status)
			}
			n := 2 + scoreWidth + len(marks[s])
			if s < len(g.Result.Ranks) {
				n += len("  rank ") + len(strconv.AppendInt(digits[:0], int64(g.Result.Ranks[s]), 10))
			}
			rest = max(rest, n)
		}
		// A row wider than a terminal narrows the names' column, to no
		// less than minScoreName: a longer name is cut in its middle, as
		// the summary cuts it (the players line above has it whole).
		if 6+width+rest > wrap.Width {
			width = max(min(width, minScoreName), wrap.Width-6-rest)
		}
		for s, score := range g.Result.Scores {
			mark := marks[s]
			name := g.Players[s]
			cells := wrap.Cells(name)
			if cells > width {
				name = wrap.Middle(name, width)
				cells = wrap.Cells(name)
			}
			b.WriteString("  ")
			writeRight(b, int64(s+1), 2)
			b.WriteString("  ")
			b.WriteString(name)
			for range width - cells { // as wrap.PadRight pads
				b.WriteByte(' ')
			}
			b.WriteString("  ")
			writeRight(b, score, scoreWidth)
			if s < len(g.Result.Ranks) {
				b.WriteString("  rank ")
				b.Write(strconv.AppendInt(digits[:0], int64(g.Result.Ranks[s]), 10))
			}
			b.WriteString(mark)
			b.WriteByte('\n')
		}
		if len(g.Result.Winners) == 0 {
			b.WriteString("nobody wins\n")
		}
	case g.Aborted != "":
		fmt.Fprintf(b, "not finished: %s\n", g.Aborted)
	default:
		b.WriteString("not finished: the record stops before the end\n")
	}
	if len(g.Faults) == 0 {
		b.WriteString("faults: none\n")
		return
	}
	b.WriteString("faults:\n")
	for s, p := range g.Players {
		counts := map[engine.FaultKind]int{}
		var kinds []engine.FaultKind
		first := ""
		for _, f := range g.Faults {
			if f.Seat != s {
				continue
			}
			if counts[f.Kind] == 0 {
				kinds = append(kinds, f.Kind)
			}
			counts[f.Kind]++
			if first == "" {
				first = fmt.Sprintf("first at move %d: %s", f.Step+1, f.Detail)
			}
		}
		if len(kinds) == 0 {
			continue
		}
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%d %s", counts[k], k)
		}
		wrap.Write(b, fmt.Sprintf("%s: %s (%s)", p, strings.Join(parts, ", "), first), fmt.Sprintf("  %2d  ", s+1), "      ", wrap.Width)
	}
}

// minScoreName is the narrowest the names' column of the final scores
// becomes to fit a terminal.
const minScoreName = 16

// Options are a game's options, name to value, as its record gives them.
type Options map[string]string

// MarshalJSON writes every option's value as a string: its label for a
// value given as a document ("custom (default) #1a2b3c4d", see
// engine.OptionLabel), else the value itself.
func (o Options) MarshalJSON() ([]byte, error) {
	labels := make(map[string]string, len(o))
	for n, v := range o {
		labels[n] = engine.OptionLabel(v)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the report's writer: a name's & stays &
	err := enc.Encode(labels)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// optionsText lists a game's options as name=value, in name order; a value
// that is a whole document (a custom preset's JSON) is shown by its label,
// its name and digest.
func optionsText(options map[string]string) string {
	names := make([]string, 0, len(options))
	for n := range options {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + engine.OptionLabel(options[n])
	}
	return strings.Join(parts, " ")
}

// indent writes text with prefix before every line.
func indent(b *bytes.Buffer, text, prefix string) {
	text = strings.TrimRight(text, "\n")
	for {
		line, rest, more := strings.Cut(text, "\n")
		b.WriteString(prefix)
		b.WriteString(line)
		b.WriteByte('\n')
		if !more {
			return
		}
		text = rest
	}
}

// text is what a spectator saw, as text for people: its String, or fmt's
// form of it.
func text(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprint(v)
}

// writeRight writes x right-aligned in width columns, as fmt's %*d does: a
// wider number takes what it needs.
func writeRight(b *bytes.Buffer, x int64, width int) {
	var digits [24]byte
	d := strconv.AppendInt(digits[:0], x, 10)
	for range width - len(d) {
		b.WriteByte(' ')
	}
	b.Write(d)
}
