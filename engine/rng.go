package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// Stream constants keep the match's random source and the bots' apart.
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

// SeatSeed returns the seed of the dice of the player at seat in a match
// played with seed. It is a one-way function of both (SHA-256): a player
// given its seat's seed cannot work the match's seed out from it, and so
// neither the match's hidden draws nor another seat's dice. It is the only
// seed a player is ever told (MatchInfo.Seed).
//
// One-way is not secret: a player may try match seeds, a million a second
// or so, until one gives its seat's seed. A match seed drawn at random
// (64 bits, as the command line draws one when --seed is not given) is
// beyond reach; a small one chosen by hand (--seed 1, and the games of a
// tournament after it, Series.Seed 1, ...) is found at once, and with it
// every hidden draw. Play matches whose secrets count with random seeds.
func SeatSeed(seed uint64, seat int) uint64 {
	var b [32]byte
	copy(b[:16], "arbiter seat\x00\x00\x00\x00")
	binary.BigEndian.PutUint64(b[16:], seed)
	binary.BigEndian.PutUint64(b[24:], uint64(seat))
	sum := sha256.Sum256(b[:])
	return binary.BigEndian.Uint64(sum[:8])
}

// SeatRNG returns the random source of the player at seat in a match
// played with seed: the dice seeded by SeatSeed(seed, seat), the same a
// player makes with MatchInfo.RNG. Bots never draw from the match's source.
func SeatRNG(seed uint64, seat int) *rand.PCG {
	return seatRNG(SeatSeed(seed, seat))
}

func seatRNG(seatSeed uint64) *rand.PCG { return rand.NewPCG(seatSeed, seatStream) }

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
