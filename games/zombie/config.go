package zombie

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"go.yaml.in/yaml/v3"
)

// Config is a game master's config.yml (arbiter zombie new-config writes one).
type Config struct {
	// Players is the roster, in order: at least 3 names, unique without
	// case.
	Players []string
	// ZombieCount is how many players new-game draws as zombies: from 1 to
	// len(Players) - 2.
	ZombieCount int
	// MaxTurns is 1 to TurnLimit (default 5).
	MaxTurns int64
	// StartAntibodies is every human's, StartViruses every zombie's (both
	// default 0).
	StartAntibodies, StartViruses int64
	// Seed draws the zombies; HasSeed is false when the config gives none.
	Seed    int64
	HasSeed bool
}

// DefaultConfig is the config new-config writes: the roster and numbers of
// the rules, with the seed left out.
const DefaultConfig = `# Zombie Game config (arbiter zombie new-game writes game.txt from it)
players: [Ann, Bob, Cat, Dan, Zed]   # required; at least 3 names, unique in any case
zombie_count: 1                      # required; from 1 to the number of players - 2
max_turns: 5                         # optional; default 5; from 1 to 1000
start_antibodies: 0                  # optional; default 0; given to every human
start_viruses: 0                     # optional; default 0; given to every zombie
# seed: 20240501                     # optional; without it new-game picks one and writes it into game.txt
`

// configKeys are the keys of a config, in their order.
var configKeys = []string{"players", "zombie_count", "max_turns", "start_antibodies", "start_viruses", "seed"}

// configFile is a config as YAML has it; nil is a key not given.
type configFile struct {
	Players         *nameList `yaml:"players"`
	ZombieCount     *whole    `yaml:"zombie_count"`
	MaxTurns        *whole    `yaml:"max_turns"`
	StartAntibodies *whole    `yaml:"start_antibodies"`
	StartViruses    *whole    `yaml:"start_viruses"`
	Seed            *whole    `yaml:"seed"`
}

// whole is a YAML integer in decimal, with the line it is on. YAML would
// read 1.5 or "3" into an int quietly, or not at all; whole says which key
// and line is wrong.
type whole struct {
	v    int64
	line int
}

// UnmarshalYAML reads an integer.
func (w *whole) UnmarshalYAML(n *yaml.Node) error {
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
		return fmt.Errorf("line %d: want a whole number, have %s", n.Line, nodeText(n))
	}
	w.v, w.line = v, n.Line
	return nil
}

// nameList is the players list, with its line.
type nameList struct {
	names []string
	line  int
}

// UnmarshalYAML reads a sequence of names.
func (l *nameList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: want a list of names, such as [Ann, Bob, Cat], have %s", n.Line, nodeText(n))
	}
	l.line = n.Line
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			return fmt.Errorf("line %d: want a name, have %s", item.Line, nodeText(item))
		}
		l.names = append(l.names, item.Value)
	}
	return nil
}

func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil && n.Tag == "!!str" {
		// "5" or !!str 5: a number written as text.
		return fmt.Sprintf("the text %q (write the number without quotes or a tag)", v)
	}
	return strconv.Quote(v)
}

// maxConfig bounds a config file's size.
const maxConfig = 1 << 20

// ReadConfig reads a config from r (see ParseConfig).
func ReadConfig(r io.Reader) (Config, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxConfig+1))
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(data)
}

// ParseConfig reads config.yml strictly (arbiter zombie new-config writes one): an unknown key, a
// missing required key, a wrong type or a value out of range is an error
// that names the key and its line.
func ParseConfig(data []byte) (Config, error) {
	if len(data) > maxConfig {
		return Config{}, fmt.Errorf("config: larger than %d KiB", maxConfig>>10)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f configFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return Config{}, errors.New("config: the file is empty; it needs players and zombie_count")
		}
		return Config{}, fmt.Errorf("config: %w", yamlProblem(err, data))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return Config{}, errors.New("config: more than one YAML document; a config is one mapping")
	}
	return f.config()
}

// yamlProblem rewords the YAML decoder's errors for people: an unknown key
// offers the nearest for a typo and lists the keys there are, and a bad
// value is named by its key.
func yamlProblem(err error, data []byte) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	if first, _, more := strings.Cut(msg, "\n"); more {
		msg = strings.TrimSpace(first)
	}
	if i := strings.Index(msg, "field "); i >= 0 && strings.Contains(msg, " not found in type") {
		key := msg[i+len("field "):]
		key, _, _ = strings.Cut(key, " not found")
		if near := engine.Nearest(key, configKeys); near != "" {
			return fmt.Errorf("%sunknown key %q; did you mean %s? The keys are %s", msg[:i], key, near, strings.Join(configKeys, ", "))
		}
		return fmt.Errorf("%sunknown key %q; the keys are %s", msg[:i], key, strings.Join(configKeys, ", "))
	}
	if strings.Contains(msg, "cannot unmarshal") && strings.Contains(msg, "zombie.configFile") {
		return errors.New("want a mapping of keys: " + strings.Join(configKeys, ", "))
	}
	var line int
	if _, err := fmt.Sscanf(msg, "line %d:", &line); err == nil {
		if key := keyAt(data, line); key != "" {
			rest := strings.TrimPrefix(msg, fmt.Sprintf("line %d:", line))
			return fmt.Errorf("line %d: %s:%s", line, key, rest)
		}
	}
	return errors.New(msg)
}

// keyAt returns the top-level key whose entry holds line, or "".
func keyAt(data []byte, line int) string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return ""
	}
	m := root.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Line == line || within(m[i+1], line) {
			return m[i].Value
		}
	}
	return ""
}

func within(n *yaml.Node, line int) bool {
	if n.Line == line {
		return true
	}
	for _, c := range n.Content {
		if within(c, line) {
			return true
		}
	}
	return false
}

func (f *configFile) config() (Config, error) {
	c := Config{MaxTurns: DefaultMaxTurns}
	if f.Players == nil {
		return Config{}, errors.New("config: players is missing; list at least 3 names, such as players: [Ann, Bob, Cat]")
	}
	at := func(line int, key string) string { return fmt.Sprintf("config: line %d: %s", line, key) }
	names := f.Players.names
	if len(names) < 3 {
		return Config{}, fmt.Errorf("%s: %s; a game needs at least 3 players", at(f.Players.line, "players"), counted(len(names), "name", "names"))
	}
	seen := map[string]string{}
	for _, name := range names {
		if err := CheckName(name); err != nil {
			return Config{}, fmt.Errorf("%s: %w", at(f.Players.line, "players"), err)
		}
		if first, ok := seen[foldName(name)]; ok {
			return Config{}, fmt.Errorf("%s: %s and %s are the same name; names are compared without case", at(f.Players.line, "players"), first, name)
		}
		seen[foldName(name)] = name
	}
	c.Players = names
	if f.ZombieCount == nil {
		return Config{}, fmt.Errorf("config: zombie_count is missing; give %s", zombieCounts(len(names), "a number from"))
	}
	if z := f.ZombieCount.v; z < 1 || z > int64(len(names)-2) {
		return Config{}, fmt.Errorf("%s: %d; allowed %s with %d players, so that at least 2 humans play", at(f.ZombieCount.line, "zombie_count"), z, zombieCounts(len(names), ""), len(names))
	}
	c.ZombieCount = int(f.ZombieCount.v)
	if f.MaxTurns != nil {
		if v := f.MaxTurns.v; v < 1 || v > TurnLimit {
			return Config{}, fmt.Errorf("%s: %d; allowed 1 to %d", at(f.MaxTurns.line, "max_turns"), v, TurnLimit)
		}
		c.MaxTurns = f.MaxTurns.v
	}
	for _, k := range []struct {
		w    *whole
		key  string
		into *int64
	}{{f.StartAntibodies, "start_antibodies", &c.StartAntibodies}, {f.StartViruses, "start_viruses", &c.StartViruses}} {
		if k.w == nil {
			continue
		}
		if v := k.w.v; v < 0 || v > MaxCount {
			return Config{}, fmt.Errorf("%s: %d; allowed 0 to %d", at(k.w.line, k.key), v, MaxCount)
		}
		*k.into = k.w.v
	}
	if f.Seed != nil {
		c.Seed, c.HasSeed = f.Seed.v, true
	}
	return c, nil
}

// DrawZombies picks count of n players as zombies, from seed: the match's
// random source (engine.NewRNG) draws a partial Fisher–Yates shuffle of the
// roster indices, for i from 0 to count-1 swapping index i with one drawn
// uniformly from i to n-1, and the first count indices are the zombies.
// The same seed and n always give the same choice.
func DrawZombies(seed uint64, n, count int) []bool {
	return drawZombies(engine.NewRNG(seed), n, count)
}

// drawZombies is DrawZombies from the generator rng, which it advances.
func drawZombies(rng *rand.PCG, n, count int) []bool {
	zombie := make([]bool, n)
	if count <= 0 || n <= 0 {
		return zombie
	}
	count = min(count, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := range count {
		k := i + int(engine.Below(rng, uint64(n-i)))
		order[i], order[k] = order[k], order[i]
		zombie[order[i]] = true
	}
	return zombie
}

// Script writes the game.txt for this config: a header naming
// source (the config's file name) and the seed, the roster in the config's
// order with zombie_count zombies drawn from seed, GAME_START, and a
// reminder of the commands.
func (c Config) Script(source string, seed int64) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Zombie Game script, generated by new-game from %s (seed=%d)\n", source, seed)
	zombie := DrawZombies(uint64(seed), len(c.Players), c.ZombieCount)
	for i, name := range c.Players {
		if zombie[i] {
			fmt.Fprintf(&b, "ZOMBIE %s\n", name)
		} else {
			fmt.Fprintf(&b, "HUMAN %s\n", name)
		}
	}
	fmt.Fprintf(&b, "GAME_START %d antibodies=%d viruses=%d\n", c.MaxTurns, c.StartAntibodies, c.StartViruses)
	b.WriteString(scriptReminder)
	return b.Bytes()
}

// scriptReminder ends a new game.txt: the commands a game master records.
const scriptReminder = `# INTERACT a b   (TOUCH, i, t)   a/p = precaution, z/v3 = zombie applies 3 viruses
# CURE a         (ANTIDOTE, a, c)
# END_TURN a     (END, e)
# NEXT_TURN      (NEXT_ROUND, nt, nr)
`

// zombieCounts says which zombie counts a game of n players allows:
// "only 1" with 3 players, else "1 to n-2"; after from, when it is given,
// "1, the only count 3 players allow", or "a number from 1 to 4".
func zombieCounts(n int, from string) string {
	switch {
	case n-2 == 1 && from != "":
		return "1, the only count 3 players allow"
	case n-2 == 1:
		return "only 1"
	}
	if from != "" {
		from += " "
	}
	return fmt.Sprintf("%s1 to %d", from, n-2)
}
