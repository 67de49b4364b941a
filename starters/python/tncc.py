"""TNCC: arm against the strongest rival, strike the weakest when sure to
win, defend with everything, and take only trades that pay.

A turn is one action: {"type": "wait"}, {"type": "recruit", "n": N},
{"type": "trade", "with": C, "give": R, "give_n": N, "take": R, "take_n": M}
or {"type": "war", "target": C, "flanks": [LEFT, FRONT, RIGHT]}. A trade
offer is answered {"accept": true} or {"accept": false}; an attack with
{"flanks": [LEFT, FRONT, RIGHT]}. The view's "numbers" are the preset's.
"""

WORTH = {"gold": 1, "food": 0.5, "citizens": 2, "army": 2, "land": 10}


def decide(request, match):
    view = request["view"]
    me = view["countries"][view["you"]]
    if request["kind"] == "war answer":
        return {"flanks": thirds(me["army"])}
    if request["kind"] == "trade answer":
        offer = view["offer"]
        gain = offer["give_n"] * WORTH[offer["give"]] - offer["take_n"] * WORTH[offer["take"]]
        return {"accept": gain > 0 and me[offer["take"]] >= offer["take_n"]}
    return turn(view, me)


def turn(view, me):
    numbers = view["numbers"]
    cost, edge = numbers["gold_for_war"], numbers["defend_advantage"]
    rivals = [i for i, c in enumerate(view["countries"]) if i != view["you"] and not c.get("dead")]
    if not rivals:
        return {"type": "wait"}
    # Strike the weakest rival when the army beats its whole army on every
    # flank, however it defends.
    weakest = min(rivals, key=lambda i: view["countries"][i]["army"])
    if me["gold"] >= cost and me["army"] > 0 and me["army"] >= 3 * (edge * view["countries"][weakest]["army"] + 10):
        return {"type": "war", "target": weakest, "flanks": thirds(me["army"])}
    # Arm against the largest army of a rival that could afford a war, as
    # far as half the citizens allow.
    threat = max((view["countries"][i]["army"] for i in rivals if view["countries"][i]["gold"] >= cost), default=0)
    want = min(threat + 10, me["army"] + me["citizens"] // 2)
    if want > me["army"]:
        return {"type": "recruit", "n": want - me["army"]}
    return {"type": "wait"}


def thirds(army):
    third = army // 3
    return [third, army - 2 * third, third]
