// Package reaj is Reaj, a game for AI, as `arbiter rules reaj` tells it:
// societies in a shared environment of land, ecology
// and resources choose one of six values each turn, all at once; they eat,
// expand, trade, raid and make friends; after the last turn each scores its
// resources plus the goodwill of the others, and even the dead are scored.
//
// Game is the engine.Ruleset; Turn is the pure rules step, with its draw
// order; Bots names the built-in players (the six fixed-value players,
// random, steward); Step applies one turn to a state in its JSON shape.
// Game.ReadViews reads a view back from the JSON a program is sent
// (engine.ViewReader), so that a player run as a program (player.Serve)
// decides on the same View as it does in process.
//
// # Decisions beyond the rules text
//
//   - The game ends at once when every society is dead: nothing can change a
//     score after that.
//   - Every society is ranked by its score alone, dead or alive, as the rules
//     score them; equal scores share a rank.
//   - A society's state carries "died", the turn it died, beside "dead", so
//     that reports can say when; Step leaves it 0 (the step has no turn).
package reaj
