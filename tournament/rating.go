package tournament

import "math"

// Rating is a player's skill as the Weng–Lin Bayesian rating system sees it
// ("A Bayesian Approximation Method for Online Ranking", Weng and Lin, 2011):
// a normal belief with mean Mu and standard deviation Sigma. Arbiter uses its
// Plackett–Luce model, as OpenSkill does: it rates games of any number of
// players from their ranks alone, ties included.
//
// Why this one: games here are free-for-alls of 2 to 20 seats with shared
// places, and the model is made for exactly that; it updates after each game
// in microseconds, so a tournament of 10,000 games rates in milliseconds; and
// its uncertainty gives a conservative order (Ordinal, μ − 3σ) that does not
// reward a lucky start. No Go library for it installs here, so it is written
// out below and checked against OpenSkill's published test values.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// The model's parameters, OpenSkill's defaults.
const (
	mu0   = 25.0
	sigma = mu0 / 3   // a newcomer's uncertainty
	beta  = sigma / 2 // the spread of one game's performance around skill
	kappa = 0.0001    // the least a variance may shrink to, as a fraction
)

// NewRating returns a newcomer's rating: μ 25, σ 25/3.
func NewRating() Rating { return Rating{Mu: mu0, Sigma: sigma} }

// Ordinal is the rating to sort by: μ − 3σ, a level the player's true skill
// is above with 99.7% certainty.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Rate updates the ratings of teams after one game. ranks holds each team's
// place, lower is better, equal for a tie. It returns new ratings; the
// arguments are not changed. A game of fewer than two teams changes nothing.
func Rate(teams [][]Rating, ranks []float64) [][]Rating {
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = append([]Rating(nil), t...)
	}
	if len(teams) < 2 {
		return out
	}
	type team struct{ mu, sigmaSq, rank float64 }
	ts := make([]team, len(teams))
	cSq := 0.0
	for i, t := range teams {
		for _, r := range t {
			ts[i].mu += r.Mu
			ts[i].sigmaSq += r.Sigma * r.Sigma
		}
		ts[i].rank = ranks[i]
		cSq += ts[i].sigmaSq + beta*beta
	}
	c := math.Sqrt(cSq)
	// sumQ[q]: the weight of every team placed no better than q; a[q]: how
	// many share q's place.
	sumQ := make([]float64, len(ts))
	a := make([]float64, len(ts))
	for q := range ts {
		for _, t := range ts {
			if t.rank >= ts[q].rank {
				sumQ[q] += math.Exp(t.mu / c)
			}
			if t.rank == ts[q].rank {
				a[q]++
			}
		}
	}
	for i, ti := range ts {
		e := math.Exp(ti.mu / c)
		omega, delta := 0.0, 0.0
		for q, tq := range ts {
			if tq.rank > ti.rank {
				continue
			}
			p := e / sumQ[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
			delta += p * (1 - p) / a[q]
		}
		gamma := math.Sqrt(ti.sigmaSq) / c
		omega *= ti.sigmaSq / c
		delta *= gamma * ti.sigmaSq / (c * c)
		for j := range out[i] {
			r := &out[i][j]
			share := r.Sigma * r.Sigma / ti.sigmaSq
			r.Mu += share * omega
			r.Sigma *= math.Sqrt(math.Max(1-share*delta, kappa))
		}
	}
	return out
}
