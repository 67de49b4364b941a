"""Territories: found your nation amid free land, attack where the odds are
good, spread into free land, and raise armies at the front.

A join is one of the request's choices. An action is a line of text:
"attack FROM TO", "move FROM:N TO", "raise TERRITORY" or "pass". An attack
of a armies on b succeeds when a d20 roll beats (b - a) * 2 + 10.
"""


def decide(request, match):
    view = request["view"]
    near = {t["id"]: t["neighbors"] for t in view["map"]}
    held = {h["territory"]: h for h in view["board"]["holdings"]}
    if request["kind"] == "join":
        def free_around(choice):
            t = choice.split()[-1]
            return sum(1 for n in near[t] if n not in held) - 2 * sum(1 for n in near[t] if n in held)
        return max(request["choices"], key=free_around)
    me, most = view["nation"], view["max_armies"]
    mine = [t for t in near if t in held and held[t]["nation"] == me]
    # Attack with two armies more than the defender: a roll above 6 wins.
    for t in mine:
        for n in near[t]:
            if n in held and held[n]["nation"] != me and held[t]["armies"] >= held[n]["armies"] + 2:
                return "attack %s %s" % (t, n)
    # Spread into free land from a territory that can spare an army.
    for t in mine:
        if held[t]["armies"] >= 2:
            for n in near[t]:
                if n not in held:
                    return "move %s:1 %s" % (t, n)
    # Raise where the enemy presses hardest.
    def pressure(t):
        return sum(held[n]["armies"] for n in near[t] if n in held and held[n]["nation"] != me)
    room = [t for t in mine if held[t]["armies"] < most]
    if room:
        return "raise " + max(room, key=pressure)
    return "pass"
