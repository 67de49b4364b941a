package engine

import (
	"sync"
	"time"
)

// The phase word is how a match's owner and the watchdog agree, without a
// lock or a clock read per decision, on who may touch the match. Its layout:
//
//	bits 0-1   state: running, deciding or done
//	bits 2-13  the seat being asked, while deciding
//	bit  14    the call is a Start or Finish rather than a decision
//	bit  15    the decision is a Reply, with the seat's reply deadline
//	bits 16-63 a serial number, unique per decision within a runner
//
// The goroutine that owns a match stores a deciding word before it calls a
// player and swaps it (compare-and-swap) for the next word when the call
// returns. Whoever swaps a deciding word away first owns the match: the
// owner, when the call returns in time; the watchdog, when the call overran;
// an interrupted Run, when the context is cancelled. A caller that loses the
// swap touches nothing and goes away.
const (
	stateRunning  = 0
	stateDeciding = 1
	stateDone     = 2
	stateMask     = 3

	seatShift   = 2
	seatMask    = 1<<12 - 1
	ceremonyBit = 1 << 14
	replyBit    = 1 << 15
	serialShift = 16

	// MaxSeats is the largest seat number the runner can watch, plus one.
	MaxSeats = seatMask + 1
)

// phaseWord makes a word; call is 0, ceremonyBit or replyBit.
func phaseWord(serial uint64, seat int, call uint64, state uint64) uint64 {
	return serial<<serialShift | uint64(seat&seatMask)<<seatShift | call | state
}

func wordSerial(w uint64) uint64 { return w >> serialShift }
func wordSeat(w uint64) int      { return int(w >> seatShift & seatMask) }
func wordState(w uint64) uint64  { return w & stateMask }

// watched is a match the watchdog samples.
type watched interface {
	// check samples the match at time now and takes it over if a player
	// has overrun its deadline. It is called with the watchdog's lock held.
	check(now time.Time)
	// shortestLimit is the shortest deadline in the match, or zero.
	shortestLimit() time.Duration
}

// watchdog samples every running match's phase word a few times per shortest
// deadline. There is one per process; it sleeps when nothing is watched.
type watchdog struct {
	mu      sync.Mutex
	watched []watched
	awake   bool
}

var dog watchdog

const (
	minTick  = time.Millisecond
	maxTick  = 25 * time.Millisecond
	idleStop = time.Second // the watchdog goroutine ends after this long with nothing to watch
)

func (d *watchdog) add(w watched) {
	d.mu.Lock()
	d.watched = append(d.watched, w)
	if !d.awake {
		d.awake = true
		go d.run()
	}
	d.mu.Unlock()
}

func (d *watchdog) remove(w watched) {
	d.mu.Lock()
	for i, x := range d.watched {
		if x == w {
			last := len(d.watched) - 1
			d.watched[i] = d.watched[last]
			d.watched[last] = nil
			d.watched = d.watched[:last]
			break
		}
	}
	d.mu.Unlock()
}

func (d *watchdog) run() {
	var idle time.Duration
	for {
		tick := maxTick
		d.mu.Lock()
		if len(d.watched) == 0 {
			if idle >= idleStop {
				d.awake = false
				d.mu.Unlock()
				return
			}
			idle += tick
		} else {
			idle = 0
			now := time.Now()
			for _, w := range d.watched {
				w.check(now)
				if l := w.shortestLimit(); l > 0 && l/10 < tick {
					tick = l / 10
				}
			}
		}
		d.mu.Unlock()
		time.Sleep(max(tick, minTick))
	}
}
