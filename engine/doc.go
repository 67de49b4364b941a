// Package engine is the contract every Arbiter ruleset implements, the match
// runner that drives it, and the match record that keeps it.
//
// # A match is a log
//
// A match is a ruleset name, a [Setup] (players, options, seed) and an ordered
// list of moves. Everything else is derived: the state of a match is what you
// get by replaying its moves from its setup. Rules are deterministic functions
// of (state, move); all chance comes from the match's seeded random source
// ([NewRNG]), whose state is part of the game state.
//
// # The contract
//
// A [Ruleset] makes a [Match] from a [Setup]. A Match says which decisions it
// is owed ([Match.Pending]), takes moves ([Match.Apply]), shows each seat exactly
// what it may know ([Match.View]) and, when it is over, its [Result].
//
// Decisions are an open set. Each pending [Request] names a seat, a [Kind], the
// finite choices when there are any, and the default move used when a player
// is slow, crashes or answers nonsense. All requests returned by one call to
// Pending are simultaneous: each is answered from the same state, and applying
// one does not change the others. A simultaneous turn (AjveCiv, Reaj) is
// simply one request per living seat; a sequential game returns one request
// at a time, and applying a move may open a reply owed by another seat (a
// trade answer) with its own [DeadlineClass].
//
// Moves and views are typed per game: a Match is generic over its move type M
// and its view type V. Views are typed values handed to in-process players as
// they are; they become JSON only where they cross a process boundary.
//
// Optional interfaces let hosts learn more without knowing the game:
// [Publisher] (what a spectator may see), [Measurer] (per-seat numbers over
// time, for charts) and [json.Marshaler] on the match itself (a snapshot of the
// full state, hashed into the record). A ruleset that is a [Restorer] resumes
// a match from such a snapshot without replaying its moves; package
// enginetest checks that it does so exactly. A ruleset that is a
// [ViewReader] reads a seat's view back from the JSON a program is sent,
// so that a Go player run as a program (player.Serve) decides on the typed
// view it would have in process; enginetest.CheckReadViews checks that.
//
// # Running matches
//
// A [Runner] is the pull driver used for bots: it asks each pending request of
// the seat's [Player], enforces deadlines, applies the moves in request order
// and appends them to a [Record]. A player that panics, returns an error,
// answers an illegal move or overruns its deadline gets the request's default
// move, and the [Fault] is written beside that move in the record. An
// in-process Go player that overruns its deadline is abandoned: the stuck call
// is left behind and the seat gets default moves from then on.
//
// While a stuck call runs, its player is called no more, since a player's
// calls never overlap: any other seat it sits in is abandoned too, and a
// runner that plays more matches (a [Series], a tournament's worker) plays
// the player's seats in them as abandoned from the start, never started,
// with a fault that says from which match its call still runs. Once the
// call has returned, the player plays again from the next match that
// starts, its Start first. A player is the same pointer (or a Shell around
// the same bot); equal copies of a value that refers to nothing, such as a
// player type of numbers or a pointer to a type of no size, share no
// state and are not held back.
//
// Deadlines cost almost nothing per decision: no clock is read and no
// goroutine hand-off is made. The runner publishes each decision in one atomic
// word; a single process-wide watchdog samples those words every few
// milliseconds and takes over a match whose player has sat on one decision for
// longer than its deadline.
//
// A [Series] plays several matches one after another, and [Replay] re-runs a
// record from its setup and moves and checks its result and state hash.
package engine
