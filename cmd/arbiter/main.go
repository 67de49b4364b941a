// Command arbiter referees turn-based strategy games played by bots and
// people: it plays matches and series, replays and checks match records, and
// steps a game's pure rules for world authors.
//
// Run arbiter --help for the commands; arbiter play ajveciv plays a game of
// AjveCiv among the built-in AIs and prints its report.
//
// Exit codes: 0 done; 1 the input was processed but the rules refused
// something (an illegal move, a record that does not replay); 2 usage or
// invalid input (bad flags, unknown names, files that do not parse); 3 an
// internal or environment failure (I/O, interruption, a bug).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first Ctrl-C stops play, keeping what was played; a second one
	// kills at once.
	context.AfterFunc(ctx, stop)
	defer player.CloseConsole()
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	err = optionFlag(cmd, err)
	fmt.Fprintf(stderr, "arbiter: %v\n", err)
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitUsage // cobra's own errors: unknown commands, bad arguments
}

// versionText says which Arbiter this is: the module's version (with the
// commit it was built from, when known), and each game's rules version,
// which its match records carry.
func versionText() string {
	var b strings.Builder
	version, commit := "(devel)", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" {
			version = v
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				commit = s.Value[:12]
			}
		}
	}
	fmt.Fprintf(&b, "arbiter %s", version)
	if commit != "" {
		fmt.Fprintf(&b, " (commit %s)", commit)
	}
	fmt.Fprintf(&b, ", %s, protocol %d\nrules versions:", runtime.Version(), player.ProtocolVersion)
	for _, g := range catalog.Games() {
		fmt.Fprintf(&b, " %s %s", g.Info().Name, g.Info().Version)
		if g != catalog.Games()[len(catalog.Games())-1] {
			b.WriteByte(',')
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// Exit codes.
const (
	exitRefused  = 1
	exitUsage    = 2
	exitInternal = 3
)

// exitError carries the exit code of an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad flags, unknown names and input that does not parse.
func usageError(err error) error { return &exitError{exitUsage, err} }

// badFlagValue is how the flag package says a value does not parse:
// invalid argument "abc" for "--seed" flag: strconv.ParseUint: ...
var badFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: (strconv\.Parse(Uint|Int|Float|Bool)|time: )?`)

// flagProblem words a flag's value that does not parse for people: the
// flag, the value and what it takes, without the parser's own words.
func flagProblem(err error) error {
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	rest := err.Error()[len(m[0]):]
	want := ""
	switch {
	case strings.HasSuffix(rest, "value out of range"):
		want = "it is out of range"
	case m[4] == "Uint":
		want = "give a whole number, 0 or more"
	case m[4] == "Int":
		want = "give a whole number"
	case m[4] == "Float":
		want = "give a number"
	case m[4] == "Bool":
		want = "give true or false"
	case m[3] == "time: ":
		want = "give a duration such as 500ms, 2s or 1m30s"
	default:
		return err
	}
	return fmt.Errorf("%s %q: %s", m[2], m[1], want)
}

// usagef is usageError with a formatted message.
func usagef(format string, args ...any) error { return usageError(fmt.Errorf(format, args...)) }

// classify gives err its exit code: a rule's refusal or a record that does
// not replay is 1, anything already classified keeps its code, and
// everything else is an internal or environment failure, 3.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var e *exitError
	var re *engine.ReplayError
	var absent *tournament.AbsentError
	switch {
	case errors.As(err, &e):
		return err
	case errors.As(err, &absent):
		return &exitError{exitRefused, err}
	case catalog.IsInvalid(err):
		return &exitError{exitUsage, err}
	case engine.IsRuleError(err), errors.As(err, &re), errors.Is(err, engine.ErrEdited):
		return &exitError{exitRefused, err}
	}
	return &exitError{exitInternal, err}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "arbiter",
		Short: "A referee for turn-based strategy games played by bots and people",
		Long: `Arbiter referees turn-based strategy games played by AI bots and people.
It plays matches and series at full speed, keeps every match as a replayable
record, and reports what happened as text, JSON and charts.

Start with:  arbiter play ajveciv                        six AIs play a game
             arbiter play ajveciv --players repl,basic  you play against them`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError(flagProblem(unknownFlag(c, err))) })
	fitHelp(root)
	root.AddCommand(gamesCommand(), rulesCommand(), playCommand(), tournamentCommand(), replayCommand(), stepCommand())
	root.AddCommand(duelCommand(), aiCommand())
	root.AddCommand(zombieCommand())
	root.AddCommand(territoriesCommand())
	root.AddCommand(serveCommand(), loadCommand())
	// "arbiter version", as other tools take it, is --version.
	root.AddCommand(&cobra.Command{
		Use:    "version",
		Short:  "Print Arbiter's version and each game's rules version (as --version)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(cmd.OutOrStdout(), root.Version)
			return classify(err)
		},
	})
	return root
}
