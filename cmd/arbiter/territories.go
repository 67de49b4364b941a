package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
	"github.com/arbiter-games/arbiter/internal/wrap"
	tstore "github.com/arbiter-games/arbiter/store/territories"
	"github.com/spf13/cobra"
)

// territoriesFlags are the flags every territories command shares.
type territoriesFlags struct {
	db      string
	player  string
	asJSON  bool
	request string
}

// territoriesCommand is arbiter territories: the referee of a live game,
// one action per call, kept in an SQLite file.
func territoriesCommand() *cobra.Command {
	f := &territoriesFlags{}
	cmd := &cobra.Command{
		Use:   "territories [--db FILE] [--player NAME] [--json] COMMAND",
		Short: "Referee a live game of territories kept in a database file",
		Long: `Referee a game of territories (nations join on a map, raise armies, move them
and attack their neighbours) for an application that calls once per action:
each action is checked by the rules, stored in the database before the
answer, and the map is redrawn.

  arbiter territories init --config sample --db game.db
  arbiter territories --db game.db --player alice join Pacifica CA
  arbiter territories --db game.db --player bob join Deseret NV
  arbiter territories --db game.db --player alice attack CA NV --json
  arbiter territories --db game.db show

Every call prints one line, or one JSON object with --json. Exit codes:
0 done; 1 the rules refused the action, nothing changed (an unknown
territory, a player with no nation); 2 usage or input that does not parse
(no such game, a bad flag, an unknown action, a name that is not one); 3
an internal or environment failure.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return f.fail(cmd.OutOrStdout(), usagef("name a command: init, join, color, move, raise, attack, pass, end-turn, apply, show, history, map, replay"))
			}
			commands := []string{"init", "join", "color", "move", "raise", "attack", "pass", "end-turn", "apply", "show", "history", "map", "replay"}
			if near := engine.Nearest(args[0], commands); near != "" {
				return f.fail(cmd.OutOrStdout(), usagef("unknown command %q; did you mean %s? The commands are %s", args[0], strings.Join(append([]string{near}, args[1:]...), " "), strings.Join(commands, ", ")))
			}
			return f.fail(cmd.OutOrStdout(), usagef("unknown command %q; the commands are %s", args[0], strings.Join(commands, ", ")))
		},
	}
	// A bad flag, with --json, is told as JSON too: --json is known when
	// it came before the bad flag, or when the process was asked for it.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if f.asJSON || slices.Contains(os.Args[1:], "--json") {
			f.asJSON = true
			return f.fail(c.OutOrStdout(), usageError(flagProblem(err)))
		}
		return usageError(flagProblem(err))
	})
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.db, "db", "", "the game's database file (required)")
	pf.StringVar(&f.player, "player", "", "the player who acts (every action but end-turn)")
	pf.BoolVar(&f.asJSON, "json", false, "print one JSON object (history: an array) for a program to read")
	pf.StringVar(&f.request, "request", "", "an id for this call: the same call repeated with it is answered, not applied, again; another call with it is refused")
	cmd.AddCommand(territoriesInit(f))
	for _, a := range []struct{ use, short string }{
		{"join NATION TERRITORY", "Found a nation with an army on a territory that has none"},
		{"color COLOR", "Set your nation's colour: any CSS colour (red, #f00, rgb(255,0,0), hsl(0,100%,50%))"},
		{"move FROM[:N] TO", "Move N armies (all when N is left out) to a neighbour that is unclaimed or yours"},
		{"raise TERRITORY", "Raise one more army where you have an army"},
		{"attack FROM TO", "Attack another nation's army in a neighbouring territory"},
		{"pass", "Give up the rest of your turn (turn management)"},
		{"end-turn", "End the turn, as the judge (turn management; no --player)"},
	} {
		cmd.AddCommand(territoriesAction(f, a.use, a.short))
	}
	cmd.AddCommand(territoriesApply(f), territoriesShow(f), territoriesHistory(f), territoriesMap(f), territoriesReplay(f))
	return cmd
}

// openGame opens the game named by --db.
func (f *territoriesFlags) open(ctx context.Context) (*tstore.Referee, error) {
	if f.db == "" {
		return nil, usagef("name the game's database: --db FILE")
	}
	r, err := tstore.Open(ctx, f.db, tstore.Options{})
	if err != nil {
		if errors.Is(err, tstore.ErrNoGame) {
			return nil, usageError(err)
		}
		return nil, classify(err)
	}
	return r, nil
}

// fail prints an error as the JSON object {"error": {"code", "message"}}
// when --json is given, and returns it with its exit code.
func (f *territoriesFlags) fail(out io.Writer, err error) error {
	return f.failJudged(out, err, nil)
}

// failJudged is fail for a call refused after the judge's actions it
// made first (judged: the end of a turn whose turn_duration had passed),
// which are stored: they are told before the refusal, as "judged" beside
// its "error" with --json.
func (f *territoriesFlags) failJudged(out io.Writer, err error, judged []territories.Outcome) error {
	if err == nil {
		return nil
	}
	if !f.asJSON {
		for _, j := range judged {
			fmt.Fprintln(out, j)
		}
	}
	err = clipEchoes(classify(err))
	if f.asJSON {
		code := "internal"
		var re *engine.RuleError
		var rc *tstore.RequestConflict
		var e *exitError
		switch {
		case errors.As(err, &re):
			code = re.Code
		case errors.As(err, &rc):
			code = "request-reused"
		case errors.As(err, &e) && e.code == exitUsage:
			code = "usage"
		case errors.As(err, &e) && e.code == exitRefused:
			code = "refused"
		}
		answer := map[string]any{"error": map[string]string{"code": code, "message": err.Error()}}
		if len(judged) > 0 {
			answer["judged"] = judged
		}
		writeJSON(out, answer)
		return err
	}
	if engine.IsRuleError(err) {
		return &exitError{exitRefused, fmt.Errorf("refused: %w", err)}
	}
	return err
}

// maxEcho is how many characters of an input an error message quotes back.
const maxEcho = 64

// quotedInput is a quoted string in an error message, as %q writes it.
var quotedInput = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipInputs shortens every quoted input of an error message longer than
// maxEcho characters to its first maxEcho and its length: "NNN…"…(100000
// bytes). A 100 KB name is not printed back.
func clipInputs(msg string) string {
	if len(msg) <= 2*maxEcho {
		return msg
	}
	return quotedInput.ReplaceAllStringFunc(msg, func(q string) string {
		s, err := strconv.Unquote(q)
		if err != nil || utf8.RuneCountInString(s) <= maxEcho {
			return q
		}
		return fmt.Sprintf("%q…(%d bytes)", wrap.FirstRunes(s, maxEcho), len(s))
	})
}

// clipped is an error whose message quotes its input shortened.
type clipped struct {
	err error
	msg string
}

func (c *clipped) Error() string { return c.msg }
func (c *clipped) Unwrap() error { return c.err }

// clipEchoes returns err with its quoted inputs shortened (see
// clipInputs); it is still err for errors.As and errors.Is.
func clipEchoes(err error) error {
	if err == nil {
		return nil
	}
	if msg := clipInputs(err.Error()); msg != err.Error() {
		return &clipped{err, msg}
	}
	return err
}

// withGame is the body of a subcommand that reads or draws the game in
// --db: it opens the referee, runs do, closes the referee, and reports a
// failure as fail does.
func (f *territoriesFlags) withGame(do func(cmd *cobra.Command, out io.Writer, r *tstore.Referee) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		out := cmd.OutOrStdout()
		if err := refuseUnused(cmd); err != nil {
			return f.fail(out, err)
		}
		r, err := f.open(cmd.Context())
		if err != nil {
			return f.fail(out, err)
		}
		defer r.Close()
		return f.fail(out, do(cmd, out, r))
	}
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func territoriesInit(f *territoriesFlags) *cobra.Command {
	var config string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "init --config FILE|sample --db FILE [--seed N]",
		Short: "Create a game from a configuration and its map",
		Long: `Create a game in a new database file from a configuration (YAML or JSON: the
map, the territories and the numbers; see examples/territories/config.yaml)
and draw its map; --config sample is the sample game of that file, eleven
states of the American West, which ships in arbiter itself. The map's SVG
is checked against the territories and kept in the database. The dice are
seeded from --seed, else the configuration's seed (none for the sample),
else a random 64-bit seed, which is printed. Every attack's answer tells
its roll, from which a small seed can be found by trying them all, and
with it every roll to come: leave the seed to init when players must not
know the dice.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			err := func() error {
				if err := refuseUnused(cmd); err != nil {
					return err
				}
				if config == "" {
					return usagef("name the configuration: --config FILE, or --config sample for the sample game (eleven states of the American West)")
				}
				if f.db == "" {
					return usagef("name the new game's database: --db FILE")
				}
				cfg, svg, err := initSources(cmd.ErrOrStderr(), f.db, config)
				if err != nil {
					return err
				}
				switch {
				case cmd.Flags().Changed("seed"):
					cfg = cfg.WithSeed(seed)
				case cfg.Seed == nil, isSample(config):
					// The sample's own seed is its file's, for the
					// README's game: a game of people draws its dice.
					cfg = cfg.WithSeed(rand.Uint64())
				}
				r, err := tstore.Create(cmd.Context(), f.db, cfg, svg, tstore.Options{})
				if err != nil {
					if errors.Is(err, tstore.ErrExists) {
						return usagef("%s already exists; name a new file, or delete it to start again", f.db)
					}
					if errors.Is(err, tstore.ErrMapFiles) {
						return usageError(err)
					}
					return err
				}
				defer r.Close()
				if err := r.UpdateMap(cmd.Context(), true); err != nil {
					return err
				}
				svgOut, pngOut := r.MapFiles()
				if f.asJSON {
					return writeJSON(out, map[string]any{"db": f.db, "seed": cfg.SeedValue(), "territories": cfg.Len(), "svg": svgOut, "png": pngOut})
				}
				maps := "no map files"
				if files := nonEmpty(svgOut, pngOut); len(files) > 0 {
					maps = "the map in " + strings.Join(files, " and ")
				}
				_, err = fmt.Fprintf(out, "created %s: %d territories, seed %d; %s\n", f.db, cfg.Len(), cfg.SeedValue(), maps)
				return err
			}()
			return f.fail(out, err)
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "the configuration file (YAML or JSON)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed of the dice (default: the configuration's, or random)")
	return cmd
}

// initSources reads the configuration of a new game at db and its map:
// config's file and the map it names, or, for "sample" where no such
// file is, the sample game that ships in the binary. A warning of the
// configuration's goes to warn.
func initSources(warn io.Writer, db, config string) (*territories.Config, []byte, error) {
	if isSample(config) {
		cfg, err := territories.ParseConfig(territories.SampleConfigYAML())
		return cfg, territories.SampleMap(), err
	}
	cfg, err := readTerritoriesConfig(config)
	if err != nil {
		return nil, nil, err
	}
	if w := cfg.Warning(); w != "" {
		fmt.Fprintf(warn, "arbiter: warning: %s: %s\n", config, w)
	}
	if cfg.Map == "" {
		return nil, nil, usagef("%s: map: none given; the referee draws the map after every action: give map, the SVG file of the map (its path relative to the directory of %s)", config, filepath.Base(config))
	}
	mapPath := cfg.Map
	if !filepath.IsAbs(mapPath) {
		mapPath = filepath.Join(filepath.Dir(config), mapPath)
	}
	svg, err := readInput(mapPath)
	if err != nil {
		return nil, nil, usagef("the configuration's map %s: %s", mapPath, pathCause(err))
	}
	if _, err := mapdraw.Parse(svg, cfg); err != nil {
		return nil, nil, usagef("%s: %w", mapPath, err)
	}
	if err := checkSources(db, cfg, [2]string{config, "configuration"}, [2]string{mapPath, "map"}); err != nil {
		return nil, nil, err
	}
	return cfg, svg, nil
}

// isSample reports whether init's --config names the sample game that
// ships in the binary: "sample", where no file of that name is.
func isSample(config string) bool {
	_, err := os.Stat(config)
	return config == "sample" && errors.Is(err, fs.ErrNotExist)
}

// checkSources refuses map files of a new game at db that are the files
// init reads, each a path and what it is (the configuration or the map): the map drawn after every
// action would replace them (--db map.db beside map.svg drew over the
// map, and the next game made from it started with the first one's
// colours).
func checkSources(db string, cfg *territories.Config, sources ...[2]string) error {
	svg, png := tstore.MapFilesOf(db, cfg)
	for _, out := range []string{svg, png} {
		for _, src := range sources {
			if out != "" && sameFile(out, src[0]) {
				return usagef("the map would be drawn into %s, the %s the game is made from (%s), and replace it; name the database otherwise, or give the configuration's output: {svg: FILE, png: FILE}", out, src[1], src[0])
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file: the same path,
// or files that are one (a link).
func sameFile(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// readTerritoriesConfig reads the configuration file of init, at most
// the size a configuration may be.
func readTerritoriesConfig(path string) (*territories.Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--config %s: %s", path, pathCause(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, usagef("--config %s: it is a directory; name the configuration file (YAML or JSON)", path)
	}
	cfg, err := territories.ReadConfig(f)
	if err != nil {
		return nil, usagef("--config %s: %s", path, oneLine(err))
	}
	return cfg, nil
}

// nonEmpty returns the strings that are not "".
func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// territoriesAction is one of the actions: its words are the action.
func territoriesAction(f *territoriesFlags, use, short string) *cobra.Command {
	word, _, _ := strings.Cut(use, " ")
	return &cobra.Command{
		Use:   use,
		Short: short,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if err := f.checkRequest(cmd); err != nil {
				return f.fail(out, err)
			}
			a, err := territories.ParseFields(append([]string{word}, args...))
			if err != nil {
				return f.fail(out, usageError(err))
			}
			switch {
			case a.Kind == territories.EndTurn && f.player != "":
				return f.fail(out, usagef("end-turn is the judge's action: give no --player"))
			case a.Kind != territories.EndTurn && f.player == "":
				return f.fail(out, usagef("name the player who acts: --player NAME"))
			}
			if err := territories.CheckCaller(f.player, a); err != nil {
				return f.fail(out, usagef("--player: %w", err))
			}
			r, err := f.open(cmd.Context())
			if err != nil {
				return f.fail(out, err)
			}
			defer r.Close()
			ack, err := r.Submit(cmd.Context(), tstore.Call{Player: f.player, Action: a, Request: f.request})
			if err != nil {
				return f.fail(out, err)
			}
			// Whatever the answer, a map left behind the log (by a process
			// killed before it drew) is drawn now.
			defer updateMap(cmd, r)
			switch {
			case ack.Conflict != nil:
				return f.fail(out, usageError(fmt.Errorf("--request: %w", ack.Conflict)))
			case ack.Refused != nil:
				return f.failJudged(out, ack.Refused, ack.Judged)
			}
			if err := f.printAck(out, ack); err != nil {
				return classify(err)
			}
			return nil
		},
	}
}

// maxRequest bounds a --request id, in bytes: the log keeps it with the
// call.
const maxRequest = 200

// checkRequest refuses a --request id that is given but empty, or longer
// than maxRequest bytes.
func (f *territoriesFlags) checkRequest(cmd *cobra.Command) error {
	if fl := cmd.Flag("request"); fl == nil || !fl.Changed {
		return nil
	}
	switch {
	case f.request == "":
		return usagef("--request is empty; give the call an id of 1 to %d bytes (the same id again for a retry), or leave the flag out", maxRequest)
	case len(f.request) > maxRequest:
		return usagef("--request is %d bytes long; an id is 1 to %d bytes", len(f.request), maxRequest)
	}
	return nil
}

// refuseUnused refuses the flags of one action, --request and --player,
// on a command that is not one (refuseRequest, refusePlayer).
func refuseUnused(cmd *cobra.Command) error {
	if err := refuseRequest(cmd); err != nil {
		return err
	}
	return refusePlayer(cmd)
}

// refusePlayer refuses --player on a command that is not one action
// (init, apply, show, history, map, replay), which took it and ignored it:
// show --player alice showed every nation, and history --player alice
// every player's actions, as if they were alice's alone.
func refusePlayer(cmd *cobra.Command) error {
	if fl := cmd.Flag("player"); fl == nil || !fl.Changed {
		return nil
	}
	switch cmd.Name() {
	case "show":
		return usagef("show takes no --player: it shows every nation with its player (PLAYER; \"player\" in each of the \"nations\" with --json), a player's nation among them")
	case "history":
		return usagef("history takes no --player: it lists every player's actions, each with its player (PLAYER; \"player\" with --json)")
	case "apply":
		return usagef("apply takes no --player: each line names its player first (PLAYER ACTION, \"alice raise CA\")")
	}
	return usagef("%s takes no --player: only an action (join, color, move, raise, attack, pass) is a player's", cmd.Name())
}

// refuseRequest refuses --request on a command that is not one action
// (init, apply, show, history, map, replay), which would otherwise take
// it and ignore it: an apply retried with the same id would apply its
// lines again.
func refuseRequest(cmd *cobra.Command) error {
	if fl := cmd.Flag("request"); fl == nil || !fl.Changed {
		return nil
	}
	if cmd.Name() == "apply" {
		return usagef("apply takes no --request: its lines are applied again each time they are given; give an action of its own with --request (arbiter territories --player NAME --request ID ACTION) where a call may be retried")
	}
	return usagef("%s takes no --request: only an action (join, color, move, raise, attack, pass, end-turn) has an id to retry it by", cmd.Name())
}

// updateMap redraws the map files if they are behind the log. What was
// accepted is stored already, so a failure is a warning, not an error: the
// caller must not retry the actions.
func updateMap(cmd *cobra.Command, r *tstore.Referee) {
	if err := r.UpdateMap(cmd.Context(), false); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "arbiter: warning: the map was not redrawn (what was accepted is stored): %v\n", err)
	}
}

// printAck prints an accepted action's answer: one line, or one JSON
// object (the outcome, with "judged" for turns the judge ended first and
// "repeat" for a request answered before).
func (f *territoriesFlags) printAck(out io.Writer, ack tstore.Ack) error {
	if !f.asJSON {
		var b strings.Builder
		for _, j := range ack.Judged {
			fmt.Fprintf(&b, "%s; ", j)
		}
		b.WriteString(ack.Outcome.String())
		if ack.Repeat {
			b.WriteString(" (answered before, request " + f.request + ")")
		}
		_, err := fmt.Fprintln(out, b.String())
		return err
	}
	o, err := json.Marshal(ack.Outcome)
	if err != nil {
		return err
	}
	var extra []string
	if len(ack.Judged) > 0 {
		j, err := json.Marshal(ack.Judged)
		if err != nil {
			return err
		}
		extra = append(extra, `"judged":`+string(j))
	}
	if ack.Repeat {
		extra = append(extra, `"repeat":true`)
	}
	if len(extra) > 0 {
		o = append(append(o[:len(o)-1], ','), strings.Join(extra, ",")+"}"...)
	}
	_, err = fmt.Fprintf(out, "%s\n", o)
	return err
}

// Limits of arbiter territories apply.
const (
	maxApplyLine  = 4096  // bytes in one line: a player's name and an action, with room to spare
	maxApplyGroup = 10000 // --group: a group's lines are held in memory
)

func territoriesApply(f *territoriesFlags) *cobra.Command {
	var group int
	cmd := &cobra.Command{
		Use:   "apply [FILE]",
		Short: "Apply many actions, one per line: PLAYER ACTION (judge for end-turn)",
		Long: `Apply actions read from FILE (or standard input, as they come), one per line:
the player, then the action, as in "alice attack CA NV" ("judge end-turn"
for the judge; a player's name of several words in double quotes:
"Alice Smith" raise CA). Each is answered with one line (one JSON object with
--json) once it is stored. --group N stores N lines in one transaction:
one write to the disk for all of them (from standard input, up to N of the
lines that have arrived). The map is redrawn once the lines read so far are
stored: at the end of a file, or whenever standard input pauses. Blank
lines and lines starting with # are skipped; a line is at most 4096 bytes.

Exit code: 0 when every action was accepted, 1 when the rules refused one
or more (the others were applied), 2 when a line did not parse.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if err := refuseUnused(cmd); err != nil {
				return f.fail(out, err)
			}
			if group < 1 || group > maxApplyGroup {
				return f.fail(out, usagef("--group %d: allowed 1 to %d", group, maxApplyGroup))
			}
			in := cmd.InOrStdin()
			if len(args) == 1 && args[0] != "-" {
				file, err := os.Open(args[0])
				if err != nil {
					return f.fail(out, usagef("%s: %s", args[0], pathCause(err)))
				}
				defer file.Close()
				if st, err := file.Stat(); err == nil && st.IsDir() {
					return f.fail(out, usagef("%s: it is a directory; name a file of actions, one per line", args[0]))
				}
				in = file
			}
			r, err := f.open(cmd.Context())
			if err != nil {
				return f.fail(out, err)
			}
			defer r.Close()
			bw := bufio.NewWriter(out)
			defer bw.Flush()
			g := &applier{f: f, r: r, cmd: cmd, out: bw}
			defer updateMap(cmd, r)
			if err := g.run(in, group); err != nil {
				return f.fail(bw, err)
			}
			return g.summary()
		},
	}
	cmd.Flags().IntVar(&group, "group", 1, "lines stored per transaction, at most")
	return cmd
}

// summary is the end of apply: nil when every action was accepted, else
// what went wrong, counting the lines that did not parse and the actions
// the rules refused ("2 lines did not parse and the rules refused 1 of 5
// actions; the others were applied"), exit 2 if a line did not parse, else 1.
func (g *applier) summary() error {
	var parts []string
	switch {
	case g.bad == 1:
		parts = append(parts, "1 line did not parse")
	case g.bad > 1:
		parts = append(parts, fmt.Sprintf("%d lines did not parse", g.bad))
	}
	if g.refused > 0 {
		parts = append(parts, fmt.Sprintf("the rules refused %d of %d actions", g.refused, g.lines))
	}
	if len(parts) == 0 {
		return nil
	}
	err := fmt.Errorf("%s; the others were applied", strings.Join(parts, " and "))
	if g.bad > 0 {
		return &exitError{exitUsage, err}
	}
	return &exitError{exitRefused, err}
}

// applyLine is one line of apply's input, with its number from 1.
type applyLine struct {
	text string
	n    int
}

// applier applies the lines of arbiter territories apply.
type applier struct {
	f                   *territoriesFlags
	r                   *tstore.Referee
	cmd                 *cobra.Command
	out                 *bufio.Writer
	lines, refused, bad int // actions read, refused, not parsed

	// One group's lines, reused.
	slots []applySlot
	calls []tstore.Call
}

// applySlot is one line of a group: its text, and its call or why it did
// not parse.
type applySlot struct {
	text string
	n    int // the line's number, from 1
	call int // index in calls, or -1 for a line that did not parse
	err  error
}

// run applies the lines of in in groups of at most group. A regular file
// is read in whole groups, and the map is drawn at its end; any other
// input (a pipe, a terminal) is applied as it comes: a group is the lines
// that have arrived, and the map is drawn whenever no more have.
func (g *applier) run(in io.Reader, group int) error {
	lines := newLineReader(in)
	if f, ok := in.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return g.runFile(lines, group)
		}
	}
	return g.runStream(lines, group)
}

// runFile applies a file in groups of exactly group lines.
func (g *applier) runFile(lines *lineReader, group int) error {
	batch := make([]applyLine, 0, min(group, 4096))
	for {
		batch = batch[:0]
		var err error
		for len(batch) < group {
			var line applyLine
			if line, err = lines.next(); err != nil {
				break
			}
			batch = append(batch, line)
		}
		if len(batch) > 0 {
			if err := g.apply(batch); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// runStream applies lines as they arrive: it waits for one, then takes
// those that have arrived meanwhile, up to group.
func (g *applier) runStream(lines *lineReader, group int) error {
	queue := make(chan applyLine, min(group, 4096))
	readErr := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(queue)
		for {
			line, err := lines.next()
			if err != nil {
				if err != io.EOF {
					readErr <- err
				}
				return
			}
			select {
			case queue <- line:
			case <-stop:
				return
			}
		}
	}()
	var batch []applyLine
	for {
		batch = batch[:0]
		line, ok := <-queue
		if !ok {
			break
		}
		batch = append(batch, line)
	more:
		for len(batch) < group {
			select {
			case l, ok := <-queue:
				if !ok {
					break more
				}
				batch = append(batch, l)
			default:
				break more
			}
		}
		if err := g.apply(batch); err != nil {
			return err
		}
		if len(queue) == 0 {
			updateMap(g.cmd, g.r) // the input has paused: show where the game is
		}
	}
	select {
	case err := <-readErr:
		return err
	default:
	}
	return nil
}

// lineReader reads the lines of apply, refusing a line longer than
// maxApplyLine (a file with no line ends, such as /dev/zero, included).
type lineReader struct {
	in *bufio.Reader
	n  int // lines read
}

func newLineReader(in io.Reader) *lineReader {
	return &lineReader{in: bufio.NewReaderSize(in, 64<<10)}
}

// next returns the next line with its number, io.EOF at the end, or an
// error: a line too long, or the input failing.
func (l *lineReader) next() (applyLine, error) {
	line, err := l.in.ReadSlice('\n')
	if len(line) > maxApplyLine || err == bufio.ErrBufferFull {
		return applyLine{}, usagef("line %d is longer than %d bytes; a line is PLAYER ACTION (the lines before it were applied)", l.n+1, maxApplyLine)
	}
	if len(line) > 0 {
		l.n++
		text := string(line)
		if l.n == 1 {
			// A byte order mark, which Windows editors write first, is
			// not part of the first player's name.
			text = strings.TrimPrefix(text, "\ufeff")
		}
		return applyLine{text, l.n}, nil
	}
	if err != nil && err != io.EOF {
		return applyLine{}, classify(fmt.Errorf("reading the actions: %w", err))
	}
	return applyLine{}, err
}

// apply stores one group of lines and prints their answers in order.
func (g *applier) apply(batch []applyLine) error {
	g.slots, g.calls = g.slots[:0], g.calls[:0]
	for _, numbered := range batch {
		line := strings.TrimSpace(numbered.text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g.lines++
		player, rest, err := cutPlayer(line)
		var a territories.Action
		if err == nil {
			a, err = territories.ParseAction(rest)
			if f := strings.Fields(rest); err != nil && !strings.HasPrefix(line, `"`) && len(f) > 1 && !isActionWord(f[0]) && isActionWord(f[1]) {
				// Alice Smith raise CA: a name of two words.
				err = fmt.Errorf("%w; a line is PLAYER ACTION, and a player's name of several words is written in double quotes: \"%s %s\" %s", err, player, f[0], strings.Join(f[1:], " "))
			}
		}
		if err == nil {
			err = territories.CheckCaller(player, a)
		}
		if err != nil {
			g.slots = append(g.slots, applySlot{line, numbered.n, -1, usageError(fmt.Errorf("%q: %w", line, err))})
			continue
		}
		g.slots = append(g.slots, applySlot{line, numbered.n, len(g.calls), nil})
		g.calls = append(g.calls, tstore.Call{Player: player, Action: a})
	}
	var acks []tstore.Ack
	if len(g.calls) > 0 {
		var err error
		if acks, err = g.r.SubmitBatch(g.cmd.Context(), g.calls); err != nil {
			return err
		}
	}
	for _, s := range g.slots {
		switch {
		case s.call < 0:
			g.bad++
			g.printError(s.n, s.err)
		case acks[s.call].Refused != nil:
			g.refused++
			g.printError(s.n, fmt.Errorf("%s: %w", s.text, acks[s.call].Refused), acks[s.call].Judged...)
		default:
			if err := g.f.printAck(g.out, acks[s.call]); err != nil {
				return err
			}
		}
	}
	return g.out.Flush()
}

// cutPlayer cuts an apply line into its player and its action: the
// player is the first word, or the first words in double quotes ("Alice
// Smith" raise CA); an unquoted judge is the judge.
func cutPlayer(line string) (player, action string, err error) {
	if rest, quoted := strings.CutPrefix(line, `"`); quoted {
		name, after, closed := strings.Cut(rest, `"`)
		switch {
		case !closed:
			return "", "", errors.New(`the player's name opens a double quote that is not closed: "Alice Smith" raise CA`)
		case after != "" && !unicode.IsSpace([]rune(after)[0]):
			return "", "", errors.New(`the player's name in double quotes is followed by a space and the action: "Alice Smith" raise CA`)
		}
		return name, strings.TrimSpace(after), nil
	}
	player, action, _ = strings.Cut(line, " ")
	if player == "judge" {
		player = territories.Judge
	}
	return player, action, nil
}

// isActionWord reports whether word is an action's.
func isActionWord(word string) bool {
	switch strings.ToLower(word) {
	case "join", "color", "colour", "move", "raise", "attack", "pass", "end-turn":
		return true
	}
	return false
}

// printError prints the refusal of line n: a JSON error object with its
// line, or "arbiter: refused: line n: …" on standard error. judged are
// the judge's actions the line made first, which are stored: told before
// it, as "judged" beside its "error" with --json.
func (g *applier) printError(n int, err error, judged ...territories.Outcome) {
	err = clipEchoes(err)
	if g.f.asJSON {
		code := "bad-action"
		var re *engine.RuleError
		if errors.As(err, &re) {
			code = re.Code
		}
		answer := map[string]any{"error": map[string]any{"code": code, "message": err.Error(), "line": n}}
		if len(judged) > 0 {
			answer["judged"] = judged
		}
		writeJSON(g.out, answer)
		return
	}
	for _, j := range judged {
		fmt.Fprintln(g.out, j)
	}
	g.out.Flush()
	fmt.Fprintf(g.cmd.ErrOrStderr(), "arbiter: refused: line %d: %v\n", n, err)
}

func territoriesShow(f *territoriesFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Show the nations, their players, colours and holdings",
		Args:  noArgs,
		RunE: f.withGame(func(cmd *cobra.Command, out io.Writer, r *tstore.Referee) error {
			w, err := r.World(cmd.Context())
			switch {
			case err != nil:
				return err
			case f.asJSON:
				return writeJSON(out, showJSON(w))
			}
			return writeShow(out, f.db, w)
		}),
	}
}

// shownGame is arbiter territories show --json.
type shownGame struct {
	Actions   int            `json:"actions"`
	Turn      int            `json:"turn,omitempty"`
	Nations   []shownNation  `json:"nations"`
	Holdings  []shownHolding `json:"holdings"`
	Unclaimed []string       `json:"unclaimed"`
}

type shownNation struct {
	Name        string            `json:"name"`
	Player      string            `json:"player"`
	Color       territories.Color `json:"color"`
	Territories int               `json:"territories"`
	Armies      int               `json:"armies"`
	Out         int               `json:"out,omitempty"`
	ActionsLeft *int              `json:"actions_left,omitempty"`
}

type shownHolding struct {
	Territory string `json:"territory"`
	Name      string `json:"name"`
	Nation    string `json:"nation"`
	Armies    int    `json:"armies"`
}

func showJSON(w *territories.World) shownGame {
	cfg := w.Config()
	g := shownGame{Actions: w.Seq(), Turn: w.Turn(), Nations: []shownNation{}, Holdings: []shownHolding{}, Unclaimed: []string{}}
	for k := range w.Nations() {
		n := w.Nation(k)
		sn := shownNation{Name: n.Name, Player: n.Player, Color: n.Color, Territories: w.Holdings(k), Armies: w.Armies(k), Out: n.Out}
		if cfg.TurnManagement && n.In() {
			left := n.ActionsLeft()
			sn.ActionsLeft = &left
		}
		g.Nations = append(g.Nations, sn)
	}
	for i := range cfg.Len() {
		t := cfg.Territory(i)
		if h := w.Holding(i); h.Nation >= 0 {
			g.Holdings = append(g.Holdings, shownHolding{t.ID, t.Name, w.Nation(h.Nation).Name, h.Armies})
		} else {
			g.Unclaimed = append(g.Unclaimed, t.ID)
		}
	}
	return g
}

func writeShow(out io.Writer, db string, w *territories.World) error {
	g := showJSON(w)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %d territories, %d nations, %d actions", db, w.Config().Len(), len(g.Nations), g.Actions)
	if g.Turn > 0 {
		fmt.Fprintf(&b, ", turn %d", g.Turn)
	}
	b.WriteString("\n")
	if len(g.Nations) == 0 {
		b.WriteString("no nations yet: arbiter territories --db " + db + " --player NAME join NATION TERRITORY\n")
	} else {
		header := []string{"NATION", "PLAYER", "COLOUR", "TERRITORIES", "ARMIES", "HOLDINGS"}
		if g.Turn > 0 {
			header = append(header, "ACTIONS LEFT")
		}
		rows := [][]string{header}
		for _, n := range g.Nations {
			if n.Out != 0 {
				rows = append(rows, []string{n.Name, n.Player, string(n.Color), "-", "-", fmt.Sprintf("out of the game (action %d)", n.Out)})
				continue
			}
			var held []string
			for _, h := range g.Holdings {
				if h.Nation == n.Name {
					held = append(held, fmt.Sprintf("%s %d", h.Territory, h.Armies))
				}
			}
			row := []string{n.Name, n.Player, string(n.Color), strconv.Itoa(n.Territories), strconv.Itoa(n.Armies), strings.Join(held, ", ")}
			if n.ActionsLeft != nil {
				row = append(row, strconv.Itoa(*n.ActionsLeft))
			}
			rows = append(rows, row)
		}
		writeTable(&b, rows)
	}
	if len(g.Unclaimed) > 0 {
		fmt.Fprintf(&b, "unclaimed: %s\n", strings.Join(g.Unclaimed, ", "))
	}
	_, err := out.Write(b.Bytes())
	return err
}

func territoriesHistory(f *territoriesFlags) *cobra.Command {
	var after int
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List every accepted action with its dice",
		Args:  noArgs,
		RunE: f.withGame(func(cmd *cobra.Command, out io.Writer, r *tstore.Referee) error {
			log, err := r.History(cmd.Context(), after)
			if err != nil {
				return err
			}
			if f.asJSON {
				if log == nil {
					log = []tstore.Entry{}
				}
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				return enc.Encode(log)
			}
			rows := [][]string{{"#", "PLAYER", "ACTION", "DICE", "OUTCOME"}}
			for _, e := range log {
				var o territories.Outcome
				text := string(e.Outcome)
				if json.Unmarshal(e.Outcome, &o) == nil {
					text = o.String()
				}
				player := e.Player
				if player == "" {
					player = "(judge)"
				}
				rows = append(rows, []string{strconv.Itoa(e.Seq), player, e.Action, dice(e), text})
			}
			return writeTable(out, rows)
		}),
	}
	cmd.Flags().IntVar(&after, "after", 0, "only the actions after this one")
	return cmd
}

// dice describes a log entry's draws: an attack's roll, a join's colour.
func dice(e tstore.Entry) string {
	if len(e.Dice) == 0 {
		return "-"
	}
	word := "draw"
	switch {
	case strings.HasPrefix(e.Action, "attack "):
		word = "roll"
	case strings.HasPrefix(e.Action, "join "):
		word = "colour draw"
	}
	parts := make([]string, len(e.Dice))
	for i, d := range e.Dice {
		parts[i] = fmt.Sprint(d)
	}
	return word + " " + strings.Join(parts, ", ")
}

func territoriesMap(f *territoriesFlags) *cobra.Command {
	var outFile string
	cmd := &cobra.Command{
		Use:   "map [--out FILE.svg|FILE.png]",
		Short: "Draw the map: into --out, or into the game's map files",
		Args:  noArgs,
		RunE: f.withGame(func(cmd *cobra.Command, out io.Writer, r *tstore.Referee) error {
			var files []string
			if outFile != "" {
				ext := strings.ToLower(filepath.Ext(outFile))
				if ext != ".svg" && ext != ".png" {
					return usagef("--out %s: name a .svg or a .png file", outFile)
				}
				if dir := filepath.Dir(outFile); dir != "" {
					if st, err := os.Stat(dir); err != nil {
						return usagef("--out %s: the directory %s: %v", outFile, dir, pathCause(err))
					} else if !st.IsDir() {
						return usagef("--out %s: %s is not a directory", outFile, dir)
					}
				}
				if err := r.WriteMap(cmd.Context(), outFile); err != nil {
					if errors.Is(err, tstore.ErrMapFiles) {
						return usageError(err)
					}
					return err
				}
				files = []string{outFile}
			} else {
				if err := r.UpdateMap(cmd.Context(), true); err != nil {
					return err
				}
				svg, png := r.MapFiles()
				for _, p := range []string{svg, png} {
					if p != "" {
						files = append(files, p)
					}
				}
				if len(files) == 0 {
					return usagef("the game's configuration draws no map files (output: none); give --out FILE")
				}
			}
			if f.asJSON {
				return writeJSON(out, map[string]any{"files": files})
			}
			_, err := fmt.Fprintf(out, "drew the map: %s\n", strings.Join(files, ", "))
			return err
		}),
	}
	cmd.Flags().StringVar(&outFile, "out", "", "the file to draw: .svg or .png (default: the game's map files)")
	return cmd
}

func territoriesReplay(f *territoriesFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "replay",
		Short: "Replay the log into a fresh database and compare every table",
		Long: `Replay the game's log of actions, from its configuration and seed, into a fresh
in-memory database through the same code that wrote it, and compare each
action's dice and answer, the actions, nations and holdings tables and the
rules' state. Exit code 1 when anything differs. (arbiter replay FILE does
the same for a territories database.)`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := refuseUnused(cmd); err != nil {
				return f.fail(cmd.OutOrStdout(), err)
			}
			return replayTerritories(cmd, f.db, f.asJSON)
		},
	}
}

// replayTerritories verifies a territories database: arbiter territories
// replay, and arbiter replay of a database file.
func replayTerritories(cmd *cobra.Command, db string, asJSON bool) error {
	f := &territoriesFlags{db: db, asJSON: asJSON}
	out := cmd.OutOrStdout()
	r, err := f.open(cmd.Context())
	if err != nil {
		return f.fail(out, err)
	}
	defer r.Close()
	v, err := r.Verify(cmd.Context())
	if err != nil {
		return f.fail(out, err)
	}
	if asJSON {
		if v.Problems == nil {
			v.Problems = []string{}
		}
		if err := writeJSON(out, map[string]any{"file": db, "ok": v.OK(), "actions": v.Actions, "problems": v.Problems}); err != nil {
			return classify(err)
		}
	} else if v.OK() {
		fmt.Fprintf(out, "%s: territories, %d actions\nok: the replay of the log rebuilds exactly the actions, nations and holdings tables and the state\n", db, v.Actions)
	}
	if !v.OK() {
		if !asJSON {
			fmt.Fprintf(out, "%s: territories, %d actions\n", db, v.Actions)
			for _, p := range v.Problems {
				fmt.Fprintf(out, "  %s\n", p)
			}
		}
		return &exitError{exitRefused, fmt.Errorf("%s: the replay of the log differs from the file (%d differences)", db, len(v.Problems))}
	}
	return nil
}

// isTerritoriesDB reports whether the file at path begins as an SQLite
// database does (arbiter replay takes it for a game of territories, which
// the referee then checks), reading only its first bytes.
func isTerritoriesDB(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := []byte("SQLite format 3\x00")
	head := make([]byte, len(magic))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, magic)
}
