package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/report"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/tournament/sprt"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func duelCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "duel GAME A B [flags]",
		Short: "Is A better than B? Play pairs of games until the difference is known",
		Long: `Play a duel between two bots, A and B: pairs of games on the same seed with
the two in each other's seats, on every core, until the difference between
them is known. Each game has its own flags: see arbiter duel GAME --help.`,
		Example: `  arbiter duel reaj steward adapt --sprt elo0=0,elo1=5 --seed 1
  arbiter duel tncc "exec:python3 mybot/bot.py" blitz --games 200 --seed 1
                  # your bot against blitz: in arbiter's source, first
                  # cp -r starters/python mybot`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("name a game: %s", strings.Join(catalog.Names(), ", "))
			}
			_, err := findGame(args[0])
			return err
		},
	}
	for _, g := range catalog.Games() {
		cmd.AddCommand(duelGameCommand(g))
	}
	return cmd
}

// duelOptions is what a duel was asked to do.
type duelOptions struct {
	a, b     string
	field    []string // nil: the game's default players
	options  map[string]string
	seed     uint64
	games    int // the most games; 0: until the test decides
	test     *sprt.Test
	parallel int
	deadline time.Duration
	bank     time.Duration
	startup  time.Duration
	reply    time.Duration
	external player.External
	// conditions are the run's time limits and programs' bounds, which a
	// duel file it goes on with must have been played under.
	conditions  tournament.Conditions
	strict      bool
	out         string
	force       bool
	reportEvery int
	asJSON      bool
	keepGoing   bool     // play on when a player never answers in its first game
	builtIn     []string // the game's own players (engine.Info.Players)
	stdout      io.Writer
	stderr      io.Writer
}

// defaultDuelGames is how many games a duel without --sprt plays.
const defaultDuelGames = 1000

func duelGameCommand(g catalog.Game) *cobra.Command {
	info := g.Info()
	var (
		field, test, model, out string
		seed                    uint64
		games, parallel, every  int
		deadline                time.Duration
		asJSON, force           bool
		keepGoing               bool
		bots                    *botFlags
	)
	cmd := &cobra.Command{
		Use:   info.Name + " A B [flags]",
		Short: "A duel of " + shortTitle(info),
		// The first paragraph names the game's default players, as long
		// as they are: it is filled to the width of help once they are in.
		Long: wrap.Paragraphs(fmt.Sprintf("Is A better than B? Play pairs of games of %s: each pair is two games on "+
			"the same seed, A and B in each other's seats, so that neither the seed's luck "+
			"nor a seat favours either. The other seats hold the --field (default: the "+
			"game's default players, %s; none for a game of two), and from pair to pair "+
			"A and B move through every two seats of the table in turn. Pair k (from 1) "+
			"plays on seed S+k-1; the pairs are played on every core (--parallel) and "+
			"counted in order, so the same seed gives the same games and the same result "+
			"whatever --parallel.", shortTitle(info), info.DefaultPlayers), helpWidth) + fmt.Sprintf(`
Win, draw, loss: in each game A wins when the game ranks A above B, loses
when it ranks B above A, and draws when it ranks them equal, whoever else
is ahead or behind: a duel measures A against B, not against the field.

With --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 the duel is a sequential
probability ratio test, as fishtest and fastchess run it: H0, A is elo0 Elo
stronger than B, against H1, A is elo1 stronger. After each pair the
log-likelihood ratio (LLR) of the pairs' results (pentanomial) is compared
with the bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha), -2.94 and 2.94
for 5%%: the duel stops when it reaches one, accepting H0 or H1, or after
--games games. The Elo of the bounds is --elo-model: normalized (the
default, fishtest's: the same difference takes the same games to detect
whatever the draw rate) or logistic (the classical Elo). Without --sprt it
plays --games games (default %d) and reports the Elo difference with its
95%% error bar.

The progress goes to standard error: a line updated in place on a
terminal (cut at its width); otherwise, every --report-every games, three
lines of at most 80 columns, each beginning with the games so far:
  Games 240: LLR 1.52 (-2.94, 2.94) [0, 5]  W/L/D 100/80/60
  Games 240: Elo 12.3 ± 8.1 (95%%)  nElo 20.1 ± 13.2
  Games 240: Ptnml(0-2) [5, 20, 50, 30, 15]
W/L/D are A's wins, losses and draws; Ptnml(0-2) counts the pairs by A's
points in them, 0 to 2 by halves: [LL, LD, DD or WL, WD, WW]. The result
goes to standard output.

--out FILE keeps the duel: its pairs, with their seeds, seats, ranks and
outcomes, and its state when a run ends. Run the same command again with the
same FILE after Ctrl-C or a crash, and the duel goes on from the last pair
kept, to the same decision an uninterrupted run reaches; a FILE of another
duel (other game, players, field, options, seed or test) is refused, and
--force starts it anew, on a seed drawn anew unless --seed gives it.

A player that never answers in its first game (a program that fails to
start, never flushes its lines, or crashes or times out at every decision)
stops the duel there, exit code 1, with its fault and no verdict: its losses
would measure nothing. --keep-going plays on.

Players: %s.
Seats: %d to %d.`, defaultDuelGames, botsHelp(info), info.MinSeats, info.MaxSeats),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("%s takes two players, A and B (e.g. %s %s); got %d %s", cmd.CommandPath(), cmd.CommandPath(), exampleDuel(info), len(args), plural(len(args), "argument", "arguments"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			o := duelOptions{a: strings.TrimSpace(args[0]), b: strings.TrimSpace(args[1]), out: out, force: force, asJSON: asJSON,
				deadline: deadline, parallel: parallel, reportEvery: every, keepGoing: keepGoing, stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()}
			for _, p := range []string{o.a, o.b} {
				if p == "" || strings.ContainsFunc(p, unicode.IsControl) {
					return usagef("player %q: give a bot's name, or exec:COMMAND", p)
				}
			}
			if o.a == o.b {
				return usagef("A and B are both %s: a duel measures one player against another; give two different players (e.g. %s %s)", o.a, cmd.CommandPath(), exampleDuel(info))
			}
			if f.Changed("field") {
				var err error
				if o.field, err = parseField(field); err != nil {
					return usageError(err)
				}
			}
			m, err := sprt.ParseModel(model)
			if err != nil {
				return usagef("--elo-model: %v", err)
			}
			if f.Changed("sprt") {
				t, err := sprt.Parse(test)
				if err != nil {
					return usagef("--sprt %q: %v", test, err)
				}
				t.Model = m
				o.test = &t
			} else if f.Changed("elo-model") {
				return usagef("--elo-model is the Elo of --sprt's bounds; give --sprt too")
			}
			switch {
			case f.Changed("games"):
				if games < 2 || games%2 != 0 || games > tournament.MaxGames {
					return usagef("--games %d: a duel plays pairs of games; give an even number from 2 to %d", games, tournament.MaxGames)
				}
				o.games = games
			case o.test == nil:
				o.games = defaultDuelGames
			}
			if parallel < 0 || parallel > tournament.MaxParallel {
				return usagef("--parallel %d: give the number of games to play at once, from 1 to %d (0, the default: one per core)", parallel, tournament.MaxParallel)
			}
			if every < 1 {
				return usagef("--report-every %d: give a number of games, at least 1", every)
			}
			if f.Changed("deadline") && deadline <= 0 {
				return usagef("--deadline %v: give a positive duration such as 200ms or 2s", deadline)
			}
			if force && out == "" {
				return usagef("--force replaces --out FILE; give --out too")
			}
			if o.options, err = gameOptions(f, info); err != nil {
				return err
			}
			warnOptions(cmd.ErrOrStderr(), f, info, o.options)
			specs := append([]string{o.a, o.b}, o.field...)
			if o.external, err = bots.external(specs, append(slices.Clone(info.Players), player.Person), ""); err != nil {
				return err
			}
			seated := specs
			if o.field == nil {
				// The game's default players take the other seats.
				def, _ := player.ParseList(info.DefaultPlayers)
				seated = append(slices.Clip(specs), def...)
			}
			if err := bots.untimed(g, seated, false); err != nil {
				return err
			}
			o.bank, o.startup, o.reply, o.strict = bots.bank, bots.startup, bots.reply, bots.strict
			o.conditions = bots.conditions(specs, o.deadline, o.external)
			o.builtIn = info.Players
			o.seed = seed
			if !f.Changed("seed") {
				o.seed = rand.Uint64() // 64 bits: no bot can guess it
			}
			return runDuel(cmd.Context(), g, o, f.Changed("seed"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&field, "field", "", "the players of the other seats, by name, separated by commas; none for a game of two (default: the game's default players, "+info.DefaultPlayers+")")
	f.StringVar(&test, "sprt", "", "stop when sure: elo0=0,elo1=5,alpha=0.05,beta=0.05 (H0, H1 and the two errors; any of them, the others as here)")
	f.StringVar(&model, "elo-model", "normalized", "the Elo of --sprt's bounds: normalized or logistic")
	f.IntVar(&games, "games", 0, fmt.Sprintf("games to play, an even number (default %d; with --sprt, the most to play, default until it decides)", defaultDuelGames))
	f.Uint64Var(&seed, "seed", 0, "the first pair's seed; pair k plays on seed+k-1 (default: random, printed)")
	f.IntVar(&parallel, "parallel", 0, "games played at once (0, the default: one per core)")
	f.StringVar(&out, "out", "", "keep the duel in FILE, and continue the duel FILE holds")
	f.BoolVar(&force, "force", false, "start the duel in --out FILE anew, replacing what it holds")
	f.IntVar(&every, "report-every", 100, "when standard error is not a terminal, the progress (three lines) every this many games")
	f.DurationVar(&deadline, "deadline", time.Second, "time for each decision")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&keepGoing, "keep-going", false, "play on when a player never answers in its first game (by default the duel stops there, with no verdict)")
	bots = addBotFlags(f, false)
	addOptionFlags(f, info)
	return cmd
}

// exampleDuel is two of the game's players, for a usage message: the last
// two of its own bots (before the search AI) that are names to type as they
// are, not patterns such as basic.<value>.
func exampleDuel(info engine.Info) string {
	var names []string
	for _, p := range info.Players {
		if p == "mcts" {
			break
		}
		if !strings.ContainsAny(p, "<>") {
			names = append(names, p)
		}
	}
	if len(names) >= 2 {
		return names[len(names)-2] + " " + names[len(names)-1]
	}
	return "A B"
}

// parseField reads --field: players' names separated by commas, or none
// for no field.
func parseField(s string) ([]string, error) {
	if strings.TrimSpace(s) == "none" {
		return []string{}, nil
	}
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("--field: no players; give names separated by commas, or none for a game of two")
	}
	parts := strings.Split(s, ",")
	if len(parts) > engine.MaxSeats {
		return nil, fmt.Errorf("--field: %d players; a game has at most %d seats", len(parts), engine.MaxSeats)
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			return nil, fmt.Errorf("--field %q: name %d of %d is empty", s, i+1, len(parts))
		case p == "none":
			return nil, fmt.Errorf("--field %q: none is alone or not at all", s)
		case !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl):
			return nil, fmt.Errorf("--field: player name %q is not printable text", p)
		}
		parts[i] = p
	}
	return parts, nil
}

// duelRun is a duel under way: its file, its tally, its progress.
type duelRun struct {
	o        duelOptions
	duel     *tournament.Duel
	file     *os.File
	writer   *tournament.DuelWriter
	flushed  time.Time
	tally    tournament.Tally
	before   int                   // pairs played by earlier runs
	last     *tournament.DuelState // the state they left
	cut      bool                  // the file's last line was cut short
	progress *duelProgress
}

// runDuel plays a duel of g and prints its result.
func runDuel(ctx context.Context, g catalog.Game, o duelOptions, seedGiven bool) error {
	r := &duelRun{o: o, tally: tournament.Tally{Test: o.test}}
	defer func() {
		if r.file != nil {
			r.file.Close()
		}
	}()
	start := time.Now()
	count, runErr := g.Duel(ctx, catalog.DuelOptions{
		A: o.a, B: o.b, Field: o.field, External: o.external, Options: o.options, Seed: o.seed,
		Parallel: o.parallel, Deadline: o.deadline, Bank: o.bank, Startup: o.startup, Reply: o.reply,
		KeepGoing: o.keepGoing,
		Ready:     func(d *tournament.Duel) (int, int, error) { return r.ready(d, seedGiven) },
		Pair:      r.pair,
	})
	if r.duel == nil { // refused before anything was played
		return classify(runErr)
	}
	r.progress.close(&r.tally)
	elapsed := time.Since(start)
	ended := tournament.EndedGames
	switch {
	case r.tally.Verdict != sprt.Continue:
		ended = tournament.EndedDecided
	case runErr != nil:
		ended = tournament.EndedInterrupted
	}
	if err := r.finish(ended); err != nil {
		return err
	}
	if count > 0 {
		fmt.Fprintf(o.stderr, "played %d games in %v (%s)\n", 2*count, elapsed.Round(time.Millisecond), gamesPerSecond(2*count, elapsed))
	}
	// A player that never played gets no verdict: its losses say nothing
	// of its strength.
	var absent *tournament.AbsentError
	if !errors.As(runErr, &absent) {
		if err := r.print(); err != nil {
			return classify(err)
		}
	}
	noteCuts(o.stderr, o.external.Logs)
	noteLogs(o.stderr, append([]string{o.a, o.b}, o.field...), o.external)
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			kept := "; give --out FILE to keep a duel that can go on"
			if o.out != "" {
				kept = fmt.Sprintf("; %s holds its %d pairs: run the same command again to go on", o.out, r.tally.Pairs())
			}
			return &exitError{exitInternal, fmt.Errorf("interrupted after %d games%s", 2*r.tally.Pairs(), kept)}
		}
		return classify(readyNamed(runErr, o.external.Names))
	}
	return strictly(o.strict, r.tally.Faults[0]+r.tally.Faults[1]+r.tally.FieldFaults)
}

// ready opens the duel's file, or continues the one it holds, and says
// which pairs to play.
func (r *duelRun) ready(d *tournament.Duel, seedGiven bool) (int, int, error) {
	o := r.o
	if o.out != "" {
		if err := r.open(d, seedGiven); err != nil {
			return 0, 0, err
		}
		// Its pairs' seeds are those of the games to come: a sandboxed
		// bot does not read them.
		o.external.Outputs.Add(o.out)
	}
	r.duel = d
	to := tournament.MaxPairs
	if o.games > 0 {
		to = o.games / 2
	}
	from := r.before
	if r.tally.Verdict != sprt.Continue || from >= to {
		to = from // nothing to play
	}
	what := "until the test decides"
	if o.test == nil || o.games > 0 {
		what = fmt.Sprintf("%d games", 2*to)
		if o.test != nil {
			what = fmt.Sprintf("until the test decides, %d games at most", 2*to)
		}
	}
	lines := []string{d.Describe(), what}
	if o.test != nil {
		lines[1] = fmt.Sprintf("SPRT %s, %s Elo; %s", o.test, o.test.Model, what)
	}
	// At a terminal the duel and its test are wrapped to its 80 columns,
	// as the result is; elsewhere, a log, each is one line.
	if f, ok := o.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		var b strings.Builder
		for _, l := range lines {
			wrap.Write(&b, l, "", "  ", wrap.Width)
		}
		io.WriteString(o.stderr, b.String())
	} else {
		fmt.Fprintf(o.stderr, "%s\n%s\n", lines[0], lines[1])
	}
	if r.cut {
		fmt.Fprintf(o.stderr, "%s: its last line was cut short when the duel was stopped; that pair is played again\n", o.out)
	}
	switch {
	case o.games > 0 && from > o.games/2:
		fmt.Fprintf(o.stderr, "%s: %d pairs (%d games) played before, more than --games %d; the result counts them all (give another --out for a shorter duel)\n", o.out, from, 2*from, o.games)
	case from > 0 && from == to:
		fmt.Fprintf(o.stderr, "%s: %d pairs played before; nothing more to play\n", o.out, from)
	case from > 0:
		fmt.Fprintf(o.stderr, "%s: %d pairs played before; going on from pair %d\n", o.out, from, from+1)
	}
	r.progress = newDuelProgress(o.stderr, o.reportEvery, o.test)
	return from, to, nil
}

// open creates the duel's file, or reads the one there and continues it.
func (r *duelRun) open(d *tournament.Duel, seedGiven bool) error {
	o := r.o
	fi, err := os.Stat(o.out)
	switch {
	case err == nil && fi.IsDir():
		return usagef("--out %s is a directory; give a file name", o.out)
	case err == nil && !o.force && !(fi.Mode().IsRegular() && fi.Size() == 0):
		// A file there goes on; an empty one holds nothing to keep (a
		// run killed before it wrote its header), and is written anew.
		return r.resume(d, seedGiven)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usagef("--out %s: %v", o.out, pathCause(err))
	}
	f, err := holdOut(o.out)
	if err != nil {
		return err
	}
	r.file = f
	if r.writer, err = tournament.NewDuelWriter(f, d, o.test, o.conditions); err != nil {
		return classify(err)
	}
	// The header is in the file at once: a run killed before its first
	// pair ends leaves a file the same command goes on with.
	if err := r.writer.Flush(); err != nil {
		return classify(fmt.Errorf("--out %s: %w", o.out, err))
	}
	return nil
}

// resume reads the duel file there, checks that it holds this duel, and
// continues it.
func (r *duelRun) resume(d *tournament.Duel, seedGiven bool) error {
	o := r.o
	f, err := os.OpenFile(o.out, os.O_RDWR, 0)
	if err != nil {
		return usagef("--out %s: %v", o.out, pathCause(err))
	}
	r.file = f
	if err := lockOut(f, o.out); err != nil {
		return err
	}
	df, err := tournament.ReadDuel(f, o.out)
	if err != nil {
		return usagef("--out %s: the file exists and is not a duel this Arbiter can go on with (%v); give another --out, or --force to replace it", o.out, err)
	}
	replace := "--force to replace it with this duel"
	if !seedGiven {
		// A duel that goes on keeps its seed: the file says it. Only
		// while it goes on: --force draws another, and a refusal says so.
		replace += " on a seed drawn at random (--force --seed N: on seed N)"
		d.Seed = df.Header.Duel.Seed
		if h := df.Header.Duel; h.ID() != d.ID() {
			return usagef("--out %s: it holds another duel (%s), not this one (%s, its seed to be drawn); give another --out, the same game, players, field and options to continue it, or %s", o.out, h.Describe(), d.DescribeUnseeded(), replace)
		}
	}
	if err := df.Same(d, o.test); err != nil {
		return usagef("--out %s: %v, or %s", o.out, err, replace)
	}
	if diff := df.Header.Conditions.Differences(o.conditions); len(diff) > 0 {
		return usagef("--out %s: its games were played with %s as given now; go on with the same flags, give another --out, or %s", o.out, strings.Join(diff, ", "), replace)
	}
	// The state a run wrote when it stopped gives way to the pairs that
	// follow, or to the same state again: the file ends as one run's.
	df.DropState()
	if err := f.Truncate(df.Size); err != nil {
		return classify(fmt.Errorf("--out %s: %w", o.out, err))
	}
	if _, err := f.Seek(df.Size, io.SeekStart); err != nil {
		return classify(fmt.Errorf("--out %s: %w", o.out, err))
	}
	r.writer = df.Continue(f)
	r.tally = df.Tally
	r.before = df.Tally.Pairs()
	r.last, r.cut = df.Last, df.Cut
	return nil
}

// flushEvery is how often the file of a duel or a tournament is brought up
// to date while it plays: a run killed loses at most the pairs or games of
// this time, which the next run plays again.
const flushEvery = 100 * time.Millisecond

// pair counts a pair, keeps it, shows the progress, and stops the duel
// when the test has decided.
func (r *duelRun) pair(p tournament.Pair) error {
	if err := r.tally.Add(r.duel, &p); err != nil {
		return err
	}
	if r.writer != nil {
		if err := r.writer.Write(&p); err != nil {
			return fmt.Errorf("--out %s: %w", r.o.out, err)
		}
		if now := time.Now(); now.Sub(r.flushed) >= flushEvery {
			r.flushed = now
			if err := r.writer.Flush(); err != nil {
				return fmt.Errorf("--out %s: %w", r.o.out, err)
			}
		}
	}
	r.progress.update(&r.tally)
	if r.tally.Verdict != sprt.Continue {
		return tournament.ErrStop
	}
	return nil
}

// finish writes the duel's state when its run ended, and closes its file.
func (r *duelRun) finish(ended string) error {
	if r.writer == nil {
		return nil
	}
	last := r.tally.State(ended)
	if r.last == nil || *r.last != last || r.cut {
		if err := r.writer.WriteState(last); err != nil {
			return classify(fmt.Errorf("--out %s: %w", r.o.out, err))
		}
	}
	if err := r.writer.Flush(); err != nil {
		return classify(fmt.Errorf("--out %s: %w", r.o.out, err))
	}
	err := r.file.Close()
	r.file = nil
	if err != nil {
		return classify(fmt.Errorf("--out %s: %w", r.o.out, err))
	}
	return nil
}

// confidence is the confidence of the error bars a duel shows.
const confidence = 0.95

// duelResult is a duel's result as --json prints it.
type duelResult struct {
	ID     string               `json:"id"`
	Duel   *tournament.Duel     `json:"duel"`
	Test   *sprt.Test           `json:"test,omitempty"`
	State  tournament.DuelState `json:"state"`
	Elo    sprt.Estimate        `json:"elo"`
	NElo   sprt.Estimate        `json:"nelo"`
	LOS    float64              `json:"los"`
	Bounds *[2]float64          `json:"bounds,omitempty"`
	Says   string               `json:"says"`
	// Unmeasured says why elo and nelo are no measure, when they are not:
	// every game won, every game lost, every pair even, no games; their
	// figures are then the counts' regularization's.
	Unmeasured string `json:"unmeasured,omitempty"`
	// FieldFaults counts the faults of the field's seats, when they made
	// any (state's faults are A's and B's).
	FieldFaults int `json:"field_faults,omitempty"`
}

// print writes the duel's result to standard output.
func (r *duelRun) print() error {
	t, d := &r.tally, r.duel
	p := t.Pentanomial
	elo, nElo := p.Elo(sprt.Logistic, confidence), p.Elo(sprt.Normalized, confidence)
	says := conclusion(d, t)
	if r.o.asJSON {
		res := duelResult{ID: d.ID(), Duel: d, Test: t.Test, State: t.State(""), Elo: finite(elo), NElo: finite(nElo), LOS: p.LOS(), Says: says,
			Unmeasured: unmeasured(p), FieldFaults: t.FieldFaults}
		if t.Test != nil {
			lo, hi := t.Test.Bounds()
			res.Bounds = &[2]float64{lo, hi}
		}
		res.State.Ended = ""
		enc := json.NewEncoder(r.o.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	var b strings.Builder
	wrap.Write(&b, d.Describe(), "", "  ", wrap.Width)
	// A program goes by the name it gave in its ready message, as in a
	// tournament's standings; the duel's line above keeps its spec, which
	// names the duel. The names are those the pairs hold (Tally.Names),
	// so that a duel that goes on from its file, with pairs left to play
	// or none, says them as the duel played through does.
	named := *d
	names := player.NewNames(append(append(slices.Clone(r.o.builtIn), player.Person), d.Names()...)...)
	for i, p := range []string{d.A, d.B} {
		names.Wish(p, t.Names[i])
	}
	var aka []string
	for _, p := range []*string{&named.A, &named.B} {
		if n, ok := names.Of(*p); ok && n != *p {
			aka = append(aka, fmt.Sprintf("%s is %s", n, *p))
			*p = n
		}
	}
	if len(aka) > 0 {
		wrap.Write(&b, "("+strings.Join(aka, "; ")+")", "", " ", wrap.Width)
	}
	d = &named
	says = conclusion(d, t) // by the names above, as every line
	games := 2 * t.Pairs()
	w := t.Trinomial
	if games > 0 {
		points := float64(w[sprt.Win]) + float64(w[sprt.Draw])/2
		pairs := "pairs"
		if t.Pairs() == 1 {
			pairs = "pair"
		}
		wrap.Write(&b, fmt.Sprintf("Games %d (%d %s): %s won %d, lost %d, drew %d: %.1f%% of the points",
			games, t.Pairs(), pairs, d.A, w[sprt.Win], w[sprt.Loss], w[sprt.Draw], 100*points/float64(games)), "", "  ", wrap.Width)
		fmt.Fprintf(&b, "Ptnml(0-2): %s\n", p)
		fmt.Fprintf(&b, "Elo: %s, nElo: %s%s, LOS: %.1f%%\n", estimateText(p, elo), estimateText(p, nElo), confidenceText(p), 100*p.LOS())
		if saved := pairsSaved(p, w, elo); saved != "" {
			wrap.Write(&b, saved, "     ", "      ", wrap.Width)
		}
	}
	if t.Test != nil {
		fmt.Fprintf(&b, "LLR: %s, %s Elo\n", llrText(t), t.Test.Model)
	}
	if faults := t.Faults[0] + t.Faults[1] + t.FieldFaults; faults > 0 {
		field := ""
		if t.FieldFaults > 0 {
			field = fmt.Sprintf(", the field %d", t.FieldFaults)
		}
		wrap.Write(&b, fmt.Sprintf("Faults: %s %d, %s %d%s (decisions that got the default move)", d.A, t.Faults[0], d.B, t.Faults[1], field), "", "  ", wrap.Width)
		for i, who := range []string{d.A, d.B} {
			if len(t.FaultKinds[i]) > 0 {
				wrap.Write(&b, fmt.Sprintf("Faults of %s: %s", who, report.FaultsText(t.FaultKinds[i])), "", "  ", wrap.Width)
			}
		}
	}
	wrap.Write(&b, says, "", "", wrap.Width)
	_, err := io.WriteString(r.o.stdout, b.String())
	return err
}

// pairsSaved says what counting the games by pairs p rather than one by one
// (w) saved, when it did: the games for an error bar grow as its square.
// It says nothing of an estimate that is no measure (see unmeasured):
// pairs all even have only the counts' regularization for an error bar,
// and would claim to save hundreds of times the games.
func pairsSaved(p sprt.Pentanomial, w sprt.Trinomial, elo sprt.Estimate) string {
	tri := w.Elo(sprt.Logistic, confidence)
	if unmeasured(p) != "" || tri.Error <= 1.05*elo.Error || math.IsInf(tri.Error, 0) {
		return ""
	}
	return fmt.Sprintf("(counted game by game rather than by pairs, the error bar would be ± %.1f: pairs need %.1f times fewer games)",
		tri.Error, (tri.Error*tri.Error)/(elo.Error*elo.Error))
}

// finite keeps an estimate's infinite error bar (nothing counted) out of
// JSON, which has no infinity: it writes 0.
func finite(e sprt.Estimate) sprt.Estimate {
	if math.IsInf(e.Error, 0) {
		e.Error = 0
	}
	if e.Elo == 0 {
		e.Elo = 0 // not -0
	}
	return e
}

// estimateText writes an estimate of the pairs p: 12.3 ± 8.1, or, when A
// won every pair outright or lost every one, that the difference is beyond
// measure by these games: +∞ (every game won), for the estimate's formula
// then has nothing to go on but the counts' regularization.
func estimateText(p sprt.Pentanomial, e sprt.Estimate) string {
	switch why := unmeasured(p); why {
	case "every game won":
		return "+∞ (every game won)"
	case "every game lost":
		return "-∞ (every game lost)"
	case "every pair even":
		// No pair leaned either way: the spread is the regularization's,
		// not the games', and a narrow error bar would claim too much.
		return "0.0, unbounded yet (every pair even)"
	}
	return plusMinus(e)
}

// confidenceText is the confidence of the error bars of the pairs p's
// estimates, " (95%)", or "" when they have none (unmeasured).
func confidenceText(p sprt.Pentanomial) string {
	if unmeasured(p) != "" {
		return ""
	}
	return fmt.Sprintf(" (%g%%)", 100*confidence)
}

// unmeasured says why the pairs p give no measure of the difference, or ""
// when they do: every game won or lost (beyond measure), every pair even
// (no spread to bound it by), no games.
func unmeasured(p sprt.Pentanomial) string {
	switch n := p.Pairs(); {
	case n == 0:
		return "no games"
	case p[4] == n:
		return "every game won"
	case p[0] == n:
		return "every game lost"
	case p[2] == n:
		return "every pair even"
	}
	return ""
}

// plusMinus writes an estimate: 12.3 ± 8.1.
func plusMinus(e sprt.Estimate) string {
	if math.Abs(e.Elo) < 0.05 {
		e.Elo = 0 // not -0.0
	}
	if math.IsInf(e.Error, 0) {
		return fmt.Sprintf("%.1f ± ∞", e.Elo)
	}
	return fmt.Sprintf("%.1f ± %.1f", e.Elo, e.Error)
}

// llrText writes the LLR as engine testers do: 1.52 (-2.94, 2.94) [0, 5].
func llrText(t *tournament.Tally) string {
	lo, hi := t.Test.Bounds()
	return fmt.Sprintf("%.2f (%.2f, %.2f) [%g, %g]", t.LLR, lo, hi, t.Test.Elo0, t.Test.Elo1)
}

// conclusion says what the duel found, in words.
func conclusion(d *tournament.Duel, t *tournament.Tally) string {
	games := 2 * t.Pairs()
	if games == 0 {
		return "No games played yet."
	}
	if test := t.Test; test != nil {
		unit := "nElo"
		if test.Model == sprt.Logistic {
			unit = "Elo"
		}
		switch t.Verdict {
		case sprt.AcceptH1:
			what := fmt.Sprintf("%s is stronger than %s", d.A, d.B)
			if test.Elo0 < 0 {
				what = fmt.Sprintf("%s is not weaker than %s", d.A, d.B)
			}
			return fmt.Sprintf("H1 accepted after %d games: %s. The difference is nearer %+g %s (elo1) than %+g (elo0); a test like this one accepts H1 when the difference is elo0 at most %g%% of the time (alpha).",
				games, what, test.Elo1, unit, test.Elo0, 100*test.Alpha)
		case sprt.AcceptH0:
			what := fmt.Sprintf("%s is not stronger than %s by %g %s", d.A, d.B, test.Elo1, unit)
			if test.Elo0 < 0 || test.Elo1 <= 0 {
				what = fmt.Sprintf("%s is weaker than %s", d.A, d.B)
			}
			return fmt.Sprintf("H0 accepted after %d games: %s. The difference is nearer %+g %s (elo0) than %+g (elo1); a test like this one accepts H0 when the difference is elo1 at most %g%% of the time (beta).",
				games, what, test.Elo0, unit, test.Elo1, 100*test.Beta)
		}
		lo, hi := test.Bounds()
		return fmt.Sprintf("No decision after %d games: the LLR %.2f is still between %.2f and %.2f. Play more games: run the same command with a larger --games (with --out, the duel goes on).",
			games, t.LLR, lo, hi)
	}
	// The error bar's ends are on either side of 0 exactly when the
	// likelihood of superiority is between 2.5% and 97.5%.
	switch los := t.Pentanomial.LOS(); {
	case los >= 1-(1-confidence)/2:
		return fmt.Sprintf("%s is stronger than %s: at 95%% the difference is above 0.", d.A, d.B)
	case los <= (1-confidence)/2:
		return fmt.Sprintf("%s is weaker than %s: at 95%% the difference is below 0.", d.A, d.B)
	}
	return fmt.Sprintf("Not yet known which is stronger: at 95%% the difference may be 0 either way. Play more games (--games), or test with --sprt to stop when it is known.")
}

// duelProgress shows a duel's progress on standard error: a line updated
// in place on a terminal, at most ten times a second; elsewhere a line
// every so many games.
type duelProgress struct {
	out      io.Writer
	terminal bool
	width    int
	every    int
	shown    time.Time
	test     *sprt.Test
	dirty    bool
	lastLine int // games at the last line written, off a terminal
}

func newDuelProgress(w io.Writer, every int, test *sprt.Test) *duelProgress {
	p := &duelProgress{out: w, every: every, test: test}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.terminal = true
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			p.width = width
		}
	}
	return p
}

// update shows the tally after a pair.
func (p *duelProgress) update(t *tournament.Tally) {
	if p == nil {
		return
	}
	games := 2 * t.Pairs()
	if !p.terminal {
		if games/p.every != (games-2)/p.every {
			io.WriteString(p.out, progressLines(t))
			p.lastLine = games
		}
		return
	}
	if now := time.Now(); now.Sub(p.shown) >= 100*time.Millisecond || t.Verdict != sprt.Continue {
		p.shown = now
		line := progressLine(t)
		if p.width > 1 && wrap.Cells(line) >= p.width {
			line = wrap.Head(line, p.width-1)
		}
		fmt.Fprintf(p.out, "\r%s\x1b[K", line)
		p.dirty = true
	}
}

// close ends the progress: on a terminal it clears the line in place;
// elsewhere it writes the last figures, if the last line was not of them.
func (p *duelProgress) close(t *tournament.Tally) {
	switch {
	case p == nil:
	case p.dirty:
		fmt.Fprint(p.out, "\r\x1b[K")
	case !p.terminal && t.Pairs() > 0 && 2*t.Pairs() != p.lastLine:
		io.WriteString(p.out, progressLines(t))
	}
}

// duelFields is the tally in the engine testers' form, field by field; a
// field it does not have is "".
type duelFields struct {
	llr, elo, nElo string // the test's LLR, the estimates
	wld, ptnml     string // the games by A's results, the pairs
	faults         string // A's and B's, once there are some
}

func newDuelFields(t *tournament.Tally) duelFields {
	p := t.Pentanomial
	var f duelFields
	if t.Test != nil {
		f.llr = "LLR " + llrText(t)
	}
	f.elo = "Elo " + estimateText(p, p.Elo(sprt.Logistic, confidence)) + confidenceText(p)
	if t.Test == nil || t.Test.Model == sprt.Normalized {
		f.nElo = "nElo " + estimateText(p, p.Elo(sprt.Normalized, confidence))
	}
	w := t.Trinomial
	f.wld = fmt.Sprintf("W/L/D %d/%d/%d", w[sprt.Win], w[sprt.Loss], w[sprt.Draw])
	f.ptnml = "Ptnml(0-2) " + p.String()
	if n := t.Faults; n[0]+n[1] > 0 {
		f.faults = fmt.Sprintf("Faults A/B %d/%d", n[0], n[1])
	}
	return f
}

// progressLine is the tally on one line, updated in place at a terminal,
// what matters most first, so that a narrow terminal cuts the least.
func progressLine(t *tournament.Tally) string {
	f := newDuelFields(t)
	fields := slices.DeleteFunc([]string{f.llr, f.elo, f.nElo, f.wld, f.ptnml, f.faults}, func(s string) bool { return s == "" })
	return fmt.Sprintf("Games %d: %s", 2*t.Pairs(), strings.Join(fields, "  "))
}

// progressLines is the tally for a log, in lines of at most wrap.Width
// columns, each whole and beginning with the games so far ("Games 240: "),
// so that a script reads each line on its own, and each of the same
// fields report after report: the test and the games (LLR, W/L/D), the
// estimates (Elo, nElo), the pairs (Ptnml(0-2), and the faults). A line
// too wide for its fields (a first pair of even games, whose estimates
// say why they are none) goes on in another.
func progressLines(t *tournament.Tally) string {
	f := newDuelFields(t)
	var b strings.Builder
	head := fmt.Sprintf("Games %d: ", 2*t.Pairs())
	for _, group := range [][]string{{f.llr, f.wld}, {f.elo, f.nElo}, {f.ptnml, f.faults}} {
		n := 0 // the line's columns; 0 before its first field
		for _, field := range group {
			switch {
			case field == "":
				continue
			case n == 0:
			case n+2+wrap.Cells(field) > wrap.Width:
				b.WriteByte('\n')
				n = 0
			default:
				b.WriteString("  ")
				n += 2
			}
			if n == 0 {
				b.WriteString(head)
				n = len(head)
			}
			b.WriteString(field)
			n += wrap.Cells(field)
		}
		if n > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
