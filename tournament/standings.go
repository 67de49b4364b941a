package tournament

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/report"
)

// Table adds up a tournament's results, game by game in schedule order, into
// standings. Ratings depend on the order of the games, so a table fed the
// same games in the same order gives the same standings, to the byte.
type Table struct {
	Schedule *Schedule
	// Games is the number of games in the schedule; Played, how many the
	// table has seen.
	Games, Played int

	index   map[string]int
	rows    []Standing
	ratings []Rating
	teams   [][]Rating
	ranks   []float64
}

// Standing is one player's line in the standings.
type Standing struct {
	Player string `json:"player"`
	// Spec is how the player was given on the command line, when its
	// program named itself Player (see Table.Rename).
	Spec  string `json:"spec,omitempty"`
	Games int    `json:"games"`
	// Wins counts the games the player won, alone or sharing first place.
	Wins int `json:"wins"`
	// MeanScore and MeanRank are over the player's games.
	MeanScore float64 `json:"mean_score"`
	MeanRank  float64 `json:"mean_rank"`
	// Faults counts decisions that got the default move: a seat given up
	// (a crash, a forfeit) counts its fault, then each later decision as
	// abandoned.
	Faults int `json:"faults"`
	// FaultKinds says what the faults were, kind by kind, in the order
	// they first came (a results file keeps them, game by game: a table
	// merged from results files tells them as the run's did).
	FaultKinds []FaultCount `json:"fault_kinds,omitempty"`
	Rating     Rating       `json:"rating"`
	// Ordinal is the rating's conservative estimate, μ − 3σ, by which the
	// standings are sorted.
	Ordinal float64 `json:"ordinal"`

	scores, rankSum int64
	// named is the first name the player's program gave itself, in the
	// games' order (GameResult.Names).
	named string
}

// NewTable starts the table of a schedule of games games.
func NewTable(s *Schedule, games int) (*Table, error) {
	t := &Table{Schedule: s, Games: games, index: map[string]int{}}
	for i, p := range s.Players {
		if _, dup := t.index[p]; dup {
			return nil, fmt.Errorf("player %q is named twice", p)
		}
		t.index[p] = i
		t.rows = append(t.rows, Standing{Player: p})
		t.ratings = append(t.ratings, NewRating())
	}
	return t, nil
}

// Add counts one game.
func (t *Table) Add(g GameResult) error {
	n := len(g.Seats)
	if len(g.Scores) != n || len(g.Ranks) != n || len(g.Faults) != n {
		return fmt.Errorf("game %d: %d seats but %d scores, %d ranks and %d fault counts", g.Game, n, len(g.Scores), len(g.Ranks), len(g.Faults))
	}
	who := make([]int, n)
	for i, p := range g.Seats {
		k, ok := t.index[p]
		if !ok {
			return fmt.Errorf("game %d: %q is not a player of this tournament", g.Game, p)
		}
		who[i] = k
	}
	t.teams = t.teams[:0]
	t.ranks = t.ranks[:0]
	for i, k := range who {
		r := &t.rows[k]
		r.Games++
		r.scores += g.Scores[i]
		r.rankSum += int64(g.Ranks[i])
		r.Faults += g.Faults[i]
		if r.named == "" && i < len(g.Names) {
			r.named = g.Names[i]
		}
		if i < len(g.FaultKinds) {
			for _, f := range g.FaultKinds[i] {
				r.FaultKinds = report.AddFaults(r.FaultKinds, f)
			}
		}
		t.teams = append(t.teams, t.ratings[k:k+1])
		t.ranks = append(t.ranks, float64(g.Ranks[i]))
	}
	for _, w := range g.Winners {
		if w >= 0 && w < n {
			t.rows[who[w]].Wins++
		}
	}
	for i, team := range Rate(t.teams, t.ranks) {
		t.ratings[who[i]] = team[0]
	}
	t.Played++
	return nil
}

// ReadyNames returns, by player, the name its program gave itself in the
// first of the table's games in which it gave one (GameResult.Names): the
// names the games hold, whichever run played them. Players that gave none
// are not in it. Players are told as the schedule names them, before
// and after Rename.
func (t *Table) ReadyNames() map[string]string {
	names := map[string]string{}
	for i, r := range t.rows {
		if r.named != "" {
			names[t.Schedule.Players[i]] = r.named
		}
	}
	return names
}

// Rename shows each player under the name that name gives it, when it
// gives one (the name its program gave itself), keeping the player as the
// line's Spec. The games of the table are still told by player.
func (t *Table) Rename(name func(player string) (string, bool)) {
	for i := range t.rows {
		r := &t.rows[i]
		if r.Spec != "" {
			continue
		}
		if n, ok := name(r.Player); ok {
			r.Spec, r.Player = r.Player, n
		}
	}
}

// Standings returns every player's line, best first: by the conservative
// rating μ − 3σ, then by μ, then in the schedule's order of players.
func (t *Table) Standings() []Standing {
	out := make([]Standing, len(t.rows))
	for i, r := range t.rows {
		r.Rating = t.ratings[i]
		r.Ordinal = r.Rating.Ordinal()
		if r.Games > 0 {
			r.MeanScore = float64(r.scores) / float64(r.Games)
			r.MeanRank = float64(r.rankSum) / float64(r.Games)
		}
		out[i] = r
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Ordinal, a.Ordinal), cmp.Compare(b.Rating.Mu, a.Rating.Mu))
	})
	return out
}

// Describe says what the tournament is, in one line.
func (t *Table) Describe() string { return Describe(t.Schedule, t.Games) }

// Describe says what a tournament of a schedule of games games is, in one
// line.
func Describe(s *Schedule, games int) string {
	game := s.Ruleset
	if s.Variant != "" {
		game += " (" + s.Variant + ")"
	}
	return fmt.Sprintf("%s tournament %s: %s, seed %d, %s", game, s.ID(), describe(s), s.Seed, plural(games, "game"))
}

// DescribeUnseeded says what a tournament of a schedule of games games
// is but for its seed, and the id that follows from the seed: a
// tournament whose seed is still to be drawn.
func DescribeUnseeded(s *Schedule, games int) string {
	game := s.Ruleset
	if s.Variant != "" {
		game += " (" + s.Variant + ")"
	}
	return fmt.Sprintf("%s tournament: %s, %s", game, describe(s), plural(games, "game"))
}

// describe says how a schedule seats its players.
func describe(s *Schedule) string {
	var how string
	switch s.Kind {
	case Groups:
		how = fmt.Sprintf("%s each appearing %s over %s of shuffled groups", plural(len(s.Players), "player"), plural(s.Appearances, "time"), plural(s.Rounds, "round"))
	default:
		how = fmt.Sprintf("%s, every group of %d in every seat", plural(len(s.Players), "player"), s.Seats)
	}
	if s.Repeat > 1 {
		how += fmt.Sprintf(", %d times over", s.Repeat)
	}
	if len(s.Options) > 0 {
		how += " (" + optionsText(s.Options) + ")"
	}
	return how
}

// optionsText writes a game's options in one line, name=value in the
// order of their names: a document (a custom preset's JSON) by its name and
// the digest of its numbers (engine.OptionLabel), another long value cut
// short (the fingerprint tells them apart).
func optionsText(options map[string]string) string {
	var opts []string
	for _, k := range slices.Sorted(maps.Keys(options)) {
		v := options[k]
		if d, ok := engine.ReadOptionDocument(v); ok {
			v = d.Label()
		} else if wrap.Cells(v) > 40 {
			v = wrap.Head(v, 20) + "…"
		}
		opts = append(opts, k+"="+v)
	}
	return strings.Join(opts, " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// WriteText writes the standings as a table for people, to fit a
// terminal's 80 columns: each column as wide as its heading or its widest
// number, the headings on two lines, and the faults only when a player
// made some.
func (t *Table) WriteText(w io.Writer) error {
	var b strings.Builder
	wrap.Write(&b, t.Describe(), "", "  ", wrap.Width)
	if t.Played < t.Games {
		wrap.Write(&b, fmt.Sprintf("Only %d of the %d games were played; these standings are of those.", t.Played, t.Games), "", "", wrap.Width)
	}
	b.WriteByte('\n')
	rows := t.Standings()
	faulted := slices.ContainsFunc(rows, func(s Standing) bool { return s.Faults > 0 })
	cols := []column{
		{head: "#"}, {head: "player", left: true}, {head: "games"}, {head: "wins"}, {head: "win %"},
		{top: "mean", head: "score"}, {top: "mean", head: "rank"}, {top: "rating", head: "μ ± σ"}, {head: "μ − 3σ"},
	}
	if faulted {
		cols = append(cols, column{head: "faults"})
	}
	for i, s := range rows {
		win := 0.0
		if s.Games > 0 {
			win = 100 * float64(s.Wins) / float64(s.Games)
		}
		cells := []string{strconv.Itoa(i + 1), s.Player, strconv.Itoa(s.Games), strconv.Itoa(s.Wins),
			strconv.FormatFloat(win, 'f', 1, 64), strconv.FormatFloat(s.MeanScore, 'f', 1, 64),
			strconv.FormatFloat(s.MeanRank, 'f', 2, 64), fmt.Sprintf("%.2f ± %.2f", s.Rating.Mu, s.Rating.Sigma),
			strconv.FormatFloat(s.Ordinal, 'f', 2, 64), strconv.Itoa(s.Faults)}
		for c := range cols {
			cols[c].cells = append(cols[c].cells, cells[c])
		}
	}
	writeColumns(&b, cols)
	for _, s := range rows {
		if len(s.FaultKinds) > 0 {
			b.WriteString("\n")
			break
		}
	}
	for _, s := range rows {
		if len(s.FaultKinds) > 0 {
			wrap.Write(&b, fmt.Sprintf("Faults of %s: %s", s.Player, report.FaultsText(s.FaultKinds)), "", "  ", wrap.Width)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// column is a column of a table for people: its heading, on one line
// (head) or two (top above head), and its cells, one per row.
type column struct {
	top, head string
	left      bool // aligned left, as a name; numbers are aligned right
	cells     []string
}

// writeColumns writes cols as a table: the headings, then a line per row,
// each column as wide as its widest cell or heading, in the cells a
// terminal gives them (wrap.Cells: two for a Chinese character or an
// emoji, none for a combining accent). A line of headings
// that would be empty is left out. The columns are two spaces apart, or
// one when that is what lets the table fit wrap.Width; when even that is
// too wide, they stay two apart and the names' column (the one aligned
// left) narrows to fit: a name longer than it is written on a line of its
// own, after its row's cells to its left (cut in its middle when even that
// line is too short), and the rest of the row on the next line, under the
// headings.
func writeColumns(b *strings.Builder, cols []column) {
	widths := make([]int, len(cols))
	tops := false
	for c, col := range cols {
		widths[c] = max(wrap.Cells(col.top), wrap.Cells(col.head))
		for _, cell := range col.cells {
			widths[c] = max(widths[c], wrap.Cells(cell))
		}
		tops = tops || col.top != ""
	}
	gap := 2
	total := func() int {
		t := gap * (len(cols) - 1)
		for _, w := range widths {
			t += w
		}
		return t
	}
	if total() > wrap.Width {
		if gap = 1; total() > wrap.Width {
			gap = 2 // a name on a line of its own, rather than less room
		}
	}
	name := slices.IndexFunc(cols, func(col column) bool { return col.left })
	if over := total() - wrap.Width; over > 0 && name >= 0 {
		head := max(wrap.Cells(cols[name].top), wrap.Cells(cols[name].head))
		widths[name] = max(head, widths[name]-over)
	}
	line := func(cell func(c int) string) {
		var l strings.Builder
		for c, col := range cols {
			if c > 0 {
				l.WriteString(strings.Repeat(" ", gap))
			}
			if col.left {
				l.WriteString(wrap.PadRight(cell(c), widths[c]))
			} else {
				l.WriteString(wrap.PadLeft(cell(c), widths[c]))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	if tops {
		line(func(c int) string { return cols[c].top })
	}
	line(func(c int) string { return cols[c].head })
	// A name on a line of its own is cut in its middle to what the line
	// leaves it, as the summary cuts names (wrap.Middle).
	room := wrap.Width
	for c := range name {
		room -= widths[c] + gap
	}
	for r := range cols[0].cells {
		if name >= 0 && wrap.Cells(cols[name].cells[r]) > widths[name] {
			line(func(c int) string {
				if c > name {
					return ""
				}
				if c == name {
					return wrap.Middle(cols[c].cells[r], max(room, widths[name]))
				}
				return cols[c].cells[r]
			})
			line(func(c int) string {
				if c <= name {
					return ""
				}
				return cols[c].cells[r]
			})
			continue
		}
		line(func(c int) string { return cols[c].cells[r] })
	}
}

// WriteJSON writes the standings as one JSON object: the tournament and its
// standings, best first.
func (t *Table) WriteJSON(w io.Writer) error {
	out := struct {
		ID        string     `json:"id"`
		Schedule  *Schedule  `json:"schedule"`
		Games     int        `json:"games"`
		Played    int        `json:"played"`
		Standings []Standing `json:"standings"`
	}{t.Schedule.ID(), t.Schedule, t.Games, t.Played, t.Standings()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
