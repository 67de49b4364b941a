// TNCC: arm against the strongest rival, strike the weakest when sure to
// win, defend with everything, and take only trades that pay.
//
// A turn is one action: {type: "wait"}, {type: "recruit", n: N},
// {type: "trade", with: C, give: R, give_n: N, take: R, take_n: M} or
// {type: "war", target: C, flanks: [LEFT, FRONT, RIGHT]}. A trade offer is
// answered {accept: true} or {accept: false}; an attack with {flanks: [...]}.
// The view's "numbers" are the preset's.
"use strict";

const worth = { gold: 1, food: 0.5, citizens: 2, army: 2, land: 10 };

function decide(request, match) {
  const view = request.view;
  const me = view.countries[view.you];
  if (request.kind === "war answer") return { flanks: thirds(me.army) };
  if (request.kind === "trade answer") {
    const o = view.offer;
    const gain = o.give_n * worth[o.give] - o.take_n * worth[o.take];
    return { accept: gain > 0 && me[o.take] >= o.take_n };
  }
  return turn(view, me);
}

function turn(view, me) {
  const cost = view.numbers.gold_for_war;
  const edge = view.numbers.defend_advantage;
  const rivals = view.countries.map((c, i) => i).filter((i) => i !== view.you && !view.countries[i].dead);
  if (rivals.length === 0) return { type: "wait" };
  // Strike the weakest rival when the army beats its whole army on every
  // flank, however it defends.
  const weakest = rivals.reduce((a, b) => (view.countries[b].army < view.countries[a].army ? b : a));
  if (me.gold >= cost && me.army > 0 && me.army >= 3 * (edge * view.countries[weakest].army + 10)) {
    return { type: "war", target: weakest, flanks: thirds(me.army) };
  }
  // Arm against the largest army of a rival that could afford a war, as
  // far as half the citizens allow.
  let threat = 0;
  for (const i of rivals) {
    if (view.countries[i].gold >= cost) threat = Math.max(threat, view.countries[i].army);
  }
  const want = Math.min(threat + 10, me.army + Math.floor(me.citizens / 2));
  if (want > me.army) return { type: "recruit", n: want - me.army };
  return { type: "wait" };
}

function thirds(army) {
  const third = Math.floor(army / 3);
  return [third, army - 2 * third, third];
}

module.exports = { decide };
