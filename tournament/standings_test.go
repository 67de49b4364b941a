package tournament_test

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/internal/celltest"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// handTable is a table of five players, every two of them in both seats
// (20 games), after four hand-made games; eve has not played.
func handTable(t *testing.T) (*tournament.Table, []tournament.GameResult) {
	t.Helper()
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: []string{"ann", "bob", "cy", "dee", "eve"},
		Seats: 2, Repeat: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	games := []tournament.GameResult{
		{Game: 1, Seats: []string{"ann", "bob"}, Scores: []int64{10, 4}, Ranks: []int{1, 2}, Winners: []int{0}, Faults: []int{0, 1}},
		// A tie for first: both win.
		{Game: 2, Seats: []string{"cy", "dee", "ann"}, Scores: []int64{7, 7, 1}, Ranks: []int{1, 1, 3}, Winners: []int{0, 1}, Faults: []int{0, 0, 2}},
		{Game: 3, Seats: []string{"bob", "cy"}, Scores: []int64{3, 5}, Ranks: []int{2, 1}, Winners: []int{1}, Faults: []int{0, 0}},
		{Game: 4, Seats: []string{"dee", "ann"}, Scores: []int64{0, -3}, Ranks: []int{1, 1}, Winners: []int{0, 1}, Faults: []int{3, 0}},
	}
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := table.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	return table, games
}

func TestTableCountsWinsScoresRanksAndFaults(t *testing.T) {
	table, games := handTable(t)
	if table.Played != 4 || table.Games != 20 {
		t.Errorf("played %d of %d; want 4 of 20", table.Played, table.Games)
	}
	type line struct {
		games, wins         int
		meanScore, meanRank float64
		faults              int
	}
	want := map[string]line{
		"ann": {3, 2, (10 + 1 - 3) / 3.0, (1 + 3 + 1) / 3.0, 2},
		"bob": {2, 0, (4 + 3) / 2.0, 2, 1},
		"cy":  {2, 2, (7 + 5) / 2.0, 1, 0},
		"dee": {2, 2, (7 + 0) / 2.0, 1, 3},
		"eve": {0, 0, 0, 0, 0},
	}
	// The ratings are the games' updates, one after another.
	ratings := map[string]tournament.Rating{}
	for _, p := range table.Schedule.Players {
		ratings[p] = tournament.NewRating()
	}
	for _, g := range games {
		var teams [][]tournament.Rating
		var ranks []float64
		for i, p := range g.Seats {
			teams = append(teams, []tournament.Rating{ratings[p]})
			ranks = append(ranks, float64(g.Ranks[i]))
		}
		for i, team := range tournament.Rate(teams, ranks) {
			ratings[g.Seats[i]] = team[0]
		}
	}
	st := table.Standings()
	if len(st) != 5 {
		t.Fatalf("%d lines; want 5", len(st))
	}
	for _, s := range st {
		w := want[s.Player]
		got := line{s.Games, s.Wins, s.MeanScore, s.MeanRank, s.Faults}
		if math.Abs(got.meanScore-w.meanScore) > 1e-12 || math.Abs(got.meanRank-w.meanRank) > 1e-12 {
			t.Errorf("%s: %+v; want %+v", s.Player, got, w)
		}
		got.meanScore, got.meanRank, w.meanScore, w.meanRank = 0, 0, 0, 0
		if got != w {
			t.Errorf("%s: %+v; want %+v", s.Player, got, w)
		}
		if s.Rating != ratings[s.Player] {
			t.Errorf("%s: rating %+v; want %+v", s.Player, s.Rating, ratings[s.Player])
		}
		if s.Ordinal != s.Rating.Mu-3*s.Rating.Sigma {
			t.Errorf("%s: ordinal %v; want μ − 3σ = %v", s.Player, s.Ordinal, s.Rating.Mu-3*s.Rating.Sigma)
		}
	}
	if eve := st[slices.IndexFunc(st, func(s tournament.Standing) bool { return s.Player == "eve" })]; eve.Rating != tournament.NewRating() {
		t.Errorf("eve, who has not played, is rated %+v", eve.Rating)
	}
	// Standings are a snapshot: adding a game later does not change them.
	before := st[0]
	table.Add(tournament.GameResult{Game: 5, Seats: []string{"eve", "bob"}, Scores: []int64{1, 0}, Ranks: []int{1, 2}, Winners: []int{0}, Faults: []int{0, 0}})
	if diff := cmp.Diff(before, st[0], cmpopts.IgnoreUnexported(tournament.Standing{})); diff != "" {
		t.Errorf("a later game changed earlier standings:\n%s", diff)
	}
}

func TestTableAddRefusesWhatItCannotCount(t *testing.T) {
	table, _ := handTable(t)
	for _, c := range []struct {
		g    tournament.GameResult
		want string
	}{
		{tournament.GameResult{Game: 5, Seats: []string{"ann", "zed"}, Scores: []int64{1, 2}, Ranks: []int{1, 2}, Faults: []int{0, 0}},
			`game 5: "zed" is not a player of this tournament`},
		{tournament.GameResult{Game: 6, Seats: []string{"ann", "bob"}, Scores: []int64{1}, Ranks: []int{1, 2}, Faults: []int{0, 0}},
			"game 6: 2 seats but 1 scores, 2 ranks and 2 fault counts"},
	} {
		if err := table.Add(c.g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Add(%+v) = %v; want an error saying %q", c.g, err, c.want)
		}
	}
	if table.Played != 4 {
		t.Errorf("refused games were counted: %d played", table.Played)
	}
	for _, s := range table.Standings() {
		if s.Player == "ann" && s.Games != 3 {
			t.Errorf("ann has %d games after refused ones; want 3", s.Games)
		}
	}
}

func TestStandingsAreOrderedByTheConservativeRating(t *testing.T) {
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: []string{"zed", "lucky", "steady", "foil", "amy", "other"},
		Seats: 2, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	duel := func(n int, winner, loser string) {
		t.Helper()
		if err := table.Add(tournament.GameResult{Game: n, Seats: []string{winner, loser}, Scores: []int64{1, 0}, Ranks: []int{1, 2}, Winners: []int{0}, Faults: []int{0, 0}}); err != nil {
			t.Fatal(err)
		}
	}
	// lucky wins its one game; steady wins as often as it loses, many
	// times over: lucky's μ is higher, but steady is surer.
	duel(1, "lucky", "other")
	for i := range 12 {
		if i%2 == 0 {
			duel(2+i, "steady", "foil")
		} else {
			duel(2+i, "foil", "steady")
		}
	}
	st := table.Standings()
	for i := 1; i < len(st); i++ {
		a, b := st[i-1], st[i]
		if a.Ordinal < b.Ordinal || (a.Ordinal == b.Ordinal && a.Rating.Mu < b.Rating.Mu) {
			t.Errorf("%s (%.3f, μ %.3f) before %s (%.3f, μ %.3f)", a.Player, a.Ordinal, a.Rating.Mu, b.Player, b.Ordinal, b.Rating.Mu)
		}
	}
	rank := map[string]int{}
	by := map[string]tournament.Standing{}
	for i, s := range st {
		rank[s.Player] = i
		by[s.Player] = s
	}
	if !(by["lucky"].Rating.Mu > by["steady"].Rating.Mu) || rank["steady"] > rank["lucky"] {
		t.Errorf("lucky: μ %.2f σ %.2f, place %d; steady: μ %.2f σ %.2f, place %d; want steady first, with the lower μ",
			by["lucky"].Rating.Mu, by["lucky"].Rating.Sigma, rank["lucky"]+1, by["steady"].Rating.Mu, by["steady"].Rating.Sigma, rank["steady"]+1)
	}
	// Players who have not played tie; they keep the schedule's order.
	if rank["zed"] != rank["amy"]-1 {
		t.Errorf("zed is in place %d and amy in %d; want them next to each other in the schedule's order", rank["zed"]+1, rank["amy"]+1)
	}
}

// columns are the headings of the standings' right-aligned columns, as
// their second line writes them; the first says "mean" over score and
// rank, and "rating" over μ ± σ.
var columns = []string{"games", "wins", "win %", "score", "rank", "μ ± σ", "μ − 3σ", "faults"}

func TestWriteTextLinesUpItsColumns(t *testing.T) {
	s, table := pairTable(t, []string{"ann", "Żółwik-długi", "b"})
	for i, g := range lineups(s)[:5] {
		seats := []string{s.Players[g[0]], s.Players[g[1]]}
		faults := []int{0, 0}
		if seats[0] == "b" {
			faults[0] = 12
		}
		if err := table.Add(tournament.GameResult{Game: i + 1, Seed: s.GameSeed(i), Seats: seats, Scores: []int64{int64(100 * i), -7},
			Ranks: []int{1, 2}, Winners: []int{0}, Faults: faults}); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := table.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	// "Lines of at most 80 columns": the description wraps.
	wantTop := []string{
		"reaj tournament " + s.ID() + ": 3 players, every group of 2 in every seat,",
		"  seed 8, 6 games",
		"Only 5 of the 6 games were played; these standings are of those.",
		"",
		"                                      mean  mean        rating",
		"#  player        games  wins  win %  score  rank         μ ± σ  μ − 3σ  faults",
	}
	if diff := cmp.Diff(wantTop, lines[:6]); diff != "" {
		t.Fatalf("top of the table (-want +got):\n%s\n%s", diff, b.String())
	}
	if len(lines) != 6+3 {
		t.Fatalf("%d lines; want 6 and a line per player:\n%s", len(lines), b.String())
	}
	head := lines[5]
	header := []rune(head)
	var ends []int
	for _, c := range columns {
		i := strings.Index(head, c)
		ends = append(ends, utf8.RuneCountInString(head[:i])+utf8.RuneCountInString(c))
	}
	// Each word of the first line ends where its column does.
	for _, top := range []struct {
		word   string
		column int
	}{{"mean", 3}, {"mean", 4}, {"rating", 5}} {
		at := []rune(lines[4])
		e := ends[top.column]
		if string(at[e-len(top.word):e]) != top.word {
			t.Errorf("%q is not over %q:\n%s\n%s", top.word, columns[top.column], lines[4], head)
		}
	}
	name := utf8.RuneCountInString(head[:strings.Index(head, "player")])
	st := table.Standings()
	for k, l := range lines[6:] {
		row := []rune(l)
		if len(row) != len(header) {
			t.Errorf("row %q is %d wide; the header is %d", l, len(row), len(header))
			continue
		}
		if len(row) > 80 {
			t.Errorf("row %q is wider than 80 columns", l)
		}
		// The player's name starts under "player".
		if got := strings.TrimRight(string(row[name:name+12]), " "); got != st[k].Player {
			t.Errorf("row %d: %q under player; want %q", k+1, got, st[k].Player)
		}
		for j, e := range ends {
			if row[e-1] == ' ' || (e < len(row) && row[e] != ' ') {
				t.Errorf("row %q: column %q does not end at rune %d", l, columns[j], e)
			}
		}
		// The numbers are the standings'.
		f := strings.Fields(string(row[name+12:]))
		if len(f) != 10 { // μ ± σ is three fields
			t.Fatalf("row %q: %d fields", l, len(f))
		}
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatalf("row %q: field %d: %v", l, i, err)
			}
			return v
		}
		s := st[k]
		win := 0.0
		if s.Games > 0 {
			win = 100 * float64(s.Wins) / float64(s.Games)
		}
		for i, w := range []float64{float64(s.Games), float64(s.Wins), win, s.MeanScore, s.MeanRank, s.Rating.Mu, 0, s.Rating.Sigma, s.Ordinal, float64(s.Faults)} {
			prec := []float64{0.5, 0.5, 0.05, 0.05, 0.005, 0.005, 0, 0.005, 0.005, 0.5}[i]
			if i == 6 {
				if f[i] != "±" {
					t.Errorf("row %q: %q between μ and σ", l, f[i])
				}
				continue
			}
			if math.Abs(num(i)-w) > prec+1e-9 {
				t.Errorf("row %q: field %d is %v; want %v", l, i, num(i), w)
			}
		}
		if !strings.HasPrefix(l, []string{"1  ", "2  ", "3  "}[k]) {
			t.Errorf("row %q: want place %d first", l, k+1)
		}
	}
}

// TestWriteTextFitsLongNames: standings of long names still fit 80
// columns, their columns lined up under the headings. A table a column too
// wide puts its columns one space apart; a name too long for any spacing
// gets a line of its own, after its place, and its numbers the next line.
func TestWriteTextFitsLongNames(t *testing.T) {
	// Every line fits 80 columns, counted in a terminal's cells, and each
	// column of numbers ends at the cell its heading ends at, whatever the
	// script of the names: Japanese (two cells a character), a decomposed
	// "José" (its accent no cell of its own), emoji, long names among
	// them, and negative scores and ratings.
	long := "exec:a-really-long-program-name-for-a-bot.py"
	longer := "exec:python3 /home/someone/projects/a-very-long-directory-name-for-my-bots/garbage.py"
	// Names of 44 and 80 cells, 22 and 59 runes.
	japanese := "花子のとても長い名前のボットですよ本当に長い"
	wide := "exec:python3 /home/さくら/プロジェクト/とても強いボット/e\u0301tude-👩\u200d🚀-最強のボット.py"
	for _, tc := range []struct {
		players []string
		score   int64  // the first seat's score in game i is -score*i
		gap     string // between "games" and "wins"
		alone   []string
	}{
		{[]string{"ann", "basic2.develop-consent", "b"}, 10, " ", nil},
		{[]string{"ann", "basic2.develop-consent", "b", "c", "d", "e", "f", "g", "h", "i", "j", long}, 10000, "  ", []string{"basic2.develop-consent", long}},
		// A program given by its absolute path: too long even for a line
		// of its own, it is cut in its middle there.
		{[]string{"ann", "b", "c", "d", "e", "f", "g", "h", "i", "j", longer}, 10000, "  ", []string{longer}},
		{[]string{"太郎", "Jose\u0301", "🎲 dice", "한국어 봇"}, 10, "  ", nil},
		{[]string{"太郎", "Jose\u0301", "🎲 dice", "👩\u200d🚀 astronaut", "한국어 봇", "basic2.develop-consent", "b", "c", "d", "e", japanese, wide}, 10000, "  ", []string{"basic2.develop-consent", "👩\u200d🚀 astronaut", japanese, wide}},
	} {
		s, table := pairTable(t, tc.players)
		for i, g := range s.Games() {
			seats := []string{s.Players[g[0]], s.Players[g[1]]}
			if err := table.Add(tournament.GameResult{Game: i + 1, Seed: s.GameSeed(i), Seats: seats, Scores: []int64{-tc.score * int64(i), -7},
				Ranks: []int{1, 2}, Winners: []int{0}, Faults: []int{i, 0}}); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		if err := table.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		celltest.Fits(t, b.String(), 80)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "# ") })
		head := lines[at]
		if !strings.Contains(head, "games"+tc.gap+"wins ") {
			t.Errorf("heading %q: want games and wins %q apart", head, tc.gap)
		}
		var ends []int
		for _, c := range columns {
			i := strings.Index(head, c)
			ends = append(ends, wrap.Cells(head[:i])+wrap.Cells(c))
		}
		name := wrap.Cells(head[:strings.Index(head, "player")])
		st := table.Standings()
		k := 0
		for r := at + 1; r < len(lines); r++ {
			line := lines[r]
			if strings.TrimSpace(line[:celltest.At(line, name)]) != strconv.Itoa(k+1) {
				t.Fatalf("line %q: want place %d first\n%s", line, k+1, b.String())
			}
			if slices.Contains(tc.alone, st[k].Player) {
				want := wrap.Middle(st[k].Player, 80-name) // as much as the line holds
				if line[celltest.At(line, name):] != want || (wrap.Cells(st[k].Player) > 80-name && !strings.HasSuffix(want, ".py")) {
					t.Errorf("line %q: want %q after its place, alone\n%s", line, want, b.String())
				}
				r++
				line = lines[r]
				if strings.TrimSpace(line[:celltest.At(line, ends[0]-len("games"))]) != "" {
					t.Errorf("line %q under %q: want its numbers only", line, st[k].Player)
				}
			} else if !strings.HasPrefix(line[celltest.At(line, name):], st[k].Player+" ") {
				t.Errorf("line %q: want %q after its place", line, st[k].Player)
			}
			for j, e := range ends {
				if !celltest.Ends(line, e) {
					t.Errorf("line %q: column %q does not end at cell %d\n%s", line, columns[j], e, b.String())
				}
			}
			k++
		}
		if k != len(tc.players) {
			t.Errorf("%d rows; want %d:\n%s", k, len(tc.players), b.String())
		}
	}
}

func TestWriteTextOfACompleteTableSaysNothingAboutMissingGames(t *testing.T) {
	tour := reajTournament(t, 1, "10")
	text, _ := standings(t, tour.Schedule, record(t, tour))
	if strings.Contains(text, "Only") {
		t.Errorf("a complete table says games are missing:\n%s", text)
	}
	if top, _, _ := strings.Cut(text, "\n\n"); strings.Join(strings.Fields(top), " ") != "reaj tournament "+tour.Schedule.ID()+": 7 players, every group of 6 in every seat (turns=10), seed 1, 42 games" {
		t.Errorf("the first lines do not describe the tournament:\n%s", text)
	}
}

func TestWriteJSONDecodes(t *testing.T) {
	table, _ := handTable(t)
	var b strings.Builder
	if err := table.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		ID        string                `json:"id"`
		Schedule  *tournament.Schedule  `json:"schedule"`
		Games     int                   `json:"games"`
		Played    int                   `json:"played"`
		Standings []tournament.Standing `json:"standings"`
	}
	dec := json.NewDecoder(strings.NewReader(b.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if dec.More() {
		t.Errorf("more than one JSON value:\n%s", b.String())
	}
	if got.ID != table.Schedule.ID() || got.Games != 20 || got.Played != 4 {
		t.Errorf("id %q, %d games, %d played; want %q, 20, 4", got.ID, got.Games, got.Played, table.Schedule.ID())
	}
	if got.Schedule == nil || got.Schedule.ID() != got.ID {
		t.Errorf("the schedule does not match the id: %+v", got.Schedule)
	}
	if diff := cmp.Diff(table.Standings(), got.Standings, cmpopts.IgnoreUnexported(tournament.Standing{})); diff != "" {
		t.Errorf("standings (-table +JSON):\n%s", diff)
	}
	// The fields are named for people and programs alike.
	var raw map[string][]map[string]any
	json.Unmarshal([]byte(b.String()), &raw)
	var keys []string
	for k := range raw["standings"][0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"faults", "games", "mean_rank", "mean_score", "ordinal", "player", "rating", "wins"}; !slices.Equal(keys, want) {
		t.Errorf("standing keys %v; want %v", keys, want)
	}
}

func TestNewTableRefusesAPlayerTwice(t *testing.T) {
	s := &tournament.Schedule{Players: []string{"a", "b", "a"}}
	if _, err := tournament.NewTable(s, 1); err == nil || !strings.Contains(err.Error(), `player "a" is named twice`) {
		t.Errorf("err = %v; want one naming the player twice", err)
	}
}

func TestDescribeNamesACustomPreset(t *testing.T) {
	// A tournament's or a duel's header names an option given as a document
	// (a custom preset) by its name and digest, not by its JSON cut short.
	preset := `{"name":"custom (default)","gold_for_war":800,"max_cycles":60}`
	label := engine.OptionLabel(preset)
	s := &tournament.Schedule{Ruleset: "tncc", Options: map[string]string{"preset": preset}, Players: []string{"a", "b"},
		Kind: tournament.Rotation, Seats: 2, Repeat: 1, Seed: 1}
	got := tournament.Describe(s, 2)
	if !strings.Contains(got, "(preset="+label+")") || strings.Contains(got, "{") {
		t.Errorf("the header is %q; want it to name the preset %s", got, label)
	}
	d := &tournament.Duel{Ruleset: "tncc", A: "a", B: "b", Seed: 1, Options: map[string]string{"preset": preset}}
	if got := d.Describe(); !strings.HasSuffix(got, "(preset="+label+")") {
		t.Errorf("the duel's header is %q; want it to name the preset %s", got, label)
	}
	s.Options = map[string]string{"preset": "tribe"}
	if got := tournament.Describe(s, 2); !strings.Contains(got, "(preset=tribe)") {
		t.Errorf("the header is %q; want preset=tribe", got)
	}
}

func TestWriteTextSaysEachPlayersFaultsByKind(t *testing.T) {
	// A bot writer reads what went wrong beside the count: a crash, then
	// the seat's later decisions abandoned.
	s, table := pairTable(t, []string{"mybot", "adapt"})
	for i, g := range s.Games() {
		seats := []string{s.Players[g[0]], s.Players[g[1]]}
		at := 0
		if seats[1] == "mybot" {
			at = 1
		}
		faults := []int{0, 0}
		kinds := make([][]tournament.FaultCount, 2)
		faults[at] = 3
		kinds[at] = []tournament.FaultCount{
			{Kind: engine.FaultCrash, Count: 1, First: "the program exited with code 1; the seat is given up"},
			{Kind: engine.FaultAbandoned, Count: 2, First: "the program exited with code 1"},
		}
		if err := table.Add(tournament.GameResult{Game: i + 1, Seed: s.GameSeed(i), Seats: seats, Scores: []int64{1, 0},
			Ranks: []int{1, 2}, Winners: []int{0}, Faults: faults, FaultKinds: kinds}); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := table.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "Faults of mybot: 2 crash (the program exited with code 1), 4 abandoned (default moves once its seat was given up)"
	if !strings.HasSuffix(oneLine(b.String()), want) {
		t.Errorf("standings:\n%s\nwant them to end with%s", b.String(), want)
	}
	if strings.Contains(b.String(), "Faults of adapt") {
		t.Errorf("a player without faults has a line of them:\n%s", b.String())
	}
	// A hint after the cause is kept; what became of the seat is not.
	hinted, _ := tournament.NewTable(s, 1)
	hint := "it failed to start: no ready within the start-up limit of 1s (--startup); nothing came on its standard output: it may be slow, or may write its lines without flushing them (a program must flush each line it writes)"
	seats := []string{s.Players[s.Game(0)[0]], s.Players[s.Game(0)[1]]}
	at := slices.Index(seats, "mybot")
	kinds := make([][]tournament.FaultCount, 2)
	kinds[at] = []tournament.FaultCount{{Kind: engine.FaultStart, Count: 1, First: hint + "; strike 1 of 1: the seat is forfeited"}}
	faults := make([]int, 2)
	faults[at] = 1
	if err := hinted.Add(tournament.GameResult{Game: 1, Seed: s.GameSeed(0), Seats: seats, Scores: []int64{1, 0},
		Ranks: []int{1, 2}, Winners: []int{0}, Faults: faults, FaultKinds: kinds}); err != nil {
		t.Fatal(err)
	}
	var h strings.Builder
	hinted.WriteText(&h)
	if want := "Faults of mybot: 1 start (" + hint + ")"; !strings.HasSuffix(oneLine(h.String()), want) {
		t.Errorf("standings:\n%s\nwant them to end with\n%s", h.String(), want)
	}
	for _, st := range table.Standings() {
		if st.Player == "mybot" && (st.Faults != 6 || len(st.FaultKinds) != 2 || st.FaultKinds[1].Count != 4) {
			t.Errorf("mybot's standing %+v; want 6 faults: 2 crashes, 4 abandoned", st)
		}
	}
}

// oneLine is text as its words read, whatever its lines.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }

// pairTable returns the schedule of a Reaj tournament of players, every
// pair in both seats, seed 8, and its empty table.
func pairTable(t *testing.T, players []string) (*tournament.Schedule, *tournament.Table) {
	t.Helper()
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: players, Seats: 2, Repeat: 1, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	return s, table
}

func TestTableKeepsTheNameEachProgramGaveFirst(t *testing.T) {
	// The standings call a program by the name it gave in the first of
	// the table's games where it gave one, in the games' order, whichever
	// run played them: a run that goes on, a merge of shards.
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: []string{"exec:a", "exec:b", "steward"},
		Seats: 2, Repeat: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []tournament.GameResult{
		// exec:a failed to start here: no name.
		{Game: 1, Seats: []string{"exec:a", "exec:b"}, Scores: []int64{0, 1}, Ranks: []int{2, 1}, Winners: []int{1}, Faults: []int{1, 0}, Names: []string{"", "bee"}},
		{Game: 2, Seats: []string{"exec:b", "exec:a"}, Scores: []int64{0, 1}, Ranks: []int{2, 1}, Winners: []int{1}, Faults: []int{0, 0}, Names: []string{"bee two", "ay"}},
		{Game: 3, Seats: []string{"exec:a", "steward"}, Scores: []int64{0, 1}, Ranks: []int{2, 1}, Winners: []int{1}, Faults: []int{0, 0}, Names: []string{"ay again", ""}},
	} {
		if err := table.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"exec:a": "ay", "exec:b": "bee"}
	if got := table.ReadyNames(); !maps.Equal(got, want) {
		t.Errorf("ReadyNames() = %v; want %v", got, want)
	}
	table.Rename(func(p string) (string, bool) { n, ok := want[p]; return n, ok })
	if got := table.ReadyNames(); !maps.Equal(got, want) {
		t.Errorf("after Rename, ReadyNames() = %v; want %v, by the schedule's players", got, want)
	}
}
