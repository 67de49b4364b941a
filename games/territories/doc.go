// Package territories is the rules of territories, a Risk-style game of
// nations that join on a map, raise armies, move them and attack their
// neighbours, as `arbiter rules territories` tells it.
//
// The rules are a [World] and its [World.Apply]: a player's [Action] in,
// an [Outcome] or a refusal (*engine.RuleError, the world unchanged) out.
// Battles are [Fight]: a armies attack b, a d20 shows x, and the attack
// succeeds when x > (b − a)·2 + 10 (always on 19 or 20, never on 1). All
// chance comes from the world's dice, a PCG seeded from the [Config]'s seed
// and kept in the world's snapshot ([World.MarshalJSON], [LoadWorld]), so
// the same configuration and actions give the same game.
//
// Two drivers use the rules. The referee (package store/territories and
// arbiter territories) takes actions from outside, one at a time, and
// stores each before it answers. [Game] plays the same rules as an
// ordinary Arbiter game among bots, with turn management on: seats join on
// the sample map ([Sample]) and then act in turn.
//
// A configuration is read from YAML or JSON by [ReadConfig]: the map, the
// territories with their names, aliases and neighbours, and the numbers.
//
// # Writing a bot
//
// A bot implements [Bot]: Join chooses where its nation is founded, Act one
// action of its turn. [Player] seats it, [Bots] names the built-in ones
// (random, greedy, general). A bot reads its seat's [View]: the whole
// board, what it may do ([View.Legal], [View.AppendLegal]), the map
// ([View.Config], the seat's own copy) and a world to try actions on
// ([View.World]), whose dice are never the match's. A bot that wants chance
// implements [Seeded]; one that prepares for each match, engine.Initializer.
// See ExamplePlayer. [Game.ReadViews] reads a view back from the JSON a
// program is sent (engine.ViewReader), so that a bot run as a program
// (player.Serve) decides on the view it would have in process: the JSON
// holds all of it, each nation's actions in the turn and what happened
// since the seat's last action included.
package territories
