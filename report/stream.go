package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// GameWriter writes a report game by game, as the games are played: each
// game is written out at once and forgotten, and only what the end of the
// report needs is kept (the series standings, whose size grows with the
// number of players, never with the number of games). A series of any
// length is reported in constant memory.
//
// The games are given in order. Close writes the end of the report, after
// which no game may follow; a report closed after any number of games (an
// interrupted series' for one) is complete and valid. Close does not close
// the underlying writer.
type GameWriter interface {
	// WriteGame writes one game's part of the report.
	WriteGame(g *Game) error
	// Close writes the end of the report.
	Close() error
}

// TextWriter writes the text form: per game its seed and players, the
// world at the start and at the end, the final scores and the faults; then,
// for a series, each player's standing.
type TextWriter struct {
	w       io.Writer
	verbose bool
	b       bytes.Buffer // kept from game to game
	series  standings
	spool   io.ReadWriteSeeker
}

// SummaryFirst makes the report lead with the series standings: the games
// are written to spool as they come (a temporary file: the report stays in
// constant memory), and Close writes the standings, then the games from
// the spool. It must be called before the first game.
func (t *TextWriter) SummaryFirst(spool io.ReadWriteSeeker) { t.spool = spool }

// NewText returns a TextWriter on w. With verbose, each game shows the
// world at every step of the game's clock, not only the first and the last.
func NewText(w io.Writer, verbose bool) *TextWriter {
	return &TextWriter{w: w, verbose: verbose}
}

// WriteGame writes g.
func (t *TextWriter) WriteGame(g *Game) error {
	t.b.Reset()
	if t.series.games > 0 {
		t.b.WriteByte('\n')
	}
	t.series.add(g)
	g.writeText(&t.b, t.verbose)
	w := t.w
	if t.spool != nil {
		w = t.spool
	}
	_, err := w.Write(t.b.Bytes())
	return err
}

// Close writes the series standings, when there was more than one game:
// after the games, or, with a spool, before them.
func (t *TextWriter) Close() error {
	t.b.Reset()
	if t.series.games > 1 {
		if t.spool == nil {
			t.b.WriteByte('\n')
		}
		t.series.writeText(&t.b)
		if t.spool != nil {
			t.b.WriteByte('\n')
		}
	}
	if _, err := t.w.Write(t.b.Bytes()); err != nil || t.spool == nil {
		return err
	}
	if _, err := t.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(t.w, t.spool)
	return err
}

// SummaryWriter writes only the series standings, at the end: the form for
// long series, whose games one would not read one by one; as text, or as
// one JSON object (see Summary) for programs to read. A game needs no more
// than its players and result (see Outcome).
type SummaryWriter struct {
	w      io.Writer
	series standings
	json   bool
}

// NewSummary returns a SummaryWriter of text on w.
func NewSummary(w io.Writer) *SummaryWriter { return &SummaryWriter{w: w} }

// NewSummaryJSON returns a SummaryWriter of JSON on w: the object,
// indented, with a newline at the end.
func NewSummaryJSON(w io.Writer) *SummaryWriter { return &SummaryWriter{w: w, json: true} }

// WriteGame counts g in the standings; it writes nothing.
func (s *SummaryWriter) WriteGame(g *Game) error {
	s.series.add(g)
	return nil
}

// Close writes the standings.
func (s *SummaryWriter) Close() error {
	var b bytes.Buffer
	if s.json {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s.series.summary()); err != nil {
			return err
		}
	} else {
		s.series.writePlayed(&b)
		s.series.writeText(&b)
		s.series.writeEndings(&b)
	}
	_, err := s.w.Write(b.Bytes())
	return err
}

// Summary is what a series came to, as --report summary-json writes it:
// what was played, the number of games, each player's standing in the
// order the players first appear, and what a score counts.
type Summary struct {
	// Ruleset, Variant, Options and Documents are what every game of the
	// series played, as a game of the JSON report names them (see Game);
	// left out when the games did not all play the same.
	Ruleset   string                     `json:"ruleset,omitempty"`
	Variant   string                     `json:"variant,omitempty"`
	Options   Options                    `json:"options,omitempty"`
	Documents map[string]json.RawMessage `json:"option_documents,omitempty"`
	Games     int                        `json:"games"`
	Finished  int                        `json:"finished"`
	Score     string                     `json:"score,omitempty"`
	// Endings counts the finished games by how they ended, in the order
	// each way first came (see Ending): at most 12 ways, each named in at
	// most 60 characters, then "other endings" counting the games that
	// ended any further way.
	Endings []Ending `json:"endings"`
	// Standings has one line per player (a player in several seats of a
	// game counts in each).
	Standings []Standing `json:"standings"`
}

// Ending is a way games of a series ended, and how many did: the reason
// of their results, up to its first colon ("humans win", of "humans win:
// P3 is the last survivor"), so that a game's sides or its end by the
// clock are counted together.
type Ending struct {
	Reason string `json:"reason"`
	Games  int    `json:"games"`
}

// Standing is one player's line of a Summary. Games and wins count the
// finished games; faults count every game's.
type Standing struct {
	Player string `json:"player"`
	// Spec is how the player was given on the command line, when its
	// program named itself Player.
	Spec  string `json:"spec,omitempty"`
	Games int    `json:"games"`
	Wins  int    `json:"wins"`
	// WinRate is the share of games won, from 0 to 1, and WinRateLow and
	// WinRateHigh the ends of the 95% Wilson score interval around it.
	// Both intervals count a player's two seats of one game as two
	// independent games, which they are not: for such a player they are
	// only a guide.
	WinRate     float64 `json:"win_rate"`
	WinRateLow  float64 `json:"win_rate_low"`
	WinRateHigh float64 `json:"win_rate_high"`
	// MeanScore is the mean score, and MeanScoreCI the half-width of its
	// 95% confidence interval (1.96 standard errors); nil (null) for one
	// game, whose single score has no spread to measure.
	MeanScore   float64  `json:"mean_score"`
	MeanScoreCI *float64 `json:"mean_score_ci"`
	// Faults counts the decisions that got the default move, and
	// FaultKinds tells them kind by kind, the first of each with what it
	// said; empty for a player without faults.
	Faults     int          `json:"faults"`
	FaultKinds []FaultCount `json:"fault_kinds"`
}

// summary is the standings as a Summary.
func (s *standings) summary() Summary {
	out := Summary{Games: s.games, Finished: s.finished, Score: s.score, Endings: slices.Clone(s.endings), Standings: make([]Standing, len(s.order))}
	if out.Endings == nil {
		out.Endings = []Ending{}
	}
	if s.played != nil && !s.mixed {
		out.Ruleset, out.Variant, out.Options, out.Documents = s.played.Ruleset, s.played.Variant, s.played.Options, s.played.Documents
	}
	for i, st := range s.order {
		rate, low, high := st.wilson()
		kinds := st.FaultKinds
		if kinds == nil {
			kinds = []FaultCount{}
		}
		out.Standings[i] = Standing{
			Player: st.Player, Spec: st.Spec, Games: st.Games, Wins: st.Wins,
			WinRate: rate, WinRateLow: low, WinRateHigh: high,
			MeanScore: st.mean(),
			Faults:    st.Faults, FaultKinds: kinds,
		}
		if st.Games >= 2 {
			ci := st.MeanCI()
			out.Standings[i].MeanScoreCI = &ci
		}
	}
	return out
}

// JSONWriter writes the JSON form: an array with one object per game (seed,
// players, faults, result and history), each written as it comes.
type JSONWriter struct {
	w     io.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	games int
}

// NewJSON returns a JSONWriter on w.
func NewJSON(w io.Writer) *JSONWriter {
	j := &JSONWriter{w: w}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	j.enc.SetIndent("  ", "  ")
	return j
}

// WriteGame writes g as the array's next element.
func (j *JSONWriter) WriteGame(g *Game) error {
	j.buf.Reset()
	if j.games == 0 {
		j.buf.WriteString("[\n  ")
	} else {
		j.buf.WriteString(",\n  ")
	}
	if err := j.enc.Encode(g); err != nil {
		return fmt.Errorf("report: game %d: %w", g.Number, err)
	}
	j.buf.Truncate(j.buf.Len() - 1) // the encoder's newline
	j.games++
	_, err := j.w.Write(j.buf.Bytes())
	return err
}

// Close closes the array.
func (j *JSONWriter) Close() error {
	end := "\n]\n"
	if j.games == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// standings is what a series came to for each player: games finished, wins,
// total score and its spread, and the scores' distribution, players in the
// order they first appear. It holds one entry per player, however many
// games are added.
type standings struct {
	games, finished int
	order           []*standing
	players         map[string]*standing
	score           string // what a score counts (Game.ScoreName)
	endings         []Ending
	// played is the first game's ruleset, variant and options, and mixed
	// whether a later game's differ.
	played *Game
	mixed  bool
}

// writePlayed writes what the series played, as a game's text names it:
// "game: ajveciv (original)", then "options: turns=5 ...". A summary, which
// shows no game, begins with it.
func (s *standings) writePlayed(b *bytes.Buffer) {
	switch {
	case s.played == nil || s.played.Ruleset == "":
	case s.mixed:
		b.WriteString("games: not all of one game, variant and options\n")
	default:
		name := s.played.Ruleset
		if s.played.Variant != "" {
			name += " (" + s.played.Variant + ")"
		}
		fmt.Fprintf(b, "game: %s\n", name)
		if opts := optionsText(s.played.Options); opts != "" {
			wrap.Write(b, "options: "+opts, "", "  ", wrap.Width)
		}
	}
}

// standing is one player's line of the standings.
type standing struct {
	Player      string
	Spec        string // how a player that named itself was given
	Games, Wins int
	Total       int64
	// Faults counts the player's decisions that got the default move, in
	// every game of the series (finished or not), and FaultKinds tells
	// them kind by kind, with what the first of each said.
	Faults     int
	FaultKinds []FaultCount
	squares    float64 // the sum of the squares of the scores
	scores     histogram
}

// Mean is the player's mean score over its finished games.
func (s *standing) Mean() string {
	return fmt.Sprintf("%.1f", s.mean())
}

func (s *standing) mean() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Total) / float64(s.Games)
}

// FaultsText tells the player's faults kind by kind (see FaultsText).
func (s *standing) FaultsText() string { return FaultsText(s.FaultKinds) }

// MeanCI is the half-width of the 95% confidence interval of the mean
// score (1.96 standard errors); 0 for fewer than two games.
func (s *standing) MeanCI() float64 {
	if s.Games < 2 {
		return 0
	}
	n := float64(s.Games)
	variance := (s.squares - n*s.mean()*s.mean()) / (n - 1)
	return 1.96 * math.Sqrt(max(variance, 0)/n)
}

// WinRate is the player's share of games won, in percent, with the 95%
// Wilson score interval around it.
func (s *standing) WinRate() (rate, low, high float64) {
	p, low, high := s.wilson()
	return 100 * p, 100 * low, 100 * high
}

// wilson is the player's share of games won, from 0 to 1, with the 95%
// Wilson score interval around it.
func (s *standing) wilson() (p, low, high float64) {
	if s.Games == 0 {
		return 0, 0, 0
	}
	n, z := float64(s.Games), 1.96
	p = float64(s.Wins) / n
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return p, max(centre-half, 0), min(centre+half, 1)
}

// WinText is the win rate with its interval: "64.0% (61.0–66.9)"; "–"
// for a player without a finished game.
func (s *standing) WinText() string {
	if s.Games == 0 {
		return "–"
	}
	rate, low, high := s.WinRate()
	return fmt.Sprintf("%.1f%% (%.1f–%.1f)", rate, low, high)
}

// MeanText is the mean score with its interval: "34.2 ± 0.8", with as
// many decimals as the interval needs (up to three): "0.22 ± 0.04". One
// game's score has no interval, and says so: "31.0 (1 game)"; a player
// without a finished game has no mean: "–".
func (s *standing) MeanText() string {
	switch s.Games {
	case 0:
		return "–"
	case 1:
		return fmt.Sprintf("%.1f (1 game)", s.mean())
	}
	ci, d := s.MeanCI(), 1
	for d < 3 && ci > 0 && ci < math.Pow(10, float64(-d)) {
		d++
	}
	return fmt.Sprintf("%.*f ± %.*f", d, s.mean(), d, ci)
}

// add counts g. A game that did not finish counts in the number of games
// and its faults only.
func (s *standings) add(g *Game) {
	s.games++
	if s.played == nil {
		s.played = &Game{Ruleset: g.Ruleset, Variant: g.Variant, Options: g.Options, Documents: g.Documents}
	} else if g.Ruleset != s.played.Ruleset || g.Variant != s.played.Variant || !maps.Equal(g.Options, s.played.Options) {
		s.mixed = true
	}
	if s.score == "" {
		s.score = g.ScoreName
	}
	defer s.addFaults(g)
	if g.Result == nil {
		return
	}
	s.finished++
	s.ended(g.Result.Reason)
	for seat, p := range g.Players {
		st := s.player(p)
		st.Games++
		if st.Spec == "" && seat < len(g.Specs) {
			st.Spec = g.Specs[seat]
		}
		if seat < len(g.Result.Scores) {
			score := g.Result.Scores[seat]
			st.Total += score
			st.squares += float64(score) * float64(score)
			st.scores.add(score)
		}
		if g.Result.Won(seat) {
			st.Wins++
		}
	}
}

// A summary names at most maxEndings ways of ending, each of at most
// maxEndingRunes runes; the games that ended any further way are counted
// together as otherEndings, last: the summary's size does not grow with the
// number of games, whatever reasons a game gives.
const (
	maxEndings     = 12
	maxEndingRunes = 60
	otherEndings   = "other endings"
)

// ended counts a finished game by its reason, up to its first colon.
func (s *standings) ended(reason string) {
	head, _, _ := strings.Cut(reason, ":")
	switch head = strings.TrimSpace(head); {
	case head == "":
		head = "no reason given"
	case utf8.RuneCountInString(head) > maxEndingRunes:
		head = wrap.FirstRunes(head, maxEndingRunes-1) + "…" // never half a character
	}
	for i := range s.endings {
		if s.endings[i].Reason == head {
			s.endings[i].Games++
			return
		}
	}
	if len(s.endings) < maxEndings {
		s.endings = append(s.endings, Ending{Reason: head, Games: 1})
		return
	}
	if len(s.endings) == maxEndings {
		s.endings = append(s.endings, Ending{Reason: otherEndings})
	}
	s.endings[maxEndings].Games++
}

// addFaults counts g's faults, each for its seat's player.
func (s *standings) addFaults(g *Game) {
	for _, f := range g.Faults {
		if f.Seat >= 0 && f.Seat < len(g.Players) {
			st := s.player(g.Players[f.Seat])
			st.Faults++
			st.FaultKinds = AddFaults(st.FaultKinds, FaultCount{Kind: f.Kind, Count: 1, First: f.Detail})
		}
	}
}

// player returns p's standing, adding it after the others the first time.
func (s *standings) player(p string) *standing {
	st, ok := s.players[p]
	if !ok {
		if s.players == nil {
			s.players = map[string]*standing{}
		}
		st = &standing{Player: p}
		s.players[p] = st
		s.order = append(s.order, st)
	}
	return st
}

// count says how many games the series had, and how many finished.
func (s *standings) count() string {
	games := "games"
	if s.games == 1 {
		games = "game"
	}
	return fmt.Sprintf("%d %s, %d finished", s.games, games, s.finished)
}

// writeText writes each player's games, wins, faults and win rate, and mean
// score over the series, each with its 95% confidence interval; then, for
// each player that committed faults, what they were (see FaultsText). The
// columns are measured in a terminal's cells (wrap.Cells), so that names
// in any script line up.
func (s *standings) writeText(b *bytes.Buffer) {
	fmt.Fprintf(b, "series: %s\n", s.count())
	// Counts line up under their heads whatever their digits: a series
	// of a million games has counts of seven. The win rates and the mean
	// scores are as wide as the widest.
	name, count := wrap.Cells("player"), len("games")
	win, mean := wrap.Cells("win rate (95% CI)"), wrap.Cells("mean score (95% CI)")
	faulted := false
	for _, st := range s.order {
		name = max(name, wrap.Cells(st.Player))
		count = max(count, len(strconv.Itoa(st.Games)))
		win = max(win, wrap.Cells(st.WinText()))
		mean = max(mean, wrap.Cells(st.MeanText()))
		faulted = faulted || st.Faults > 0
	}
	name = min(name, 24)
	// The columns are two spaces apart, the win rates' 21 wide: names up
	// to 20 cells fit an 80-column terminal, or 12 when the faults have a
	// column. A wider table puts its columns one space apart, its win
	// rates as wide as the widest, and narrows the names' column to fit,
	// to no less than 12, a longer name cut in its middle (the lines of
	// faults below name each player whole).
	gap, winWidth := 2, max(win, 21)
	total := func() int {
		t := 2 + name + gap + count + gap + count + gap + winWidth + gap + mean
		if faulted {
			t += gap + len("faults")
		}
		return t
	}
	if total() > wrap.Width {
		gap, winWidth = 1, win
		if over := total() - wrap.Width; over > 0 {
			name = max(min(name, 12), name-over)
		}
	}
	sep := strings.Repeat(" ", gap)
	row := func(player, games, wins, rate, score, faults string) {
		b.WriteString("  ")
		for _, cell := range []string{wrap.PadRight(wrap.Middle(player, name), name), wrap.PadLeft(games, count), wrap.PadLeft(wins, count), wrap.PadRight(rate, winWidth)} {
			b.WriteString(cell)
			b.WriteString(sep)
		}
		if faulted {
			b.WriteString(wrap.PadRight(score, mean))
			b.WriteString(sep)
			b.WriteString(wrap.PadLeft(faults, len("faults")))
		} else {
			b.WriteString(score)
		}
		b.WriteByte('\n')
	}
	row("player", "games", "wins", "win rate (95% CI)", "mean score (95% CI)", "faults")
	for _, st := range s.order {
		row(st.Player, strconv.Itoa(st.Games), strconv.Itoa(st.Wins), st.WinText(), st.MeanText(), strconv.Itoa(st.Faults))
	}
	if s.score != "" {
		fmt.Fprintf(b, "  (score: %s)\n", s.score)
	}

	for _, st := range s.order {
		if st.Faults > 0 {
			wrap.Write(b, fmt.Sprintf("Faults of %s: %s", st.Player, st.FaultsText()), "  ", "    ", wrap.Width)
		}
	}
}

// writeEndings writes how the finished games ended, each way with its
// count: "  ended: humans win (81), zombies win (119)". A summary ends
// with it; the text report tells each game's.
func (s *standings) writeEndings(b *bytes.Buffer) {
	if len(s.endings) == 0 {
		return
	}
	ends := make([]string, len(s.endings))
	for i, e := range s.endings {
		ends[i] = fmt.Sprintf("%s (%d)", e.Reason, e.Games)
	}
	wrap.Write(b, "ended: "+strings.Join(ends, ", "), "  ", "    ", wrap.Width)
}

// histogram counts scores in histBins bins of equal width, which doubles
// (merging bins in pairs) whenever a score falls outside them: the
// distribution of any number of scores in constant memory.
type histogram struct {
	lo, width int64 // bin i holds [lo + i·width, lo + (i+1)·width)
	bins      [histBins]int
	n         int
}

// histBins is the number of a histogram's bins.
const histBins = 64

func (h *histogram) add(x int64) {
	if h.n == 0 {
		h.lo, h.width = x, 1
	}
	for x < h.lo || x-h.lo >= histBins*h.width {
		if !h.shift(x) {
			h.widen(x < h.lo)
		}
	}
	h.bins[(x-h.lo)/h.width]++
	h.n++
}

// shift moves the bins, at their width, so that they hold x as well as
// every score so far, when their span can; it reports whether it did. A
// histogram widens only when it must: scores of 1 then 0 keep bins of one
// score each, rather than of -1 to 0 and 1 to 2.
func (h *histogram) shift(x int64) bool {
	first, last := h.filled()
	if first < 0 {
		return false
	}
	var k int64 // bins to move up (x below), or down (x above)
	if x < h.lo {
		k = (h.lo - x) / h.width
		if (h.lo-x)%h.width != 0 {
			k++
		}
		if k < 0 || k > histBins || int64(last)+k >= histBins {
			return false
		}
		copy(h.bins[k:], h.bins[:histBins-k])
		clear(h.bins[:k])
		h.lo -= k * h.width
		return true
	}
	k = (x-h.lo)/h.width - (histBins - 1)
	if k < 0 || k > int64(first) {
		return false
	}
	copy(h.bins[:], h.bins[k:])
	clear(h.bins[histBins-k:])
	h.lo += k * h.width
	return true
}

// widen doubles the bins' width, merging them in pairs into the lower half
// of the range (down: the upper half, the range growing downward).
func (h *histogram) widen(down bool) {
	var merged [histBins]int
	half := histBins / 2
	for i := range half {
		sum := h.bins[2*i] + h.bins[2*i+1]
		if down {
			merged[half+i] = sum
		} else {
			merged[i] = sum
		}
	}
	if down {
		h.lo -= histBins * h.width
	}
	h.bins, h.width = merged, 2*h.width
}

// span returns the lowest and highest score the histogram can hold in its
// non-empty bins.
func (h *histogram) span() (lo, hi int64) {
	first, last := h.filled()
	if first < 0 {
		return 0, 0
	}
	return h.lo + int64(first)*h.width, h.lo + int64(last+1)*h.width - 1
}

// filled returns the first and last bins that hold a score, or -1, -1.
func (h *histogram) filled() (first, last int) {
	first, last = -1, -1
	for i, c := range h.bins {
		if c > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}
