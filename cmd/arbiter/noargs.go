package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/spf13/cobra"
)

// noArgs refuses arguments, as cobra.NoArgs does, for a command whose
// every input is a flag, but says which flag an argument was meant for:
// "arbiter play tncc general,blitz" is told to give --players
// general,blitz, "arbiter zombie run game.txt" --script game.txt,
// "arbiter play tncc tribe" --preset tribe. cobra.NoArgs said only
// `unknown command "general,blitz" for "arbiter play tncc"`, as if a
// subcommand had been misspelt.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	given := strings.Join(args, " ")
	if hint := argHint(cmd, args); hint != "" {
		return usagef("%s takes no arguments, and %q is given: %s", cmd.CommandPath(), given, hint)
	}
	return usagef("%s takes no arguments, and %q is given; its flags are in %s --help", cmd.CommandPath(), given, cmd.CommandPath())
}

// argHint says which of cmd's flags takes args, or "".
func argHint(cmd *cobra.Command, args []string) string {
	has := func(flag string) bool { return cmd.Flags().Lookup(flag) != nil }
	// A game's players, or one of its presets.
	if g, err := catalog.Find(cmd.Name()); err == nil {
		info := g.Info()
		if has("players") && allPlayers(args, info.Players) {
			return "give the players as --players " + strings.Join(args, ",")
		}
		if len(args) == 1 && has("preset") && slices.Contains(info.Presets, args[0]) {
			return "give the preset as --preset " + args[0]
		}
	}
	if len(args) != 1 {
		return ""
	}
	// A file, given to the flag that reads its kind.
	arg := args[0]
	byExt := map[string][]string{
		".yaml": {"config"}, ".yml": {"config"}, ".json": {"config", "state"},
		".txt": {"script"}, ".db": {"db"}, ".sqlite": {"db"},
	}
	for _, flag := range byExt[strings.ToLower(filepath.Ext(arg))] {
		if has(flag) {
			return fmt.Sprintf("give it as --%s %s", flag, arg)
		}
	}
	return ""
}

// allPlayers reports whether every one of args, split at commas, is a
// player of a game whose players are names (its --help's list: "basic",
// "basic.<value>", "mcts:ms=<n>"), a program (exec:...) or a bot's URL.
func allPlayers(args []string, names []string) bool {
	bases := map[string]bool{"repl": true}
	for _, n := range names {
		base, _, _ := strings.Cut(n, ":")
		base, _, _ = strings.Cut(base, ".")
		bases[base] = true
	}
	any := false
	for _, a := range args {
		for p := range strings.SplitSeq(a, ",") {
			base, _, _ := strings.Cut(p, ":")
			base, _, _ = strings.Cut(base, ".")
			switch {
			case p == "":
			case strings.HasPrefix(p, "exec:"), strings.HasPrefix(p, "http://"), strings.HasPrefix(p, "https://"), bases[base]:
				any = true
			default:
				return false
			}
		}
	}
	return any
}
