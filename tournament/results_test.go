package tournament_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/google/go-cmp/cmp"
)

// groupsTournament is a Reaj tournament of the six fixed players, the
// steward and the random player, each in 20 of 32 games of 5, with
// games of 20 turns.
func groupsTournament(t testing.TB, seed uint64) *tournament.Tournament[reaj.Value, reaj.View] {
	t.Helper()
	es := reajEntrants(t, "fixed", "steward", "random")
	s, err := tournament.NewSchedule(tournament.Params{
		Info: reaj.Game{}.Info(), Players: names(es), Seed: seed, Rounds: 32, Appearances: 20, Repeat: 1,
		Options: map[string]string{"turns": "20"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es}
}

// record runs tour and returns its results, in the order reported.
func record(t testing.TB, tour *tournament.Tournament[reaj.Value, reaj.View]) []tournament.GameResult {
	t.Helper()
	var out []tournament.GameResult
	tour.Played = func(g tournament.GameResult) error {
		out = append(out, g)
		return nil
	}
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out
}

// shardFile writes the results file of one shard, from a whole run's
// results.
func shardFile(t testing.TB, s *tournament.Schedule, results []tournament.GameResult, shard tournament.Shard) string {
	t.Helper()
	var b bytes.Buffer
	w, err := tournament.NewWriter(&b, s, shard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range results {
		if shard.Has(g.Game - 1) {
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// standings returns the text of the table of results, added in order.
func standings(t testing.TB, s *tournament.Schedule, results []tournament.GameResult) (text, js string) {
	t.Helper()
	table, err := tournament.NewTable(s, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range results {
		if err := table.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	return tableText(t, table)
}

func tableText(t testing.TB, table *tournament.Table) (text, js string) {
	t.Helper()
	var a, b strings.Builder
	if err := table.WriteText(&a); err != nil {
		t.Fatal(err)
	}
	if err := table.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// file names a results file's text for merging.
type file struct{ name, text string }

func readers(t testing.TB, files ...file) []*tournament.Reader {
	t.Helper()
	var out []*tournament.Reader
	for _, f := range files {
		r, err := tournament.NewReader(strings.NewReader(f.text), f.name)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		out = append(out, r)
	}
	return out
}

// merge merges files and fails the test unless it fails with an error
// saying every one of want, and without a table.
func mergeFails(t *testing.T, files []file, want ...string) {
	t.Helper()
	table, err := tournament.Merge(readers(t, files...))
	if err == nil {
		t.Fatalf("merged into a table of %d games; want an error saying %q", table.Played, want)
	}
	if table != nil {
		t.Errorf("a table of %d games along with the error %v", table.Played, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// editLine changes the result on line n (from 1, the header) of a results
// file.
func editLine(t testing.TB, text string, n int, edit func(*tournament.GameResult)) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	var g tournament.GameResult
	if err := json.Unmarshal([]byte(lines[n-1]), &g); err != nil {
		t.Fatal(err)
	}
	edit(&g)
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	lines[n-1] = string(b) + "\n"
	return strings.Join(lines, "")
}

// editHeader changes the header of a results file as JSON.
func editHeader(t testing.TB, text string, edit func(map[string]any)) string {
	t.Helper()
	head, rest, _ := strings.Cut(text, "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(head), &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n" + rest
}

func TestResultsFileRoundTrip(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	text := shardFile(t, tour.Schedule, results, tournament.Shard{})
	if n := strings.Count(text, "\n"); n != 1+42 {
		t.Fatalf("%d lines; want a header and 42 games", n)
	}
	r, err := tournament.NewReader(strings.NewReader(text), "all.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header
	if h.Format != tournament.ResultsFormat || h.Version != tournament.ResultsVersion || h.ID != tour.Schedule.ID() || h.Games != 42 || h.Shard != "0/1" {
		t.Errorf("header %+v", h)
	}
	// The header holds the schedule's parameters; its games follow from
	// them.
	gotJSON, _ := json.Marshal(h.Schedule)
	wantJSON, _ := json.Marshal(tour.Schedule)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("header schedule %s; want %s", gotJSON, wantJSON)
	}
	var got []tournament.GameResult
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, g)
	}
	if diff := cmp.Diff(results, got); diff != "" {
		t.Errorf("read back other results (-written +read):\n%s", diff)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end: %v; want io.EOF again", err)
	}
}

func TestShardedRunsMergeIntoTheSingleRunsTable(t *testing.T) {
	for name, tour := range map[string]*tournament.Tournament[reaj.Value, reaj.View]{
		"rotation": reajTournament(t, 1, "20"),
		"groups":   groupsTournament(t, 7),
	} {
		t.Run(name, func(t *testing.T) {
			s := tour.Schedule
			whole := record(t, tour)
			wantText, wantJSON := standings(t, s, whole)
			// Shards played for real, each on its own.
			var files []file
			for i := range 4 {
				shard := tournament.Shard{Index: i, Count: 4}
				tour.Shard = shard
				files = append(files, file{fmt.Sprintf("shard-%d.jsonl", i), shardFile(t, s, record(t, tour), shard)})
			}
			// Given in any order.
			files[0], files[3] = files[3], files[0]
			mergesAsWhole(t, files, wantText, wantJSON)
			// Any number of shards, even more than there are games.
			for _, n := range []int{1, 2, 3, 5, 7, 29, 30, 31, 100} {
				files = files[:0]
				for i := n - 1; i >= 0; i-- {
					shard := tournament.Shard{Index: i, Count: n}
					files = append(files, file{shard.String(), shardFile(t, s, whole, shard)})
				}
				table, err := tournament.Merge(readers(t, files...))
				if err != nil {
					t.Fatalf("%d shards: %v", n, err)
				}
				if text, _ := tableText(t, table); text != wantText {
					t.Errorf("%d shards: merged standings differ:\n%s", n, cmp.Diff(wantText, text))
				}
			}
		})
	}
}

// A results file of a schedule whose seats did not divide evenly over its
// rounds, played before such schedules were refused, is still read and
// merged: its header deals the same uneven games again.
func TestMergeReadsAnUnevenScheduleOfBefore(t *testing.T) {
	es := reajEntrants(t, "steward", "adapt", "conquer")
	p := tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 1, Rounds: 10, Appearances: 7, Repeat: 1,
		Options: map[string]string{"turns": "5"}}
	if _, err := tournament.NewSchedule(p); err == nil {
		t.Fatal("21 seats over 10 rounds were dealt")
	}
	p.Uneven = true
	s, err := tournament.NewSchedule(p)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[int]int{}
	for _, g := range s.Games() {
		sizes[len(g)]++
	}
	if sizes[3] != 1 || sizes[2] != 9 {
		t.Fatalf("games by seats %v; want one of 3 and nine of 2", sizes)
	}
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es}
	results := record(t, tour)
	wantText, _ := standings(t, s, results)
	table, err := tournament.Merge(readers(t, split(t, s, results, 2)...))
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := tableText(t, table); text != wantText {
		t.Errorf("merged standings differ from the run's:\n%s", cmp.Diff(wantText, text))
	}
}

func TestMergedStandingsTellFaultsByKind(t *testing.T) {
	// A player's faults are told kind by kind, with what the first of
	// each said, by the standings of shards merged as by a single run's:
	// results files keep them.
	tour := reajTournament(t, 1, "20")
	s := tour.Schedule
	whole := record(t, tour)
	for i := range whole {
		g := &whole[i]
		if i%3 != 0 {
			continue
		}
		g.Faults = make([]int, len(g.Seats))
		g.FaultKinds = make([][]tournament.FaultCount, len(g.Seats))
		g.Faults[1] = 3
		g.FaultKinds[1] = []tournament.FaultCount{
			{Kind: engine.FaultTimeout, Count: 2, First: "no answer within 1s"},
			{Kind: engine.FaultIllegal, Count: 1, First: "\"fly\" is not a value"},
		}
	}
	wantText, wantJSON := standings(t, s, whole)
	if !strings.Contains(wantText, "timeout (no answer within 1s)") {
		t.Fatalf("the single run's standings tell no kinds of faults:\n%s", wantText)
	}
	mergesAsWhole(t, split(t, s, whole, 3), wantText, wantJSON)
}

// mergesAsWhole merges files and fails the test unless the standings, as
// text and as JSON, are the single run's.
func mergesAsWhole(t *testing.T, files []file, wantText, wantJSON string) {
	t.Helper()
	table, err := tournament.Merge(readers(t, files...))
	if err != nil {
		t.Fatal(err)
	}
	text, js := tableText(t, table)
	if text != wantText {
		t.Errorf("merged standings differ from the single run's:\n%s", cmp.Diff(wantText, text))
	}
	if js != wantJSON {
		t.Errorf("merged JSON differs from the single run's:\n%s", cmp.Diff(wantJSON, js))
	}
}

// split returns the files of a tournament's n shards.
func split(t *testing.T, s *tournament.Schedule, results []tournament.GameResult, n int) []file {
	t.Helper()
	var files []file
	for i := range n {
		files = append(files, file{fmt.Sprintf("shard-%d.jsonl", i), shardFile(t, s, results, tournament.Shard{Index: i, Count: n})})
	}
	return files
}

func TestMergeRefusesShardsOfDifferentTournaments(t *testing.T) {
	a := reajTournament(t, 1, "20")
	ra := record(t, a)
	b := reajTournament(t, 1, "20")
	b.Schedule.Seed = 2 // the same lineups, other seeds
	rb := record(t, b)
	fa, fb := split(t, a.Schedule, ra, 2), split(t, b.Schedule, rb, 2)
	mergeFails(t, []file{fa[0], {"other-seed.jsonl", fb[1].text}},
		"merge: shard-0.jsonl and other-seed.jsonl hold different tournaments",
		"seed 1,", "seed 2,", a.Schedule.ID(), b.Schedule.ID(), "the same game, players, options, schedule and seed")

	es := reajEntrants(t, "fixed", "random")
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 1, Seats: 6, Repeat: 1,
		Options: map[string]string{"turns": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	c := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: s, Entrants: es}
	fc := split(t, s, record(t, c), 2)
	mergeFails(t, []file{fa[0], {"other-players.jsonl", fc[1].text}}, "hold different tournaments", "other-players.jsonl", "shard-0.jsonl")

	// Other options.
	d := reajTournament(t, 1, "21")
	fd := split(t, d.Schedule, record(t, d), 2)
	mergeFails(t, []file{fa[0], {"other-turns.jsonl", fd[1].text}}, "hold different tournaments", "turns=20", "turns=21")

	// The same schedule, but a header that claims another number of games.
	edited := editHeader(t, fa[1].text, func(h map[string]any) { h["games"] = 50.0 })
	mergeFails(t, []file{fa[0], {"edited.jsonl", edited}}, "hold different tournaments", "42 games", "50 games")
}

func TestMergeKeepsToOneSetOfConditions(t *testing.T) {
	// "Games played under other conditions are other games: a run that
	// goes on with a results file, and a merge of shards, keep to one set
	// of them." Shards played with the same flags merge; shards played
	// with another --deadline are refused, naming it; a file of an older
	// version, with none, merges with any.
	a := reajTournament(t, 1, "20")
	results := record(t, a)
	shard := func(i int, c tournament.Conditions) file {
		var b bytes.Buffer
		w, err := tournament.NewWriter(&b, a.Schedule, tournament.Shard{Index: i, Count: 2}, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range results {
			if (tournament.Shard{Index: i, Count: 2}).Has(g.Game - 1) {
				w.Write(g)
			}
		}
		w.Flush()
		return file{fmt.Sprintf("shard-%d.jsonl", i), b.String()}
	}
	slow := tournament.Conditions{"deadline": "1s", "grace": "20ms"}
	fast := tournament.Conditions{"deadline": "200ms", "grace": "20ms"}
	if _, err := tournament.Merge(readers(t, shard(0, slow), shard(1, slow))); err != nil {
		t.Errorf("shards of the same conditions: %v", err)
	}
	if _, err := tournament.Merge(readers(t, shard(0, slow), shard(1, nil))); err != nil {
		t.Errorf("a shard with conditions and one of an older version: %v", err)
	}
	mergeFails(t, []file{shard(0, slow), shard(1, fast)}, "merge: shard-0.jsonl was played with --deadline 1s, not 200ms as shard-1.jsonl was")
	if d := slow.Differences(fast); len(d) != 1 || d[0] != "--deadline 1s, not 200ms" {
		t.Errorf("the differences: %q", d)
	}
}

func TestMergeSaysWhichShardIsMissing(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	files := split(t, tour.Schedule, results, 3)
	mergeFails(t, []file{files[0], files[2]}, "merge: no file holds shard 1/3; every shard's file is needed")
	mergeFails(t, []file{files[2], files[1]}, "no file holds shard 0/3")
	mergeFails(t, files[:1], "no file holds shard 1/3, 2/3")

	ten := split(t, tour.Schedule, results, 10)
	mergeFails(t, ten[3:4], "no file holds shard 0/10, 1/10, 2/10, 4/10, 5/10, and 4 more")

	// Shards of different splits: say which games are missing.
	mergeFails(t, []file{files[0], ten[1]}, "merge: game 3 is in none of the files: shard-0.jsonl (shard 0/3), shard-1.jsonl (shard 1/10)")
}

func TestMergeSaysWhenAShardStoppedEarly(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	files := split(t, tour.Schedule, record(t, tour), 3)
	// Shard 1/3 stopped after 10 of its 14 games, between two lines.
	lines := strings.SplitAfter(files[1].text, "\n")
	files[1].text = strings.Join(lines[:1+10], "")
	mergeFails(t, files, "merge: game 32 is in none of the files", "shard-1.jsonl (shard 1/3)",
		"a run stopped by Ctrl-C goes on where it stopped when its command is run again with the same --out, and one stopped by --until-certain shows its standings so")
	// Its last games.
	files = split(t, tour.Schedule, record(t, tour), 3)
	lines = strings.SplitAfter(files[2].text, "\n")
	files[2].text = strings.Join(lines[:len(lines)-2], "")
	mergeFails(t, files, "merge: game 42 is in none of the files")
	for i := range 2 {
		lines = strings.SplitAfter(files[i].text, "\n")
		files[i].text = strings.Join(lines[:len(lines)-2], "")
	}
	mergeFails(t, files, "merge: games 40 to 42 are in none of the files")
	// A gap in the middle: the line after it no longer follows.
	lines = strings.SplitAfter(files[0].text, "\n")
	files[0].text = strings.Join(append(lines[:5:5], lines[6:]...), "")
	mergeFails(t, files, "shard-0.jsonl:6: game 16: the digest does not follow", "a line before it removed")
	// Even with the digests made again, the game is missing.
	files[0].text = reseal(files[0].text)
	mergeFails(t, files, "merge: game 13 is in none of the files")
}

func TestMergeRefusesAGameTwice(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	files := split(t, tour.Schedule, results, 3)
	again := file{"again.jsonl", files[1].text}
	mergeFails(t, []file{files[0], files[1], again, files[2]}, "merge: game 2 is in both shard-1.jsonl and again.jsonl, each shard 1/3; give each shard's file once")
	whole := file{"all.jsonl", shardFile(t, tour.Schedule, results, tournament.Shard{})}
	mergeFails(t, append(files, whole), "merge: game 1 is in both")
	mergeFails(t, []file{whole, whole}, "merge: game 1 is in both all.jsonl and all.jsonl, each the whole tournament; give each shard's file once")
	// Shards of two splits were told as one shard given twice, which none
	// was.
	mergeFails(t, []file{whole, files[2]}, "merge: game 3 is in both all.jsonl (the whole tournament) and shard-2.jsonl (shard 2/3): shards of different splits overlap; give the files of one split, --shard 0/N to N-1/N, each once")
	halves := split(t, tour.Schedule, results, 2)
	mergeFails(t, []file{halves[0], files[1], files[2]}, "merge: game 3 is in both shard-0.jsonl (shard 0/2) and shard-2.jsonl (shard 2/3): shards of different splits overlap")
	// Splits that do not overlap merge: shard 1/2 played again as 1/4
	// and 3/4.
	quarters := split(t, tour.Schedule, results, 4)
	if table, err := tournament.Merge(readers(t, quarters[3], halves[0], quarters[1])); err != nil || table.Played != 42 {
		t.Errorf("shards 0/2, 1/4 and 3/4 merge into %v, %v; want all 42 games", table, err)
	}
}

func TestMergeOfNothing(t *testing.T) {
	table, err := tournament.Merge(nil)
	if err == nil || table != nil || !strings.Contains(err.Error(), "no results files") {
		t.Errorf("Merge(nil) = %v, %v; want an error saying there are no files", table, err)
	}
}

// A result that does not belong to its file is refused where it is read,
// and Merge returns no table, even when whoever edited the file made its
// digests again.
func TestReaderRefusesResultsThatDoNotBelong(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	s := tour.Schedule
	shards := split(t, s, results, 3)
	good := shards[0].text // games 1, 4, 7, …, 40 on lines 2 to 15
	for _, c := range []struct {
		name string
		text string
		want string
	}{
		{"cut mid-line", good[:len(good)-40],
			"x.jsonl:15: the line is cut short; was its shard stopped while writing? (play that shard again)"},
		{"cut after the first brace", strings.Join(strings.SplitAfter(good, "\n")[:3], "") + "{",
			"x.jsonl:4: the line is cut short"},
		{"out of order", swapLines(good, 3, 4),
			"x.jsonl:4: game 4: comes after game 7; a results file lists its games in order, once each"},
		{"a game twice", dupLine(good, 5),
			"x.jsonl:6: game 10: comes after game 10"},
		{"outside the shard", editLine(t, good, 3, func(g *tournament.GameResult) { *g = results[4] }),
			"x.jsonl:3: game 5: is not in shard 0/3"},
		{"no such game", editLine(t, good, 15, func(g *tournament.GameResult) { g.Game = 43 }),
			"x.jsonl:15: game 43: no such game; the tournament has games 1 to 42"},
		{"game zero", editLine(t, good, 2, func(g *tournament.GameResult) { g.Game = 0 }),
			"x.jsonl:2: game 0: no such game"},
		{"wrong seed", editLine(t, good, 4, func(g *tournament.GameResult) { g.Seed++ }),
			fmt.Sprintf("x.jsonl:4: game 7: seed %d; the schedule gives it seed %d", s.GameSeed(6)+1, s.GameSeed(6))},
		{"unknown player", editLine(t, good, 2, func(g *tournament.GameResult) { g.Seats[3] = "zed" }),
			`x.jsonl:2: game 1: seat 3: "zed" is not a player of this tournament`},
		{"a player twice", editLine(t, good, 2, func(g *tournament.GameResult) { g.Seats[1] = g.Seats[0] }),
			"x.jsonl:2: game 1: seat 1: " + fmt.Sprintf("%q", results[0].Seats[0]) + " sits twice"},
		{"a score missing", editLine(t, good, 2, func(g *tournament.GameResult) { g.Scores = g.Scores[1:] }),
			"x.jsonl:2: game 1: 6 seats but 5 scores, 6 ranks and 6 fault counts; want one each per seat"},
		{"a status missing", editLine(t, good, 2, func(g *tournament.GameResult) { g.Status = []string{"dead"} }),
			"x.jsonl:2: game 1: 6 seats but 1 statuses; want none or one per seat"},
		{"a name missing", editLine(t, good, 2, func(g *tournament.GameResult) { g.Names = []string{"bot"} }),
			"x.jsonl:2: game 1: 6 seats but 1 names; want none or one per seat"},
		{"no seats", editLine(t, good, 2, func(g *tournament.GameResult) { g.Seats, g.Scores, g.Ranks, g.Faults = nil, nil, nil, nil }),
			"x.jsonl:2: game 1: 0 seats; a game has 1 to"},
		{"rank out of range", editLine(t, good, 2, func(g *tournament.GameResult) { g.Ranks[2] = 7 }),
			"x.jsonl:2: game 1: seat 2: rank 7; ranks run from 1 to 6"},
		{"negative faults", editLine(t, good, 2, func(g *tournament.GameResult) { g.Faults[5] = -1 }),
			"x.jsonl:2: game 1: seat 5: -1 faults"},
		{"faults by kind that do not add up", editLine(t, good, 2, func(g *tournament.GameResult) {
			g.FaultKinds = [][]tournament.FaultCount{{{Kind: engine.FaultTimeout, Count: 2}}}
		}),
			"x.jsonl:2: game 1: seat 0: 0 faults, but its faults by kind add up to 2"},
		{"faults of a kind counted 0", editLine(t, good, 2, func(g *tournament.GameResult) {
			g.FaultKinds = [][]tournament.FaultCount{{{Kind: engine.FaultTimeout}}}
		}),
			`x.jsonl:2: game 1: seat 0: 0 faults of kind "timeout"; each kind listed counts 1 or more`},
		{"faults of more seats than the game's", editLine(t, good, 2, func(g *tournament.GameResult) {
			g.FaultKinds = make([][]tournament.FaultCount, 7)
		}),
			"x.jsonl:2: game 1: 6 seats but faults of 7 seats"},
		{"winner out of range", editLine(t, good, 2, func(g *tournament.GameResult) { g.Winners = []int{6} }),
			"x.jsonl:2: game 1: winner 6; seats run from 0 to 5"},
		{"a blank line", strings.Replace(good, "\n", "\n\n", 2),
			"x.jsonl:2: not a game's result: empty input"},
		{"an unknown field", strings.Replace(good, `{"game":4,`, `{"game":4,"extra":1,`, 1),
			`x.jsonl:3: not a game's result`},
		{"a field of the wrong type", strings.Replace(good, `{"game":4,`, `{"game":"4",`, 1),
			`x.jsonl:3: not a game's result: game: want a whole number, got a JSON string`},
		{"not JSON", strings.Replace(good, `{"game":4,`, `game 4 `, 1),
			`x.jsonl:3: not a game's result: not valid JSON`},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.text = reseal(c.text)
			r, err := tournament.NewReader(strings.NewReader(c.text), "x.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var readErr error
			for range 100 {
				if _, readErr = r.Next(); readErr != nil {
					break
				}
			}
			if readErr == io.EOF || readErr == nil {
				t.Fatalf("read the whole file; want an error saying %q", c.want)
			}
			if !strings.Contains(readErr.Error(), c.want) {
				t.Errorf("error %q does not say %q", readErr, c.want)
			}
			files := append([]file{{"x.jsonl", c.text}}, shards[1:]...)
			mergeFails(t, files, c.want)
		})
	}
}

// reseal makes the digests of a results file's lines again, as someone who
// edited it and knows the format would: SHA-256 of the digest before (the
// first, of the header line) and the line's JSON without its digest. Lines
// that are not a JSON object are left as they are.
func reseal(text string) string {
	lines := strings.SplitAfter(text, "\n")
	last := sha256.Sum256([]byte(strings.TrimSuffix(lines[0], "\n")))
	for i := 1; i < len(lines); i++ {
		l, nl := strings.CutSuffix(lines[i], "\n")
		if k := strings.LastIndex(l, `,"digest":"`); k >= 0 {
			if !strings.HasSuffix(l, `"}`) {
				continue // cut in its digest
			}
			l = l[:k] + "}"
		}
		if !strings.HasPrefix(l, "{") || !strings.HasSuffix(l, "}") {
			continue
		}
		last = sha256.Sum256(append(last[:], l...))
		lines[i] = l[:len(l)-1] + `,"digest":"` + hex.EncodeToString(last[:]) + `"}`
		if nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

func swapLines(text string, a, b int) string {
	lines := strings.SplitAfter(text, "\n")
	lines[a-1], lines[b-1] = lines[b-1], lines[a-1]
	return strings.Join(lines, "")
}

func dupLine(text string, n int) string {
	lines := strings.SplitAfter(text, "\n")
	lines = slices.Insert(lines, n, lines[n-1])
	return strings.Join(lines, "")
}

func TestReaderRefusesBadHeaders(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	good := shardFile(t, tour.Schedule, results, tournament.Shard{Index: 1, Count: 2})
	head, _, _ := strings.Cut(good, "\n")
	for _, c := range []struct {
		name string
		text string
		want string
	}{
		{"empty file", "", "x.jsonl: empty; a results file starts with a arbiter-tournament header line"},
		{"not a results file", "hello\n", `x.jsonl:1: not a tournament results file (its first line should be a header with "format":"arbiter-tournament")`},
		{"a record of one game", `{"format":"arbiter-record","version":1}` + "\n", "x.jsonl:1: not a tournament results file"},
		{"header cut short", head[:len(head)/2], "x.jsonl:1: the header line is cut short or broken"},
		{"header only a brace", head[:1] + "\n", "x.jsonl:1: not a tournament results file"},
		{"edited id", editHeader(t, good, func(h map[string]any) { h["id"] = "0123456789abcdef" }),
			fmt.Sprintf(`x.jsonl:1: header: the id "0123456789abcdef" does not match its schedule (%s); the file was edited`, tour.Schedule.ID())},
		{"edited schedule", editHeader(t, good, func(h map[string]any) { h["schedule"].(map[string]any)["seed"] = 2.0 }),
			fmt.Sprintf(`header: the id %q does not match its schedule`, tour.Schedule.ID())},
		{"edited players", editHeader(t, good, func(h map[string]any) {
			h["schedule"].(map[string]any)["players"].([]any)[0] = "zed"
		}), "does not match its schedule"},
		{"another version", editHeader(t, good, func(h map[string]any) { h["version"] = 3.0 }),
			"x.jsonl:1: results format version 3; this Arbiter reads version 2"},
		{"the version without digests", editHeader(t, good, func(h map[string]any) { h["version"] = 1.0 }),
			"x.jsonl:1: results format version 1, whose lines carry no digest, so an edit would go unseen; this Arbiter reads version 2: play the shard again"},
		{"no schedule", editHeader(t, good, func(h map[string]any) { delete(h, "schedule") }), "x.jsonl:1: header: no schedule"},
		{"no games", editHeader(t, good, func(h map[string]any) { h["games"] = 0.0 }), "x.jsonl:1: header: 0 games; a tournament has 1 to 10000000"},
		{"bad shard", editHeader(t, good, func(h map[string]any) { h["shard"] = "2/2" }),
			`x.jsonl:1: header: --shard "2/2": with 2 shards the shard number must be from 0 to 1`},
		{"unknown field", editHeader(t, good, func(h map[string]any) { h["extra"] = 1.0 }), `x.jsonl:1: header: `},
		{"a player twice", editHeader(t, good, func(h map[string]any) {
			s := h["schedule"].(map[string]any)
			s["players"].([]any)[1] = s["players"].([]any)[0]
			var sched tournament.Schedule
			b, _ := json.Marshal(s)
			json.Unmarshal(b, &sched)
			h["id"] = sched.ID()
		}), `x.jsonl:1: header: player "conquer" is named twice`},
		{"no players", editHeader(t, good, func(h map[string]any) {
			s := h["schedule"].(map[string]any)
			s["players"] = []any{}
			var sched tournament.Schedule
			b, _ := json.Marshal(s)
			json.Unmarshal(b, &sched)
			h["id"] = sched.ID()
		}), `x.jsonl:1: header: the schedule has no players`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := tournament.NewReader(strings.NewReader(c.text), "x.jsonl")
			if err == nil {
				t.Fatalf("read the header %+v; want an error saying %q", r.Header, c.want)
			}
			if r != nil {
				t.Errorf("a reader along with the error %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterReportsWriteErrors(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	w, err := tournament.NewWriter(failingWriter{}, tour.Schedule, tournament.Shard{}, nil)
	if err == nil {
		// The header is buffered; the error comes at the latest on Flush.
		err = w.Flush()
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v; want disk full", err)
	}
}

// FuzzReader reads arbitrary results files, whole or after a valid header,
// and merges them: it must never panic, and Merge returns a table only
// when every game is there, once.
func FuzzReader(f *testing.F) {
	// A small tournament, so that the fuzzer's inputs are short: three
	// players, every two of them in both seats (6 games).
	es := reajEntrants(f, "conquer", "adapt", "steward")
	sched, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: names(es), Seed: 1, Seats: 2, Repeat: 1,
		Options: map[string]string{"turns": "3"}})
	if err != nil {
		f.Fatal(err)
	}
	tour := &tournament.Tournament[reaj.Value, reaj.View]{Ruleset: reaj.Game{}, Schedule: sched, Entrants: es}
	results := record(f, tour)
	s := tour.Schedule
	shard0 := shardFile(f, s, results, tournament.Shard{Index: 0, Count: 2})
	shard1 := shardFile(f, s, results, tournament.Shard{Index: 1, Count: 2})
	head, body, _ := strings.Cut(shard0, "\n")
	head += "\n"
	whole := shardFile(f, s, results, tournament.Shard{})

	f.Add(true, []byte(body))
	f.Add(true, []byte(""))
	f.Add(true, []byte(body[:len(body)/2]))
	f.Add(true, []byte(swapLines(body, 1, 2)))
	f.Add(true, []byte(`{"game":1,"seed":1,"seats":["conquer"],"scores":[1],"ranks":[1],"winners":[0],"faults":[0]}`+"\n"))
	f.Add(true, []byte(`{"game":3,"seed":3,"seats":["adapt","steward"],"scores":[1,2],"ranks":[2,1],"winners":[1],"faults":[0,0],"status":["",""]}`+"\n"))
	f.Add(false, []byte(whole))
	f.Add(false, []byte(shard1))
	f.Add(false, []byte(""))
	f.Add(false, []byte("\n"))
	f.Add(false, []byte(head))
	f.Add(false, []byte(`{"format":"arbiter-tournament","version":1,"id":"x","schedule":{"players":["a"]},"games":1,"shard":"0/1"}`))
	f.Fuzz(func(t *testing.T, afterHeader bool, data []byte) {
		text := string(data)
		if afterHeader {
			text = head + text
		}
		r, err := tournament.NewReader(strings.NewReader(text), "fuzz.jsonl")
		if err != nil {
			if r != nil {
				t.Fatalf("a reader along with the error %v", err)
			}
			if !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		h := r.Header
		if h.Schedule == nil || h.ID != h.Schedule.ID() || h.Games < 1 {
			t.Fatalf("accepted the header %+v", h)
		}
		shard, err := tournament.ParseShard(h.Shard)
		if err != nil {
			t.Fatalf("accepted the shard %q: %v", h.Shard, err)
		}
		players := map[string]bool{}
		for _, p := range h.Schedule.Players {
			players[p] = true
		}
		last, failed := 0, false
		for range strings.Count(text, "\n") + 1 {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if !strings.Contains(err.Error(), "fuzz.jsonl:") {
					t.Fatalf("error %q does not name the file", err)
				}
				failed = true
				continue
			}
			if g.Game <= last || g.Game > h.Games || !shard.Has(g.Game-1) || g.Seed != h.Schedule.GameSeed(g.Game-1) {
				t.Fatalf("accepted game %d after game %d, seed %d, in shard %s of %d games", g.Game, last, g.Seed, shard, h.Games)
			}
			if len(g.Seats) == 0 || len(g.Scores) != len(g.Seats) || len(g.Ranks) != len(g.Seats) || len(g.Faults) != len(g.Seats) {
				t.Fatalf("accepted %+v", g)
			}
			for _, p := range g.Seats {
				if !players[p] {
					t.Fatalf("accepted the player %q", p)
				}
			}
			last = g.Game
		}
		// What a run that goes on keeps: whole lines, the last one's
		// newline told; read again, the same games.
		kept, open := r.Kept()
		if kept < 0 || kept > int64(len(text)) || (kept > 0 && (text[kept-1] == '\n') == open) {
			t.Fatalf("kept %d bytes (open %v) of %q", kept, open, text)
		}
		if !failed {
			again, err := tournament.NewReader(strings.NewReader(text[:kept]), "kept.jsonl")
			if err != nil {
				t.Fatalf("the kept part does not read: %v", err)
			}
			for {
				if _, err := again.Next(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("the kept part does not read: %v", err)
				}
			}
			n, _ := r.Read()
			if a, b := again.Read(); a != n || b != last {
				t.Fatalf("the kept part reads %d games to game %d; the whole, %d to game %d", a, b, n, last)
			}
		}

		rs := []*tournament.Reader{}
		for _, f := range []file{{"fuzz.jsonl", text}, {"shard1.jsonl", shard1}} {
			r, err := tournament.NewReader(strings.NewReader(f.text), f.name)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
			if !afterHeader {
				break
			}
		}
		table, err := tournament.Merge(rs)
		if err != nil {
			if table != nil {
				t.Fatalf("a table along with the error %v", err)
			}
			return
		}
		if table.Played != table.Games || table.Games != h.Games {
			t.Fatalf("merged %d of %d games (the header says %d)", table.Played, table.Games, h.Games)
		}
		var out bytes.Buffer
		if err := table.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if err := table.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
	})
}

// editKeepingDigest changes the result on line n (from 1, the header) of a
// results file in place, and leaves the line's digest as it was: an edit
// by hand or by a script that does not know the digests.
func editKeepingDigest(t testing.TB, text string, n int, edit func(*tournament.GameResult)) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	k := strings.LastIndex(lines[n-1], `,"digest":"`)
	if k < 0 {
		t.Fatalf("line %d has no digest: %s", n, lines[n-1])
	}
	var g tournament.GameResult
	if err := json.Unmarshal([]byte(lines[n-1][:k]+"}"), &g); err != nil {
		t.Fatal(err)
	}
	edit(&g)
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	lines[n-1] = string(b[:len(b)-1]) + lines[n-1][k:]
	return strings.Join(lines, "")
}

func TestReaderRefusesEditedResults(t *testing.T) {
	// "Merge refuses ... edited files, each with a message naming the file
	// and line": every field of a game's line, and every line, is sealed by
	// the digests chained from the header.
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	shards := split(t, tour.Schedule, results, 3)
	good := shards[1].text // games 2, 5, 8, …, 41 on lines 2 to 15
	g5 := results[4]
	edited := "x.jsonl:3: game 5: the digest does not follow from this line and the ones before it: the line was edited"
	removed := "a line before it removed, added or moved"
	header, rest, _ := strings.Cut(good, "\n")
	whole := shardFile(t, tour.Schedule, results, tournament.Shard{})
	for _, c := range []struct {
		name string
		text string
		want string
	}{
		{"a score", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Scores[0]++ }), edited},
		{"a rank", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Ranks[0], g.Ranks[1] = g.Ranks[1], g.Ranks[0] }), edited},
		{"the winners", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Winners = []int{5} }), edited},
		{"no winner", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Winners = []int{} }), edited},
		{"a fault count", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Faults[2] = 3 }), edited},
		{"a status", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) {
			g.Status = make([]string, len(g.Seats))
			g.Status[1] = "dead"
		}), edited},
		{"two seats swapped", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Seats[0], g.Seats[1] = g.Seats[1], g.Seats[0] }),
			fmt.Sprintf("x.jsonl:3: game 5: seat 0: %q; the schedule seats %q there", g5.Seats[1], g5.Seats[0])},
		{"a seat given to another player", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Seats[4] = absent(tour.Schedule, g5) }),
			fmt.Sprintf("x.jsonl:3: game 5: seat 4: %q; the schedule seats %q there", absent(tour.Schedule, g5), g5.Seats[4])},
		{"the seed", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Seed = 99 }),
			"x.jsonl:3: game 5: seed 99; the schedule gives it seed 5"},
		{"the game", editKeepingDigest(t, good, 3, func(g *tournament.GameResult) { g.Game = 6 }),
			"x.jsonl:3: game 6: is not in shard 1/3"},
		{"the digest", editDigest(good, 3), edited},
		{"no digest", editLine(t, good, 3, func(*tournament.GameResult) {}),
			`x.jsonl:3: game 5: the line does not end with its digest (,"digest":"..."}); the file was edited`},
		{"a line removed", strings.Join(slices.Delete(strings.SplitAfter(good, "\n"), 2, 3), ""),
			"x.jsonl:3: game 8: the digest does not follow from this line and the ones before it: the line was edited, or " + removed},
		{"two lines swapped", swapLines(good, 3, 4), "x.jsonl:3: game 8: the digest does not follow"},
		{"a line twice", dupLine(good, 3), "x.jsonl:4: game 5: comes after game 5"},
		{"a line of another shard", insertLine(good, 2, strings.SplitAfter(shards[0].text, "\n")[2]),
			"x.jsonl:3: game 4: is not in shard 1/3"},
		{"the same game's line of another file", replaceLine(good, 3, strings.SplitAfter(whole, "\n")[5]), edited},
		{"the header's spacing", strings.Replace(header, `,"games":`, `, "games":`, 1) + "\n" + rest,
			"x.jsonl:2: game 2: the digest does not follow from this line and the ones before it: the line was edited, or a line before it removed, added or moved, or the header changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.text == good {
				t.Fatal("the edit changed nothing")
			}
			r, err := tournament.NewReader(strings.NewReader(c.text), "x.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if err := drainReader(r); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v; want one saying %q", err, c.want)
			}
			mergeFails(t, []file{shards[0], {"x.jsonl", c.text}, shards[2]}, c.want)
		})
	}
	// Unedited, the shards merge.
	if _, err := tournament.Merge(readers(t, shards...)); err != nil {
		t.Fatal(err)
	}
}

// The header describes the schedule; a header whose games or schedule were
// edited (its fingerprint made again) is refused before any game is added.
func TestReaderRefusesAnEditedSchedule(t *testing.T) {
	tour := reajTournament(t, 1, "20")
	results := record(t, tour)
	good := shardFile(t, tour.Schedule, results, tournament.Shard{Index: 1, Count: 3})
	refit := func(edit func(h, s map[string]any)) string {
		return reseal(editHeader(t, good, func(h map[string]any) {
			s := h["schedule"].(map[string]any)
			edit(h, s)
			var sched tournament.Schedule
			b, _ := json.Marshal(s)
			json.Unmarshal(b, &sched)
			h["id"] = sched.ID()
		}))
	}
	for _, c := range []struct {
		name, text, want string
	}{
		{"the number of games", refit(func(h, _ map[string]any) { h["games"] = 50.0 }),
			"x.jsonl:1: header: it says 50 games, but its schedule deals 42; the file was edited"},
		{"the seats per game", refit(func(_, s map[string]any) { s["seats"] = 5.0 }),
			"x.jsonl:1: header: it says 42 games, but its schedule deals 105"},
		{"the kind", refit(func(_, s map[string]any) { s["kind"] = "knockout" }),
			`x.jsonl:1: header: schedule kind "knockout"; want groups or rotation`},
		{"groups without rounds", refit(func(_, s map[string]any) { s["kind"] = "groups" }),
			"x.jsonl:1: header: its groups schedule's parameters do not make one of that kind; the file was edited"},
		{"too many appearances", refit(func(_, s map[string]any) {
			s["kind"], s["rounds"], s["appearances"] = "groups", 2.0, 3.0
			delete(s, "seats")
		}), "x.jsonl:1: header: its schedule cannot be dealt: tournament: 3 appearances over 2 rounds"},
		{"the players' order", refit(func(_, s map[string]any) {
			p := s["players"].([]any)
			p[0], p[6] = p[6], p[0]
		}), `x.jsonl:2: game 2: seat 5: "conquer"; the schedule seats "steward" there`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := tournament.NewReader(strings.NewReader(c.text), "x.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if err := drainReader(r); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v; want one saying %q", err, c.want)
			}
			if _, err := tournament.Merge(readers(t, file{"x.jsonl", c.text})); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("merge: error %v; want one saying %q", err, c.want)
			}
		})
	}
}

// drainReader reads r to the end and returns its first error.
func drainReader(r *tournament.Reader) error {
	for {
		if _, err := r.Next(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// absent is a player of the schedule who does not sit in game g.
func absent(s *tournament.Schedule, g tournament.GameResult) string {
	for _, p := range s.Players {
		if !slices.Contains(g.Seats, p) {
			return p
		}
	}
	panic("every player sits in the game")
}

// editDigest changes the first hex digit of line n's digest.
func editDigest(text string, n int) string {
	lines := strings.SplitAfter(text, "\n")
	k := strings.LastIndex(lines[n-1], `,"digest":"`) + len(`,"digest":"`)
	d := byte('0')
	if lines[n-1][k] == '0' {
		d = '1'
	}
	lines[n-1] = lines[n-1][:k] + string(d) + lines[n-1][k+1:]
	return strings.Join(lines, "")
}

// insertLine puts line after line n of text.
func insertLine(text string, n int, line string) string {
	return strings.Join(slices.Insert(strings.SplitAfter(text, "\n"), n, line), "")
}

// replaceLine puts line in place of line n of text.
func replaceLine(text string, n int, line string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[n-1] = line
	return strings.Join(lines, "")
}
