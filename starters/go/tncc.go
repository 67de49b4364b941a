package main

import "encoding/json"

// TNCC: arm against the strongest rival, strike the weakest when sure to
// win, defend with everything, and take only trades that pay.
//
// A turn is one action: {"type": "wait"}, {"type": "recruit", "n": N},
// {"type": "trade", "with": C, "give": R, "give_n": N, "take": R,
// "take_n": M} or {"type": "war", "target": C, "flanks": [LEFT, FRONT,
// RIGHT]}. A trade offer is answered {"accept": true} or {"accept": false};
// an attack with {"flanks": [LEFT, FRONT, RIGHT]}. The view's "numbers" are
// the preset's.

type country struct {
	Gold     int64 `json:"gold"`
	Food     int64 `json:"food"`
	Citizens int64 `json:"citizens"`
	Army     int64 `json:"army"`
	Land     int64 `json:"land"`
	Dead     bool  `json:"dead"`
}

// has returns how much of a resource, by name, the country holds.
func (c country) has(resource string) int64 {
	return map[string]int64{"gold": c.Gold, "food": c.Food, "citizens": c.Citizens, "army": c.Army, "land": c.Land}[resource]
}

type tnccView struct {
	You       int       `json:"you"`
	Countries []country `json:"countries"`
	Numbers   struct {
		GoldForWar      int64   `json:"gold_for_war"`
		DefendAdvantage float64 `json:"defend_advantage"`
	} `json:"numbers"`
	Offer *struct {
		Give  string `json:"give"`
		GiveN int64  `json:"give_n"`
		Take  string `json:"take"`
		TakeN int64  `json:"take_n"`
	} `json:"offer"`
}

var worth = map[string]float64{"gold": 1, "food": 0.5, "citizens": 2, "army": 2, "land": 10}

func decideTNCC(r *request) (any, error) {
	var v tnccView
	if err := json.Unmarshal(r.View, &v); err != nil {
		return nil, err
	}
	me := v.Countries[v.You]
	switch r.Kind {
	case "war answer":
		return map[string]any{"flanks": thirds(me.Army)}, nil
	case "trade answer":
		o := v.Offer
		gain := float64(o.GiveN)*worth[o.Give] - float64(o.TakeN)*worth[o.Take]
		return map[string]bool{"accept": gain > 0 && me.has(o.Take) >= o.TakeN}, nil
	}
	cost := v.Numbers.GoldForWar
	weakest, threat := -1, int64(0)
	for i, c := range v.Countries {
		if i == v.You || c.Dead {
			continue
		}
		if weakest < 0 || c.Army < v.Countries[weakest].Army {
			weakest = i
		}
		if c.Gold >= cost {
			threat = max(threat, c.Army)
		}
	}
	if weakest < 0 {
		return map[string]string{"type": "wait"}, nil
	}
	// Strike the weakest rival when the army beats its whole army on every
	// flank, however it defends.
	if me.Gold >= cost && me.Army > 0 && float64(me.Army) >= 3*(v.Numbers.DefendAdvantage*float64(v.Countries[weakest].Army)+10) {
		return map[string]any{"type": "war", "target": weakest, "flanks": thirds(me.Army)}, nil
	}
	// Arm against the largest army of a rival that could afford a war, as
	// far as half the citizens allow.
	if want := min(threat+10, me.Army+me.Citizens/2); want > me.Army {
		return map[string]any{"type": "recruit", "n": want - me.Army}, nil
	}
	return map[string]string{"type": "wait"}, nil
}

func thirds(army int64) []int64 {
	third := army / 3
	return []int64{third, army - 2*third, third}
}
