// AjveCiv: choose the offered value that adds most to your score now.
//
// A society scores its yield plus its population. With d your devotion to a
// value after its rise, conquer, exchange and discover bring d yield,
// develop 3 d (at the cost of d of the world's yield), expand d people (no
// more than the world's yield and your own can feed), consent nothing for
// yourself.
"use strict";

function decide(request, match) {
  const view = request.view;
  const world = view.world;
  const me = world.societies[view.you];
  const rise = view.kind === "inflection" ? 2 : 1;
  let best = request.default;
  let bestGain = null;
  for (const value of request.choices) {
    const gain = scoreGain(value, me.values[value] + rise, me.nation, world.yield);
    if (bestGain === null || gain > bestGain) {
      best = value;
      bestGain = gain;
    }
  }
  return best;
}

// scoreGain is what choosing value, at devotion d, adds to the score this
// turn.
function scoreGain(value, d, nation, worldYield) {
  const pop = nation.population;
  const own = nation.yield;
  switch (value) {
    case "develop":
      // 3 d more yield, the world's yield d less: keep the people fed.
      return 3 * d + Math.min(pop, worldYield - d + own + 3 * d) - pop;
    case "expand":
      return Math.min(pop + d, worldYield + own) - pop;
    case "conquer":
    case "exchange":
    case "discover":
      return d;
  }
  return 0; // consent: the world's yield, and the others' liking
}

module.exports = { decide };
