package ajveciv

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// offer is the three values offered to a society. The first is repeated in
// a fourth byte: four bytes copy and compare faster than three, and has can
// then test all four at once.
type offer [4]Value

// newOffer returns the offer of a, b and c, in that order.
func newOffer(a, b, c Value) offer { return offer{a, b, c, a} }

// noOffer is the offer of a society that has nothing to choose: it has no
// valid value.
var noOffer = offer{None, None, None, None}

// has reports whether v is one of the offered values, without a branch: it
// looks for a zero byte in the offer xor v in every byte. A society with
// noOffer "has" only None, which callers refuse on their own.
func (o *offer) has(v Value) bool {
	x := o.word() ^ uint32(v)*0x01010101
	return (x-0x01010101)&^x&0x80808080 != 0
}

// word is the offer's four bytes as one number, read in one load.
func (o *offer) word() uint32 {
	b := [4]byte{byte(o[0]), byte(o[1]), byte(o[2]), byte(o[3])}
	return binary.LittleEndian.Uint32(b[:])
}

// deal draws one offer the way the game does: a draw k in [0, 120), read
// through the offer table.
func deal(pcg *rand.PCG) offer { return offerTable[engine.Below(pcg, 120)] }

// dealGroup is how many societies one draw deals; 120^9 < 2^64.
const dealGroup = 9

// dealSpan[g] is 120^g.
var dealSpan = func() (p [dealGroup + 1]uint64) {
	p[0] = 1
	for g := 1; g <= dealGroup; g++ {
		p[g] = p[g-1] * 120
	}
	return p
}()

// offerTable[k] is the offer that draw k stands for: the first three values
// of a partial Fisher–Yates shuffle of the six, in the rules' order, at
// positions (k mod 6, k/6 mod 5, k/30).
var offerTable = func() (t [120]offer) {
	for k := range t {
		deck, x := AllValues, k
		for pos, span := range [3]int{6, 5, 4} {
			j := pos + x%span
			x /= span
			deck[pos], deck[j] = deck[j], deck[pos]
		}
		t[k] = newOffer(deck[0], deck[1], deck[2])
	}
	return t
}()
