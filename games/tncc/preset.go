package tncc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"go.yaml.in/yaml/v3"
)

// Preset is a set of starting values and constants: the game's numbers.
type Preset struct {
	// Name is the preset's name, e.g. "default"; a custom preset names itself.
	Name string `json:"name,omitempty"`
	// Start is what every country holds at the start.
	Start Stock `json:"start"`
	// Steal is what a winning attacker takes per surviving soldier.
	Steal Steal `json:"steal"`

	// FoodPerCitizen and GoldPerCitizen are what each citizen makes at
	// production, every cycle (the products round down).
	FoodPerCitizen Ratio `json:"food_per_citizen"`
	GoldPerCitizen Ratio `json:"gold_per_citizen"`
	// FoodPerSoldier and GoldPerSoldier are each soldier's upkeep at
	// production, every cycle: an army its country cannot pay goes home
	// as citizens, and a country out of food loses HungerDeaths citizens.
	FoodPerSoldier Ratio `json:"food_per_soldier"`
	GoldPerSoldier Ratio `json:"gold_per_soldier"`
	// Growth multiplies the citizens at production, up to LandCapacity
	// people (citizens and soldiers) per unit of land.
	Growth       Ratio `json:"growth"`
	LandCapacity Ratio `json:"land_capacity"`
	// GoldForWar is what a war costs its attacker, win or lose.
	GoldForWar int64 `json:"gold_for_war"`
	// DefendAdvantage is m1, the defenders' advantage on each flank in a
	// battle's first wave; AttackAdvantage is m2, the attackers' in the
	// second, when the survivors meet.
	DefendAdvantage Ratio `json:"defend_advantage"`
	AttackAdvantage Ratio `json:"attack_advantage"`
	// HungerDeaths is how many citizens die at a production that leaves
	// the country without food.
	HungerDeaths int64 `json:"hunger_deaths"`
	// MaxCycles is the cycles the game lasts at most.
	MaxCycles int `json:"max_cycles"`
}

// MaxCycles bounds a preset's max_cycles, and MaxAmount its counts and
// starting values, so that every sum and product stays exact.
const (
	MaxCyclesLimit = 100_000
	MaxAmount      = 1_000_000_000_000
)

func preset(name, start, steal, perCitizen, perSoldier, growth, war, hunger string) Preset {
	p := Preset{Name: name}
	var s [5]int64
	fmt.Sscanf(start, "%d/%d/%d/%d/%d", &s[0], &s[1], &s[2], &s[3], &s[4])
	p.Start = Stock(s)
	for i, f := range strings.Split(steal, "/") {
		p.Steal[i] = MustRatio(f)
	}
	pair := func(s string) (Ratio, Ratio) {
		a, b, _ := strings.Cut(s, "/")
		return MustRatio(a), MustRatio(b)
	}
	p.FoodPerCitizen, p.GoldPerCitizen = pair(perCitizen)
	p.FoodPerSoldier, p.GoldPerSoldier = pair(perSoldier)
	p.Growth, p.LandCapacity = pair(growth)
	w := strings.Split(war, "/")
	fmt.Sscan(w[0], &p.GoldForWar)
	p.DefendAdvantage, p.AttackAdvantage = MustRatio(w[1]), MustRatio(w[2])
	fmt.Sscanf(hunger, "%d/%d", &p.HungerDeaths, &p.MaxCycles)
	return p
}

// The six presets of the rules, in the rules' table's shorthand.
var presets = []Preset{
	preset("default", "600/800/800/0/150", ".5/1/.1/0/.025", ".5/.25", "1/.1", "1.07/10", "1600/2/2", "200/100"),
	preset("tribe", "50/400/100/10/50", "1/2/.5/0/.2", "1/.1", "1/.1", "1.05/10", "1000/2/2", "200/200"),
	preset("crazy", "6000/8000/10000/0/1500", "5/10/2.5/0/1", "2/1", "1/.1", "1.2/20", "10000/2/2", "200/100"),
	preset("robot_army", "600/800/1000/0/200", "1/2/.5/0/.2", ".01/.25", "0/1", "1.02/10", "2000/1/1", "200/100"),
	preset("mexican_standoff", "50000/1500/1/1499/150", "2/2/1/0/.05", ".5/.25", "1/.1", "1.08/10", "1600/2/2", "200/100"),
	preset("decay", "600/2000/15000/0/1500", "1/2/.5/0/.2", "-.1/.01", "1/.1", "1/10", "1600/2/2", "200/100"),
}

// PresetNames lists the built-in presets.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// LookupPreset returns the built-in preset called name.
func LookupPreset(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	if near := engine.Nearest(name, PresetNames()); near != "" {
		return Preset{}, fmt.Errorf("unknown preset %q; did you mean %s? Presets: %s", name, near, strings.Join(PresetNames(), ", "))
	}
	return Preset{}, fmt.Errorf("unknown preset %q; presets: %s", name, strings.Join(PresetNames(), ", "))
}

// Option returns the value of the "preset" option that plays p: its name
// for a built-in preset, else its JSON.
func (p Preset) Option() string {
	if b, err := LookupPreset(p.Name); err == nil && b == p {
		return p.Name
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// PresetOption reads the "preset" option: a built-in preset's name (empty
// is "default") or a preset's JSON object.
func PresetOption(s string) (Preset, error) {
	switch {
	case s == "":
		return Default(), nil
	case strings.HasPrefix(strings.TrimSpace(s), "{"):
		var p Preset
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			return Preset{}, fmt.Errorf("option preset: %w", err)
		}
		return p, nil
	}
	p, err := LookupPreset(s)
	if err != nil {
		return Preset{}, fmt.Errorf("option preset: %w", err)
	}
	return p, nil
}

// Default returns the default preset.
func Default() Preset { return presets[0] }

// Check returns the first constant out of range, as a *RangeError naming
// its key: advantages must be at least 1, counts and starting values not
// negative, a country's starting citizens at least 1 (a country with none
// is dead), land capacity above 0, max_cycles from 1 to 100,000.
func (p *Preset) Check() error {
	one := Whole(1)
	for r, v := range p.Start {
		key := "start." + Resource(r).String()
		least, most := countBounds(key)
		switch {
		case Resource(r) == Citizens && v == 0:
			return rangeError(key, "0; a country with no citizens is dead before it plays: allowed %d to %d", least, most)
		case v < least || v > most:
			return rangeError(key, "%d is out of range; allowed %d to %d", v, least, most)
		}
	}
	for r, v := range p.Steal {
		if v.Sign() < 0 {
			return rangeError("steal."+Resource(r).String(), "%v is negative; steal factors are 0 or more", v)
		}
	}
	for _, c := range []struct {
		name string
		v    Ratio
	}{{"food_per_soldier", p.FoodPerSoldier}, {"gold_per_soldier", p.GoldPerSoldier}, {"growth", p.Growth}} {
		if c.v.Sign() < 0 {
			return rangeError(c.name, "%v is negative; it must be 0 or more", c.v)
		}
	}
	switch {
	case p.LandCapacity.Sign() <= 0:
		return rangeError("land_capacity", "%v; it must be above 0", p.LandCapacity)
	case p.DefendAdvantage.Less(one):
		return rangeError("defend_advantage", "%v; advantages are at least 1", p.DefendAdvantage)
	case p.AttackAdvantage.Less(one):
		return rangeError("attack_advantage", "%v; advantages are at least 1", p.AttackAdvantage)
	}
	for _, c := range []struct {
		key string
		v   int64
	}{{"gold_for_war", p.GoldForWar}, {"hunger_deaths", p.HungerDeaths}, {"max_cycles", int64(p.MaxCycles)}} {
		if least, most := countBounds(c.key); c.v < least || c.v > most {
			return rangeError(c.key, "%d is out of range; allowed %d to %d", c.v, least, most)
		}
	}
	return nil
}

// countBounds are the least and the most a whole number of a preset may
// be, by its key ("start.citizens", "max_cycles").
func countBounds(key string) (least, most int64) {
	switch key {
	case "start.citizens":
		return 1, MaxAmount
	case "max_cycles":
		return 1, MaxCyclesLimit
	}
	return 0, MaxAmount
}

// RangeError is a preset's value out of range: its key as a preset file
// spells it ("start.citizens", "defend_advantage"), the value with what is
// allowed, and the line of a file it was read from.
type RangeError struct {
	Key     string
	Problem string // e.g. "0.5; advantages are at least 1"
	Line    int    // from 1; 0 when the value was not read from a file's line
}

func rangeError(key, format string, args ...any) *RangeError {
	return &RangeError{Key: key, Problem: fmt.Sprintf(format, args...)}
}

// Error says "line 3: defend_advantage: 0.5; advantages are at least 1",
// without the line when it is not known.
func (e *RangeError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Key, e.Problem)
	}
	return e.Key + ": " + e.Problem
}

// presetFile is a preset as YAML or JSON spells it: every key is required,
// unless base names a built-in preset whose numbers the file changes.
type presetFile struct {
	Name            *string    `json:"name" yaml:"name"`
	Base            *string    `json:"base" yaml:"base"`
	Start           *stockFile `json:"start" yaml:"start"`
	Steal           *stealJSON `json:"steal" yaml:"steal"`
	FoodPerCitizen  *Ratio     `json:"food_per_citizen" yaml:"food_per_citizen"`
	GoldPerCitizen  *Ratio     `json:"gold_per_citizen" yaml:"gold_per_citizen"`
	FoodPerSoldier  *Ratio     `json:"food_per_soldier" yaml:"food_per_soldier"`
	GoldPerSoldier  *Ratio     `json:"gold_per_soldier" yaml:"gold_per_soldier"`
	Growth          *Ratio     `json:"growth" yaml:"growth"`
	LandCapacity    *Ratio     `json:"land_capacity" yaml:"land_capacity"`
	GoldForWar      *count     `json:"gold_for_war" yaml:"gold_for_war"`
	DefendAdvantage *Ratio     `json:"defend_advantage" yaml:"defend_advantage"`
	AttackAdvantage *Ratio     `json:"attack_advantage" yaml:"attack_advantage"`
	HungerDeaths    *count     `json:"hunger_deaths" yaml:"hunger_deaths"`
	MaxCycles       *count     `json:"max_cycles" yaml:"max_cycles"`
}

type stockFile struct {
	Gold     *count `json:"gold" yaml:"gold"`
	Food     *count `json:"food" yaml:"food"`
	Citizens *count `json:"citizens" yaml:"citizens"`
	Army     *count `json:"army" yaml:"army"`
	Land     *count `json:"land" yaml:"land"`
}

// count is a whole number of a preset file. YAML would read 1.5 into an
// int64 as 1, silently; count refuses it, as JSON does.
type count int64

// UnmarshalYAML reads a YAML integer written in decimal digits.
func (c *count) UnmarshalYAML(n *yaml.Node) error {
	v, err := strconv.ParseInt(n.Value, 10, 64)
	switch {
	case n.Kind != yaml.ScalarNode:
		return valueProblem(n, "want a whole number, have a list or a mapping")
	case n.Tag == "!!str" && err == nil:
		return valueProblem(n, "want a whole number, have the text %q (write the number without quotes or a tag)", n.Value)
	case n.Tag != "!!str" && errors.Is(err, strconv.ErrRange):
		// A whole number of more digits than any count holds: ReadPreset
		// says what its key allows.
		e := valueProblem(n, "%s is out of range", n.Value).(*valueError)
		e.outOfRange = true
		return e
	case n.Tag != "!!int" || err != nil:
		return valueProblem(n, "want a whole number, have %q", n.Value)
	}
	*c = count(v)
	return nil
}

// valueError is a value of a preset file that is not one, where the YAML
// node is: ReadPreset names the key whose value it is.
type valueError struct {
	line, column int
	problem      string
	outOfRange   bool // a whole number too large for any count: the key's bounds are to be said
}

func (e *valueError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.problem) }

// valueProblem is a *valueError at node n.
func valueProblem(n *yaml.Node, format string, args ...any) error {
	return &valueError{line: n.Line, column: n.Column, problem: fmt.Sprintf(format, args...)}
}

// valueKey is the key ("steal.gold") of the value at line and column of a
// preset document, and whether the document has one there; column 0 takes
// the one value of the line (the YAML decoder's own errors name a line
// only).
func valueKey(doc *yaml.Node, line, column int) (string, bool) {
	var found []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if path != "" {
				k = path + "." + k
			}
			if v.Line == line && (column == 0 || v.Column == column) {
				found = append(found, k)
			}
			walk(v, k)
		}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		walk(doc.Content[0], "")
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// noValue finds a key of a preset document given with no value (`max_cycles:`
// or `~`), which the decoder would take for a key left out, silently.
func noValue(n *yaml.Node, path string) error {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if path != "" {
			k = path + "." + k
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return fmt.Errorf("line %d: %s has no value; give one, or leave the key out", v.Line, k)
		}
		if err := noValue(v, k); err != nil {
			return err
		}
	}
	return nil
}

// intoType is how the YAML decoder says a value is of the wrong kind.
var intoType = regexp.MustCompile(`^line (\d+): cannot unmarshal !!\w+ (?:` + "`[^`]*` " + `)?into (\S+)$`)

// maxPresetBytes is the largest preset file ReadPreset reads.
const maxPresetBytes = 1 << 20

// ReadPreset reads a preset from YAML (or JSON, which is YAML too). Every
// key of the rules' table is required, unless `base: NAME` starts from a
// built-in preset; unknown keys are errors that name the key and line.
func ReadPreset(r io.Reader) (Preset, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPresetBytes+1))
	if err != nil {
		return Preset{}, err
	}
	if len(data) > maxPresetBytes {
		// Cut at the limit, its last keys would be lost in silence, or
		// a number cut short (max_cycles: 50 read as 5).
		return Preset{}, fmt.Errorf("preset: larger than %d KiB; a preset file is at most that", maxPresetBytes>>10)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f presetFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return Preset{}, errors.New("the preset file is empty")
		}
		var doc yaml.Node
		yaml.Unmarshal(data, &doc) // it decoded as far as the error: no other error to tell
		var ve *valueError
		if errors.As(err, &ve) {
			if key, ok := valueKey(&doc, ve.line, ve.column); ok {
				if ve.outOfRange {
					least, most := countBounds(key)
					return Preset{}, fmt.Errorf("preset: line %d: %s: %s; allowed %d to %d", ve.line, key, ve.problem, least, most)
				}
				return Preset{}, fmt.Errorf("preset: line %d: %s: %s", ve.line, key, ve.problem)
			}
		}
		return Preset{}, fmt.Errorf("preset: %w", yamlProblem(err, &doc))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return Preset{}, errors.New("preset: more than one YAML document (a line ---); a preset is one mapping")
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) == nil {
		if err := noValue(&doc, ""); err != nil {
			return Preset{}, fmt.Errorf("preset: %w", err)
		}
	}
	p, err := f.preset()
	if re := (*RangeError)(nil); errors.As(err, &re) && re.Line == 0 {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			re.Line = keyLine(&doc, re.Key)
		}
	}
	if err != nil {
		return Preset{}, fmt.Errorf("preset: %w", err)
	}
	// A preset named as a built-in one is that one, or it would be taken
	// for it: reports name a preset by its name, and "default #0e7f1fd6"
	// reads as the default.
	if b, err := LookupPreset(p.Name); err == nil && b != p {
		line := ""
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			if n := keyLine(&doc, "name"); n > 0 {
				line = fmt.Sprintf("line %d: ", n)
			}
		}
		return Preset{}, fmt.Errorf("preset: %sname: %s is a built-in preset's name, and these are not its numbers; give this preset a name of its own, or none", line, p.Name)
	}
	return p, nil
}

// keyLine is the line of the value of key ("start.citizens") in a YAML
// document, or 0 when the document does not give it.
func keyLine(n *yaml.Node, key string) int {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for part := range strings.SplitSeq(key, ".") {
		var next *yaml.Node
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return n.Line
}

// UnmarshalJSON reads a preset object of the world JSON: every key of the
// rules' table, or base and the keys it changes.
func (p *Preset) UnmarshalJSON(b []byte) error {
	var f presetFile
	// A key in another case first: it is no key of a preset's, whatever
	// its value ("Max_Cycles": null is not a null max_cycles).
	if json.Valid(b) {
		if err := engine.ExactFieldNames(b, &f); err != nil {
			return err
		}
	}
	if err := presetValues(b, "", reflect.TypeFor[presetFile]()); err != nil {
		return err
	}
	if err := engine.DecodeJSON(b, &f); err != nil {
		return err
	}
	v, err := f.preset()
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// presetValues checks the values of a preset's JSON object one by one, in
// the order of the keys of struct t (presetFile, or start's and steal's
// mappings), so that what is wrong is said with its key ("start.gold"):
// null, which encoding/json would take for a key left out (the base's
// number played, in silence), as a preset file refuses a key with no
// value; and a ratio that is not one, whose own error knows no key. What
// is not an object, and the other values, DecodeJSON judges.
func presetValues(b []byte, path string, t reflect.Type) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		for given, v := range m {
			if given != key { // one in another case is refused before
				continue
			}
			name := given
			if path != "" {
				name = path + "." + given
			}
			v = bytes.TrimSpace(v)
			switch {
			case string(v) == "null":
				return fmt.Errorf("%s is null; give a value, or leave the key out", name)
			case f.Type == reflect.TypeFor[*Ratio]():
				var r Ratio
				if err := r.UnmarshalJSON(v); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
			case f.Type.Elem().Kind() == reflect.Struct:
				if err := presetValues(v, name, f.Type.Elem()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// MarshalJSON writes every constant.
func (p Preset) MarshalJSON() ([]byte, error) {
	type plain Preset
	return json.Marshal(plain(p))
}

func (f *presetFile) preset() (Preset, error) {
	var p Preset
	base := f.Base != nil
	if base {
		b, err := LookupPreset(*f.Base)
		if err != nil {
			return Preset{}, fmt.Errorf("base: %w", err)
		}
		p = b
	}
	var missing []string
	ratio := func(dst *Ratio, src *Ratio, key string) {
		switch {
		case src != nil:
			*dst = *src
		case !base:
			missing = append(missing, key)
		}
	}
	whole := func(dst *int64, src *count, key string) {
		switch {
		case src != nil:
			*dst = int64(*src)
		case !base:
			missing = append(missing, key)
		}
	}
	if f.Name != nil && *f.Name != "" { // "" would be written as no name, "custom"
		p.Name = *f.Name
	} else if base {
		p.Name = "custom (" + *f.Base + ")"
	} else {
		p.Name = "custom"
	}
	if f.Start != nil {
		for r, v := range []*count{f.Start.Gold, f.Start.Food, f.Start.Citizens, f.Start.Army, f.Start.Land} {
			whole(&p.Start[r], v, "start."+Resource(r).String())
		}
	} else if !base {
		missing = append(missing, "start")
	}
	if f.Steal != nil {
		for r, v := range []*Ratio{f.Steal.Gold, f.Steal.Food, f.Steal.Citizens, f.Steal.Army, f.Steal.Land} {
			ratio(&p.Steal[r], v, "steal."+Resource(r).String())
		}
	} else if !base {
		missing = append(missing, "steal")
	}
	ratio(&p.FoodPerCitizen, f.FoodPerCitizen, "food_per_citizen")
	ratio(&p.GoldPerCitizen, f.GoldPerCitizen, "gold_per_citizen")
	ratio(&p.FoodPerSoldier, f.FoodPerSoldier, "food_per_soldier")
	ratio(&p.GoldPerSoldier, f.GoldPerSoldier, "gold_per_soldier")
	ratio(&p.Growth, f.Growth, "growth")
	ratio(&p.LandCapacity, f.LandCapacity, "land_capacity")
	whole(&p.GoldForWar, f.GoldForWar, "gold_for_war")
	ratio(&p.DefendAdvantage, f.DefendAdvantage, "defend_advantage")
	ratio(&p.AttackAdvantage, f.AttackAdvantage, "attack_advantage")
	whole(&p.HungerDeaths, f.HungerDeaths, "hunger_deaths")
	if f.MaxCycles != nil {
		p.MaxCycles = int(*f.MaxCycles)
	} else if !base {
		missing = append(missing, "max_cycles")
	}
	if len(missing) > 0 {
		return Preset{}, fmt.Errorf("missing %s; give every key, or base: NAME (one of %s) and the keys to change",
			strings.Join(missing, ", "), strings.Join(PresetNames(), ", "))
	}
	if err := p.Check(); err != nil {
		return Preset{}, err
	}
	return p, nil
}

// unknownField is how the YAML decoder names an unknown key.
var unknownField = regexp.MustCompile(`field (\S+) not found in type (\S+)`)

// fileKeys are the keys of each mapping of a preset file, by the Go type
// the YAML decoder names: the file itself, its start and its steal.
var fileKeys = map[string][]string{
	"tncc.presetFile": yamlKeys(presetFile{}),
	"tncc.stockFile":  yamlKeys(stockFile{}),
	"tncc.stealJSON":  yamlKeys(stealJSON{}),
}

// yamlKeys lists the YAML keys of struct v's fields, in their order.
func yamlKeys(v any) []string {
	t := reflect.TypeOf(v)
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("yaml")
	}
	return keys
}

// yamlProblem rewords the YAML decoder's errors for people: one line, and
// an unknown key called by its name rather than the Go type's, with the
// nearest key for a typo and the keys its mapping takes.
func yamlProblem(err error, doc *yaml.Node) error {
	msg := unknownField.ReplaceAllStringFunc(err.Error(), func(m string) string {
		f := unknownField.FindStringSubmatch(m)
		keys, ok := fileKeys[f[2]]
		switch near := engine.Nearest(f[1], keys); {
		case !ok:
			return "unknown key " + f[1]
		case near != "":
			return fmt.Sprintf("unknown key %s; did you mean %s? The keys are %s", f[1], near, strings.Join(keys, ", "))
		}
		return fmt.Sprintf("unknown key %s; the keys are %s", f[1], strings.Join(keys, ", "))
	})
	msg = strings.ReplaceAll(msg, "yaml: unmarshal errors:\n  ", "")
	if m := intoType.FindStringSubmatch(msg); m != nil {
		// "cannot unmarshal !!int `5` into tncc.stockFile": say which
		// key, and what it takes, in the file's words.
		line, _ := strconv.Atoi(m[1])
		want := "want a mapping of the keys " + strings.Join(fileKeys["tncc.presetFile"], ", ")
		switch keys, ok := fileKeys[m[2]]; {
		case ok:
			want = "want a mapping of " + strings.Join(keys, ", ")
		case m[2] == "string":
			want = "want a name"
		}
		if key, ok := valueKey(doc, line, 0); ok {
			return fmt.Errorf("line %d: %s: %s", line, key, want)
		}
		return fmt.Errorf("line %d: %s", line, want)
	}
	msg = strings.ReplaceAll(msg, "\n  ", "; ")
	return errors.New(msg)
}
