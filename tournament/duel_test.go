package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/games/zombie"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/tournament/sprt"
	"github.com/google/go-cmp/cmp"
)

func TestDuelLineup(t *testing.T) {
	// "Game pairs: the same seed, the two bots' seats swapped; for games of
	// more than two seats, A and B rotated through the seats and the other
	// seats filled by the fixed field."
	two := &tournament.Duel{A: "a", B: "b", Seed: 10}
	for k := range 3 {
		if got := two.Lineup(k, false); !slices.Equal(got, []int{0, 1}) {
			t.Errorf("two seats, pair %d, first game: %v; want A then B", k+1, got)
		}
		if got := two.Lineup(k, true); !slices.Equal(got, []int{1, 0}) {
			t.Errorf("two seats, pair %d, second game: %v; want B then A", k+1, got)
		}
		if got := two.PairSeed(k); got != uint64(10+k) {
			t.Errorf("pair %d: seed %d; want %d", k+1, got, 10+k)
		}
	}
	// Four seats: A and B go through the six pairs of seats, the field
	// (2, 3) keeping its order in the others; then round again.
	four := &tournament.Duel{A: "a", B: "b", Field: []string{"x", "y"}}
	want := [][]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 2, 3, 1}, {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 3, 0, 1}, {0, 1, 2, 3}}
	for k, w := range want {
		if got := four.Lineup(k, false); !slices.Equal(got, w) {
			t.Errorf("four seats, pair %d, first game: %v; want %v", k+1, got, w)
		}
		swapped := slices.Clone(w)
		i, j := slices.Index(w, 0), slices.Index(w, 1)
		swapped[i], swapped[j] = 1, 0
		if got := four.Lineup(k, true); !slices.Equal(got, swapped) {
			t.Errorf("four seats, pair %d, second game: %v; want %v", k+1, got, swapped)
		}
	}
}

func TestDuelOutcome(t *testing.T) {
	// "A ranks above B: a win; below: a loss; equal places: a draw, whoever
	// else is ahead or behind."
	d := &tournament.Duel{A: "a", B: "b", Field: []string{"x"}}
	for _, c := range []struct {
		ranks []int
		want  sprt.Outcome
	}{
		{[]int{1, 2, 3}, sprt.Win},
		{[]int{3, 2, 1}, sprt.Loss},
		{[]int{2, 3, 1}, sprt.Win}, // both behind the field: A still above B
		{[]int{2, 2, 1}, sprt.Draw},
		{[]int{1, 1, 1}, sprt.Draw},
	} {
		g := tournament.GameResult{Ranks: c.ranks}
		if got := d.Outcome(0, false, &g); got != c.want {
			t.Errorf("ranks %v, A in seat 0, B in seat 1: %v; want %v", c.ranks, got, c.want)
		}
		// In the second game A and B have swapped seats.
		if got := d.Outcome(0, true, &g); got != sprt.Win-c.want {
			t.Errorf("ranks %v, A in seat 1, B in seat 0: %v; want %v", c.ranks, got, sprt.Win-c.want)
		}
	}
}

// zombieDuel is a duel of zombie bots: a against b, with the field.
func zombieDuel(t testing.TB, seed uint64, a, b string, field ...string) *tournament.DuelRun[zombie.Plan, zombie.View] {
	t.Helper()
	d := &tournament.Duel{Ruleset: "zombie", Rules: zombie.Game{}.Info().Version, A: a, B: b, Field: field, Seed: seed,
		Options: map[string]string{"turns": "5", "zombies": "1", "antibodies": "0", "viruses": "0"}}
	var entrants []zombie.Entrant
	for _, name := range d.Names() {
		es, err := zombie.Bots(name)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		entrants = append(entrants, es[0])
	}
	return &tournament.DuelRun[zombie.Plan, zombie.View]{Ruleset: zombie.Game{}, Duel: d, Entrants: entrants}
}

// playDuel plays r under test and returns the pairs it reported, and the
// tally, which stops the duel when the test decides.
func playDuel(t testing.TB, r *tournament.DuelRun[zombie.Plan, zombie.View], test *sprt.Test) ([]tournament.Pair, *tournament.Tally) {
	t.Helper()
	tally := &tournament.Tally{Test: test}
	var pairs []tournament.Pair
	r.Pair = func(p tournament.Pair) error {
		pairs = append(pairs, p)
		if err := tally.Add(r.Duel, &p); err != nil {
			return err
		}
		if tally.Verdict != sprt.Continue {
			return tournament.ErrStop
		}
		return nil
	}
	n, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != len(pairs) {
		t.Fatalf("Run says %d pairs; %d reported", n, len(pairs))
	}
	return pairs, tally
}

func TestDuelSameWhateverParallel(t *testing.T) {
	// "Deterministic given the seed (same seed → same games, same result,
	// whatever --parallel)": the test is asked after each pair in order, so
	// it stops at the same pair however many games are played at once.
	test := &sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized}
	var first []tournament.Pair
	var firstTally *tournament.Tally
	for _, parallel := range []int{1, 2, 7} {
		r := zombieDuel(t, 1, "sensible", "spreader", "sensible", "sensible", "sensible", "sensible", "sensible")
		r.Parallel, r.To = parallel, tournament.MaxPairs
		pairs, tally := playDuel(t, r, test)
		if tally.Verdict != sprt.AcceptH1 {
			t.Fatalf("--parallel %d: %v after %d pairs, LLR %v; want H1", parallel, tally.Verdict, tally.Pairs(), tally.LLR)
		}
		if first == nil {
			first, firstTally = pairs, tally
			continue
		}
		if diff := cmp.Diff(first, pairs); diff != "" {
			t.Fatalf("--parallel %d plays other pairs (-1 +%d):\n%s", parallel, parallel, diff)
		}
		if !reflect.DeepEqual(*tally, *firstTally) {
			t.Errorf("--parallel %d: tally %+v; with 1, %+v", parallel, *tally, *firstTally)
		}
	}
	// The pairs are the duel's, in order, each game on its pair's seed with
	// A and B swapped.
	for k, p := range first {
		if p.Pair != k+1 || p.Games[0].Seed != uint64(1+k) || p.Games[1].Seed != uint64(1+k) ||
			p.Games[0].Game != 2*k+1 || p.Games[1].Game != 2*k+2 {
			t.Fatalf("pair %d: %+v", k+1, p)
		}
	}
}

func TestDuelGoesOnFromAPair(t *testing.T) {
	// A duel played in two runs, the second from where the first stopped,
	// is the duel played in one.
	whole := zombieDuel(t, 5, "cautious", "random", "sensible")
	whole.To = 40
	all, _ := playDuel(t, whole, nil)
	head := zombieDuel(t, 5, "cautious", "random", "sensible")
	head.To = 17
	first, _ := playDuel(t, head, nil)
	tail := zombieDuel(t, 5, "cautious", "random", "sensible")
	tail.From, tail.To = 17, 40
	rest, _ := playDuel(t, tail, nil)
	if diff := cmp.Diff(all, append(first, rest...)); diff != "" {
		t.Errorf("pairs 1-17 then 18-40 differ from 1-40 (-whole +parts):\n%s", diff)
	}
}

func TestDuelInterrupted(t *testing.T) {
	r := zombieDuel(t, 1, "sensible", "cautious", "sensible")
	r.To = 1000
	ctx, cancel := context.WithCancel(context.Background())
	told := 0
	r.Pair = func(p tournament.Pair) error {
		if told++; told == 3 {
			cancel()
		}
		return nil
	}
	n, err := r.Run(ctx)
	if !errors.Is(err, context.Canceled) || n < 3 || n >= 1000 {
		t.Errorf("cancelled after 3 pairs: %d pairs, %v; want at least 3 and an error wrapping context.Canceled", n, err)
	}
}

// duelFile plays a duel into a duel file and returns its bytes and the
// tally.
func duelFile(t testing.TB, test *sprt.Test, pairs int) ([]byte, *tournament.Tally, *tournament.Duel) {
	t.Helper()
	r := zombieDuel(t, 3, "sensible", "spreader", "sensible", "sensible")
	r.To = pairs
	var buf bytes.Buffer
	w, err := tournament.NewDuelWriter(&buf, r.Duel, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, tally := playDuel(t, r, test)
	for i := range ps {
		if err := w.Write(&ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteState(tally.State(tournament.EndedGames)); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), tally, r.Duel
}

func TestDuelFileReadsBack(t *testing.T) {
	test := &sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Logistic}
	data, tally, d := duelFile(t, test, 30)
	f, err := tournament.ReadDuel(bytes.NewReader(data), "duel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if *f.Tally.Test != *test {
		t.Errorf("read back the test %+v; wrote %+v", *f.Tally.Test, *test)
	}
	f.Tally.Test = tally.Test
	if !reflect.DeepEqual(f.Tally, *tally) || f.Cut || f.Size != int64(len(data)) || f.Last == nil || *f.Last != tally.State(tournament.EndedGames) {
		t.Errorf("read back: tally %+v, cut %v, size %d of %d, last %+v; wrote %+v", f.Tally, f.Cut, f.Size, len(data), f.Last, *tally)
	}
	if err := f.Same(d, test); err != nil {
		t.Errorf("the file's own duel: %v", err)
	}
	// A file goes on where it stopped: what a writer continuing it adds
	// reads back as one file.
	var more bytes.Buffer
	w := f.Continue(&more)
	if err := w.WriteState(tally.State(tournament.EndedInterrupted)); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if _, err := tournament.ReadDuel(bytes.NewReader(append(slices.Clone(data), more.Bytes()...)), "duel.jsonl"); err != nil {
		t.Errorf("continued: %v", err)
	}
}

func TestDuelFileCut(t *testing.T) {
	// "An interrupted duel (kill -9) run again continues where it stopped":
	// a last line cut short by the kill is left out, and played again.
	data, _, _ := duelFile(t, nil, 12)
	lines := bytes.SplitAfter(data, []byte("\n"))
	whole := bytes.Join(lines[:8], nil) // the header and 7 pairs
	cut := append(slices.Clone(whole), lines[8][:len(lines[8])/2]...)
	f, err := tournament.ReadDuel(bytes.NewReader(cut), "duel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !f.Cut || f.Size != int64(len(whole)) || f.Tally.Pairs() != 7 {
		t.Errorf("cut: %v, size %d (want %d), %d pairs (want 7)", f.Cut, f.Size, len(whole), f.Tally.Pairs())
	}
}

func TestDuelFileRefusesEdits(t *testing.T) {
	test := &sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized}
	data, _, d := duelFile(t, test, 10)
	lines := strings.SplitAfter(string(data), "\n")
	edit := func(line int, old, new string) string {
		l := slices.Clone(lines)
		if !strings.Contains(l[line], old) {
			t.Fatalf("line %d has no %q: %s", line+1, old, l[line])
		}
		l[line] = strings.Replace(l[line], old, new, 1)
		return strings.Join(l, "")
	}
	for _, c := range []struct {
		name, file, says string
	}{
		{"another format", `{"format":"arbiter-tournament","version":2}` + "\n", "not a duel file"},
		{"empty", "", "empty"},
		{"the header's duel", edit(0, `"seed":3`, `"seed":4`), "does not match its duel"},
		{"an outcome", edit(3, `"outcome":"`, `"outcome":"W`), "the digest does not follow"},
		{"a rank", edit(2, `"ranks":[`, `"ranks":[9,`), "the digest does not follow"},
		{"a line removed", strings.Join(append(slices.Clone(lines[:2]), lines[3:]...), ""), "duel.jsonl:3: the digest does not follow"},
		{"a line with no digest", edit(4, `,"digest":"`, `,"digestX":"`), "does not end with its digest"},
	} {
		_, err := tournament.ReadDuel(strings.NewReader(c.file), "duel.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), "duel.jsonl") {
			t.Errorf("%s: %v; want an error naming the file and saying %q", c.name, err, c.says)
		}
	}
	// Another duel, or another test, is not this one.
	f, err := tournament.ReadDuel(bytes.NewReader(data), "duel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	other := *d
	other.B = "random"
	for _, c := range []struct {
		d    *tournament.Duel
		test *sprt.Test
		says string
	}{
		{&other, test, "it holds another duel (zombie duel"},
		{d, nil, "it holds a duel tested with --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 --elo-model normalized; give the same test"},
		{d, &sprt.Test{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}, "not --sprt elo0=0,elo1=2,alpha=0.05,beta=0.05"},
	} {
		if err := f.Same(c.d, c.test); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Same: %v; want %q", err, c.says)
		}
	}
}

func TestDuelFileRefusesPairsAfterTheDecision(t *testing.T) {
	// A test so easy that it decides at once: a pair after its decision
	// cannot be in the file.
	easy := &sprt.Test{Elo0: 0, Elo1: 1000, Alpha: 0.45, Beta: 0.45, Model: sprt.Logistic}
	data, tally, _ := duelFile(t, easy, 10)
	if tally.Verdict == sprt.Continue {
		t.Fatalf("the test did not decide: %+v", tally)
	}
	// Append a pair the duel would have played next, in a file whose test
	// never decides, and read it as the easy test's file.
	slow := &sprt.Test{Elo0: 0, Elo1: 0.001, Alpha: 0.001, Beta: 0.001, Model: sprt.Logistic}
	longer, _, _ := duelFile(t, slow, tally.Pairs()+1)
	easyHeader := bytes.SplitAfter(data, []byte("\n"))[0]
	slowLines := bytes.SplitAfter(longer, []byte("\n"))
	// The digests chain from the header: write the easy test's header,
	// then the pairs again through a writer, so that only the decision
	// stands in the way.
	f, err := tournament.ReadDuel(bytes.NewReader(easyHeader), "duel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(easyHeader)
	w := f.Continue(&buf)
	for _, l := range slowLines[1 : tally.Pairs()+2] {
		var p tournament.Pair
		if err := jsonPair(l, &p); err != nil {
			t.Fatal(err)
		}
		w.Write(&p)
	}
	w.Flush()
	_, err = tournament.ReadDuel(&buf, "duel.jsonl")
	want := fmt.Sprintf("pair %d comes after the test's decision", tally.Pairs()+1)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v; want %q", err, want)
	}
}

// jsonPair reads a pair's line, digest and all.
func jsonPair(line []byte, p *tournament.Pair) error { return json.Unmarshal(line, p) }

func FuzzReadDuel(f *testing.F) {
	test := &sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized}
	data, _, _ := duelFile(f, test, 3)
	f.Add(data)
	f.Add(data[:len(data)/2])
	plain, _, _ := duelFile(f, nil, 2)
	f.Add(plain)
	f.Add([]byte(`{"format":"arbiter-duel","version":1}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		df, err := tournament.ReadDuel(bytes.NewReader(data), "duel.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "duel.jsonl") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		if df.Size > int64(len(data)) || df.Size < 1 || df.Header.Duel == nil {
			t.Fatalf("size %d of %d, header %+v", df.Size, len(data), df.Header)
		}
		if n := df.Tally.Trinomial.Games(); n != 2*df.Tally.Pairs() {
			t.Fatalf("%d games in %d pairs", n, df.Tally.Pairs())
		}
		// What was read reads again, whole.
		again, err := tournament.ReadDuel(bytes.NewReader(data[:df.Size]), "duel.jsonl")
		if err != nil || again.Cut || again.Tally.State("") != df.Tally.State("") {
			t.Fatalf("its %d whole bytes read again: %v", df.Size, err)
		}
	})
}
