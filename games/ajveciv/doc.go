// Package ajveciv is AjveCiv, a game of values-driven civilisations on an
// alien world, as `arbiter rules ajveciv` tells it.
//
// You are a guiding principle: each turn your society is offered three of
// its six values (conquer, exchange, discover, expand, develop, consent) and
// chooses one; every society chooses at once, and the choices change the
// world. After every tenth turn comes an inflection, a choice among the
// society's three highest values. After the last turn the living society
// with the highest yield plus population wins.
//
// # Playing
//
// Original returns the game as an engine.Ruleset. The built-in AIs are named
// as the CLI takes them (see Bots): basic.<value>, basic2.<v1>-<v2>,
// basic3.<v1>-<v2>-<v3>, random, planner and guide.
//
// # Search
//
// A search AI plays a decision forward with the rules (engine/search.go):
// Match.Clone copies a match, its random source included, and Game.Sample
// makes a match from one society's view, dealing what the view hides (the
// other societies' offers of the turn, and all chance to come) from the
// searcher's own dice. The guide (Guide) searches on the rules directly: it
// learns each society's list of priorities from the choices its view shows
// and plays every offered choice to the end of the game against them.
//
// # Writing an AI
//
// An AI implements Turn and Inflection (and optionally Init, see
// AIInitializer) over a View, in JSON {you, turn, turns, kind, offered,
// world}; Player makes it a player and Seats seats several for a game.
// Game.ReadViews reads a view back from the JSON a program is sent
// (engine.ViewReader), so that an AI run as a program (player.Serve)
// decides on the same View as it does in process.
//
// # Writing a world
//
// A world is a named variant of the rules: implement Rules (Turn and
// Inflection over a *World, and optionally Init, see Initializer) and give
// it a name in a Game. Records name the variant, so a record says which laws
// it was played under.
//
// # Decisions beyond the rules text
//
//   - Offers are dealt with one draw per group of up to nine living
//     societies; Match documents the exact order.
//   - A dead society's score is its nation's yield at its death (its
//     population is 0), as the report prints it. It ranks below every
//     living society, whatever its score, and cannot win.
//   - A society that starves and the societies still living are ranked
//     separately; among the living, and among the dead, a higher score ranks
//     higher and equal scores share a rank.
//   - A View's Turn is the turn being played; at an inflection it is the
//     turn the inflection follows.
package ajveciv
