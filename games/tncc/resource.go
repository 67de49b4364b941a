package tncc

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Resource is one of the five things a country holds.
type Resource uint8

// The five resources, in the rules' order.
const (
	Gold Resource = iota
	Food
	Citizens
	Army
	Land
	NumResources = 5
)

var resourceNames = engine.Names{"gold", "food", "citizens", "army", "land"}

// String returns the resource's name: "gold", "food", "citizens", "army",
// "land".
func (r Resource) String() string {
	if int(r) < len(resourceNames) {
		return resourceNames[r]
	}
	return fmt.Sprintf("Resource(%d)", uint8(r))
}

// Valid reports whether r is one of the five resources.
func (r Resource) Valid() bool { return r < NumResources }

// ParseResource reads a resource's name.
func ParseResource(s string) (Resource, error) {
	i, err := resourceNames.Parse(strings.TrimSpace(s), "resource")
	if err != nil {
		return 0, err
	}
	return Resource(i), nil
}

// MarshalText writes the resource's name.
func (r Resource) MarshalText() ([]byte, error) {
	if !r.Valid() {
		return nil, fmt.Errorf("no resource %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a resource's name.
func (r *Resource) UnmarshalText(b []byte) error {
	v, err := ParseResource(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

const allResources = "gold, food, citizens, army and land"

// Stock is an amount of each resource, indexed by Resource.
type Stock [NumResources]int64

// stockJSON is a Stock's JSON shape: {"gold": 600, "food": 800, ...}.
type stockJSON struct {
	Gold     *int64 `json:"gold"`
	Food     *int64 `json:"food"`
	Citizens *int64 `json:"citizens"`
	Army     *int64 `json:"army"`
	Land     *int64 `json:"land"`
}

// MarshalJSON writes {"gold": …, "food": …, "citizens": …, "army": …, "land": …}.
func (s Stock) MarshalJSON() ([]byte, error) {
	return json.Marshal(stockJSON{&s[Gold], &s[Food], &s[Citizens], &s[Army], &s[Land]})
}

// UnmarshalJSON reads a stock; every resource is required.
func (s *Stock) UnmarshalJSON(b []byte) error {
	var j stockJSON
	if err := engine.DecodeJSON(b, &j); err != nil {
		return err
	}
	for r, p := range []*int64{j.Gold, j.Food, j.Citizens, j.Army, j.Land} {
		if p == nil {
			return fmt.Errorf("%s is missing; all of %s are required", Resource(r), allResources)
		}
		s[r] = *p
	}
	return nil
}

// Steal is the share of each resource an attacker that wins takes per
// surviving soldier.
type Steal [NumResources]Ratio

type stealJSON struct {
	Gold     *Ratio `json:"gold" yaml:"gold"`
	Food     *Ratio `json:"food" yaml:"food"`
	Citizens *Ratio `json:"citizens" yaml:"citizens"`
	Army     *Ratio `json:"army" yaml:"army"`
	Land     *Ratio `json:"land" yaml:"land"`
}

// MarshalJSON writes {"gold": 0.5, ...}.
func (s Steal) MarshalJSON() ([]byte, error) {
	return json.Marshal(stealJSON{&s[Gold], &s[Food], &s[Citizens], &s[Army], &s[Land]})
}

// UnmarshalJSON reads a steal table; every resource is required.
func (s *Steal) UnmarshalJSON(b []byte) error {
	var j stealJSON
	if err := engine.DecodeJSON(b, &j); err != nil {
		return err
	}
	return s.set(j)
}

func (s *Steal) set(j stealJSON) error {
	for r, p := range []*Ratio{j.Gold, j.Food, j.Citizens, j.Army, j.Land} {
		if p == nil {
			return fmt.Errorf("%s is missing; all of %s are required", Resource(r), allResources)
		}
		s[r] = *p
	}
	return nil
}
