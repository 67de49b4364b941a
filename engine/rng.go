package engine

import (
	"math/bits"
	"math/rand/v2"
)

// Stream constants keep the match's random source and the bots' apart, so
// that a bot can never predict the match's draws from its own.
const (
	matchStream = 0x41524249_54455231 // "ARBITER1"
	seatStream  = 0x5345_4154_0000_0000
)

// NewRNG returns the match's random source for seed. It is a PCG
// (math/rand/v2) whose state can be saved with MarshalBinary; every draw the
// rules make comes from it, in the order each game documents.
func NewRNG(seed uint64) *rand.PCG {
	return rand.NewPCG(seed, matchStream)
}

// SeatRNG returns a random source for a bot at seat in a match with the given
// seed. Bots never draw from the match's source; a bot that wants chance uses
// this one, so the same seed gives the same game.
func SeatRNG(seed uint64, seat int) *rand.PCG {
	return rand.NewPCG(seed^seatStream, uint64(seat)+1)
}

// Below returns a uniform random number in [0, n) from src, by Lemire's
// multiply-and-reject method: exact, and almost always one draw. n must be > 0.
func Below(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		return belowSlow(src, n, hi, lo)
	}
	return hi
}

// belowSlow is Below's rare case: lo may fall in the biased zone.
func belowSlow(src *rand.PCG, n, hi, lo uint64) uint64 {
	threshold := -n % n
	for lo < threshold {
		hi, lo = bits.Mul64(src.Uint64(), n)
	}
	return hi
}
