package tncc

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Ratio is an exact decimal constant of a preset, such as 1.07 or −0.1: Num
// over Den, with Den a power of ten. Products with whole numbers round down
// exactly, toward −∞, as the rules say: 0.1 means one tenth, not the nearest
// binary float.
type Ratio struct {
	Num int64 // numerator
	Den int64 // denominator, > 0; zero is read as 1
}

// Whole returns the ratio n/1.
func Whole(n int64) Ratio { return Ratio{n, 1} }

// maxRatioDigits bounds the digits after the point, and maxRatio the size,
// of a ratio read from text, so that every product stays exact.
const (
	maxRatioDigits = 9
	maxRatio       = 1_000_000_000
)

// ParseRatio reads a decimal such as "2", "1.07", "-0.1" or ".025".
func ParseRatio(s string) (Ratio, error) {
	bad := func(why string) (Ratio, error) {
		return Ratio{}, fmt.Errorf("%q is not a decimal number %s", s, why)
	}
	t := strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(t, "-"):
		neg, t = true, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	whole, frac, hasPoint := strings.Cut(t, ".")
	if whole == "" && frac == "" || hasPoint && frac == "" && whole == "" {
		return bad("(write it like 2, 1.07 or -0.1)")
	}
	if len(frac) > maxRatioDigits {
		return bad(fmt.Sprintf("with at most %d digits after the point", maxRatioDigits))
	}
	digits := whole + frac
	for _, c := range digits {
		if c < '0' || c > '9' {
			return bad("(write it like 2, 1.07 or -0.1)")
		}
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		digits = "0"
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	den := int64(1)
	for range len(frac) {
		den *= 10
	}
	if err != nil || n/den >= maxRatio {
		return bad(fmt.Sprintf("below %d", maxRatio))
	}
	if neg {
		n = -n
	}
	return Ratio{n, den}.reduced(), nil
}

// MustRatio is ParseRatio for constants known to be good.
func MustRatio(s string) Ratio {
	r, err := ParseRatio(s)
	if err != nil {
		panic(err)
	}
	return r
}

func (r Ratio) den() int64 {
	if r.Den == 0 {
		return 1
	}
	return r.Den
}

// reduced drops common factors of ten only, so that Den stays a power of
// ten and String writes the ratio's decimal digits (0.5 is 5/10, not 1/2).
func (r Ratio) reduced() Ratio {
	d := r.den()
	for d%10 == 0 && r.Num%10 == 0 {
		d /= 10
		r.Num /= 10
	}
	return Ratio{r.Num, d}
}

// Floor returns ⌊r × x⌋, rounded toward −∞, exactly. A product too large
// for an int64 saturates.
//
// The usual case, numbers from 0 to 2³¹ and a denominator of 1 or a small
// power of ten (the presets' are), takes a few instructions: a division by
// a constant is a multiplication. The rest is floor's.
func (r Ratio) Floor(x int64) int64 {
	if uint64(x)|uint64(r.Num) < 1<<31 {
		p := uint64(x * r.Num)
		switch r.Den {
		case 0, 1:
			return int64(p)
		case 10:
			return int64(p / 10)
		case 100:
			return int64(p / 100)
		case 1000:
			return int64(p / 1000)
		}
	}
	return r.floor(x)
}

// floor is Floor in full.
func (r Ratio) floor(x int64) int64 {
	d := r.den()
	if small(x) && small(r.Num) {
		// The usual case: the product fits in an int64.
		if d == 1 {
			return x * r.Num
		}
		return floorDiv(x*r.Num, d)
	}
	if d == 1 {
		return mulSat(r.Num, x)
	}
	neg := (r.Num < 0) != (x < 0)
	hi, lo := bits.Mul64(abs(r.Num), abs(x))
	if hi >= uint64(d) {
		if neg {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	q, rem := bits.Div64(hi, lo, uint64(d))
	if !neg {
		if q > math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(q)
	}
	if rem != 0 {
		q++
	}
	if q > 1<<63 {
		return math.MinInt64
	}
	return -int64(q)
}

// floorDiv returns ⌊p / d⌋ for d > 0. The presets' denominators are small
// powers of ten: dividing by a constant is a multiplication, many times
// cheaper than a division, and production divides a dozen times a country.
func floorDiv(p, d int64) int64 {
	var q int64
	switch d {
	case 10:
		q = p / 10
	case 100:
		q = p / 100
	case 1000:
		q = p / 1000
	default:
		q = p / d
	}
	if p < 0 && q*d != p {
		q--
	}
	return q
}

// small reports whether |x| < 2³¹, so that a product of two fits an int64.
func small(x int64) bool { return uint64(x+1<<31) < 1<<32 }

func abs(x int64) uint64 {
	if x < 0 {
		return uint64(-(x + 1)) + 1
	}
	return uint64(x)
}

func mulSat(a, b int64) int64 {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs(a), abs(b))
	switch {
	case !neg && (hi != 0 || lo > math.MaxInt64):
		return math.MaxInt64
	case neg && (hi != 0 || lo > 1<<63):
		return math.MinInt64
	case neg:
		return -int64(lo)
	}
	return int64(lo)
}

// Less reports whether r < s.
func (r Ratio) Less(s Ratio) bool {
	// The cross products can pass an int64: compare them exactly.
	a := new(big.Int).Mul(big.NewInt(r.Num), big.NewInt(s.den()))
	b := new(big.Int).Mul(big.NewInt(s.Num), big.NewInt(r.den()))
	return a.Cmp(b) < 0
}

// Sign returns −1, 0 or +1.
func (r Ratio) Sign() int {
	switch {
	case r.Num < 0:
		return -1
	case r.Num > 0:
		return 1
	}
	return 0
}

// String writes the ratio as a decimal: "1.07", "-0.1", "2".
func (r Ratio) String() string {
	d := r.den()
	if d == 1 {
		return strconv.FormatInt(r.Num, 10)
	}
	sign := ""
	n := r.Num
	if n < 0 {
		sign, n = "-", -n
	}
	// A denominator that divides a power of ten (2^a·5^b, e.g. Ratio{3, 2}
	// built in code) is scaled to it: 3/2 is written 1.5.
	places, pow := 0, int64(1)
	for pow%d != 0 && places < 18 {
		places++
		pow *= 10
	}
	if d < 0 || pow%d != 0 || n < 0 || n > math.MaxInt64/(pow/d) {
		// Not a decimal fraction (only from code): write it as a fraction.
		return fmt.Sprintf("%s%d/%d", sign, n, d)
	}
	n, d = n*(pow/d), pow
	return fmt.Sprintf("%s%d.%0*d", sign, n/d, places, n%d)
}

// MarshalJSON writes the ratio as a JSON number with its exact digits.
func (r Ratio) MarshalJSON() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalJSON reads a JSON number exactly, from its digits.
func (r *Ratio) UnmarshalJSON(b []byte) error {
	s := string(b)
	if strings.HasPrefix(s, `"`) {
		return errors.New("want a number, not a string")
	}
	if strings.ContainsAny(s, "eE") {
		return fmt.Errorf("%s: write the number without an exponent", s)
	}
	v, err := ParseRatio(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// UnmarshalYAML reads a YAML number exactly, from its digits.
func (r *Ratio) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" && n.Tag != "!!float" {
		return valueProblem(n, "want a number, have %q", n.Value)
	}
	if strings.ContainsAny(n.Value, "eE_xXoObB") {
		return valueProblem(n, "%s: write the number as plain digits, like 1.07", n.Value)
	}
	v, err := ParseRatio(n.Value)
	if err != nil {
		return valueProblem(n, "%v", err)
	}
	*r = v
	return nil
}
