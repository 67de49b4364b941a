package tournament

import (
	"math"
	"testing"
)

// The expected values are OpenSkill's (openskill.js, Plackett–Luce model),
// published in its test suite: Arbiter's ratings agree with them.

func r(mu, sigma float64) Rating { return Rating{Mu: mu, Sigma: sigma} }

func solo(rs ...Rating) [][]Rating {
	out := make([][]Rating, len(rs))
	for i, x := range rs {
		out[i] = []Rating{x}
	}
	return out
}

func order(n int) []float64 {
	ranks := make([]float64, n)
	for i := range ranks {
		ranks[i] = float64(i + 1)
	}
	return ranks
}

func check(t *testing.T, name string, got [][]Rating, want ...Rating) {
	t.Helper()
	k := 0
	for _, team := range got {
		for _, g := range team {
			w := want[k]
			k++
			if math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
				t.Errorf("%s: player %d is %+v; want %+v", name, k, g, w)
			}
		}
	}
}

func TestRateFreeForAll(t *testing.T) {
	n := NewRating()
	check(t, "solo", Rate(solo(n), order(1)), n)
	check(t, "2p", Rate(solo(n, n), order(2)), r(27.63523138347365, 8.065506316323548), r(22.36476861652635, 8.065506316323548))
	check(t, "3p", Rate(solo(n, n, n), order(3)),
		r(27.868876552746237, 8.204837030780652), r(25.717219138186557, 8.057829747583874), r(21.413904309067206, 8.057829747583874))
	check(t, "4p", Rate(solo(n, n, n, n), order(4)),
		r(27.795084971874736, 8.263160757613477), r(26.552824984374855, 8.179213704945203),
		r(24.68943500312503, 8.083731307186588), r(20.96265504062538, 8.083731307186588))
	check(t, "5p", Rate(solo(n, n, n, n, n), order(5)),
		r(27.666666666666668, 8.290556877154474), r(26.833333333333332, 8.240145629781066),
		r(25.72222222222222, 8.179996679645559), r(24.055555555555557, 8.111796013701358), r(20.72222222222222, 8.111796013701358))
}

func TestRateTeamsAndPriors(t *testing.T) {
	n := NewRating()
	check(t, "teams of 3, 1, 2", Rate([][]Rating{{n, n, n}, {n}, {n, n}}, order(3)),
		r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456),
		r(27.21366020491262, 8.274321317985242),
		r(21.84646897330287, 8.213058173195341), r(21.84646897330287, 8.213058173195341))
	check(t, "priors", Rate(solo(r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217), n), order(4)),
		r(30.209971908310553, 4.764898977359521), r(27.64460833689499, 4.882789305097372),
		r(17.403586731283518, 6.100723440599442), r(19.214790707434826, 7.8542613981643985))
}

func TestRateRanksAndTies(t *testing.T) {
	n := NewRating()
	w, x, y, z := r(15, 25/3.0), r(20, 25/3.0), r(25, 25/3.0), r(30, 25/3.0)
	check(t, "misordered", Rate(solo(n, n, n, n), []float64{2, 1, 4, 3}),
		r(26.552824984374855, 8.179213704945203), r(27.795084971874736, 8.263160757613477),
		r(20.96265504062538, 8.083731307186588), r(24.68943500312503, 8.083731307186588))
	check(t, "rate ordering", Rate(solo(w, x, y, z), []float64{1, 3, 4, 2}),
		r(18.13094482387197, 8.283124738447958), r(20.40517319790051, 8.107463101775272),
		r(20.65608164139383, 8.082178279446465), r(30.80780033683369, 8.154697408620104))
	check(t, "ties", Rate(solo(r(10, 8), r(5, 10), r(0, 12)), []float64{1, 2, 2}),
		r(11.942833056030613, 7.926463661123746), r(2.938193791485662, 9.65347573412201), r(-1.4023734358082325, 11.323360667700934))
	check(t, "four-way tie", Rate(solo(n, n, n, n), []float64{1, 1, 1, 1}),
		r(25, 8.263160757613477), r(25, 8.263160757613477), r(25, 8.263160757613477), r(25, 8.263160757613477))
	check(t, "ties out of order", Rate(solo(w, x, y, z), []float64{2, 4, 2, 1}),
		r(15.340046366255285, 8.21273604193863), r(18.007807436399276, 8.188629384105589),
		r(24.25804790911316, 8.166514496319483), r(32.39409828823228, 8.247276990243211))
}
