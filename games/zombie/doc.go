// Package zombie is the Zombie Game judge: a hidden-role party game in which
// humans trade antibodies and zombies spread an infection nobody is told
// about, as `arbiter rules zombie` tells it.
//
// # The judge
//
// A [Judge] is the pure state machine of the rules: a roster of
// players, each a human, an infected human or a zombie with antibodies and
// viruses, and the commands a game master records (HUMAN, ZOMBIE,
// GAME_START, INTERACT, CURE, END_TURN, NEXT_TURN). [Judge.Do] applies one
// typed [Command] or refuses it with a [*Refusal] that names its error code
// (E_ARGS, E_DEADLOCK, …); a refused command changes nothing. Every
// interaction follows the table T1–T20 (see [Judge.Do] and the rules text).
//
// # Scripts and output
//
// [Run] reads a whole game.txt, one command per line, and returns the
// [Transcript]: the announcements, the private messages, the ERROR lines
// with their line numbers, and the final state. [Transcript.WriteText]
// prints what the judge says line for line (arbiter rules zombie); [Transcript.WriteJSON] the
// same content as one JSON document. [Transcript.WritePrivate] and
// [Transcript.WritePrivateJSON] print only what one player may know: their
// own PRIVATE lines and the public ones. Every view passes through one
// redaction point, so no view says "infected" or shows another player's
// counts.
//
// # Configs
//
// [ParseConfig] reads config.yml strictly; [Config.Script] writes the
// game.txt a game master records the evening into, with the zombies drawn
// from the config's seed by [DrawZombies].
//
// # The same rules as an Arbiter game
//
// [Game] is an engine.Ruleset: bots hold the seats, and every turn each
// seat sends a [Plan] (whom to touch, with precaution or viruses, whether to
// cure, whether to end its turn early) seeing only its own PRIVATE lines and
// the PUBLIC lines ([View]). The match turns the plans into script commands
// in a documented order and runs them through the same [Judge]; [Script]
// converts a match record back into a game.txt that [Run] reproduces line
// for line.
//
// # Bots and search
//
// The built-in bots (see [Bots]): sensible, cautious and spreader play a
// rule of thumb for each role ([Sensible]); searcher, searcher.zombie and
// searcher.human search ([Searcher]): they play each plan of a covering
// set forward in matches drawn from their view. The hooks of a search AI
// (engine/search.go) are [Match.Clone], [Match.Moves] and [Game.Sample],
// which draws who is a zombie and who is infected from one seat's view
// alone. [Game.ReadViews] reads a view back from the JSON a program is
// sent (engine.ViewReader), from that seat's lines alone too, so that a
// bot run as a program (player.Serve) decides on the same View as it does
// in process.
package zombie
