// Territories: found your nation amid free land, attack where the odds are
// good, spread into free land, and raise armies at the front.
//
// A join is one of the request's choices. An action is a line of text:
// "attack FROM TO", "move FROM:N TO", "raise TERRITORY" or "pass". An attack
// of a armies on b succeeds when a d20 roll beats (b - a) * 2 + 10.
"use strict";

function decide(request, match) {
  const view = request.view;
  const near = {};
  for (const t of view.map) near[t.id] = t.neighbors;
  const held = {};
  for (const h of view.board.holdings) held[h.territory] = h;
  if (request.kind === "join") {
    const freeAround = (choice) => {
      const t = choice.split(" ").pop();
      return near[t].filter((n) => !held[n]).length - 2 * near[t].filter((n) => held[n]).length;
    };
    return request.choices.reduce((a, b) => (freeAround(b) > freeAround(a) ? b : a));
  }
  const me = view.nation;
  const mine = Object.keys(near).filter((t) => held[t] && held[t].nation === me);
  // Attack with two armies more than the defender: a roll above 6 wins.
  for (const t of mine) {
    for (const n of near[t]) {
      if (held[n] && held[n].nation !== me && held[t].armies >= held[n].armies + 2) return `attack ${t} ${n}`;
    }
  }
  // Spread into free land from a territory that can spare an army.
  for (const t of mine) {
    if (held[t].armies < 2) continue;
    for (const n of near[t]) {
      if (!held[n]) return `move ${t}:1 ${n}`;
    }
  }
  // Raise where the enemy presses hardest.
  const pressure = (t) =>
    near[t].filter((n) => held[n] && held[n].nation !== me).reduce((sum, n) => sum + held[n].armies, 0);
  const room = mine.filter((t) => held[t].armies < view.max_armies);
  if (room.length > 0) return "raise " + room.reduce((a, b) => (pressure(b) > pressure(a) ? b : a));
  return "pass";
}

module.exports = { decide };
