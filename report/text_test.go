package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// fmtGameText is a game's text as fmt wrote it: the reference the text's
// own number formatting must match byte for byte.
func fmtGameText(g *Game, b *strings.Builder, verbose bool) {
	name := g.Ruleset
	if g.Variant != "" {
		name += " (" + g.Variant + ")"
	}
	fmt.Fprintf(b, "game %d: %s, seed %d\n", g.Number, name, g.Seed)
	players := make([]string, len(g.Players))
	for s, p := range g.Players {
		players[s] = fmt.Sprintf("%d%c%s", s+1, wrap.NoBreak, p)
	}
	var wrapped bytes.Buffer
	wrap.Write(&wrapped, "players: "+strings.Join(players, ", "), "", "  ", wrap.Width)
	if opts := optionsText(g.Options); opts != "" {
		wrap.Write(&wrapped, "options: "+opts, "", "  ", wrap.Width)
	}
	b.Write(wrapped.Bytes())
	if len(g.History) > 0 {
		b.WriteString("at the start\n")
		fmtIndent(b, fmt.Sprint(g.History[0]), "  ")
		last := len(g.History) - 1
		if verbose && len(g.Clocks) == len(g.History) {
			// The world each time the clock moves on.
			for i := 1; i < last; i++ {
				if g.Clocks[i-1] != g.Clocks[i] {
					fmt.Fprintf(b, "%s %d\n", g.ClockName, g.Clocks[i])
					fmtIndent(b, fmt.Sprint(g.History[i]), "  ")
				}
			}
		}
		if last > 0 {
			fmt.Fprintf(b, "at the end (%s %d)\n", g.ClockName, g.Clock)
			fmtIndent(b, fmt.Sprint(g.History[last]), "  ")
		}
	}
	if len(g.Events) > 0 {
		b.WriteString("events\n")
		for _, e := range g.Events {
			var line bytes.Buffer
			wrap.Write(&line, fmt.Sprintf("%s %d: %s", g.ClockName, e.Clock, e.Text), "  ", "    ", wrap.Width)
			b.Write(line.Bytes())
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
		width := 0 // in a terminal's cells, as fmt's widths are not
		for _, p := range g.Players {
			width = max(width, wrap.Cells(p))
		}
		scoreWidth := 8 // as wide as the widest score
		for _, score := range g.Result.Scores {
			scoreWidth = max(scoreWidth, len(fmt.Sprint(score)))
		}
		var rows [][2]string // each row's name and what follows it
		widest := 0
		for s, score := range g.Result.Scores {
			mark := ""
			if g.Result.Won(s) {
				mark = "  WINNER"
			}
			if s < len(g.Result.Status) && g.Result.Status[s] != "" {
				mark += "  " + strings.ToUpper(g.Result.Status[s])
			}
			rank := ""
			if s < len(g.Result.Ranks) {
				rank = fmt.Sprintf("  rank %d", g.Result.Ranks[s])
			}
			after := fmt.Sprintf("  %*d%s%s", scoreWidth, score, rank, mark)
			rows = append(rows, [2]string{g.Players[s], after})
			widest = max(widest, len(after))
		}
		if 6+width+widest > wrap.Width && width > minScoreName {
			width = max(minScoreName, wrap.Width-6-widest)
		}
		for s, row := range rows {
			fmt.Fprintf(b, "  %2d  %s%s\n", s+1, wrap.PadRight(wrap.Middle(row[0], width), width), row[1])
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
		var line bytes.Buffer
		wrap.Write(&line, fmt.Sprintf("%s: %s (%s)", p, strings.Join(parts, ", "), first), fmt.Sprintf("  %2d  ", s+1), "      ", wrap.Width)
		b.Write(line.Bytes())
	}
}

// fmtIndent is indent, for fmtGameText.
func fmtIndent(b *strings.Builder, text, prefix string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(prefix)
		b.WriteString(line)
		b.WriteByte('\n')
	}
}

func TestGameTextIsFmts(t *testing.T) {
	// A game's text formats its numbers without fmt: every width, sign,
	// long number and name (in any script) comes out as fmt wrote it.
	rng := rand.New(rand.NewPCG(5, 6))
	names := []string{"a", "basic.conquer", "société", "игрок", "😀x", "", "a-very-long-player-name-indeed", "exec:python3 /home/someone/projects/arbiter-bots/first-try/mybot.py",
		"太郎", "Jose\u0301", "👩\u200d🚀 astronaut", "花子の とても長い 名前のボット です よ"}
	number := func() int64 {
		switch rng.IntN(3) {
		case 0:
			return rng.Int64N(201) - 100
		case 1:
			return rng.Int64() - math.MaxInt64/2
		}
		return rng.Int64N(1_000_000_000)
	}
	for range 500 {
		n := 1 + rng.IntN(12)
		g := Game{Number: rng.IntN(100000), Ruleset: "ajveciv", Seed: rng.Uint64(), ClockName: "turn", Clock: int(number())}
		if rng.IntN(2) == 0 {
			g.Variant = "original"
		}
		for range n {
			g.Players = append(g.Players, names[rng.IntN(len(names))])
		}
		g.History = []any{"world\nat start\n", "world at end"}[:rng.IntN(3)]
		g.Clocks = []int{0, 1}[:len(g.History)]
		res := &engine.Result{}
		for s := range n {
			res.Scores = append(res.Scores, number())
			if rng.IntN(3) > 0 {
				res.Ranks = append(res.Ranks, 1+rng.IntN(n))
			}
			if rng.IntN(3) == 0 {
				res.Winners = append(res.Winners, s)
			}
		}
		if rng.IntN(3) == 0 {
			res.Status = make([]string, n)
			res.Status[rng.IntN(n)] = "dead"
		}
		switch rng.IntN(5) {
		case 0:
			g.Aborted = "interrupted"
		case 1:
		default:
			g.Result = res
		}
		var got bytes.Buffer
		var want strings.Builder
		g.writeText(&got, false)
		fmtGameText(&g, &want, false)
		if got.String() != want.String() {
			t.Fatalf("game text:\n%s\nwant\n%s", got.String(), want.String())
		}
	}
}

func TestGameTextFits80ColumnsWithLongNamesAndFaults(t *testing.T) {
	// A newcomer's bot given by its absolute path, as README advises, has
	// a name of 60 columns and more, and its faults quote what it said:
	// the final scores and the faults still fit a terminal, the name cut
	// in its middle (the players line has it whole), every word kept.
	long := "exec:python3 /home/someone/projects/arbiter-bots/first-try/garbage.py"
	g := Game{Number: 1, Ruleset: "ajveciv", Seed: 3, ClockName: "turn", Clock: 2,
		Players: []string{"repl", "basic2.develop-consent", long},
		Result:  &engine.Result{Scores: []int64{20, 15, 18}, Ranks: []int{1, 2, 3}, Winners: []int{0}, Status: []string{"", "", "absent"}},
		Faults: []engine.SeatFault{
			{Step: 2, Seat: 2, Fault: engine.Fault{Kind: engine.FaultGarbage, Detail: `answered "hello world"; want {"type": "move", "id": 6, "move": ...} (a bot writes only the protocol's lines on its standard output; debug output goes to standard error)`}},
			{Step: 5, Seat: 2, Fault: engine.Fault{Kind: engine.FaultGarbage, Detail: "again"}},
		}}
	var b bytes.Buffer
	g.writeText(&b, false)
	text := b.String()
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		if n := wrap.Cells(line); n > wrap.Width {
			t.Errorf("a line of %d columns: %q\nin\n%s", n, line, text)
		}
	}
	for _, want := range []string{
		"   3  exec:python3 /h…rbiter-bots/first-try/garbage.py        18  rank 3  ABSENT\n",
		"   1  repl                                                    20  rank 1  WINNER\n",
		"   3  " + long + ": 2\n      garbage (first at move 3: answered",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text has no %q:\n%s", want, text)
		}
	}
	if words := strings.Join(strings.Fields(text), " "); !strings.Contains(words, "debug output goes to standard error))") {
		t.Errorf("the fault's words are not all there:\n%s", text)
	}
}
