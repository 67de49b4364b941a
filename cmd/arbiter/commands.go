package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func gamesCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games [GAME...]",
		Short: "List the games, their seats, players and options",
		Long: `List the games, their seats, players and options; with games named, those
alone (arbiter rules GAME prints a game's rules).`,
		Example: `  arbiter games
  arbiter games tncc`,
		ValidArgs: catalog.Names(),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			games, err := namedGames(args)
			if err != nil {
				return err
			}
			if asJSON {
				list := make([]gameJSON, 0, len(games))
				for _, g := range games {
					list = append(list, describeGame(g.Info()))
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return classify(enc.Encode(list))
			}
			// At 80 columns: a title carries on under its column, a
			// game's players and options under their own words.
			var table bytes.Buffer
			rows := [][]string{{"GAME", "SEATS", "TITLE"}}
			for _, g := range games {
				info := g.Info()
				rows = append(rows, []string{info.Name, fmt.Sprintf("%d-%d", info.MinSeats, info.MaxSeats), info.Title})
			}
			writeTable(&table, rows)
			lines := strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n")
			title := strings.Index(lines[0], "TITLE")
			for _, line := range lines {
				fmt.Fprintln(out, hang(line, line[:title], title, helpWidth))
			}
			item := func(head, text string) {
				lead := len(head)
				if strings.HasPrefix(head, "  option") {
					lead = 4
				}
				fmt.Fprintln(out, hang(head+text, head, lead, helpWidth))
			}
			for _, g := range games {
				info := g.Info()
				fmt.Fprintf(out, "\n%s\n", info.Name)
				item("  players: ", playersHelp(info))
				item("  default: ", "--players "+info.DefaultPlayers)
				for _, o := range info.Options {
					if o.Kind == engine.BoolOption {
						on := map[bool]string{true: "on", false: "off"}[o.Default == "true"]
						item("  option --"+flagName(o)+": ", fmt.Sprintf("%s (%s unless the flag is given)", o.Usage, on))
						continue
					}
					def := o.Default
					if o.Kind == engine.StringOption {
						def = strconv.Quote(def) // as --help says it: (default "default")
					}
					item(fmt.Sprintf("  option --%s (default %s): ", flagName(o), def), o.Usage)
					if o.File != "" {
						item("  option --"+o.File+" FILE: ", o.FileUsage)
					}
				}
				if len(info.Presets) > 0 {
					item("  presets: ", fmt.Sprintf("%s (their numbers: arbiter rules %s)", strings.Join(info.Presets, ", "), info.Name))
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

// namedGames returns the games named, in the catalog's order, or every
// game when none is named; a name that is no game's is refused.
func namedGames(names []string) ([]catalog.Game, error) {
	if len(names) == 0 {
		return catalog.Games(), nil
	}
	var games []catalog.Game
	for _, g := range catalog.Games() {
		if slices.Contains(names, g.Info().Name) {
			games = append(games, g)
		}
	}
	for _, n := range names {
		if _, err := catalog.Find(n); err != nil {
			return nil, usageError(err)
		}
	}
	return games, nil
}

// gameJSON is a game as arbiter games --json describes it for programs.
type gameJSON struct {
	Name           string       `json:"name"`
	Variant        string       `json:"variant,omitempty"`
	Title          string       `json:"title"`
	RulesVersion   string       `json:"rules_version"`
	MinSeats       int          `json:"min_seats"`
	MaxSeats       int          `json:"max_seats"`
	Clock          string       `json:"clock"`
	Score          string       `json:"score"`
	Players        []string     `json:"players"`
	DefaultPlayers string       `json:"default_players"`
	Options        []optionJSON `json:"options"`
	Presets        []presetJSON `json:"presets,omitempty"`
}

// optionJSON is one option of a game, with the flag that sets it.
type optionJSON struct {
	Name    string `json:"name"`
	Flag    string `json:"flag"`
	Kind    string `json:"kind"`
	Default string `json:"default"`
	Min     *int   `json:"min,omitempty"`
	Max     *int   `json:"max,omitempty"`
	Usage   string `json:"usage"`
	// FileFlag, when set, gives the option's value from a file.
	FileFlag  string `json:"file_flag,omitempty"`
	FileUsage string `json:"file_usage,omitempty"`
}

// presetJSON is one preset of a game, with its numbers.
type presetJSON struct {
	Name   string `json:"name"`
	Values any    `json:"values,omitempty"`
}

// describeGame is what arbiter games --json says of a game.
func describeGame(info engine.Info) gameJSON {
	g := gameJSON{Name: info.Name, Variant: info.Variant, Title: info.Title, RulesVersion: info.Version,
		MinSeats: info.MinSeats, MaxSeats: info.MaxSeats, Clock: clockName(info), Score: info.Score,
		Players: append(slices.Clone(info.Players), player.Person), DefaultPlayers: info.DefaultPlayers, Options: []optionJSON{}}
	kinds := map[engine.OptionKind]string{engine.IntOption: "int", engine.BoolOption: "bool", engine.StringOption: "string"}
	for _, o := range info.Options {
		oj := optionJSON{Name: o.Name, Flag: "--" + flagName(o), Kind: kinds[o.Kind], Default: o.Default, Usage: o.Usage}
		if o.Kind == engine.IntOption {
			oj.Min, oj.Max = &o.Min, &o.Max
		}
		if o.File != "" {
			oj.FileFlag, oj.FileUsage = "--"+o.File, o.FileUsage
		}
		g.Options = append(g.Options, oj)
	}
	for i, name := range info.Presets {
		p := presetJSON{Name: name}
		if i < len(info.PresetValues) {
			p.Values = info.PresetValues[i]
		}
		g.Presets = append(g.Presets, p)
	}
	return g
}

func rulesCommand() *cobra.Command {
	return &cobra.Command{
		Use:       "rules GAME",
		Short:     "Print a game's rules, as players read them",
		Args:      exactlyOne("a game: " + strings.Join(catalog.Names(), ", ")),
		ValidArgs: catalog.Names(),
		RunE: withGame(func(cmd *cobra.Command, g catalog.Game) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), g.Info().Rules)
			return classify(err)
		}),
	}
}

// withGame makes the RunE of a command whose one argument names a game.
func withGame(run func(*cobra.Command, catalog.Game) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		g, err := findGame(args[0])
		if err != nil {
			return classify(err)
		}
		return run(cmd, g)
	}
}

func playCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "play GAME [flags]",
		Short: "Play a game, or a series of games, and print the report",
		Long: `Play a game, or a series of games, among bots and people, and print the
report. Each game has its own flags: see arbiter play GAME --help.

The report is written game by game as the games are played, holding one
game at a time, in the form --report names:
  text        each game (seed, players, the world at the start and the end,
              what happened, scores and what they count, faults), then for a
              series each player's standing (the default; at a terminal, a
              series of more than 10 games prints its standings only)
  json        a JSON array, one object per game, with its history
  summary     only each player's standing: games (a player in two seats of
              a game counts two), wins and win rate, mean score, with 95%
              confidence intervals, and faults; a mean of one game has no
              interval ("31.0 (1 game)"), and the intervals take two
              seats of one game as two independent games; then how the
              games ended ("ended: humans win (81), zombies win (119)")
  summary-json
              the same standings as one JSON object for programs: games,
              finished, score, endings (reason, games) and standings
              (player, games, wins, win_rate, win_rate_low and
              win_rate_high from 0 to 1, mean_score, mean_score_ci, null
              for one game, faults, fault_kinds)
  FILE.txt, FILE.json, FILE.html
              the text, the JSON, or a page of charts, to a file that
              appears whole when play ends; text and HTML lead with the
              series' standings (the page with the distribution of every
              player's scores), then the games; the page charts games 1 to
              10, then every 10th to 100, every 100th to 1,000 and every
              1,000th after, and lists the others, so that it stays small
Ctrl-C stops play at once (exit 3); the report then holds the games so far.`,
		Example: `  arbiter play ajveciv                        # six AIs play a game
  arbiter play ajveciv --players repl,basic   # you against them
  arbiter play tncc --player "exec:python3 mybot/bot.py" --seed 1
                                              # your bot: in arbiter's source,
                                              # cp -r starters/python mybot`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("name a game to play: %s", strings.Join(catalog.Names(), ", "))
			}
			_, err := findGame(args[0])
			return err
		},
	}
	for _, g := range catalog.Games() {
		cmd.AddCommand(playGameCommand(g))
	}
	return cmd
}

// personLineup is a game's default players with a person (repl) in the
// first seat: in place of the first player where the default names
// several, else before the one name, which stands for several seats
// (AjveCiv's basic is six).
func personLineup(defaults string) string {
	names := strings.Split(defaults, ",")
	if len(names) == 1 {
		return player.Person + "," + defaults
	}
	names[0] = player.Person
	return strings.Join(names, ",")
}

func playGameCommand(g catalog.Game) *cobra.Command {
	info := g.Info()
	var (
		players  string
		each     []string
		seed     uint64
		games    int
		deadline time.Duration
		timings  bool
		rep      string
		record   string
		training string
		verbose  bool
		force    bool
		bots     *botFlags
	)
	cmd := &cobra.Command{
		Use:   info.Name,
		Short: "Play " + info.Title,
		Long: fmt.Sprintf(`Play %s.

With no flags it plays one game among --players %s and prints the report.

To play a seat yourself, at this terminal, name repl among the players
(arbiter rules %s tells how the game is played):

  arbiter play %s --players %s

Players: %s.
Seats: %d to %d.`, info.Title, info.DefaultPlayers, info.Name, info.Name, personLineup(info.DefaultPlayers),
			playersHelp(info)+", "+externalsHelp, info.MinSeats, info.MaxSeats),
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("players") && strings.TrimSpace(players) == "" {
				// An empty list given ("--players $UNSET"), not the default.
				return usagef("--players is empty; name the players, separated by commas, or leave the flag out to play the default players (%s)", info.DefaultPlayers)
			}
			specs, err := player.Specs(players, each, info.DefaultPlayers)
			if err != nil {
				return usageError(err)
			}
			if games < 1 {
				return usagef("--games %d: play at least one game", games)
			}
			if cmd.Flags().Changed("deadline") && deadline <= 0 {
				return usagef("--deadline %v: give a positive duration such as 200ms or 2s", deadline)
			}
			target, err := parseReportTarget(rep)
			if err != nil {
				return err
			}
			if verbose && target.form != "text" {
				already := map[string]string{"json": "; the JSON report holds every one already", "html": "; the page charts every one already"}
				return usagef("--verbose has no effect on --report %s: it shows the world at every %s in the text report (--report text, or a FILE.txt)%s", rep, clockName(info), already[target.form])
			}
			if force && target.path == "" && record == "" && training == "" {
				return usagef("--force replaces the report's file, the records and the training file; give --report FILE, --record DIR or --export-training FILE too")
			}
			if timings && record == "" {
				return usagef("--timings has no effect without --record DIR: the decisions' times are written in the records alone (the report and the training lines hold none, so that a seed gives the same bytes)")
			}
			if !cmd.Flags().Changed("report") && games > longSeries && target.scrolls(cmd.OutOrStdout()) {
				// Thousands of games scroll by at a terminal: the standings
				// say what they came to.
				target = reportTarget{form: "summary"}
				fmt.Fprintf(cmd.ErrOrStderr(), "%d games: the standings only; --report text prints every game,\n--report FILE.html charts them\n", games)
			}
			options, err := seatedOptions(cmd.Flags(), info, len(specs))
			if err != nil {
				return err
			}
			warnOptions(cmd.ErrOrStderr(), cmd.Flags(), info, options)
			ext, err := bots.external(specs, append(slices.Clone(info.Players), player.Person), record)
			if err != nil {
				return err
			}
			if err := bots.untimed(g, specs, true); err != nil {
				return err
			}
			if slices.Contains(specs, player.Person) {
				if err := player.CheckConsole(cmd.InOrStdin()); err != nil {
					return usageError(err)
				}
			}
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64() // 64 bits: no bot can guess it
			}
			ctx, cancel := context.WithCancelCause(cmd.Context())
			defer cancel(nil)
			interrupt := func() {
				if player.ConsoleEnded() {
					cancel(player.ErrInputEnded) // the records and report say so
					return
				}
				cancel(nil)
			}
			return play(ctx, g, playOptions{
				specs: specs, options: options, seed: seed, games: games,
				deadline: deadline, deadlineSet: cmd.Flags().Changed("deadline"), timings: timings,
				report: target, recordDir: record, training: training, verbose: verbose,
				external: ext, bank: bots.bank, startup: bots.startup, reply: bots.reply, strict: bots.strict, force: force,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), interrupt: interrupt, score: info.Score,
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&players, "players", "", "players by name, separated by commas (default "+info.DefaultPlayers+")")
	f.StringArrayVar(&each, "player", nil, "one more player; repeat it; for specs that contain commas")
	f.Uint64Var(&seed, "seed", 0, "the first game's seed; game k (from 1) plays with seed+k-1 (default: random, printed in the report); bots can guess a small one")
	f.IntVar(&games, "games", 1, "number of games to play in a series")
	f.DurationVar(&deadline, "deadline", time.Second, "time for each decision; people have none unless this is given")
	f.BoolVar(&timings, "timings", false, "write each decision's time in the records (with --record)")
	f.StringVar(&rep, "report", "text", "report form: text, json, summary (the standings only), summary-json (the standings as JSON), or a file (.json, .html, .txt); see arbiter play --help")
	f.StringVar(&record, "record", "", "write each game's record to DIR/game-0001.jsonl, ...")
	f.StringVar(&training, "export-training", "", "write every decision (observation, choice, final score) to FILE as JSON lines")
	f.BoolVar(&force, "force", false, "replace the report, records and training file if they exist")
	bots = addBotFlags(f, true)
	f.BoolVarP(&verbose, "verbose", "v", false, "in the text report, show the world at every "+clockName(info)+", not only the first and the last")
	addOptionFlags(f, info)
	_ = cmd.RegisterFlagCompletionFunc("report", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json", "summary", "summary-json", "report.html", "report.json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// longSeries is the most games whose every game play prints at a terminal
// unless asked: a longer series prints its standings only.
const longSeries = 10

// clockName is the word for the game's time: "turn", "cycle".
func clockName(info engine.Info) string {
	if info.Clock == "" {
		return "turn"
	}
	return info.Clock
}

// addOptionFlags adds a flag for each of a game's options.
func addOptionFlags(f *pflag.FlagSet, info engine.Info) {
	for _, o := range info.Options {
		name := flagName(o)
		switch o.Kind {
		case engine.IntOption:
			def, _ := strconv.Atoi(o.Default)
			f.Int(name, def, fmt.Sprintf("%s (%d to %d)", o.Usage, o.Min, o.Max))
		case engine.BoolOption:
			usage := o.Usage
			if o.Default == "true" {
				usage = "turn off: " + usage + " (on without this flag)"
			}
			f.Bool(name, false, usage)
		default:
			f.String(name, o.Default, o.Usage)
			if o.File != "" {
				f.String(o.File, "", o.FileUsage)
			}
		}
	}
}

// flagName is the flag of a game option: a boolean on by default becomes
// --no-NAME.
func flagName(o engine.Option) string {
	if o.Kind == engine.BoolOption && o.Default == "true" {
		return "no-" + o.Name
	}
	return o.Name
}

// gameOptions reads a game's options from its flags, for games whose number
// of seats is not known yet (seatedOptions).
func gameOptions(f *pflag.FlagSet, info engine.Info) (map[string]string, error) {
	return seatedOptions(f, info, 0)
}

// seatedOptions reads a game's options from its flags, each number checked
// against its range for a game of seats players (engine.Option.Range; 0:
// not known). Every option is written out, so that a record names them all
// and replays the same even if a default changes.
func seatedOptions(f *pflag.FlagSet, info engine.Info, seats int) (map[string]string, error) {
	options := map[string]string{}
	for _, o := range info.Options {
		name := flagName(o)
		switch o.Kind {
		case engine.IntOption:
			v, _ := f.GetInt(name)
			if lo, hi, allowed := o.Range(seats); v < lo || v > hi {
				return nil, usagef("--%s %d: %s", name, v, allowed)
			}
			options[o.Name] = strconv.Itoa(v)
		case engine.BoolOption:
			v, _ := f.GetBool(name)
			if o.Default == "true" {
				v = !v
			}
			options[o.Name] = strconv.FormatBool(v)
		default:
			v, _ := f.GetString(name)
			if o.File != "" && f.Changed(o.File) {
				if f.Changed(name) {
					return nil, usagef("give --%s or --%s, not both", name, o.File)
				}
				path, _ := f.GetString(o.File)
				data, err := readInput(path)
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) && (path == o.Default || slices.Contains(info.Presets, path)) {
						// "--config tribe": a value meant for the option's own flag.
						return nil, usagef("--%s %s: %s; %s is a value of --%s: give it as --%s %s", o.File, path, pathCause(err), path, name, name, path)
					}
					if errors.Is(err, fs.ErrNotExist) {
						// "--config my-preset.yaml", as the examples write
						// it, before one is written: say what it holds.
						return nil, usagef("--%s %s: %s; write one first, as arbiter rules %s tells: --%s takes %s", o.File, path, pathCause(err), info.Name, o.File, o.FileUsage)
					}
					return nil, usagef("--%s %s: %s", o.File, path, pathCause(err))
				}
				if v, err = o.Load(data); err != nil {
					return nil, usagef("--%s %s: %s", o.File, path, oneLine(err))
				}
			} else if f.Changed(name) && strings.TrimSpace(v) == "" {
				// A script's unset variable: played as the default, it
				// would be reported as an option of no name.
				return nil, usagef("--%s is empty; want %s", name, o.Usage)
			} else if o.Load != nil && strings.HasPrefix(strings.TrimSpace(v), "{") {
				// A document given inline is read as its file would be,
				// so that the same numbers make the same option value,
				// and reports the same name and digest, either way.
				given := v
				var err error
				if v, err = o.Load([]byte(given)); err != nil {
					return nil, usagef("--%s %q: %s", name, given, oneLine(err))
				}
			}
			options[o.Name] = v
		}
	}
	return options, nil
}

// warnOptions tells w, before play, what the game's options allow but a
// game is unlikely to want (engine.Option.Warn), named with the flag that
// gave the option, f's: "arbiter: warning: --board: the map is in 2 parts
// …", or "--config v.yaml: …" for the option's file.
func warnOptions(w io.Writer, f *pflag.FlagSet, info engine.Info, options map[string]string) {
	for _, o := range info.Options {
		if o.Warn == nil {
			continue
		}
		if msg := o.Warn(options[o.Name]); msg != "" {
			given := "--" + flagName(o)
			if o.File != "" && f.Changed(o.File) {
				path, _ := f.GetString(o.File)
				given = "--" + o.File + " " + path
			}
			fmt.Fprintf(w, "arbiter: warning: %s: %s\n", given, msg)
		}
	}
}

// oneLine is an error's message on one line: a file's parser may report
// its problems one per line (YAML's "unmarshal errors:" and a line for
// each), and the CLI's messages are one line.
func oneLine(err error) string {
	var b strings.Builder
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			continue
		case b.Len() == 0:
		case strings.HasSuffix(b.String(), ":"):
			b.WriteString(" ")
		default:
			b.WriteString("; ")
		}
		b.WriteString(l)
	}
	return b.String()
}

func replayCommand() *cobra.Command {
	var asJSON, partial bool
	var page replayPage
	cmd := &cobra.Command{
		Use:   "replay FILE [--partial] [--html -o PAGE.html]",
		Short: "Re-run a match record and check its moves, faults, result and final state",
		Long: `Re-run a match record from its setup and moves, and check what can be
checked:
  - every move is legal under the record's rules, in order;
  - every step with a fault (a timeout, a crash, an illegal answer) has
    its request's default move, which is what a fault means;
  - the rules reach the recorded result and final state (by its hash);
  - the record's lines (setup, players, moves, faults, timings) match the
    digest of them in its end line: a line changed, added, removed or
    moved since the record was written shows.

Replay cannot know who really sat in each seat, or that a timeout or crash
really happened, or how long a decision took: those are the runner's word,
kept as written by the digest. The digest is no signature: whoever edits a
record and computes its digest again is not caught, so keep records where
only Arbiter writes them, or sign them. A record written before the digest
replays with a note that its lines cannot be checked.

A record cut off before its end line (the record of a match under way, or
of a run that was killed) has no digest, so nothing shows an edit of its
lines: it does not hold unless --partial is given, and then its moves are
checked and its lines are noted as unchecked; a last line cut part way (a
run killed while writing it) is left out.

With --html -o PAGE.html, a record that holds is also written as the replay
viewer, one self-contained page that opens in any browser, offline: step,
play, seek to any move, and see the match as the judge, the public or any
seat saw it, with its faults and events on the timeline and its numbers
charted. With --json as well, the verdict is printed and the page written.

A territories database (arbiter territories init) is checked as arbiter
territories replay checks it: its log is replayed into a fresh database and
every table compared; --html and --partial are for match records.

Exit codes: 0 the record holds; 1 it does not (its lines were edited, a
move is refused, a fault's move is not the default, the result or final
state differs, or it stops before its end line without --partial); 2 the
file is not a record.`,
		Args: exactlyOne("a record file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := page.check(); err != nil {
				return err
			}
			if asJSON && page.out == "-" {
				return usagef("--json and -o - would both write to standard output; give the page a file (-o PAGE.html)")
			}
			if isTerritoriesDB(args[0]) {
				switch {
				case page.html:
					return usagef("--html has no effect on a territories database (%s): the replay viewer shows a match record; replay checks the database's log", args[0])
				case partial:
					return usagef("--partial has no effect on a territories database (%s): its every action is stored whole, and replay checks them all", args[0])
				}
				return replayTerritories(cmd, args[0], asJSON)
			}
			data, err := readInput(args[0])
			if err != nil {
				return usagef("%s: %s", args[0], pathCause(err))
			}
			if partial {
				data = wholeLines(data)
			}
			h, err := engine.ReadHeader(strings.NewReader(string(data)))
			if err != nil {
				return usagef("%s: %w", args[0], err)
			}
			g, err := findGame(h.Ruleset)
			if err != nil {
				return usagef("%s: %w", args[0], err)
			}
			got, err := g.Replay(data)
			if err == nil && !partial && got.Result == nil && got.Aborted == "" {
				err = cutShort(got)
			}
			out := cmd.OutOrStdout()
			checked, unchecked := replayChecks(got)
			if asJSON {
				type verdict struct {
					File string `json:"file"`
					OK   bool   `json:"ok"`
					catalog.Replayed
					Checked   []string `json:"checked,omitempty"`
					Unchecked []string `json:"unchecked,omitempty"`
					Error     string   `json:"error,omitempty"`
				}
				v := verdict{File: args[0], OK: err == nil, Replayed: got}
				if err != nil {
					v.Error = err.Error()
				} else {
					v.Checked, v.Unchecked = checked, unchecked
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if werr := enc.Encode(v); werr != nil {
					return classify(werr)
				}
			}
			if err != nil {
				return classify(fmt.Errorf("%s: %w", args[0], err))
			}
			if asJSON {
				return page.write(cmd, args[0], data)
			}
			name := got.Ruleset
			if got.Variant != "" {
				name += " (" + got.Variant + ")"
			}
			players := fmt.Sprintf("%d %s", len(got.Players), plural(len(got.Players), "player", "players"))
			if len(got.Players) == 0 {
				players = "players by name" // a territories referee's
			}
			fmt.Fprintf(out, "%s: %s, seed %d, %s, %d %s, %d %s\n", args[0], name, got.Seed, players,
				got.Moves, plural(got.Moves, "move", "moves"), got.Faults, plural(got.Faults, "fault", "faults"))
			for _, c := range checked {
				fmt.Fprintf(out, "ok: %s\n", c)
			}
			for _, u := range unchecked {
				fmt.Fprintf(out, "not checked: %s\n", u)
			}
			return page.write(cmd, args[0], data)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	cmd.Flags().BoolVar(&partial, "partial", false, "accept a record that stops before its end line (a match under way, a run killed): its moves are checked, its lines cannot be")
	page.flags(cmd)
	return cmd
}

// wholeLines leaves out a record's last line when it was cut part way (a
// run killed while writing it): what is not a JSON line after the last
// newline.
func wholeLines(data []byte) []byte {
	k := bytes.LastIndexByte(data, '\n')
	if k < 0 || json.Valid(bytes.TrimSpace(data[k+1:])) {
		return data
	}
	return data[:k+1]
}

// cutShort is the verdict on a record that stops before its end line,
// without --partial: its moves replayed, but with no digest nothing shows
// that its lines, a player's name among them, are as written.
func cutShort(got catalog.Replayed) error {
	moves := "moves"
	if got.Moves == 1 {
		moves = "move"
	}
	return &exitError{exitRefused, fmt.Errorf("the record stops after %d %s, before its end line (a match under way, or a run that was killed): without the end line's digest, an edit of its lines cannot be seen; its moves replay, and --partial accepts it so", got.Moves, moves)}
}

// replayChecks says what a replay that found got checked, and what it
// could not.
func replayChecks(got catalog.Replayed) (checked, unchecked []string) {
	switch {
	case got.Result != nil && got.Hash != "":
		checked = append(checked, fmt.Sprintf("the replay reaches the recorded result and final state (%s)", got.Hash))
	case got.Result != nil:
		checked = append(checked, "the replay reaches the recorded result (the record has no state hash)")
	case got.Aborted != "":
		checked = append(checked, fmt.Sprintf("the moves replay; the match was not finished (%s)", got.Aborted))
	default:
		checked = append(checked, "the moves replay; the record stops before the end")
	}
	if got.Faults == 0 {
		checked = append(checked, "every move is legal; no step has a fault")
	} else {
		checked = append(checked, fmt.Sprintf("every move is legal, and each of the %d faulted steps has its request's default move", got.Faults))
	}
	word := "the runner's word, kept as written by the digest"
	if got.Lines != "" {
		checked = append(checked, fmt.Sprintf("the lines match their digest (%s): setup, players, moves, faults and timings are as written", got.Lines))
	} else {
		word = "the runner's word"
		unchecked = append(unchecked, "the lines: the record has no digest of them (it was written before Arbiter kept one, or cut off), so a changed player name, fault or timing cannot be seen")
	}
	unchecked = append(unchecked, "who sat in each seat, and that each fault and timing really happened: "+word)
	return checked, unchecked
}

func stepCommand() *cobra.Command {
	var state, moves string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "step GAME --state FILE --moves FILE [--seed N]",
		Short: "Apply one step of a game's pure rules to its world JSON",
		Long: `Apply one step of a game's pure rules to a world in the game's own JSON shape,
and print the world after it. This is the rules function that world authors
and other programs use.

ajveciv: --state is a world {feels, societies, yield}, as in
examples/ajveciv/world.json; --moves is {"kind": "turn" | "inflection",
"choices": ["conquer", null, ...]}, one entry per society, null for a dead
one. The seed (default 0) breaks ties.

reaj: --state is {environment: {land, ecology, resources}, societies:
[{resources, values, dead?}], relations: [[...]]}; --moves is {"choices":
["adapt", null, ...]}, null for a dead society. The seed draws the lots when
land or ecology runs short.

tncc: --state is {preset, cycle, countries: [{gold, food, citizens, army,
land, dead?}]}; --moves is one action with its answer, {"seat": 0, "action":
{"type": "war", "target": 1, "flanks": [10, 0, 30]}, "answer": {"flanks":
[5, 5, 5]}}, or {"production": true}. Every number is exact: it takes no
--seed.

territories: --state is {config, state}: a configuration in JSON (the keys
of arbiter territories init's file; its map is not read) and the rules'
state (left out: a game nobody has joined), as in
examples/territories/state.json; --moves is one action, {"player": "alice",
"action": "join Pacifica CA"} (no player: the judge's end-turn). The output
is the next --state, with the action's outcome (its dice included). The
dice are drawn from the configuration's seed (0 when it has none), not
--seed.

zombie has no step: its state is the script so far (arbiter zombie run).

A file of "-" is read from standard input.`,
		Args:      exactlyOne("a game: " + strings.Join(catalog.Names(), ", ")),
		ValidArgs: catalog.Names(),
		RunE: withGame(func(cmd *cobra.Command, g catalog.Game) error {
			if _, err := g.Step(nil, nil, seed); errors.Is(err, catalog.ErrNoStep) {
				return classify(err) // whatever the flags say
			}
			if why, unseeded := stepDrawsNoSeed[g.Info().Name]; unseeded && cmd.Flags().Changed("seed") {
				return usagef("--seed has no effect on arbiter step %s: %s", g.Info().Name, why)
			}
			if state == "" || moves == "" {
				return usagef("give both --state and --moves")
			}
			if state == "-" && moves == "-" {
				return usagef("only one of --state and --moves can be read from standard input")
			}
			read := func(name string) ([]byte, error) {
				if name == "-" {
					b, err := readAll(cmd.InOrStdin())
					return b, err
				}
				return readInput(name)
			}
			s, err := read(state)
			if err != nil {
				return usagef("--state %s: %w", state, err)
			}
			m, err := read(moves)
			if err != nil {
				return usagef("--moves %s: %w", moves, err)
			}
			out, err := g.Step(s, m, seed)
			if err != nil {
				return classify(err)
			}
			_, err = cmd.OutOrStdout().Write(out)
			return classify(err)
		}),
	}
	cmd.Flags().StringVar(&state, "state", "", "the world before the step (JSON file)")
	cmd.Flags().StringVar(&moves, "moves", "", "the step's moves (JSON file)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed of the random source that breaks ties (ajveciv, reaj)")
	return cmd
}

// stepDrawsNoSeed says, of each game whose step takes nothing of --seed,
// why.
var stepDrawsNoSeed = map[string]string{
	"tncc":        "its rules draw nothing; every number is exact",
	"territories": "its dice are drawn from the seed of the configuration in --state (config.seed; 0 when it has none)",
}

// exactlyOne requires one positional argument, naming what it is.
func exactlyOne(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usagef("%s takes %s; got %d %s", cmd.CommandPath(), what, len(args), plural(len(args), "argument", "arguments"))
		}
		return nil
	}
}
