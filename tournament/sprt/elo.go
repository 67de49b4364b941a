package sprt

import (
	"fmt"
	"math"
)

// Outcome is one game's result for the first player, in half points.
type Outcome int

// Outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// Trinomial counts games by the first player's outcome: losses, draws,
// wins.
type Trinomial [3]int

// Add counts one game.
func (w *Trinomial) Add(o Outcome) { w[o]++ }

// Games is how many games are counted.
func (w Trinomial) Games() int { return w[Loss] + w[Draw] + w[Win] }

// Pentanomial counts game pairs by the first player's points in the pair:
// [LL, LD, DD or WL, WD, WW], fishtest's and fastchess's order ("ptnml
// 0-2").
type Pentanomial [5]int

// Add counts one pair.
func (p *Pentanomial) Add(first, second Outcome) { p[first+second]++ }

// Pairs is how many pairs are counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// String writes the counts as engine testers do: [0, 3, 10, 4, 1].
func (p Pentanomial) String() string {
	return fmt.Sprintf("[%d, %d, %d, %d, %d]", p[0], p[1], p[2], p[3], p[4])
}

// Estimate is an Elo difference and its error bar: the true difference is
// within Elo ± Error at the confidence it was computed for. With nothing
// counted the error is infinite.
type Estimate struct {
	Elo   float64 `json:"elo"`
	Error float64 `json:"error"`
}

// Elo estimates the difference in the model's Elo from the pairs, with its
// error bar at the confidence (0.95 for 95%).
func (p Pentanomial) Elo(m Model, confidence float64) Estimate {
	return estimate(p[:], m, confidence)
}

// Elo estimates the difference in the model's Elo from single games.
func (w Trinomial) Elo(m Model, confidence float64) Estimate {
	return estimate(w[:], m, confidence)
}

// LOS is the likelihood of superiority: the probability, given the pairs,
// that the first player is the stronger.
func (p Pentanomial) LOS() float64 { return los(p[:]) }

// LOS is the likelihood of superiority from single games.
func (w Trinomial) LOS() float64 { return los(w[:]) }

// Z is the standard normal quantile that leaves (1 − confidence)/2 on each
// side: 1.96 for 0.95.
func Z(confidence float64) float64 { return math.Sqrt2 * math.Erfinv(confidence) }

// Phi is the standard normal distribution function.
func Phi(x float64) float64 { return math.Erfc(-x/math.Sqrt2) / 2 }

// sample holds what the estimates need of counts, zero counts counted as
// 0.001 as fishtest's get_elo counts them: the mean score, its standard
// error, and the t-value (mean − ½)/deviation with the variance of its
// estimate per result.
type sample struct {
	mean, stderr float64
	t, tVariance float64
	pairs        bool
}

func observe(counts []int) (sample, bool) {
	var d dist
	n := d.observe(counts)
	if n == 0 {
		return sample{}, false
	}
	mean, v := d.moments(&d.p)
	m3, m4 := 0.0, 0.0
	for i := range d.k {
		x := d.a[i] - mean
		m3 += d.p[i] * x * x * x
		m4 += d.p[i] * x * x * x * x
	}
	skew, exkurt := m3/math.Pow(v, 1.5), m4/(v*v)-3
	t := (mean - 0.5) / math.Sqrt(v)
	// The delta method's variance of t (fishtest's t_conf), kept from
	// going below zero by rounding.
	tv := max(1-t*skew+0.25*t*t*(exkurt+2), 0)
	return sample{mean: mean, stderr: math.Sqrt(v / n), t: t, tVariance: tv / n, pairs: d.k == 5}, true
}

func estimate(counts []int, m Model, confidence float64) Estimate {
	s, ok := observe(counts)
	if !ok {
		return Estimate{Error: math.Inf(1)}
	}
	z := Z(confidence)
	if m == Logistic {
		return Estimate{
			Elo:   logisticElo(s.mean),
			Error: (logisticElo(s.mean+z*s.stderr) - logisticElo(s.mean-z*s.stderr)) / 2,
		}
	}
	// A pair's mean score deviates 1/√2 as much as one game's: its
	// t-value is √2 times a game's.
	per := nEloPerT
	if s.pairs {
		per /= math.Sqrt2
	}
	return Estimate{Elo: per * s.t, Error: per * z * math.Sqrt(s.tVariance)}
}

func los(counts []int) float64 {
	s, ok := observe(counts)
	if !ok {
		return 0.5
	}
	return Phi((s.mean - 0.5) / s.stderr)
}
