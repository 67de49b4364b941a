package reaj

import (
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// Value is one of the six values a society may choose each turn, in the
// rules' order.
type Value uint8

// The six values.
const (
	Conquer Value = iota
	Exchange
	Expand
	Develop
	Consent
	Adapt

	// NumValues is the number of values.
	NumValues = 6

	// None is no choice: what a dead society "chooses". It is JSON null.
	None Value = 255
)

var valueNames = engine.Names{"conquer", "exchange", "expand", "develop", "consent", "adapt"}

// AllValues lists the six values in the rules' order. Every one is offered
// every turn.
var AllValues = []Value{Conquer, Exchange, Expand, Develop, Consent, Adapt}

// Valid reports whether v is one of the six values.
func (v Value) Valid() bool { return v < NumValues }

// String returns the value's name, e.g. "adapt".
func (v Value) String() string {
	switch {
	case v.Valid():
		return valueNames[v]
	case v == None:
		return "none"
	}
	return fmt.Sprintf("Value(%d)", uint8(v))
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
		return nil, fmt.Errorf("reaj: %v is not one of the six values", v)
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

// Values is a society's devotion to each value, indexed by Value. Its JSON
// form is {"conquer": 0, "exchange": 0, ...}, in the rules' order.
type Values [NumValues]int

// MarshalJSON writes the object form.
func (vs Values) MarshalJSON() ([]byte, error) {
	return valueNames.AppendObject(make([]byte, 0, 96), vs[:]), nil
}

// UnmarshalJSON reads the object form: all six values, whole numbers, no
// other key.
func (vs *Values) UnmarshalJSON(data []byte) error {
	var out Values
	if err := valueNames.ParseObject(data, out[:], "values"); err != nil {
		return err
	}
	*vs = out
	return nil
}

// Upkeep is what the values cost or bring each turn: adapt less expand and
// develop.
func (vs *Values) Upkeep() int { return vs[Adapt] - vs[Expand] - vs[Develop] }
