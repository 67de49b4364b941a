"""AjveCiv: choose the offered value that adds most to your score now.

A society scores its yield plus its population. With d your devotion to a
value after its rise, conquer, exchange and discover bring d yield, develop
3 d (at the cost of d of the world's yield), expand d people (no more than
the world's yield and your own can feed), consent nothing for yourself.
"""


def decide(request, match):
    view = request["view"]
    world = view["world"]
    me = world["societies"][view["you"]]
    rise = 2 if view["kind"] == "inflection" else 1
    best, best_gain = request["default"], None
    for value in request["choices"]:
        gain = score_gain(value, me["values"][value] + rise, me["nation"], world["yield"])
        if best_gain is None or gain > best_gain:
            best, best_gain = value, gain
    return best


def score_gain(value, d, nation, world_yield):
    """What choosing value, at devotion d, adds to the score this turn."""
    population, own_yield = nation["population"], nation["yield"]
    if value == "develop":
        # 3 d more yield, the world's yield d less: keep the people fed.
        fed = min(population, world_yield - d + own_yield + 3 * d)
        return 3 * d + fed - population
    if value == "expand":
        fed = min(population + d, world_yield + own_yield)
        return fed - population
    if value in ("conquer", "exchange", "discover"):
        return d
    return 0  # consent: the world's yield, and the others' liking
