package main

import "encoding/json"

// Reaj: choose the value that adds most to your final score.
//
// The score is your resources plus every positive disposition toward you
// at the end. Adapt adds 1 resource every turn left (upkeep); expand and
// develop 3 now but cost 1 every turn left; conquer takes 1 from each
// society less devoted to conquest but loses the goodwill of those who like
// you; consent wins 1 of goodwill from each living society that does not
// dislike you; exchange brings 1 from each society that likes you.

type reajView struct {
	You         int `json:"you"`
	Turn        int `json:"turn"`
	Turns       int `json:"turns"`
	Environment struct {
		Land    int `json:"land"`
		Ecology int `json:"ecology"`
	} `json:"environment"`
	Societies []struct {
		Values map[string]int `json:"values"`
		Dead   bool           `json:"dead"`
	} `json:"societies"`
	Relations [][]int `json:"relations"`
}

func decideReaj(r *request) (any, error) {
	var v reajView
	if err := json.Unmarshal(r.View, &v); err != nil {
		return nil, err
	}
	left := v.Turns - v.Turn + 1
	gains := map[string]int{"adapt": left, "expand": -left, "develop": -left}
	if v.Environment.Land > 0 {
		gains["expand"] += 3
	}
	if v.Environment.Ecology > 0 {
		gains["develop"] += 3
	}
	mine := v.Societies[v.You].Values["conquer"]
	for i, s := range v.Societies {
		if i == v.You {
			continue
		}
		toMe := v.Relations[i][v.You]
		if s.Values["conquer"] < mine+1 {
			gains["conquer"]++
		}
		if toMe > 0 {
			gains["exchange"]++
		}
		if !s.Dead && toMe > 0 {
			gains["conquer"]--
		}
		if !s.Dead && toMe >= 0 {
			gains["consent"]++
		}
	}
	// The best gain; adapt on ties, as it pays every turn.
	best := "adapt"
	for _, value := range []string{"consent", "develop", "expand", "exchange", "conquer"} {
		if gains[value] > gains[best] {
			best = value
		}
	}
	return best, nil
}
