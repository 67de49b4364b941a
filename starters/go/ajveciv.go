package main

import "encoding/json"

// AjveCiv: choose the offered value that adds most to your score now.
//
// A society scores its yield plus its population. With d your devotion to
// a value after its rise, conquer, exchange and discover bring d yield,
// develop 3 d (at the cost of d of the world's yield), expand d people (no
// more than the world's yield and your own can feed), consent nothing for
// yourself.

type ajvecivView struct {
	You   int    `json:"you"`
	Kind  string `json:"kind"`
	World struct {
		Yield     int `json:"yield"`
		Societies []struct {
			Values map[string]int `json:"values"`
			Nation struct {
				Population int `json:"population"`
				Yield      int `json:"yield"`
			} `json:"nation"`
		} `json:"societies"`
	} `json:"world"`
}

func decideAjveCiv(r *request) (any, error) {
	var v ajvecivView
	if err := json.Unmarshal(r.View, &v); err != nil {
		return nil, err
	}
	me := v.World.Societies[v.You]
	rise := 1
	if v.Kind == "inflection" {
		rise = 2
	}
	var best string
	bestGain := 0
	for i, c := range r.Choices {
		var value string
		if err := json.Unmarshal(c, &value); err != nil {
			return nil, err
		}
		gain := scoreGain(value, me.Values[value]+rise, me.Nation.Population, me.Nation.Yield, v.World.Yield)
		if i == 0 || gain > bestGain {
			best, bestGain = value, gain
		}
	}
	return best, nil
}

// scoreGain is what choosing value, at devotion d, adds to the score this
// turn.
func scoreGain(value string, d, pop, own, worldYield int) int {
	switch value {
	case "develop":
		// 3 d more yield, the world's yield d less: keep the people fed.
		return 3*d + min(pop, worldYield-d+own+3*d) - pop
	case "expand":
		return min(pop+d, worldYield+own) - pop
	case "conquer", "exchange", "discover":
		return d
	}
	return 0 // consent: the world's yield, and the others' liking
}
