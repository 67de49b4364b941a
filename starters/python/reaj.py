"""Reaj: choose the value that adds most to your final score.

The score is your resources plus every positive disposition toward you at
the end. Adapt adds 1 resource every turn left (upkeep); expand and develop
3 now but cost 1 every turn left; conquer takes 1 from each society less
devoted to conquest but loses the goodwill of those who like you; consent
wins 1 of goodwill from each living society that does not dislike you;
exchange brings 1 from each society that likes you.
"""

VALUES = ["conquer", "exchange", "expand", "develop", "consent", "adapt"]


def decide(request, match):
    view = request["view"]
    you, societies, relations = view["you"], view["societies"], view["relations"]
    env = view["environment"]
    left = view["turns"] - view["turn"] + 1
    others = [i for i in range(len(societies)) if i != you]
    living = [i for i in others if not societies[i].get("dead")]
    likes_me = [i for i in others if relations[i][you] > 0]
    mine = societies[you]["values"]
    gains = {
        "adapt": left,
        "expand": (3 if env["land"] > 0 else 0) - left,
        "develop": (3 if env["ecology"] > 0 else 0) - left,
        "conquer": sum(1 for i in others if societies[i]["values"]["conquer"] < mine["conquer"] + 1)
        - sum(1 for i in living if relations[i][you] > 0),
        "consent": sum(1 for i in living if relations[i][you] >= 0),
        "exchange": len(likes_me),
    }
    # The best gain; adapt on ties, as it pays every turn.
    return max(reversed(VALUES), key=lambda v: gains[v])
