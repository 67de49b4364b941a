package territories

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of a configuration.
const (
	MaxTerritories = 1000 // territories on one map
	MaxArmiesLimit = 1000 // the largest max_armies
	maxNameLen     = 64   // characters in a territory's or a nation's name
	maxIDLen       = 32   // characters in a territory id
	maxConfigBytes = 1 << 20
)

// Defaults of a configuration.
const (
	DefaultInitialArmies     = 3
	DefaultMaxArmies         = 5
	DefaultHoldingsPerAction = 3
)

// Territory is one place on the map: an id (the SVG's path id), a name for
// people, other names it answers to, and the territories it borders.
type Territory struct {
	ID        string   `json:"id" yaml:"id"`
	Name      string   `json:"name" yaml:"name"`
	Aliases   []string `json:"aliases,omitempty" yaml:"aliases,omitempty"`
	Neighbors []string `json:"neighbors" yaml:"neighbors"`
}

// Output says where the referee writes the map after every accepted action.
// An empty path means beside the database, named after it (game.db:
// game.svg, game.png); "none" writes nothing. Relative paths are relative to
// the database's directory.
type Output struct {
	SVG string `json:"svg,omitempty" yaml:"svg,omitempty"`
	PNG string `json:"png,omitempty" yaml:"png,omitempty"`
}

// NoMap is the value of a configuration's map that says it has none.
const NoMap = "none"

// Config is a game's configuration: its map, territories and numbers. It is
// validated when read and never changes afterwards.
type Config struct {
	// Map is the SVG file of the map, relative to the configuration file:
	// what arbiter territories init draws on. It is "" when the
	// configuration has none (left out, or "none"), as a board played where
	// nothing is drawn (arbiter play, a match of arbiter serve) needs none.
	Map    string `json:"map" yaml:"map"`
	Output Output `json:"output" yaml:"output"`
	// Territories lists every territory, in the order the map lists them.
	Territories []Territory `json:"territories" yaml:"territories"`
	// InitialArmies is the army a nation starts with when it joins.
	InitialArmies int `json:"initial_armies" yaml:"initial_armies"`
	// MaxArmies caps the armies in one territory.
	MaxArmies int `json:"max_armies" yaml:"max_armies"`
	// Seed seeds the dice; nil until the game is created, which picks one
	// at random when the file gives none.
	Seed *uint64 `json:"seed,omitempty" yaml:"seed,omitempty"`
	// MinNations is the number of nations that must have joined before any
	// move, raise or attack; 0 or 1: no minimum.
	MinNations int `json:"min_nations,omitempty" yaml:"min_nations,omitempty"`
	// TurnManagement gives each nation ⌈holdings ÷ HoldingsPerAction⌉
	// actions per turn; a turn ends when every nation has used its actions,
	// or after TurnDuration.
	TurnManagement    bool     `json:"turn_management,omitempty" yaml:"turn_management,omitempty"`
	HoldingsPerAction int      `json:"holdings_per_action,omitempty" yaml:"holdings_per_action,omitempty"`
	TurnDuration      Duration `json:"turn_duration,omitempty" yaml:"turn_duration,omitempty"`

	index     map[string]int // id, name or alias in lower case: territory
	neighbors [][]int        // by territory: its neighbours, in the file's order
}

// Duration is a length of time written as Go writes it: "90m", "24h".
type Duration time.Duration

// MarshalText writes the duration as "24h0m0s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads "90m", "24h", "1h30m".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("turn_duration %q: want a duration such as 90m, 24h or 1h30m", b)
	}
	*d = Duration(v)
	return nil
}

func (f *configFile) config() (*Config, error) {
	c := &Config{InitialArmies: DefaultInitialArmies, MaxArmies: DefaultMaxArmies, HoldingsPerAction: DefaultHoldingsPerAction}
	if f.Map != nil && !strings.EqualFold(strings.TrimSpace(*f.Map), NoMap) {
		c.Map = strings.TrimSpace(*f.Map)
	}
	if f.Output != nil {
		c.Output = *f.Output
	}
	if f.InitialArmies != nil {
		c.InitialArmies = *f.InitialArmies
	}
	if f.MaxArmies != nil {
		c.MaxArmies = *f.MaxArmies
	}
	if c.MaxArmies < 1 || c.MaxArmies > MaxArmiesLimit {
		return nil, f.at("max_armies", fmt.Errorf("max_armies: %d; allowed 1 to %d", c.MaxArmies, MaxArmiesLimit))
	}
	if c.InitialArmies < 1 || c.InitialArmies > c.MaxArmies {
		return nil, f.at("initial_armies", fmt.Errorf("initial_armies: %d; allowed 1 to max_armies (%d)", c.InitialArmies, c.MaxArmies))
	}
	c.Seed = f.Seed
	if f.MinNations != nil {
		c.MinNations = *f.MinNations
	}
	if f.TurnManagement != nil {
		c.TurnManagement = *f.TurnManagement
	}
	if f.HoldingsPerAction != nil {
		if !c.TurnManagement {
			return nil, f.at("holdings_per_action", errors.New("holdings_per_action: it counts only with turn_management: true"))
		}
		c.HoldingsPerAction = *f.HoldingsPerAction
	}
	if c.HoldingsPerAction < 1 || c.HoldingsPerAction > MaxTerritories {
		return nil, f.at("holdings_per_action", fmt.Errorf("holdings_per_action: %d; allowed 1 to %d", c.HoldingsPerAction, MaxTerritories))
	}
	if f.TurnDuration != nil {
		if !c.TurnManagement {
			return nil, f.at("turn_duration", errors.New("turn_duration: it counts only with turn_management: true"))
		}
		if err := c.TurnDuration.UnmarshalText([]byte(*f.TurnDuration)); err != nil {
			return nil, f.at("turn_duration", err)
		}
		if c.TurnDuration < 0 {
			return nil, f.at("turn_duration", fmt.Errorf("turn_duration: %v; want 0 (no limit) or more", time.Duration(c.TurnDuration)))
		}
	}
	if len(f.Territories) == 0 {
		return nil, errors.New("territories: none given; list each as {id, name, aliases, neighbors}")
	}
	if len(f.Territories) > MaxTerritories {
		return nil, fmt.Errorf("territories: %d; at most %d", len(f.Territories), MaxTerritories)
	}
	if c.MinNations < 0 || c.MinNations > len(f.Territories) {
		return nil, f.at("min_nations", fmt.Errorf("min_nations: %d; allowed 0 to the number of territories (%d)", c.MinNations, len(f.Territories)))
	}
	lines := make([]int, len(f.Territories))
	for i, t := range f.Territories {
		c.Territories = append(c.Territories, t.Territory)
		lines[i] = t.line
	}
	if err := c.buildIndex(lines); err != nil {
		return nil, err
	}
	return c, nil
}

// buildIndex checks the territories and builds the lookups; lines, when not
// nil, gives each territory's line for messages.
func (c *Config) buildIndex(lines []int) error {
	where := func(i int) string {
		if lines != nil && lines[i] > 0 {
			return fmt.Sprintf("territories[%d] (line %d)", i, lines[i])
		}
		return fmt.Sprintf("territories[%d]", i)
	}
	c.index = make(map[string]int, 3*len(c.Territories))
	add := func(i int, what, key string) error {
		k := strings.ToLower(key)
		if j, ok := c.index[k]; ok && j != i {
			return fmt.Errorf("%s: %s %q is already a name of %s; ids, names and aliases are unique, in any case", where(i), what, key, c.Territories[j].ID)
		}
		c.index[k] = i
		return nil
	}
	for i := range c.Territories {
		t := &c.Territories[i]
		if err := checkID(t.ID); err != nil {
			return fmt.Errorf("%s: id: %w", where(i), err)
		}
		if err := checkName(t.Name); err != nil {
			return fmt.Errorf("%s (%s): name: %w", where(i), t.ID, err)
		}
		if err := add(i, "id", t.ID); err != nil {
			return err
		}
		if err := add(i, "name", t.Name); err != nil {
			return err
		}
		for _, a := range t.Aliases {
			if err := checkName(a); err != nil {
				return fmt.Errorf("%s (%s): alias: %w", where(i), t.ID, err)
			}
			if err := add(i, "alias", a); err != nil {
				return err
			}
		}
	}
	c.neighbors = make([][]int, len(c.Territories))
	for i := range c.Territories {
		t := &c.Territories[i]
		for _, n := range t.Neighbors {
			j, ok := c.index[strings.ToLower(n)]
			switch {
			case !ok:
				return fmt.Errorf("%s (%s): neighbor %q is not a territory of this file", where(i), t.ID, n)
			case j == i:
				return fmt.Errorf("%s (%s): a territory is not its own neighbor", where(i), t.ID)
			case slices.Contains(c.neighbors[i], j):
				return fmt.Errorf("%s (%s): neighbor %s is listed twice", where(i), t.ID, c.Territories[j].ID)
			}
			c.neighbors[i] = append(c.neighbors[i], j)
		}
	}
	for i := range c.Territories {
		for _, j := range c.neighbors[i] {
			if !slices.Contains(c.neighbors[j], i) {
				return fmt.Errorf("%s (%s): neighbor %s does not list %s back; neighbours are mutual", where(i), c.Territories[i].ID, c.Territories[j].ID, c.Territories[i].ID)
			}
		}
	}
	// Neighbours are kept as ids, so that the stored form is canonical.
	for i := range c.Territories {
		ids := make([]string, len(c.neighbors[i]))
		for k, j := range c.neighbors[i] {
			ids[k] = c.Territories[j].ID
		}
		c.Territories[i].Neighbors = ids
	}
	return nil
}

// checkID allows letters, digits, '_' and '-', starting with a letter: a
// territory id is also an SVG id and a word of an action.
func checkID(id string) error {
	if id == "" {
		return errors.New("missing; give a short id such as CA, the id of the territory's path in the map")
	}
	if len(id) > maxIDLen {
		return fmt.Errorf("%q is longer than %d characters", id, maxIDLen)
	}
	for i, r := range id {
		ok := r < unicode.MaxASCII && (unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || r == '_' || r == '-'))
		if !ok {
			return fmt.Errorf("%q: ids are ASCII letters, digits, '_' and '-', starting with a letter", id)
		}
	}
	if strings.HasSuffix(strings.ToLower(id), "-armies") {
		return fmt.Errorf("%q: ids may not end in -armies, which names the map's army circles", id)
	}
	return nil
}

// checkName allows printable text without surrounding spaces, at most
// maxNameLen characters, and no quotes (so every name can be typed).
func checkName(s string) error {
	switch {
	case s == "":
		return errors.New("missing")
	case !utf8.ValidString(s):
		return fmt.Errorf("%q is not UTF-8", s)
	case utf8.RuneCountInString(s) > maxNameLen:
		return fmt.Errorf("%q is longer than %d characters", s, maxNameLen)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%q begins or ends with a space", s)
	case strings.ContainsAny(s, "\"\\"):
		return fmt.Errorf("%q: a name may not contain a double quote or a backslash", s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%q: a name is printable characters", s)
		}
	}
	return nil
}

// JSON returns the configuration as JSON, the form the referee stores.
func (c *Config) JSON() []byte {
	d := *c
	if !d.TurnManagement {
		d.HoldingsPerAction = 0 // the default, and only allowed with turn management
	}
	b, _ := json.Marshal(&d) // plain values: cannot fail
	return b
}

// Lookup returns the territory named by ref (an id, name or alias, in any
// case), or a *engine.RuleError that lists the closest names.
func (c *Config) Lookup(ref string) (int, error) {
	if i, ok := c.index[strings.ToLower(strings.TrimSpace(ref))]; ok {
		return i, nil
	}
	return -1, c.unknown(ref)
}

// Territory returns territory i.
func (c *Config) Territory(i int) *Territory { return &c.Territories[i] }

// Neighbors returns the neighbours of territory i. The slice is the
// configuration's own.
func (c *Config) Neighbors(i int) []int { return c.neighbors[i] }

// Adjacent reports whether territories i and j border each other.
func (c *Config) Adjacent(i, j int) bool { return slices.Contains(c.neighbors[i], j) }

// Len returns the number of territories.
func (c *Config) Len() int { return len(c.Territories) }

// SeedValue returns the dice's seed, 0 when none is set.
func (c *Config) SeedValue() uint64 {
	if c.Seed == nil {
		return 0
	}
	return *c.Seed
}

// WithSeed returns a copy of c whose dice are seeded with seed.
func (c *Config) WithSeed(seed uint64) *Config {
	d := *c
	d.Seed = &seed
	return &d
}

// Parts returns the map's parts that no move or attack crosses (its
// connected components), each a list of territories in the file's order,
// the largest part first (of equal ones, the first in the file). A map
// whose territories all reach one another is one part.
func (c *Config) Parts() [][]int {
	part := make([]int, len(c.Territories))
	for i := range part {
		part[i] = -1
	}
	var parts [][]int
	for i := range c.Territories {
		if part[i] >= 0 {
			continue
		}
		k := len(parts)
		part[i] = k
		queue := []int{i}
		for q := 0; q < len(queue); q++ {
			for _, j := range c.neighbors[queue[q]] {
				if part[j] < 0 {
					part[j] = k
					queue = append(queue, j)
				}
			}
		}
		slices.Sort(queue)
		parts = append(parts, queue)
	}
	slices.SortStableFunc(parts, func(a, b []int) int { return len(b) - len(a) })
	return parts
}

// Warning says, in one line, what the rules allow in the configuration but
// a game is unlikely to want: territories that cannot be reached from the
// rest of the map (one with no neighbours, or a map in parts). A nation
// there can never be attacked nor attack across, so a game played to one
// nation left may run to its last turn. It is "" for a map in one part.
func (c *Config) Warning() string {
	parts := c.Parts()
	if len(parts) <= 1 {
		return ""
	}
	var cut []string
	for _, p := range parts[1:] {
		ids := make([]string, len(p))
		for k, i := range p {
			ids[k] = c.Territories[i].ID
		}
		if len(p) == 1 {
			cut = append(cut, ids[0]+" (no neighbours)")
		} else {
			cut = append(cut, strings.Join(ids, ", "))
		}
	}
	rest := c.Territories[parts[0][0]].ID
	if n := len(parts[0]) - 1; n > 0 {
		rest += fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("the map is in %d parts that no move or attack crosses: %s cannot be reached from the rest (%s); a nation there can never be attacked, and a game may run to its last turn",
		len(parts), strings.Join(cut, "; "), rest)
}
