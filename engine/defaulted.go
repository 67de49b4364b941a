package engine

// Defaulter is implemented by matches that show that a seat's move was
// replaced by its request's default, and why: TNCC's history says why a
// bot's refused action became a wait. Apply cannot know it (a refused move
// leaves the match unchanged, and the default is an ordinary move), and the
// record keeps it in the step's fault, not in its move. So whoever applies
// a default for a fault (the Runner, Replay, a live host playing or
// replaying its log) calls Defaulted with the fault just before applying
// the default, and a match replayed from its record is the match that was
// played.
type Defaulter interface {
	// Defaulted tells the match that seat's next move is its request's
	// default, applied for fault f.
	Defaulted(seat int, f Fault)
}

// defaulted tells m, if it is a Defaulter, that seat's next move is a
// default applied for fault f.
func defaulted(m any, seat int, f Fault) {
	if d, ok := m.(Defaulter); ok {
		d.Defaulted(seat, f)
	}
}
