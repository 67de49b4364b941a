// Package tncc is TNCC, countries that trade, recruit and go to war, as
// `arbiter rules tncc` tells it.
//
// Each country holds gold, food, citizens, an army and land (Stock, indexed
// by Resource). A cycle is one turn of every living country, in seat order,
// each taking one action (wait, recruit, a trade offer or a war), then
// production for all. A trade opens an answer owed by the country offered
// it; a war, a defence owed by the country attacked, which is told who
// attacks and with how many soldiers in all, never the flanks. The last
// country alive wins; a country's score is the cycles it survived.
//
// # Playing
//
// Game is the engine.Ruleset; its "preset" option names the game's numbers
// (Preset: Default, LookupPreset, PresetNames) or gives a custom preset's
// JSON. Bots returns the built-in bots by the names the CLI takes (nothing,
// turtle, war, blitz, trader, general, marshal, random). World and its
// methods (Check, Recruit, Trade, War, Produce) are the rules on a world,
// and Step the pure rules step on the world's JSON.
//
// # Writing a bot
//
// A bot implements Bot: Turn chooses the turn's action, AnswerTrade and
// AnswerWar answer another country's offer or attack; Player makes it an
// engine.Player, and a bot that prepares for each match implements
// BotInitializer. A bot reads its country's View: every country's
// resources, the preset, the public history (View.History, whose Entry
// never holds a war's flanks), and the question it is asked; View.World is
// a copy of the world to play the rules forward on. A view is valid only
// during the decision it was given for. Game.ReadViews reads a view back
// from the JSON a program is sent (engine.ViewReader), keeping the history
// its earlier views told, so that a bot run as a program (player.Serve)
// decides on the same View as it does in process.
//
// # Search
//
// A search AI plays a decision forward with the rules (engine/search.go):
// Match.Clone copies a match, Match.Moves generates a covering set of a
// turn's actions and answers, Match.Estimate says how each country stands,
// and Game.Sample makes a match from one country's view, drawing the flanks
// of a war it must answer from the splits attackers use.
package tncc
