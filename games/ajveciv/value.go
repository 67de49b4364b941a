package ajveciv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/arbiter-games/arbiter/engine"
)

// Value is one of a society's six values: the lived priorities it chooses
// between. Values are listed in the rules' order, which is also the order that
// breaks ties.
type Value uint8

// The six values, in the rules' order.
const (
	Conquer Value = iota
	Exchange
	Discover
	Expand
	Develop
	Consent

	// NumValues is the number of values.
	NumValues = 6

	// None is no choice: what a dead society "chooses". It is JSON null.
	None Value = 255
)

var valueNames = engine.Names{"conquer", "exchange", "discover", "expand", "develop", "consent"}

// AllValues lists the six values in the rules' order.
var AllValues = [NumValues]Value{Conquer, Exchange, Discover, Expand, Develop, Consent}

// ValueNames returns the six value names in the rules' order.
func ValueNames() []string { return append([]string(nil), valueNames...) }

// Valid reports whether v is one of the six values.
func (v Value) Valid() bool { return v < NumValues }

// String returns the value's name, e.g. "conquer".
func (v Value) String() string {
	switch {
	case v.Valid():
		return valueNames[v]
	case v == None:
		return "none"
	default:
		return fmt.Sprintf("Value(%d)", uint8(v))
	}
}

// ParseValue reads a value's name, in any case.
func ParseValue(s string) (Value, error) {
	i, err := valueNames.Parse(s, "value")
	if err != nil {
		return None, err
	}
	return Value(i), nil
}

// MarshalText returns the value's name; None and invalid values are errors.
func (v Value) MarshalText() ([]byte, error) {
	if !v.Valid() {
		return nil, fmt.Errorf("ajveciv: %v is not one of the six values", v)
	}
	return []byte(valueNames[v]), nil
}

// UnmarshalText reads a value's name.
func (v *Value) UnmarshalText(b []byte) error {
	x, err := ParseValue(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// MarshalJSON writes the value's name, or null for None.
func (v Value) MarshalJSON() ([]byte, error) { return engine.MarshalNullable(v == None, v) }

// UnmarshalJSON reads a value's name, or null as None.
func (v *Value) UnmarshalJSON(b []byte) error {
	none, err := engine.UnmarshalNullable(b, "value", v)
	if none {
		*v = None
	}
	return err
}

// Choice is a society's choice in a turn or an inflection: a value, or None
// for a dead society. Its JSON form is the value's name or null.
type Choice = Value

// choicesJSON reads a JSON array of value names and nulls.
func choicesJSON(data []byte) ([]Value, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, errors.New("choices: want an array of value names and nulls")
	}
	out := make([]Value, len(raw))
	for i, r := range raw {
		if bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
			out[i] = None
			continue
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf("%s: want a value name or null, got %s", choiceAt(i), r)
		}
		v, err := ParseValue(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", choiceAt(i), err)
		}
		out[i] = v
	}
	return out, nil
}

// Values is a society's devotion to each value, indexed by Value. Its JSON
// form is the object {"conquer": 2, "exchange": 2, ...}, in the
// rules' order.
type Values [NumValues]int

// MarshalJSON writes the object form.
func (vs Values) MarshalJSON() ([]byte, error) {
	return valueNames.AppendObject(make([]byte, 0, 96), vs[:]), nil
}

// UnmarshalJSON reads the object form. All six values must be given,
// as whole numbers, and no other key.
func (vs *Values) UnmarshalJSON(data []byte) error {
	var out Values
	if err := valueNames.ParseObject(data, out[:], "values"); err != nil {
		return err
	}
	*vs = out
	return nil
}

// Top returns the three highest values, highest first; ties go to the value
// earlier in the rules' order. These are what an inflection offers.
func (vs *Values) Top() [3]Value {
	// key = devotion·8 + (7 − value) ranks by devotion, then by the earlier
	// value, and is unique per value. Each key is inserted into the three
	// largest so far with max and min only: no unpredictable branches.
	const none = math.MinInt
	k1, k2, k3 := none, none, none
	for v, d := range vs {
		k := d*8 + 7 - v
		k1, k = max(k1, k), min(k1, k)
		k2, k = max(k2, k), min(k2, k)
		k3 = max(k3, k)
	}
	return [3]Value{Value(7 - k1&7), Value(7 - k2&7), Value(7 - k3&7)}
}

// choiceAt names the choice of society i (from 0) in a message as a moves
// file counts it and as people do: "choices[2] (society 3)".
func choiceAt(i int) string { return fmt.Sprintf("choices[%d] (society %d)", i, i+1) }
