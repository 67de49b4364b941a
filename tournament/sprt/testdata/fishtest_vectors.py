# Prints the reference values of sprt_test.go, computed by fishtest's own
# statistics (server/fishtest/stats/LLRcalc.py and stat_util.py of
# github.com/official-stockfish/fishtest). Run it from a directory that
# holds fishtest's server/fishtest/stats as fishtest/stats:
#     python3 fishtest_vectors.py
import math

from fishtest.stats import LLRcalc, stat_util

z975 = stat_util.Phi_inv(0.975)

llr_cases = [
    ([10789, 19328, 33806, 19402, 10543], -3, 1),
    ([39, 2226, 31451, 2412, 40], 0.2, 0.9),
    ([39, 2226, 31451, 2412, 40], 0.764, 3.439),
    ([365, 16618, 36229, 16974, 390], 0, 2),
    ([127, 4883, 10712, 5150, 104], -1.75, 0.25),
    ([0, 0, 0, 0, 5550], 0, 5),
    ([223, 9863, 21279, 10037, 246], 0.5, 2.5),
    ([871, 26175, 55983, 26678, 821], 0, 2),
    ([1, 3, 10, 4, 2], 0, 5),
    ([0, 1, 3, 2, 0], 0, 5),
    ([2, 0, 0, 0, 0], -5, 0),
    ([36027, 68692, 36433], 0, 2),
    ([10650, 20431, 10871], -1.75, 0.25),
    ([0, 0, 4250], 0, 10),
    ([21184, 40708, 21404], 0.5, 2.5),
    ([57030, 106593, 57433], 0, 2),
    ([3, 5, 9], 0, 5),
]

for r, e0, e1 in llr_cases:
    print(
        "{%r, %r, %r, %.10g, %.10g}," % (r, e0, e1, LLRcalc.LLR_logistic(e0, e1, r), LLRcalc.LLR_normalized(e0, e1, r))
    )

elo_cases = [
    [34, 54, 63, 64, 75],
    [332, 433, 498, 333, 334],
    [7895, 8757, 5685, 568, 9999],
    [10789, 19328, 33806, 19402, 10543],
    [0, 1, 3, 2, 0],
    [89, 123, 76],
    [96, 111, 136],
    [3, 5, 9],
]

for r in elo_cases:
    elo, elo95, los = stat_util.get_elo(r)
    # Normalized Elo and its error bar, as fishtest's template_helpers
    # (_nelo_pentanomial_details, _build_trinomial_stats) compute them.
    n, pdf = LLRcalc.results_to_pdf(r)
    avg, var, skew, exkurt = LLRcalc.stats_ex(pdf)
    t = (avg - 0.5) / var**0.5
    var_t = max(1 - t * skew + 0.25 * t**2 * (exkurt + 2), 0)
    coeff = LLRcalc.nelo_divided_by_nt / (2**0.5 if len(r) == 5 else 1)
    print(
        "{%r, %.10g, %.10g, %.10g, %.10g, %.10g},"
        % (r, elo, elo95, los, coeff * t, coeff * z975 * (var_t / n) ** 0.5)
    )
