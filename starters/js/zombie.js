// The zombie game: a human touches one player a turn, one that proved human
// when it can, with precaution when it may be anyone else, cures when its
// antibodies say it was infected, and ends its turn to be touched no more;
// a zombie touches everyone it can.
//
// A plan: {touch: [{with: SEAT, precaution: true}, {with: SEAT, viruses: K}],
// guard: {precaution: true}, cure_first: false, cure_last: true, end: true}.
// Only touch is required. Nobody is told they are infected: an infected
// player loses an antibody at the end of every turn, and turns zombie at
// none.
"use strict";

function decide(request, match) {
  const view = request.view;
  const memory = match.memory;
  const you = view.you;
  const others = [];
  for (let s = 0; s < view.seats; s++) if (s !== you) others.push(s);
  if (view.me.identity === "zombie") {
    const start = view.turn % others.length;
    return { touch: others.slice(start).concat(others.slice(0, start)).map((s) => ({ with: s })) };
  }
  const antibodies = view.me.antibodies;
  memory.trusted = memory.trusted || new Set();
  memory.doubted = memory.doubted || new Set();
  let infected = false;
  if (memory.partner !== undefined) {
    // Read last turn: a human partner gives an antibody, whatever the
    // precaution; an infection takes one at the end of the turn.
    const change = antibodies - memory.antibodies + memory.spent;
    (change >= 1 ? memory.trusted : memory.doubted).add(memory.partner);
    infected = change < 0;
  }
  let partner = others.find((s) => memory.trusted.has(s) && !memory.doubted.has(s));
  const careful = partner === undefined;
  if (careful) {
    let fresh = others.filter((s) => !memory.doubted.has(s));
    if (fresh.length === 0) fresh = others;
    partner = fresh[view.turn % fresh.length];
  }
  const plan = { touch: [{ with: partner }], end: true };
  let spent = 0;
  if (infected && antibodies >= 1) {
    plan.cure_first = true;
    spent++;
  }
  if (careful && antibodies - spent >= 1) {
    plan.touch[0].precaution = true;
    spent++;
  }
  Object.assign(memory, { partner, antibodies, spent });
  return plan;
}

module.exports = { decide };
