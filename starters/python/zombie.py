"""The zombie game: a human touches one player a turn, one that proved
human when it can, with precaution when it may be anyone else, cures when
its antibodies say it was infected, and ends its turn to be touched no more;
a zombie touches everyone it can.

A plan: {"touch": [{"with": SEAT, "precaution": true}, {"with": SEAT,
"viruses": K}], "guard": {"precaution": true}, "cure_first": false,
"cure_last": true, "end": true}. Only "touch" is required. Nobody is told
they are infected: an infected player loses an antibody at the end of every
turn, and turns zombie at none.
"""


def decide(request, match):
    view, memory = request["view"], match.memory
    me, you = view["me"], view["you"]
    others = [s for s in range(view["seats"]) if s != you]
    if me["identity"] == "zombie":
        start = view["turn"] % len(others)
        return {"touch": [{"with": s} for s in others[start:] + others[:start]]}
    antibodies = me["antibodies"]
    trusted = memory.setdefault("trusted", set())
    doubted = memory.setdefault("doubted", set())
    infected = False
    if "partner" in memory:
        # Read last turn: a human partner gives an antibody, whatever the
        # precaution; an infection takes one at the end of the turn.
        change = antibodies - memory["antibodies"] + memory["spent"]
        (trusted if change >= 1 else doubted).add(memory["partner"])
        infected = change < 0
    partner = next((s for s in others if s in trusted and s not in doubted), None)
    careful = partner is None
    if careful:
        fresh = [s for s in others if s not in doubted] or others
        partner = fresh[view["turn"] % len(fresh)]
    plan = {"touch": [{"with": partner}], "end": True}
    spent = 0
    if infected and antibodies >= 1:
        plan["cure_first"] = True
        spent += 1
    if careful and antibodies - spent >= 1:
        plan["touch"][0]["precaution"] = True
        spent += 1
    memory.update(partner=partner, antibodies=antibodies, spent=spent)
    return plan
