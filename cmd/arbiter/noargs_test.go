package main

import (
	"strings"
	"testing"
)

func TestAnArgumentIsPointedToItsFlag(t *testing.T) {
	// A command whose every input is a flag, given an argument, says which
	// flag takes it: a newcomer's "arbiter play tncc general,blitz" was
	// told `unknown command "general,blitz"`, as if a subcommand had been
	// misspelt.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "tncc", "general,blitz"}, `arbiter play tncc takes no arguments, and "general,blitz" is given: give the players as --players general,blitz`},
		{[]string{"tournament", "reaj", "steward", "adapt"}, `arbiter tournament reaj takes no arguments, and "steward adapt" is given: give the players as --players steward,adapt`},
		{[]string{"play", "ajveciv", "basic.develop,mcts:ms=5"}, `give the players as --players basic.develop,mcts:ms=5`},
		{[]string{"play", "tncc", "tribe"}, `give the preset as --preset tribe`},
		{[]string{"play", "tncc", "mine.yaml"}, `give it as --config mine.yaml`},
		{[]string{"play", "territories", "board.json"}, `give it as --config board.json`},
		{[]string{"zombie", "run", "game.txt"}, `arbiter zombie run takes no arguments, and "game.txt" is given: give it as --script game.txt`},
		{[]string{"zombie", "new-game", "config.yml"}, `give it as --config config.yml`},
		{[]string{"territories", "init", "game.db"}, `give it as --db game.db`},
		{[]string{"serve", "matches.db"}, `give it as --db matches.db`},
		{[]string{"play", "reaj", "whatever"}, `arbiter play reaj takes no arguments, and "whatever" is given; its flags are in arbiter play reaj --help`},
	} {
		code, out, errOut := arbiter(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "unknown command") {
			t.Errorf("%s: exit %d, %q %q; want %d and %q", strings.Join(c.args, " "), code, out, errOut, exitUsage, c.want)
		}
	}
}
