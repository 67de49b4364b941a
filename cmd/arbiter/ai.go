package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/spf13/cobra"
)

func aiCommand() *cobra.Command {
	var games, parallel int
	var seed uint64
	var markdown bool
	cmd := &cobra.Command{
		Use:   "ai [GAME...] [flags]",
		Short: "Play the AI tables: each game's best AI against the opponents it must beat",
		Long: `Play the AI tables, seeded, and print them: for each game (or the games
named), its best AI head to head and in fields against the opponents it
must beat, with the win rate it aims at, and the search AI (mcts) against
the best. Each row is a tournament of at least --games games, every seat
order played; the README's tables are this command's output with
--markdown, and anyone gets the same numbers with the same flags.`,
		Example: `  arbiter ai reaj
  arbiter ai --games 400 --markdown > tables.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if games < 1 {
				return usagef("--games %d: play at least one game per row", games)
			}
			trials, err := catalog.Trials(args...)
			if err != nil {
				return usageError(err)
			}
			return playTrials(cmd, trials, games, seed, parallel, markdown)
		},
	}
	cmd.Flags().IntVar(&games, "games", 400, "games per row, at least (every seat order is played as often)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the tournaments' seed")
	cmd.Flags().IntVar(&parallel, "parallel", 0, "games played at once (0: one per core)")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print Markdown tables, as the README shows them")
	return cmd
}

// playTrials plays each trial and prints its row as soon as it is played,
// a table per game.
func playTrials(cmd *cobra.Command, trials []catalog.Trial, games int, seed uint64, parallel int, markdown bool) error {
	out := cmd.OutOrStdout()
	game := ""
	missed := 0
	for _, t := range trials {
		if t.Game != game {
			game = t.Game
			header(out, t, games, seed, markdown)
		}
		r, err := catalog.RunTrial(cmd.Context(), t, games, seed, parallel)
		if err != nil {
			return err
		}
		row(out, r, markdown)
		if !r.Met() {
			missed++
		}
	}
	if missed > 0 {
		fmt.Fprintf(out, "\n%d of %d rows below their target\n", missed, len(trials))
	}
	return nil
}

func header(out io.Writer, t catalog.Trial, games int, seed uint64, markdown bool) {
	if markdown {
		fmt.Fprintf(out, "\n%s (`arbiter ai %s --games %d --seed %d`):\n\n", t.Game, t.Game, games, seed)
		fmt.Fprintln(out, "| player | match-up | seats | games | wins | win % | mean rank | lead: mean (least) | target |")
		fmt.Fprintln(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
		return
	}
	fmt.Fprintf(out, "\n%s (seed %d)\n", t.Game, seed)
	fmt.Fprintf(out, "  %-26s %-52s %5s %6s %6s %6s %9s %18s %7s\n", "player", "match-up", "seats", "games", "wins", "win %", "mean rank", "lead: mean (least)", "target")
}

func row(out io.Writer, r catalog.TrialResult, markdown bool) {
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
	lead := fmt.Sprintf("%.1f (%d)", r.MeanLead(), r.LeastLead)
	if markdown {
		fmt.Fprintf(out, "| %s | %s | %d | %d | %s | %.1f | %.2f | %s | %s |\n", r.Focus(), strings.ReplaceAll(r.Title, "|", "/"), r.Seats, r.Games, wins, 100*r.WinRate(), r.MeanRank(), lead, target)
		return
	}
	fmt.Fprintf(out, "  %-26s %-52s %5d %6d %6s %6.1f %9.2f %18s %7s\n", r.Focus(), r.Title, r.Seats, r.Games, wins, 100*r.WinRate(), r.MeanRank(), lead, target)
}
