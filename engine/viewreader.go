package engine

// ViewReader is implemented by rulesets whose seats' views can be read
// back from the JSON a program is sent them (docs/protocol.md, the
// request's "view"): a bot written in Go with the game's own packages, run
// as a program (player.Serve), then decides on the game's typed view as it
// would in process, with its methods and the helpers that take it.
//
// A view read back holds what its JSON holds, and nothing else: a seat's
// JSON shows exactly what the seat may know, so nothing hidden comes back
// either. Where a game's view in process shows more than its JSON carries
// (the history before the last two cycles of a TNCC match), the reader
// keeps what earlier views of the same seat showed; the game's doc says
// what, if anything, it cannot tell.
type ViewReader[V any] interface {
	// ReadViews returns a reader of the views that one seat of one match
	// is sent, info being the match as its hello tells it. The reader is
	// called with each request's id and its view's JSON, in the order the
	// requests were sent, and returns the view, valid until its next
	// call, or an error that says what is wrong with the JSON. ReadViews
	// refuses, with an error, a match whose players or options the game
	// cannot read.
	ReadViews(info MatchInfo) (func(id int64, data []byte) (V, error), error)
}
