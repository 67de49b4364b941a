package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/spf13/cobra"
)

func aiCommand() *cobra.Command {
	var games, parallel int
	var seed uint64
	var markdown, timings bool
	cmd := &cobra.Command{
		Use:   "ai [GAME...] [flags]",
		Short: "Play the AI tables: each game's best AI against the opponents it must beat",
		Long: fmt.Sprintf(`Play the AI tables, seeded, and print them: for each game (or the games
named), its best AI head to head and in fields against the opponents it
must beat, with the win rate it aims at, and the search AI (mcts) against
the best. Each row is a tournament of at least --games games, every seat
order played (the search AI's rows, at most %d: it thinks at every
decision), and counts the games its player sits in: all of them, but
where more players than seats take turns (six seats among seven players:
six games in seven). Its wins are the games it ranked first in; "(N
shared)" says that N of them it ranked first together with another seat,
and each counts as a win in its win %%. The README's tables are this
command's output with --markdown, and anyone gets the same numbers with the
same flags.`, catalog.SearchGames),
		Example: `  arbiter ai reaj
  arbiter ai --games 400 --markdown > tables.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if games < 1 {
				return usagef("--games %d: play at least one game per row", games)
			}
			if parallel < 0 || parallel > tournament.MaxParallel {
				return usagef("--parallel %d: give the number of games to play at once, from 1 to %d (0: one per core)", parallel, tournament.MaxParallel)
			}
			trials, err := catalog.Trials(args...)
			if err != nil {
				return usageError(err)
			}
			return playTrials(cmd, trials, games, seed, parallel, markdown, timings)
		},
	}
	cmd.Flags().IntVar(&games, "games", 400, fmt.Sprintf("games of each row's tournament, at least (every seat order is played as often; the search AI's rows, at most %d)", catalog.SearchGames))
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the tournaments' seed")
	cmd.Flags().IntVar(&parallel, "parallel", 0, "games played at once (0: one per core)")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print Markdown tables, as the README shows them")
	cmd.Flags().BoolVar(&timings, "timings", false, "time the decisions of each row's player, by the clock, and show their mean and 99th percentile (with --parallel 1 they are not slowed by the other games)")
	return cmd
}

// playTrials plays each trial and prints its row as soon as it is played,
// a table per game.
func playTrials(cmd *cobra.Command, trials []catalog.Trial, games int, seed uint64, parallel int, markdown, timings bool) error {
	out := cmd.OutOrStdout()
	game := ""
	missed := 0
	for _, t := range trials {
		if t.Game != game {
			game = t.Game
			header(out, t, games, seed, markdown, timings)
		}
		r, err := catalog.RunTrial(cmd.Context(), t, games, seed, parallel, timings)
		if err != nil {
			return err
		}
		row(out, r, markdown, timings)
		if !r.Met() {
			missed++
		}
	}
	if missed > 0 {
		fmt.Fprintf(out, "\n%d of %d rows below their target\n", missed, len(trials))
	}
	return nil
}

// columns are the tables' columns; timed ones come last.
var columns = []string{"player", "match-up", "seats", "games", "wins", "win %", "mean rank", "lead: mean (least)", "target"}

var timedColumns = []string{"decision: mean", "p99"}

func header(out io.Writer, t catalog.Trial, games int, seed uint64, markdown, timings bool) {
	cols := columns
	if timings {
		cols = append(cols[:len(cols):len(cols)], timedColumns...)
	}
	if markdown {
		fmt.Fprintf(out, "\n%s (`arbiter ai %s --games %d --seed %d`):\n\n", t.Game, t.Game, games, seed)
		fmt.Fprintf(out, "| %s |\n|---|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)-2))
		return
	}
	fmt.Fprintf(out, "\n%s (seed %d)\n", t.Game, seed)
	textRow(out, cols[2:])
}

// widths are the widths of the text table's columns of numbers, in a
// terminal's cells (see wrap.Cells), from seats on: without --timings a
// row fits 80 columns. The player and the match-up stand on a line of
// their own above their numbers.
var widths = []int{5, 6, 16, 7, 10, 18, 10, 14, 10}

func textRow(out io.Writer, cells []string) {
	var b strings.Builder
	b.WriteString(" ")
	for i, c := range cells {
		b.WriteByte(' ')
		b.WriteString(wrap.PadLeft(c, widths[i]))
	}
	fmt.Fprintln(out, strings.TrimRight(b.String(), " "))
}

func row(out io.Writer, r catalog.TrialResult, markdown, timings bool) {
	target := "-"
	if r.Target > 0 {
		target = fmt.Sprintf("%.0f%%", 100*r.Target)
		if !r.Met() {
			target += " missed"
		}
	}
	wins := fmt.Sprint(r.Wins)
	if r.Shared > 0 {
		wins += fmt.Sprintf(" (%d shared)", r.Shared)
	}
	cells := []string{r.Focus(), r.Title, fmt.Sprint(r.Seats), fmt.Sprint(r.Games), wins,
		fmt.Sprintf("%.1f", 100*r.WinRate()), fmt.Sprintf("%.2f", r.MeanRank()),
		fmt.Sprintf("%.1f (%d)", r.MeanLead(), r.LeastLead), target}
	if timings {
		cells = append(cells, took(r.MeanTook()), took(r.P99Took()))
	}
	if markdown {
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", "/")
		}
		fmt.Fprintf(out, "| %s |\n", strings.Join(cells, " | "))
		return
	}
	var b strings.Builder
	wrap.Write(&b, cells[0]+": "+cells[1], "  ", "      ", helpWidth)
	fmt.Fprint(out, b.String())
	textRow(out, cells[2:])
}

// took writes a decision's time in the unit that suits it.
func took(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
