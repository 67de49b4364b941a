package engine

import (
	"fmt"
	"reflect"
	"sync"
)

// strays are the calls a runner left running: calls of in-process players
// whose match was taken over while they ran, by the watchdog when they
// overran their deadline or by an interrupted Run. Each goes on, on its
// goroutine, until it returns, and its player is not called again by the
// runner meanwhile (Player's calls never overlap): its other seats in the
// match are abandoned, and so are its seats in the runner's later matches,
// from their start.
//
// The runner notes a call when it leaves it (left), and the call's own
// goroutine notes its return when it finds its match taken over
// (returned); either may come first. Nothing is noted on the way of a call
// that returns in time.
type strays struct {
	mu    sync.Mutex
	calls []stray
}

// stray is a call left running, known by the serial of its phase word.
type stray struct {
	serial uint64
	player any // the player called; nil when the call returned before it was left
	game   int // the match it was left in, as Runner.Game; 0 when not numbered
}

// why says why a seat of the call's player is not asked, in a later match.
func (c stray) why() string {
	if c.game == 0 {
		return "its call from an earlier match still runs"
	}
	return fmt.Sprintf("its call from match %d still runs", c.game)
}

// left notes that the call of serial, made on player in game, was left
// running, and reports whether it still runs: false when it returned
// first.
func (s *strays) left(serial uint64, player any, game int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drop(serial) {
		return false
	}
	s.calls = append(s.calls, stray{serial: serial, player: player, game: game})
	return true
}

// returned notes that the call of serial has returned, its match taken
// over; it is called by the call's goroutine.
func (s *strays) returned(serial uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.drop(serial) {
		s.calls = append(s.calls, stray{serial: serial})
	}
}

// drop forgets the call of serial, reporting whether it was noted.
func (s *strays) drop(serial uint64) bool {
	for i, c := range s.calls {
		if c.serial == serial {
			last := len(s.calls) - 1
			s.calls[i] = s.calls[last]
			s.calls[last] = stray{}
			s.calls = s.calls[:last]
			return true
		}
	}
	return false
}

// of returns a call of p's that still runs, if there is one. The caller
// holds s.mu.
func (s *strays) of(p any) (stray, bool) {
	for _, c := range s.calls {
		if c.player != nil && samePlayer(c.player, p) {
			return c, true
		}
	}
	return stray{}, false
}

// samePlayer reports whether a and b are one player, whose calls must
// not overlap: equal values that share what they refer to (the same
// pointer, say), or players that embed a Shell around such bots, as a
// game's Player(bot) makes a new player around the same bot each time it
// is called. Equal values that refer to nothing (a number, a struct of
// numbers and strings) are copies, each called on its own, and are not
// one player. Values that cannot be compared (functions, as a PlayerFunc
// is) are not recognised.
func samePlayer(a, b any) bool {
	if shared(a, b) {
		return true
	}
	ba, bb := botOf(a), botOf(b)
	return ba != nil && (shared(ba, b) || shared(ba, bb)) || bb != nil && shared(a, bb)
}

// shared reports whether a == b, and a holds a reference by which two
// copies of it share what it refers to: false when they cannot be
// compared, or are copies that share nothing.
func shared(a, b any) bool {
	return equal(a, b) && refers(reflect.TypeOf(a))
}

// equal reports whether a == b, false when they cannot be compared.
func equal(a, b any) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
}

// refers reports whether a value of type t may refer to memory beyond
// itself: a pointer, map, slice, channel, function or interface, or an
// array or struct holding one. Strings cannot change, and count as none;
// nor does a pointer to a type of no size (&struct{}{}), which holds
// nothing, and which Go may give two of the same address.
func refers(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer:
		return t.Elem().Size() > 0
	case reflect.Array:
		return t.Len() > 0 && refers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if refers(t.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.UnsafePointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface:
		return true
	}
	return false
}

// botOf is the bot of a player that embeds a Shell, or nil.
func botOf(p any) (bot any) {
	defer func() {
		if recover() != nil {
			bot = nil // a nil pointer to a player that embeds one
		}
	}()
	if s, ok := p.(shelled); ok {
		return s.shelledBot()
	}
	return nil
}

// shelled is a player that embeds a Shell.
type shelled interface{ shelledBot() any }
