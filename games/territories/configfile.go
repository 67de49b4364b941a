package territories

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"go.yaml.in/yaml/v3"
)

// configKeys are the keys of a configuration, in the order the README
// gives them.
var configKeys = []string{"map", "output", "territories", "initial_armies", "max_armies", "seed", "min_nations", "turn_management", "holdings_per_action", "turn_duration"}

// territoryKeys are the keys of one territory.
var territoryKeys = []string{"id", "name", "aliases", "neighbors"}

// outputKeys are the keys of output.
var outputKeys = []string{"svg", "png"}

// configFile is a configuration as written, with absent keys nil.
type configFile struct {
	Map               *string
	Output            *Output
	Territories       []territoryFile
	InitialArmies     *int
	MaxArmies         *int
	Seed              *uint64
	MinNations        *int
	TurnManagement    *bool
	HoldingsPerAction *int
	TurnDuration      *string

	// lines holds the line of each key's value, for the messages of
	// values that are read but out of range.
	lines map[string]int
}

// at puts the line of key's value before err, "line 4: max_armies: 0;
// allowed ...", when the file gave the key.
func (f *configFile) at(key string, err error) error {
	if line := f.lines[key]; line > 0 {
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

// territoryFile is one territory as written, with its line.
type territoryFile struct {
	Territory
	line int
}

// ReadConfig reads a configuration in YAML or JSON (which is YAML too),
// fills in the defaults and validates it. Errors are one line that names
// the key, and the line where there is one.
func ReadConfig(r io.Reader) (*Config, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return ParseConfig(data)
}

// ParseConfig is ReadConfig on bytes. A configuration is one YAML
// document holding one mapping; a second document (after a line ---) is
// refused rather than ignored.
func ParseConfig(data []byte) (*Config, error) {
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("config: larger than %d KiB; a configuration is at most that", maxConfigBytes>>10)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("config: the file is empty; want map, territories and the numbers (see examples/territories/config.yaml)")
		}
		return nil, fmt.Errorf("config: %s", yamlSyntax(err))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("config: more than one YAML document (a line ---); a configuration is one mapping")
	}
	f, err := readConfigFile(&doc)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := f.config()
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// yamlSyntax is the YAML parser's error as one line without its package
// prefix: "line 3: did not find expected key".
func yamlSyntax(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return strings.Join(strings.Fields(msg), " ")
}

// readConfigFile reads the document's mapping key by key, so that every
// error names its key and line in the configuration's own words.
func readConfigFile(doc *yaml.Node) (*configFile, error) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	root = yamlTarget(root)
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want a mapping of keys (%s), have %s; see examples/territories/config.yaml", root.Line, strings.Join(configKeys, ", "), describe(root))
	}
	f := &configFile{lines: map[string]int{}}
	err := eachKey(root, configKeys, "key", func(key string, v *yaml.Node) error {
		if isNull(v) {
			return nil // as if not given
		}
		f.lines[key] = v.Line
		return f.set(key, v)
	})
	return f, err
}

// set reads one key's value.
func (f *configFile) set(key string, v *yaml.Node) error {
	var err error
	switch key {
	case "territories":
		f.Territories, err = readTerritories(v)
		return err // its messages name the territory and line
	case "output":
		f.Output, err = ptr(readOutput(v))
		return err // its messages name the key and line
	case "map":
		f.Map, err = ptr(text(v))
	case "initial_armies":
		f.InitialArmies, err = ptr(whole(v))
	case "max_armies":
		f.MaxArmies, err = ptr(whole(v))
	case "seed":
		f.Seed, err = ptr(seed(v))
	case "min_nations":
		f.MinNations, err = ptr(whole(v))
	case "turn_management":
		f.TurnManagement, err = ptr(flag(v))
	case "holdings_per_action":
		f.HoldingsPerAction, err = ptr(whole(v))
	case "turn_duration":
		f.TurnDuration, err = ptr(text(v))
	}
	if err != nil {
		return fmt.Errorf("line %d: %s: %w", v.Line, key, err)
	}
	return nil
}

func ptr[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// eachKey calls fn with each key of mapping m and its value, refusing
// keys not in keys (with the nearest one, for a typo) and keys given
// twice; what names the kind of key in messages. Its own refusals are
// keyErrors, which carry their line.
func eachKey(m *yaml.Node, keys []string, what string, fn func(key string, v *yaml.Node) error) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := yamlTarget(m.Content[i]), yamlTarget(m.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return &keyError{k.Line, fmt.Sprintf("a %s is a word, not %s; the keys are %s", what, describe(k), strings.Join(keys, ", "))}
		}
		if !slices.Contains(keys, k.Value) {
			if near := engine.Nearest(k.Value, keys); near != "" {
				return &keyError{k.Line, fmt.Sprintf("unknown %s %q; did you mean %s? The keys are %s", what, k.Value, near, strings.Join(keys, ", "))}
			}
			return &keyError{k.Line, fmt.Sprintf("unknown %s %q; the keys are %s", what, k.Value, strings.Join(keys, ", "))}
		}
		if line, ok := seen[k.Value]; ok {
			return &keyError{k.Line, fmt.Sprintf("%s is given twice (first on line %d)", k.Value, line)}
		}
		seen[k.Value] = k.Line
		if err := fn(k.Value, v); err != nil {
			return err
		}
	}
	return nil
}

// keyError is a key of a configuration that is refused, on its line:
// "line 6: unknown key ...". A territory's message names the territory
// and this line once (readTerritories).
type keyError struct {
	line int
	msg  string
}

func (e *keyError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// readOutput reads output: none, or a mapping {svg, png}.
func readOutput(v *yaml.Node) (Output, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if strings.EqualFold(v.Value, "none") {
			return Output{SVG: "none", PNG: "none"}, nil
		}
	case yaml.MappingNode:
		var o Output
		err := eachKey(v, outputKeys, "output key", func(key string, f *yaml.Node) error {
			if isNull(f) {
				return nil
			}
			s, err := text(f)
			if err != nil {
				return fmt.Errorf("line %d: output: %s: %w", f.Line, key, err)
			}
			if key == "svg" {
				o.SVG = s
			} else {
				o.PNG = s
			}
			return nil
		})
		return o, err
	}
	return Output{}, fmt.Errorf("line %d: output: want none (no map files) or {svg: FILE, png: FILE}, have %s", v.Line, describe(v))
}

// readTerritories reads the list of territories.
func readTerritories(v *yaml.Node) ([]territoryFile, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: territories: want a list of territories, each {id, name, aliases, neighbors}, have %s", v.Line, describe(v))
	}
	if len(v.Content) > MaxTerritories {
		return nil, fmt.Errorf("line %d: territories: %d; at most %d", v.Line, len(v.Content), MaxTerritories)
	}
	out := make([]territoryFile, len(v.Content))
	for i, n := range v.Content {
		n = yamlTarget(n)
		if err := out[i].read(n); err != nil {
			if k, ok := err.(*keyError); ok {
				// the key's own line, said once
				return nil, fmt.Errorf("territories[%d] (line %d): %s", i, k.line, k.msg)
			}
			return nil, fmt.Errorf("territories[%d] (line %d): %w", i, n.Line, err)
		}
	}
	return out, nil
}

// read reads one territory.
func (t *territoryFile) read(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("a territory is a mapping {id, name, aliases, neighbors}, not %s", describe(n))
	}
	t.line = n.Line
	return eachKey(n, territoryKeys, "territory key", func(key string, v *yaml.Node) error {
		if isNull(v) {
			return nil
		}
		var err error
		switch key {
		case "id":
			t.ID, err = text(v)
		case "name":
			t.Name, err = text(v)
		case "aliases":
			t.Aliases, err = texts(v, "names")
		case "neighbors":
			t.Neighbors, err = texts(v, "territory ids")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
}

// yamlTarget follows aliases (*anchor) to the node they name.
func yamlTarget(n *yaml.Node) *yaml.Node {
	for range 8 {
		if n.Kind != yaml.AliasNode || n.Alias == nil {
			break
		}
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// text reads a scalar as text.
func text(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return "", fmt.Errorf("want a text, have %s", describe(n))
	}
	return n.Value, nil
}

// texts reads a list of scalars: what they are, for messages.
func texts(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("want a list of %s such as [A, B], have %s", what, describe(n))
	}
	if len(n.Content) > MaxTerritories {
		return nil, fmt.Errorf("%d %s; at most %d", len(n.Content), what, MaxTerritories)
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		s, err := text(yamlTarget(c))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// whole reads a whole number.
func whole(n *yaml.Node) (int, error) {
	var v int64
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("want a whole number, have %s", describe(n))
	}
	return int(v), nil
}

// seed reads the dice's seed: a whole number from 0 to 2⁶⁴ − 1.
func seed(n *yaml.Node) (uint64, error) {
	var v uint64
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil {
		return 0, fmt.Errorf("want a whole number from 0 to %d, have %s", uint64(math.MaxUint64), describe(n))
	}
	return v, nil
}

// flag reads true or false.
func flag(n *yaml.Node) (bool, error) {
	var v bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&v) != nil {
		return false, fmt.Errorf("want true or false, have %s", describe(n))
	}
	return v, nil
}

// describe says what a node is, for messages: a quoted value (cut when
// long), "a list", "a mapping" or "nothing".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	if isNull(n) {
		return "nothing"
	}
	v := n.Value
	if short := wrap.FirstRunes(v, 40); short != v {
		v = short + "…"
	}
	return strconv.Quote(v)
}
