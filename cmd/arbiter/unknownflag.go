package main

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownFlagError is how the flag package says a flag is not one of the
// command's: "unknown flag: --preset".
var unknownFlagError = regexp.MustCompile(`^unknown flag: --([^\s=]+)$`)

// unknownFlag adds to err, when it is an unknown flag of cmd, the flag a
// typo meant ("did you mean --seed?") or else the commands that take it
// ("--preset is a flag of arbiter play tncc"): a game's option given to
// another game, or a flag given to the wrong command. Other errors are
// returned as they are.
func unknownFlag(cmd *cobra.Command, err error) error {
	m := unknownFlagError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	name := m[1]
	// "arbiter play tnc --seed 1": the flag is unknown because the game
	// is; say that, not that --seed is no flag of play.
	if args := cmd.Flags().Args(); len(args) > 0 && takesGame(cmd) {
		if _, ferr := findGame(args[0]); ferr != nil {
			return ferr
		}
	}
	var own []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			own = append(own, f.Name)
		}
	})
	if near := engine.Nearest(name, own); near != "" {
		return fmt.Errorf("%v; did you mean --%s?", err, near)
	}
	// The commands that take it: the command's siblings first (another
	// game of the same command), then the same game's other commands, then
	// the rest, each in the order of the help.
	var siblings, game, rest []string
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		if c.HasParent() && !c.IsAvailableCommand() {
			return
		}
		if c != cmd && c.Runnable() && c.Flags().Lookup(name) != nil {
			switch {
			case c.HasParent() && cmd.HasParent() && c.Parent() == cmd.Parent():
				siblings = append(siblings, c.CommandPath())
			case c.Name() == cmd.Name():
				game = append(game, c.CommandPath())
			default:
				rest = append(rest, c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(cmd.Root())
	takers := collapse(append(append(siblings, game...), rest...))
	help := fmt.Sprintf("%s --help lists its flags", cmd.CommandPath())
	switch n := len(takers); {
	case n == 0:
		// Another tool's words around one of this command's flags
		// (--max-games for --games): that one is meant, most likely.
		if part := partOf(name, own); part != "" {
			return fmt.Errorf("%v; did you mean --%s? (%s)", err, part, help)
		}
		return fmt.Errorf("%v; %s", err, help)
	case n <= 5:
		return fmt.Errorf("%v; --%s is a flag of %s (%s)", err, name, engine.Or(takers), help)
	default:
		return fmt.Errorf("%v; --%s is a flag of %s and %d more (%s)", err, name, strings.Join(takers[:5], ", "), n-5, help)
	}
}

// takesGame reports whether cmd is a command with a subcommand for every
// game (arbiter play GAME, tournament GAME, duel GAME).
func takesGame(cmd *cobra.Command) bool {
	for _, name := range catalog.Names() {
		if !slices.ContainsFunc(cmd.Commands(), func(c *cobra.Command) bool { return c.Name() == name }) {
			return false
		}
	}
	return true
}

// collapse writes the commands of every game under one command as one,
// "arbiter play GAME", where the first of them was; the others stay.
func collapse(paths []string) []string {
	games := map[string]int{}
	for _, p := range paths {
		if parent, game, ok := cutGame(p); ok && slices.Contains(catalog.Names(), game) {
			games[parent]++
		}
	}
	var out []string
	done := map[string]bool{}
	for _, p := range paths {
		parent, game, ok := cutGame(p)
		switch {
		case !ok || !slices.Contains(catalog.Names(), game) || games[parent] < len(catalog.Names()):
			out = append(out, p)
		case !done[parent]:
			done[parent] = true
			out = append(out, parent+" GAME")
		}
	}
	return out
}

// cutGame splits a command's path at its last word.
func cutGame(path string) (parent, last string, ok bool) {
	i := strings.LastIndexByte(path, ' ')
	if i < 0 {
		return "", "", false
	}
	return path[:i], path[i+1:], true
}

// optionFlag names the flag that gave an option in an error a game wrote of
// the option for any host ("option preset: unknown preset ..."): "--preset
// tribble: unknown preset ...". Other errors, and those of options not
// given by their flag, are returned as they are.
func optionFlag(cmd *cobra.Command, err error) error {
	if cmd == nil || err == nil {
		return err
	}
	g, ferr := catalog.Find(cmd.Name())
	if ferr != nil || g.Info().Name != cmd.Name() {
		return err
	}
	for _, o := range g.Info().Options {
		rest, ok := strings.CutPrefix(err.Error(), "option "+o.Name+": ")
		f := cmd.Flags().Lookup(flagName(o))
		if !ok || f == nil || !f.Changed {
			continue
		}
		v := f.Value.String()
		if short := wrap.FirstRunes(v, 40); short != v {
			v = short + "…"
		}
		code := exitUsage
		var e *exitError
		if errors.As(err, &e) {
			code = e.code
		}
		if o.File != "" {
			// "--preset my.yaml": a file meant for the option's file flag.
			if info, serr := os.Stat(f.Value.String()); serr == nil && info.Mode().IsRegular() {
				rest += fmt.Sprintf("; %s is a file: give it as --%s %s", f.Value.String(), o.File, f.Value.String())
			}
		}
		return &exitError{code, fmt.Errorf("--%s %q: %s", f.Name, v, rest)}
	}
	return err
}

// partOf returns the longest of names that name holds as whole words
// joined by hyphens ("games" in "max-games"), or "".
func partOf(name string, names []string) string {
	best := ""
	words := "-" + strings.ToLower(name) + "-"
	for _, n := range names {
		if len(n) > len(best) && len(n) >= 3 && strings.Contains(words, "-"+n+"-") {
			best = n
		}
	}
	return best
}
