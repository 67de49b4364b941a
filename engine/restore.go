package engine

import (
	"encoding/json"
	"fmt"
)

// Restorer is implemented by rulesets that resume a match from a snapshot
// of it, without replaying its moves: a live store saves snapshots and
// resumes a match from the latest one.
//
// A snapshot is what the match's MarshalJSON (json.Marshaler) writes: its
// full state, the same bytes StateHash hashes. Restore takes it with the
// setup the match was started from (the one given to New). The match it
// returns continues exactly as the original would: now and under any later
// moves, legal or refused, it has the same Pending (request ids included),
// the same View of every seat and of Judge, the same Public, Over, Result,
// refusals and snapshot (hence the same StateHash), byte for byte, and it
// shares no memory with anything the original holds.
//
// A snapshot of other rules, of a match of another setup (other seats or
// options), or a damaged one is an error that names what is wrong. Restore
// never panics, and a match it returns never panics on later moves, whatever
// the bytes it was given.
//
// A snapshot holds everything the referee knows, secrets included: hidden
// roles, the flanks of a war not yet answered, the state of the match's
// random source (and so every draw to come). It is for storage only: never
// show it to a seat, a spectator or a bot.
type Restorer[M, V any] interface {
	// Restore resumes the match of setup that snapshot shows.
	Restore(setup Setup, snapshot []byte) (Match[M, V], error)
}

// SnapshotProblem says why data, a snapshot that game's rules could not
// read (err), is not one of theirs: the game it is of, when its "game" key
// names another, else err itself; prefixed with game's name.
func SnapshotProblem(game string, data []byte, err error) error {
	var probe struct {
		Game *string `json:"game"`
	}
	if json.Unmarshal(data, &probe) == nil && probe.Game != nil && *probe.Game != game {
		return fmt.Errorf("%s: the snapshot is of a %q match, not of %s", game, *probe.Game, game)
	}
	return fmt.Errorf("%s: snapshot: %w", game, err)
}
