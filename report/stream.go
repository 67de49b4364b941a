package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
}

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
	_, err := t.w.Write(t.b.Bytes())
	return err
}

// Close writes the series standings, when there was more than one game.
func (t *TextWriter) Close() error {
	if t.series.games < 2 {
		return nil
	}
	t.b.Reset()
	t.b.WriteByte('\n')
	t.series.writeText(&t.b)
	_, err := t.w.Write(t.b.Bytes())
	return err
}

// SummaryWriter writes only the series standings, at the end: the form for
// long series, whose games one would not read one by one. A game needs no
// more than its players and result (see Outcome).
type SummaryWriter struct {
	w      io.Writer
	series standings
}

// NewSummary returns a SummaryWriter on w.
func NewSummary(w io.Writer) *SummaryWriter { return &SummaryWriter{w: w} }

// WriteGame counts g in the standings; it writes nothing.
func (s *SummaryWriter) WriteGame(g *Game) error {
	s.series.add(g)
	return nil
}

// Close writes the standings.
func (s *SummaryWriter) Close() error {
	var b bytes.Buffer
	s.series.writeText(&b)
	_, err := s.w.Write(b.Bytes())
	return err
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

// standings is what a series came to for each player: games finished, wins
// and total score, players in the order they first appear. It holds one
// entry per player, however many games are added.
type standings struct {
	games, finished int
	order           []*standing
	players         map[string]*standing
}

// standing is one player's line of the standings.
type standing struct {
	Player      string
	Games, Wins int
	Total       int64
}

// Mean is the player's mean score over its finished games.
func (s *standing) Mean() string {
	return fmt.Sprintf("%.1f", float64(s.Total)/float64(s.Games))
}

// add counts g. A game that did not finish counts in the number of games
// only.
func (s *standings) add(g *Game) {
	s.games++
	if g.Result == nil {
		return
	}
	s.finished++
	if s.players == nil {
		s.players = map[string]*standing{}
	}
	for seat, p := range g.Players {
		st, ok := s.players[p]
		if !ok {
			st = &standing{Player: p}
			s.players[p] = st
			s.order = append(s.order, st)
		}
		st.Games++
		if seat < len(g.Result.Scores) {
			st.Total += g.Result.Scores[seat]
		}
		if g.Result.Won(seat) {
			st.Wins++
		}
	}
}

// count says how many games the series had, and how many finished.
func (s *standings) count() string {
	games := "games"
	if s.games == 1 {
		games = "game"
	}
	return fmt.Sprintf("%d %s, %d finished", s.games, games, s.finished)
}

// writeText writes each player's games, wins and mean score over the
// series.
func (s *standings) writeText(b *bytes.Buffer) {
	fmt.Fprintf(b, "series: %s\n", s.count())
	width := len("player")
	for _, st := range s.order {
		width = max(width, len(st.Player))
	}
	fmt.Fprintf(b, "  %-*s  %5s  %5s  %10s\n", width, "player", "games", "wins", "mean score")
	for _, st := range s.order {
		fmt.Fprintf(b, "  %-*s  %5d  %5d  %10s\n", width, st.Player, st.Games, st.Wins, st.Mean())
	}
}
