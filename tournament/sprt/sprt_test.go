package sprt

import (
	"math"
	"strings"
	"testing"
)

// The reference values below are fishtest's: computed by its own code,
// server/fishtest/stats/LLRcalc.py (LLR_logistic, LLR_normalized) and
// stat_util.py (get_elo), of github.com/official-stockfish/fishtest at
// commit b8eecff220b5, with the normalized Elo's error bar by the formula of
// its server/fishtest/http/template_helpers.py (t_conf), as
// testdata/fishtest_vectors.py prints them. The first counts are those of
// the examples at the end of fishtest's stat_util.py; those from
// [365, 16618, ...] to [871, 26175, ...] and the trinomials from
// [36027, ...] to [57030, ...] are fastchess's test vectors
// (app/tests/sprt_test.cpp of github.com/Disservin/fastchess, whose
// expected LLRs, to two decimals, are given in the comments); the rest are
// small duels, zeros included, where the regularization shows.

// close reports whether got is want to within 1e-7, relatively for large
// values.
func close(got, want float64) bool {
	return math.Abs(got-want) <= 1e-7*max(1, math.Abs(want))
}

func TestLLRAgainstFishtest(t *testing.T) {
	tests := []struct {
		counts              []int
		elo0, elo1          float64
		logistic, normalize float64
	}{
		{[]int{10789, 19328, 33806, 19402, 10543}, -3, 1, 2.131067812, 0.3008697855},
		{[]int{39, 2226, 31451, 2412, 40}, 0.2, 0.9, 2.16254258, 1.216596745},
		{[]int{39, 2226, 31451, 2412, 40}, 0.764, 3.439, -27.86523734, 2.16294087},
		{[]int{365, 16618, 36229, 16974, 390}, 0, 2, -0.005919932562, 2.250367704},  // fastchess: normalized 2.25
		{[]int{127, 4883, 10712, 5150, 104}, -1.75, 0.25, 6.862003436, 3.010154197}, // fastchess: normalized 3.01
		{[]int{0, 0, 0, 0, 5550}, 0, 5, 79.29625115, 111.7975551},                   // fastchess: normalized 111.82
		{[]int{223, 9863, 21279, 10037, 246}, 0.5, 2.5, -3.07412644, 0.406798959},   // fastchess: logistic -3.07
		{[]int{871, 26175, 55983, 26678, 821}, 0, 2, -4.978672863, 0.8044514731},    // fastchess: logistic -4.98
		{[]int{1, 3, 10, 4, 2}, 0, 5, 0.08273312285, 0.05863935042},
		{[]int{0, 1, 3, 2, 0}, 0, 5, 0.052647897, 0.02750055001},
		{[]int{2, 0, 0, 0, 0}, -5, 0, -0.0286035203, -0.04029687869},
		{[]int{36027, 68692, 36433}, 0, 2, -0.002981977204, 0.9232934509},   // fastchess: normalized 0.92
		{[]int{10650, 20431, 10871}, -1.75, 0.25, 3.496018819, 2.297500407}, // fastchess: normalized 2.30
		{[]int{0, 0, 4250}, 0, 10, 120.5646794, 120.5482677},                // fastchess: normalized 120.56
		{[]int{21184, 40708, 21404}, 0.5, 2.5, -1.571888793, -0.2989848897}, // fastchess: logistic -1.57
		{[]int{57030, 106593, 57433}, 0, 2, -2.593024164, -0.438639363},     // fastchess: logistic -2.59
		{[]int{3, 5, 9}, 0, 5, 0.1200095332, 0.1010428178},
	}
	for _, tt := range tests {
		for _, m := range []Model{Logistic, Normalized} {
			test := Test{Elo0: tt.elo0, Elo1: tt.elo1, Alpha: 0.05, Beta: 0.05, Model: m}
			want := tt.logistic
			if m == Normalized {
				want = tt.normalize
			}
			var got float64
			if len(tt.counts) == 5 {
				got = test.LLR(Pentanomial(tt.counts))
			} else {
				got = test.LLRTrinomial(Trinomial(tt.counts))
			}
			if !close(got, want) {
				t.Errorf("%v [%g, %g] %s: LLR %.10g, fishtest %.10g", tt.counts, tt.elo0, tt.elo1, m, got, want)
			}
		}
	}
}

func TestEloAgainstFishtest(t *testing.T) {
	tests := []struct {
		counts          []int
		elo, elo95, los float64
		nElo, nElo95    float64
	}{
		// fastchess (app/tests/elo_test.cpp) expects, from the first three:
		// Elo 55.58 ± 27.65, nElo 57.94; Elo -8.64 ± 10.33, nElo -9.17,
		// LOS 5.05%; Elo -21.04 ± 2.95, nElo -19.01.
		{[]int{34, 54, 63, 64, 75}, 55.57978042, 27.65342951, 0.999970393, 57.93559994, 29.23287846},
		{[]int{332, 433, 498, 333, 334}, -8.642667268, 10.33419442, 0.05047006698, -9.17291427, 10.9812926},
		{[]int{7895, 8757, 5685, 568, 9999}, -21.04352058, 2.945280869, 4.548721049e-45, -19.01283428, 2.686383021},
		{[]int{10789, 19328, 33806, 19402, 10543}, -0.7735773359, 1.277579896, 0.117658858, -0.9516290045, 1.571622677},
		{[]int{0, 1, 3, 2, 0}, 29.01055164, 98.93703158, 0.7234916628, 59.49027375, 203.4885578},
		// fastchess: nElo -20.76, LOS 15.53%; Elo 40.70 ± 30.43, nElo 49.77, LOS 99.60%.
		{[]int{89, 123, 76}, -15.69352071, 30.45800072, 0.1553264349, -20.75644978, 40.22904136},
		{[]int{96, 111, 136}, 40.70245819, 30.42721794, 0.9960102357, 49.76841538, 37.3845114},
		{[]int{3, 5, 9}, 128.1340603, 157.6665758, 0.9718448888, 160.8314242, 193.7170952},
	}
	for _, tt := range tests {
		var elo, nElo Estimate
		var los float64
		if len(tt.counts) == 5 {
			p := Pentanomial(tt.counts)
			elo, nElo, los = p.Elo(Logistic, 0.95), p.Elo(Normalized, 0.95), p.LOS()
		} else {
			w := Trinomial(tt.counts)
			elo, nElo, los = w.Elo(Logistic, 0.95), w.Elo(Normalized, 0.95), w.LOS()
		}
		if !close(elo.Elo, tt.elo) || !close(elo.Error, tt.elo95) {
			t.Errorf("%v: Elo %.10g ± %.10g, fishtest %.10g ± %.10g", tt.counts, elo.Elo, elo.Error, tt.elo, tt.elo95)
		}
		if !close(nElo.Elo, tt.nElo) || !close(nElo.Error, tt.nElo95) {
			t.Errorf("%v: nElo %.10g ± %.10g, fishtest %.10g ± %.10g", tt.counts, nElo.Elo, nElo.Error, tt.nElo, tt.nElo95)
		}
		if math.Abs(los-tt.los) > 1e-9 {
			t.Errorf("%v: LOS %.10g, fishtest %.10g", tt.counts, los, tt.los)
		}
	}
}

func TestBounds(t *testing.T) {
	// Wald's bounds, as fishtest's SPRT() sets them: for α = β = 0.05,
	// ±2.9444389791664403 (fishtest prints them so).
	lower, upper := DefaultTest.Bounds()
	if !close(lower, -2.9444389791664403) || !close(upper, 2.9444389791664403) {
		t.Errorf("bounds %v, %v; want ∓2.9444389791664403", lower, upper)
	}
	lower, upper = Test{Elo0: 0, Elo1: 5, Alpha: 0.01, Beta: 0.1}.Bounds()
	if !close(lower, math.Log(0.1/0.99)) || !close(upper, math.Log(0.9/0.01)) {
		t.Errorf("α 0.01 β 0.1: bounds %v, %v", lower, upper)
	}
	for _, c := range []struct {
		llr  float64
		want Verdict
	}{{0, Continue}, {2.94, Continue}, {2.95, AcceptH1}, {-2.95, AcceptH0}, {-2.94, Continue}} {
		if got := DefaultTest.Decide(c.llr); got != c.want {
			t.Errorf("Decide(%v) = %v; want %v", c.llr, got, c.want)
		}
	}
}

func TestNothingCounted(t *testing.T) {
	var p Pentanomial
	if llr := DefaultTest.LLR(p); llr != 0 {
		t.Errorf("LLR of nothing %v; want 0", llr)
	}
	if e := p.Elo(Normalized, 0.95); e.Elo != 0 || !math.IsInf(e.Error, 1) {
		t.Errorf("Elo of nothing %v; want 0 ± ∞", e)
	}
	if los := p.LOS(); los != 0.5 {
		t.Errorf("LOS of nothing %v; want 0.5", los)
	}
}

// TestPairsNeedFewerGames shows why a duel plays pairs: the same games
// counted as pairs give a narrower error bar than counted one by one when
// the pairs cancel the seed's luck (a seed that favours a seat favours both
// players once).
func TestPairsNeedFewerGames(t *testing.T) {
	// 100 pairs: 60 split one win each (WL), 25 WD, 15 LD: the games are
	// 60+25 wins, 60+15 losses, 25+15 draws.
	p := Pentanomial{0, 15, 60, 25, 0}
	w := Trinomial{75, 40, 85}
	pe, we := p.Elo(Logistic, 0.95), w.Elo(Logistic, 0.95)
	if math.Abs(pe.Elo-we.Elo) > 0.01 { // the zeros, counted as 0.001, differ
		t.Fatalf("the same games: Elo %v from pairs, %v from games", pe.Elo, we.Elo)
	}
	if pe.Error >= we.Error/2 {
		t.Errorf("error bar %v from pairs, %v from games; pairs should halve it here", pe.Error, we.Error)
	}
}

func TestParse(t *testing.T) {
	good := []struct {
		in   string
		want Test
	}{
		{"elo0=0,elo1=5,alpha=0.05,beta=0.05", DefaultTest},
		{"elo1=5", DefaultTest},
		{" beta = 0.1 , elo0=-1.5,elo1=2", Test{Elo0: -1.5, Elo1: 2, Alpha: 0.05, Beta: 0.1}},
	}
	for _, g := range good {
		got, err := Parse(g.in)
		if err != nil || got != g.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", g.in, got, err, g.want)
		}
		again, err := Parse(got.String())
		if err != nil || again != got {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", got.String(), again, err, got)
		}
	}
	bad := []struct{ in, says string }{
		{"", "no test"},
		{"elo0", "not key=value"},
		{"elo0=", "not key=value"},
		{"elo2=3", `unknown key "elo2"`},
		{"elo0=1,elo0=2", "elo0 is given twice"},
		{"elo0=x", `elo0: "x" is not a number`},
		{"elo0=NaN", "not a number"},
		{"elo1=Inf", "not a number"},
		{"elo0=5,elo1=0", "must be less than elo1"},
		{"elo0=5,elo1=5", "must be less than elo1"},
		{"alpha=0", "alpha=0: it is a probability"},
		{"beta=1", "beta=1: it is a probability"},
		{"alpha=0.6,beta=0.5", "their sum must be less than 1"},
		{"elo1=1e9", "each must be from"},
	}
	for _, b := range bad {
		_, err := Parse(b.in)
		if err == nil || !strings.Contains(err.Error(), b.says) {
			t.Errorf("Parse(%q): %v; want an error saying %q", b.in, err, b.says)
		}
	}
}

func TestParseModel(t *testing.T) {
	for _, m := range []Model{Normalized, Logistic} {
		got, err := ParseModel(m.String())
		if err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseModel("bayesian"); err == nil || !strings.Contains(err.Error(), "normalized or logistic") {
		t.Errorf("ParseModel(bayesian): %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"elo0=0,elo1=5,alpha=0.05,beta=0.05", "elo1=2", "elo0=-3,elo1=1", "alpha=0.5,beta=0.5", "=,=", "elo0=1e308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		test, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q): a message of more than one line: %v", s, err)
			}
			return
		}
		if err := test.Check(); err != nil {
			t.Fatalf("Parse(%q) accepted %+v, which Check refuses: %v", s, test, err)
		}
		lower, upper := test.Bounds()
		if !(lower < 0 && upper > 0) {
			t.Fatalf("Parse(%q) = %+v: bounds %v, %v", s, test, lower, upper)
		}
		again, err := Parse(test.String())
		if err != nil || again != test {
			t.Fatalf("Parse(%q) = %+v; its String %q reads as %+v, %v", s, test, test.String(), again, err)
		}
		// Any accepted test gives a finite LLR for any counts.
		for _, p := range []Pentanomial{{1, 2, 3, 4, 5}, {0, 0, 0, 0, 9}, {7, 0, 0, 0, 0}, {0, 0, 1, 0, 0}} {
			for _, m := range []Model{Normalized, Logistic} {
				test.Model = m
				if llr := test.LLR(p); math.IsNaN(llr) || math.IsInf(llr, 0) {
					t.Fatalf("%+v: LLR(%v) = %v", test, p, llr)
				}
			}
		}
	})
}
