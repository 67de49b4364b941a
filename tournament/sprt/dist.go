package sprt

import "math"

// maxOutcomes is the most outcomes a result has: the five of a pair.
const maxOutcomes = 5

// regularized is what a zero count counts as, so that no outcome has
// probability 0 (fishtest's regularize).
const regularized = 1e-3

// dist is a distribution of results over k outcomes whose scores a are
// evenly spread from 0 to 1; p holds their probabilities.
type dist struct {
	k int
	a [maxOutcomes]float64
	p [maxOutcomes]float64
}

// observe makes d the distribution of counts, a zero count counted as
// 0.001, and returns the total so counted; 0 when nothing was counted.
func (d *dist) observe(counts []int) float64 {
	d.k = len(counts)
	played := false
	for _, c := range counts {
		played = played || c > 0
	}
	if !played || d.k < 2 || d.k > maxOutcomes {
		return 0
	}
	total := 0.0
	for i, c := range counts {
		x := float64(c)
		if c <= 0 {
			x = regularized
		}
		d.p[i] = x
		d.a[i] = float64(i) / float64(d.k-1)
		total += x
	}
	for i := range d.k {
		d.p[i] /= total
	}
	return total
}

// moments returns the mean and variance of the scores under p.
func (d *dist) moments(p *[maxOutcomes]float64) (mean, variance float64) {
	for i := range d.k {
		mean += p[i] * d.a[i]
	}
	for i := range d.k {
		x := d.a[i] - mean
		variance += p[i] * x * x
	}
	return mean, variance
}

// withMean returns the distribution of mean score s that is likeliest to
// have produced d (Van den Bergh, "Comparing the approximations for the
// generalized log likelihood ratio of a multinomial distribution",
// Proposition 1.1): p_i / (1 + x(a_i − s)), x the root of the secular
// equation.
func (d *dist) withMean(s float64) (out [maxOutcomes]float64, ok bool) {
	var b [maxOutcomes]float64
	for i := range d.k {
		b[i] = d.a[i] - s
	}
	x, ok := d.secular(&b)
	if !ok {
		return out, false
	}
	for i := range d.k {
		out[i] = d.p[i] / (1 + x*b[i])
	}
	return out, true
}

// tIterations bounds the fixed-point iteration of withT, as fishtest bounds
// it, and tTolerance is the change in every probability below which it
// stops early.
const (
	tIterations = 10
	tTolerance  = 1e-9
)

// withT returns the distribution whose t-value, (mean − ref)/deviation, is
// t that is likeliest to have produced d (Van den Bergh, "Normalized Elo,
// practical considerations", section 4.1): a fixed point, reached from the
// uniform distribution, of p_i / (1 + x·φ_i) with φ_i = a_i − ref −
// t·σ·(1 + ((μ − a_i)/σ)²)/2 for the current μ and σ.
func (d *dist) withT(ref, t float64) (out [maxOutcomes]float64, ok bool) {
	for i := range d.k {
		out[i] = 1 / float64(d.k)
	}
	var phi [maxOutcomes]float64
	for range tIterations {
		mu, v := d.moments(&out)
		sigma := math.Sqrt(v)
		if !(sigma > 0) {
			return out, false
		}
		for i := range d.k {
			z := (mu - d.a[i]) / sigma
			phi[i] = d.a[i] - ref - t*sigma*(1+z*z)/2
		}
		x, ok := d.secular(&phi)
		if !ok {
			return out, false
		}
		change := 0.0
		for i := range d.k {
			next := d.p[i] / (1 + x*phi[i])
			change = max(change, math.Abs(next-out[i]))
			out[i] = next
		}
		if change < tTolerance {
			break
		}
	}
	return out, true
}

// secular solves Σ p_i·b_i / (1 + x·b_i) = 0 for x where every 1 + x·b_i
// is positive: between −1/max b and −1/min b, where the sum falls from +∞
// to −∞. It needs some b_i below zero and some above. Newton's steps,
// kept inside a shrinking bracket by bisection.
func (d *dist) secular(b *[maxOutcomes]float64) (float64, bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range d.k {
		lo, hi = min(lo, b[i]), max(hi, b[i])
	}
	if !(lo < 0 && hi > 0) {
		return 0, false
	}
	// f(left) > 0 > f(right).
	left, right := -1/hi, -1/lo
	x := 0.0 // 1 + 0·b is positive: the start is inside
	for range 200 {
		f, df := 0.0, 0.0
		for i := range d.k {
			q := 1 + x*b[i]
			f += d.p[i] * b[i] / q
			df -= d.p[i] * b[i] * b[i] / (q * q)
		}
		if f == 0 {
			return x, true
		}
		if f > 0 {
			left = x
		} else {
			right = x
		}
		next := x - f/df
		if !(next > left && next < right) {
			next = left + (right-left)/2
		}
		if math.Abs(next-x) <= 1e-15*(1+math.Abs(x)) {
			return next, true
		}
		x = next
	}
	return x, true
}
