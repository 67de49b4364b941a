package tncc

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// countryJS is a country in the world JSON: the five resources, and "dead"
// (with "died", the cycle) for a dead one.
type countryJS struct {
	Gold     *int64 `json:"gold"`
	Food     *int64 `json:"food"`
	Citizens *int64 `json:"citizens"`
	Army     *int64 `json:"army"`
	Land     *int64 `json:"land"`
	Dead     bool   `json:"dead,omitempty"`
	Died     int    `json:"died,omitempty"`
}

func countryJSON(c *Country) countryJS {
	s := c.Stock
	return countryJS{&s[Gold], &s[Food], &s[Citizens], &s[Army], &s[Land], c.Dead, c.Died}
}

func (j countryJS) country(i int) (Country, error) {
	var c Country
	for r, p := range []*int64{j.Gold, j.Food, j.Citizens, j.Army, j.Land} {
		if p == nil {
			return c, fmt.Errorf("countries[%d]: %s is missing; every country has %s", i, Resource(r), allResources)
		}
		if *p < 0 || *p > MaxAmount {
			return c, fmt.Errorf("countries[%d].%s: %d is out of range; allowed 0 to %d", i, Resource(r), *p, int64(MaxAmount))
		}
		c.Stock[r] = *p
	}
	c.Dead, c.Died = j.Dead, j.Died
	switch {
	case !c.Dead && c.Died != 0:
		return c, fmt.Errorf("countries[%d]: died is for a dead country", i)
	case c.Dead && c.Stock[Citizens] > 0:
		return c, fmt.Errorf("countries[%d]: a dead country has no citizens; it has %d", i, c.Stock[Citizens])
	}
	return c, nil
}

// worldJSON is the rules' world JSON: {"preset": NAME or {...}, "cycle": N,
// "countries": [...]}.
type worldJSON struct {
	Preset    json.RawMessage `json:"preset"`
	Cycle     int             `json:"cycle"`
	Countries []countryJS     `json:"countries"`
}

func toWorldJSON(w *World) worldJSON {
	j := worldJSON{Cycle: w.Cycle, Preset: presetJSON(&w.Preset)}
	for i := range w.Countries {
		j.Countries = append(j.Countries, countryJSON(&w.Countries[i]))
	}
	return j
}

// presetJSON is the preset's name when it is a built-in one, unchanged;
// else every constant.
func presetJSON(p *Preset) json.RawMessage {
	if b, err := LookupPreset(p.Name); err == nil && b == *p {
		q, _ := json.Marshal(p.Name)
		return q
	}
	q, _ := json.Marshal(p)
	return q
}

// MarshalJSON writes the world in the rules' world JSON.
func (w World) MarshalJSON() ([]byte, error) { return json.Marshal(toWorldJSON(&w)) }

// UnmarshalJSON reads the rules' world JSON, checking every field.
func (w *World) UnmarshalJSON(b []byte) error {
	var j worldJSON
	if err := engine.DecodeJSON(b, &j); err != nil {
		return err
	}
	var p Preset
	switch {
	case len(j.Preset) == 0 || string(j.Preset) == "null":
		return fmt.Errorf("preset is missing: a preset's name (%s) or an object with every constant", strings.Join(PresetNames(), ", "))
	case j.Preset[0] == '"':
		var name string
		if err := json.Unmarshal(j.Preset, &name); err != nil {
			return fmt.Errorf("preset: %v", err)
		}
		var err error
		if p, err = LookupPreset(name); err != nil {
			return fmt.Errorf("preset: %w", err)
		}
	default:
		if err := json.Unmarshal(j.Preset, &p); err != nil {
			return fmt.Errorf("preset: %w", err)
		}
	}
	if j.Cycle < 1 || j.Cycle > MaxCyclesLimit+1 {
		return fmt.Errorf("cycle: %d is out of range; allowed 1 to %d", j.Cycle, MaxCyclesLimit+1)
	}
	if n := len(j.Countries); n < MinCountries || n > MaxCountries {
		return fmt.Errorf("countries: %d countries; a world has %d to %d", n, MinCountries, MaxCountries)
	}
	v := World{Preset: p, Cycle: j.Cycle, Countries: make([]Country, len(j.Countries))}
	for i, c := range j.Countries {
		var err error
		if v.Countries[i], err = c.country(i); err != nil {
			return err
		}
	}
	*w = v
	return nil
}

// entryJSON is a history entry for programs.
type entryJSON struct {
	Cycle   int        `json:"cycle"`
	Seat    int        `json:"seat"`
	Action  string     `json:"action"`
	N       *int64     `json:"n,omitempty"`
	Trade   *tradeJSON `json:"trade,omitempty"`
	War     *Battle    `json:"war,omitempty"`
	Refused string     `json:"refused,omitempty"`
}

type tradeJSON struct {
	With     int      `json:"with"`
	Give     Resource `json:"give"`
	GiveN    int64    `json:"give_n"`
	Take     Resource `json:"take"`
	TakeN    int64    `json:"take_n"`
	Accepted bool     `json:"accepted"`
}

func toEntryJSON(e Entry) entryJSON {
	j := entryJSON{Cycle: e.Cycle, Seat: e.Seat, Action: e.Type.String(), Refused: e.Refused}
	switch e.Type {
	case Recruit:
		n := e.N
		j.N = &n
	case Trade:
		o := e.Offer
		j.Trade = &tradeJSON{With: o.With, Give: o.Give, GiveN: o.GiveN, Take: o.Take, TakeN: o.TakeN, Accepted: e.Accepted}
	case War:
		b := e.Battle
		j.War = &b
	}
	return j
}

// MarshalJSON writes the entry: cycle, seat, action, and its public outcome.
func (e Entry) MarshalJSON() ([]byte, error) { return json.Marshal(toEntryJSON(e)) }

// battleJSON is a battle's JSON shape.
type battleJSON struct {
	Attacker      int     `json:"attacker"`
	Defender      int     `json:"defender"`
	Sent          int64   `json:"sent"`
	Defended      int64   `json:"defended"`
	AttackersLeft int64   `json:"attackers_left"`
	DefendersLeft int64   `json:"defenders_left"`
	Winner        Outcome `json:"winner"`
	Loot          Stock   `json:"loot"`
}

// MarshalJSON writes the battle as everyone may read it.
func (b Battle) MarshalJSON() ([]byte, error) {
	return json.Marshal(battleJSON{b.Attacker, b.Defender, b.Sent, b.Defended, b.AttackersLeft, b.DefendersLeft, b.Outcome, b.Loot})
}

// Public is what a spectator may know of a match at one moment: the world,
// and what happened in the last cycle played. It is a copy.
type Public struct {
	World World
	// Cycle is the number of cycles played (the match's Clock), and Told
	// what happened in the last of them, as everyone may read it: every
	// action in seat order, and the countries that died.
	Cycle int
	Told  []string
	// Players names each seat's player.
	Players []string
}

// Renamed is p with the seats' players named players (see engine.Renamer).
func (p *Public) Renamed(players []string) any {
	q := *p
	q.Players = players
	return &q
}

func newPublic(m *Match) *Public {
	p := &Public{World: m.world.Clone(), Cycle: m.Clock(), Players: m.players}
	if p.Cycle == 0 {
		return p
	}
	var waited []string
	for i := range m.hist.len() {
		e := m.hist.entry(i)
		switch {
		case e.Cycle != p.Cycle:
		case e.Type == Wait && e.Refused == "":
			waited = append(waited, fmt.Sprint(e.Seat+1))
		default:
			p.Told = append(p.Told, e.String())
		}
	}
	if len(waited) > 0 {
		word := "country"
		if len(waited) > 1 {
			word = "countries"
		}
		p.Told = append(p.Told, fmt.Sprintf("%s %s waited", word, strings.Join(waited, ", ")))
	}
	for _, d := range m.deaths {
		if d.cycle == p.Cycle {
			p.Told = append(p.Told, fmt.Sprintf("country %d died", d.seat+1))
		}
	}
	return p
}

// publicJSON is a spectator's view in JSON: the world as the rules' world
// JSON writes it, but with the preset as a seat's view has it, always its
// name, and a custom preset's numbers beside it.
type publicJSON struct {
	Preset    string      `json:"preset"`
	Numbers   *Preset     `json:"numbers,omitempty"`
	Cycle     int         `json:"cycle"`
	Countries []countryJS `json:"countries"`
}

// MarshalJSON writes the public view: {"preset": NAME, "numbers": {...},
// "cycle": N, "countries": [...]}. The preset is its name whether it is a
// built-in preset or a custom one ("custom (default)"), as in a seat's
// view; numbers, every constant, are there for a custom preset only.
func (p *Public) MarshalJSON() ([]byte, error) {
	w := &p.World
	j := publicJSON{Preset: cmp.Or(w.Preset.Name, "custom"), Cycle: w.Cycle, Countries: make([]countryJS, len(w.Countries))}
	if w.Preset.Option() != w.Preset.Name {
		// A custom preset's numbers; a built-in one's name says them
		// (arbiter games --json), and a report's every sample of the
		// history would repeat them.
		j.Numbers = &w.Preset
	}
	for i := range w.Countries {
		j.Countries[i] = countryJSON(&w.Countries[i])
	}
	return json.Marshal(j)
}

// publicWidth is the widest a line of the public view is: 80 columns,
// less the indent of a report.
const publicWidth = wrap.Width - 2

// String tells what happened in the last cycle played, one line each, then
// shows the countries, for people. It fits 78 columns, so that a report,
// which indents it by two, fits 80.
func (p *Public) String() string {
	var b strings.Builder
	for _, t := range p.Told {
		wrap.Write(&b, t, "- ", "  ", publicWidth)
	}
	writeCountries(&b, &p.World, -1, p.Players, publicWidth)
	return b.String()
}
