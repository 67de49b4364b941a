package reaj

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// State is the shared environment, the societies, and their relations: the
// JSON {environment, societies, relations}. Relations[i][j] is society i's
// disposition toward society j; the diagonal is never read or changed.
type State struct {
	Environment Environment `json:"environment"`
	Societies   []Society   `json:"societies"`
	Relations   [][]int     `json:"relations"`
}

// Environment is what every society shares: land, ecology and resources.
// Resources grow each turn by the ecology.
type Environment struct {
	Land      int `json:"land"`
	Ecology   int `json:"ecology"`
	Resources int `json:"resources"`
}

// Society is one people: its own resources and its values. A dead society
// has Dead set, and Died is the turn it died (0 when not known).
type Society struct {
	Resources int    `json:"resources"`
	Values    Values `json:"values"`
	Dead      bool   `json:"dead,omitempty"`
	Died      int    `json:"died,omitempty"`
}

// Start values.
const (
	StartLand      = 10
	StartEcology   = 10
	StartResources = 10 // the environment's
	StartOwn       = 10 // each society's

	// MaxSocieties is the most societies a game holds.
	MaxSocieties = 16
	// maxMagnitude bounds every number read from outside, so that no amount
	// of play can overflow.
	maxMagnitude = 1_000_000_000_000_000
)

// NewState returns the starting state for n societies: land, ecology and
// resources 10; each society with 10 resources and every value 0; every
// disposition 0.
func NewState(n int) State {
	st := State{
		Environment: Environment{Land: StartLand, Ecology: StartEcology, Resources: StartResources},
		Societies:   make([]Society, n),
		Relations:   make([][]int, n),
	}
	cells := make([]int, n*n)
	for i := range st.Societies {
		st.Societies[i].Resources = StartOwn
		st.Relations[i] = cells[i*n : (i+1)*n : (i+1)*n]
	}
	return st
}

// Clone returns a deep copy of st.
func (st *State) Clone() State {
	n := len(st.Relations)
	c := State{Environment: st.Environment, Societies: append([]Society(nil), st.Societies...), Relations: make([][]int, n)}
	cells := make([]int, 0, n*n)
	for i, row := range st.Relations {
		start := len(cells)
		cells = append(cells, row...)
		c.Relations[i] = cells[start:len(cells):len(cells)]
	}
	return c
}

// Living returns the number of living societies.
func (st *State) Living() int {
	n := 0
	for i := range st.Societies {
		if !st.Societies[i].Dead {
			n++
		}
	}
	return n
}

// Score returns society i's score: its resources plus every positive
// disposition toward it. The dead are scored too: a society remembered
// well still counts.
func (st *State) Score(i int) int {
	score := st.Societies[i].Resources
	for j, row := range st.Relations {
		if j != i {
			score += max(0, row[i])
		}
	}
	return score
}

// Check returns an error naming the first thing that makes st inconsistent:
// no societies or more than MaxSocieties, relations that are not n×n, a
// negative amount (land, ecology, resources, values), a dead society with
// resources, or a number too large to play with.
func (st *State) Check() error {
	n := len(st.Societies)
	if n == 0 || n > MaxSocieties {
		return fmt.Errorf("state: %d societies; a game has 1 to %d", n, MaxSocieties)
	}
	if len(st.Relations) != n {
		return fmt.Errorf("state: relations has %d rows for %d societies; it must be %d×%d", len(st.Relations), n, n, n)
	}
	for i, row := range st.Relations {
		if len(row) != n {
			return fmt.Errorf("state: relations[%d] has %d entries; it must have one per society (%d)", i, len(row), n)
		}
		for j, r := range row {
			if err := checkMagnitude(r); err != nil {
				return fmt.Errorf("state: relations[%d][%d]: %w", i, j, err)
			}
		}
	}
	env := st.Environment
	for _, f := range []struct {
		name string
		v    int
	}{{"land", env.Land}, {"ecology", env.Ecology}, {"resources", env.Resources}} {
		if f.v < 0 {
			return fmt.Errorf("state: environment.%s is %d; it is never negative", f.name, f.v)
		}
		if err := checkMagnitude(f.v); err != nil {
			return fmt.Errorf("state: environment.%s: %w", f.name, err)
		}
	}
	for i := range st.Societies {
		s := &st.Societies[i]
		if s.Resources < 0 {
			return fmt.Errorf("state: societies[%d].resources is %d; a society's resources are never negative", i, s.Resources)
		}
		if err := checkMagnitude(s.Resources); err != nil {
			return fmt.Errorf("state: societies[%d].resources: %w", i, err)
		}
		for v, d := range s.Values {
			if d < 0 {
				return fmt.Errorf("state: societies[%d].values.%s is %d; values are never negative", i, Value(v), d)
			}
			if err := checkMagnitude(d); err != nil {
				return fmt.Errorf("state: societies[%d].values.%s: %w", i, Value(v), err)
			}
		}
		switch {
		case s.Dead && s.Resources != 0:
			return fmt.Errorf("state: societies[%d] is dead but has %d resources; a society dies with none", i, s.Resources)
		case !s.Dead && s.Died != 0:
			return fmt.Errorf("state: societies[%d] is alive but has died %d; died is only for the dead", i, s.Died)
		case s.Died < 0:
			return fmt.Errorf("state: societies[%d].died is %d; it is a turn, from 1", i, s.Died)
		}
	}
	return nil
}

func checkMagnitude(x int) error {
	if x > maxMagnitude || x < -maxMagnitude {
		return fmt.Errorf("%d is out of range; numbers are within ±%d", x, maxMagnitude)
	}
	return nil
}

// The shape of a state as read from outside, with every field required.
type stateJSON struct {
	Environment *struct {
		Land      *int `json:"land"`
		Ecology   *int `json:"ecology"`
		Resources *int `json:"resources"`
	} `json:"environment"`
	Societies *[]struct {
		Resources *int            `json:"resources"`
		Values    json.RawMessage `json:"values"` // read society by society, for errors that name it
		Dead      *bool           `json:"dead"`
		Died      *int            `json:"died"`
	} `json:"societies"`
	Relations *[][]int `json:"relations"`
}

// ParseState reads a state in its JSON shape and checks it. Every field is
// required ("dead" and "died" only for the dead), unknown fields are
// refused, and the state must pass Check.
func ParseState(data []byte) (State, error) {
	var in stateJSON
	if err := engine.DecodeJSON(data, &in); err != nil {
		return State{}, fmt.Errorf("state: %w", err)
	}
	switch {
	case in.Environment == nil:
		return State{}, errors.New("state: environment is missing")
	case in.Environment.Land == nil || in.Environment.Ecology == nil || in.Environment.Resources == nil:
		return State{}, errors.New("state: environment needs land, ecology and resources")
	case in.Societies == nil:
		return State{}, errors.New("state: societies is missing")
	case in.Relations == nil:
		return State{}, errors.New("state: relations is missing")
	}
	e := in.Environment
	st := State{Environment: Environment{Land: *e.Land, Ecology: *e.Ecology, Resources: *e.Resources}, Relations: *in.Relations}
	for i, s := range *in.Societies {
		switch {
		case s.Resources == nil:
			return State{}, fmt.Errorf("state: societies[%d].resources is missing", i)
		case s.Values == nil || string(s.Values) == "null":
			return State{}, fmt.Errorf("state: societies[%d].values is missing", i)
		}
		var values Values
		if err := json.Unmarshal(s.Values, &values); err != nil {
			return State{}, fmt.Errorf("state: societies[%d]: %w", i, err)
		}
		soc := Society{Resources: *s.Resources, Values: values}
		if s.Dead != nil {
			soc.Dead = *s.Dead
		}
		if s.Died != nil {
			soc.Died = *s.Died
		}
		st.Societies = append(st.Societies, soc)
	}
	if err := st.Check(); err != nil {
		return State{}, err
	}
	// A society's disposition toward itself counts in no score and no
	// exchange, and no choice changes it: a number there would be carried
	// along and do nothing.
	for i, row := range st.Relations {
		if row[i] != 0 {
			return State{}, fmt.Errorf("state: relations[%d][%d] is %d, society %d's disposition toward itself, which no rule reads; it must be 0", i, i, row[i], i+1)
		}
	}
	return st, nil
}

// String formats the state as a table for people: the environment, then
// one row per society with its resources, score and values, then the
// dispositions. It fits 80 columns.
func (st State) String() string {
	var b strings.Builder
	e := st.Environment
	fmt.Fprintf(&b, "environment: land %d, ecology %d, resources %d\n", e.Land, e.Ecology, e.Resources)
	st.writeBoard(&b, -1, nil, nil)
	return b.String()
}

// copyState makes dst a deep copy of src, reusing dst's memory.
func copyState(dst, src *State) {
	n := len(src.Societies)
	dst.Environment = src.Environment
	dst.Societies = append(dst.Societies[:0], src.Societies...)
	if cap(dst.Relations) < n {
		dst.Relations = make([][]int, n)
	}
	dst.Relations = dst.Relations[:n]
	for i, row := range src.Relations {
		dst.Relations[i] = append(dst.Relations[i][:0], row...)
	}
}
