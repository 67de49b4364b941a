package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/filelock"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/spf13/cobra"
)

func tournamentCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tournament GAME [flags]",
		Short: "Play many games among bots on every core, and rate the players",
		Long: `Play a tournament: many games of one game among bots, on every core, and
print the standings: games, wins, mean score and a rating with its
uncertainty for each player. Each game has its own flags: see
arbiter tournament GAME --help.

A large tournament can be split into shards (--shard i/N) that run anywhere;
arbiter tournament merge combines their results files into exactly the
standings a single run prints.`,
		Example: `  arbiter tournament reaj --players fixed,random,steward --seats 6 --seed 1
  arbiter tournament tncc --players random,turtle,general --player "exec:python3 mybot/bot.py" --seats 2 --games 50
                  # with your bot: in arbiter's source, first
                  # cp -r starters/python mybot`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("name a game: %s (or merge, to merge results files)", strings.Join(catalog.Names(), ", "))
			}
			_, err := findGame(args[0])
			return err
		},
	}
	for _, g := range catalog.Games() {
		cmd.AddCommand(tournamentGameCommand(g))
	}
	cmd.AddCommand(mergeCommand())
	return cmd
}

// tournamentOptions is what a tournament was asked to do.
type tournamentOptions struct {
	specs    []string
	options  map[string]string
	params   tournament.Params
	parallel int
	shard    tournament.Shard
	deadline time.Duration
	bank     time.Duration
	startup  time.Duration
	reply    time.Duration
	external player.External
	// conditions are the run's time limits and programs' bounds, which a
	// results file it goes on with must have been played under.
	conditions tournament.Conditions
	strict     bool
	force      bool
	// seedKept is set when no --seed was given and the seed is that of the
	// tournament --out holds, which the run goes on with; --force starts
	// the file again on a seed drawn at random instead.
	seedKept bool
	out      string
	training string
	asJSON   bool
	// certain, when above 0, stops the tournament once the order of its
	// standings is settled at this confidence.
	certain float64
	// keepGoing plays on when a player never answers in its first game.
	keepGoing bool
	stdout    io.Writer
	stderr    io.Writer
}

func tournamentGameCommand(g catalog.Game) *cobra.Command {
	info := g.Info()
	var (
		players              string
		each                 []string
		seed                 uint64
		rounds, appearances  int
		seats, games         int
		parallel             int
		shard, out, training string
		deadline             time.Duration
		asJSON, force        bool
		untilCertain         bool
		keepGoing            bool
		confidence           float64
		bots                 *botFlags
	)
	cmd := &cobra.Command{
		Use:   info.Name + " --players a,b,c,... [flags]",
		Short: "A tournament of " + info.Title,
		Long: fmt.Sprintf(`Play a tournament of %s among bots and print the standings.

Schedules:
  --rounds R --appearances A   every player appears A times, dealt at random
                               (by the seed) into R games; nobody meets itself;
                               every game seats players × A / R, which must
                               be a whole number
  (default) --seats K          every group of K players (default: all, at
                               most %d) plays once with each of them in each
                               seat, so that seat positions are balanced
  --games N                    the whole schedule N times over

Game k of the schedule (from 1) is played with seed S+k-1. The standings
sort players by their rating's conservative estimate μ − 3σ (Weng–Lin
Plackett–Luce, as OpenSkill): a player must be both good and proven.

--until-certain stops the tournament as soon as the order of the standings
is settled at --confidence (default 0.95): every player is ahead of the next
with that probability, by their ratings μ ± σ taken as beliefs,
Φ((μ1 − μ2)/√(σ1² + σ2²)). It is asked after every game, in schedule order,
so the same seed stops at the same game whatever --parallel. When --games
runs out first, it says which neighbours are still uncertain. (--out then
holds the games played; a shard cannot know the whole order, so
--until-certain is refused with --shard.)

Ctrl-C stops at once; --out keeps the games finished, and the same
command run again goes on from there, to the file and standings of the
tournament played through (--force starts again, on a seed drawn anew
unless --seed gives it).

A player that never answers in its first game (a program that fails to
start, never flushes its lines, or crashes or times out at every decision)
stops the tournament after that game, with its fault: it could only lose.
--keep-going plays on.

Players: %s.
Seats: %d to %d.`, shortTitle(info), info.MaxSeats, botsHelp(info), info.MinSeats, info.MaxSeats),
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			if strings.TrimSpace(players) == "" && len(each) == 0 {
				// Before player.Specs, whose hint names AjveCiv's players.
				return usagef("name the tournament's players with --players a,b,c (%s)", strings.Join(info.Players, ", "))
			}
			specs, err := player.Specs(players, each, "")
			if err != nil {
				return usageError(err)
			}
			if f.Changed("rounds") != f.Changed("appearances") {
				return usagef("give --rounds and --appearances together: every player appears A times over R rounds")
			}
			if f.Changed("seats") && f.Changed("rounds") {
				return usagef("--seats is for the every-group schedule; with --rounds and --appearances the seats per game follow from them")
			}
			// A zero given is refused, not taken for the flag left out.
			if f.Changed("rounds") && (rounds < 1 || appearances < 1) {
				return usagef("--rounds %d --appearances %d: give both, each at least 1", rounds, appearances)
			}
			if f.Changed("seats") && seats == 0 {
				return usagef("--seats 0: %s takes %d to %d seats a game (without --seats: all the players, up to %d)", info.Name, info.MinSeats, info.MaxSeats, info.MaxSeats)
			}
			if games < 1 {
				return usagef("--games %d: play the schedule at least once", games)
			}
			if parallel < 0 || parallel > tournament.MaxParallel {
				return usagef("--parallel %d: give the number of games to play at once, from 1 to %d (0, the default: one per core)", parallel, tournament.MaxParallel)
			}
			certain, err := certainty(untilCertain, f.Changed("confidence"), confidence, shard)
			if err != nil {
				return err
			}
			if f.Changed("deadline") && deadline <= 0 {
				return usagef("--deadline %v: give a positive duration such as 200ms or 2s", deadline)
			}
			if force && out == "" && training == "" {
				return usagef("--force replaces --out FILE and --export-training FILE; give one of them too")
			}
			var sh tournament.Shard
			if shard != "" {
				if sh, err = tournament.ParseShard(shard); err != nil {
					return usageError(err)
				}
				if out == "" {
					return usagef("--shard %s needs --out FILE: a shard's results are merged later with arbiter tournament merge", shard)
				}
				if !f.Changed("seed") {
					return usagef("--shard %s needs --seed: every shard must deal the same schedule", shard)
				}
				if asJSON && sh.Count > 1 {
					return usagef("--json has no effect on a shard (--shard %s): it prints the standings, which a shard does not have; arbiter tournament merge --json prints those of the merged shards", shard)
				}
			}
			options, err := gameOptions(f, info)
			if err != nil {
				return err
			}
			warnOptions(cmd.ErrOrStderr(), f, info, options)
			ext, err := bots.external(specs, append(slices.Clone(info.Players), player.Person), "")
			if err != nil {
				return err
			}
			if err := bots.untimed(g, specs, false); err != nil {
				return err
			}
			seedKept := false
			if !f.Changed("seed") {
				if kept, ok := outSeed(out, force); ok {
					// A tournament that goes on keeps its seed: the file
					// says it, as the same command run again means.
					seed, seedKept = kept, true
				} else {
					seed = rand.Uint64() // 64 bits: no bot can guess it
				}
			}
			return runTournament(cmd.Context(), g, tournamentOptions{
				specs: specs, options: options,
				params: tournament.Params{Info: info, Options: options, Seed: seed,
					Rounds: rounds, Appearances: appearances, Seats: seats, Repeat: games},
				parallel: parallel, shard: sh, deadline: deadline, out: out, training: training, asJSON: asJSON,
				bank: bots.bank, startup: bots.startup, reply: bots.reply, external: ext, conditions: bots.conditions(specs, deadline, ext), strict: bots.strict, force: force, seedKept: seedKept,
				certain: certain, keepGoing: keepGoing, stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&players, "players", "", "the players, by name, separated by commas")
	f.StringArrayVar(&each, "player", nil, "one more player; repeat it")
	f.Uint64Var(&seed, "seed", 0, "the first game's seed, and the deal of --rounds (default: random, printed; the seed of the tournament --out holds, when it goes on)")
	f.IntVar(&rounds, "rounds", 0, "games in the schedule of shuffled groups")
	f.IntVar(&appearances, "appearances", 0, "games each player plays in the schedule of shuffled groups")
	f.IntVar(&seats, "seats", 0, "players per game in the every-group schedule (default: all the players, up to the game's most)")
	f.IntVar(&games, "games", 1, "play the whole schedule this many times")
	f.IntVar(&parallel, "parallel", 0, "games played at once (0, the default: one per core)")
	f.StringVar(&shard, "shard", "", "play only shard i of N (i/N, from 0/N to N-1/N); needs --seed and --out")
	f.StringVar(&out, "out", "", "write each game's result to FILE, one JSON line per game")
	f.StringVar(&training, "export-training", "", "write every decision (observation, choice, final score) to FILE as JSON lines")
	f.DurationVar(&deadline, "deadline", time.Second, "time for each decision")
	bots = addBotFlags(f, false)
	f.BoolVar(&asJSON, "json", false, "print the standings as JSON (not with --shard: merge prints a sharded run's)")
	f.BoolVar(&force, "force", false, "replace the --out and --export-training files if they exist")
	f.BoolVar(&untilCertain, "until-certain", false, "stop as soon as the order of the standings is settled at --confidence")
	f.Float64Var(&confidence, "confidence", 0.95, "with --until-certain, how sure each player's place above the next must be, from 0.5 to 0.999999")
	f.BoolVar(&keepGoing, "keep-going", false, "play on when a player never answers in its first game (by default the tournament stops there: it could only lose)")
	addOptionFlags(f, info)
	return cmd
}

// certainty checks --until-certain and --confidence, and returns the
// confidence to stop at, or 0 for a tournament that plays all its games.
func certainty(until, given bool, confidence float64, shard string) (float64, error) {
	switch {
	case given && !until:
		return 0, usagef("--confidence is for --until-certain; give both")
	case !until:
		return 0, nil
	case !(confidence >= 0.5 && confidence <= 0.999999):
		return 0, usagef("--confidence %v: give a probability from 0.5 to 0.999999, such as 0.95", confidence)
	case shard != "":
		return 0, usagef("--until-certain cannot stop a shard: a shard does not know the whole order (merge the shards, then look at the standings)")
	}
	return confidence, nil
}

func mergeCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge FILES...",
		Short: "Merge the results files of a tournament's shards into its standings",
		Long: `Merge the results files of a tournament's shards (arbiter tournament GAME
--shard i/N --out FILE) into exactly the standings a single run prints. Every
game of the tournament must be in exactly one of the files.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("give the results files to merge")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var readers []*tournament.Reader
			for _, name := range args {
				f, err := os.Open(name)
				if err != nil {
					return usageError(err)
				}
				defer f.Close()
				r, err := tournament.NewReader(bufio.NewReaderSize(f, 1<<16), name)
				if err != nil {
					return usageError(err)
				}
				readers = append(readers, r)
			}
			table, err := tournament.Merge(readers)
			if err != nil {
				return usageError(err)
			}
			var builtIn []string
			if g, err := findGame(table.Schedule.Ruleset); err == nil {
				builtIn = g.Info().Players
			}
			nameStandings(table, builtIn)
			if asJSON {
				return classify(table.WriteJSON(cmd.OutOrStdout()))
			}
			return classify(table.WriteText(cmd.OutOrStdout()))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the standings as JSON")
	return cmd
}

// runTournament plays a tournament of g and writes its results, training
// lines and standings.
func runTournament(ctx context.Context, g catalog.Game, o tournamentOptions) error {
	var (
		table    *tournament.Table
		results  *tournament.Writer
		training *bufio.Writer
		files    []*os.File
		bar      *progress
		n        int
	)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	create := func(flag, name string) (*os.File, error) {
		f, err := os.Create(name)
		if err != nil {
			return nil, usagef("--%s %s: %v", flag, name, pathCause(err))
		}
		files = append(files, f)
		return f, nil
	}
	faults, from := 0, 0
	var flushed time.Time // when --out was last brought up to date
	ready := func(sched *tournament.Schedule) (int, error) {
		var err error
		if table, err = tournament.NewTable(sched, sched.Len()); err != nil {
			return 0, usageError(err)
		}
		n = o.shard.Games(sched.Len())
		if err := checkOutput("export-training", o.training, o.force); err != nil {
			return 0, err
		}
		// A file that is there goes on: its games count, and play starts
		// after them. An empty one holds none (a run killed before it
		// wrote its header), and is written as a new one.
		if fi, err := os.Stat(o.out); o.out != "" && err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && !o.force {
			var f *os.File
			if f, results, from, err = goOn(o, sched, table, &faults); err != nil {
				return 0, err
			}
			files = append(files, f)
			switch {
			case from == n:
				fmt.Fprintf(o.stderr, "%s: its %d games were played before; nothing more to play\n", o.out, from)
			case o.certain > 0 && table.Settled(o.certain):
				fmt.Fprintf(o.stderr, "%s: %d games played before settled the order; nothing more to play\n", o.out, from)
				from = n
			default:
				fmt.Fprintf(o.stderr, "%s: %d games played before; going on from game %d of %d\n", o.out, from, from+1, n)
			}
		} else if err := checkOutput("out", o.out, o.force || isEmptyFile(o.out)); err != nil {
			return 0, err
		} else if o.out != "" {
			f, err := holdOut(o.out)
			if err != nil {
				return 0, err
			}
			files = append(files, f)
			if results, err = tournament.NewWriter(f, sched, o.shard, o.conditions); err != nil {
				return 0, classify(err)
			}
			// The header is in the file at once: a run killed before its
			// first game ends leaves a file the same command goes on with.
			if err := results.Flush(); err != nil {
				return 0, classify(fmt.Errorf("--out %s: %w", o.out, err))
			}
		}
		if o.training != "" {
			f, err := create("export-training", o.training)
			if err != nil {
				return 0, err
			}
			training = bufio.NewWriterSize(f, 1<<16)
		}
		// The results of the games before its own hold their seeds, and
		// with them its own: a sandboxed bot does not read them.
		o.external.Outputs.Add(o.out, o.training)
		bar = newProgress(o.stderr, n-from)
		return from, nil
	}
	played := func(g tournament.GameResult) error {
		was := faults
		for _, n := range g.Faults {
			faults += n
		}
		bar.game(faults - was)
		if err := table.Add(g); err != nil {
			return err
		}
		if results != nil {
			if err := results.Write(g); err != nil {
				return err
			}
			// The file is brought up to date as the duel's is: a run
			// killed loses at most the games of this time, which the
			// next run plays again.
			if now := time.Now(); now.Sub(flushed) >= flushEvery {
				flushed = now
				if err := results.Flush(); err != nil {
					return err
				}
			}
		}
		if o.certain > 0 && table.Settled(o.certain) {
			return tournament.ErrStop
		}
		return nil
	}
	var writeTraining func([]byte) error
	if o.training != "" {
		writeTraining = func(lines []byte) error {
			_, err := training.Write(lines)
			return err
		}
	}
	start := time.Now()
	count, runErr := g.Tournament(ctx, catalog.TournamentOptions{
		Players: o.specs, External: o.external, Params: o.params, Parallel: o.parallel, Shard: o.shard,
		Deadline: o.deadline, Bank: o.bank, Startup: o.startup, Reply: o.reply,
		Ready: ready, Played: played, Training: writeTraining, KeepGoing: o.keepGoing,
	})
	bar.close()
	elapsed := time.Since(start)
	if table == nil { // refused before anything was played
		return classify(runErr)
	}
	// Whatever was played is kept, interrupted or not.
	if results != nil {
		if err := results.Flush(); err != nil {
			return classify(fmt.Errorf("--out: %w", err))
		}
	}
	if training != nil {
		if err := training.Flush(); err != nil {
			return classify(fmt.Errorf("--export-training: %w", err))
		}
	}
	for _, f := range files {
		if err := f.Close(); err != nil {
			return classify(err)
		}
	}
	files = nil
	if bar != nil {
		fmt.Fprintf(o.stderr, "played %d games in %v (%s)\n", count, elapsed.Round(time.Millisecond), gamesPerSecond(count, elapsed))
	}
	if o.shard.Count > 1 {
		if runErr == nil {
			fmt.Fprintf(o.stdout, "%s\nshard %s: played its %d games; results in %s.\nMerge every shard's file with: arbiter tournament merge FILES...\n",
				table.Describe(), o.shard, from+count, o.out)
		}
	} else if from+count > 0 || runErr == nil {
		nameStandings(table, g.Info().Players)
		write := table.WriteText
		if o.asJSON {
			write = table.WriteJSON
		}
		if err := write(o.stdout); err != nil {
			return classify(err)
		}
		if o.certain > 0 && runErr == nil {
			note := o.stdout
			if o.asJSON {
				note = o.stderr
			}
			fmt.Fprintln(note, certaintyNote(table, o.certain))
		}
	}
	noteCuts(o.stderr, o.external.Logs)
	noteLogs(o.stderr, o.specs, o.external)
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			kept := ""
			if o.out != "" {
				kept = fmt.Sprintf("; %s holds the %d games played: the same command goes on from there", o.out, from+count)
			}
			return &exitError{exitInternal, fmt.Errorf("interrupted after %d of %d games%s", from+count, n, kept)}
		}
		return classify(readyNamed(runErr, o.external.Names))
	}
	return strictly(o.strict, faults)
}

// nameStandings calls each program of the table by the name it gave
// itself in its games (Table.ReadyNames), made unique against the game's
// built-in players (builtIn), the tournament's and each other's, in the
// schedule's order of players: from the games alone, so that a run that
// goes on from a results file, and a merge of shards, name them as the
// run played through does.
func nameStandings(t *tournament.Table, builtIn []string) {
	ready := t.ReadyNames()
	if len(ready) == 0 {
		return
	}
	names := player.NewNames(append(append(slices.Clone(builtIn), player.Person), t.Schedule.Players...)...)
	for p, name := range ready {
		names.Wish(p, name)
	}
	t.Rename(names.Of)
}

// readyNamed gives err, when it stops play for a player that never
// answered (tournament.AbsentError), the name that player's program gave
// itself in ready, which the standings use, beside its command.
func readyNamed(err error, names *player.Names) error {
	var absent *tournament.AbsentError
	if !errors.As(err, &absent) {
		return err
	}
	if name, ok := names.Of(player.RecordName(absent.Player)); ok && name != absent.Player {
		absent.Player = fmt.Sprintf("%s (%s)", name, absent.Player)
	}
	return err
}

// certaintyNote says whether the order of the standings is settled at
// confidence, and if not, which neighbours are still uncertain.
func certaintyNote(t *tournament.Table, confidence float64) string {
	pct := strconv.FormatFloat(100*confidence, 'f', -1, 64) + "%"
	uncertain := tournament.Uncertain(tournament.Order(t.Standings()), confidence)
	if len(uncertain) == 0 {
		return fmt.Sprintf("\nThe order is settled at %s after %d of %d games: each player is ahead of the next with a probability of at least %s.",
			pct, t.Played, t.Games, pct)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nThe order is not settled at %s after all %d games; still uncertain:", pct, t.Played)
	level := false
	for _, n := range uncertain {
		if n.Sure == 0.5 {
			// Ratings alike to the last digit: the two have done exactly
			// as well, as players that tie in every game do.
			level = true
			fmt.Fprintf(&b, "\n  %s and %s: level, with the same rating so far", n.Upper, n.Lower)
			continue
		}
		fmt.Fprintf(&b, "\n  %s above %s: %.1f%% sure", n.Upper, n.Lower, 100*n.Sure)
	}
	b.WriteString("\nPlay more games (--games) to settle them")
	if level {
		b.WriteString("; players that tie in every game are never parted")
	}
	b.WriteString(".")
	return b.String()
}

// shortTitle is the game's name as its title spells it: "Reaj" for
// "Reaj: societies share ...".
func shortTitle(info engine.Info) string {
	name, _, _ := strings.Cut(info.Title, ":")
	return name
}

// goOn reads the results file at --out, checks that it holds this
// tournament's shard, counts its games into table (and their faults into
// faults), and returns the file and a writer that adds the games after
// them. A last line cut short (the run stopped while writing it) is cut
// off, and its game played again; any other fault of the file refuses it,
// as the file's own games do not change.
func goOn(o tournamentOptions, sched *tournament.Schedule, table *tournament.Table, faults *int) (*os.File, *tournament.Writer, int, error) {
	// The seed of a run without --seed is the file's only while it goes
	// on: --force draws another, and the refusal says so.
	replace := "--force to replace it with this tournament"
	if o.seedKept {
		replace += " on a seed drawn at random (--force --seed N: on seed N)"
	}
	refuse := func(format string, args ...any) error {
		return usagef("--out %s: %s; give another --out, or %s", o.out, fmt.Sprintf(format, args...), replace)
	}
	f, err := os.OpenFile(o.out, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, 0, usagef("--out %s: %v", o.out, pathCause(err))
	}
	fail := func(err error) (*os.File, *tournament.Writer, int, error) {
		f.Close()
		return nil, nil, 0, err
	}
	if err := lockOut(f, o.out); err != nil {
		return fail(err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		return fail(classify(fmt.Errorf("--out %s: %w", o.out, err)))
	}
	r, err := tournament.NewReader(bufio.NewReaderSize(f, 1<<16), o.out)
	if err != nil {
		return fail(refuse("the file exists and holds no results this Arbiter can go on with (%v)", err))
	}
	settled := 0 // with --until-certain, the game that settled the order
	h := r.Header
	if h.ID != sched.ID() || h.Games != sched.Len() {
		this := tournament.Describe(sched, sched.Len())
		if o.seedKept {
			// Not the file's seed: this one has none until it starts.
			this = tournament.DescribeUnseeded(sched, sched.Len()) + ", its seed to be drawn"
		}
		return fail(refuse("the file holds another tournament (%s; this one is %s)%s", tournament.Describe(h.Schedule, h.Games), this, otherPlayers(h.Schedule, sched)))
	}
	if h.Shard != o.shard.String() {
		return fail(refuse("the file holds shard %s of this tournament, not %s", h.Shard, o.shard))
	}
	if d := h.Conditions.Differences(o.conditions); len(d) > 0 {
		return fail(refuse("its games were played with %s as given now; go on with the same flags", strings.Join(d, ", ")))
	}
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A line with no newline after it is the last, cut short by
			// a run that stopped while writing it; any other is an edit.
			kept, _ := r.Kept()
			if rest, rerr := readTail(f, kept, size); rerr != nil || bytes.IndexByte(rest, '\n') >= 0 {
				return fail(refuse("%v", err))
			}
			break
		}
		if settled > 0 {
			// A run --until-certain stops where the order settles: this
			// file is of a run without it.
			return fail(refuse("it holds games past game %d, where --until-certain settles the order (a run without --until-certain wrote it)", settled))
		}
		if err := table.Add(g); err != nil {
			return fail(refuse("%v", err))
		}
		for _, n := range g.Faults {
			*faults += n
		}
		if o.certain > 0 && table.Settled(o.certain) {
			settled = g.Game
		}
	}
	games, last := r.Read()
	if games != o.shard.Games(last) {
		return fail(refuse("it lacks games before game %d; every game up to the last must be there", last))
	}
	if o.training != "" && games > 0 {
		return fail(usagef("--export-training cannot go on with --out %s: the %d games played before are not in it; give --force to play the tournament again from the start, or leave --export-training out", o.out, games))
	}
	kept, open := r.Kept()
	if err := f.Truncate(kept); err != nil {
		return fail(classify(fmt.Errorf("--out %s: %w", o.out, err)))
	}
	if _, err := f.Seek(kept, io.SeekStart); err != nil {
		return fail(classify(fmt.Errorf("--out %s: %w", o.out, err)))
	}
	if open {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			return fail(classify(fmt.Errorf("--out %s: %w", o.out, err)))
		}
	}
	return f, r.Continue(f), games, nil
}

// otherPlayers says, when the tournament of a results file has other
// players than sched, which: its description counts them and names none,
// so that the two descriptions may read the same but for their ids and
// seeds.
func otherPlayers(file, sched *tournament.Schedule) string {
	if file == nil || slices.Equal(file.Players, sched.Players) {
		return ""
	}
	return fmt.Sprintf(": its players are %s, and this one's %s", engine.Printable(strings.Join(file.Players, ", ")), strings.Join(sched.Players, ", "))
}

// outSeed returns the seed of the tournament in the results file at path,
// which a run without --force goes on with (goOn), when it holds one.
func outSeed(path string, force bool) (uint64, bool) {
	if path == "" || force {
		return 0, false
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return 0, false
	}
	r, err := tournament.NewReader(bufio.NewReaderSize(f, 1<<16), path)
	if err != nil || r.Header.Schedule == nil {
		return 0, false
	}
	return r.Header.Schedule.Seed, true
}

// holdOut opens the results file at path for a tournament that starts it,
// locked (lockOut) before it is emptied: a run that finds it in use leaves
// it as it is.
func holdOut(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, usagef("--out %s: %v", path, pathCause(err))
	}
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return f, nil // a device (/dev/null): written as it is
	}
	if err := lockOut(f, path); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, classify(fmt.Errorf("--out %s: %w", path, err))
	}
	return f, nil
}

// lockOut locks f, the results file at path (a tournament's or a duel's),
// for this run (package filelock), and refuses it when another run holds it: two runs
// writing one file would each add the same games after the last, and the
// file would hold neither's. The system releases the lock when the run ends, however it
// ends.
func lockOut(f *os.File, path string) error {
	if err := filelock.TryLock(f); err != nil {
		if errors.Is(err, filelock.ErrLocked) {
			return usagef("--out %s: another run of arbiter is writing it; wait for that one to end, or give another --out", path)
		}
		return classify(fmt.Errorf("--out %s: locking it: %w", path, err))
	}
	return nil
}

// isEmptyFile says whether path is a regular file of no bytes, which
// holds nothing to keep.
func isEmptyFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == 0
}

// readTail reads the bytes of f from at to size.
func readTail(f *os.File, at, size int64) ([]byte, error) {
	if size-at > 1<<20 {
		return nil, errors.New("too long")
	}
	b := make([]byte, size-at)
	_, err := f.ReadAt(b, at)
	return b, err
}
