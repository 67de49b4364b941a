package tournament

import "math"

// Neighbours are two players next to each other in the standings, and how
// sure their ratings are of their order.
type Neighbours struct {
	Upper, Lower string
	// Sure is the probability, by the two ratings as normal beliefs, that
	// the upper player's skill is above the lower's:
	// Φ((μu − μl) / √(σu² + σl²)).
	Sure float64
}

// Order returns every pair of neighbours in standings (best first, as
// Table.Standings gives them), top down.
func Order(standings []Standing) []Neighbours {
	if len(standings) < 2 {
		return nil
	}
	out := make([]Neighbours, 0, len(standings)-1)
	for i := range len(standings) - 1 {
		u, l := standings[i].Rating, standings[i+1].Rating
		z := (u.Mu - l.Mu) / math.Sqrt(u.Sigma*u.Sigma+l.Sigma*l.Sigma)
		out = append(out, Neighbours{Upper: standings[i].Player, Lower: standings[i+1].Player, Sure: math.Erfc(-z/math.Sqrt2) / 2})
	}
	return out
}

// Uncertain returns the neighbours whose order is less sure than
// confidence (0.95 for 95%); none when the whole order is settled.
func Uncertain(neighbours []Neighbours, confidence float64) []Neighbours {
	var out []Neighbours
	for _, n := range neighbours {
		if n.Sure < confidence {
			out = append(out, n)
		}
	}
	return out
}

// Settled reports whether every pair of neighbours in the table's
// standings is ordered at confidence. The ratings are Bayesian beliefs, so
// asking after every game does not make them any less so.
func (t *Table) Settled(confidence float64) bool {
	if t.Played == 0 {
		return false
	}
	for _, n := range Order(t.Standings()) {
		if n.Sure < confidence {
			return false
		}
	}
	return true
}
