package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Territories: found your nation amid free land, attack where the odds are
// good, spread into free land, and raise armies at the front.
//
// A join is one of the request's choices. An action is a line of text:
// "attack FROM TO", "move FROM:N TO", "raise TERRITORY" or "pass". An
// attack of a armies on b succeeds when a d20 roll beats (b - a) * 2 + 10.

type territoriesView struct {
	Nation    string `json:"nation"`
	MaxArmies int    `json:"max_armies"`
	Map       []struct {
		ID        string   `json:"id"`
		Neighbors []string `json:"neighbors"`
	} `json:"map"`
	Board struct {
		Holdings []struct {
			Territory, Nation string
			Armies            int
		} `json:"holdings"`
	} `json:"board"`
}

func decideTerritories(r *request) (any, error) {
	var v territoriesView
	if err := json.Unmarshal(r.View, &v); err != nil {
		return nil, err
	}
	nation, armies, near := map[string]string{}, map[string]int{}, map[string][]string{}
	for _, h := range v.Board.Holdings {
		nation[h.Territory], armies[h.Territory] = h.Nation, h.Armies
	}
	for _, t := range v.Map {
		near[t.ID] = t.Neighbors
	}
	if r.Kind == "join" {
		best, bestScore := "", 0
		for i, c := range r.Choices {
			var choice string
			if err := json.Unmarshal(c, &choice); err != nil {
				return nil, err
			}
			score, fields := 0, strings.Fields(choice)
			for _, n := range near[fields[len(fields)-1]] {
				if nation[n] != "" {
					score -= 3
				}
				score++
			}
			if i == 0 || score > bestScore {
				best, bestScore = choice, score
			}
		}
		return best, nil
	}
	me, spread, raise, pressed := v.Nation, "", "", -1
	for _, t := range v.Map {
		if nation[t.ID] != me {
			continue
		}
		pressure := 0
		for _, n := range near[t.ID] {
			switch {
			case nation[n] == "" && armies[t.ID] >= 2 && spread == "":
				// Spread into free land from a territory that can spare an army.
				spread = fmt.Sprintf("move %s:1 %s", t.ID, n)
			case nation[n] != "" && nation[n] != me:
				// Attack with two armies more than the defender: a roll above 6 wins.
				if armies[t.ID] >= armies[n]+2 {
					return fmt.Sprintf("attack %s %s", t.ID, n), nil
				}
				pressure += armies[n]
			}
		}
		// Raise where the enemy presses hardest.
		if armies[t.ID] < v.MaxArmies && pressure > pressed {
			raise, pressed = "raise "+t.ID, pressure
		}
	}
	for _, action := range []string{spread, raise} {
		if action != "" {
			return action, nil
		}
	}
	return "pass", nil
}
