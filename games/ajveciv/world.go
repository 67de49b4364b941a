package ajveciv

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// World is the alien world the societies settle: its yield (its capacity to
// support life), how each society feels about each other one, and the
// societies themselves. Its JSON form:
//
//	{"feels": [[0, 0], [-5, 0]], "societies": [{"values": {...}, "nation": {"population": 3, "yield": 3}}, ...], "yield": 20}
//
// with "dead": true on a dead society. Feels[i][j] is society i's feeling
// toward society j; the diagonal is never read or changed.
type World struct {
	Feels     [][]int   `json:"feels"`
	Societies []Society `json:"societies"`
	Yield     int       `json:"yield"`
}

// Society is one people: its values and its nation.
type Society struct {
	Values Values `json:"values"`
	Nation Nation `json:"nation"`
	Dead   bool   `json:"dead,omitempty"`
}

// Nation is a society's land and people.
type Nation struct {
	Population int `json:"population"`
	Yield      int `json:"yield"`
}

// Score is the society's score: nation yield plus population.
func (s *Society) Score() int { return s.Nation.Yield + s.Nation.Population }

// Start values of a new world.
const (
	StartWorldYield = 20
	StartValue      = 2
	StartPopulation = 3
	StartYield      = 3

	// MaxSocieties is the most societies a world may hold.
	MaxSocieties = 20
	// maxMagnitude bounds every number in a world read from outside, so that
	// no amount of play can overflow.
	maxMagnitude = 1_000_000_000_000_000
)

// NewWorld returns the starting world for n societies: world yield 20, no
// feelings either way, and every society with all values at 2, population 3
// and yield 3.
func NewWorld(n int) World {
	w := World{Yield: StartWorldYield, Feels: make([][]int, n), Societies: make([]Society, n)}
	cells := make([]int, n*n)
	for i := range w.Feels {
		w.Feels[i] = cells[i*n : (i+1)*n : (i+1)*n]
		s := &w.Societies[i]
		for v := range s.Values {
			s.Values[v] = StartValue
		}
		s.Nation = Nation{Population: StartPopulation, Yield: StartYield}
	}
	return w
}

// Clone returns a deep copy of w.
func (w *World) Clone() World {
	n := len(w.Feels)
	c := World{Yield: w.Yield, Feels: make([][]int, n), Societies: append([]Society(nil), w.Societies...)}
	cells := make([]int, 0, n*n)
	for i, row := range w.Feels {
		start := len(cells)
		cells = append(cells, row...)
		c.Feels[i] = cells[start:len(cells):len(cells)]
	}
	return c
}

// Living returns the number of living societies.
func (w *World) Living() int {
	n := 0
	for i := range w.Societies {
		if !w.Societies[i].Dead {
			n++
		}
	}
	return n
}

// Check returns an error naming the first thing that makes w inconsistent:
// no societies or more than MaxSocieties, a feels matrix that is not n×n, a
// negative value, a dead society with people, a living one without, or a
// number too large to play with.
func (w *World) Check() error {
	n := len(w.Societies)
	if n == 0 || n > MaxSocieties {
		return fmt.Errorf("world: %d societies; a world has 1 to %d", n, MaxSocieties)
	}
	if len(w.Feels) != n {
		return fmt.Errorf("world: feels has %d rows for %d societies; it must be %d×%d", len(w.Feels), n, n, n)
	}
	for i, row := range w.Feels {
		if len(row) != n {
			return fmt.Errorf("world: feels[%d] (society %d's feelings) has %d entries; it must have one per society (%d)", i, i+1, len(row), n)
		}
		for j, f := range row {
			if err := checkMagnitude(f); err != nil {
				return fmt.Errorf("world: feels[%d][%d] (society %d toward society %d): %w", i, j, i+1, j+1, err)
			}
		}
	}
	if err := checkMagnitude(w.Yield); err != nil {
		return fmt.Errorf("world: yield: %w", err)
	}
	for i := range w.Societies {
		s := &w.Societies[i]
		for v, d := range s.Values {
			if d < 0 {
				return fmt.Errorf("world: societies[%d].values.%s (society %d) is %d; values are never negative", i, Value(v), i+1, d)
			}
			if err := checkMagnitude(d); err != nil {
				return fmt.Errorf("world: societies[%d].values.%s (society %d): %w", i, Value(v), i+1, err)
			}
		}
		if err := checkMagnitude(s.Nation.Yield); err != nil {
			return fmt.Errorf("world: societies[%d].nation.yield (society %d): %w", i, i+1, err)
		}
		if err := checkMagnitude(s.Nation.Population); err != nil {
			return fmt.Errorf("world: societies[%d].nation.population (society %d): %w", i, i+1, err)
		}
		switch {
		case s.Dead && s.Nation.Population != 0:
			return fmt.Errorf("world: societies[%d] (society %d) is dead but has population %d; a dead society has population 0", i, i+1, s.Nation.Population)
		case !s.Dead && s.Nation.Population <= 0:
			return fmt.Errorf("world: societies[%d] (society %d) is alive with population %d; a society without people is dead (\"dead\": true)", i, i+1, s.Nation.Population)
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

// The shape of a world as read from outside, with every field required.
type worldJSON struct {
	Feels     *[][]int       `json:"feels"`
	Societies *[]societyJSON `json:"societies"`
	Yield     *int           `json:"yield"`
}

type societyJSON struct {
	// Values is read society by society, so that its errors name the
	// society (Values' own name only the key).
	Values json.RawMessage `json:"values"`
	Nation *nationJSON     `json:"nation"`
	Dead   *bool           `json:"dead"`
}

type nationJSON struct {
	Population *int `json:"population"`
	Yield      *int `json:"yield"`
}

// ParseWorld reads a world in its JSON shape and checks it. Every field
// is required ("dead" only for a dead society), unknown fields are refused,
// and the world must pass Check.
func ParseWorld(data []byte) (World, error) {
	var in worldJSON
	if err := engine.DecodeJSON(data, &in); err != nil {
		return World{}, fmt.Errorf("world: %w", err)
	}
	switch {
	case in.Feels == nil:
		return World{}, errors.New("world: feels is missing")
	case in.Societies == nil:
		return World{}, errors.New("world: societies is missing")
	case in.Yield == nil:
		return World{}, errors.New("world: yield is missing")
	}
	w := World{Feels: *in.Feels, Yield: *in.Yield, Societies: make([]Society, len(*in.Societies))}
	for i, s := range *in.Societies {
		var values Values
		switch {
		case s.Values == nil || string(s.Values) == "null":
			return World{}, fmt.Errorf("world: societies[%d].values (society %d) is missing", i, i+1)
		case s.Nation == nil:
			return World{}, fmt.Errorf("world: societies[%d].nation (society %d) is missing", i, i+1)
		case s.Nation.Population == nil:
			return World{}, fmt.Errorf("world: societies[%d].nation.population (society %d) is missing", i, i+1)
		case s.Nation.Yield == nil:
			return World{}, fmt.Errorf("world: societies[%d].nation.yield (society %d) is missing", i, i+1)
		}
		if err := json.Unmarshal(s.Values, &values); err != nil {
			return World{}, fmt.Errorf("world: societies[%d] (society %d): %w", i, i+1, err)
		}
		w.Societies[i] = Society{Values: values, Nation: Nation{Population: *s.Nation.Population, Yield: *s.Nation.Yield}}
		if s.Dead != nil {
			w.Societies[i].Dead = *s.Dead
		}
	}
	if err := w.Check(); err != nil {
		return World{}, err
	}
	// A society's feeling toward itself is read by no rule and changed by
	// none: a number there would be carried along and do nothing.
	for i, row := range w.Feels {
		if row[i] != 0 {
			return World{}, fmt.Errorf("world: feels[%d][%d] is %d, society %d's feeling toward itself, which no rule reads; it must be 0", i, i, row[i], i+1)
		}
	}
	return w, nil
}

// String formats the world as a table for people: the world's yield, then
// one row per society with its nation and values, then how each society
// feels about each other one. It fits 80 columns.
func (w World) String() string {
	var b strings.Builder
	n := len(w.Societies)
	b.Grow(320 + 64*n + 8*n*n) // the board's usual size: one growth at most
	b.WriteString("world yield ")
	b.WriteString(strconv.Itoa(w.Yield))
	b.WriteByte('\n')
	w.writeBoard(&b, -1, nil, nil, "")
	return b.String()
}
