// Package player is who decides in a match: the built-in bots of each game,
// people at a terminal (Terminal), external programs over the bot protocol
// of docs/protocol.md and bots at an HTTP address (Remote). It turns the
// names users give on the command line into engine.Entrant values that
// make players. It holds the protocol's other side too: Serve runs a Go
// player, written with a game's own typed views, as such a program.
package player

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/arbiter-games/arbiter/engine"
)

// ParseList splits a --players value: names separated by commas, spaces
// around them ignored. An empty name is an error.
func ParseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("--players: no player names; give them separated by commas, e.g. basic,random")
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("--players %q: name %d of %d is empty", s, i+1, len(parts))
		}
		if err := checkName(p); err != nil {
			return nil, fmt.Errorf("--players: %w", err)
		}
		parts[i] = p
	}
	return parts, nil
}

// checkName refuses names no player could have: control characters.
func checkName(name string) error {
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Errorf("player name %q has a control character", name)
		}
	}
	return nil
}

// Specs gathers the players of a match in seat order: the names of a
// --players list first, then each repeatable --player SPEC (which may contain
// commas). With neither, it returns the game's default list; with --player
// alone, the default list and then those players, so that a bot of one's
// own meets the game's usual line-up.
func Specs(list string, each []string, defaults string) ([]string, error) {
	var specs []string
	if list == "" && len(each) > 0 && defaults != "" {
		list = defaults
	}
	if list != "" {
		names, err := ParseList(list)
		if err != nil {
			return nil, err
		}
		specs = append(specs, names...)
	}
	for _, s := range each {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, errors.New("--player: empty spec")
		}
		if err := checkName(s); err != nil {
			return nil, fmt.Errorf("--player: %w", err)
		}
		if list, ok := namesList(s); ok {
			return nil, fmt.Errorf("--player %q: --player takes one player (repeat it for more); give a list as --players %s", s, list)
		}
		specs = append(specs, s)
	}
	if len(specs) == 0 {
		return ParseList(defaults)
	}
	return specs, nil
}

// namesList reports whether a --player spec is a list of players' names
// ("repl,basic", "fixed, random"), which --players takes, and returns it as
// --players is written. No player's name has a comma: one is a program's
// or a URL's.
func namesList(spec string) (string, bool) {
	if !strings.Contains(spec, ",") || IsExternal(spec) {
		return "", false
	}
	names := strings.Split(spec, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] == "" || looksLikeProgram(names[i]) {
			return "", false
		}
	}
	return strings.Join(names, ","), true
}

// Person is the name of a person at the terminal.
const Person = "repl"

// HasSettings reports whether spec names a bot with settings of its own
// (mcts:level=hard, basic.conquer): its refusal is about them, not about
// which players there are.
func HasSettings(spec string) bool { return strings.ContainsAny(spec, ":.") }

// Resolve turns player specs into entrants, one or more per spec: repl is a
// person at the terminal (made by person; where person is nil, as in a
// tournament, the entrant is marked Person for the caller to refuse, and
// an unknown name is not told of repl); exec:COMMAND and http:// URLs are
// external players, run as ext says; any other name is one of the game's
// bots, which may stand for several seats (AjveCiv's basic is six).
func Resolve[M, V any](specs []string, bots func(string) ([]engine.Entrant[M, V], error), person func() engine.Player[M, V], ext External) ([]engine.Entrant[M, V], error) {
	var out []engine.Entrant[M, V]
	for _, spec := range specs {
		if spec == Person {
			out = append(out, engine.Entrant[M, V]{Name: Person, New: person, Person: true})
			continue
		}
		if IsExternal(spec) {
			if spec == "exec:" || spec == "http://" || spec == "https://" {
				return nil, fmt.Errorf("%q names no program; write exec:COMMAND (exec:python3 bot.py) or a full URL", spec)
			}
			// One log budget per seat for the whole run, whatever the
			// number of matches and players made.
			name, spec := RecordName(spec), spec
			log := ext.Logs.seat(name)
			out = append(out, engine.Entrant[M, V]{Name: name, New: func() engine.Player[M, V] { return newRemote[M, V](spec, ext, log) }})
			continue
		}
		es, err := bots(spec)
		if err != nil {
			if command := starterIn(spec); command != "" {
				return nil, fmt.Errorf("%w; %s is a directory, and the bot in it plays as %q", err, spec, "exec:"+command)
			}
			if looksLikeProgram(spec) {
				return nil, fmt.Errorf("%w; a program of yours is given as exec:COMMAND: --player %q", err, "exec:"+spec)
			}
			if HasSettings(spec) {
				return nil, err // the bot's error says what its settings take
			}
			if person == nil {
				return nil, fmt.Errorf("%w; or exec:COMMAND, a program of yours (docs/protocol.md)", err)
			}
			if engine.Nearest(spec, []string{Person}) == Person {
				// REPL, Repl, rpel: the person meant to play.
				return nil, SuggestPlayer(err, spec, Person+", a person at the terminal")
			}
			return nil, fmt.Errorf("%w; or %s, a person at the terminal; or exec:COMMAND, a program of yours (docs/protocol.md)", err, Person)
		}
		for _, e := range es {
			ext.Names.reserve(e.Name)
		}
		out = append(out, es...)
	}
	return out, nil
}

// SuggestPlayer turns a game's refusal of an unknown player's name (as
// engine.UnknownPlayer words it, with no name near it among the game's
// bots) into one that offers near, a name the game's bots do not list:
// "unknown player "REPL": did you mean repl, a person at the terminal?
// TNCC players are ...". Another refusal is returned as it is.
func SuggestPlayer(err error, name, near string) error {
	prefix := fmt.Sprintf("unknown player %q; ", name)
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	return fmt.Errorf("unknown player %q: did you mean %s? %s", name, near, strings.TrimPrefix(msg, prefix))
}

// starterIn returns the command that runs the bot in dir, a copy of a
// starter (cp -r starters/python mybot): python3 mybot/bot.py, node
// mybot/bot.js, or mybot/bot built from the Go starter; "" when dir is
// no directory or holds none of them.
func starterIn(dir string) string {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	for _, s := range []struct{ file, run string }{{"bot.py", "python3 "}, {"bot.js", "node "}, {"bot", ""}} {
		path := filepath.ToSlash(filepath.Join(dir, s.file))
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return s.run + shellWord(path)
		}
	}
	return ""
}

// shellWord writes s as one word of an exec: command, which is split as a
// shell splits it: as it is when it holds nothing a shell reads apart,
// else in single quotes ('my bot/bot.py').
func shellWord(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-+:@%,=", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// looksLikeProgram reports whether a player's name that no game knows is a
// command whose exec: was forgotten: it has words, ends as a script does,
// or names a file.
func looksLikeProgram(spec string) bool {
	if strings.ContainsAny(spec, " \t") {
		return true
	}
	for _, ext := range []string{".py", ".js", ".mjs", ".ts", ".rb", ".pl", ".sh", ".jar", ".exe"} {
		if strings.HasSuffix(strings.ToLower(spec), ext) {
			return true
		}
	}
	st, err := os.Stat(spec)
	return err == nil && !st.IsDir()
}
