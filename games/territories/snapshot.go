package territories

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// snapshot is a World's state as JSON, without its configuration: what the
// referee stores after every transaction so that the next call resumes
// without replaying the log.
type snapshot struct {
	Seq      int           `json:"seq"`
	Turn     int           `json:"turn,omitempty"`
	Dice     []byte        `json:"dice"` // the PCG's state, MarshalBinary
	Nations  []nationJSON  `json:"nations"`
	Holdings []holdingJSON `json:"holdings"`
}

type nationJSON struct {
	Name    string `json:"name"`
	Player  string `json:"player"`
	Color   Color  `json:"color"`
	Joined  int    `json:"joined"`
	Out     int    `json:"out,omitempty"`
	Allowed int    `json:"allowed,omitempty"`
	Used    int    `json:"used,omitempty"`
	Passed  bool   `json:"passed,omitempty"`
}

type holdingJSON struct {
	Territory string `json:"territory"`
	Nation    string `json:"nation"`
	Armies    int    `json:"armies"`
}

// MarshalJSON writes the state of the game, without its configuration:
// sequence number, turn, dice, nations in the order they joined, and the
// holdings in the map's order.
func (w *World) MarshalJSON() ([]byte, error) {
	dice, err := w.dice.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := snapshot{Seq: w.seq, Turn: w.turn, Dice: dice, Nations: make([]nationJSON, len(w.nations)), Holdings: []holdingJSON{}}
	for k, n := range w.nations {
		s.Nations[k] = nationJSON(n)
	}
	for i, h := range w.held {
		if h.Nation >= 0 {
			s.Holdings = append(s.Holdings, holdingJSON{w.cfg.Territories[i].ID, w.nations[h.Nation].Name, h.Armies})
		}
	}
	return json.Marshal(s)
}

// LoadWorld reads a state written by MarshalJSON for a game on cfg, and
// checks it against the rules' invariants.
func LoadWorld(cfg *Config, data []byte) (*World, error) {
	var s snapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("territories state: %w", err)
	}
	w := NewWorld(cfg)
	if err := w.dice.UnmarshalBinary(s.Dice); err != nil {
		return nil, fmt.Errorf("territories state: dice: %w", err)
	}
	if s.Seq < 0 || s.Turn < 0 || (s.Turn == 0) == cfg.TurnManagement {
		return nil, fmt.Errorf("territories state: seq %d, turn %d do not fit the configuration (turn management %v)", s.Seq, s.Turn, cfg.TurnManagement)
	}
	w.seq, w.turn = s.Seq, s.Turn
	for _, n := range s.Nations {
		if w.NationNamed(n.Name) >= 0 || checkName(n.Name) != nil {
			return nil, fmt.Errorf("territories state: nation %q is named twice or badly", n.Name)
		}
		if w.NationOf(n.Player) >= 0 || checkName(n.Player) != nil {
			return nil, fmt.Errorf("territories state: player %q plays two nations or is named badly", n.Player)
		}
		if c, err := ParseColor(string(n.Color)); err != nil || c != n.Color {
			return nil, fmt.Errorf("territories state: nation %s: colour %q is not six lowercase hex digits", n.Name, n.Color)
		}
		if n.Joined < 1 || n.Joined > s.Seq || n.Out < 0 || n.Out > s.Seq || n.Allowed < 0 || n.Used < 0 {
			return nil, fmt.Errorf("territories state: nation %s: numbers out of range", n.Name)
		}
		w.nations = append(w.nations, Nation(n))
	}
	for _, h := range s.Holdings {
		i, err := cfg.Lookup(h.Territory)
		if err != nil || cfg.Territories[i].ID != h.Territory {
			return nil, fmt.Errorf("territories state: holding of %q: not a territory id", h.Territory)
		}
		k := w.NationNamed(h.Nation)
		if k < 0 || w.nations[k].Name != h.Nation || !w.nations[k].In() {
			return nil, fmt.Errorf("territories state: %s is held by %q, not a nation in the game", h.Territory, h.Nation)
		}
		if w.held[i].Nation >= 0 || h.Armies < 1 || h.Armies > cfg.MaxArmies {
			return nil, fmt.Errorf("territories state: %s is held twice, or with %d armies (1 to %d allowed)", h.Territory, h.Armies, cfg.MaxArmies)
		}
		w.held[i] = Holding{Nation: k, Armies: h.Armies}
	}
	for k := range w.nations {
		if w.nations[k].In() && w.Holdings(k) == 0 {
			return nil, fmt.Errorf("territories state: nation %s holds nothing but is not out", w.nations[k].Name)
		}
	}
	return w, nil
}
