package tncc

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The rules page: "Whole numbers throughout; products round down exactly,
// toward −∞ (a constant like 0.1 means one tenth, not the nearest binary
// float)." Ratio.Floor is checked against math/big, and a product too large
// for an int64 saturates.

// floorRef returns ⌊num × x / den⌋ exactly, clamped to the int64 range.
func floorRef(num, den, x int64) int64 {
	p := new(big.Int).Mul(big.NewInt(num), big.NewInt(x))
	q := new(big.Int).Div(p, big.NewInt(den)) // Euclidean: the floor, for den > 0
	switch {
	case q.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case q.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return q.Int64()
}

func TestRatioFloorBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	special := []int64{0, 1, -1, 2, -2, 7, -7, 10, -10, 15, -15, 999, 1e9, -1e9, 1e12, -1e12, 1e18, -1e18,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 62, -(1 << 62), 3037000499, -3037000500}
	dens := []int64{1, 2, 3, 7, 10, 100, 1000, 1e4, 1e6, 1e9, 1e18, math.MaxInt64}
	pick := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return special[rng.IntN(len(special))]
		case 1:
			return rng.Int64N(2001) - 1000
		case 2:
			return int64(rng.Uint64()) // any int64, huge ones most often
		}
		return rng.Int64N(2e12+1) - 1e12
	}
	for range 200000 {
		num, x := pick(), pick()
		den := dens[rng.IntN(len(dens))]
		if rng.IntN(4) == 0 {
			den = rng.Int64N(math.MaxInt64) + 1
		}
		r := Ratio{num, den}
		if got, want := r.Floor(x), floorRef(num, den, x); got != want {
			t.Fatalf("Ratio{%d, %d}.Floor(%d) = %d; want %d", num, den, x, got, want)
		}
	}
	// Den 0 is read as 1.
	if got := (Ratio{Num: 3}).Floor(-5); got != -15 {
		t.Errorf("Ratio{3, 0}.Floor(-5) = %d; want -15", got)
	}
}

func TestRatioFloorExamples(t *testing.T) {
	cases := []struct {
		r    string
		x    int64
		want int64
	}{
		{"-0.1", 15, -2}, // ⌊−1.5⌋, toward −∞, not −1
		{"-.1", 10, -1},
		{"0.1", 15, 1},
		{"0.1", -15, -2},
		{"1.07", 800, 856},
		{"1.07", 801, 857},
		{"0.025", 80, 2},
		{"0.025", 79, 1},
		{"1.5", 5, 7},
		{"0.3", 10, 3}, // 0.3 × 10 is 3 exactly; the nearest float64 product is 2.9999999999999996
		{"0.7", 10, 7},
		{"1.1", 10, 11},
		{"999999999.999999999", 1e12, math.MaxInt64},
		{"-999999999.999999999", 1e12, math.MinInt64},
		{"2", math.MaxInt64, math.MaxInt64},
		{"2", math.MinInt64, math.MinInt64},
		{"-1", math.MinInt64, math.MaxInt64},
		{"0", math.MinInt64, 0},
	}
	for _, c := range cases {
		if got := MustRatio(c.r).Floor(c.x); got != c.want {
			t.Errorf("⌊%s × %d⌋ = %d; want %d", c.r, c.x, got, c.want)
		}
	}
}

func TestParseRatio(t *testing.T) {
	good := []struct {
		in   string
		want string // as big.Rat reads it
		text string // as String writes it
	}{
		{"0.1", "1/10", "0.1"},
		{".025", "1/40", "0.025"},
		{"-.1", "-1/10", "-0.1"},
		{"1.07", "107/100", "1.07"},
		{"2", "2", "2"},
		{"-0", "0", "0"},
		{"+1.5", "3/2", "1.5"},
		{" 1.50 ", "3/2", "1.5"},
		{"1.", "1", "1"},
		{"0010", "10", "10"},
		{".5", "1/2", "0.5"},
		{"0.000000001", "1/1000000000", "0.000000001"},
		{"999999999.999999999", "999999999999999999/1000000000", "999999999.999999999"},
		{"-999999999", "-999999999", "-999999999"},
	}
	for _, c := range good {
		r, err := ParseRatio(c.in)
		if err != nil {
			t.Errorf("ParseRatio(%q): %v", c.in, err)
			continue
		}
		want, _ := new(big.Rat).SetString(c.want)
		if got := big.NewRat(r.Num, r.den()); got.Cmp(want) != 0 {
			t.Errorf("ParseRatio(%q) = %v; want %v", c.in, got, want)
		}
		if s := r.String(); s != c.text {
			t.Errorf("ParseRatio(%q).String() = %q; want %q", c.in, s, c.text)
		}
		if back, err := ParseRatio(r.String()); err != nil || back != r {
			t.Errorf("%q: String %q reads back as %v, %v", c.in, r.String(), back, err)
		}
		d := r.den()
		for d%10 == 0 {
			d /= 10
		}
		if d != 1 {
			t.Errorf("ParseRatio(%q) = %d/%d: Den is not a power of ten", c.in, r.Num, r.den())
		}
	}
	bad := []struct{ in, why string }{
		{"1e3", "not a decimal"},
		{"abc", "not a decimal"},
		{"", "not a decimal"},
		{"1.2.3", "not a decimal"},
		{".", "not a decimal"},
		{"-", "not a decimal"},
		{"--1", "not a decimal"},
		{"1,5", "not a decimal"},
		{"0x10", "not a decimal"},
		{"1/2", "not a decimal"},
		{"١", "not a decimal"}, // an Arabic-Indic digit
		{"0.0000000001", "at most 9 digits"},
		{"1000000000", "below 1000000000"},
		{"-1000000000", "below 1000000000"},
		{"99999999999999999999", "below"},
		{"NaN", "not a decimal"},
		{"Inf", "not a decimal"},
	}
	for _, c := range bad {
		_, err := ParseRatio(c.in)
		if err == nil {
			t.Errorf("ParseRatio(%q) accepted", c.in)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("ParseRatio(%q): %q; want it to say %q", c.in, err, c.why)
		}
	}
}

func TestRatioString(t *testing.T) {
	// Every ratio of the presets, and those built in code with a denominator
	// that divides a power of ten, write exact decimals, which are valid
	// JSON numbers.
	cases := []struct {
		r    Ratio
		want string
	}{
		{Ratio{3, 2}, "1.5"},
		{Ratio{1, 2}, "0.5"},
		{Ratio{-1, 8}, "-0.125"},
		{Ratio{1, 40}, "0.025"},
		{Ratio{7, 1}, "7"},
		{Ratio{7, 0}, "7"},
		{Ratio{-107, 100}, "-1.07"},
		{Ratio{1, 3}, "1/3"}, // not a decimal: written as a fraction
	}
	for _, c := range cases {
		if got := c.r.String(); got != c.want {
			t.Errorf("%#v.String() = %q; want %q", c.r, got, c.want)
		}
	}
	for _, p := range presets {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		var back Preset
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Errorf("%s: %s reads back as %+v, %v", p.Name, b, back, err)
		}
	}
	if _, err := json.Marshal(Ratio{1, 3}); err == nil {
		t.Error("1/3 marshalled to JSON")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 10000 {
		num := rng.Int64N(2e18) - 1e18
		den := []int64{1, 10, 100, 1e9}[rng.IntN(4)]
		r := Ratio{num, den}
		back, err := ParseRatio(r.String())
		if num/den >= 1e9 || num/den <= -1e9 {
			continue
		}
		if err != nil || big.NewRat(back.Num, back.den()).Cmp(big.NewRat(num, den)) != 0 {
			t.Fatalf("%d/%d written %q reads back as %v, %v", num, den, r.String(), back, err)
		}
	}
}

func TestRatioLessSign(t *testing.T) {
	one := Whole(1)
	for _, c := range []struct {
		s    string
		less bool
		sign int
	}{{"0.999", true, 1}, {"1", false, 1}, {"1.0", false, 1}, {"1.001", false, 1}, {"0", true, 0}, {"-5", true, -1}} {
		r := MustRatio(c.s)
		if r.Less(one) != c.less || r.Sign() != c.sign {
			t.Errorf("%s: Less(1) %v, Sign %d", c.s, r.Less(one), r.Sign())
		}
	}
}

func TestRatioJSONYAML(t *testing.T) {
	var r Ratio
	if err := json.Unmarshal([]byte("0.1"), &r); err != nil || r != MustRatio("0.1") {
		t.Errorf("JSON 0.1: %v, %v", r, err)
	}
	for _, in := range []string{`1e3`, `"0.1"`, `1E-1`, `true`, `0.0000000001`} {
		if err := json.Unmarshal([]byte(in), &r); err == nil {
			t.Errorf("JSON %s accepted as a ratio", in)
		}
	}
	var y struct {
		R Ratio `yaml:"r"`
	}
	if err := yaml.Unmarshal([]byte("r: -.1"), &y); err != nil || y.R != MustRatio("-0.1") {
		t.Errorf("YAML -.1: %v, %v", y.R, err)
	}
	for _, in := range []string{"r: 1e3", "r: 1_000", "r: 0x10", "r: abc", "r: [1]", "r: .inf", "r: \"1\""} {
		err := yaml.Unmarshal([]byte(in), &y)
		if err == nil {
			t.Errorf("YAML %q accepted as a ratio", in)
		} else if !strings.Contains(err.Error(), "line 1") {
			t.Errorf("YAML %q: %v; want the line", in, err)
		}
	}
}

func TestProduceSaturates(t *testing.T) {
	// A product too large for an int64 saturates, and so do the sums of
	// production: an income too large must not wrap around into a debt
	// (gold ≤ 0 would disband the army) nor an upkeep into a surplus.
	p := rulesPreset(func(p *Preset) {
		p.GoldPerCitizen = MustRatio("999999999")
		p.FoodPerSoldier = MustRatio("999999999")
		p.Growth = Whole(1)
		p.LandCapacity = MustRatio("999999999")
	})
	w := NewWorld(*p, 2)
	w.Countries[0].Stock = Stock{MaxAmount, MaxAmount, MaxAmount, 10, MaxAmount}
	w.Countries[1].Stock = Stock{MaxAmount, -MaxAmount, 10, MaxAmount, MaxAmount}
	w.Produce()
	if got := w.Countries[0].Stock; got[Gold] != math.MaxInt64-1 || got[Army] != 10 || got[Citizens] != MaxAmount {
		t.Errorf("a country whose income overflows: %v; want gold saturated (less 1 of upkeep), the army kept", got)
	}
	// Food −1e12 + 5 − ⌊999999999 × 1e12⌋ saturates below: 0, and hunger.
	if got := w.Countries[1]; got.Stock[Food] != 0 || !got.Dead {
		t.Errorf("a country whose upkeep overflows: %+v; want no food, and starved", got)
	}
}

func TestRatioLessExact(t *testing.T) {
	// Presets are checked with Less ("advantages ≥ 1"); its cross products
	// may pass an int64 and must still compare exactly.
	big := Ratio{Num: 999_999_999_000_000_000, Den: 1_000_000_000}
	if !Whole(1).Less(big) || big.Less(Whole(1)) {
		t.Error("1 < 999999999 is not seen")
	}
	if !MustRatio("0.999999999").Less(Whole(1)) || Whole(1).Less(MustRatio("1.000000000")) {
		t.Error("0.999999999 < 1 ≤ 1.000000000 is not seen")
	}
}
