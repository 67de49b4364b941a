// Reaj: choose the value that adds most to your final score.
//
// The score is your resources plus every positive disposition toward you
// at the end. Adapt adds 1 resource every turn left (upkeep); expand and
// develop 3 now but cost 1 every turn left; conquer takes 1 from each
// society less devoted to conquest but loses the goodwill of those who like
// you; consent wins 1 of goodwill from each living society that does not
// dislike you; exchange brings 1 from each society that likes you.
"use strict";

const values = ["conquer", "exchange", "expand", "develop", "consent", "adapt"];

function decide(request, match) {
  const view = request.view;
  const { you, societies, relations, environment } = view;
  const left = view.turns - view.turn + 1;
  const others = societies.map((_, i) => i).filter((i) => i !== you);
  const living = others.filter((i) => !societies[i].dead);
  const count = (list, test) => list.filter(test).length;
  const mine = societies[you].values;
  const gains = {
    adapt: left,
    expand: (environment.land > 0 ? 3 : 0) - left,
    develop: (environment.ecology > 0 ? 3 : 0) - left,
    conquer:
      count(others, (i) => societies[i].values.conquer < mine.conquer + 1) -
      count(living, (i) => relations[i][you] > 0),
    consent: count(living, (i) => relations[i][you] >= 0),
    exchange: count(others, (i) => relations[i][you] > 0),
  };
  // The best gain; adapt on ties, as it pays every turn.
  let best = "adapt";
  for (const v of values.slice().reverse()) {
    if (gains[v] > gains[best]) best = v;
  }
  return best;
}

module.exports = { decide };
