// Package sprt is the statistics of a duel between two players, as chess
// engine testers compute them: Elo differences with their error bars, and
// the sequential probability ratio test (SPRT) that stops a match as soon
// as it is sure which of two hypotheses about the difference holds.
//
// Results come in two shapes. A Trinomial counts single games as losses,
// draws and wins. A Pentanomial counts game pairs, two games on the same
// seed with the seats swapped, by the first player's points in the pair
// (0, ½, 1, 1½, 2). Pairs cancel most of the luck of the seed and the seat,
// so the pentanomial variance is smaller and a test needs fewer games for
// the same confidence; it is the model of a duel.
//
// The log-likelihood ratio is the generalized one of fishtest
// (server/fishtest/stats/LLRcalc.py): the maximum likelihood distributions
// of the results under each hypothesis, found from the observed one, with
// zero counts replaced by 0.001. Elo differences are logistic (the score
// 1/(1+10^(−elo/400))) or normalized (the score's distance from ½ in
// standard deviations of one game, times 800/ln 10), as fishtest and
// fastchess define them.
package sprt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Model is how an Elo difference is measured.
type Model int

// Elo models.
const (
	// Normalized Elo measures the score's excess over ½ in standard
	// deviations of a game's result, times 800/ln 10 (≈ 347.4): a
	// difference of the same normalized Elo takes the same number of games
	// to detect, whatever the draw rate. Fishtest's and fastchess's default.
	Normalized Model = iota
	// Logistic Elo is the classical one: a player expected to score s is
	// −400·log10(1/s − 1) Elo stronger.
	Logistic
)

// ParseModel reads a model's name: normalized or logistic.
func ParseModel(s string) (Model, error) {
	switch s {
	case "normalized":
		return Normalized, nil
	case "logistic":
		return Logistic, nil
	}
	return 0, fmt.Errorf("elo model %q; want normalized or logistic", s)
}

// String is the model's name, as ParseModel reads it.
func (m Model) String() string {
	if m == Logistic {
		return "logistic"
	}
	return "normalized"
}

// MarshalText writes the model's name.
func (m Model) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a model's name.
func (m *Model) UnmarshalText(b []byte) error {
	v, err := ParseModel(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// nEloPerT turns a t-value (score excess over ½ in standard deviations of a
// game) into normalized Elo: 800/ln 10.
var nEloPerT = 800 / math.Ln10

// Test is a sequential probability ratio test: H0, the difference is Elo0,
// against H1, it is Elo1, in the model's Elo. Alpha is the chance of
// accepting H1 when H0 holds, Beta that of accepting H0 when H1 holds.
type Test struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model Model   `json:"model"`
}

// DefaultTest is what Parse fills in for what it is not told: H0 0 Elo,
// H1 5 Elo, 5% errors of each kind, normalized Elo.
var DefaultTest = Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Normalized}

// testKeys are the keys Parse reads, in the order String writes them.
var testKeys = []string{"elo0", "elo1", "alpha", "beta"}

// Parse reads a test written as comma-separated key=value pairs, keys
// elo0, elo1, alpha and beta, each at most once, in any order, the ones
// left out as in DefaultTest: "elo0=0,elo1=5,alpha=0.05,beta=0.05". The
// model is DefaultTest's; set it on the result.
func Parse(s string) (Test, error) {
	t := DefaultTest
	if strings.TrimSpace(s) == "" {
		return t, errors.New("no test; write elo0=0,elo1=5,alpha=0.05,beta=0.05 (any of them, in any order)")
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return t, fmt.Errorf("%q is not key=value; write elo0=0,elo1=5,alpha=0.05,beta=0.05", strings.TrimSpace(part))
		}
		var field *float64
		switch k {
		case "elo0":
			field = &t.Elo0
		case "elo1":
			field = &t.Elo1
		case "alpha":
			field = &t.Alpha
		case "beta":
			field = &t.Beta
		default:
			return t, fmt.Errorf("unknown key %q; the keys are %s", k, strings.Join(testKeys, ", "))
		}
		if seen[k] {
			return t, fmt.Errorf("%s is given twice", k)
		}
		seen[k] = true
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return t, fmt.Errorf("%s: %q is not a number", k, v)
		}
		*field = x
	}
	return t, t.Check()
}

// maxElo bounds the hypotheses: beyond it a score is 1 or 0 to within the
// precision of the results.
const maxElo = 2000

// Check says what is wrong with the test, if anything.
func (t Test) Check() error {
	switch {
	case math.IsNaN(t.Elo0) || math.IsNaN(t.Elo1) || math.Abs(t.Elo0) > maxElo || math.Abs(t.Elo1) > maxElo:
		return fmt.Errorf("elo0=%g, elo1=%g: each must be from -%d to %d", t.Elo0, t.Elo1, maxElo, maxElo)
	case t.Elo0 >= t.Elo1:
		return fmt.Errorf("elo0=%g, elo1=%g: elo0 (H0) must be less than elo1 (H1)", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("alpha=%g: it is a probability, more than 0 and less than 1", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("beta=%g: it is a probability, more than 0 and less than 1", t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("alpha=%g, beta=%g: their sum must be less than 1", t.Alpha, t.Beta)
	case t.Model != Normalized && t.Model != Logistic:
		return fmt.Errorf("elo model %d; want normalized or logistic", t.Model)
	}
	return nil
}

// String writes the test as Parse reads it (without its model).
func (t Test) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "elo0=" + f(t.Elo0) + ",elo1=" + f(t.Elo1) + ",alpha=" + f(t.Alpha) + ",beta=" + f(t.Beta)
}

// Bounds are the LLR's stopping bounds, Wald's: below lower the test
// accepts H0, above upper it accepts H1. For α = β = 0.05 they are ∓2.94.
func (t Test) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Verdict is where a test stands.
type Verdict int

// Verdicts.
const (
	// Continue: the LLR is between the bounds; play on.
	Continue Verdict = iota
	// AcceptH0: the LLR reached the lower bound.
	AcceptH0
	// AcceptH1: the LLR reached the upper bound.
	AcceptH1
)

// String is "H0", "H1" or "" for Continue.
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return ""
}

// Decide says what an LLR means for the test.
func (t Test) Decide(llr float64) Verdict {
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// LLR is the generalized log-likelihood ratio of H1 against H0 for the
// pairs p, as fishtest computes it.
func (t Test) LLR(p Pentanomial) float64 { return t.llr(p[:]) }

// LLRTrinomial is the LLR for single games w, as fishtest computes it.
func (t Test) LLRTrinomial(w Trinomial) float64 { return t.llr(w[:]) }

// llr is the LLR for counts of outcomes whose scores are evenly spread
// from 0 to 1: 3 for games, 5 for pairs.
func (t Test) llr(counts []int) float64 {
	var d dist
	n := d.observe(counts)
	if n == 0 {
		return 0
	}
	var p0, p1 [maxOutcomes]float64
	var ok0, ok1 bool
	switch t.Model {
	case Logistic:
		p0, ok0 = d.withMean(score(t.Elo0))
		p1, ok1 = d.withMean(score(t.Elo1))
	default:
		// A pair's two games: its score's deviation is 1/√2 of one
		// game's, so a t-value per game is √2 times one per pair.
		scale := 1.0
		if d.k == 5 {
			scale = math.Sqrt2
		}
		p0, ok0 = d.withT(0.5, t.Elo0/nEloPerT*scale)
		p1, ok1 = d.withT(0.5, t.Elo1/nEloPerT*scale)
	}
	if !ok0 || !ok1 {
		return 0
	}
	sum := 0.0
	for i := range d.k {
		sum += d.p[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * sum
}

// score is the expected score of a player logistic elo stronger.
func score(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// logisticElo is the logistic Elo of a player expected to score s, with s
// kept within 0.001 of 0 and 1 as fishtest keeps it.
func logisticElo(s float64) float64 {
	s = min(max(s, 1e-3), 1-1e-3)
	return -400 * math.Log10(1/s-1)
}
